package rewriteassist.runner.parse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.ParseExceptionResult;
import org.openrewrite.Parser;
import org.openrewrite.RecipeRun;
import org.openrewrite.Result;
import org.openrewrite.SourceFile;
import org.openrewrite.docker.tree.Docker;
import org.openrewrite.gradle.GradleParser;
import org.openrewrite.groovy.tree.G;
import org.openrewrite.hcl.tree.Hcl;
import org.openrewrite.java.tree.J;
import org.openrewrite.json.tree.Json;
import org.openrewrite.kotlin.tree.K;
import org.openrewrite.maven.tree.MavenResolutionResult;
import org.openrewrite.properties.tree.Properties;
import org.openrewrite.protobuf.tree.Proto;
import org.openrewrite.quark.Quark;
import org.openrewrite.text.PlainText;
import org.openrewrite.text.PlainTextParser;
import org.openrewrite.toml.tree.Toml;
import org.openrewrite.tree.ParseError;
import org.openrewrite.xml.tree.Xml;
import org.openrewrite.yaml.tree.Yaml;
import rewriteassist.runner.common.Jackson;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.gradle.GradleBuild;
import rewriteassist.runner.maven.PomBudget;
import rewriteassist.runner.maven.Reactor;
import rewriteassist.runner.net.RepositoryPolicy;
import rewriteassist.runner.net.SafeXml;
import rewriteassist.runner.results.ParseResults;

/**
 * A repository's tracked files into OpenRewrite trees, with OpenRewrite's own parsers and without
 * the project's build, as the build plugins parse them: nothing of the repository runs, and
 * nothing of {@code .mvn/} is interpreted (its files are parsed like any other). The POMs go to
 * {@link Reactor}, the Gradle scripts to {@link GradleBuild} and the Gradle parser, the sources to
 * {@link JavaSources} (each source set with its own classpath), everything else to
 * {@link Resources} (OpenRewrite's {@code OmniParser} with the plugins' rules); {@link Provenance}
 * and {@link Styles} add the markers the plugins add. A file whose parse fails is kept as plain
 * text and listed in {@code unparsed}; so is a file over its budget ({@link FileBudget},
 * {@link PomBudget}: one that would keep a parser busy for ever, overflow its stack or fill the
 * heap; {@link TotalBudget}: the TOML files after those that spent the parse's whole budget for
 * TOML), which the warnings name too, so that it costs only itself; and so is a file whose name is
 * not UTF-8 ({@link FileNames}), which no parser could open.
 */
public final class RepositoryParser {
    /** Build output and dependencies, never parsed (as the build plugins leave them out). */
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", "build", ".gradle", "node_modules");

    /** A parse: its trees and results, and where the POMs' resolutions come from. */
    public record Outcome(
            List<SourceFile> trees, ParseResults results, Path root, RepositoryPolicy policy, Reactor reactor) {
        /** The trees for one recipe run: each run gets resolutions of its own (see {@link Reactor}). */
        public List<SourceFile> treesForRun() {
            return reactor.withFreshResolutions(trees);
        }

        /**
         * After a run on {@link #treesForRun}' trees, with its result (null: it failed): a run that
         * changed a POM may have changed the resolution it found in place, so the next run gets a
         * new one.
         */
        public void ran(@Nullable RecipeRun result) {
            reactor.ran(result != null
                    && result.getChangeset().getAllResults().stream()
                            .noneMatch(change -> change.getBefore() != null
                                    && change.getBefore()
                                            .getMarkers()
                                            .findFirst(MavenResolutionResult.class)
                                            .isPresent()));
        }

        /** The parse as a recipe's results left it: changed, deleted and new files. */
        public Outcome after(List<Result> changes) {
            Map<Path, SourceFile> changed = new HashMap<>();
            List<SourceFile> added = new ArrayList<>();
            for (Result change : changes) {
                if (change.getBefore() == null) {
                    added.add(change.getAfter());
                } else {
                    // A deleted file maps to null and is left out below.
                    changed.put(change.getBefore().getSourcePath(), change.getAfter());
                }
            }
            List<SourceFile> out = new ArrayList<>(trees.size() + added.size());
            for (SourceFile tree : trees) {
                if (!changed.containsKey(tree.getSourcePath())) {
                    out.add(tree);
                } else if (changed.get(tree.getSourcePath()) != null) {
                    out.add(changed.get(tree.getSourcePath()));
                }
            }
            out.addAll(added);
            return new Outcome(out, results, root, policy, reactor.after(out));
        }
    }

