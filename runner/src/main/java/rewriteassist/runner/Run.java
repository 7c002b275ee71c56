package rewriteassist.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.PrintOutputCapture;
import org.openrewrite.Recipe;
import org.openrewrite.RecipeRun;
import org.openrewrite.Result;
import org.openrewrite.SourceFile;
import org.openrewrite.Validated;
import org.openrewrite.config.ClasspathScanningLoader;
import org.openrewrite.config.DeclarativeRecipe;
import org.openrewrite.config.Environment;
import org.openrewrite.config.OptionDescriptor;
import org.openrewrite.config.YamlResourceLoader;
import org.openrewrite.internal.InMemoryLargeSourceSet;
import org.openrewrite.internal.RecipeRunException;

/**
 * Runs a recipe on the parsed trees: each of its steps on its own (every step sees the unchanged
 * trees, so each one's changes are exactly its own), then the recipe as a whole without the steps
 * that failed validation or threw. A failing step is reported with its name and left out; the
 * others still count.
 */
final class Run {
    /** The recipes on the runner's classpath: scanned once (seconds), reused by every request. */
    private static ClasspathScanningLoader classpath;

    private Run() {}

    private static synchronized ClasspathScanningLoader classpath() {
        if (classpath == null) {
            classpath = new ClasspathScanningLoader(new Properties(), new String[0]);
        }
        return classpath;
    }

    static ObjectNode recipe(List<SourceFile> trees, JsonNode request) {
        long started = System.nanoTime();
        String name = request.path("recipe").asText();
        Environment env;
        try {
            Environment.Builder builder = Environment.builder().load(classpath());
            for (JsonNode file : request.path("recipe_files")) {
                Path path = Paths.get(file.asText());
                try (InputStream in = Files.newInputStream(path)) {
                    builder.load(new YamlResourceLoader(in, path.toUri(), new Properties()), List.of(classpath()));
                }
            }
            env = builder.build();
        } catch (IOException | RuntimeException e) {
            return Main.failure("", "yaml_error", Main.oneLine(e), Main.stack(e));
        }
        List<Recipe> available = env.listRecipes();
        Optional<Recipe> found =
                available.stream().filter(r -> r.getName().equals(name)).findFirst();
        if (found.isEmpty()) {
            return Main.failure("", "unknown_recipe", "recipe `" + name + "` is not defined by the recipe files", null);
        }
        // Declarative recipes name their steps; each is looked up among everything loaded (a name
        // found nowhere stays uninitialized and fails that step's validation).
        for (Recipe r : available) {
            if (r instanceof DeclarativeRecipe declarative) {
                declarative.initialize(available);
            }
        }
        Recipe recipe = found.get();
        boolean eachStep = request.path("each_step").asBoolean(false);

        ObjectNode results = Main.JSON.createObjectNode();
        ArrayNode runs = results.putArray("runs");
        List<Recipe> steps = recipe.getRecipeList();
        List<Recipe> good = new ArrayList<>();
        ArrayNode leftOut = Main.JSON.createArrayNode();
        if (eachStep) {
            for (int i = 0; i < steps.size(); i++) {
                ObjectNode step = one(trees, steps.get(i));
                step.put("step", i);
                runs.add(step);
                if (step.path("error").isNull()) {
                    good.add(steps.get(i));
                } else {
                    leftOut.add(i);
                }
            }
        }
        Recipe whole = recipe;
        if (leftOut.size() > 0) {
            whole = new Without(recipe, good);
        }
        ObjectNode all = one(trees, whole);
        all.putNull("step");
        all.put("name", name);
        all.set("left_out", leftOut);
        runs.add(all);
        results.put("ok", true);
        results.put("seconds", (System.nanoTime() - started) / 1e9);
        return results;
    }

    /**
     * The recipe with only the steps that worked on their own. (A copy of a DeclarativeRecipe with a
     * shorter list fails its own "uninitialized recipes" validation; our options have no
     * preconditions at the top, so a plain composite is the same recipe.)
     */
    static final class Without extends Recipe {
        private final String name;
        private final String displayName;
        private final List<Recipe> steps;

