package rewriteassist.runner.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.measure.Measurements;

/**
 * A {@code run} request.
 *
 * @param recipe the recipe to run, from {@code recipeFiles} or the catalog
 * @param whole whether the recipe also runs as a whole (discovery only wants each step on its own)
 * @param stopAfterSeconds with each step on its own: no step starts after this many seconds (0: no
 *     limit)
 * @param after a recipe (in {@code recipeFiles}) run once first; the steps then run on its result and
 *     report what they change of it (null: the steps run on the parsed trees)
 * @param measure what to measure of the whole run (null: nothing)
 * @param datatables where the whole run exports its data tables (null: nowhere)
 * @param learnedJars learned recipe jars whose recipes the run may name
 * @param learnedLibraries the libraries their templates use
 */
public record RunRequest(
        String id,
        Path output,
        List<Path> recipeFiles,
        String recipe,
        boolean eachStep,
        boolean whole,
        double stopAfterSeconds,
        @Nullable String after,
        @Nullable Measurements measure,
        @Nullable Path datatables,
        List<Path> learnedJars,
        List<Path> learnedLibraries)
        implements Request {
    static final String TYPE = "run";

    @Override
    public String type() {
        return TYPE;
    }

    static RunRequest from(JsonNode json, String id, Path output, Requests.Rejecter rejecter) throws BadRequest {
        if (!json.path("recipe_files").isArray()) {
            throw rejecter.reject("`recipe_files` is not a list", id, output);
        }
        List<Path> recipeFiles = StreamSupport.stream(json.path("recipe_files").spliterator(), false)
                .map(file -> Paths.get(file.asText()))
                .toList();
        String recipe = Requests.text(json, "recipe", id, output, rejecter);
        return new RunRequest(
                id,
                output,
                recipeFiles,
                recipe,
                json.path("each_step").asBoolean(false),
                json.path("whole").asBoolean(true),
                json.path("stop_after_seconds").asDouble(0),
                json.path("after").isTextual() && !json.path("after").asText().isEmpty()
                        ? json.path("after").asText()
                        : null,
                Measurements.from(json.path("measure")),
                json.path("datatables").isTextual()
                                && !json.path("datatables").asText().isEmpty()
                        ? Paths.get(json.path("datatables").asText())
                        : null,
                paths(json.path("learned").path("jars")),
                paths(json.path("learned").path("libraries")));
    }

    private static List<Path> paths(JsonNode list) {
        List<Path> paths = new ArrayList<>();
        list.forEach(path -> paths.add(Paths.get(path.asText())));
        return List.copyOf(paths);
    }
}
