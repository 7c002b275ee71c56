package rewriteassist.runner;

import static org.openrewrite.Tree.randomId;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.SourceFile;
import org.openrewrite.docker.DockerParser;
import org.openrewrite.gradle.GradleParser;
import org.openrewrite.groovy.GroovyParser;
import org.openrewrite.hcl.HclParser;
import org.openrewrite.java.JavaParser;
import org.openrewrite.java.marker.JavaProject;
import org.openrewrite.java.marker.JavaSourceSet;
import org.openrewrite.java.marker.JavaVersion;
import org.openrewrite.json.JsonParser;
import org.openrewrite.kotlin.KotlinParser;
import org.openrewrite.marker.BuildTool;
import org.openrewrite.marker.Marker;
import org.openrewrite.maven.MavenParser;
import org.openrewrite.maven.cache.LocalMavenArtifactCache;
import org.openrewrite.maven.tree.MavenResolutionResult;
import org.openrewrite.maven.tree.ResolvedDependency;
import org.openrewrite.maven.tree.ResolvedPom;
import org.openrewrite.maven.tree.Scope;
import org.openrewrite.maven.utilities.MavenArtifactDownloader;
import org.openrewrite.properties.PropertiesParser;
import org.openrewrite.text.PlainTextParser;
import org.openrewrite.toml.TomlParser;
import org.openrewrite.tree.ParseError;
import org.openrewrite.xml.XmlParser;
import org.openrewrite.yaml.YamlParser;

/**
 * A repository's tracked files into OpenRewrite trees, without its build. All POMs of the reactor
 * are parsed in one {@link MavenParser} call, so modules resolve each other (a sibling's SNAPSHOT
 * needs no build); parents, BOMs and jars come through rewrite-maven's own downloader. Nothing
 * unresolvable is fatal: it becomes a warning, and a file that does not parse stays plain text.
 */
final class Parse {
    /** Directories never parsed: build output and dependencies (as the Maven plugin does). */
    private static final Set<String> SKIPPED_DIRS = Set.of("target", "build", ".gradle", "node_modules", ".git");

    record Outcome(List<SourceFile> trees, ObjectNode results) {}

    private Parse() {}

    static Outcome repository(Path root, Path localRepository) throws IOException, InterruptedException {
        long started = System.nanoTime();
        Warnings warnings = new Warnings();
        ExecutionContext ctx = new InMemoryExecutionContext(warnings::add);
        List<Path> files = trackedFiles(root);
        List<SourceFile> trees = new ArrayList<>();
        Map<String, Integer> byKind = new TreeMap<>();
        ArrayNode unparsed = Main.JSON.createArrayNode();
        int binary = 0;

        // Sort every file to the parser that takes it; the rest is plain text.
        List<Path> poms = new ArrayList<>();
        List<Path> java = new ArrayList<>();
        Map<String, List<Path>> others = new LinkedHashMap<>();
        List<Path> text = new ArrayList<>();
        for (Path file : files) {
            Path relative = root.relativize(file);
            String name = file.getFileName().toString();
            if (isBinary(file)) {
                binary++;
            } else if (name.equals("pom.xml")) {
                poms.add(file);
            } else if (name.endsWith(".java")) {
                java.add(file);
            } else {
                String kind = kindOf(relative, name);
                if (kind == null) {
                    text.add(file);
                } else {
                    others.computeIfAbsent(kind, k -> new ArrayList<>()).add(file);
                }
            }
        }

        // Maven: the whole reactor at once.
        List<SourceFile> pomTrees = parseWith("maven", MavenParser.builder().build(), poms, root, ctx, unparsed);
        pomTrees = resolveDespiteFailures(pomTrees, root, warnings);
        trees.addAll(pomTrees);
        byKind.put("maven", pomTrees.size());
        Modules modules = new Modules(root, pomTrees, localRepository, warnings, ctx);

        // Java: one parser for all of them, with every module's classpath, so types declared in a
        // sibling module resolve from its sources (its SNAPSHOT jar was never built).
        List<SourceFile> javaTrees = new ArrayList<>();
        if (!java.isEmpty()) {
            JavaParser parser = JavaParser.fromJavaVersion()
                    .classpath(modules.allJars())
                    .logCompilationWarningsAndErrors(false)
                    .build();
            javaTrees = parseWith("java", parser, java, root, ctx, unparsed);
        }
        trees.addAll(javaTrees);
        byKind.put("java", (int) javaTrees.stream()
                .filter(t -> t instanceof org.openrewrite.java.tree.J)
                .count());

        for (Map.Entry<String, List<Path>> group : others.entrySet()) {
            List<SourceFile> parsed =
                    parseWith(group.getKey(), parser(group.getKey()), group.getValue(), root, ctx, unparsed);
            trees.addAll(parsed);
            byKind.merge(group.getKey(), parsed.size(), Integer::sum);
        }
        List<SourceFile> plain = parseWith("plain_text", new PlainTextParser(), text, root, ctx, unparsed);
        trees.addAll(plain);
        byKind.merge("plain_text", plain.size(), Integer::sum);

        trees = modules.mark(trees);

        ObjectNode results = Main.JSON.createObjectNode();
        results.put("ok", true);
        results.put("seconds", (System.nanoTime() - started) / 1e9);
        ObjectNode counts = results.putObject("files");
        counts.put("total", trees.size());
        ObjectNode kinds = counts.putObject("by_kind");
        byKind.forEach(kinds::put);
        counts.put("binary_skipped", binary);
        results.set("unparsed", unparsed);
        ArrayNode warningsNode = results.putArray("warnings");
        warnings.distinct().forEach(warningsNode::add);
        results.set("modules", modules.report());
        return new Outcome(trees, results);
    }