    /**
     * What the repository is made of, before parsing: build files, sources, the rest; and the files
     * whose names have no string of their own ({@link FileNames}), which no parser is given.
     */
    private record Listing(
            List<Path> poms,
            List<Path> gradle,
            List<Path> java,
            List<Path> kotlin,
            List<Path> groovy,
            List<FileNames.Named> oddlyNamed) {
        Set<Path> all() {
            Set<Path> all = new LinkedHashSet<>();
            List.of(poms, gradle, java, kotlin, groovy).forEach(all::addAll);
            return all;
        }
    }

    private RepositoryParser() {}

    public static Outcome repository(Path root, RepositoryPolicy policy, Map<String, String> buildEnvironment)
            throws IOException, InterruptedException {
        SafeXml.harden();
        long started = System.nanoTime();
        root = root.toAbsolutePath().normalize();
        Warnings warnings = new Warnings();
        Unparsed unparsed = new Unparsed(root, warnings);
        // Parsers report recoverable trouble through onError; the trees and `unparsed` say what
        // matters, so this only goes to the log. (Maven resolution has its own context: its
        // failures are the warnings.)
        ExecutionContext ctx = new InMemoryExecutionContext(t -> Log.log("parser: " + Log.oneLine(t)));

        Listing listing = listing(root);
        // The provenance markers need no tree but take seconds: JGit measures the file system's
        // timestamp resolution on its first look at a repository (about 3 s, mostly asleep, in
        // every runner: it cannot keep the result), and GitProvenance walks the clone's history for
        // its committers. So they are read beside the parse, not after it, and within the request:
        // JGit's probe files in the clone's .git are gone before the request is answered.
        Path clone = root;
        FutureTask<Provenance> provenance = new FutureTask<>(() -> Provenance.of(clone, buildEnvironment));
        Thread provenanceReader = new Thread(provenance, "provenance");
        provenanceReader.setDaemon(true);
        provenanceReader.start();
        // The Gradle model is read from the scripts' and the catalog's trees, so those parse first.
        List<SourceFile> gradleScripts = parseEachWithinBudget(
                "gradle",
                () -> GradleParser.builder().build(),
                listing.gradle(),
                root,
                ctx,
                unparsed,
                TotalBudget.none());
        Resources resources = Resources.parse(root, listing.all(), ctx, unparsed);
        GradleBuild gradle = GradleBuild.read(root, gradleScripts, resources.trees(), policy, warnings);
        Reactor reactor = Reactor.resolve(root, listing.poms(), policy, warnings, unparsed)
                .with(gradle);
        List<SourceFile> trees = new ArrayList<>(reactor.poms());
        trees.addAll(new JavaSources(root, reactor.gavs(), ctx, unparsed)
                .parse(reactor.sourceSets(root, listing.java(), listing.kotlin(), listing.groovy())));
        trees.addAll(gradleScripts);
        trees.addAll(resources.trees());
        trees.addAll(unparsed.oddlyNamed(listing.oddlyNamed(), ctx));
        trees = Styles.autodetected(provenance(provenance).mark(gradle.mark(reactor.mark(trees))));
        policy.notices().forEach(warnings::add);
        ParseResults results = results(trees, reactor, resources, unparsed, policy.accessProblems(), warnings, started);
        return new Outcome(trees, results, root, policy, reactor);
    }

    /** The provenance read beside the parse, once it is there. */
    private static Provenance provenance(FutureTask<Provenance> reading) throws InterruptedException {
        try {
            return reading.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        }
    }

    /** The parse's results for the protocol. */
    private static ParseResults results(
            List<SourceFile> trees,
            Reactor reactor,
            Resources resources,
            Unparsed unparsed,
            List<String> accessProblems,
            Warnings warnings,
            long started) {
        double seconds = Log.seconds(started);
        Map<String, Integer> kinds = new LinkedHashMap<>();
        for (FileKind kind : FileKind.values()) {
            kinds.put(kind.wireName(), 0);
        }
        Set<Path> poms = reactor.pomPaths();
        for (SourceFile tree : trees) {
            kinds.merge(kindOf(tree, poms).wireName(), 1, Integer::sum);
        }
        List<String> warningLines = new ArrayList<>();
        // What the user can fix for the missing artifacts comes first: reports show the first few.
        accessProblems.forEach(line -> warningLines.add(Log.oneLine(line)));
        warningLines.addAll(warnings.lines());
        List<ParseResults.Unparsed> unparsedFiles = unparsed.files();
        Log.log("parsed " + trees.size() + " files (" + Jackson.MAPPER.valueToTree(kinds) + "), " + unparsedFiles.size()
                + " unparsed, " + warningLines.size() + " warnings");
        return new ParseResults(
                seconds,
                new ParseResults.FileCounts(trees.size(), kinds, resources.tooLarge()),
                unparsedFiles,
                warningLines,
                reactor.report(),
                null);
    }