        Without(Recipe recipe, List<Recipe> steps) {
            this.name = recipe.getName();
            this.displayName = recipe.getDisplayName();
            this.steps = steps;
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public String getDisplayName() {
            return displayName;
        }

        @Override
        public String getDescription() {
            return "The recipe without the steps that failed on their own.";
        }

        @Override
        public List<Recipe> getRecipeList() {
            return steps;
        }
    }

    /** One recipe on the trees: its diff and files, or why it could not run. */
    private static ObjectNode one(List<SourceFile> trees, Recipe recipe) {
        long started = System.nanoTime();
        ObjectNode run = Main.JSON.createObjectNode();
        run.put("name", recipe.getName());
        ObjectNode options = run.putObject("options");
        try {
            for (OptionDescriptor option : recipe.getDescriptor().getOptions()) {
                if (option.getValue() != null) {
                    options.set(option.getName(), Main.JSON.valueToTree(option.getValue()));
                }
            }
        } catch (RuntimeException e) {
            // A descriptor that cannot be built is no reason not to run the recipe.
        }
        ArrayNode warnings = run.putArray("warnings");
        ArrayNode files = run.putArray("files");
        run.put("diff", "");
        run.putNull("error");
        List<Throwable> errors = new ArrayList<>();
        ExecutionContext ctx = new InMemoryExecutionContext(errors::add);

        Validated<Object> validated = recipe.validate(ctx);
        if (validated.isInvalid()) {
            String why = validated.failures().stream()
                    .map(f -> f.getProperty() + ": " + f.getMessage())
                    .collect(Collectors.joining("; "));
            String kind = why.contains("not found") || why.contains("Unable to find") || why.contains("unknown recipe")
                    ? "unknown_recipe"
                    : "invalid_option";
            run.set("error", Main.error(kind, recipe.getName() + ": " + why, null));
            return finish(run, started);
        }
        RecipeRun result;
        try {
            result = recipe.run(new InMemoryLargeSourceSet(trees), ctx);
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable t) {
            run.set("error", Main.error("recipe_error", recipe.getName() + ": " + Main.oneLine(t), Main.stack(t)));
            return finish(run, started);
        }
        // A visitor that threw reaches the context's error handler as a RecipeRunException (and its
        // tree gets an error marker): the step failed. Anything else there (a POM a Maven recipe
        // could not download) is a warning.
        Optional<RecipeRunException> thrown = errors.stream()
                .filter(RecipeRunException.class::isInstance)
                .map(RecipeRunException.class::cast)
                .findFirst();
        if (thrown.isPresent()) {
            Throwable cause = thrown.get().getCause() == null
                    ? thrown.get()
                    : thrown.get().getCause();
            run.set(
                    "error",
                    Main.error("recipe_error", recipe.getName() + ": " + Main.oneLine(cause), Main.stack(cause)));
            return finish(run, started);
        }
        StringBuilder diff = new StringBuilder();
        for (Result change : result.getChangeset().getAllResults()) {
            // SANITIZED: the markers recipes leave (download warnings, search results) are not text
            // of the file, as the Maven plugin does not write them either.
            String section = change.diff(null, PrintOutputCapture.MarkerPrinter.SANITIZED);
            if (section.isBlank()) {
                continue;
            }
            SourceFile after = change.getAfter();
            Path path =
                    after != null ? after.getSourcePath() : change.getBefore().getSourcePath();
            files.add(path.toString());
            diff.append(section);
            if (diff.charAt(diff.length() - 1) != '\n') {
                diff.append('\n');
            }
        }
        run.put("diff", diff.toString());
        for (Throwable t : errors) {
            warnings.add(Main.oneLine(t));
        }
        return finish(run, started);
    }

    private static ObjectNode finish(ObjectNode run, long started) {
        run.put("seconds", (System.nanoTime() - started) / 1e9);
        return run;
    }
}
