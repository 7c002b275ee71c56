package rewriteassist.runner.parse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.SourceFile;
import org.openrewrite.java.JavaParser;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.results.ParseResults;
import rewriteassist.runner.run.RecipeRunner;

/**
 * The PR's head version of the files it changes, parsed with the same parsers and classpaths as
 * the base (each Java file with its source set's classpath), for one purpose: to know which types
 * the head uses where the base used others. With the base versions' types (and each recipe run's
 * result types, in {@link RecipeRunner}), the Rust side tells a recipe that writes the PR's change another
 * way from one that keeps the library the PR migrates away from (docs/embedded-runner.md,
 * "types"). Only the changed Java files are parsed: their own types and their libraries' resolve;
 * other files of the project that they use are not in this parse, so those stay unattributed
 * (their names still count through the imports).
 */
public final class HeadFiles {
    private HeadFiles() {}

    /**
     * {@code {"base": {path: [types]}, "head": {path: [types]}, "seconds": s}} for the Java files
     * among {@code files} (paths relative to the parse root; the head versions under
     * {@code headRoot}, at the same relative paths).
     */
    public static ParseResults.Types types(RepositoryParser.Outcome parsed, Path headRoot, List<String> files) {
        long started = System.nanoTime();
        Map<String, SourceFile> base = new LinkedHashMap<>();
        for (SourceFile tree : parsed.trees()) {
            base.put(tree.getSourcePath().toString(), tree);
        }
        List<Path> java = new ArrayList<>();
        for (String file : files) {
            Path head = headRoot.resolve(file).normalize();
            if (file.endsWith(".java") && head.startsWith(headRoot) && Files.isRegularFile(head)) {
                java.add(head);
            }
        }
        Map<String, List<String>> baseTypes = new LinkedHashMap<>();
        for (String file : files) {
            SourceFile tree = base.get(file);
            if (tree != null && file.endsWith(".java")) {
                baseTypes.put(file, TypesInUse.of(tree));
            }
        }
        Map<String, List<String>> headTypes = new LinkedHashMap<>();
        ExecutionContext ctx = new InMemoryExecutionContext(t -> Log.log("head parser: " + Log.oneLine(t)));
        for (JavaSources.SourceSet set : parsed.reactor().sourceSets(headRoot, java, List.of(), List.of())) {
            List<SourceFile> trees = JavaParser.fromJavaVersion()
                    .classpath(set.classpath())
                    .logCompilationWarningsAndErrors(false)
                    .build()
                    .parse(set.java(), headRoot, ctx)
                    .toList();
            for (SourceFile tree : trees) {
                headTypes.put(tree.getSourcePath().toString(), TypesInUse.of(tree));
            }
        }
        double seconds = Log.seconds(started);
        Log.log("  head: " + java.size() + " Java files' types in " + seconds + " s");
        return new ParseResults.Types(baseTypes, headTypes, seconds);
    }
}
