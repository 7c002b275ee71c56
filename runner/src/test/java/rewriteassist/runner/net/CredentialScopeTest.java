package rewriteassist.runner.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.ipc.http.HttpSender;
import org.openrewrite.ipc.http.HttpUrlConnectionSender;
import org.openrewrite.maven.MavenSettings;
import rewriteassist.runner.Fixture;
import rewriteassist.runner.RepositoryServer;

/**
 * A server's credentials go only where the user's settings (or the user, by name) send them, and
 * only once the host asks: a POM that declares a repository under the server's id at a host of its
 * own gets none, and a warning names it.
 */
class CredentialScopeTest {
    private static final String USER = "deployer";
    private static final String PASSWORD = "s3cret-" + Long.toHexString(System.nanoTime());
    private static final String BASIC =
            "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));

    @RegisterExtension
    final Fixture fixture = Fixture.in("work");

    private Path localRepository;

    @BeforeEach
    void fixture() throws Exception {
        Files.createDirectories(fixture.dir());
        localRepository = fixture.root().resolve("repository");
        Files.createDirectories(localRepository);
    }

    private static MavenSettings settings(String body) {
        String xml = "<settings>" + body + "<servers><server><id>company</id><username>" + USER
                + "</username><password>" + PASSWORD + "</password>"
                + "<configuration><httpHeaders><property><name>Private-Token</name><value>tok-" + PASSWORD
                + "</value></property></httpHeaders></configuration></server></servers></settings>";
        return MavenSettings.parse(
                new Parser.Input(
                        Path.of("settings.xml"), () -> new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))),
                new InMemoryExecutionContext());
    }

    private static HttpSender.Request get(String url, Map<String, String> headers) {
        HttpSender.Request.Builder builder = new HttpUrlConnectionSender().get(url);
        headers.forEach(builder::withHeader);
        return builder.build();
    }

    @Test
    void credentialsGoToTheUrlsTheSettingsNameForTheirIdAndNowhereElse() {
        CredentialScope scope = CredentialScope.of(
                settings("<mirrors><mirror><id>company</id><url>http://nexus.acme.example/repository/all</url>"
                        + "<mirrorOf>*</mirrorOf></mirror></mirrors>"),
                Map.of());
        Map<String, String> both = Map.of("Authorization", BASIC, "Private-Token", "tok-" + PASSWORD, "Accept", "*/*");

        // The mirror, over https too (rewrite-maven tries https first), under its path.
        CredentialScope.Admitted mirror = scope.admit(get("https://nexus.acme.example/repository/all/a/b/c.pom", both));
        assertEquals(Map.of("Accept", "*/*"), mirror.anonymous().getRequestHeaders());
        assertEquals(both, mirror.withCredentials().getRequestHeaders());

        // Another host, another port, another path of the same host: nothing.
        for (String url : List.of(
                "http://attacker.example/repository/all/a.pom",
                "http://nexus.acme.example:8081/repository/all/a.pom",
                "http://nexus.acme.example/repository/allx/a.pom",
                "http://nexus.acme.example/other/a.pom")) {
            CredentialScope.Admitted elsewhere = scope.admit(get(url, both));
            assertNull(elsewhere.withCredentials(), url);
            assertEquals(Map.of("Accept", "*/*"), elsewhere.anonymous().getRequestHeaders(), url);
        }
        String warnings = String.join("\n", scope.warnings());
        assertTrue(
                warnings.contains("the credentials of the <server> `company` of the Maven settings were not sent to "
                                + "attacker.example, a repository the settings do not name for that id")
                        && warnings.contains("(they name http://nexus.acme.example/repository/all)")
                        && warnings.contains("`--credential-url company=URL`"),
                warnings);
        assertFalse(warnings.contains(PASSWORD), warnings);
        assertTrue(scope.withheldFrom("company", "http://attacker.example/repository/all/"));
        assertFalse(scope.withheldFrom("company", "https://nexus.acme.example/repository/all/"));
    }

    @Test
    void anAuthorizationOfUnknownOriginIsTakenOffAndTheUserMayAllowMore() {
        CredentialScope scope =
                CredentialScope.of(settings(""), Map.of("company", List.of("https://repo.acme.example/maven/")));
        CredentialScope.Admitted allowed =
                scope.admit(get("http://repo.acme.example/maven/x.jar", Map.of("Authorization", BASIC)));
        assertEquals(BASIC, allowed.withCredentials().getRequestHeaders().get("Authorization"));
        CredentialScope.Admitted unknown =
                scope.admit(get("http://repo.acme.example/maven/x.jar", Map.of("Authorization", "Bearer stolen")));
        assertNull(unknown.withCredentials());
        assertTrue(unknown.anonymous().getRequestHeaders().isEmpty());
        // A Gradle repository's credentials go to that repository alone.
        scope.allowGradleRepository("acme", "https://gradle.acme.example/releases", "u", "p");
        String gradle = "Basic " + Base64.getEncoder().encodeToString("u:p".getBytes(StandardCharsets.UTF_8));
        assertTrue(scope.admit(get("https://gradle.acme.example/releases/a.pom", Map.of("Authorization", gradle)))
                        .withCredentials()
                != null);
        assertNull(scope.admit(get("https://repo.acme.example/maven/a.pom", Map.of("Authorization", gradle)))
                .withCredentials());
    }

    /** A private repository serving {@code com.acme.private:<artifact>:1.0}, with credentials only. */
    private static RepositoryServer privateRepository(String artifact) throws Exception {
        String base = "/com/acme/private/" + artifact + "/1.0/" + artifact + "-1.0";
        ByteArrayOutputStream jar = new ByteArrayOutputStream();
        try (JarOutputStream out = new JarOutputStream(jar, new Manifest())) {
            out.flush();
        }
        return new RepositoryServer()
                .serve(
                        base + ".pom",
                        "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme.private</groupId>"
                                + "<artifactId>" + artifact + "</artifactId><version>1.0</version></project>\n")
                .serve(base + ".jar", jar.toByteArray())
                .serve(
                        base + ".jar.sha1",
                        java.util.HexFormat.of()
                                        .formatHex(java.security.MessageDigest.getInstance("SHA-1")
                                                .digest(jar.toByteArray()))
                                + "\n")
                .requireCredentials(USER, PASSWORD);
    }

    /**
     * The user's settings mirror Maven Central at {@code company} and hold the credentials of two
     * servers, {@code company} and {@code releases} (a common id, named nowhere else in the
     * settings); the PR's POM declares a repository {@code releases} at the attacker's host and
     * depends on an artifact from each.
     */
    private ObjectNode pomReusingTheId(RepositoryServer company, RepositoryServer attacker) throws Exception {
        String pom = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n"
                + "  <groupId>com.acme</groupId><artifactId>app</artifactId><version>1.0</version>\n"
                + "  <repositories><repository><id>releases</id><url>" + attacker.url() + "</url></repository>"
                + "</repositories>\n  <dependencies>\n"
                + "    <dependency><groupId>com.acme.private</groupId><artifactId>legit</artifactId>"
                + "<version>1.0</version></dependency>\n"
                + "    <dependency><groupId>com.acme.private</groupId><artifactId>bait</artifactId>"
                + "<version>1.0</version></dependency>\n  </dependencies>\n</project>\n";
        Path root = fixture.repo("pom.xml", pom, "src/main/java/App.java", "class App {}\n");
        Path settings = fixture.root().resolve("settings.xml");
        Files.writeString(
                settings,
                "<settings><mirrors><mirror><id>company</id><url>" + company.url()
                        + "</url><mirrorOf>central</mirrorOf></mirror></mirrors><servers>"
                        + "<server><id>company</id><username>" + USER + "</username><password>" + PASSWORD
                        + "</password></server><server><id>releases</id><username>" + USER + "</username>"
                        + "<password>" + PASSWORD + "</password></server></servers></settings>\n");
        ObjectNode request = fixture.parseRequest(root, localRepository, false);
        request.put("maven_settings", settings.toString());
        return request;
    }

    @Test
    void aPomThatReusesTheServerIdAtAnotherHostGetsNoCredentialsAndTheMirrorGetsThemOnlyWhenAsked() throws Exception {
        try (RepositoryServer company = privateRepository("legit");
                RepositoryServer attacker = privateRepository("bait")) {
            JsonNode results = fixture.send(pomReusingTheId(company, attacker));
            assertTrue(results.path("ok").asBoolean(), results.toString());

            assertFalse(
                    attacker.wasSentCredentials(), attacker.credentialsSeen().toString());
            assertFalse(attacker.credentialsSeen().isEmpty(), "the attacker's repository was never asked");
            List<String> seen = company.credentialsSeen();
            assertTrue(seen.get(0).endsWith("Authorization: -"), "credentials before the host asked: " + seen);
            assertTrue(seen.stream().anyMatch(r -> r.endsWith("Authorization: " + BASIC)), seen.toString());

            String warnings = results.path("warnings").toString();
            String host = attacker.url().replaceAll("/$", "");
            assertTrue(
                    warnings.contains(
                                    "the credentials of the <server> `company`, `releases` of the Maven settings were "
                                            + "not sent to " + host.replace("http://", ""))
                            && warnings.contains("`--credential-url releases=URL`"),
                    warnings);
            assertTrue(
                    warnings.contains("repository `releases` (" + host + ") refused access (HTTP 401)")
                            && warnings.contains("go only to the URLs the Maven settings name for that id"),
                    warnings);
            assertFalse(results.toString().contains(PASSWORD), "a credential in the results");
        }
    }

    @Test
    void aUrlTheUserAllowsGetsTheCredentialsOnceItAsks() throws Exception {
        try (RepositoryServer company = privateRepository("legit");
                RepositoryServer attacker = privateRepository("bait")) {
            ObjectNode request = pomReusingTheId(company, attacker);
            request.putObject("credential_urls").putArray("releases").add(attacker.url());
            JsonNode results = fixture.send(request);
            assertTrue(attacker.wasSentCredentials(), attacker.credentialsSeen().toString());
            assertTrue(
                    attacker.credentialsSeen().get(0).endsWith("Authorization: -"),
                    attacker.credentialsSeen().toString());
            assertFalse(results.path("warnings").toString().contains("were not sent to"), results.toString());
        }
    }
}
