package rewriteassist.runner.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.SourceFile;
import org.openrewrite.gradle.GradleParser;
import org.openrewrite.java.tree.JavaSourceFile;
import org.openrewrite.text.PlainText;
import org.openrewrite.toml.TomlParser;
import org.openrewrite.toml.tree.Toml;
import rewriteassist.runner.gradle.GradleCatalog;
import rewriteassist.runner.gradle.GradleScript;

/**
 * The bounded reading of Gradle scripts and TOML catalogs, on generated inputs: nesting of every
 * depth (brackets of each kind, with more brackets in strings and comments that must not count),
 * catalogs of every size. The measures are exact, the model's readings of the parsed trees take
 * every file within the bounds, and the parse keeps a file past the bounds as plain text instead
 * of losing it or the run.
 */
class FileBudgetPropertyTest {
    /** Text that holds brackets which are no nesting: strings, a GString, comments. */
    private static final List<String> NOISE = List.of(
            "",
            "'}}}((['",
            "\"{{{ ${x} )))\"",
            "// {{{ ((( [[[\n",
            "/* {{{ */",
            "\"\"\"\n{{{\n[[[\n\"\"\"",
            "def v = 'a' // ]]\n");

    @Provide
    Arbitrary<List<Integer>> shapes() {
        // Each level: which bracket opens it (0: a closure, 1: a call, 2: a list) and the noise in
        // it; half of the scripts are closures only, as the battery's were.
        Arbitrary<List<Integer>> mixed = Arbitraries.integers()
                .between(0, 3 * NOISE.size() - 1)
                .list()
                .ofMaxSize(6_000)
                .withSizeDistribution(RandomDistribution.uniform());
        Arbitrary<List<Integer>> closures = Arbitraries.integers()
                .between(0, NOISE.size() - 1)
                .list()
                .ofMaxSize(6_000)
                .withSizeDistribution(RandomDistribution.uniform());
        return Arbitraries.oneOf(mixed, closures);
    }

    /** A script nested {@code shape.size()} levels deep. */
    private static String script(List<Integer> shape) {
        StringBuilder open = new StringBuilder();
        List<String> closers = new ArrayList<>();
        for (int level : shape) {
            String noise = NOISE.get(level % NOISE.size());
            switch (level / NOISE.size()) {
                case 0 -> {
                    open.append("a {\n").append(noise).append('\n');
                    closers.add("}\n");
                }
                case 1 -> {
                    open.append("f(").append(noise).append(' ');
                    closers.add(")");
                }
                default -> {
                    open.append("[").append(noise).append(' ');
                    closers.add("]");
                }
            }
        }
        Collections.reverse(closers);
        return open + "x\n" + String.join("", closers);
    }

    @Property(tries = 300)
    void nestingIsMeasuredOutsideStringsAndComments(@ForAll("shapes") List<Integer> shape) {
        Statistics.label("past the bound").collect(shape.size() > FileBudget.MAX_NESTING);
        String text = script(shape);
        assertEquals(shape.size(), FileBudget.nesting(text), text);
        String over = FileBudget.exceeded("build.gradle", text);
        if (shape.size() > FileBudget.MAX_NESTING) {
            assertNotNull(over, "accepted " + shape.size() + " levels");
            assertTrue(over.contains("nested " + shape.size() + " levels"), over);
        } else {
            assertNull(over, over);
        }
        assertEquals(over, FileBudget.exceeded("build.gradle.kts", text));
    }

    /**
     * The model is read from the parsed tree: every depth the parser takes is read (what is beside
     * the deep blocks too), and a script past the bound, kept as plain text, reads as empty.
     */
    @Property(tries = 10)
    void theTreeReadingTakesEveryDepthTheParserTakes(@ForAll("depthsAroundTheBound") int depth) {
        String text = "plugins { id 'java' }\n" + "a {\n".repeat(depth) + "x\n" + "}\n".repeat(depth)
                + "dependencies { implementation 'com.acme:lib:1' }\n";
        long started = System.nanoTime();
        JavaSourceFile tree = FileBudget.exceeded("build.gradle", text) == null ? groovy(text) : null;
        GradleScript script = GradleScript.read(tree, GradleCatalog.empty());
        GradleScript.Settings.read(tree);
        assertTrue(System.nanoTime() - started < 30_000_000_000L, "took " + (System.nanoTime() - started) / 1e9 + " s");
        if (depth <= FileBudget.MAX_NESTING) {
            assertEquals("com.acme:lib", script.dependencies().get(0).ga(), script.toString());
            assertEquals("java", script.plugins().get(0).id(), script.toString());
        } else {
            assertEquals(GradleScript.empty(), script);
        }
    }

