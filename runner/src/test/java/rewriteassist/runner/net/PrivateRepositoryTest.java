package rewriteassist.runner.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;
import rewriteassist.runner.RepositoryServer;

/**
 * A private Maven repository, as a company has one: a real HTTP server on loopback that answers 401
 * to every request without its user and password, a POM that declares it and depends on an
 * artifact only it serves, and the user's settings.xml with a {@code <server>} for it. The runner
 * reads the settings with rewrite-maven's {@code MavenSettings}; where the credentials are
 * {@code ${env.X}}, the runner runs as a process of its own with the environment of the test, the
 * way the binary starts it.
 */
class PrivateRepositoryTest {
    private static final String USER = "deployer";
    private static final String PASSWORD = "s3cret-" + Long.toHexString(System.nanoTime());

    @RegisterExtension
    final Fixture fixture = Fixture.in("work");

    private Path localRepository;

    @BeforeEach
    void fixture() throws Exception {
        Files.createDirectories(fixture.dir());
        localRepository = fixture.root().resolve("repository");
        Files.createDirectories(localRepository);
    }

    /** A private repository serving {@code com.acme.private:<artifact>:1.0} (a POM and a jar). */
    private static RepositoryServer privateRepository(String artifact) throws Exception {
        String base = "/com/acme/private/" + artifact + "/1.0/" + artifact + "-1.0";
        return new RepositoryServer()
                .serve(
                        base + ".pom",
                        "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme.private</groupId>"
                                + "<artifactId>" + artifact + "</artifactId><version>1.0</version></project>\n")
                .serve(base + ".jar", emptyJar())
                .requireCredentials(USER, PASSWORD);
    }

