package rewriteassist.runner.gradle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.gradle.GradleParser;
import org.openrewrite.java.tree.JavaSourceFile;
import rewriteassist.runner.gradle.GradleCredentials.Source;
import rewriteassist.runner.gradle.GradleScript.Repository;

/** The credentials of {@code maven { }} blocks, read from Groovy and Kotlin scripts' trees as written. */
class GradleRepositoryReaderTest {
    private static Repository repository(String path, String repositories) {
        JavaSourceFile tree = (JavaSourceFile) GradleParser.builder()
                .build()
                .parseInputs(
                        List.of(Parser.Input.fromString(Path.of(path), "repositories {\n" + repositories + "}\n")),
                        null,
                        new InMemoryExecutionContext())
                .findFirst()
                .orElseThrow();
        return GradleScript.read(tree, GradleCatalog.empty()).repositories().get(0);
    }

    private static GradleCredentials credentials(String path, String repositories) {
        return repository(path, repositories).credentials().orElseThrow();
    }

    @Test
    void groovyFormsAreReadAsWhereTheValueComesFrom() {
        GradleCredentials read = credentials(
                "build.gradle",
                "maven {\n url 'https://repo.example/m2'\n credentials {\n"
                        + "  username project.findProperty('user') ?: System.getenv('REPO_USER')\n"
                        + "  password = providers.gradleProperty('pass').orNull\n }\n}\n");
        assertEquals(
                new GradleCredentials(
                        new Source.Either(new Source.Property("user"), new Source.Environment("REPO_USER")),
                        new Source.Property("pass")),
                read);
        assertEquals(
                new GradleCredentials(new Source.Literal("u"), new Source.Property("p")),
                credentials(
                        "build.gradle",
                        "maven {\n url 'https://repo.example/m2'\n credentials {\n username 'u'\n"
                                + "  password property('p')\n }\n}\n"));
    }

    @Test
    void kotlinFormsAreReadAsWhereTheValueComesFrom() {
        GradleCredentials read = credentials(
                "build.gradle.kts",
                "maven {\n url = uri(\"https://repo.example/m2\")\n credentials {\n"
                        + "  username = providers.environmentVariable(\"REPO_USER\").get()\n"
                        + "  password = findProperty(\"pass\") as String? ?: System.getenv(\"REPO_PASSWORD\")\n"
                        + " }\n}\n");
        assertEquals(
                new GradleCredentials(
                        new Source.Environment("REPO_USER"),
                        new Source.Either(new Source.Property("pass"), new Source.Environment("REPO_PASSWORD"))),
                read);
    }

    @Test
    void passwordCredentialsTakeTheNamesPropertiesAndAnythingElseIsUnread() {
        Repository named = repository(
                "build.gradle.kts",
                "maven {\n name = \"acme\"\n url = uri(\"https://repo.example/m2\")\n"
                        + " credentials(PasswordCredentials::class)\n}\n");
        assertEquals("acme", named.name());
        assertEquals(Optional.of(GradleCredentials.ofRepositoryNamed("acme")), named.credentials());
        assertEquals(
                new GradleCredentials(new Source.Literal("u"), new Source.Unread("secrets.get(\"p\")")),
                credentials(
                        "build.gradle",
                        "maven {\n url 'https://repo.example/m2'\n credentials {\n username = 'u'\n"
                                + "  password = secrets.get(\"p\")\n }\n}\n"));
        assertEquals(
                Optional.empty(),
                repository("build.gradle", "maven { url 'https://repo.example/m2' }\n")
                        .credentials());
    }

    /** What is not read is named in a warning: as written, but never with a literal that may be a secret. */
    @Test
    void anUnreadExpressionIsShownWithoutItsLiterals() {
        assertEquals(
                new GradleCredentials(new Source.Literal("u"), new Source.Unread("\"…\" + System.getenv(\"X\")")),
                credentials(
                        "build.gradle.kts",
                        "maven {\n url = uri(\"https://repo.example/m2\")\n credentials {\n username = \"u\"\n"
                                + "  password = \"s3cret\" + System.getenv(\"X\")\n }\n}\n"));
        Source header = new Source.Unread("credentials(HttpHeaderCredentials)");
        assertEquals(
                new GradleCredentials(header, header),
                credentials(
                        "build.gradle",
                        "maven {\n url 'https://repo.example/m2'\n credentials(HttpHeaderCredentials) {\n"
                                + "  name = 'Private-Token'\n  value = 's3cret'\n }\n}\n"));
    }
}