    private static final java.util.regex.Pattern FAILED_GAV =
            java.util.regex.Pattern.compile("([A-Za-z0-9_.\\-]+):([A-Za-z0-9_.\\-]+):[^\\s:]+ failed");
    private static final java.util.regex.Pattern DEPENDENCY =
            java.util.regex.Pattern.compile("<dependency>.*?</dependency>", java.util.regex.Pattern.DOTALL);

    /**
     * One artifact that cannot be downloaded (an import BOM on a retired repository, a dependency
     * whose POM is gone) makes OpenRewrite resolve none of the reactor's POMs, and Maven recipes
     * then change nothing. So the POMs are resolved once more from copies without the failing
     * {@code <dependency>} entries, and those resolutions are attached to the original trees (whose
     * text is untouched): recipes see every dependency but the ones that exist nowhere.
     */
    private static List<SourceFile> resolveDespiteFailures(List<SourceFile> poms, Path root, Warnings warnings) {
        if (poms.stream()
                .allMatch(p ->
                        p.getMarkers().findFirst(MavenResolutionResult.class).isPresent())) {
            return poms;
        }
        Set<String> failing = new LinkedHashSet<>();
        for (String line : warnings.distinct()) {
            java.util.regex.Matcher m = FAILED_GAV.matcher(line);
            while (m.find()) {
                failing.add(m.group(1) + ":" + m.group(2));
            }
        }
        if (failing.isEmpty()) {
            return poms;
        }
        List<Parser.Input> inputs = new ArrayList<>();
        for (SourceFile pom : poms) {
            String text = pom.printAll();
            java.util.regex.Matcher m = DEPENDENCY.matcher(text);
            StringBuilder kept = new StringBuilder();
            while (m.find()) {
                String block = m.group();
                boolean drop = failing.stream().anyMatch(ga -> {
                    String[] parts = ga.split(":");
                    return block.contains("<groupId>" + parts[0] + "</groupId>")
                            && block.contains("<artifactId>" + parts[1] + "</artifactId>");
                });
                m.appendReplacement(kept, java.util.regex.Matcher.quoteReplacement(drop ? "" : block));
            }
            m.appendTail(kept);
            String sanitized = kept.toString();
            inputs.add(new Parser.Input(
                    root.resolve(pom.getSourcePath()),
                    () -> new java.io.ByteArrayInputStream(sanitized.getBytes(StandardCharsets.UTF_8))));
        }
        Warnings retry = new Warnings();
        ExecutionContext ctx = new InMemoryExecutionContext(retry::add);
        Map<Path, MavenResolutionResult> resolved = new HashMap<>();
        try {
            MavenParser.builder().build().parseInputs(inputs, root, ctx).forEach(tree -> tree.getMarkers()
                    .findFirst(MavenResolutionResult.class)
                    .ifPresent(r -> resolved.put(tree.getSourcePath(), r)));
        } catch (RuntimeException e) {
            warnings.add("resolving the POMs without " + failing + " failed too: " + Main.oneLine(e));
            return poms;
        }
        warnings.add(
                "resolved the POMs without the artifacts that cannot be downloaded: " + String.join(", ", failing));
        List<SourceFile> out = new ArrayList<>();
        for (SourceFile pom : poms) {
            MavenResolutionResult marker = resolved.get(pom.getSourcePath());
            boolean missing =
                    pom.getMarkers().findFirst(MavenResolutionResult.class).isEmpty();
            out.add(missing && marker != null ? pom.withMarkers(pom.getMarkers().add(marker)) : pom);
        }
        return out;
    }

