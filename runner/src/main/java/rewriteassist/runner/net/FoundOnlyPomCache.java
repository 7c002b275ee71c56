package rewriteassist.runner.net;

import java.net.URI;
import org.openrewrite.maven.cache.MavenPomCache;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenMetadata;
import org.openrewrite.maven.tree.Pom;
import org.openrewrite.maven.tree.ResolvedGroupArtifactVersion;
import org.openrewrite.maven.tree.ResolvedPom;
import rewriteassist.runner.maven.Prefetcher;

/**
 * The POM cache as {@link Prefetcher} writes to it: what was found is kept, a "not found" is not.
 * The prefetch guesses; had it kept a miss, the real resolution would skip that repository with
 * "a previous failure" instead of asking it and naming its answer, so its warnings would read
 * differently with the prefetch than without.
 */
public final class FoundOnlyPomCache extends ForwardingPomCache {
    public FoundOnlyPomCache(MavenPomCache delegate) {
        super(delegate);
    }

    @Override
    public void putResolvedDependencyPom(ResolvedGroupArtifactVersion dependency, ResolvedPom resolved) {
        // resolved POMs depend on the project that asks; the prefetch's are its own guesses
    }

    @Override
    public void putMavenMetadata(URI repo, GroupArtifactVersion gav, MavenMetadata metadata) {
        if (metadata != null) {
            delegate.putMavenMetadata(repo, gav, metadata);
        }
    }

    @Override
    public void putPom(ResolvedGroupArtifactVersion gav, Pom pom) {
        if (pom != null) {
            delegate.putPom(gav, pom);
        }
    }
}
