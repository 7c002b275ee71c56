package rewriteassist.runner.gradle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;
import rewriteassist.runner.RepositoryServer;

/**
 * A private repository declared by a Gradle build, with its credentials the Gradle way: Gradle
 * properties (the build's {@code gradle.properties}, the Gradle user home's, {@code
 * ORG_GRADLE_PROJECT_*}) and environment variables. A real HTTP server on loopback answers 401 to
 * every request without the user and password; it serves a jar with one class, {@code
 * com.acme.priv.Secret}, that the project's source uses, so a recipe changing that type shows that
 * the source was attributed with the private jar.
 */
class GradlePrivateRepositoryTest {
    private static final String USER = "deployer";
    private static final String PASSWORD = "s3cret-" + Long.toHexString(System.nanoTime());
    private static final String SECRET = "com.acme.priv.Secret";

    @RegisterExtension
    final Fixture fixture = Fixture.in("work");

    private Path localRepository;
    private Path gradleUserHome;

    @BeforeEach
    void fixture() throws Exception {
        Files.createDirectories(fixture.dir());
        localRepository = Files.createDirectories(fixture.root().resolve("repository"));
        gradleUserHome = Files.createDirectories(fixture.root().resolve("gradle-home"));
    }

    /** A private repository serving {@code com.acme.private:lib:1.0}, whose jar holds {@link #SECRET}. */
    private RepositoryServer privateRepository() throws Exception {
        String base = "/com/acme/private/lib/1.0/lib-1.0";
        return new RepositoryServer()
                .serve(
                        base + ".pom",
                        "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme.private</groupId>"
                                + "<artifactId>lib</artifactId><version>1.0</version></project>\n")
                .serve(base + ".jar", jarWithSecret())
                .requireCredentials(USER, PASSWORD);
    }

