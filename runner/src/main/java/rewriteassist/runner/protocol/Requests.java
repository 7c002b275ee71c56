package rewriteassist.runner.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.common.Jackson;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.results.ResultsFile;

/**
 * Request files read and checked against the protocol: the fields every request has ({@code output},
 * {@code id}, {@code protocol}, {@code type}, in that order), then those of its type.
 */
public final class Requests {
    private Requests() {}

    /** Answers a request file that is not a request, and gives the exception to throw. */
    public interface Rejecter {
        BadRequest reject(String why, @Nullable String id, @Nullable Path output);
    }

    public static Request read(Path file, Rejecter rejecter) throws BadRequest {
        JsonNode json;
        try {
            json = Jackson.MAPPER.readTree(file.toFile());
        } catch (IOException | RuntimeException e) {
            throw rejecter.reject(file + " cannot be read as JSON: " + Log.oneLine(e), null, null);
        }
        if (json == null || !json.isObject()) {
            throw rejecter.reject(file + " is not a JSON object", null, null);
        }
        String outputText = json.path("output").asText("");
        Path output = outputText.isEmpty() ? null : Paths.get(outputText);
        String id = json.path("id").isTextual() ? json.path("id").asText() : null;
        if (output == null) {
            throw rejecter.reject(file + " has no `output`", id, null);
        }
        if (id == null || id.isEmpty()) {
            throw rejecter.reject(file + " has no `id`", null, output);
        }
        if (json.path("protocol").asInt(-1) != ResultsFile.PROTOCOL) {
            throw rejecter.reject("protocol " + json.path("protocol") + " is not " + ResultsFile.PROTOCOL, id, output);
        }
        String type = json.path("type").asText("");
        return switch (type) {
            case ParseRequest.TYPE -> ParseRequest.from(json, id, output, rejecter);
            case RunRequest.TYPE -> RunRequest.from(json, id, output, rejecter);
            case CompileTemplatesRequest.TYPE -> CompileTemplatesRequest.from(json, id, output, rejecter);
            case LearnTemplatesRequest.TYPE -> LearnTemplatesRequest.from(json, id, output, rejecter);
            default -> throw rejecter.reject("unknown request type `" + type + "`", id, output);
        };
    }

    /** A text field that must be there and not empty. */
    static String text(JsonNode json, String field, String id, Path output, Rejecter rejecter) throws BadRequest {
        JsonNode value = json.get(field);
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw rejecter.reject("`" + field + "` is missing", id, output);
        }
        return value.asText();
    }
}
