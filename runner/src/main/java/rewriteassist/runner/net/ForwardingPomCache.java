package rewriteassist.runner.net;

import java.net.URI;
import java.util.Optional;
import org.openrewrite.maven.MavenDownloadingException;
import org.openrewrite.maven.cache.MavenPomCache;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenMetadata;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.Pom;
import org.openrewrite.maven.tree.ResolvedGroupArtifactVersion;
import org.openrewrite.maven.tree.ResolvedPom;

/** A POM cache that passes everything to another: the runner's wrappers override what they change. */
abstract class ForwardingPomCache implements MavenPomCache {
    final MavenPomCache delegate;

    ForwardingPomCache(MavenPomCache delegate) {
        this.delegate = delegate;
    }

    @Override
    public ResolvedPom getResolvedDependencyPom(ResolvedGroupArtifactVersion dependency) {
        return delegate.getResolvedDependencyPom(dependency);
    }

    @Override
    public void putResolvedDependencyPom(ResolvedGroupArtifactVersion dependency, ResolvedPom resolved) {
        delegate.putResolvedDependencyPom(dependency, resolved);
    }

    @Override
    public Optional<MavenMetadata> getMavenMetadata(URI repo, GroupArtifactVersion gav) {
        return delegate.getMavenMetadata(repo, gav);
    }

    @Override
    public void putMavenMetadata(URI repo, GroupArtifactVersion gav, MavenMetadata metadata) {
        delegate.putMavenMetadata(repo, gav, metadata);
    }

    @Override
    public Optional<Pom> getPom(ResolvedGroupArtifactVersion gav) throws MavenDownloadingException {
        return delegate.getPom(gav);
    }

    @Override
    public void putPom(ResolvedGroupArtifactVersion gav, Pom pom) {
        delegate.putPom(gav, pom);
    }

    @Override
    public Optional<MavenRepository> getNormalizedRepository(MavenRepository repository) {
        return delegate.getNormalizedRepository(repository);
    }

    @Override
    public void putNormalizedRepository(MavenRepository repository, MavenRepository normalized) {
        delegate.putNormalizedRepository(repository, normalized);
    }
}
