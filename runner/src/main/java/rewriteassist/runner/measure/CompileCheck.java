package rewriteassist.runner.measure;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.Result;
import org.openrewrite.SourceFile;
import org.openrewrite.java.JavaParser;
import org.openrewrite.java.tree.J;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.maven.Reactor;
import rewriteassist.runner.parse.RepositoryParser;

/**
 * A compile check without a build: the Java files the whole recipe changed are attributed again,
 * their text before against the classpath the parse gave their source set and their text after
 * against the classpath after the recipe ({@link ClasspathAfter}), and the symbols that do not
 * resolve ({@link MissingTypes}) are counted on both sides. A recipe that moves code to a library
 * it does not add, or to a type or method that does not exist, leaves more after than before.
 *
 * <p>Both sides get the same context ({@link CheckContext}): the repository's sources that declare
 * the types the changed files use, so the project's own types resolve alike before and after.
 * Only the changed files' problems count. Each module's source set is one parse per side.
 */
public final class CompileCheck {
    /** At most this many changed files are checked (the first by path). */
    static final int MAX_FILES = 200;

    /** The whole run's {@code unresolved}: totals, files checked, and symbols new after. */
    @JsonPropertyOrder({"before", "after", "checked_files", "samples"})
    public record Counts(
            int before, int after, @JsonProperty("checked_files") int checkedFiles, List<String> samples) {}

    /** The changed files of one source set (null: outside every module), checked in one batch per side. */
    private record Batch(Reactor.@Nullable Placement placement, List<Result> changes) {}

    private CompileCheck() {}

    /**
     * Checks the Java files among {@code changes} (the whole run's counted results) on the trees
     * of {@code parsed}; what fetching the new classpath warned about goes to {@code warnings}.
     */
    static Counts of(RepositoryParser.Outcome parsed, List<Result> changes, List<String> warnings) {
        List<Result> java = changes.stream()
                .filter(c -> c.getAfter() instanceof J.CompilationUnit
                        && c.getAfter().getSourcePath().toString().endsWith(".java"))
                .sorted(Comparator.comparing(c -> c.getAfter().getSourcePath().toString()))
                .toList();
        if (java.size() > MAX_FILES) {
            warnings.add("compile check: " + MAX_FILES + " of the " + java.size() + " changed Java files checked");
            java = java.subList(0, MAX_FILES);
        }
        Map<Path, Result> byBefore = new HashMap<>();
        changes.stream()
                .filter(c -> c.getBefore() != null)
                .forEach(c -> byBefore.put(c.getBefore().getSourcePath(), c));
        ClasspathAfter classpathAfter = new ClasspathAfter(parsed, byBefore);
        CheckContext context = new CheckContext(parsed.trees(), changes);
        int before = 0;
        int after = 0;
        List<String> samples = new ArrayList<>();
        for (Batch batch : batches(parsed.reactor(), java)) {
            Reactor.Placement placement = batch.placement();
            List<Path> jarsBefore = placement == null ? List.of() : placement.jars();
            List<Path> jarsAfter = placement == null ? List.of() : classpathAfter.of(placement);
            List<Path> own = new ArrayList<>();
            List<Parser.Input> inputsBefore = new ArrayList<>();
            List<Parser.Input> inputsAfter = new ArrayList<>();
            for (Result change : batch.changes()) {
                if (change.getBefore() != null) {
                    own.add(change.getBefore().getSourcePath());
                    inputsBefore.add(input(parsed.root(), change.getBefore()));
                }
                own.add(change.getAfter().getSourcePath());
                inputsAfter.add(input(parsed.root(), change.getAfter()));
            }
            List<String> used = context.typesUsedBy(batch.changes());
            Map<Path, List<MissingTypes.Problem>> problemsBefore =
                    problems(parsed.root(), jarsBefore, inputsBefore, context.inputs(used, own, false, parsed.root()));
            Map<Path, List<MissingTypes.Problem>> problemsAfter =
                    problems(parsed.root(), jarsAfter, inputsAfter, context.inputs(used, own, true, parsed.root()));
            before += problemsBefore.values().stream().mapToInt(List::size).sum();
            after += problemsAfter.values().stream().mapToInt(List::size).sum();
            for (Result change : batch.changes()) {
                samples.addAll(newProblems(change, problemsBefore, problemsAfter));
            }
        }
        warnings.addAll(classpathAfter.warnings().stream()
                .map(w -> "compile check: " + w)
                .toList());
        return new Counts(
                before, after, java.size(), List.copyOf(samples.subList(0, Math.min(OldUses.SAMPLES, samples.size()))));
    }