    /**
     * The build files and the sources, by kind, among the files git tracks: POMs (not under
     * {@code src/}, where a {@code pom.xml} is a test fixture or a template), Gradle scripts, and
     * Java, Kotlin and Groovy sources (not among resources, where they are data). Everything else
     * is left to {@link Resources}, which decides as the build plugins do.
     */
    private static Listing listing(Path root) throws IOException, InterruptedException {
        List<Path> poms = new ArrayList<>();
        List<Path> gradle = new ArrayList<>();
        List<Path> java = new ArrayList<>();
        List<Path> kotlin = new ArrayList<>();
        List<Path> groovy = new ArrayList<>();
        List<FileNames.Named> oddlyNamed = new ArrayList<>();
        for (FileNames.Named tracked : trackedFiles(root)) {
            Path file = tracked.path();
            if (tracked.odd() != null) {
                oddlyNamed.add(tracked);
                continue;
            }
            Path relative = root.relativize(file);
            String name = relative.getFileName().toString();
            boolean underSrc = false;
            boolean inResources = false;
            for (Path part : relative) {
                inResources |= underSrc && part.toString().equals("resources");
                underSrc |= part.toString().equals("src");
            }
            if (name.equals("pom.xml") && !underSrc) {
                poms.add(file);
            } else if (name.endsWith(".gradle") || name.endsWith(".gradle.kts")) {
                gradle.add(file);
            } else if (!inResources && name.endsWith(".java")) {
                java.add(file);
            } else if (!inResources && name.endsWith(".kt")) {
                kotlin.add(file);
            } else if (!inResources && name.endsWith(".groovy")) {
                groovy.add(file);
            }
        }
        Log.log("listed " + poms.size() + " POMs, " + gradle.size() + " Gradle scripts, " + java.size() + " Java, "
                + kotlin.size() + " Kotlin and " + groovy.size() + " Groovy sources under " + root
                + (oddlyNamed.isEmpty() ? "" : ", and " + oddlyNamed.size() + " files with odd names"));
        return new Listing(poms, gradle, java, kotlin, groovy, oddlyNamed);
    }