    /** A jar with nothing but its manifest: a real one, that the source sets can read. */
    private static byte[] emptyJar() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, new Manifest())) {
            jar.flush();
        }
        return bytes.toByteArray();
    }

    /** A project depending on the private artifact, declaring {@code repositories} (XML, may be empty). */
    private Path project(String artifact, String repositories) throws Exception {
        String pom = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n"
                + "  <modelVersion>4.0.0</modelVersion>\n"
                + "  <groupId>com.acme</groupId><artifactId>app</artifactId><version>1.0</version>\n"
                + repositories
                + "  <dependencies><dependency><groupId>com.acme.private</groupId><artifactId>" + artifact
                + "</artifactId><version>1.0</version></dependency></dependencies>\n"
                + "</project>\n";
        return fixture.repo("pom.xml", pom, "src/main/java/App.java", "class App {}\n");
    }

    private static String declares(RepositoryServer repository) {
        return "  <repositories><repository><id>private</id><url>" + repository.url()
                + "</url></repository></repositories>\n";
    }

    private Path settings(String body) throws Exception {
        Path file = fixture.root().resolve("settings.xml");
        Files.writeString(file, "<settings>\n" + body + "</settings>\n");
        return file;
    }

    private static String server(String id, String user, String password) {
        return "  <servers><server><id>" + id + "</id><username>" + user + "</username><password>" + password
                + "</password></server></servers>\n";
    }

    private ObjectNode request(Path root, Path settings) {
        ObjectNode request = fixture.parseRequest(root, localRepository, false);
        request.put("maven_settings", settings.toString());
        return request;
    }

    /**
     * {@link #request} where the user allowed the server {@code private}'s credentials to go to
     * {@code repository} ({@code --credential-url}): the POM declares it, the settings do not.
     */
    private ObjectNode allowing(Path root, Path settings, RepositoryServer repository) {
        ObjectNode request = request(root, settings);
        request.putObject("credential_urls").putArray("private").add(repository.url());
        return request;
    }

    /**
     * Parses in a runner process of its own whose environment is exactly {@code environment} (and
     * what finding git needs), as the binary starts it with its allow-list of variables.
     */
    private JsonNode parseInProcess(ObjectNode request, Map<String, String> environment) throws Exception {
        Path requestFile = fixture.write(request);
        Path log = fixture.root().resolve("runner-" + request.get("id").asText() + ".log");
        Process runner = Fixture.startRunner(log, environment, requestFile.toString());
        assertTrue(runner.waitFor(120, TimeUnit.SECONDS), "the runner did not finish");
        assertEquals(0, runner.exitValue(), Files.readString(log));
        return Fixture.results(request);
    }

    private static JsonNode module(JsonNode results) {
        return results.path("modules").get(0);
    }

    private static void assertResolved(JsonNode results, RepositoryServer repository) {
        assertTrue(results.path("ok").asBoolean(), results.toString());
        assertEquals(1, module(results).path("classpath_jars").asInt(), results.toString());
        assertEquals(0, module(results).path("unresolved").asInt(), results.toString());
        assertFalse(results.path("warnings").toString().contains("refused access"), results.toString());
        assertTrue(
                repository.requests().stream().anyMatch(r -> r.contains(".jar (authorized)")),
                repository.requests().toString());
    }

    @Test
    void envCredentialsInTheSettingsReachThePrivateRepositoryAndTheirAbsenceIsNamed() throws Exception {
        try (RepositoryServer repository = privateRepository("from-env")) {
            Path root = project("from-env", declares(repository));
            Path settings = settings(server("private", "${env.REPO_USER}", "${env.REPO_PASSWORD}"));

            JsonNode without = parseInProcess(request(root, settings), Map.of());
            String warnings = without.path("warnings").toString();
            assertTrue(without.path("ok").asBoolean(), without.toString());
            assertEquals(0, module(without).path("classpath_jars").asInt(), without.toString());
            String first = without.path("warnings").get(0).asText();
            assertTrue(
                    first.startsWith("repository `private` (" + repository.url().replaceAll("/$", ""))
                            && first.contains("refused access (HTTP 401) to com.acme.private:from-env:1.0"),
                    warnings);
            assertTrue(
                    first.contains("${env.REPO_USER}, ${env.REPO_PASSWORD}")
                            && first.contains("the action input `env` (CLI: `--pass-env`)"),
                    first);

            JsonNode with = parseInProcess(
                    allowing(root, settings, repository), Map.of("REPO_USER", USER, "REPO_PASSWORD", PASSWORD));
            assertResolved(with, repository);
            assertTrue(Files.isRegularFile(localRepository.resolve("com/acme/private/from-env/1.0/from-env-1.0.jar")));
            assertFalse(with.toString().contains(PASSWORD), "a credential in the results");
            assertFalse(without.toString().contains(PASSWORD), "a credential in the results");
        }
    }

    @Test
    void aRepositoryWithoutAServerNamesTheServerToAdd() throws Exception {
        try (RepositoryServer repository = privateRepository("no-server")) {
            Path root = project("no-server", declares(repository));
            JsonNode results = fixture.send(request(root, settings("")));
            String first = results.path("warnings").get(0).asText();
            assertTrue(
                    first.contains("repository `private`")
                            && first.contains("add a <server> with id `private` to "
                                    + fixture.root().resolve("settings.xml")),
                    results.path("warnings").toString());
        }
    }

    /**
     * Refused credentials are a warning of their own; and the refusal is not remembered as "missing"
     * (rewrite-maven's downloader would cache it, for a day on disk), so the corrected settings work
     * in the same runner at once.
     */
    @Test
    void wrongCredentialsAreNamedAndTheCorrectedOnesWorkAtOnce() throws Exception {
        try (RepositoryServer repository = privateRepository("corrected")) {
            Path root = project("corrected", declares(repository));
            JsonNode wrong = fixture.send(allowing(root, settings(server("private", USER, "wrong")), repository));
            assertTrue(
                    wrong.path("warnings")
                            .get(0)
                            .asText()
                            .contains("refused the credentials of the <server> `private`"),
                    wrong.path("warnings").toString());
            JsonNode right = fixture.send(allowing(root, settings(server("private", USER, PASSWORD)), repository));
            assertResolved(right, repository);
        }
    }

    /**
     * A repository that serves POMs to anyone and jars only with credentials: the POM resolves, the
     * jar download is refused, and that is named too (jars come through another downloader).
     */
    @Test
    void aJarRefusedAfterItsPomResolvedIsNamed() throws Exception {
        String base = "/com/acme/private/jar-only/1.0/jar-only-1.0";
        try (RepositoryServer repository = new RepositoryServer()
                .serve(
                        base + ".pom",
                        "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme.private</groupId>"
                                + "<artifactId>jar-only</artifactId><version>1.0</version></project>\n")
                .serve(base + ".jar", emptyJar())
                .requireCredentials(USER, PASSWORD, ".jar")) {
            Path root = project("jar-only", declares(repository));
            JsonNode results = fixture.send(request(root, settings("")));
            assertEquals(1, module(results).path("unresolved").asInt(), results.toString());
            assertTrue(
                    results.path("warnings")
                            .get(0)
                            .asText()
                            .startsWith(
                                    "repository `private` (" + repository.url().replaceAll("/$", "")
                                            + ") refused access (HTTP 401) to com.acme.private:jar-only:1.0"),
                    results.path("warnings").toString());
            assertTrue(
                    repository.requests().stream().anyMatch(r -> r.contains("jar-only-1.0.jar (refused)")),
                    repository.requests().toString());
        }
    }

    /**
     * A refusal while a recipe runs (the new version of a parent the local repository has the old
     * one of) is named in the run's warnings: the recipe changed nothing, and the warning says why.
     * With the credentials, the recipe does what it says.
     */
    @Test
    void aRefusalWhileARecipeRunsIsNamedToo() throws Exception {
        String parent = "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme.private</groupId>"
                + "<artifactId>parent</artifactId><version>%s</version><packaging>pom</packaging></project>\n";
        Path local = localRepository.resolve("com/acme/private/parent/1.0/parent-1.0.pom");
        Files.createDirectories(local.getParent());
        Files.writeString(local, parent.formatted("1.0"));
        String metadata = "<metadata><groupId>com.acme.private</groupId><artifactId>parent</artifactId><versioning>"
                + "<latest>2.0</latest><release>2.0</release><versions><version>1.0</version><version>2.0</version>"
                + "</versions></versioning></metadata>\n";
        try (RepositoryServer repository = new RepositoryServer()
                .serve("/com/acme/private/parent/2.0/parent-2.0.pom", parent.formatted("2.0"))
                .serve("/com/acme/private/parent/maven-metadata.xml", metadata)
                .requireCredentials(USER, PASSWORD)) {
            Path root = fixture.repo(
                    "pom.xml",
                    "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n"
                            + "  <parent><groupId>com.acme.private</groupId><artifactId>parent</artifactId>"
                            + "<version>1.0</version><relativePath/></parent>\n  <artifactId>app</artifactId>\n"
                            + declares(repository)
                            + "</project>\n");
            String change = Fixture.recipe(
                    "test.Parent",
                    "org.openrewrite.maven.ChangeParentPom:\n  oldGroupId: com.acme.private\n"
                            + "  oldArtifactId: parent\n  newVersion: 2.0");

            JsonNode parsed = fixture.send(request(root, settings("")));
            assertFalse(parsed.path("warnings").toString().contains("refused access"), parsed.toString());
            JsonNode refused = fixture.run(change, "test.Parent").path("runs").get(0);
            assertEquals("", refused.path("diff").asText(), refused.toString());
            assertTrue(
                    refused.path("warnings")
                            .toString()
                            .contains("repository `private` ("
                                    + repository.url().replaceAll("/$", "") + ") refused access (HTTP 401) to "
                                    + "com.acme.private:parent"),
                    refused.toString());

            fixture.send(allowing(root, settings(server("private", USER, PASSWORD)), repository));
            JsonNode changed = fixture.run(change, "test.Parent").path("runs").get(0);
            assertTrue(changed.path("diff").asText().contains("<version>2.0</version>"), changed.toString());
            assertFalse(changed.path("warnings").toString().contains("refused access"), changed.toString());
        }
    }

    @Test
    void aMirrorOfEverythingWithItsServerIsUsed() throws Exception {
        try (RepositoryServer mirror = privateRepository("mirrored")) {
            Path root = project("mirrored", "");
            Path settings = settings("  <mirrors><mirror><id>corporate</id><url>" + mirror.url()
                    + "</url><mirrorOf>*</mirrorOf></mirror></mirrors>\n"
                    + server("corporate", USER, PASSWORD));
            assertResolved(fixture.send(request(root, settings)), mirror);
        }
    }

    @Test
    void theRepositoriesOfAnActiveProfileAreUsed() throws Exception {
        try (RepositoryServer repository = privateRepository("profiled")) {
            Path root = project("profiled", "");
            Path settings = settings("  <profiles><profile><id>company</id><repositories><repository><id>private</id>"
                    + "<url>" + repository.url() + "</url></repository></repositories></profile></profiles>\n"
                    + "  <activeProfiles><activeProfile>company</activeProfile></activeProfiles>\n"
                    + server("private", USER, PASSWORD));
            assertResolved(fixture.send(request(root, settings)), repository);
        }
    }

    /** settings.xml goes through the same hardened XML parser as POMs: a DTD in it reaches nothing. */
    @Test
    void aDoctypeInTheSettingsCannotReachOut() throws Exception {
        try (RepositoryServer attacker = new RepositoryServer();
                RepositoryServer repository = privateRepository("doctype")) {
            attacker.serve("/e.dtd", "<!ENTITY % p SYSTEM \"" + attacker.url() + "x\">\n%p;\n");
            Path root = project("doctype", declares(repository));
            Path settings = fixture.root().resolve("settings.xml");
            Files.writeString(
                    settings,
                    "<?xml version=\"1.0\"?>\n<!DOCTYPE settings [<!ENTITY % d SYSTEM \"" + attacker.url()
                            + "e.dtd\"> %d;]>\n<settings>" + server("private", USER, PASSWORD) + "</settings>\n");
            JsonNode results = fixture.send(allowing(root, settings, repository));
            assertEquals(List.of(), attacker.requests(), "the settings' DTD was fetched");
            // Read all the same: the DTD is skipped, the rest of the file is used.
            assertResolved(results, repository);
        }
    }
}
