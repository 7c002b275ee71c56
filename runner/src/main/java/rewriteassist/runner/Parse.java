package rewriteassist.runner;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.ParseExceptionResult;
import org.openrewrite.Parser;
import org.openrewrite.SourceFile;
import org.openrewrite.docker.DockerParser;
import org.openrewrite.gradle.GradleParser;
import org.openrewrite.groovy.GroovyParser;
import org.openrewrite.hcl.HclParser;
import org.openrewrite.java.JavaParser;
import org.openrewrite.json.JsonParser;
import org.openrewrite.kotlin.KotlinParser;
import org.openrewrite.properties.PropertiesParser;
import org.openrewrite.text.PlainText;
import org.openrewrite.text.PlainTextParser;
import org.openrewrite.toml.TomlParser;
import org.openrewrite.tree.ParseError;
import org.openrewrite.xml.XmlParser;
import org.openrewrite.yaml.YamlParser;

/**
 * A repository's tracked files into OpenRewrite trees, with OpenRewrite's own parsers and without
 * the project's build: nothing of the repository runs, and nothing of {@code .mvn/} is interpreted
 * (its files are parsed like any other). The POMs are left to {@link Reactor}; every other file
 * goes to the parser that accepts it, in the order below, and the rest is plain text. A file whose
 * parse fails is kept as plain text and listed in {@code unparsed}.
 */
final class Parse {
    /** Build output and dependencies, never parsed (as the build plugins leave them out). */
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", "build", ".gradle", "node_modules");

    /** Larger files are skipped like binaries (the Maven plugin's default size threshold). */
    private static final long MAX_BYTES = 10L * 1024 * 1024;

    /** The kinds reported in {@code by_kind}, in the order a file is offered to them. */
    static final List<String> KINDS = List.of(
            "maven",
            "java",
            "gradle",
            "kotlin",
            "groovy",
            "docker",
            "yaml",
            "json",
            "properties",
            "xml",
            "hcl",
            "toml",
            "plain_text");

    /** A parse: its trees and results, and where the POMs' resolutions come from. */
    record Outcome(List<SourceFile> trees, ObjectNode results, Path root, RepositoryPolicy policy, Reactor reactor) {
        /** The trees for one recipe run: each run gets resolutions of its own (see {@link Reactor}). */
        List<SourceFile> treesForRun() {
            return reactor.withFreshResolutions(trees);
        }
    }

    private Parse() {}

    static Outcome repository(Path root, RepositoryPolicy policy) throws IOException, InterruptedException {
        SafeXml.harden();
        long started = System.nanoTime();
        root = root.toAbsolutePath().normalize();
        Warnings warnings = new Warnings();
        Unparsed unparsed = new Unparsed(root);
        // Parsers report recoverable trouble through onError; the trees and `unparsed` say what
        // matters, so this only goes to the log. (Maven resolution has its own context: its
        // failures are the warnings.)
        ExecutionContext ctx = new InMemoryExecutionContext(t -> Main.log("parser: " + Main.oneLine(t)));

        Map<String, List<Path>> byKind = new LinkedHashMap<>();
        KINDS.forEach(kind -> byKind.put(kind, new ArrayList<>()));
        int skipped = 0;
        for (Path file : trackedFiles(root)) {
            if (isBinary(file)) {
                skipped++;
                continue;
            }
            if (Files.size(file) > MAX_BYTES) {
                skipped++;
                warnings.add(root.relativize(file) + ": skipped, larger than " + MAX_BYTES / 1024 / 1024 + " MiB");
                continue;
            }
            byKind.get(kindOf(root.relativize(file))).add(file);
        }
        Main.log("parsing " + byKind.values().stream().mapToInt(List::size).sum() + " files under " + root);

        GradleBuild gradle = GradleBuild.read(root, byKind.get("gradle"), policy, warnings);
        Reactor reactor = Reactor.resolve(root, byKind.get("maven"), policy, warnings, unparsed)
                .with(gradle);
        List<SourceFile> trees = new ArrayList<>(reactor.poms());
        Collection<Path> classpath = reactor.allJars();

        // Java: one parser for every module's sources, with the union of their classpaths, so a
        // type declared in a sibling module resolves from its source (its SNAPSHOT jar was never
        // built). Per-module parsers would each need their siblings' sources or jars; the union
        // costs at most a class seen from a module that does not declare its jar.
        trees.addAll(parseWithFallback(
                "java",
                () -> JavaParser.fromJavaVersion()
                        .classpath(classpath)
                        .logCompilationWarningsAndErrors(false)
                        .build(),
                byKind.get("java"),
                root,
                ctx,
                unparsed));
        trees.addAll(parseWithFallback(
                "gradle", () -> GradleParser.builder().build(), byKind.get("gradle"), root, ctx, unparsed));
        trees.addAll(parseWithFallback(
                "kotlin",
                () -> KotlinParser.builder().classpath(classpath).build(),
                byKind.get("kotlin"),
                root,
                ctx,
                unparsed));
        trees.addAll(parseWithFallback(
                "groovy",
                () -> GroovyParser.builder().classpath(classpath).build(),
                byKind.get("groovy"),
                root,
                ctx,
                unparsed));
        for (String kind : List.of("docker", "yaml", "json", "properties", "xml", "hcl", "toml", "plain_text")) {
            trees.addAll(parseWithFallback(kind, () -> parser(kind), byKind.get(kind), root, ctx, unparsed));
        }
        trees = Styles.autodetected(gradle.mark(reactor.mark(trees)));

        policy.notices().forEach(warnings::add);
        ObjectNode results = Main.JSON.createObjectNode();
        results.put("ok", true);
        results.put("seconds", Main.seconds(started));
        ObjectNode files = results.putObject("files");
        files.put("total", trees.size());
        ObjectNode kinds = files.putObject("by_kind");
        KINDS.forEach(kind -> kinds.put(kind, 0));
        Set<Path> poms = reactor.pomPaths();
        for (SourceFile tree : trees) {
            String kind = kindOf(tree, poms);
            kinds.put(kind, kinds.path(kind).asInt() + 1);
        }
        files.put("binary_skipped", skipped);
        results.set("unparsed", unparsed.json);
        ArrayNode warningLines = results.putArray("warnings");
        warnings.lines().forEach(warningLines::add);
        results.set("modules", reactor.report());
        Main.log("parsed " + trees.size() + " files (" + kinds + "), " + unparsed.json.size() + " unparsed, "
                + warningLines.size() + " warnings");
        return new Outcome(trees, results, root, policy, reactor);
    }