    static InputStream open(Path file) {
        try {
            return Files.newInputStream(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Files git tracks under root (what a clone has), build output and dependencies left out. Git
     * lists names as bytes: each becomes its path through {@link FileNames}, so that a name that is
     * not UTF-8 still names its file instead of failing the parse.
     */
    static List<FileNames.Named> trackedFiles(Path root) throws IOException, InterruptedException {
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
        List<FileNames.Named> files = new ArrayList<>();
        int start = 0;
        for (int end = 0; end <= out.length; end++) {
            if (end < out.length && out[end] != 0) {
                continue;
            }
            byte[] name = Arrays.copyOfRange(out, start, end);
            start = end + 1;
            if (name.length == 0) {
                continue;
            }
            boolean skipped = false;
            for (String part : new String(name, StandardCharsets.UTF_8).split("/")) {
                skipped |= SKIPPED_DIRECTORIES.contains(part) || part.equals(".git");
            }
            FileNames.Named named = FileNames.of(root, name);
            // Symbolic links and submodules are not files of this repository's own.
            if (!skipped && Files.isRegularFile(named.path(), LinkOption.NOFOLLOW_LINKS)) {
                files.add(named);
            }
        }
        return files;
    }

    /**
     * The kind each tree type counts as, in order: the first type a tree is an instance of wins.
     * Kotlin and Groovy trees are Java trees too ({@code K} and {@code G} extend {@code J}), and XML
     * and Gradle scripts depend on the path, so {@link #kindOf} looks at those before this table.
     */
    private static final List<Map.Entry<Class<?>, FileKind>> KINDS = List.of(
            Map.entry(PlainText.class, FileKind.PLAIN_TEXT),
            Map.entry(Quark.class, FileKind.QUARK),
            Map.entry(J.class, FileKind.JAVA),
            Map.entry(Docker.class, FileKind.DOCKER),
            Map.entry(Yaml.class, FileKind.YAML),
            Map.entry(Json.class, FileKind.JSON),
            Map.entry(Properties.class, FileKind.PROPERTIES),
            Map.entry(Hcl.class, FileKind.HCL),
            Map.entry(Toml.class, FileKind.TOML),
            Map.entry(Proto.class, FileKind.PROTO));

    /** The kind a tree counts as in {@code by_kind}, by the tree type of its language. */
    static FileKind kindOf(SourceFile tree, Set<Path> poms) {
        String path = tree.getSourcePath().toString();
        if (tree instanceof Xml) {
            return poms.contains(tree.getSourcePath()) ? FileKind.MAVEN : FileKind.XML;
        }
        if (tree instanceof K) {
            return path.endsWith(".gradle.kts") ? FileKind.GRADLE : FileKind.KOTLIN;
        }
        if (tree instanceof G) {
            return path.endsWith(".gradle") ? FileKind.GRADLE : FileKind.GROOVY;
        }
        return KINDS.stream()
                .filter(kind -> kind.getKey().isInstance(tree))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(FileKind.PLAIN_TEXT);
    }

    /**
     * Parses {@code files} with a parser from {@code parsers}. A file whose parse fails becomes
     * plain text (listed in {@code unparsed}); when the parser fails as a whole, each file is tried
     * on its own with a fresh parser, so one bad file does not take the others with it. A file
     * over its {@link FileBudget} is not given to the parser at all.
     */
    static List<SourceFile> parseWithFallback(
            String kind, Supplier<Parser> parsers, List<Path> all, Path root, ExecutionContext ctx, Unparsed unparsed) {
        List<SourceFile> parsed = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        for (Path file : all) {
            String over = FileBudget.exceeded(file);
            if (over == null) {
                files.add(file);
            } else {
                parsed.add(unparsed.overBudget(file, over, ctx));
            }
        }
        if (files.isEmpty()) {
            return parsed;
        }
        List<SourceFile> overBudget = List.copyOf(parsed);
        long started = System.nanoTime();
        try {
            for (SourceFile tree : parsers.get().parse(files, root, ctx).toList()) {
                parsed.add(kept(tree, root, ctx, unparsed));
            }
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable whole) {
            Log.log("the " + kind + " parser failed on the whole batch, parsing file by file: " + Log.oneLine(whole));
            parsed.clear();
            parsed.addAll(overBudget);
            for (Path file : files) {
                try {
                    parsed.addAll(parsers.get().parse(List.of(file), root, ctx).toList().stream()
                            .map(tree -> kept(tree, root, ctx, unparsed))
                            .toList());
                } catch (OutOfMemoryError e) {
                    throw e;
                } catch (Throwable t) {
                    parsed.add(unparsed.asPlainText(file, Log.oneLine(t), ctx));
                }
            }
        }
        Log.log("  " + kind + ": " + files.size() + " files in " + Log.seconds(started) + " s");
        return parsed;
    }

    /**
     * Parses {@code files} one by one, each within its {@link FileBudget}: measured first, then
     * parsed on a thread of its own with a time limit. A file over budget becomes plain text and is
     * named in the warnings; one whose parse fails, plain text as in {@link #parseWithFallback}.
     * Once the files together have spent their {@code total}, the rest become plain text, named in
     * one warning. For the kinds whose parsers an input can keep busy for ever: build scripts and
     * TOML.
     */
    static List<SourceFile> parseEachWithinBudget(
            String kind,
            Supplier<Parser> parsers,
            List<Path> files,
            Path root,
            ExecutionContext ctx,
            Unparsed unparsed,
            TotalBudget total) {
        List<SourceFile> parsed = new ArrayList<>();
        if (files.isEmpty()) {
            return parsed;
        }
        long started = System.nanoTime();
        Parser parser = parsers.get();
        for (Path file : files) {
            String over = FileBudget.exceeded(file);
            if (over != null) {
                parsed.add(unparsed.overBudget(file, over, ctx));
                continue;
            }
            if (total.refuses(file, root)) {
                parsed.add(unparsed.asPlainText(file, total.why(), ctx));
                continue;
            }
            Parser current = parser;
            long parseStarted = System.nanoTime();
            try {
                FileBudget.Outcome<List<SourceFile>> outcome = FileBudget.run(
                        root.relativize(file).toString(), total.seconds(), () -> current.parse(List.of(file), root, ctx)
                                .toList());
                if (outcome.overBudget() != null) {
                    parsed.add(unparsed.overBudget(file, outcome.overBudget(), ctx));
                    // The parser may still be busy with that file: the next one gets a new one.
                    parser = parsers.get();
                } else {
                    outcome.value().forEach(tree -> parsed.add(kept(tree, root, ctx, unparsed)));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                parsed.add(unparsed.asPlainText(file, "interrupted", ctx));
            } catch (OutOfMemoryError e) {
                throw e;
            } catch (Throwable t) {
                parsed.add(unparsed.asPlainText(file, Log.oneLine(t), ctx));
                parser = parsers.get();
            } finally {
                total.spend(System.nanoTime() - parseStarted);
            }
        }
        String refused = total.warning();
        if (refused != null) {
            unparsed.warn(refused);
        }
        Log.log("  " + kind + ": " + files.size() + " files in " + Log.seconds(started) + " s");
        return parsed;
    }

    /** The tree itself, or plain text for a {@link ParseError}. */
    public static SourceFile kept(SourceFile tree, Path root, ExecutionContext ctx, Unparsed unparsed) {
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
    public static final class Unparsed {
        private final List<ParseResults.Unparsed> files = new ArrayList<>();
        private final Path root;
        private final Warnings warnings;

        Unparsed(Path root, Warnings warnings) {
            this.root = root;
            this.warnings = warnings;
        }

        /**
         * A file over its parse budget: plain text, listed, and named in the warnings (a file that
         * does not parse is the repository's own business; one that is refused is ours).
         */
        public SourceFile overBudget(Path file, String why, ExecutionContext ctx) {
            warnings.add(root.relativize(file) + ": " + why + ": kept as plain text, not parsed");
            return asPlainText(file, "over the parse budget: " + why, ctx);
        }

        /**
         * The files whose names have no string of their own ({@link FileNames}): plain text under
         * the decoded name, listed, and named once in the warnings as git has them (a byte that is
         * not UTF-8 as {@code \xE9}), since the decoded name cannot tell such names apart.
         */
        List<SourceFile> oddlyNamed(List<FileNames.Named> files, ExecutionContext ctx) {
            List<SourceFile> trees = new ArrayList<>();
            Map<String, List<String>> byWhy = new LinkedHashMap<>();
            for (FileNames.Named file : files) {
                String why = Objects.requireNonNull(file.odd());
                byWhy.computeIfAbsent(why, w -> new ArrayList<>()).add(FileNames.shown(file.name()));
                trees.add(asPlainText(file.path(), why, ctx));
            }
            byWhy.forEach(
                    (why, shown) -> warnings.add(Warnings.naming(shown) + ": kept as plain text, not parsed: " + why));
            return trees;
        }

        /** A warning about files listed here (one for many). */
        void warn(String line) {
            warnings.add(line);
        }

        /** The files listed so far, in order. */
        List<ParseResults.Unparsed> files() {
            return List.copyOf(files);
        }

        SourceFile asPlainText(Path file, String why, ExecutionContext ctx) {
            Path relative = root.relativize(file);
            files.add(new ParseResults.Unparsed(relative.toString(), Log.oneLine(why)));
            Log.log("unparsed " + relative + ": " + Log.oneLine(why));
            return PlainTextParser.builder()
                    .build()
                    .parse(List.of(file), root, ctx)
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no plain text for " + relative));
        }
    }

    /** One line each, in order, without repeats, at most {@link #LIMIT}. */
    public static final class Warnings {
        static final int LIMIT = 200;
        /** The files one warning names before it says how many more. */
        static final int NAMED = 10;

        private final Set<String> lines = new LinkedHashSet<>();
        private int dropped;

        public synchronized void add(String line) {
            String one = Log.oneLine(line);
            if (lines.contains(one)) {
                return;
            }
            Log.log("warning: " + one);
            if (lines.size() < LIMIT) {
                lines.add(one);
            } else {
                dropped++;
            }
        }

        /** {@code names} for one warning: the first few, then how many more. */
        static String naming(List<String> names) {
            int shown = Math.min(names.size(), NAMED);
            String named = String.join(", ", names.subList(0, shown));
            return shown < names.size() ? named + " and " + (names.size() - shown) + " more" : named;
        }

        public synchronized List<String> lines() {
            List<String> out = new ArrayList<>(lines);
            if (dropped > 0) {
                out.add("and " + dropped + " more warnings (see the runner's log)");
            }
            return out;
        }
    }
}
