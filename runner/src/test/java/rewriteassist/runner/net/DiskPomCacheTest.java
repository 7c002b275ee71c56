package rewriteassist.runner.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openrewrite.maven.internal.RawPom;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenMetadata;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.Pom;
import org.openrewrite.maven.tree.ResolvedGroupArtifactVersion;

/** POMs and metadata written by one runner and read by the next, with their ages. */
class DiskPomCacheTest {
    @TempDir
    Path dir;

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final String CENTRAL = "https://repo.maven.apache.org/maven2";

    private static Clock at(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    private static Pom pom(String version) {
        String text =
                """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.acme</groupId>
                  <artifactId>lib</artifactId>
                  <version>%s</version>
                  <properties><lib.flavour>plain</lib.flavour></properties>
                  <dependencyManagement><dependencies><dependency>
                    <groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0.17</version>
                  </dependency></dependencies></dependencyManagement>
                  <dependencies><dependency>
                    <groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId>
                  </dependency></dependencies>
                </project>
                """
                        .formatted(version);
        return RawPom.parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), null)
                .toPom(null, MavenRepository.MAVEN_CENTRAL);
    }

    private static ResolvedGroupArtifactVersion gav(String version) {
        return new ResolvedGroupArtifactVersion(CENTRAL, "com.acme", "lib", version, null);
    }

    @Test
    void a_released_pom_is_read_back_by_the_next_runner_for_good() throws Exception {
        Pom pom = pom("1.2.0");
        new DiskPomCache(dir, at(NOW)).putPom(gav("1.2.0"), pom);

        Optional<Pom> read = new DiskPomCache(dir, at(NOW.plus(Duration.ofDays(400)))).getPom(gav("1.2.0"));

        assertEquals(Optional.of(pom), read);
        assertEquals("plain", read.orElseThrow().getProperties().get("lib.flavour"));
        assertEquals(1, read.orElseThrow().getDependencies().size());
        assertNull(new DiskPomCache(dir, at(NOW)).getPom(gav("1.3.0")), "another version is not cached");
    }

    @Test
    void a_snapshot_pom_and_a_missing_pom_are_trusted_for_a_day() throws Exception {
        new DiskPomCache(dir, at(NOW)).putPom(gav("2.0-SNAPSHOT"), pom("2.0-SNAPSHOT"));
        new DiskPomCache(dir, at(NOW)).putPom(gav("9.9.9"), null);

        DiskPomCache sameDay = new DiskPomCache(dir, at(NOW.plus(Duration.ofHours(23))));
        assertTrue(sameDay.getPom(gav("2.0-SNAPSHOT")).isPresent());
        assertEquals(Optional.empty(), sameDay.getPom(gav("9.9.9")), "known to be missing");

        DiskPomCache nextDay = new DiskPomCache(dir, at(NOW.plus(Duration.ofHours(25))));
        assertNull(nextDay.getPom(gav("2.0-SNAPSHOT")), "asked again");
        assertNull(nextDay.getPom(gav("9.9.9")), "asked again");
    }

    /** Earlier runners wrote a missing POM's value as null (now it is left out): both are a miss for a day. */
    @Test
    void a_missing_pom_written_with_a_null_value_is_trusted_for_a_day() throws Exception {
        new DiskPomCache(dir, at(NOW)).putPom(gav("9.9.9"), null);
        Path entry;
        try (Stream<Path> walk = Files.walk(dir)) {
            entry = walk.filter(Files::isRegularFile).findFirst().orElseThrow();
        }
        String text = Files.readString(entry);
        Files.writeString(entry, text.substring(0, text.lastIndexOf('}')) + ",\"value\":null}");

        assertEquals(
                Optional.empty(),
                new DiskPomCache(dir, at(NOW.plus(Duration.ofHours(23)))).getPom(gav("9.9.9")),
                Files.readString(entry));
        assertNull(new DiskPomCache(dir, at(NOW.plus(Duration.ofHours(25)))).getPom(gav("9.9.9")), "asked again");
    }

    @Test
    void version_metadata_is_trusted_for_a_day() throws Exception {
        String xml =
                """
                <metadata><groupId>com.acme</groupId><artifactId>lib</artifactId><versioning>
                  <latest>1.3.0</latest><release>1.3.0</release>
                  <versions><version>1.2.0</version><version>1.3.0</version></versions>
                  <lastUpdated>20261120101010</lastUpdated>
                </versioning></metadata>
                """;
        MavenMetadata metadata = MavenMetadata.parse(xml.getBytes(StandardCharsets.UTF_8));
        URI repo = URI.create(CENTRAL);
        GroupArtifactVersion gav = new GroupArtifactVersion("com.acme", "lib", null);
        new DiskPomCache(dir, at(NOW)).putMavenMetadata(repo, gav, metadata);

        Optional<MavenMetadata> read =
                new DiskPomCache(dir, at(NOW.plus(Duration.ofHours(1)))).getMavenMetadata(repo, gav);
        MavenMetadata.Versioning versioning = read.orElseThrow().getVersioning();
        assertEquals(List.of("1.2.0", "1.3.0"), versioning.getVersions());
        assertEquals("1.3.0", versioning.getRelease());
        assertEquals(metadata.getVersioning().getLastUpdated(), versioning.getLastUpdated());

        assertNull(new DiskPomCache(dir, at(NOW.plus(Duration.ofHours(25)))).getMavenMetadata(repo, gav));
    }

    @Test
    void a_broken_entry_is_a_miss_and_is_written_again() throws Exception {
        new DiskPomCache(dir, at(NOW)).putPom(gav("1.2.0"), pom("1.2.0"));
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        assertEquals(1, files.size(), "one entry, no temporary file left: " + files);
        Files.writeString(files.get(0), "{ not json");

        DiskPomCache cache = new DiskPomCache(dir, at(NOW));
        assertNull(cache.getPom(gav("1.2.0")));
        cache.putPom(gav("1.2.0"), pom("1.2.0"));
        assertEquals(Optional.of(pom("1.2.0")), new DiskPomCache(dir, at(NOW)).getPom(gav("1.2.0")));
    }
}
