package rewriteassist.runner.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.openrewrite.Recipe;
import org.openrewrite.RecipeRun;
import org.openrewrite.Result;
import org.openrewrite.SourceFile;
import org.openrewrite.config.OptionDescriptor;
import rewriteassist.runner.common.Jackson;

/**
 * Which steps changed which file in the whole run, as OpenRewrite recorded it (the recipe stacks of
 * each result, as the Maven plugin's attribution has them). Each step's own run says what it does
 * to the unchanged trees; a step that works on what an earlier step made (a method renamed once
 * an earlier step moved the call to another type) changes nothing there, and only the whole run
 * shows its part.
 */
final class MadeChanges {
    private MadeChanges() {}

    /**
     * The run's {@code steps_by_file}: for each file in {@code files}, the indexes of the steps whose
     * recipe (same name and options) is in one of its recipe stacks.
     */
    static Map<String, List<Integer>> attribute(
            RecipeRun result, Map<Integer, RecipeRunner.Step> steps, List<String> files) {
        Set<String> changed = new TreeSet<>(files);
        Map<Recipe, Integer> known = new IdentityHashMap<>();
        Map<String, List<Integer>> byFile = new LinkedHashMap<>();
        for (Result change : result.getChangeset().getAllResults()) {
            SourceFile after = change.getAfter() != null ? change.getAfter() : change.getBefore();
            Path path = after.getSourcePath();
            if (!changed.contains(path.toString())) {
                continue;
            }
            Set<Integer> indexes = new TreeSet<>();
            for (List<Recipe> stack : change.getRecipes()) {
                // From the root down: the first recipe that is a step is the step (a sub-recipe
                // of it may look like another step).
                for (Recipe recipe : stack) {
                    int index = known.computeIfAbsent(recipe, r -> stepOf(r, steps));
                    if (index >= 0) {
                        indexes.add(index);
                        break;
                    }
                }
            }
            byFile.put(path.toString(), List.copyOf(indexes));
        }
        return byFile;
    }

    /** The step {@code recipe} is an instance of, or -1. */
    private static int stepOf(Recipe recipe, Map<Integer, RecipeRunner.Step> steps) {
        for (Map.Entry<Integer, RecipeRunner.Step> step : steps.entrySet()) {
            if (same(recipe, step.getValue())) {
                return step.getKey();
            }
        }
        return -1;
    }

    /** Same name, and every option the step sets has the same value in the recipe. */
    private static boolean same(Recipe recipe, RecipeRunner.Step step) {
        if (!recipe.getName().equals(step.name())) {
            return false;
        }
        ObjectNode wanted = step.options();
        if (wanted.isEmpty()) {
            return true;
        }
        List<OptionDescriptor> options;
        try {
            options = recipe.getDescriptor().getOptions();
        } catch (RuntimeException e) {
            return false;
        }
        for (Map.Entry<String, JsonNode> option : wanted.properties()) {
            if (option.getValue().isNull()) {
                continue;
            }
            // An option without a value maps to null, which findFirst() cannot hold: find, then map.
            Object value = options.stream()
                    .filter(o -> o.getName().equals(option.getKey()))
                    .findFirst()
                    .map(OptionDescriptor::getValue)
                    .orElse(null);
            if (value == null) {
                return false;
            }
            JsonNode have = Jackson.MAPPER.valueToTree(value);
            if (!have.equals(option.getValue())
                    && !have.asText().equals(option.getValue().asText())) {
                return false;
            }
        }
        return true;
    }
}
