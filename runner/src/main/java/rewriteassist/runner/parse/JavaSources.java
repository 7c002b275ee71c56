package rewriteassist.runner.parse;

import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.SourceFile;
import org.openrewrite.groovy.GroovyParser;
import org.openrewrite.java.JavaParser;
import org.openrewrite.kotlin.KotlinParser;
import org.openrewrite.tree.ParsingExecutionContextView;
import rewriteassist.runner.common.Log;

/**
 * The Java, Kotlin and Groovy sources of a build, parsed as the build plugins parse them: each
 * module's {@code main} and {@code test} source sets on their own, each with its own classpath
 * (main: compile and provided scopes; test: every scope) and its module's charset, so that types
 * are attributed from the library versions that module really uses.
 *
 * <p>The plugins find a sibling module's types in its compiled classes; here they were never
 * compiled. So source sets are parsed by one Java parser in dependency order (a module's main
 * before the modules that use it, mains before tests): the compiler keeps the symbols of what it
 * parsed before, and a later set sees its siblings' types from their sources, as it would see
 * their classes. One parser ("lane") can only hold one version of each library, so a source set
 * whose classpath has another version of a library than its lane already loaded starts a lane of
 * its own (with a type cache of its own), and the sibling sources it needs from other lanes
 * are compiled into it first ({@code dependsOn}). A reactor without such conflicts is one lane.
 *
 * <p>Kotlin and Groovy sources are parsed once per lane with the lane's classpath: their parsers
 * are expensive to start and rare in the builds we see.
 */
public final class JavaSources {
    /** A source set to parse: its module, name, files by kind and what it needs on its classpath. */
    public record SourceSet(
            Path module,
            String name,
            List<Path> java,
            List<Path> kotlin,
            List<Path> groovy,
            List<Path> classpath,
            Set<Path> siblings,
            @Nullable Charset charset) {
        String key() {
            return module + "#" + name;
        }

        boolean isMain() {
            return name.equals("main");
        }
    }

    /** Source sets parsed by one parser, in order, and the library versions it has loaded. */
    private static final class Lane {
        final List<SourceSet> sets = new ArrayList<>();
        final Map<String, String> versions = new HashMap<>();

        /** Whether {@code set}'s libraries agree with the versions this lane has. */
        boolean fits(Map<String, String> libraries) {
            for (Map.Entry<String, String> library : libraries.entrySet()) {
                String have = versions.get(library.getKey());
                if (have != null && !have.equals(library.getValue())) {
                    return false;
                }
            }
            return true;
        }
    }

    private final Path root;
    private final Map<Path, String> gavs;
    private final ExecutionContext ctx;
    private final RepositoryParser.Unparsed unparsed;

    JavaSources(Path root, Map<Path, String> gavs, ExecutionContext ctx, RepositoryParser.Unparsed unparsed) {
        this.root = root;
        this.gavs = gavs;
        this.ctx = ctx;
        this.unparsed = unparsed;
    }

    /** Parses the source sets (see the class comment); trees in lane order. */
    List<SourceFile> parse(List<SourceSet> sets) {
        List<Lane> lanes = lanes(ordered(sets));
        if (lanes.size() > 1) {
            Log.log("  java: " + lanes.size() + " parsers: modules use different versions of a library");
        }
        Map<Path, List<Path>> mainSources = new HashMap<>();
        sets.stream().filter(SourceSet::isMain).forEach(s -> mainSources.put(s.module(), s.java()));
        List<SourceFile> trees = new ArrayList<>();
        for (Lane lane : lanes) {
            trees.addAll(parseLane(lane, mainSources));
        }
        return trees;
    }

    /** Mains before tests; within each, a module after the modules it depends on. */
    static List<SourceSet> ordered(List<SourceSet> sets) {
        Map<Path, SourceSet> mains = new LinkedHashMap<>();
        Map<Path, SourceSet> tests = new LinkedHashMap<>();
        sets.stream()
                .sorted(java.util.Comparator.comparing(SourceSet::key))
                .forEach(set -> (set.isMain() ? mains : tests).put(set.module(), set));
        List<Path> modules = dependencyOrder(sets);
        List<SourceSet> out = new ArrayList<>();
        modules.stream().map(mains::get).filter(java.util.Objects::nonNull).forEach(out::add);
        modules.stream().map(tests::get).filter(java.util.Objects::nonNull).forEach(out::add);
        return out;
    }

    /** Modules with the ones they depend on first; a cycle is broken by path order. */
    private static List<Path> dependencyOrder(List<SourceSet> sets) {
        Map<Path, Set<Path>> needs = new java.util.TreeMap<>(java.util.Comparator.comparing(Path::toString));
        for (SourceSet set : sets) {
            needs.computeIfAbsent(set.module(), m -> new LinkedHashSet<>()).addAll(set.siblings());
        }
        List<Path> order = new ArrayList<>();
        Set<Path> placed = new LinkedHashSet<>();
        while (placed.size() < needs.size()) {
            Path next = needs.keySet().stream()
                    .filter(m -> !placed.contains(m))
                    .filter(m -> needs.get(m).stream().allMatch(s -> placed.contains(s) || !needs.containsKey(s)))
                    .findFirst()
                    .orElseGet(() -> needs.keySet().stream()
                            .filter(m -> !placed.contains(m))
                            .findFirst()
                            .orElseThrow());
            placed.add(next);
            order.add(next);
        }
        return order;
    }