    /** The changed files by module and source set, in path order. */
    private static List<Batch> batches(Reactor reactor, List<Result> java) {
        Map<String, Batch> batches = new LinkedHashMap<>();
        for (Result change : java) {
            Reactor.Placement placement = reactor.placement(change.getAfter().getSourcePath());
            String key = placement == null ? "" : placement.dir() + "#" + placement.test();
            batches.computeIfAbsent(key, k -> new Batch(placement, new ArrayList<>()))
                    .changes()
                    .add(change);
        }
        return List.copyOf(batches.values());
    }

    /** A tree's text as the parser's input, at its path under the root. */
    static Parser.Input input(Path root, SourceFile tree) {
        byte[] text = tree.printAll().getBytes(StandardCharsets.UTF_8);
        return new Parser.Input(root.resolve(tree.getSourcePath()), () -> new ByteArrayInputStream(text));
    }

    /**
     * The problems of each input (by path), parsed in one batch on {@code classpath} after the
     * {@code context} (or as an earlier check of the same texts found them, {@link EarlierChecks}).
     * A file that does not parse at all is one problem.
     */
    private static Map<Path, List<MissingTypes.Problem>> problems(
            Path root, List<Path> classpath, List<Parser.Input> inputs, List<Parser.Input> context) {
        if (inputs.isEmpty()) {
            return Map.of();
        }
        return EarlierChecks.of(classpath, inputs, context, () -> parse(root, classpath, inputs, context));
    }

    private static Map<Path, List<MissingTypes.Problem>> parse(
            Path root, List<Path> classpath, List<Parser.Input> inputs, List<Parser.Input> context) {
        Map<Path, List<MissingTypes.Problem>> problems = new HashMap<>();
        ExecutionContext ctx = new InMemoryExecutionContext(t -> Log.log("compile check: parser: " + Log.oneLine(t)));
        JavaParser.Builder<? extends JavaParser, ?> builder = JavaParser.fromJavaVersion()
                .classpath(classpath)
                .charset(StandardCharsets.UTF_8)
                .logCompilationWarningsAndErrors(false);
        if (!context.isEmpty()) {
            builder.dependsOn(context);
        }
        for (SourceFile tree : builder.build().parseInputs(inputs, root, ctx).toList()) {
            problems.put(
                    tree.getSourcePath(),
                    tree instanceof J.CompilationUnit cu
                            ? MissingTypes.of(cu)
                            : List.of(new MissingTypes.Problem(1, "the file does not parse")));
        }
        return problems;
    }

    /** The problems of a changed file after that it did not have before, as samples. */
    private static List<String> newProblems(
            Result change, Map<Path, List<MissingTypes.Problem>> before, Map<Path, List<MissingTypes.Problem>> after) {
        Map<String, Integer> had = new HashMap<>();
        if (change.getBefore() != null) {
            before.getOrDefault(change.getBefore().getSourcePath(), List.of())
                    .forEach(p -> had.merge(p.what(), 1, Integer::sum));
        }
        Path path = change.getAfter().getSourcePath();
        List<String> samples = new ArrayList<>();
        for (MissingTypes.Problem problem : after.getOrDefault(path, List.of())) {
            if (had.getOrDefault(problem.what(), 0) > 0) {
                had.merge(problem.what(), -1, Integer::sum);
            } else {
                samples.add(path + ":" + problem.line() + ": " + problem.what());
            }
        }
        return samples;
    }
}