    /** Files git tracks under root (what a clone has), build output and dependencies left out. */
    static List<Path> trackedFiles(Path root) throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        git.getOutputStream().close();
        byte[] out;
        try (InputStream in = git.getInputStream()) {
            out = in.readAllBytes();
        }
        if (git.waitFor() != 0) {
            throw new IOException("`git ls-files` failed in " + root + " (is it a git repository?)");
        }
        List<Path> files = new ArrayList<>();
        for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
            if (name.isEmpty()) {
                continue;
            }
            Path relative = Path.of(name);
            boolean skipped = false;
            for (Path part : relative) {
                skipped |= SKIPPED_DIRECTORIES.contains(part.toString())
                        || part.toString().equals(".git");
            }
            Path file = root.resolve(relative);
            // Symbolic links and submodules are not files of this repository's own.
            if (!skipped && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                files.add(file);
            }
        }
        return files;
    }

    /** Binary as git decides it: a NUL byte in the first 8000 bytes. */
    static boolean isBinary(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            for (byte b : in.readNBytes(8000)) {
                if (b == 0) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * The parser a file goes to. Cheap parsers decide themselves with {@code accept}; for the
     * compilers (Java, Kotlin, Groovy, Gradle) the same suffix rules are repeated here so that none
     * is built just to ask.
     */
    static String kindOf(Path relative) {
        String name = relative.getFileName().toString();
        String path = relative.toString();
        boolean underSrc = false;
        boolean inResources = false;
        for (Path part : relative) {
            inResources |= underSrc && part.toString().equals("resources");
            underSrc |= part.toString().equals("src");
        }
        if (name.equals("pom.xml") && !underSrc) {
            // A pom.xml under src/ is a test fixture or a template, not a module of the reactor.
            return "maven";
        }
        if (name.endsWith(".java")) {
            // Java files among resources are data (inputs of tests, templates), not sources.
            return inResources ? "plain_text" : "java";
        }
        if (path.endsWith(".gradle") || path.endsWith(".gradle.kts")) {
            return "gradle";
        }
        if (path.endsWith(".kt") || path.endsWith(".kts")) {
            return "kotlin";
        }
        if (path.endsWith(".groovy") || name.startsWith("Jenkinsfile")) {
            return "groovy";
        }
        for (String kind : List.of("docker", "yaml", "json", "properties", "xml", "hcl", "toml")) {
            if (parser(kind).accept(relative)) {
                return kind;
            }
        }
        return "plain_text";
    }

    private static Parser parser(String kind) {
        return switch (kind) {
            case "docker" -> DockerParser.builder().build();
            case "yaml" -> YamlParser.builder().build();
            case "json" -> JsonParser.builder().build();
            case "properties" -> PropertiesParser.builder().build();
            case "xml" -> XmlParser.builder().build();
            case "hcl" -> HclParser.builder().build();
            case "toml" -> TomlParser.builder().build();
            default -> PlainTextParser.builder().build();
        };
    }

    /** The kind a tree counts as in {@code by_kind}. */
    static String kindOf(SourceFile tree, Set<Path> poms) {
        String type = tree.getClass().getName();
        if (tree instanceof PlainText) {
            return "plain_text";
        }
        if (type.startsWith("org.openrewrite.xml.")) {
            return poms.contains(tree.getSourcePath()) ? "maven" : "xml";
        }
        if (type.startsWith("org.openrewrite.kotlin.")) {
            return tree.getSourcePath().toString().endsWith(".gradle.kts") ? "gradle" : "kotlin";
        }
        if (type.startsWith("org.openrewrite.groovy.")) {
            return tree.getSourcePath().toString().endsWith(".gradle") ? "gradle" : "groovy";
        }
        for (String kind : List.of("java", "docker", "yaml", "json", "properties", "hcl", "toml")) {
            if (type.startsWith("org.openrewrite." + kind + ".")) {
                return kind;
            }
        }
        return "plain_text";
    }

    /**
     * Parses {@code files} with a parser from {@code parsers}. A file whose parse fails becomes
     * plain text (listed in {@code unparsed}); when the parser fails as a whole, each file is tried
     * on its own with a fresh parser, so one bad file does not take the others with it.
     */
    static List<SourceFile> parseWithFallback(
            String kind,
            Supplier<Parser> parsers,
            List<Path> files,
            Path root,
            ExecutionContext ctx,
            Unparsed unparsed) {
        List<SourceFile> parsed = new ArrayList<>();
        if (files.isEmpty()) {
            return parsed;
        }
        long started = System.nanoTime();
        try {
            for (SourceFile tree : parsers.get().parse(files, root, ctx).toList()) {
                parsed.add(kept(tree, root, ctx, unparsed));
            }
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable whole) {
            Main.log("the " + kind + " parser failed on the whole batch, parsing file by file: " + Main.oneLine(whole));
            parsed.clear();
            for (Path file : files) {
                try {
                    parsed.addAll(parsers.get().parse(List.of(file), root, ctx).toList().stream()
                            .map(tree -> kept(tree, root, ctx, unparsed))
                            .toList());
                } catch (OutOfMemoryError e) {
                    throw e;
                } catch (Throwable t) {
                    parsed.add(unparsed.asPlainText(file, Main.oneLine(t), ctx));
                }
            }
        }
        Main.log("  " + kind + ": " + files.size() + " files in " + Main.seconds(started) + " s");
        return parsed;
    }

    /** The tree itself, or plain text for a {@link ParseError}. */
    static SourceFile kept(SourceFile tree, Path root, ExecutionContext ctx, Unparsed unparsed) {
        if (tree instanceof ParseError error) {
            String why = error.getMarkers()
                    .findFirst(ParseExceptionResult.class)
                    .map(r -> r.getMessage().lines().findFirst().orElse(r.getExceptionType()))
                    .orElse("parse error");
            return unparsed.asPlainText(root.resolve(error.getSourcePath()), why, ctx);
        }
        return tree;
    }

    /** The files that did not parse: listed, and kept as plain text. */
    static final class Unparsed {
        final ArrayNode json = Main.JSON.createArrayNode();
        private final Path root;

        Unparsed(Path root) {
            this.root = root;
        }

        SourceFile asPlainText(Path file, String why, ExecutionContext ctx) {
            Path relative = root.relativize(file);
            ObjectNode entry = json.addObject();
            entry.put("path", relative.toString());
            entry.put("error", Main.oneLine(why));
            Main.log("unparsed " + relative + ": " + Main.oneLine(why));
            return PlainTextParser.builder()
                    .build()
                    .parse(List.of(file), root, ctx)
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no plain text for " + relative));
        }
    }

    /** One line each, in order, without repeats, at most {@link #LIMIT}. */
    static final class Warnings {
        static final int LIMIT = 200;
        private final Set<String> lines = new LinkedHashSet<>();
        private int dropped;

        synchronized void add(String line) {
            String one = Main.oneLine(line);
            if (lines.contains(one)) {
                return;
            }
            Main.log("warning: " + one);
            if (lines.size() < LIMIT) {
                lines.add(one);
            } else {
                dropped++;
            }
        }

        synchronized List<String> lines() {
            List<String> out = new ArrayList<>(lines);
            if (dropped > 0) {
                out.add("and " + dropped + " more warnings (see the runner's log)");
            }
            return out;
        }
    }
}
