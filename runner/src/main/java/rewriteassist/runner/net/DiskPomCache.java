package rewriteassist.runner.net;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.ConstructorDetector;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.module.paramnames.ParameterNamesModule;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.openrewrite.maven.cache.MavenPomCache;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenMetadata;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.Pom;
import org.openrewrite.maven.tree.ResolvedGroupArtifactVersion;
import org.openrewrite.maven.tree.ResolvedPom;
import rewriteassist.runner.common.AtomicFiles;
import rewriteassist.runner.common.Log;

/**
 * Downloaded POMs and version metadata kept on disk between runner processes. A first run on a
 * Spring project makes about a thousand requests to Maven Central (recipes that pick versions read
 * {@code maven-metadata.xml} of every managed artifact), which is most of its time; the next run
 * on the same machine reads them here.
 *
 * <p>A released POM never changes and is kept for good. Version metadata, SNAPSHOT POMs and "not
 * found" answers do change: they are kept for {@link #VOLATILE} (Maven's own default update
 * policy is daily), so a run on the same day sees the same versions. Entries are JSON files named
 * by a hash of their key, under a folder for OpenRewrite's POM model version, written to a
 * temporary name and renamed (runners in parallel share the folder). An entry that cannot be read
 * is a miss, never an error: this is only a cache.
 */
public final class DiskPomCache implements MavenPomCache {
    /** How long version metadata, SNAPSHOT POMs and missing POMs are trusted. */
    static final Duration VOLATILE = Duration.ofHours(24);

    private static final ObjectMapper MAPPER = mapper();

    private final Path poms;
    private final Path metadata;
    private final Clock clock;
    /** Whether a broken entry was reported already (once per runner is enough). */
    private final AtomicBoolean reported = new AtomicBoolean();

    public DiskPomCache(Path root, Clock clock) {
        Path version = root.resolve("model-" + Pom.getModelVersion());
        this.poms = version.resolve("poms");
        this.metadata = version.resolve("metadata");
        this.clock = clock;
    }

    /**
     * A mapper for OpenRewrite's model as its own {@code RocksdbMavenPomCache} builds one: fields,
     * constructor parameters by name, unknown properties ignored; plus time types.
     */
    private static ObjectMapper mapper() {
        ObjectMapper m = JsonMapper.builder()
                .constructorDetector(ConstructorDetector.USE_PROPERTIES_BASED)
                .build()
                .registerModule(new ParameterNamesModule())
                .registerModule(new JavaTimeModule())
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .setDefaultPropertyInclusion(
                        JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL));
        return m.setVisibility(m.getSerializationConfig()
                .getDefaultVisibilityChecker()
                .withFieldVisibility(JsonAutoDetect.Visibility.ANY)
                .withGetterVisibility(JsonAutoDetect.Visibility.NONE)
                .withIsGetterVisibility(JsonAutoDetect.Visibility.NONE)
                .withSetterVisibility(JsonAutoDetect.Visibility.NONE)
                .withCreatorVisibility(JsonAutoDetect.Visibility.PUBLIC_ONLY));
    }

    @Override
    public @Nullable ResolvedPom getResolvedDependencyPom(ResolvedGroupArtifactVersion dependency) {
        return null; // resolved POMs depend on the project that asks; the in-memory cache has them
    }

    @Override
    public void putResolvedDependencyPom(ResolvedGroupArtifactVersion dependency, ResolvedPom resolved) {}

    @Override
    @SuppressWarnings("OptionalAssignedToNull") // null is MavenPomCache's "not cached"
    public @Nullable Optional<MavenMetadata> getMavenMetadata(URI repo, GroupArtifactVersion gav) {
        Entry entry = read(metadata, repo + " " + gav, VOLATILE);
        if (entry == null) {
            return null;
        }
        return value(entry, MavenMetadata.class);
    }

    @Override
    public void putMavenMetadata(URI repo, GroupArtifactVersion gav, MavenMetadata value) {
        write(metadata, repo + " " + gav, value);
    }

    @Override
    @SuppressWarnings("OptionalAssignedToNull")
    public @Nullable Optional<Pom> getPom(ResolvedGroupArtifactVersion gav) {
        boolean released = !gav.getVersion().endsWith("-SNAPSHOT");
        Entry entry = read(poms, key(gav), null);
        if (entry == null) {
            return null;
        }
        boolean found = entry.found();
        if ((!found || !released) && stale(entry, VOLATILE)) {
            return null;
        }
        return value(entry, Pom.class);
    }

    @Override
    public void putPom(ResolvedGroupArtifactVersion gav, Pom pom) {
        write(poms, key(gav), pom);
    }

    @Override
    public @Nullable Optional<MavenRepository> getNormalizedRepository(MavenRepository repository) {
        return null; // a few quick requests per run; not worth keeping a repository's state on disk
    }

    @Override
    public void putNormalizedRepository(MavenRepository repository, MavenRepository normalized) {}

    private static String key(ResolvedGroupArtifactVersion gav) {
        return gav.getRepository() + " " + gav.getGroupId() + ":" + gav.getArtifactId() + ":" + gav.getVersion() + ":"
                + gav.getDatedSnapshotVersion();
    }

    /** The entry for {@code key}, or null when there is none, it is older than {@code maxAge} or broken. */
    private @Nullable Entry read(Path folder, String key, @Nullable Duration maxAge) {
        Path file = folder.resolve(hash(key) + ".json");
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            Entry entry = MAPPER.readValue(file.toFile(), Entry.class);
            if (!key.equals(entry.key()) || (maxAge != null && stale(entry, maxAge))) {
                return null;
            }
            return entry;
        } catch (IOException | RuntimeException e) {
            broken(file.toString(), e);
            return null;
        }
    }

    private boolean stale(Entry entry, Duration maxAge) {
        Instant written = Instant.ofEpochMilli(entry.written());
        return written.plus(maxAge).isBefore(clock.instant());
    }

    @SuppressWarnings("OptionalAssignedToNull")
    private <T> @Nullable Optional<T> value(Entry entry, Class<T> type) {
        JsonNode value = entry.value();
        if (value == null || !entry.found()) {
            return Optional.empty(); // the repository said there is no such file
        }
        try {
            return Optional.of(MAPPER.treeToValue(value, type));
        } catch (IOException | RuntimeException e) {
            broken(entry.key(), e);
            return null;
        }
    }

    private void write(Path folder, String key, Object value) {
        Path file = folder.resolve(hash(key) + ".json");
        try {
            Entry entry = new Entry(key, clock.millis(), value == null ? null : MAPPER.valueToTree(value));
            AtomicFiles.write(file, MAPPER.writeValueAsBytes(entry));
        } catch (IOException | RuntimeException e) {
            broken(file.toString(), e);
        }
    }

    private void broken(String entry, Exception e) {
        if (reported.compareAndSet(false, true)) {
            Log.log("POM cache: " + entry + " skipped (" + Log.oneLine(e) + "); further problems are not logged");
        }
    }

    /**
     * An entry on disk: its key (another key under the same hash is a miss), when it was written, and
     * the value in OpenRewrite's model (absent: the repository said there is no such file). Public:
     * the mapper creates objects through public constructors only.
     */
    public record Entry(String key, long written, @Nullable JsonNode value) {
        /** Whether the repository had the file (earlier runners wrote a missing one's value as null). */
        boolean found() {
            return value != null && !value.isNull();
        }
    }

    private static String hash(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
