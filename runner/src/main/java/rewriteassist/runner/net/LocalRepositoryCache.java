package rewriteassist.runner.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.openrewrite.maven.cache.MavenArtifactCache;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.ResolvedDependency;
import rewriteassist.runner.common.AtomicFiles;

/**
 * Jars in the local repository, Maven's own layout. Unlike rewrite-maven's
 * {@code LocalMavenArtifactCache}:
 *
 * <ul>
 *   <li>a path is only made of valid coordinates and must stay inside the repository
 *       ({@link ArtifactPaths}): a POM cannot make the runner write outside it;
 *   <li>a downloaded jar is checked against its repository's checksum ({@link Checksums}) and
 *       not kept when it does not match;
 *   <li>it is written to a temporary name and renamed: a runner stopped in the middle of a
 *       download (time limit) leaves no truncated jar for Maven to trip on.
 * </ul>
 */
public final class LocalRepositoryCache implements MavenArtifactCache {
    /** Larger jars are refused: no dependency of a real project comes near this. */
    static final long MAX_JAR_BYTES = 512L * 1024 * 1024;

    private final RepositoryPolicy policy;

    public LocalRepositoryCache(RepositoryPolicy policy) {
        this.policy = policy;
    }

    @Override
    public @Nullable Path getArtifact(ResolvedDependency dependency) {
        try {
            Path jar = ArtifactPaths.jar(policy.localRepository(), dependency);
            return Files.isRegularFile(jar) ? jar : null;
        } catch (IOException e) {
            policy.refuse(e.getMessage());
            return null;
        }
    }

    @Override
    public @Nullable Path putArtifact(ResolvedDependency dependency, InputStream in, Consumer<Throwable> onError) {
        if (in == null) {
            return null;
        }
        Path jar;
        try {
            jar = ArtifactPaths.jar(policy.localRepository(), dependency);
        } catch (IOException e) {
            policy.refuse(e.getMessage());
            closeQuietly(in);
            return null;
        }
        Path partial = jar.resolveSibling(
                jar.getFileName() + "." + ProcessHandle.current().pid() + ".part");
        try (InputStream body = in) {
            Files.createDirectories(jar.getParent());
            ArtifactPaths.requireUnder(policy.localRepository(), jar);
            Checksums.Digests digests = copy(body, partial);
            MavenRepository repository = dependency.getRepository();
            if (repository != null
                    && !repository.getUri().regionMatches(true, 0, "file:", 0, 5)
                    && !policy.isLocalRepository(repository.getUri())) {
                String uri = artifactUri(repository, dependency);
                switch (Checksums.verify(policy.sender(), repository, uri, digests)) {
                    case MISMATCH -> throw new IOException("checksum mismatch: the jar of "
                            + ArtifactPaths.describe(dependency) + " from " + repository.getUri()
                            + " does not match the checksum published beside it; it is not used");
                    case NONE_OFFERED -> policy.note(repository.getUri() + " publishes no .sha1/.sha256 checksums: "
                            + "its jars are used unverified");
                    case MATCHES -> {}
                }
            }
            AtomicFiles.rename(partial, jar);
            return jar;
        } catch (IOException | RuntimeException e) {
            onError.accept(e);
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // Nothing more to do: the next download overwrites it.
            }
            return null;
        }
    }

    /** Copies at most {@link #MAX_JAR_BYTES} to {@code target}, digesting on the way. */
    private static Checksums.Digests copy(InputStream body, Path target) throws IOException {
        Checksums.Digesting digesting = new Checksums.Digesting();
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        try (OutputStream out = Files.newOutputStream(target)) {
            int read;
            while ((read = body.read(buffer)) != -1) {
                total += read;
                if (total > MAX_JAR_BYTES) {
                    throw new IOException("a jar larger than " + MAX_JAR_BYTES / 1024 / 1024 + " MiB is refused");
                }
                digesting.update(buffer, 0, read);
                out.write(buffer, 0, read);
            }
        }
        return digesting.digests();
    }

    /** The URL the downloader fetched the jar from (rewrite-maven's {@code MavenArtifactDownloader} layout). */
    static String artifactUri(MavenRepository repository, ResolvedDependency dependency) {
        String base = repository.getUri().endsWith("/") ? repository.getUri() : repository.getUri() + "/";
        String version = dependency.getDatedSnapshotVersion() == null
                ? dependency.getVersion()
                : dependency.getDatedSnapshotVersion();
        return base + dependency.getGroupId().replace('.', '/') + '/' + dependency.getArtifactId() + '/'
                + dependency.getVersion() + '/' + dependency.getArtifactId() + '-' + version
                + (dependency.getClassifier() == null ? "" : "-" + dependency.getClassifier()) + ".jar";
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // Nothing was read from it.
        }
    }
}