    /** A jar with the compiled {@code com.acme.priv.Secret}. */
    private byte[] jarWithSecret() throws Exception {
        Path sources = Files.createDirectories(fixture.root().resolve("secret/com/acme/priv"));
        Path source =
                Files.writeString(sources.resolve("Secret.java"), "package com.acme.priv;\npublic class Secret {}\n");
        Path classes = Files.createDirectories(fixture.root().resolve("secret-classes"));
        int status =
                ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), source.toString());
        assertEquals(0, status, "javac");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, new Manifest())) {
            jar.putNextEntry(new JarEntry("com/acme/priv/Secret.class"));
            jar.write(Files.readAllBytes(classes.resolve("com/acme/priv/Secret.class")));
            jar.closeEntry();
        }
        return bytes.toByteArray();
    }

    /** A Gradle build (script {@code script} at {@code scriptName}) whose source uses {@link #SECRET}. */
    private Path build(String scriptName, String script, String properties) throws Exception {
        return fixture.repo(
                "settings.gradle",
                "rootProject.name = 'app'\n",
                scriptName,
                script,
                "gradle.properties",
                properties,
                "src/main/java/com/acme/App.java",
                "package com.acme;\n\nimport com.acme.priv.Secret;\n\nclass App {\n    Secret secret;\n}\n");
    }

    private static String groovyScript(RepositoryServer repository, String credentials) {
        return "plugins {\n    id 'java'\n}\nrepositories {\n    maven {\n        url '" + repository.url() + "'\n"
                + credentials + "    }\n}\ndependencies {\n    implementation 'com.acme.private:lib:1.0'\n}\n";
    }

    private static final String FROM_PROPERTY_AND_ENV = "        credentials {\n"
            + "            username = findProperty('repoUser')\n"
            + "            password = System.getenv('REPO_PASSWORD')\n"
            + "        }\n";

    private ObjectNode parseRequest(Path root) {
        return fixture.parseRequest(root, localRepository, false);
    }

    /** The request of a recipe run renaming {@link #SECRET}: it changes App only if App was attributed. */
    private ObjectNode renameRequest() throws Exception {
        return fixture.runRequest(
                Fixture.recipe("test.Rename", Fixture.changeType(SECRET, "com.acme.priv.Renamed")),
                "test.Rename",
                true);
    }

    /**
     * Sends {@code requests} to a runner process of its own ({@code --serve}) whose environment is
     * exactly {@code environment} (and {@code PATH}), as the binary starts it with its allow-list.
     */
    private List<JsonNode> serveInProcess(List<ObjectNode> requests, Map<String, String> environment) throws Exception {
        StringBuilder stdin = new StringBuilder();
        for (ObjectNode request : requests) {
            stdin.append(fixture.write(request)).append('\n');
        }
        Path log = fixture.root().resolve("runner-" + requests.get(0).get("id").asText() + ".log");
        Process runner = Fixture.startRunner(log, environment, "--serve");
        runner.getOutputStream().write(stdin.toString().getBytes(StandardCharsets.UTF_8));
        runner.getOutputStream().close();
        assertTrue(runner.waitFor(180, TimeUnit.SECONDS), "the runner did not finish");
        assertEquals(0, runner.exitValue(), Files.readString(log));
        List<JsonNode> results = new ArrayList<>();
        for (ObjectNode request : requests) {
            results.add(Fixture.results(request));
        }
        return results;
    }

    private static String firstWarning(JsonNode parsed) {
        return parsed.path("warnings").get(0).asText();
    }

    /** The first warning of an in-process parse of a Groovy build with these credentials and properties. */
    private String firstWarningOfGroovyBuild(RepositoryServer repository, String credentials, String properties)
            throws Exception {
        Path root = build("build.gradle", groovyScript(repository, credentials), properties);
        return firstWarning(fixture.send(parseRequest(root)));
    }

    private static void assertFetchedAndAttributed(JsonNode parsed, JsonNode renamed, RepositoryServer repository) {
        assertTrue(parsed.path("ok").asBoolean(), parsed.toString());
        JsonNode module = parsed.path("modules").get(0);
        assertEquals(0, module.path("unresolved").asInt(), parsed.toString());
        assertEquals(1, module.path("classpath_jars").asInt(), parsed.toString());
        assertFalse(parsed.path("warnings").toString().contains("refused access"), parsed.toString());
        assertTrue(
                repository.requests().stream().anyMatch(r -> r.contains("lib-1.0.jar (authorized)")),
                repository.requests().toString());
        String diff = renamed.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+import com.acme.priv.Renamed;"), renamed.toString());
    }

    @Test
    void aPropertyFromTheGradleUserHomeAndAnEnvironmentVariableReachTheRepositoryAndTheirAbsenceIsNamed()
            throws Exception {
        try (RepositoryServer repository = privateRepository()) {
            Path root = build("build.gradle", groovyScript(repository, FROM_PROPERTY_AND_ENV), "");

            List<JsonNode> without = serveInProcess(
                    List.of(parseRequest(root), renameRequest()),
                    Map.of("GRADLE_USER_HOME", gradleUserHome.toString()));
            String first = firstWarning(without.get(0));
            String url = repository.url().replaceAll("/$", "");
            assertTrue(
                    first.startsWith("repository `" + url + "` (" + url + ") refused access (HTTP 401) to "
                            + "com.acme.private:lib:1.0"),
                    without.get(0).path("warnings").toString());
            assertTrue(
                    first.contains("Gradle property `repoUser`")
                            && first.contains("ORG_GRADLE_PROJECT_repoUser")
                            && first.contains("environment variable `REPO_PASSWORD`")
                            && first.contains("the action input `env` (CLI: `--pass-env`)"),
                    first);
            assertFalse(without.get(1).path("runs").get(0).path("diff").asText().contains("Renamed"));

            Files.writeString(gradleUserHome.resolve("gradle.properties"), "repoUser=" + USER + "\n");
            List<JsonNode> with = serveInProcess(
                    List.of(parseRequest(root), renameRequest()),
                    Map.of("GRADLE_USER_HOME", gradleUserHome.toString(), "REPO_PASSWORD", PASSWORD));
            assertFetchedAndAttributed(with.get(0), with.get(1), repository);
            assertFalse(with.toString().contains(PASSWORD), "a credential in the results");
            assertFalse(without.toString().contains(PASSWORD), "a credential in the results");
        }
    }

    @Test
    void anOrgGradleProjectVariableOverridesTheBuildsGradleProperties() throws Exception {
        try (RepositoryServer repository = privateRepository()) {
            Path root =
                    build("build.gradle", groovyScript(repository, FROM_PROPERTY_AND_ENV), "repoUser=somebody-else\n");
            List<JsonNode> results = serveInProcess(
                    List.of(parseRequest(root), renameRequest()),
                    Map.of(
                            "GRADLE_USER_HOME", gradleUserHome.toString(),
                            "ORG_GRADLE_PROJECT_repoUser", USER,
                            "REPO_PASSWORD", PASSWORD));
            assertFetchedAndAttributed(results.get(0), results.get(1), repository);
        }
    }

    @Test
    void refusedGradleCredentialsAreNamedAsRefused() throws Exception {
        try (RepositoryServer repository = privateRepository()) {
            String first = firstWarningOfGroovyBuild(
                    repository,
                    "        credentials {\n            username 'deployer'\n"
                            + "            password findProperty('repoPassword')\n        }\n",
                    "repoPassword=wrong-" + PASSWORD + "\n");
            assertTrue(
                    first.contains("refused access (HTTP 401)")
                            && first.contains("refused the credentials its build script gives"),
                    first);
            assertFalse(first.contains(PASSWORD), "a credential in the warning");
        }
    }

    @Test
    void kotlinDslCredentialsFromTheBuildsGradleProperties() throws Exception {
        try (RepositoryServer repository = privateRepository()) {
            String script = "plugins {\n    java\n}\nrepositories {\n    maven {\n        url = uri(\""
                    + repository.url() + "\")\n        credentials {\n"
                    + "            username = providers.gradleProperty(\"repoUser\").get()\n"
                    + "            password = project.findProperty(\"repoPassword\") as String? ?: "
                    + "System.getenv(\"REPO_PASSWORD\")\n"
                    + "        }\n    }\n}\ndependencies {\n    implementation(\"com.acme.private:lib:1.0\")\n}\n";
            Path root = build("build.gradle.kts", script, "repoUser=" + USER + "\nrepoPassword=" + PASSWORD + "\n");
            JsonNode parsed = fixture.send(parseRequest(root));
            assertFetchedAndAttributed(parsed, fixture.send(renameRequest()), repository);
        }
    }

    @Test
    void passwordCredentialsTakeTheRepositoryNamesProperties() throws Exception {
        try (RepositoryServer repository = privateRepository()) {
            String script =
                    groovyScript(repository, "        name = 'acme'\n        credentials(PasswordCredentials)\n");
            // Without the properties first: with them, the jar is in the local repository afterwards.
            Path without = build("build.gradle", script, "");
            JsonNode refused = fixture.send(parseRequest(without));
            String first = firstWarning(refused);
            assertTrue(
                    first.startsWith("repository `acme` (") && first.contains("Gradle property `acmeUsername`"),
                    refused.path("warnings").toString());

            Path root = build("build.gradle", script, "acmeUsername=" + USER + "\nacmePassword=" + PASSWORD + "\n");
            JsonNode parsed = fixture.send(parseRequest(root));
            assertFetchedAndAttributed(parsed, fixture.send(renameRequest()), repository);
        }
    }

    @Test
    void anExpressionTheRunnerDoesNotEvaluateIsNamedAsSuch() throws Exception {
        try (RepositoryServer repository = privateRepository()) {
            String first = firstWarningOfGroovyBuild(
                    repository,
                    "        credentials {\n            username = 'deployer'\n"
                            + "            password = file('secret.txt').text\n        }\n",
                    "");
            assertTrue(first.contains("file('secret.txt').text") && first.contains("not evaluated"), first);
        }
    }
}
