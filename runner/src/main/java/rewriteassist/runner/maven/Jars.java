package rewriteassist.runner.maven;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.openrewrite.ExecutionContext;
import org.openrewrite.maven.MavenExecutionContextView;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.MavenRepositoryMirror;
import org.openrewrite.maven.tree.ResolvedDependency;
import org.openrewrite.maven.utilities.MavenArtifactDownloader;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.net.AccessDenied;
import rewriteassist.runner.net.ArtifactPaths;
import rewriteassist.runner.net.LocalRepositoryCache;
import rewriteassist.runner.net.Network;
import rewriteassist.runner.net.RepositoryPolicy;
import rewriteassist.runner.parse.RepositoryParser;

/** Jars of dependencies, each fetched once per parse (Maven modules and Gradle projects). */
public final class Jars {
    private final MavenArtifactDownloader downloader;
    private final RepositoryPolicy policy;
    private final Map<String, Optional<Path>> fetched = new HashMap<>();
    private final Collection<MavenRepositoryMirror> mirrors;
    private final AccessDenied accessDenied;
    public final Map<Path, String> gavs = new HashMap<>();

    /**
     * Jars through {@code ctx}: its Maven settings (none for a Gradle build) give the mirrors and
     * the servers' credentials (a Gradle build's repositories carry their own). A repository that
     * refuses access goes to {@code accessDenied}.
     */
    public Jars(
            RepositoryPolicy policy,
            RepositoryParser.Warnings warnings,
            ExecutionContext ctx,
            AccessDenied accessDenied) {
        Consumer<Throwable> onError = t -> warnings.add("jar not downloaded: " + Log.oneLine(t));
        MavenExecutionContextView maven = MavenExecutionContextView.view(ctx);
        this.policy = policy;
        this.accessDenied = accessDenied;
        // Through the runner's sender, like POMs: counted, bounded, and a refusal is seen.
        this.downloader = new MavenArtifactDownloader(
                new LocalRepositoryCache(policy), maven.getSettings(), policy.sender(), onError, ctx);
        this.mirrors = maven.getMirrors();
    }

    public int count() {
        return (int) fetched.values().stream().filter(Optional::isPresent).count();
    }

    /**
     * The jar of a dependency. A sibling in the reactor has none (its sources are parsed), nor
     * has a non-jar artifact. A jar whose POM was found in the local repository without the jar
     * beside it is fetched from {@code repositories} (the POM's) and Maven Central, as Maven
     * would.
     */
    public Optional<Path> of(
            ResolvedDependency dependency, List<MavenRepository> repositories, Set<String> reactor, int[] unresolved) {
        String type = dependency.getType() == null ? "jar" : dependency.getType();
        if (dependency.getRepository() == null
                || reactor.contains(dependency.getGroupId() + ":" + dependency.getArtifactId())
                || !type.equals("jar")) {
            return Optional.empty();
        }
        String key = dependency.getGav() + ":" + dependency.getClassifier();
        Optional<Path> jar = fetched.computeIfAbsent(key, k -> download(dependency, repositories));
        if (jar.isEmpty()) {
            unresolved[0]++;
        } else {
            ResolvedDependency d = dependency;
            gavs.put(jar.get(), d.getGroupId() + ":" + d.getArtifactId() + ":" + d.getVersion());
        }
        return jar;
    }

    private Optional<Path> download(ResolvedDependency dependency, List<MavenRepository> alsoFrom) {
        String invalid = ArtifactPaths.problem(dependency);
        if (invalid != null) {
            policy.refuse("refused " + ArtifactPaths.describe(dependency) + ": " + invalid);
            return Optional.empty();
        }
        List<MavenRepository> repositories = new ArrayList<>();
        repositories.add(dependency.getRepository());
        if (dependency.getRepository().getUri().startsWith("file:")) {
            // As declared, so through the settings' mirrors, as Maven would reach them.
            alsoFrom.forEach(r -> repositories.add(MavenRepositoryMirror.apply(mirrors, r)));
            repositories.add(MavenRepositoryMirror.apply(mirrors, MavenRepository.MAVEN_CENTRAL));
        }
        for (MavenRepository repository : repositories) {
            String refusal = policy.refusal(repository.getUri());
            if (refusal != null) {
                policy.refuse(refusal);
                continue;
            }
            try {
                Path jar = downloader.downloadArtifact(dependency.withRepository(repository));
                if (jar != null) {
                    return Optional.of(jar);
                }
            } catch (RuntimeException e) {
                Log.log("jar of " + dependency.getGav() + " from " + repository.getUri() + ": " + Log.oneLine(e));
            }
            int denied = Network.SENDER.deniedUnder(
                    Network.folder(repository.getUri(), dependency.getGroupId(), dependency.getArtifactId()));
            if (denied != 0) {
                accessDenied.refused(repository, denied, dependency.getGav().toString());
            }
        }
        return Optional.empty();
    }
}
