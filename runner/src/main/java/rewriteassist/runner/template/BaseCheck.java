package rewriteassist.runner.template;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rewriteassist.runner.parse.RepositoryParser;
import rewriteassist.runner.protocol.Failure;
import rewriteassist.runner.results.LearnResults;
import rewriteassist.runner.results.RunResults;
import rewriteassist.runner.results.StepRun;
import rewriteassist.runner.run.RecipeRunner;

/**
 * Each compiled template's recipe run on the base trees, as a {@code run} with {@code learned} runs
 * it (its own class loader as the thread's context class loader, or the templates match nothing),
 * and the base lines each one changes, read from its diff. Lines of imports, and blank lines, do not
 * count: a recipe adds and removes the imports of what it rewrites (and the blank line after them),
 * which is no statement the PR left alone.
 */
final class BaseCheck {
    /** What one template's recipe did on the base: the lines it changed, or the error it ran into. */
    record Outcome(List<LearnResults.Place> changed, String error) {}

    private static final Pattern HUNK = Pattern.compile("^@@ -(\\d+)(?:,\\d+)? \\+\\d+(?:,\\d+)? @@");

    private BaseCheck() {}

    /** By recipe name: what each step of {@code recipe} (the file's {@code …Recipes}) changes on the base. */
    static Map<String, Outcome> run(RepositoryParser.Outcome parsed, Path jar, List<Path> libraries, String recipe)
            throws Failure {
        LearnedRecipes learned = LearnedRecipes.NONE.reuseOr(List.of(jar), libraries);
        RunResults results;
        LearnedRecipes.Scope scope = learned.activate();
        try {
            results = RecipeRunner.recipe(
                    parsed, List.of(), recipe, new RecipeRunner.Mode(true, false, 0, null, null, null, learned));
        } finally {
            scope.close();
            learned.close();
        }
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (StepRun run : results.runs()) {
            String error = run.error() == null ? "" : run.error().message();
            outcomes.put(run.name(), new Outcome(changedLines(run.diff()), error));
        }
        return outcomes;
    }

    /** The base lines a unified diff removes or replaces, by file: imports, package and blank lines aside. */
    static List<LearnResults.Place> changedLines(String diff) {
        List<LearnResults.Place> changed = new ArrayList<>();
        String path = null;
        int line = 0;
        for (String text : diff.split("\n", -1)) {
            Matcher hunk = HUNK.matcher(text);
            if (text.startsWith("--- ")) {
                String name = text.substring(4);
                path = name.startsWith("a/") ? name.substring(2) : null;
            } else if (text.startsWith("+++ ") || text.startsWith("diff --git")) {
                continue;
            } else if (hunk.find()) {
                line = Integer.parseInt(hunk.group(1));
            } else if (text.startsWith("-")) {
                String removed = text.substring(1).strip();
                if (path != null
                        && !removed.isEmpty()
                        && !removed.startsWith("import ")
                        && !removed.startsWith("package ")) {
                    changed.add(new LearnResults.Place(path, line));
                }
                line++;
            } else if (text.startsWith(" ")) {
                line++;
            }
        }
        return changed;
    }
}
