package rewriteassist.runner.maven;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.ParseExceptionResult;
import org.openrewrite.Parser;
import org.openrewrite.SourceFile;
import org.openrewrite.marker.Markers;
import org.openrewrite.maven.MavenParser;
import org.openrewrite.maven.tree.MavenResolutionResult;
import org.openrewrite.xml.tree.Xml;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.net.RepositoryPolicy;
import rewriteassist.runner.parse.RepositoryParser;

/**
 * The reactor's POMs parsed and resolved by rewrite-maven in one call, and resolved again without
 * what cannot be downloaded ({@link Unavailable}); a POM whose parent cannot be had gets a classpath
 * from its own dependencies ({@link ParentlessClasspath}).
 */
final class PomResolution {
    private PomResolution() {}

    /** Parses the POMs in one call; {@code texts} replaces the content of some of them. */
    static List<SourceFile> parseAll(List<Path> pomFiles, Map<Path, String> texts, Path root, ExecutionContext ctx) {
        if (pomFiles.isEmpty()) {
            return List.of();
        }
        List<Parser.Input> inputs = new ArrayList<>();
        for (Path file : pomFiles) {
            String text = texts.get(root.relativize(file));
            inputs.add(
                    text == null
                            ? new Parser.Input(file, () -> open(file))
                            : new Parser.Input(
                                    file, () -> new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))));
        }
        return MavenParser.builder().build().parseInputs(inputs, root, ctx).toList();
    }

    private static InputStream open(Path file) {
        try {
            return Files.newInputStream(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A failure the downloaders report: a warning, and what {@link #resolveWithout} leaves out. */
    static void downloadFailure(
            Throwable t, RepositoryPolicy policy, RepositoryParser.Warnings warnings, Unavailable unavailable) {
        policy.accessDenied().take(t);
        List<String> reported = unavailable.take(t);
        if (reported == null) {
            warnings.add(Log.oneLine(t));
        } else {
            reported.forEach(warnings::add);
        }
    }

    /**
     * One artifact that cannot be downloaded (a dependency that exists only in a private repository,
     * a BOM on a retired one) leaves the whole POM unresolved, and Maven recipes then skip it. So
     * POMs that failed are resolved again from copies without what failed ({@link Unavailable}: a few
     * rounds, since dropping a BOM can make versionless dependencies fail next, and a transitive
     * failure is first excluded alone), and that resolution is attached to the original, untouched
     * tree. An unresolvable parent stays a failure, unless it is a snapshot with a release below it.
     */
    static List<SourceFile> resolveWithout(
            List<SourceFile> poms,
            Unavailable unavailable,
            Map<Path, String> texts,
            Path root,
            ExecutionContext ctx,
            RepositoryParser.Warnings warnings) {
        Map<Path, MavenResolutionResult> resolved = new HashMap<>();
        Map<Path, Set<String>> dropped = new HashMap<>();
        Unavailable.Releases releases = new NewestRelease(ctx);
        for (int round = 0; round < 6; round++) {
            boolean changed = false;
            for (SourceFile pom : poms) {
                if (!(pom instanceof Xml.Document) || isResolved(pom, resolved)) {
                    continue;
                }
                String before = texts.getOrDefault(pom.getSourcePath(), pom.printAll());
                String after = unavailable.withoutFailures(
                        before, dropped.computeIfAbsent(pom.getSourcePath(), p -> new LinkedHashSet<>()), releases);
                if (!after.equals(before)) {
                    texts.put(pom.getSourcePath(), after);
                    changed = true;
                }
            }
            if (!changed) {
                break;
            }
            List<Path> files = poms.stream()
                    .filter(p -> p instanceof Xml.Document)
                    .map(p -> root.resolve(p.getSourcePath()))
                    .toList();
            unavailable.newRound();
            try {
                for (SourceFile again : parseAll(files, texts, root, ctx)) {
                    again.getMarkers()
                            .findFirst(MavenResolutionResult.class)
                            .ifPresent(r -> resolved.put(again.getSourcePath(), r));
                }
            } catch (RuntimeException e) {
                warnings.add("resolving the POMs again without what cannot be downloaded failed: " + Log.oneLine(e));
                break;
            }
        }
        List<SourceFile> out = new ArrayList<>();
        for (SourceFile pom : poms) {
            MavenResolutionResult again = resolved.get(pom.getSourcePath());
            if (pom.getMarkers().findFirst(MavenResolutionResult.class).isEmpty() && again != null) {
                Set<String> without = dropped.getOrDefault(pom.getSourcePath(), Set.of());
                warnings.add(pom.getSourcePath()
                        + (without.isEmpty()
                                ? ": resolved once the other POMs were resolved without what cannot be downloaded"
                                : ": resolved without the artifacts that cannot be downloaded ("
                                        + String.join(", ", without) + ")"));
                Markers markers = pom.getMarkers().removeByType(ParseExceptionResult.class);
                out.add(pom.withMarkers(markers.add(again)));
            } else {
                if (pom instanceof Xml.Document
                        && pom.getMarkers()
                                .findFirst(MavenResolutionResult.class)
                                .isEmpty()) {
                    warnings.add(pom.getSourcePath() + ": not resolved (its parent or a BOM cannot be downloaded): "
                            + "Maven recipes skip it");
                }
                out.add(pom);
            }
        }
        return out;
    }

    /**
     * The resolution of a POM of the unresolved POM's own versioned dependencies
     * ({@link ParentlessClasspath}), for its classpath only; null when there is none. A dependency
     * that cannot be downloaded is left out, as for any POM.
     */
    static @Nullable MavenResolutionResult parentless(
            Xml.Document pom, Path root, RepositoryPolicy policy, RepositoryParser.Warnings warnings) {
        Optional<String> text = ParentlessClasspath.pomOf(pom);
        if (text.isEmpty()) {
            return null;
        }
        Path dir = pom.getSourcePath().getParent() == null
                ? Path.of("")
                : pom.getSourcePath().getParent();
        Path file = root.resolve(dir).resolve(".rewriteassist-parentless").resolve("pom.xml");
        Map<Path, String> texts = new HashMap<>();
        texts.put(root.relativize(file), text.get());
        Unavailable unavailable = new Unavailable();
        ExecutionContext quiet = MavenContexts.configure(
                new InMemoryExecutionContext(t -> {
                    policy.accessDenied().take(t);
                    unavailable.take(t);
                }),
                policy);
        Set<String> dropped = new LinkedHashSet<>();
        for (int round = 0; round < 4; round++) {
            unavailable.newRound();
            try {
                for (SourceFile again : parseAll(List.of(file), texts, root, quiet)) {
                    Optional<MavenResolutionResult> resolution =
                            again.getMarkers().findFirst(MavenResolutionResult.class);
                    if (resolution.isPresent()) {
                        warnings.add(pom.getSourcePath() + ": its module's classpath comes from the dependencies it "
                                + "declares with versions of their own, without its parent"
                                + (dropped.isEmpty() ? "" : " (left out: " + String.join(", ", dropped) + ")"));
                        return resolution.get();
                    }
                }
            } catch (RuntimeException e) {
                Log.log("classpath without the parent of " + pom.getSourcePath() + ": " + Log.oneLine(e));
                return null;
            }
            String before = texts.get(root.relativize(file));
            String after = unavailable.withoutFailures(before, dropped, Unavailable.Releases.NONE);
            if (after.equals(before)) {
                return null;
            }
            texts.put(root.relativize(file), after);
        }
        return null;
    }

    private static boolean isResolved(SourceFile pom, Map<Path, MavenResolutionResult> resolved) {
        return pom.getMarkers().findFirst(MavenResolutionResult.class).isPresent()
                || resolved.containsKey(pom.getSourcePath());
    }
}
