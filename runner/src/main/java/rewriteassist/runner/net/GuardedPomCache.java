package rewriteassist.runner.net;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.openrewrite.maven.MavenDownloadingException;
import org.openrewrite.maven.cache.MavenPomCache;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenMetadata;
import org.openrewrite.maven.tree.Pom;
import org.openrewrite.maven.tree.ResolvedGroupArtifactVersion;

/**
 * The POM cache rewrite-maven's downloader asks before it reads a POM or version list from any
 * repository, local or remote: the one place where every coordinate and repository it is about to
 * use passes. Coordinates that cannot be a path ({@link ArtifactPaths}) and repositories the
 * {@link RepositoryPolicy} refuses are answered "known missing", so the downloader neither reads a
 * file nor sends a request for them; everything else goes to the real cache.
 *
 * <p>The downloader records a 401 or 403 as "known missing" too. That answer is not kept: it would
 * outlive the fix (the disk cache keeps it for a day), so the run after the user passed the
 * credentials would still not ask.
 */
public final class GuardedPomCache extends ForwardingPomCache {
    private final RepositoryPolicy policy;

    public GuardedPomCache(MavenPomCache delegate, RepositoryPolicy policy) {
        super(delegate);
        this.policy = policy;
    }

    /**
     * The answers of {@link #refusal} so far: one resolution asks the same coordinates of each
     * repository, and a recipe run resolves a changed POM again after each change (the checks, a
     * pattern and a URI's parse, were 2% of a Spring Boot analysis). Both checks depend on their
     * arguments only; the map is emptied when it grows past {@link #REMEMBERED}.
     */
    private final Map<Asked, Optional<String>> refusals = new ConcurrentHashMap<>();

    private static final int REMEMBERED = 100_000;

    private record Asked(
            @Nullable String repository, @Nullable String group, String artifact, @Nullable String version) {}

    /** Why this request must not be made, or null. */
    private @Nullable String refusal(
            @Nullable String repository, @Nullable String group, String artifact, @Nullable String version) {
        Asked asked = new Asked(repository, group, artifact, version);
        Optional<String> known = refusals.get(asked);
        if (known == null) {
            if (refusals.size() > REMEMBERED) {
                refusals.clear();
            }
            known = Optional.ofNullable(check(repository, group, artifact, version));
            refusals.put(asked, known);
        }
        return known.orElse(null);
    }

    private @Nullable String check(
            @Nullable String repository, @Nullable String group, String artifact, @Nullable String version) {
        String coordinates = ArtifactPaths.problem(group, artifact, version, null, null);
        if (coordinates != null) {
            return "refused " + ArtifactPaths.printable(group) + ":" + ArtifactPaths.printable(artifact) + ": "
                    + coordinates;
        }
        return policy.refusal(repository);
    }

    @Override
    @SuppressWarnings("OptionalAssignedToNull") // null is MavenPomCache's "not cached"
    public Optional<MavenMetadata> getMavenMetadata(URI repo, GroupArtifactVersion gav) {
        String refusal = refusal(repo.toString(), gav.getGroupId(), gav.getArtifactId(), gav.getVersion());
        if (refusal != null) {
            policy.refuse(refusal);
            return Optional.empty();
        }
        return delegate.getMavenMetadata(repo, gav);
    }

    @Override
    public void putMavenMetadata(URI repo, GroupArtifactVersion gav, MavenMetadata metadata) {
        if (metadata == null && refusedAccess(repo.toString(), gav.getGroupId(), gav.getArtifactId())) {
            return;
        }
        delegate.putMavenMetadata(repo, gav, metadata);
    }

    @Override
    @SuppressWarnings("OptionalAssignedToNull")
    public Optional<Pom> getPom(ResolvedGroupArtifactVersion gav) throws MavenDownloadingException {
        String refusal = refusal(gav.getRepository(), gav.getGroupId(), gav.getArtifactId(), gav.getVersion());
        if (refusal == null && gav.getDatedSnapshotVersion() != null) {
            refusal =
                    refusal(gav.getRepository(), gav.getGroupId(), gav.getArtifactId(), gav.getDatedSnapshotVersion());
        }
        if (refusal != null) {
            policy.refuse(refusal);
            return Optional.empty();
        }
        return delegate.getPom(gav);
    }

    @Override
    public void putPom(ResolvedGroupArtifactVersion gav, Pom pom) {
        if (pom == null && refusedAccess(gav.getRepository(), gav.getGroupId(), gav.getArtifactId())) {
            return;
        }
        delegate.putPom(gav, pom);
    }

    /** Whether the repository's last answer for files of this artifact was 401 or 403. */
    private static boolean refusedAccess(@Nullable String repository, @Nullable String group, String artifact) {
        return repository != null
                && group != null
                && Network.SENDER.deniedUnder(Network.folder(repository, group, artifact)) != 0;
    }
}