    /** Source sets into lanes: the first lane whose library versions agree, else a new one. */
    private List<Lane> lanes(List<SourceSet> ordered) {
        List<Lane> lanes = new ArrayList<>();
        for (SourceSet set : ordered) {
            Map<String, String> libraries = libraries(set.classpath());
            Lane lane =
                    lanes.stream().filter(l -> l.fits(libraries)).findFirst().orElse(null);
            if (lane == null) {
                lane = new Lane();
                lanes.add(lane);
            }
            lane.sets.add(set);
            lane.versions.putAll(libraries);
        }
        return lanes;
    }

    /** group:artifact → version of the jars whose coordinates are known. */
    private Map<String, String> libraries(List<Path> classpath) {
        Map<String, String> out = new HashMap<>();
        for (Path jar : classpath) {
            String gav = gavs.get(jar);
            int last = gav == null ? -1 : gav.lastIndexOf(':');
            if (last > 0) {
                out.put(gav.substring(0, last), gav.substring(last + 1));
            }
        }
        return out;
    }

    private List<SourceFile> parseLane(Lane lane, Map<Path, List<Path>> mainSources) {
        Set<Path> classpath = new LinkedHashSet<>();
        lane.sets.forEach(set -> classpath.addAll(set.classpath()));
        List<Path> elsewhere = siblingSourcesFromOtherLanes(lane, mainSources);
        JavaParser parser = javaParser(classpath, elsewhere);
        List<SourceFile> trees = new ArrayList<>();
        for (SourceSet set : lane.sets) {
            if (set.java().isEmpty()) {
                continue;
            }
            try {
                parser.setClasspath(set.classpath());
                trees.addAll(parseWithCharset(parser, set.java(), set.charset()));
            } catch (OutOfMemoryError e) {
                throw e;
            } catch (Throwable t) {
                // A set the shared parser cannot take (two sets declaring one class): on its own.
                Log.log("  java: " + set.key() + " parsed on its own: " + Log.oneLine(t));
                List<Path> needed = new ArrayList<>(elsewhere);
                set.siblings().forEach(s -> needed.addAll(mainSources.getOrDefault(s, List.of())));
                if (!set.isMain()) {
                    needed.addAll(mainSources.getOrDefault(set.module(), List.of()));
                }
                needed.removeAll(set.java());
                trees.addAll(RepositoryParser.parseWithFallback(
                        "java", () -> javaParser(set.classpath(), needed), set.java(), root, ctx, unparsed));
            }
        }
        trees.addAll(other("kotlin", lane, set -> set.kotlin(), () -> KotlinParser.builder()
                .classpath(classpath)
                .build()));
        trees.addAll(other("groovy", lane, set -> set.groovy(), () -> GroovyParser.builder()
                .classpath(classpath)
                .build()));
        return trees;
    }

    /** The main sources of the modules this lane's sets need that other lanes parse. */
    private static List<Path> siblingSourcesFromOtherLanes(Lane lane, Map<Path, List<Path>> mainSources) {
        Set<Path> inLane = new LinkedHashSet<>();
        lane.sets.stream().filter(SourceSet::isMain).forEach(s -> inLane.add(s.module()));
        Set<Path> needed = new LinkedHashSet<>();
        for (SourceSet set : lane.sets) {
            needed.addAll(set.siblings());
            if (!set.isMain()) {
                needed.add(set.module());
            }
        }
        needed.removeAll(inLane);
        List<Path> sources = new ArrayList<>();
        needed.forEach(module -> sources.addAll(mainSources.getOrDefault(module, List.of())));
        return sources;
    }

    private JavaParser javaParser(Collection<Path> classpath, List<Path> dependsOn) {
        // Each builder comes with a type cache of its own: one per lane, as one per source set
        // for the plugins (a cache shared across library versions would carry one into another).
        JavaParser.Builder<? extends JavaParser, ?> builder =
                JavaParser.fromJavaVersion().classpath(classpath).logCompilationWarningsAndErrors(false);
        if (!dependsOn.isEmpty()) {
            builder.dependsOn(dependsOn.stream()
                    .map(file -> new Parser.Input(file, () -> RepositoryParser.open(file)))
                    .toList());
        }
        return builder.build();
    }

    private List<SourceFile> parseWithCharset(JavaParser parser, List<Path> files, @Nullable Charset charset) {
        ParsingExecutionContextView view = ParsingExecutionContextView.view(ctx);
        view.setCharset(charset);
        long started = System.nanoTime();
        try {
            List<SourceFile> trees = new ArrayList<>();
            for (SourceFile tree : parser.parse(files, root, ctx).toList()) {
                trees.add(RepositoryParser.kept(tree, root, ctx, unparsed));
            }
            Log.log("  java: " + files.size() + " files in " + Log.seconds(started) + " s");
            return trees;
        } finally {
            view.setCharset(null);
        }
    }

    private interface Files {
        List<Path> of(SourceSet set);
    }

    private List<SourceFile> other(String kind, Lane lane, Files files, Supplier<Parser> parsers) {
        List<Path> all = new ArrayList<>();
        lane.sets.forEach(set -> all.addAll(files.of(set)));
        return RepositoryParser.parseWithFallback(kind, parsers, all, root, ctx, unparsed);
    }
}
