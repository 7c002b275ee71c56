package rewriteassist.runner.net;

import java.net.URI;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.openrewrite.maven.MavenDownloadingException;
import org.openrewrite.maven.cache.InMemoryMavenPomCache;
import org.openrewrite.maven.cache.MavenPomCache;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenMetadata;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.Pom;
import org.openrewrite.maven.tree.ResolvedGroupArtifactVersion;
import org.openrewrite.maven.tree.ResolvedPom;

/**
 * Memory in front of the {@link DiskPomCache}: what the disk answers is kept in memory, a POM
 * or version list it has and a "known missing" alike, and what memory holds already is not
 * written to disk again. rewrite-maven's {@code CompositeMavenPomCache} keeps only the found
 * answers in memory, so every lookup of a POM in a repository that does not have it read a file
 * again (a resolution asks each of the build's repositories in turn, and a recipe run resolves a
 * changed POM again after each change); and its downloader puts every version list it read back
 * into the cache, which wrote the same file again each time.
 *
 * <p>An answer kept in memory lives as long as the runner: at most a batch's few hours, where the
 * disk trusts a volatile answer (a version list, a SNAPSHOT, a miss) for a day.
 */
public final class TwoLevelPomCache implements MavenPomCache {
    private final MavenPomCache memory = new InMemoryMavenPomCache();
    private final MavenPomCache disk;

    public TwoLevelPomCache(MavenPomCache disk) {
        this.disk = disk;
    }

    @Override
    public @Nullable ResolvedPom getResolvedDependencyPom(ResolvedGroupArtifactVersion dependency) {
        ResolvedPom kept = memory.getResolvedDependencyPom(dependency);
        if (kept != null) {
            return kept;
        }
        ResolvedPom read = disk.getResolvedDependencyPom(dependency);
        if (read != null) {
            memory.putResolvedDependencyPom(dependency, read);
        }
        return read;
    }

    @Override
    public void putResolvedDependencyPom(ResolvedGroupArtifactVersion dependency, ResolvedPom resolved) {
        memory.putResolvedDependencyPom(dependency, resolved);
        disk.putResolvedDependencyPom(dependency, resolved);
    }

    @Override
    @SuppressWarnings({"OptionalAssignedToNull", "NullAway"}) // null is MavenPomCache's "not cached"
    public @Nullable Optional<MavenMetadata> getMavenMetadata(URI repo, GroupArtifactVersion gav) {
        Optional<MavenMetadata> kept = memory.getMavenMetadata(repo, gav);
        if (kept != null) {
            return kept;
        }
        Optional<MavenMetadata> read = disk.getMavenMetadata(repo, gav);
        if (read != null) {
            memory.putMavenMetadata(repo, gav, read.orElse(null));
        }
        return read;
    }

    @Override
    @SuppressWarnings("OptionalAssignedToNull")
    public void putMavenMetadata(URI repo, GroupArtifactVersion gav, @Nullable MavenMetadata metadata) {
        Optional<MavenMetadata> kept = memory.getMavenMetadata(repo, gav);
        if (kept != null && kept.orElse(null) == metadata) {
            return; // what the downloader read from here, put back
        }
        memory.putMavenMetadata(repo, gav, metadata);
        disk.putMavenMetadata(repo, gav, metadata);
    }

    @Override
    @SuppressWarnings("OptionalAssignedToNull")
    public @Nullable Optional<Pom> getPom(ResolvedGroupArtifactVersion gav) throws MavenDownloadingException {
        Optional<Pom> kept = memory.getPom(gav);
        if (kept != null) {
            return kept;
        }
        Optional<Pom> read = disk.getPom(gav);
        if (read != null) {
            memory.putPom(gav, read.orElse(null));
        }
        return read;
    }

    @Override
    @SuppressWarnings("OptionalAssignedToNull")
    public void putPom(ResolvedGroupArtifactVersion gav, @Nullable Pom pom) {
        Optional<Pom> kept;
        try {
            kept = memory.getPom(gav);
        } catch (MavenDownloadingException e) {
            kept = null;
        }
        if (kept != null && kept.orElse(null) == pom) {
            return;
        }
        memory.putPom(gav, pom);
        disk.putPom(gav, pom);
    }

    @Override
    @SuppressWarnings("OptionalAssignedToNull")
    public @Nullable Optional<MavenRepository> getNormalizedRepository(MavenRepository repository) {
        Optional<MavenRepository> kept = memory.getNormalizedRepository(repository);
        if (kept != null) {
            return kept;
        }
        Optional<MavenRepository> read = disk.getNormalizedRepository(repository);
        if (read != null && read.isPresent()) {
            memory.putNormalizedRepository(repository, read.get());
        }
        return read;
    }

    @Override
    public void putNormalizedRepository(MavenRepository repository, MavenRepository normalized) {
        memory.putNormalizedRepository(repository, normalized);
        disk.putNormalizedRepository(repository, normalized);
    }
}