    /** Files git tracks (what a clone has), build output and dependencies left out. */
    private static List<Path> trackedFiles(Path root) throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        byte[] out;
        try (InputStream in = git.getInputStream()) {
            out = in.readAllBytes();
        }
        if (git.waitFor() != 0) {
            throw new IOException("git ls-files failed in " + root);
        }
        List<Path> files = new ArrayList<>();
        for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
            if (name.isEmpty()) {
                continue;
            }
            Path relative = Path.of(name);
            boolean skipped = false;
            for (Path part : relative) {
                skipped |= SKIPPED_DIRS.contains(part.toString());
            }
            Path file = root.resolve(relative);
            if (!skipped && Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                files.add(file);
            }
        }
        return files;
    }

    /** A NUL byte in the first 8 KiB, as git decides. */
    private static boolean isBinary(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(8192);
            for (byte b : head) {
                if (b == 0) {
                    return true;
                }
            }
            return false;
        }
    }

    private static String kindOf(Path relative, String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        if (lower.endsWith(".gradle") || lower.endsWith(".gradle.kts")) {
            return "gradle";
        }
        if (lower.endsWith(".yml") || lower.endsWith(".yaml")) {
            return "yaml";
        }
        if (lower.endsWith(".properties")) {
            return "properties";
        }
        if (lower.endsWith(".xml") || lower.endsWith(".xsd") || lower.endsWith(".wsdl") || lower.endsWith(".xsl")) {
            return "xml";
        }
        if (lower.endsWith(".json")) {
            return "json";
        }
        if (lower.endsWith(".tf") || lower.endsWith(".hcl")) {
            return "hcl";
        }
        if (lower.endsWith(".toml")) {
            return "toml";
        }
        if (lower.equals("dockerfile")
                || lower.startsWith("dockerfile.")
                || lower.endsWith(".dockerfile")
                || lower.equals("containerfile")) {
            return "docker";
        }
        if (lower.endsWith(".groovy")) {
            return "groovy";
        }
        if (lower.endsWith(".kt") || lower.endsWith(".kts")) {
            return "kotlin";
        }
        return null;
    }

    private static Parser parser(String kind) {
        return switch (kind) {
            case "gradle" -> GradleParser.builder().build();
            case "yaml" -> new YamlParser();
            case "properties" -> new PropertiesParser();
            case "xml" -> new XmlParser();
            case "json" -> new JsonParser();
            case "hcl" -> HclParser.builder().build();
            case "toml" -> new TomlParser();
            case "docker" -> DockerParser.builder().build();
            case "groovy" -> GroovyParser.builder().build();
            case "kotlin" -> KotlinParser.builder().build();
            default -> new PlainTextParser();
        };
    }

    /**
     * Parses {@code files}; a file whose parse fails (a {@link ParseError}, or the parser throws)
     * is kept as plain text and listed in {@code unparsed}.
     */
    private static List<SourceFile> parseWith(
            String kind, Parser parser, List<Path> files, Path root, ExecutionContext ctx, ArrayNode unparsed) {
        if (files.isEmpty()) {
            return new ArrayList<>();
        }
        List<SourceFile> parsed = new ArrayList<>();
        try {
            for (SourceFile tree : parser.parse(files, root, ctx).collect(Collectors.toList())) {
                if (tree instanceof ParseError error) {
                    parsed.add(asPlainText(
                            root,
                            root.resolve(error.getSourcePath()),
                            error.getSourcePath().toString(),
                            reason(error),
                            ctx,
                            unparsed));
                } else {
                    parsed.add(tree);
                }
            }
        } catch (RuntimeException | StackOverflowError e) {
            System.err.println(
                    "runner: the " + kind + " parser failed as a whole, its files are kept as plain text: " + e);
            parsed.clear();
            for (Path file : files) {
                parsed.add(asPlainText(root, file, root.relativize(file).toString(), Main.oneLine(e), ctx, unparsed));
            }
        }
        return parsed;
    }

    private static String reason(ParseError error) {
        return error.getMarkers()
                .findFirst(org.openrewrite.ParseExceptionResult.class)
                .map(r -> r.getMessage().lines().findFirst().orElse("parse error"))
                .orElse("parse error");
    }

    private static SourceFile asPlainText(
            Path root, Path file, String relative, String why, ExecutionContext ctx, ArrayNode unparsed) {
        ObjectNode entry = unparsed.addObject();
        entry.put("path", relative);
        entry.put("error", why.replaceAll("\\s+", " "));
        return new PlainTextParser()
                .parse(List.of(file), root, ctx)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("plain text parse of " + relative + " failed"));
    }

    /** Everything the downloaders and parsers complained about, one line each. */
    static final class Warnings {
        private final List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());

        void add(Throwable t) {
            lines.add(Main.oneLine(t));
        }

        void add(String line) {
            lines.add(line);
        }

        List<String> distinct() {
            synchronized (lines) {
                return new ArrayList<>(new LinkedHashSet<>(lines))
                        .stream().limit(200).collect(Collectors.toList());
            }
        }
    }

    /** The reactor's modules: their classpaths and the markers their files get. */
    static final class Modules {
        private final Path root;
        /** Module directory (relative to root, "" for the root) to its resolution. */
        private final Map<Path, MavenResolutionResult> byDir =
                new TreeMap<>((a, b) -> Integer.compare(b.getNameCount(), a.getNameCount()) != 0
                        ? Integer.compare(b.getNameCount(), a.getNameCount())
                        : a.compareTo(b));

        private final Map<Path, List<Path>> mainJars = new HashMap<>();
        private final Map<Path, List<Path>> testJars = new HashMap<>();
        private final Map<Path, Integer> unresolved = new HashMap<>();
        private final Map<String, JavaSourceSet> sourceSets = new HashMap<>();
        private final Map<Path, List<Marker>> projectMarkers = new HashMap<>();

        Modules(Path root, List<SourceFile> poms, Path localRepository, Warnings warnings, ExecutionContext ctx) {
            this.root = root;
            MavenArtifactDownloader downloader =
                    new MavenArtifactDownloader(new LocalMavenArtifactCache(localRepository), null, warnings::add, ctx);
            Map<String, Path> downloaded = new HashMap<>();
            Set<String> reactor = new LinkedHashSet<>();
            for (SourceFile pom : poms) {
                pom.getMarkers().findFirst(MavenResolutionResult.class).ifPresent(m -> reactor.add(ga(m.getPom())));
            }
            for (SourceFile pom : poms) {
                Path dir = pom.getSourcePath().getParent() == null
                        ? Path.of("")
                        : pom.getSourcePath().getParent();
                MavenResolutionResult resolution =
                        pom.getMarkers().findFirst(MavenResolutionResult.class).orElse(null);
                if (resolution == null) {
                    warnings.add("no dependency resolution for " + pom.getSourcePath()
                            + ": its modules' types come from sources only");
                    continue;
                }
                byDir.put(dir, resolution);
                int[] missing = {0};
                mainJars.put(dir, jars(resolution, Scope.Provided, reactor, downloader, downloaded, missing));
                testJars.put(dir, jars(resolution, Scope.Test, reactor, downloader, downloaded, missing));
                unresolved.put(dir, missing[0]);
                ResolvedPom p = resolution.getPom();
                List<Marker> markers = new ArrayList<>();
                markers.add(new BuildTool(randomId(), BuildTool.Type.Maven, "3.9"));
                markers.add(new JavaProject(
                        randomId(),
                        p.getArtifactId(),
                        new JavaProject.Publication(p.getGroupId(), p.getArtifactId(), p.getVersion())));
                String level = javaLevel(p);
                markers.add(new JavaVersion(
                        randomId(),
                        System.getProperty("java.vm.vendor"),
                        System.getProperty("java.vm.vendor"),
                        level,
                        level));
                projectMarkers.put(dir, markers);
            }
        }

        private static String ga(ResolvedPom pom) {
            return pom.getGroupId() + ":" + pom.getArtifactId();
        }

        private static String javaLevel(ResolvedPom pom) {
            for (String key : List.of(
                    "maven.compiler.release", "maven.compiler.target", "maven.compiler.source", "java.version")) {
                String value = pom.getProperties().get(key);
                if (value != null && !value.isBlank() && !value.contains("${")) {
                    return value.startsWith("1.") ? value.substring(2) : value;
                }
            }
            return "17";
        }

        /** The jars of one scope; reactor siblings are skipped (their sources are parsed). */
        private static List<Path> jars(
                MavenResolutionResult resolution,
                Scope scope,
                Set<String> reactor,
                MavenArtifactDownloader downloader,
                Map<String, Path> downloaded,
                int[] missing) {
            List<Path> jars = new ArrayList<>();
            for (ResolvedDependency dep : resolution.getDependencies().getOrDefault(scope, List.of())) {
                String ga = dep.getGroupId() + ":" + dep.getArtifactId();
                if (reactor.contains(ga) || !"jar".equals(dep.getType() == null ? "jar" : dep.getType())) {
                    continue;
                }
                String key = ga + ":" + dep.getVersion();
                Path jar = downloaded.computeIfAbsent(key, k -> {
                    try {
                        return downloader.downloadArtifact(dep);
                    } catch (RuntimeException e) {
                        return null;
                    }
                });
                if (jar == null) {
                    missing[0]++;
                } else {
                    jars.add(jar);
                }
            }
            return jars;
        }

        Collection<Path> allJars() {
            Set<Path> all = new LinkedHashSet<>();
            testJars.values().forEach(all::addAll);
            mainJars.values().forEach(all::addAll);
            return all;
        }

        /** The innermost module directory holding {@code relative}, if any. */
        private Path moduleOf(Path relative) {
            for (Path dir : byDir.keySet()) {
                if (dir.toString().isEmpty() || relative.startsWith(dir)) {
                    return dir;
                }
            }
            return null;
        }

        /** BuildTool, JavaProject, JavaVersion on every file of a module; JavaSourceSet on Java. */
        List<SourceFile> mark(List<SourceFile> trees) {
            List<SourceFile> marked = new ArrayList<>(trees.size());
            for (SourceFile tree : trees) {
                Path dir = moduleOf(tree.getSourcePath());
                if (dir == null) {
                    marked.add(tree);
                    continue;
                }
                SourceFile out = tree;
                for (Marker marker : projectMarkers.getOrDefault(dir, List.of())) {
                    out = out.withMarkers(out.getMarkers().addIfAbsent(marker));
                }
                if (out instanceof org.openrewrite.java.tree.J.CompilationUnit) {
                    Path inModule =
                            dir.toString().isEmpty() ? out.getSourcePath() : dir.relativize(out.getSourcePath());
                    boolean test = inModule.startsWith(Path.of("src", "test"))
                            || inModule.toString().contains("/test/");
                    String name = test ? "test" : "main";
                    Supplier<JavaSourceSet> build =
                            () -> JavaSourceSet.build(name, (test ? testJars : mainJars).getOrDefault(dir, List.of()));
                    JavaSourceSet set = sourceSets.computeIfAbsent(dir + "#" + name, k -> build.get());
                    out = out.withMarkers(out.getMarkers().addIfAbsent(set));
                }
                marked.add(out);
            }
            return marked;
        }

        ArrayNode report() {
            ArrayNode modules = Main.JSON.createArrayNode();
            byDir.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
                ObjectNode module = modules.addObject();
                Path pom = e.getKey().resolve("pom.xml");
                module.put("pom", pom.toString());
                ResolvedPom p = e.getValue().getPom();
                module.put("gav", p.getGroupId() + ":" + p.getArtifactId() + ":" + p.getVersion());
                module.put(
                        "classpath_jars",
                        testJars.getOrDefault(e.getKey(), List.of()).size());
                module.put("unresolved", unresolved.getOrDefault(e.getKey(), 0));
            });
            return modules;
        }

        Path root() {
            return root;
        }
    }
}