    private static JavaSourceFile groovy(String text) {
        return (JavaSourceFile) GradleParser.builder()
                .build()
                .parseInputs(
                        List.of(Parser.Input.fromString(Path.of("build.gradle"), text)),
                        null,
                        new InMemoryExecutionContext(t -> {}))
                .findFirst()
                .orElseThrow();
    }

    @Property(tries = 100)
    void aCatalogIsMeasuredAndReadWithinItsBudget(
            @ForAll @IntRange(max = 5_000) int versions, @ForAll @IntRange(max = 5_000) int libraries) {
        StringBuilder toml = new StringBuilder("# a catalog\n[versions]\n");
        for (int i = 0; i < versions; i++) {
            toml.append("v").append(i).append(" = \"1.").append(i).append("\"\n");
        }
        toml.append("\n[libraries]\n");
        for (int i = 0; i < libraries; i++) {
            toml.append("lib-")
                    .append(i)
                    .append(" = { module = \"com.acme:lib")
                    .append(i)
                    .append("\", version.ref = \"v")
                    .append(versions == 0 ? 0 : i % versions)
                    .append("\" } # comment\n");
        }
        int entries = versions + libraries + 2;
        assertEquals(entries, FileBudget.tomlEntries(toml.toString()));
        String over = FileBudget.exceeded("libs.versions.toml", toml.toString());
        assertEquals(entries > FileBudget.MAX_TOML_ENTRIES, over != null, String.valueOf(over));
        if (over != null) {
            // Kept as plain text by the parse: the model goes without it (and warns).
            return;
        }
        Toml.Document document = (Toml.Document)
                new TomlParser().parse(toml.toString()).findFirst().orElseThrow();
        // The reading of the tree; the parser's own time is what the budget bounds. A guard against a
        // runaway read, as generous as the others here: speed goals live in scripts/bench.
        long started = System.nanoTime();
        GradleCatalog catalog = GradleCatalog.read(document);
        assertTrue(System.nanoTime() - started < 30_000_000_000L, "took " + (System.nanoTime() - started) / 1e9 + " s");
        if (libraries > 0) {
            int last = libraries - 1;
            Optional<GradleCatalog.Entry> entry = catalog.library("lib." + last);
            assertTrue(entry.isPresent(), "lib-" + last);
            assertEquals("com.acme", entry.get().group());
            assertEquals(
                    versions == 0 ? "" : "1." + (last % versions), entry.get().version());
        }
    }

    @Provide
    Arbitrary<Integer> depthsAroundTheBound() {
        return Arbitraries.oneOf(
                Arbitraries.integers().between(0, 20),
                Arbitraries.integers().between(FileBudget.MAX_NESTING - 3, FileBudget.MAX_NESTING + 3),
                Arbitraries.integers().between(FileBudget.MAX_NESTING, 5_000));
    }

    /** Through the real Gradle parser: a tree for every script, parsed or plain text past the bound. */
    @Property(tries = 10)
    void aScriptIsParsedOrKeptAsPlainTextNeverLost(@ForAll("depthsAroundTheBound") int depth) throws IOException {
        Path root = Files.createTempDirectory("file-budget");
        try {
            Path file = root.resolve("build.gradle");
            Files.writeString(file, "a {\n".repeat(depth) + "println 'x'\n" + "}\n".repeat(depth));
            RepositoryParser.Warnings warnings = new RepositoryParser.Warnings();
            RepositoryParser.Unparsed unparsed = new RepositoryParser.Unparsed(root, warnings);
            long started = System.nanoTime();
            List<SourceFile> trees = RepositoryParser.parseEachWithinBudget(
                    "gradle",
                    () -> GradleParser.builder().build(),
                    List.of(file),
                    root,
                    new InMemoryExecutionContext(t -> {}),
                    unparsed,
                    TotalBudget.none());
            assertTrue(System.nanoTime() - started < 30_000_000_000L, "took " + (System.nanoTime() - started) / 1e9);
            assertEquals(1, trees.size(), trees.toString());
            if (depth > FileBudget.MAX_NESTING) {
                assertInstanceOf(PlainText.class, trees.get(0));
                assertTrue(
                        warnings.lines().stream().anyMatch(w -> w.startsWith("build.gradle: nested " + depth)),
                        warnings.lines().toString());
            } else {
                assertEquals(
                        "org.openrewrite.groovy.tree.G$CompilationUnit",
                        trees.get(0).getClass().getName());
                assertEquals(List.of(), warnings.lines());
            }
        } finally {
            try (Stream<Path> files = Files.walk(root)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
