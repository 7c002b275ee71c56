package rewriteassist.runner.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rewriteassist.runner.Fixture.changeType;
import static rewriteassist.runner.Fixture.recipe;
import static rewriteassist.runner.Fixture.testResource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;
import rewriteassist.runner.common.Jackson;
import rewriteassist.runner.common.Log;

/**
 * A run request's {@code measure} on small repositories: the residual uses of an old library
 * before and after the whole recipe, and the compile check of the Java files it changed, with
 * OpenRewrite's real recipes (the jars come from Maven Central into the local repository).
 */
class MeasureTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    /** The JUnit 4 project's files, in {@code src/test/resources/measure/junit4/}. */
    private static final String JUNIT4_POM = testResource("measure/junit4/pom.xml");

    private static final String CART = testResource("measure/junit4/src/main/java/com/acme/Cart.java");

    private static final String CART_TEST = testResource("measure/junit4/src/test/java/com/acme/CartTest.java");

    /** The test class with only what a type change moves: no {@code Assert}. */
    private static final String CART_TEST_WITHOUT_ASSERT =
            CART_TEST.replace("Assert.assertEquals(1, cart.size());", "").replace("import org.junit.Assert;\n", "");

    /** junit:junit's coordinates made Jupiter's API's (the version as it was, unless added). */
    private static final String TO_JUPITER_API = "org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId:\n"
            + "  oldGroupId: junit\n  oldArtifactId: junit\n"
            + "  newGroupId: org.junit.jupiter\n  newArtifactId: junit-jupiter-api";

    /** The whole run of JUnit 4's {@code @Test} made Jupiter's, with {@code poms}' steps. */
    private JsonNode movedToJupiter(ObjectNode measure, String... poms) throws Exception {
        String[] steps = new String[poms.length + 1];
        steps[0] = changeType("org.junit.Test", "org.junit.jupiter.api.Test");
        System.arraycopy(poms, 0, steps, 1, poms.length);
        return whole(recipe("test.Move", steps), "test.Move", measure);
    }

    /** The one changed file checked, and no symbol it broke. */
    private static void assertNothingNewUnresolved(JsonNode run) {
        JsonNode unresolved = run.path("unresolved");
        assertEquals(1, unresolved.path("checked_files").asInt(), run.toString());
        assertEquals(0, unresolved.path("samples").size(), run.toString());
        assertTrue(unresolved.path("after").asInt() <= unresolved.path("before").asInt(), run.toString());
    }

    private Path junit4Project() throws Exception {
        return fixture.repo(
                "pom.xml", JUNIT4_POM,
                "src/main/java/com/acme/Cart.java", CART,
                "src/test/java/com/acme/CartTest.java", CART_TEST);
    }

    /** JUnit 4 as the old library: its package (not Jupiter's, below it) and its artifact. */
    private static ObjectNode junit4Residual(ObjectNode measure) {
        ObjectNode residual = measure.putObject("residual");
        residual.putArray("packages").add("org.junit");
        residual.putArray("new_packages").add("org.junit.jupiter");
        residual.putArray("dependencies").add("junit:junit");
        return measure;
    }

    /** The whole run of {@code recipe} (a recipe file's name) with {@code measure}. */
    private JsonNode whole(String yaml, String recipe, ObjectNode measure) throws Exception {
        ObjectNode request = fixture.runRequest(yaml, recipe, false);
        request.set("measure", measure);
        JsonNode results = fixture.send(request);
        assertEquals(true, results.path("ok").asBoolean(), results.toString());
        JsonNode runs = results.path("runs");
        JsonNode whole = runs.get(runs.size() - 1);
        assertTrue(whole.path("step").isNull(), results.toString());
        return whole;
    }

    @Test
    void theJUnit5MigrationLeavesNothingOfJUnit4WhileAChangeTypeLeavesSome() throws Exception {
        fixture.parse(junit4Project());
        ObjectNode measure = junit4Residual(Jackson.MAPPER.createObjectNode());

        JsonNode migrated = whole(
                recipe("test.Migrate", "org.openrewrite.java.testing.junit5.JUnit4to5Migration"),
                "test.Migrate",
                measure);
        assertEquals(null, migrated.path("error").textValue(), migrated.toString());
        JsonNode residual = migrated.path("residual");
        // Assert and Test in the test class, junit:junit in the POM.
        assertEquals(3, residual.path("before").asInt(), residual.toString());
        assertEquals(0, residual.path("after").asInt(), migrated.toString());
        assertEquals(0, residual.path("files_after").asInt(), residual.toString());
        assertEquals(0, residual.path("samples").size(), residual.toString());
        assertTrue(migrated.path("unresolved").isMissingNode(), "no compile check asked: " + migrated);

        JsonNode changed = whole(
                recipe("test.Change", changeType("org.junit.Test", "org.junit.jupiter.api.Test")),
                "test.Change",
                measure);
        residual = changed.path("residual");
        assertEquals(3, residual.path("before").asInt(), residual.toString());
        // Assert is left, and so is the dependency.
        assertEquals(2, residual.path("after").asInt(), residual.toString());
        assertEquals(2, residual.path("files_after").asInt(), residual.toString());
        List<String> samples = texts(residual.path("samples"));
        assertEquals(
                List.of("src/test/java/com/acme/CartTest.java:3: import org.junit.Assert;", "pom.xml:8: <dependency>"),
                samples,
                residual.toString());
    }

    @Test
    void aTypeWhoseLibraryIsNotAddedDoesNotResolveAndOneAddedDoes() throws Exception {
        fixture.parse(junit4Project());
        ObjectNode measure = Jackson.MAPPER.createObjectNode().put("compile_check", true);

        long started = System.nanoTime();
        JsonNode changed = whole(
                recipe("test.Change", changeType("org.junit.Test", "org.junit.jupiter.api.Test")),
                "test.Change",
                measure);
        JsonNode unresolved = changed.path("unresolved");
        assertEquals(1, unresolved.path("checked_files").asInt(), changed.toString());
        assertEquals(0, unresolved.path("before").asInt(), changed.toString());
        assertTrue(unresolved.path("after").asInt() > unresolved.path("before").asInt(), changed.toString());
        assertEquals(
                "src/test/java/com/acme/CartTest.java:7: org.junit.jupiter.api.Test",
                unresolved.path("samples").get(0).asText(),
                changed.toString());
        assertTrue(changed.path("residual").isMissingNode(), "no residual asked: " + changed);
        Log.log("compile check test: ChangeType request in " + Log.seconds(started) + " s");

        started = System.nanoTime();
        JsonNode added = whole(
                recipe(
                        "test.ChangeAndAdd",
                        changeType("org.junit.Test", "org.junit.jupiter.api.Test"),
                        "org.openrewrite.maven.AddDependency:\n  groupId: org.junit.jupiter\n"
                                + "  artifactId: junit-jupiter-api\n  version: 5.10.2\n  scope: test"),
                "test.ChangeAndAdd",
                measure);
        assertTrue(added.path("files").toString().contains("pom.xml"), added.toString());
        unresolved = added.path("unresolved");
        assertEquals(1, unresolved.path("checked_files").asInt(), added.toString());
        assertTrue(unresolved.path("after").asInt() <= unresolved.path("before").asInt(), added.toString());
        assertEquals(0, unresolved.path("samples").size(), added.toString());
        Log.log("compile check test: ChangeType + AddDependency request in " + Log.seconds(started) + " s");
    }

    @Test
    void aModuleSeesTheVersionItsParentChangedInTheSameRun() throws Exception {
        String parent =
                """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.acme</groupId>
                  <artifactId>parent</artifactId>
                  <version>1.0</version>
                  <packaging>pom</packaging>
                  <modules><module>core</module></modules>
                  <properties>
                    <maven.compiler.release>17</maven.compiler.release>
                    <test.version>4.13.2</test.version>
                  </properties>
                </project>
                """;
        String core =
                """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent><groupId>com.acme</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
                  <artifactId>core</artifactId>
                  <dependencies>
                    <dependency>
                      <groupId>junit</groupId>
                      <artifactId>junit</artifactId>
                      <version>${test.version}</version>
                      <scope>test</scope>
                    </dependency>
                  </dependencies>
                </project>
                """;
        fixture.parse(fixture.repo(
                "pom.xml", parent,
                "core/pom.xml", core,
                "core/src/main/java/com/acme/Cart.java", CART,
                "core/src/test/java/com/acme/CartTest.java", CART_TEST_WITHOUT_ASSERT));
        ObjectNode measure = Jackson.MAPPER.createObjectNode().put("compile_check", true);

        // The module's dependency moves to Jupiter; its version, in the parent, moves with it.
        JsonNode moved = movedToJupiter(
                measure,
                TO_JUPITER_API,
                "org.openrewrite.maven.ChangePropertyValue:\n  key: test.version\n  newValue: 5.10.2");
        assertTrue(moved.path("files").toString().contains("core/pom.xml"), moved.toString());
        assertTrue(moved.path("files").toString().contains("\"pom.xml"), moved.toString());
        assertNothingNewUnresolved(moved);
    }

    @Test
    void aDependencyThatCannotBeDownloadedStaysLeftOutAfterTheRecipe() throws Exception {
        // The parse resolved the POM without the artifact that exists nowhere; the POM as the
        // recipe left it still names it, and must resolve without it too, or every type of the
        // new library would count as broken.
        String pom = JUNIT4_POM.replace(
                "<dependencies>",
                """
                <dependencies>
                    <dependency>
                      <groupId>invalid.rewriteassist.example</groupId>
                      <artifactId>no-such-artifact</artifactId>
                      <version>1</version>
                    </dependency>""");
        fixture.parse(fixture.repo(
                "pom.xml", pom,
                "src/main/java/com/acme/Cart.java", CART,
                "src/test/java/com/acme/CartTest.java", CART_TEST_WITHOUT_ASSERT));
        ObjectNode measure = Jackson.MAPPER.createObjectNode().put("compile_check", true);

        JsonNode moved = movedToJupiter(measure, TO_JUPITER_API + "\n  newVersion: 5.10.2");
        assertTrue(moved.path("files").toString().contains("pom.xml"), moved.toString());
        assertNothingNewUnresolved(moved);
    }

    @Test
    void theSameTextsAreCheckedOnce() throws Exception {
        fixture.parse(junit4Project());
        ObjectNode measure = Jackson.MAPPER.createObjectNode().put("compile_check", true);
        String change = changeType("org.junit.Test", "org.junit.jupiter.api.Test");

        JsonNode first = whole(recipe("test.Change", change), "test.Change", measure);
        long parses = EarlierChecks.made();
        // Another request, the same changes: the same counts, and no parse.
        JsonNode again = whole(recipe("test.Again", change), "test.Again", measure);
        assertEquals(first.path("unresolved"), again.path("unresolved"), again.toString());
        assertEquals(parses, EarlierChecks.made(), "the same texts were parsed again");
        // Another change of the same file: the text before is the same, only the text after is new.
        JsonNode other = whole(
                recipe("test.Other", changeType("org.junit.Test", "org.junit.jupiter.api.RepeatedTest")),
                "test.Other",
                measure);
        assertEquals(1, other.path("unresolved").path("checked_files").asInt(), other.toString());
        assertEquals(parses + 1, EarlierChecks.made(), other.toString());
    }

    @Test
    void aGradleRecipeThatAddsTheLibraryUpdatesTheClasspathTheCheckUses() throws Exception {
        fixture.parse(fixture.repo(
                "settings.gradle",
                "rootProject.name = 'shop'\n",
                "build.gradle",
                """
                plugins {
                    id 'java'
                }
                repositories {
                    mavenCentral()
                }
                dependencies {
                    testImplementation 'junit:junit:4.13.2'
                }
                """,
                "src/main/java/com/acme/Cart.java",
                CART,
                "src/test/java/com/acme/CartTest.java",
                CART_TEST));
        ObjectNode measure = junit4Residual(Jackson.MAPPER.createObjectNode()).put("compile_check", true);
        String change = changeType("org.junit.Test", "org.junit.jupiter.api.Test");

        JsonNode changed = whole(recipe("test.Change", change), "test.Change", measure);
        assertEquals(0, changed.path("unresolved").path("before").asInt(), changed.toString());
        assertTrue(changed.path("unresolved").path("after").asInt() > 0, changed.toString());
        // Assert and Test, and the script's line naming junit:junit; Assert and that line after.
        assertEquals(3, changed.path("residual").path("before").asInt(), changed.toString());
        assertEquals(
                List.of(
                        "src/test/java/com/acme/CartTest.java:3: import org.junit.Assert;",
                        "build.gradle:8: testImplementation 'junit:junit:4.13.2'"),
                texts(changed.path("residual").path("samples")),
                changed.toString());

        JsonNode added = whole(
                recipe(
                        "test.ChangeAndAdd",
                        change,
                        "org.openrewrite.gradle.AddDependency:\n  groupId: org.junit.jupiter\n"
                                + "  artifactId: junit-jupiter-api\n  version: 5.10.2\n"
                                + "  configuration: testImplementation"),
                "test.ChangeAndAdd",
                measure);
        assertTrue(added.path("files").toString().contains("build.gradle"), added.toString());
        assertEquals(0, added.path("unresolved").path("after").asInt(), added.toString());
    }

    @Test
    void configKeysDependenciesAndTheJavaVersionCountBeforeAndAfter() throws Exception {
        String pom =
                """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.acme</groupId>
                  <artifactId>shop</artifactId>
                  <version>1.0</version>
                  <properties>
                    <maven.compiler.source>1.8</maven.compiler.source>
                    <maven.compiler.target>1.8</maven.compiler.target>
                  </properties>
                  <dependencies>
                    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
                  </dependencies>
                  <build>
                    <pluginManagement>
                      <plugins>
                        <plugin><artifactId>maven-antrun-plugin</artifactId><version>3.1.0</version></plugin>
                      </plugins>
                    </pluginManagement>
                    <plugins>
                      <plugin>
                        <artifactId>maven-compiler-plugin</artifactId>
                        <version>3.13.0</version>
                        <configuration>
                          <source>8</source>
                          <target>${maven.compiler.target}</target>
                        </configuration>
                      </plugin>
                    </plugins>
                  </build>
                </project>
                """;
        String yaml =
                """
                spring:
                  jpa:
                    hibernate:
                      ddl-auto: update
                management:
                  add-application-context-header: true
                ---
                spring.jpa.hibernate.ddl-auto: none
                """;
        fixture.parse(fixture.repo(
                "pom.xml",
                pom,
                "src/main/resources/application.properties",
                "server.port=8080\nmanagement.add-application-context-header=true\n",
                "src/main/resources/application.yml",
                yaml));
        ObjectNode measure = Jackson.MAPPER.createObjectNode();
        ObjectNode residual = measure.putObject("residual");
        residual.putArray("dependencies").add("junit:junit");
        residual.putArray("plugins").add("org.apache.maven.plugins:maven-antrun-plugin");
        residual.putArray("config_keys")
                .add("management.add-application-context-header")
                .add("spring.jpa.hibernate.ddl-auto");
        residual.put("java_version", 8);

        JsonNode run = whole(
                recipe(
                        "test.Small",
                        "org.openrewrite.properties.ChangePropertyKey:\n"
                                + "  oldPropertyKey: management.add-application-context-header\n"
                                + "  newPropertyKey: management.server.add-application-context-header",
                        "org.openrewrite.yaml.ChangePropertyKey:\n"
                                + "  oldPropertyKey: management.add-application-context-header\n"
                                + "  newPropertyKey: management.server.add-application-context-header",
                        "org.openrewrite.maven.ChangePropertyValue:\n  key: maven.compiler.source\n  newValue: 17",
                        "org.openrewrite.maven.RemoveDependency:\n  groupId: junit\n  artifactId: junit"),
                "test.Small",
                measure);
        JsonNode counts = run.path("residual");
        // POM: junit, antrun, source and target 1.8, the compiler's source 8; properties: 1; YAML: 3.
        assertEquals(9, counts.path("before").asInt(), run.toString());
        // POM: antrun, target 1.8, the compiler's source 8; YAML: ddl-auto in both documents.
        assertEquals(5, counts.path("after").asInt(), run.toString());
        assertEquals(2, counts.path("files_after").asInt(), counts.toString());
        assertEquals(0, counts.path("out_of_reach").asInt(), counts.toString());
        // Lines of the trees after: the POM lost its three lines of dependencies.
        assertEquals(
                List.of(
                        "pom.xml:8: <maven.compiler.target>1.8</maven.compiler.target>",
                        "pom.xml:13: <plugin><artifactId>maven-antrun-plugin</artifactId><version>3.1.0</version></plugin>",
                        "pom.xml:21: <source>8</source>",
                        "src/main/resources/application.yml:4: ddl-auto: update",
                        "src/main/resources/application.yml:8: spring.jpa.hibernate.ddl-auto: none"),
                texts(counts.path("samples")),
                counts.toString());
    }

    /**
     * A module whose parent exists only where we cannot reach it does not resolve, and Maven
     * recipes skip its POM: what it keeps of the old library is left, and said to be out of reach.
     */
    @Test
    void whatAPomThatCannotResolveKeepsIsOutOfReach() throws Exception {
        String unreachable = JUNIT4_POM.replace(
                "<groupId>com.acme</groupId>\n  <artifactId>shop</artifactId>",
                """
                <parent>
                    <groupId>invalid.rewriteassist.example</groupId>
                    <artifactId>no-such-parent</artifactId>
                    <version>1</version>
                  </parent>
                  <groupId>com.acme</groupId>
                  <artifactId>legacy</artifactId>""");
        assertTrue(unreachable.contains("no-such-parent"), unreachable);
        fixture.parse(fixture.repo("pom.xml", JUNIT4_POM, "legacy/pom.xml", unreachable));
        ObjectNode measure = Jackson.MAPPER.createObjectNode();
        measure.putObject("residual").putArray("dependencies").add("junit:junit");

        JsonNode run = whole(
                recipe("test.Remove", "org.openrewrite.maven.RemoveDependency:\n  groupId: junit\n  artifactId: junit"),
                "test.Remove",
                measure);
        JsonNode counts = run.path("residual");
        assertEquals(2, counts.path("before").asInt(), run.toString());
        assertEquals(1, counts.path("after").asInt(), run.toString());
        assertEquals(1, counts.path("out_of_reach").asInt(), run.toString());
        assertEquals(List.of("legacy/pom.xml:13: <dependency>"), texts(counts.path("samples")), counts.toString());
    }

    /**
     * After ChangePackage, an annotation with arguments keeps its old type in the tree while its
     * import names the new one: the text decides, and nothing of javax is left.
     */
    @Test
    void whatTheTextNoLongerNamesIsNotLeftThoughATypeLagsBehind() throws Exception {
        String pom = JUNIT4_POM.replace(
                "<groupId>junit</groupId>\n      <artifactId>junit</artifactId>\n      <version>4.13.2</version>",
                "<groupId>javax.persistence</groupId>\n      <artifactId>javax.persistence-api</artifactId>\n"
                        + "      <version>2.2</version>");
        String entity =
                """
                package com.acme;

                import javax.persistence.Column;
                import javax.persistence.Entity;
                import javax.persistence.Id;
                import javax.persistence.Table;

                @Entity
                @Table(name = "customers")
                public class Customer {
                    @Id
                    private Long id;

                    @Column(nullable = false)
                    private String name;
                }
                """;
        fixture.parse(fixture.repo("pom.xml", pom, "src/main/java/com/acme/Customer.java", entity));
        ObjectNode measure = Jackson.MAPPER.createObjectNode();
        ObjectNode residual = measure.putObject("residual");
        residual.putArray("packages").add("javax.persistence");
        residual.putArray("new_packages").add("jakarta.persistence");
        JsonNode moved = whole(
                recipe(
                        "test.Jakarta",
                        "org.openrewrite.java.ChangePackage:\n  oldPackageName: javax.persistence\n"
                                + "  newPackageName: jakarta.persistence"),
                "test.Jakarta",
                measure);
        assertEquals(4, moved.path("residual").path("before").asInt(), moved.toString());
        assertEquals(0, moved.path("residual").path("after").asInt(), moved.toString());
    }

    @Test
    void aRunWithoutMeasureHasNeitherObject() throws Exception {
        fixture.parse(junit4Project());
        JsonNode results = fixture.run(
                recipe("test.Change", changeType("org.junit.Test", "org.junit.jupiter.api.Test")), "test.Change");
        for (JsonNode run : results.path("runs")) {
            assertFalse(run.has("residual"), run.toString());
            assertFalse(run.has("unresolved"), run.toString());
        }
        // A measured request measures the whole run only, never a step on its own.
        ObjectNode request = fixture.runRequest(
                recipe("test.Change", changeType("org.junit.Test", "org.junit.jupiter.api.Test")), "test.Change", true);
        junit4Residual(request.putObject("measure")).put("compile_check", true);
        JsonNode measured = fixture.send(request);
        JsonNode step = measured.path("runs").get(0);
        assertFalse(step.has("residual") || step.has("unresolved"), step.toString());
        JsonNode whole = measured.path("runs").get(1);
        assertTrue(whole.has("residual") && whole.has("unresolved"), whole.toString());
    }

    private static List<String> texts(JsonNode array) {
        return ((ArrayNode) array).valueStream().map(JsonNode::asText).toList();
    }
}
