package rewriteassist.runner.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openrewrite.maven.MavenDownloadingException;
import org.openrewrite.maven.cache.MavenPomCache;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenMetadata;
import org.openrewrite.maven.tree.Pom;
import org.openrewrite.maven.tree.ResolvedGroupArtifactVersion;

/** The disk's answers kept in memory, misses too, and nothing written to disk twice. */
class TwoLevelPomCacheTest {
    @TempDir
    Path dir;

    private static final String CENTRAL = "https://repo.maven.apache.org/maven2";
    private static final ResolvedGroupArtifactVersion GONE =
            new ResolvedGroupArtifactVersion(CENTRAL, "com.acme", "gone", "1.0", null);
    private static final GroupArtifactVersion LIB = new GroupArtifactVersion("com.acme", "lib", null);

    /** The disk cache, counting what is asked of it. */
    private static final class Counted extends ForwardingPomCache {
        final AtomicInteger pomReads = new AtomicInteger();
        final AtomicInteger metadataReads = new AtomicInteger();
        final AtomicInteger metadataWrites = new AtomicInteger();

        Counted(MavenPomCache disk) {
            super(disk);
        }

        @Override
        public Optional<Pom> getPom(ResolvedGroupArtifactVersion gav) throws MavenDownloadingException {
            pomReads.incrementAndGet();
            return super.getPom(gav);
        }

        @Override
        public Optional<MavenMetadata> getMavenMetadata(URI repo, GroupArtifactVersion gav) {
            metadataReads.incrementAndGet();
            return super.getMavenMetadata(repo, gav);
        }

        @Override
        public void putMavenMetadata(URI repo, GroupArtifactVersion gav, MavenMetadata metadata) {
            metadataWrites.incrementAndGet();
            super.putMavenMetadata(repo, gav, metadata);
        }
    }

    private static MavenMetadata metadata(String version) throws java.io.IOException {
        String xml = "<metadata><groupId>com.acme</groupId><artifactId>lib</artifactId><versioning>"
                + "<versions><version>" + version + "</version></versions></versioning></metadata>";
        MavenMetadata parsed = MavenMetadata.parse(xml.getBytes(StandardCharsets.UTF_8));
        assertNotNull(parsed);
        return parsed;
    }

    @Test
    void aPomTheDiskKnowsToBeMissingIsReadFromDiskOnce() throws Exception {
        new DiskPomCache(dir, Clock.systemUTC()).putPom(GONE, null);
        Counted disk = new Counted(new DiskPomCache(dir, Clock.systemUTC()));
        TwoLevelPomCache cache = new TwoLevelPomCache(disk);
        for (int i = 0; i < 3; i++) {
            Optional<Pom> answer = cache.getPom(GONE);
            assertNotNull(answer, "the miss is a cached answer");
            assertTrue(answer.isEmpty());
        }
        assertEquals(1, disk.pomReads.get());
    }

    @Test
    void versionsReadFromDiskAndPutBackAreNotWrittenAgain() throws Exception {
        URI central = URI.create(CENTRAL);
        new DiskPomCache(dir, Clock.systemUTC()).putMavenMetadata(central, LIB, metadata("1.0"));
        Counted disk = new Counted(new DiskPomCache(dir, Clock.systemUTC()));
        TwoLevelPomCache cache = new TwoLevelPomCache(disk);

        // What rewrite-maven's downloader does with every version list it gets.
        MavenMetadata read = cache.getMavenMetadata(central, LIB).orElseThrow();
        cache.putMavenMetadata(central, LIB, read);
        assertEquals(read, cache.getMavenMetadata(central, LIB).orElseThrow());
        assertEquals(1, disk.metadataReads.get());
        assertEquals(0, disk.metadataWrites.get(), "the same list was written again");

        MavenMetadata newer = metadata("2.0");
        cache.putMavenMetadata(central, LIB, newer);
        assertEquals(1, disk.metadataWrites.get());
        assertEquals(
                "2.0",
                new DiskPomCache(dir, Clock.systemUTC())
                        .getMavenMetadata(central, LIB)
                        .orElseThrow()
                        .getVersioning()
                        .getVersions()
                        .get(0));
    }
}
