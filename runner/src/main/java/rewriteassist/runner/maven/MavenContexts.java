package rewriteassist.runner.maven;

import java.nio.file.Path;
import java.time.Clock;
import org.openrewrite.ExecutionContext;
import org.openrewrite.HttpSenderExecutionContextView;
import org.openrewrite.maven.MavenExecutionContextView;
import org.openrewrite.maven.cache.InMemoryMavenPomCache;
import org.openrewrite.maven.cache.MavenPomCache;
import org.openrewrite.maven.tree.MavenRepository;
import rewriteassist.runner.net.DiskPomCache;
import rewriteassist.runner.net.GuardedPomCache;
import rewriteassist.runner.net.LocalRepositoryCache;
import rewriteassist.runner.net.RepositoryPolicy;
import rewriteassist.runner.net.TwoLevelPomCache;

/**
 * The execution contexts the parse and recipe runs resolve POMs and download jars in: the user's
 * Maven settings, the request's local repository, the runner's sender and caches, each guarded by
 * the repository policy, and the prefetch.
 */
public final class MavenContexts {
    private MavenContexts() {}

    /**
     * POMs read once stay cached for the runner's life (later parses and recipe runs), and on
     * disk too when {@link #keepPomsIn} was called.
     */
    private static volatile MavenPomCache pomCache = new InMemoryMavenPomCache();

    /** Keeps downloaded POMs and version metadata in {@code folder} as well, for later runners. */
    public static void keepPomsIn(Path folder) {
        pomCache = new TwoLevelPomCache(new DiskPomCache(folder, Clock.systemUTC()));
    }

    /**
     * Sets the user's Maven settings, the local repository and the caches on a context, for the
     * parse and for recipes that resolve or download while they run. Every POM, version list and jar
     * passes the policy's checks ({@link GuardedPomCache}, {@link LocalRepositoryCache}).
     */
    public static ExecutionContext configure(ExecutionContext ctx, RepositoryPolicy policy) {
        // First: the settings replace the context's local repository, and ours is the request's.
        policy.settings().applyTo(ctx);
        configureWithoutMavenSettings(ctx, policy);
        MavenExecutionContextView.view(ctx).setResolutionListener(new Prefetcher(c -> configure(c, policy)));
        return ctx;
    }

    /**
     * {@link #configure} without the user's Maven settings, for Gradle builds: Gradle does not read
     * settings.xml, so its mirrors and servers are not what the build would use.
     */
    public static ExecutionContext configureWithoutMavenSettings(ExecutionContext ctx, RepositoryPolicy policy) {
        MavenExecutionContextView maven = MavenExecutionContextView.view(ctx);
        maven.setLocalRepository(MavenRepository.MAVEN_LOCAL_DEFAULT.withUri(
                policy.localRepository().toUri().toString()));
        maven.setPomCache(new GuardedPomCache(pomCache, policy));
        maven.setArtifactCache(new LocalRepositoryCache(policy));
        HttpSenderExecutionContextView.view(ctx).setHttpSender(policy.sender()).setLargeFileHttpSender(policy.sender());
        maven.setResolutionListener(new Prefetcher(c -> configureWithoutMavenSettings(c, policy)));
        return ctx;
    }
}
