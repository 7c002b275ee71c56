package rewriteassist.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rewriteassist.runner.Fixture.changeType;
import static rewriteassist.runner.Fixture.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openrewrite.SourceFile;
import org.openrewrite.java.marker.JavaProject;
import org.openrewrite.java.marker.JavaSourceSet;
import org.openrewrite.java.marker.JavaVersion;
import org.openrewrite.marker.BuildTool;
import org.openrewrite.maven.tree.MavenResolutionResult;
import org.openrewrite.text.PlainText;
import rewriteassist.runner.net.Unreachable;
import rewriteassist.runner.parse.RepositoryParser;

/** The runner on small git repositories of its own, with OpenRewrite's real parsers and recipes. */
class RunnerTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    private static final String PARENT =
            """
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <groupId>com.acme</groupId>
              <artifactId>parent</artifactId>
              <version>1.0-SNAPSHOT</version>
              <packaging>pom</packaging>
              <properties><maven.compiler.release>11</maven.compiler.release></properties>
              <modules><module>core</module><module>app</module></modules>
            </project>
            """;

    private static final String CORE =
            """
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <parent><groupId>com.acme</groupId><artifactId>parent</artifactId><version>1.0-SNAPSHOT</version></parent>
              <artifactId>core</artifactId>
              <dependencies>
                <dependency><groupId>org.jspecify</groupId><artifactId>jspecify</artifactId><version>1.0.0</version></dependency>
              </dependencies>
            </project>
            """;

    private static final String APP =
            """
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <parent><groupId>com.acme</groupId><artifactId>parent</artifactId><version>1.0-SNAPSHOT</version></parent>
              <artifactId>app</artifactId>
              <dependencies>
                <dependency><groupId>com.acme</groupId><artifactId>core</artifactId><version>1.0-SNAPSHOT</version></dependency>
              </dependencies>
            </project>
            """;

    private static final String WIDGET =
            """
            package com.acme.core;

            import org.jspecify.annotations.Nullable;

            public class Widget {
                public @Nullable String name() {
                    return null;
                }
            }
            """;

    private static final String APP_JAVA =
            """
            package com.acme.app;

            import com.acme.core.Widget;

            public class App {
                Widget widget = new Widget();
            }
            """;

    private Path reactor(String... more) throws Exception {
        List<String> files = new ArrayList<>(List.of(
                "pom.xml", PARENT,
                "core/pom.xml", CORE,
                "core/src/main/java/com/acme/core/Widget.java", WIDGET,
                "app/pom.xml", APP,
                "app/src/main/java/com/acme/app/App.java", APP_JAVA,
                "app/src/test/java/com/acme/app/AppTest.java",
                        "package com.acme.app;\n\nclass AppTest {\n    App app = new App();\n}\n",
                "app/src/main/resources/application.yml", "greeting: hello\n",
                "README.md", "# Acme\n"));
        files.addAll(List.of(more));
        return fixture.repo(files.toArray(String[]::new));
    }

    private static SourceFile tree(Fixture fixture, String path) {
        return fixture.main.parsed().trees().stream()
                .filter(t -> t.getSourcePath().toString().equals(path))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no tree for " + path));
    }

    @Test
    void aReactorParsesOnceAndTypesResolveAcrossModules() throws Exception {
        JsonNode parsed = fixture.parse(reactor());
        assertEquals(3, parsed.path("files").path("by_kind").path("maven").asInt(), parsed.toString());
        assertEquals(3, parsed.path("files").path("by_kind").path("java").asInt(), parsed.toString());
        assertEquals(1, parsed.path("files").path("by_kind").path("yaml").asInt(), parsed.toString());
        assertEquals(8, parsed.path("files").path("total").asInt(), parsed.toString());
        assertEquals(0, parsed.path("unparsed").size(), parsed.toString());
        assertEquals(0, parsed.path("warnings").size(), parsed.toString());
        JsonNode modules = parsed.path("modules");
        assertEquals(3, modules.size(), modules.toString());
        assertEquals("app/pom.xml", modules.get(0).path("pom").asText());
        assertEquals("com.acme:app:1.0-SNAPSHOT", modules.get(0).path("gav").asText());
        assertEquals("core/pom.xml", modules.get(1).path("pom").asText());
        assertEquals(1, modules.get(1).path("classpath_jars").asInt(), modules.toString());
        assertEquals(0, modules.get(1).path("unresolved").asInt(), modules.toString());

        // The markers rewrite-maven-plugin attaches.
        SourceFile app = tree(fixture, "app/src/main/java/com/acme/app/App.java");
        assertEquals(
                "app",
                app.getMarkers().findFirst(JavaProject.class).orElseThrow().getProjectName());
        assertEquals(
                "main",
                app.getMarkers().findFirst(JavaSourceSet.class).orElseThrow().getName());
        assertEquals(
                "11",
                app.getMarkers().findFirst(JavaVersion.class).orElseThrow().getSourceCompatibility());
        assertEquals(
                BuildTool.Type.Maven,
                app.getMarkers().findFirst(BuildTool.class).orElseThrow().getType());
        SourceFile test = tree(fixture, "app/src/test/java/com/acme/app/AppTest.java");
        assertEquals(
                "test",
                test.getMarkers().findFirst(JavaSourceSet.class).orElseThrow().getName());
        SourceFile resource = tree(fixture, "app/src/main/resources/application.yml");
        assertEquals(
                "main",
                resource.getMarkers()
                        .findFirst(JavaSourceSet.class)
                        .orElseThrow()
                        .getName());
        SourceFile readme = tree(fixture, "README.md");
        assertEquals(
                "parent",
                readme.getMarkers().findFirst(JavaProject.class).orElseThrow().getProjectName());
        assertTrue(readme.getMarkers().findFirst(JavaSourceSet.class).isEmpty());

        // ChangeType only changes a reference whose type is attributed: core's type, from its source.
        JsonNode run = fixture.run(
                recipe("test.Rename", changeType("com.acme.core.Widget", "com.acme.core.Gadget")), "test.Rename");
        JsonNode step = run.path("runs").get(0);
        assertTrue(step.path("error").isNull(), step.toString());
        String diff = step.path("diff").asText();
        assertTrue(
                diff.contains(
                        "diff --git a/app/src/main/java/com/acme/app/App.java b/app/src/main/java/com/acme/app/App.java"),
                diff);
        assertTrue(diff.contains("-import com.acme.core.Widget;\n+import com.acme.core.Gadget;\n"), diff);
        assertTrue(
                diff.contains(
                        "--- a/app/src/main/java/com/acme/app/App.java\n+++ b/app/src/main/java/com/acme/app/App.java\n"),
                diff);
        assertTrue(diff.lines().filter(l -> l.startsWith("@@")).allMatch(l -> l.endsWith("@@")), diff);
        assertTrue(step.path("files").toString().contains("app/src/main/java/com/acme/app/App.java"), step.toString());
        // The declaring file moves: a deletion and a creation (or a rename), with the new path listed.
        assertTrue(
                step.path("files").toString().contains("core/src/main/java/com/acme/core/Gadget.java"),
                step.toString());
        JsonNode whole = run.path("runs").get(1);
        assertTrue(whole.path("step").isNull());
        assertEquals("test.Rename", whole.path("name").asText());
        assertEquals(diff, whole.path("diff").asText());
        assertEquals(0, whole.path("left_out").size());

        // Discovery asks for each step on its own only: no whole run.
        ObjectNode stepsOnly = fixture.runRequest(
                recipe("test.Rename", changeType("com.acme.core.Widget", "com.acme.core.Gadget")), "test.Rename", true);
        stepsOnly.put("whole", false);
        JsonNode only = fixture.send(stepsOnly);
        assertEquals(1, only.path("runs").size(), only.toString());
        assertEquals(diff, only.path("runs").get(0).path("diff").asText());
        assertEquals("[]", only.path("not_run").toString());

        // Past its time, no further step starts: each is listed as not run.
        ObjectNode late = fixture.runRequest(
                recipe(
                        "test.Rename",
                        changeType("com.acme.core.Widget", "com.acme.core.Gadget"),
                        changeType("com.acme.app.App", "com.acme.app.Main")),
                "test.Rename",
                true);
        late.put("whole", false);
        late.put("stop_after_seconds", 1e-9);
        JsonNode cut = fixture.send(late);
        assertEquals(0, cut.path("runs").size(), cut.toString());
        assertEquals("[0,1]", cut.path("not_run").toString());
    }

    /** A POM whose parent exists nowhere, with {@code body} after its artifactId. */
    private static String orphan(String artifactId, String body) {
        return """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent>
                    <groupId>invalid.rewriteassist.example</groupId>
                    <artifactId>no-such-parent</artifactId>
                    <version>1</version>
                    <relativePath/>
                  </parent>
                  <artifactId>%s</artifactId>
                %s</project>
                """
                .formatted(artifactId, body);
    }

    @Test
    void aParentThatExistsNowhereIsAWarning() throws Exception {
        Path root = fixture.repo(
                "pom.xml",
                orphan("orphan", ""),
                "src/main/java/com/acme/Old.java",
                "package com.acme;\n\npublic class Old {\n}\n",
                "src/main/java/com/acme/User.java",
                "package com.acme;\n\nclass User {\n    Old old;\n}\n",
                "src/main/resources/application.properties",
                "a=b\n");
        JsonNode parsed = fixture.parse(root);
        assertTrue(parsed.path("warnings").toString().contains("invalid.rewriteassist.example"), parsed.toString());
        assertEquals(1, parsed.path("files").path("by_kind").path("maven").asInt(), parsed.toString());
        assertEquals(2, parsed.path("files").path("by_kind").path("java").asInt(), parsed.toString());
        assertEquals(1, parsed.path("files").path("by_kind").path("properties").asInt(), parsed.toString());
        assertEquals(0, parsed.path("unparsed").size(), parsed.toString());
        JsonNode module = parsed.path("modules").get(0);
        assertEquals("pom.xml", module.path("pom").asText());
        assertEquals(
                "invalid.rewriteassist.example:orphan:1", module.path("gav").asText());

        // The sources still parsed, with their types: a Java recipe works.
        JsonNode run = fixture.run(recipe("test.Rename", changeType("com.acme.Old", "com.acme.New")), "test.Rename");
        String diff = run.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+    New old;"), diff);
    }

    /**
     * A main branch often builds on its organisation's next parent, a snapshot published where we
     * cannot reach it: the newest release below it stands in, and Maven recipes do not skip the
     * POM, nor its module, whose parent it is.
     */
    @Test
    void aParentSnapshotThatCannotBeDownloadedIsReplacedByItsNewestRelease() throws Exception {
        String parent =
                """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent>
                    <groupId>org.sonatype.oss</groupId>
                    <artifactId>oss-parent</artifactId>
                    <version>7.1-SNAPSHOT</version>
                    <relativePath/>
                  </parent>
                  <groupId>com.acme</groupId>
                  <artifactId>shop-parent</artifactId>
                  <version>2.0-SNAPSHOT</version>
                  <packaging>pom</packaging>
                  <modules><module>core</module></modules>
                </project>
                """;
        String module =
                """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent>
                    <groupId>com.acme</groupId>
                    <artifactId>shop-parent</artifactId>
                    <version>2.0-SNAPSHOT</version>
                  </parent>
                  <artifactId>core</artifactId>
                  <dependencies>
                    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
                  </dependencies>
                </project>
                """;
        JsonNode parsed = fixture.parse(fixture.repo("pom.xml", parent, "core/pom.xml", module));
        String warnings = parsed.path("warnings").toString();
        assertTrue(
                warnings.contains(
                        "org.sonatype.oss:oss-parent:7.1-SNAPSHOT, the parent, with its release 7 in its place"),
                warnings);
        assertFalse(warnings.contains("not resolved"), warnings);

        JsonNode run = fixture.run(
                recipe(
                        "test.Jupiter",
                        "org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId:\n"
                                + "  oldGroupId: junit\n  oldArtifactId: junit\n"
                                + "  newGroupId: org.junit.jupiter\n  newArtifactId: junit-jupiter\n  newVersion: 5.10.2"),
                "test.Jupiter");
        String diff = run.path("runs").get(0).path("diff").asText();
        assertTrue(
                diff.contains(
                        "+    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId>"),
                run.toString());
        // The recipe's text keeps the snapshot: the release stood in for the resolution only.
        assertFalse(diff.contains("oss-parent"), diff);
    }

    @Test
    void withoutItsParentAModuleStillHasTheDependenciesItVersionsItself() throws Exception {
        Path root = fixture.repo(
                "pom.xml",
                orphan(
                        "plugin",
                        """
                        <properties><jspecify.version>1.0.0</jspecify.version></properties>
                        <dependencies>
                          <dependency><groupId>org.jspecify</groupId><artifactId>jspecify</artifactId><version>${jspecify.version}</version></dependency>
                          <dependency><groupId>invalid.rewriteassist.example</groupId><artifactId>managed-by-the-parent</artifactId></dependency>
                        </dependencies>
                        """),
                "src/main/java/com/acme/Api.java",
                "package com.acme;\n\nimport org.jspecify.annotations.Nullable;\n\nclass Api {\n    @Nullable String name;\n}\n");
        JsonNode parsed = fixture.parse(root);
        String warnings = parsed.path("warnings").toString();
        assertTrue(warnings.contains("not resolved"), warnings);
        assertTrue(warnings.contains("versions of their own, without its parent"), warnings);
        JsonNode module = parsed.path("modules").get(0);
        assertEquals(1, module.path("classpath_jars").asInt(), parsed.toString());
        assertEquals(1, module.path("unresolved").asInt(), "the parent's managed dependency");

        // The annotation's type is known, so a type change finds it.
        JsonNode run = fixture.run(
                recipe(
                        "test.Rename",
                        changeType("org.jspecify.annotations.Nullable", "org.jspecify.annotations.NonNull")),
                "test.Rename");
        String diff = run.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+import org.jspecify.annotations.NonNull;"), run.toString());
        // Maven recipes still skip the POM: its versions are its parent's to tell.
        JsonNode maven = fixture.run(
                recipe(
                        "test.Prop",
                        "org.openrewrite.maven.ChangePropertyValue:\n  key: jspecify.version\n  newValue: 2"),
                "test.Prop");
        assertEquals(0, maven.path("runs").get(0).path("files").size(), maven.toString());
    }

    @Test
    void aDependencyThatExistsNowhereIsLeftOutOfTheResolution() throws Exception {
        Path root = fixture.repo(
                "pom.xml",
                """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.acme</groupId>
                  <artifactId>lonely</artifactId>
                  <version>1</version>
                  <properties><greeting>hello</greeting></properties>
                  <dependencies>
                    <dependency>
                      <groupId>invalid.rewriteassist.example</groupId>
                      <artifactId>no-such-artifact</artifactId>
                      <version>1</version>
                    </dependency>
                    <dependency><groupId>org.jspecify</groupId><artifactId>jspecify</artifactId><version>1.0.0</version></dependency>
                  </dependencies>
                </project>
                """);
        JsonNode parsed = fixture.parse(root);
        String warnings = parsed.path("warnings").toString();
        assertTrue(warnings.contains("invalid.rewriteassist.example:no-such-artifact"), warnings);
        assertTrue(warnings.contains("resolved without"), warnings);
        assertEquals(1, parsed.path("modules").get(0).path("classpath_jars").asInt(), parsed.toString());

        // The POM has a resolution, so Maven recipes apply to it; its text is the original.
        JsonNode run = fixture.run(
                recipe("test.Greet", "org.openrewrite.maven.ChangePropertyValue:\n  key: greeting\n  newValue: bye"),
                "test.Greet");
        String diff = run.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+  <properties><greeting>bye</greeting></properties>"), run.toString());
    }

    @Test
    void aDependencyWhoseOwnDependenciesExistNowhereKeepsItsJar() throws Exception {
        // A file repository of our own: `bridge` depends on `middle`, whose parent exists nowhere
        // (as for a dependency whose parent was only on a retired repository).
        Path repository = fixture.dir().resolve("file-repository");
        artifact(
                repository,
                "bridge",
                "<dependencies><dependency><groupId>invalid.rewriteassist.example</groupId>"
                        + "<artifactId>middle</artifactId><version>1</version></dependency></dependencies>");
        artifact(
                repository,
                "middle",
                "<parent><groupId>invalid.rewriteassist.example</groupId>"
                        + "<artifactId>gone-parent</artifactId><version>1</version></parent>");
        Path root = fixture.repo(
                "pom.xml",
                """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.acme</groupId>
                  <artifactId>bridged</artifactId>
                  <version>1</version>
                  <properties><greeting>hello</greeting></properties>
                  <repositories><repository><id>fixture</id><url>%s</url></repository></repositories>
                  <dependencies>
                    <dependency>
                      <groupId>invalid.rewriteassist.example</groupId>
                      <artifactId>bridge</artifactId>
                      <version>1</version>
                    </dependency>
                    <dependency><groupId>org.jspecify</groupId><artifactId>jspecify</artifactId><version>1.0.0</version></dependency>
                  </dependencies>
                </project>
                """
                        .formatted(repository.toUri()));
        // The test's own file repository: trusted, as --trust-build-config would.
        JsonNode parsed = fixture.send(fixture.parseRequest(root, Fixture.localRepository(), true));
        String warnings = parsed.path("warnings").toString();
        assertTrue(warnings.contains("invalid.rewriteassist.example:gone-parent"), warnings);
        assertTrue(warnings.contains("the dependencies of invalid.rewriteassist.example:bridge"), warnings);
        // bridge's own jar and jspecify's: only what is below bridge is left out.
        assertEquals(2, parsed.path("modules").get(0).path("classpath_jars").asInt(), parsed.toString());

        JsonNode run = fixture.run(
                recipe("test.Greet", "org.openrewrite.maven.ChangePropertyValue:\n  key: greeting\n  newValue: bye"),
                "test.Greet");
        String diff = run.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+  <properties><greeting>bye</greeting></properties>"), run.toString());
    }

    /** An artifact of group {@code invalid.rewriteassist.example}, version 1: its POM and a jar. */
    private static void artifact(Path repository, String artifactId, String body) throws IOException {
        Path dir = repository.resolve("invalid/rewriteassist/example/" + artifactId + "/1");
        Files.createDirectories(dir);
        Files.writeString(
                dir.resolve(artifactId + "-1.pom"),
                "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>"
                        + body
                        + "<groupId>invalid.rewriteassist.example</groupId><artifactId>" + artifactId
                        + "</artifactId><version>1</version></project>");
        try (var jar = new java.util.jar.JarOutputStream(Files.newOutputStream(dir.resolve(artifactId + "-1.jar")))) {
            jar.putNextEntry(new java.util.zip.ZipEntry("invalid/rewriteassist/example/" + artifactId + ".txt"));
            jar.write(artifactId.getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
    }

    private static final String OPTION = "test.Option";

    /** A text recipe that touches the README only. */
    private static final String REPLACE_IN_README =
            "org.openrewrite.text.FindAndReplace:\n  find: Acme\n  replace: replaced\n  filePattern: '**/*.md'";

    @Test
    void aCatalogStepRunsOnceOnTheSameTreesAndIsReportedAgainAsTheStepItIs() throws Exception {
        Path root = reactor();
        fixture.parse(root);
        int before = CountingRecipe.VISITS.get();
        ObjectNode first = fixture.runRequest(
                recipe(OPTION, REPLACE_IN_README, "rewriteassist.runner.CountingRecipe"), OPTION, true);
        first.put("whole", false);
        JsonNode one = fixture.send(first);
        int once = CountingRecipe.VISITS.get() - before;
        assertTrue(once > 0, "the counting recipe visited no file");

        // Another request (another recipe name, the entries in another order): the earlier runs.
        ObjectNode again = fixture.runRequest(
                recipe("test.Again", "rewriteassist.runner.CountingRecipe", REPLACE_IN_README), "test.Again", true);
        again.put("whole", false);
        JsonNode two = fixture.send(again);
        assertEquals(once, CountingRecipe.VISITS.get() - before, "the step ran again on the same trees");
        JsonNode replaced = two.path("runs").get(1);
        assertEquals(1, replaced.path("step").asInt(), two.toString());
        assertEquals(one.path("runs").get(0).path("diff"), replaced.path("diff"), two.toString());
        assertTrue(replaced.path("diff").asText().contains("+# replaced"), two.toString());

        // A new parse (maybe of another commit) forgets them.
        fixture.parse(root);
        ObjectNode third = fixture.runRequest(
                recipe("test.Again", "rewriteassist.runner.CountingRecipe", REPLACE_IN_README), "test.Again", true);
        third.put("whole", false);
        fixture.send(third);
        assertEquals(2 * once, CountingRecipe.VISITS.get() - before, "a new parse reused another's run");
    }

    /**
     * Runs share the POMs' resolutions until one changes a POM or fails: the shared set is never
     * the parse's own, the next run after a change gets a new one, and each run still sees the
     * resolutions as parsed (the same whole run, twice after a POM change, makes the same diff).
     */
    @Test
    void runsShareResolutionsUntilOneChangesAPom() throws Exception {
        fixture.parse(reactor());
        RepositoryParser.Outcome parsed = fixture.main.parsed();
        assertNotNull(parsed);
        java.util.function.Function<List<SourceFile>, MavenResolutionResult> root = trees -> trees.stream()
                .filter(t -> t.getSourcePath().toString().equals("pom.xml"))
                .findFirst()
                .flatMap(t -> t.getMarkers().findFirst(MavenResolutionResult.class))
                .orElseThrow();
        MavenResolutionResult first = root.apply(parsed.treesForRun());
        assertNotSame(root.apply(parsed.trees()), first, "a run got the parse's own resolution");
        assertSame(first, root.apply(parsed.treesForRun()), "a run that changed no POM gave up the set");
        parsed.ran(null);
        assertNotSame(first, root.apply(parsed.treesForRun()), "a failed run's set was handed out again");

        String release =
                "org.openrewrite.maven.ChangePropertyValue:\n  key: maven.compiler.release\n" + "  newValue: '17'";
        JsonNode once = fixture.send(fixture.runRequest(recipe("test.Once", release), "test.Once", false));
        JsonNode twice = fixture.send(fixture.runRequest(recipe("test.Twice", release), "test.Twice", false));
        String diff = once.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+  <properties><maven.compiler.release>17<"), once.toString());
        assertEquals(diff, twice.path("runs").get(0).path("diff").asText(), twice.toString());
    }

    /**
     * A declarative member of a classpath composite, split by discovery, is the recipe of its name:
     * its earlier run on the same trees is reused (discovery splits the Spring Boot umbrellas, whose
     * first member is the previous version's umbrella, run on its own before).
     */
    @Test
    void aDeclarativeMemberOfASplitCompositeIsReusedFromItsEarlierRun() throws Exception {
        fixture.parse(reactor());
        int before = CountingRecipe.VISITS.get();
        ObjectNode alone =
                fixture.runRequest(recipe(OPTION, "rewriteassist.runnertest.CountingComposite"), OPTION, true);
        alone.put("whole", false);
        JsonNode one = fixture.send(alone);
        int once = CountingRecipe.VISITS.get() - before;
        assertTrue(once > 0, "the counting recipe visited no file");

        ObjectNode split = fixture.request("run");
        split.putArray("recipe_files");
        split.put("recipe", "rewriteassist.runnertest.Umbrella");
        split.put("each_step", true);
        split.put("whole", false);
        JsonNode members = fixture.send(split);
        assertEquals(once, CountingRecipe.VISITS.get() - before, "the member ran again on the same trees");
        JsonNode member = members.path("runs").get(0);
        assertEquals(
                "rewriteassist.runnertest.CountingComposite",
                member.path("name").asText(),
                members.toString());
        assertEquals(one.path("runs").get(0).path("diff"), member.path("diff"), members.toString());
        assertTrue(members.path("runs").get(1).path("diff").asText().contains("+# replaced"), members.toString());
    }

    @Test
    void aStepThatThrowsIsReportedAndLeftOutOfTheWhole() throws Exception {
        fixture.parse(reactor());
        JsonNode run = fixture.run(
                recipe(
                        OPTION,
                        "rewriteassist.runner.ThrowingRecipe",
                        changeType("com.acme.core.Widget", "com.acme.core.Gadget"),
                        REPLACE_IN_README),
                OPTION);
        JsonNode runs = run.path("runs");
        assertEquals(4, runs.size(), run.toString());

        JsonNode thrown = runs.get(0);
        assertEquals(0, thrown.path("step").asInt());
        assertEquals("rewriteassist.runner.ThrowingRecipe", thrown.path("name").asText());
        assertEquals("recipe_error", thrown.path("error").path("kind").asText(), thrown.toString());
        assertTrue(
                thrown.path("error").path("message").asText().contains("rewriteassist.runner.ThrowingRecipe"),
                thrown.toString());
        assertTrue(thrown.path("error").path("message").asText().contains("boom in"), thrown.toString());
        assertTrue(thrown.path("error").path("stack").asText().contains("ThrowingRecipe"), thrown.toString());
        assertEquals("", thrown.path("diff").asText(), "the trees it broke do not count");
        assertEquals("[]", thrown.path("warnings").toString(), "the error is not repeated as a warning");

        JsonNode renamed = runs.get(1);
        assertTrue(renamed.path("error").isNull(), renamed.toString());
        assertEquals(
                "com.acme.core.Widget",
                renamed.path("options").path("oldFullyQualifiedTypeName").asText());
        assertTrue(renamed.path("diff").asText().contains("+import com.acme.core.Gadget;"), renamed.toString());

        JsonNode text = runs.get(2);
        assertTrue(text.path("error").isNull(), text.toString());
        assertTrue(text.path("diff").asText().contains("+# replaced"), text.toString());

        JsonNode whole = runs.get(3);
        assertTrue(whole.path("step").isNull());
        assertTrue(whole.path("error").isNull(), whole.toString());
        assertEquals("[0]", whole.path("left_out").toString());
        String diff = whole.path("diff").asText();
        assertTrue(diff.contains("+import com.acme.core.Gadget;"), diff);
        assertTrue(diff.contains("+# replaced"), diff);
    }

    @Test
    void aFileLeftAsItWasForAHostOutOfReachIsAWarningAndTheStepStays() throws Exception {
        fixture.parse(reactor());
        String mixed = recipe(
                "com.acme.Mixed",
                changeType("com.acme.core.Widget", "com.acme.core.Gadget"),
                "rewriteassist.runner.UnreachableRecipe");
        JsonNode run = fixture.run(recipe(OPTION, "com.acme.Mixed", REPLACE_IN_README) + "---\n" + mixed, OPTION);
        JsonNode runs = run.path("runs");
        assertEquals(3, runs.size(), run.toString());

        JsonNode step = runs.get(0);
        assertTrue(step.path("error").isNull(), step.toString());
        assertTrue(step.path("diff").asText().contains("+import com.acme.core.Gadget;"), step.toString());
        assertFalse(step.path("files").toString().contains("application.yml"), step.toString());
        String warnings = step.path("warnings").toString();
        assertTrue(
                warnings.contains(
                        "rewriteassist.runner.UnreachableRecipe left app/src/main/resources/application.yml as it was, "
                                + Unreachable.MARK + " (java.net.UnknownHostException: downloads.example.invalid)"),
                warnings);

        JsonNode whole = runs.get(2);
        assertTrue(whole.path("error").isNull(), whole.toString());
        assertEquals("[]", whole.path("left_out").toString());
        String diff = whole.path("diff").asText();
        assertTrue(diff.contains("+import com.acme.core.Gadget;"), diff);
        assertTrue(diff.contains("+# replaced"), diff);
    }

    @Test
    void aStepThatDoesNotValidateIsNotRunAndTheOthersAre() throws Exception {
        fixture.parse(reactor());
        JsonNode run = fixture.run(
                recipe(
                        OPTION,
                        "org.openrewrite.java.ChangeType:\n  oldFullyQualifiedTypeName: com.acme.core.Widget",
                        "org.openrewrite.java.ChangePackage:\n  oldPackageName: com.acme.app\n  newPackageName: com.acme.application",
                        "org.openrewrite.java.ChangeType:\n  oldFullyQualifiedTypeName: a.B\n  newFullyQualifiedTypeName: a.C\n  noSuchOption: x",
                        "com.acme.NoSuchRecipe"),
                OPTION);
        JsonNode runs = run.path("runs");
        assertEquals(5, runs.size(), run.toString());

        JsonNode invalid = runs.get(0);
        assertEquals("invalid_option", invalid.path("error").path("kind").asText(), invalid.toString());
        assertTrue(
                invalid.path("error").path("message").asText().contains("newFullyQualifiedTypeName"),
                invalid.toString());
        assertEquals("", invalid.path("diff").asText());

        JsonNode moved = runs.get(1);
        assertTrue(moved.path("error").isNull(), moved.toString());
        assertTrue(moved.path("diff").asText().contains("+package com.acme.application;"), moved.toString());

        JsonNode unknownOption = runs.get(2);
        assertEquals("invalid_option", unknownOption.path("error").path("kind").asText(), unknownOption.toString());
        assertTrue(
                unknownOption.path("error").path("message").asText().contains("noSuchOption"),
                unknownOption.toString());

        JsonNode unknownRecipe = runs.get(3);
        assertEquals("com.acme.NoSuchRecipe", unknownRecipe.path("name").asText());
        assertEquals("unknown_recipe", unknownRecipe.path("error").path("kind").asText(), unknownRecipe.toString());

        JsonNode whole = runs.get(4);
        assertTrue(whole.path("error").isNull(), whole.toString());
        assertEquals("[0,2,3]", whole.path("left_out").toString());
        assertEquals(moved.path("diff").asText(), whole.path("diff").asText());
    }

    @Test
    void filesThatDoNotParseAreKeptAsPlainText() throws Exception {
        Path root = fixture.repo(
                "src/main/java/com/acme/Fine.java", "package com.acme;\n\nclass Fine {\n}\n",
                "src/main/java/com/acme/Broken.java", "package com.acme;\n\nclass Broken {\n    void f( {\n}\n",
                "config/broken.yml", "key: [unclosed\n  - : :\n",
                "config/fine.yml", "key: value\n",
                "logo.png", "\u0000PNG binary");
        JsonNode parsed = fixture.parse(root);
        List<String> unparsed = new ArrayList<>();
        parsed.path("unparsed").forEach(u -> unparsed.add(u.path("path").asText()));
        assertTrue(unparsed.contains("src/main/java/com/acme/Broken.java"), parsed.toString());
        assertTrue(unparsed.contains("config/broken.yml"), parsed.toString());
        assertEquals(2, unparsed.size(), parsed.toString());
        parsed.path("unparsed")
                .forEach(u -> assertFalse(u.path("error").asText().isBlank(), u.toString()));
        assertEquals(1, parsed.path("files").path("by_kind").path("java").asInt(), parsed.toString());
        assertEquals(1, parsed.path("files").path("by_kind").path("yaml").asInt(), parsed.toString());
        assertEquals(2, parsed.path("files").path("by_kind").path("plain_text").asInt(), parsed.toString());
        // A binary file is a Quark, as with the build plugins: known to exist, never read.
        assertEquals(1, parsed.path("files").path("by_kind").path("quark").asInt(), parsed.toString());
        assertTrue(tree(fixture, "logo.png") instanceof org.openrewrite.quark.Quark);
        assertTrue(tree(fixture, "src/main/java/com/acme/Broken.java") instanceof PlainText);
        assertTrue(tree(fixture, "config/broken.yml") instanceof PlainText);
    }

    @Test
    void nothingOfDotMvnRuns() throws Exception {
        Path root = fixture.repo(
                "pom.xml",
                """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.acme</groupId>
                  <artifactId>plain</artifactId>
                  <version>1</version>
                </project>
                """,
                ".mvn/jvm.config",
                "-javaagent:/nonexistent/agent.jar -Xmx1m\n",
                ".mvn/maven.config",
                "-Drewrite.version=0.0.0-invalid --settings /nonexistent/settings.xml\n",
                ".mvn/extensions.xml",
                """
                <extensions>
                  <extension>
                    <groupId>invalid.rewriteassist.example</groupId>
                    <artifactId>no-such-extension</artifactId>
                    <version>1</version>
                  </extension>
                </extensions>
                """,
                "src/main/java/com/acme/A.java",
                "package com.acme;\n\nclass A {\n}\n");
        JsonNode parsed = fixture.parse(root);
        assertEquals(0, parsed.path("warnings").size(), parsed.toString());
        assertEquals(0, parsed.path("unparsed").size(), parsed.toString());
        assertTrue(tree(fixture, ".mvn/jvm.config") instanceof PlainText);
        assertEquals(1, parsed.path("files").path("by_kind").path("xml").asInt(), parsed.toString());
        assertEquals(
                "com.acme:plain:1", parsed.path("modules").get(0).path("gav").asText());
        JsonNode run = fixture.run(recipe("test.Rename", changeType("com.acme.A", "com.acme.B")), "test.Rename");
        assertTrue(run.path("runs").get(0).path("diff").asText().contains("+class B {"), run.toString());
    }

    @Test
    void aStepThatWorksOnAnEarlierStepsResultIsCreditedInTheWholeRun() throws Exception {
        Path root = fixture.repo(
                "src/main/java/com/acme/Checks.java",
                "package com.acme;\n\npublic class Checks {\n    public static void check(Object o) {}\n}\n",
                "src/main/java/com/acme/Guard.java",
                "package com.acme;\n\npublic class Guard {\n    public static void require(Object o) {}\n}\n",
                "src/main/java/com/acme/App.java",
                "package com.acme;\n\nclass App {\n    void run(Object o) {\n        Checks.check(o);\n    }\n}\n");
        fixture.parse(root);
        JsonNode run = fixture.run(
                recipe(
                        "test.Move",
                        "org.openrewrite.java.ChangeMethodTargetToStatic:\n  methodPattern: com.acme.Checks check(..)"
                                + "\n  fullyQualifiedTargetTypeName: com.acme.Guard",
                        "org.openrewrite.java.ChangeMethodName:\n  methodPattern: com.acme.Guard check(..)"
                                + "\n  newMethodName: require"),
                "test.Move");
        JsonNode runs = run.path("runs");
        // On its own, the rename finds no call on Guard yet.
        assertEquals(0, runs.get(1).path("files").size(), run.toString());
        JsonNode whole = runs.get(2);
        assertTrue(whole.path("diff").asText().contains("+        Guard.require(o);"), run.toString());
        assertEquals(
                "[0,1]",
                whole.path("steps_by_file")
                        .path("src/main/java/com/acme/App.java")
                        .toString(),
                run.toString());
    }

    /**
     * Discovery's follow-up round: a step that only applies to what a migration wrote runs on the
     * trees the migration made, and its diff is what it changed of them (not the migration's lines).
     */
    @Test
    void stepsRunOnTheResultOfTheRecipeToRunFirst() throws Exception {
        Path root = fixture.repo(
                "src/main/java/com/acme/Checks.java",
                "package com.acme;\n\npublic class Checks {\n    public static void check(Object o) {}\n}\n",
                "src/main/java/com/acme/Guard.java",
                "package com.acme;\n\npublic class Guard {\n    public static void require(Object o) {}\n}\n",
                "src/main/java/com/acme/App.java",
                "package com.acme;\n\nclass App {\n    void run(Object o) {\n        Checks.check(o);\n    }\n}\n");
        fixture.parse(root);
        String yaml = recipe(
                        "test.Migrate",
                        "org.openrewrite.java.ChangeMethodTargetToStatic:\n  methodPattern: com.acme.Checks check(..)"
                                + "\n  fullyQualifiedTargetTypeName: com.acme.Guard")
                + "---\n"
                + recipe(
                        "test.FollowUps",
                        "org.openrewrite.java.ChangeMethodName:\n  methodPattern: com.acme.Guard check(..)"
                                + "\n  newMethodName: require",
                        changeType("com.acme.Missing", "com.acme.Other"));
        ObjectNode request = fixture.runRequest(yaml, "test.FollowUps", true);
        request.put("whole", false);
        request.put("after", "test.Migrate");
        JsonNode run = fixture.send(request);
        assertTrue(run.path("ok").asBoolean(), run.toString());
        String diff = run.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("-        Guard.check(o);\n+        Guard.require(o);"), run.toString());
        assertFalse(diff.contains("Checks"), run.toString());
        assertEquals("", run.path("runs").get(1).path("diff").asText(), run.toString());

        // Without it, the rename finds no call on Guard; and the parse is unchanged by the first.
        JsonNode plain = fixture.run(yaml, "test.FollowUps");
        assertEquals(0, plain.path("runs").get(0).path("files").size(), plain.toString());

        ObjectNode missing = fixture.runRequest(yaml, "test.FollowUps", true);
        missing.put("after", "test.Nowhere");
        JsonNode failed = fixture.send(missing);
        assertFalse(failed.path("ok").asBoolean(), failed.toString());
        assertTrue(failed.path("error").path("message").asText().contains("test.Nowhere"), failed.toString());
    }

    /**
     * Two steps of the same recipe, the first setting an option the second leaves unset: matching
     * the second's changes to the steps met a null option value (a NullPointerException that sank
     * the whole run on a real PR). Now the whole run stands and credits the right step.
     */
    @Test
    void stepsOfOneRecipeWithUnsetOptionsAreToldApartInTheWholeRun() throws Exception {
        Path root = fixture.repo(
                "src/main/java/com/acme/A.java", "package com.acme;\n\npublic class A {}\n",
                "src/main/java/com/acme/App.java", "package com.acme;\n\nclass App {\n    A a;\n}\n");
        fixture.parse(root);
        JsonNode run = fixture.run(
                recipe(
                        "test.Two",
                        "org.openrewrite.java.ChangeType:\n  ignoreDefinition: true\n  oldFullyQualifiedTypeName: x.Y"
                                + "\n  newFullyQualifiedTypeName: x.Z",
                        changeType("com.acme.A", "com.acme.B")),
                "test.Two");
        JsonNode whole = run.path("runs").get(2);
        assertTrue(whole.path("error").isNull(), run.toString());
        assertEquals(
                "[1]",
                whole.path("steps_by_file")
                        .path("src/main/java/com/acme/App.java")
                        .toString(),
                run.toString());
    }

    /** A recipe that would create a file outside the parsed directory: refused, never a diff. */
    @Test
    void aResultOutsideTheRepositoryIsAnErrorNotADiff() throws Exception {
        fixture.parse(fixture.repo("README.md", "# x\n"));
        JsonNode run = fixture.run(
                recipe(
                        "test.Escape",
                        "org.openrewrite.text.CreateTextFile:\n  relativeFileName: ../escape.txt\n  fileContents: boo"),
                "test.Escape");
        JsonNode step = run.path("runs").get(0);
        assertEquals("recipe_error", step.path("error").path("kind").asText(), run.toString());
        // OpenRewrite refuses such a path itself ("invalid path"); the runner would too ("outside").
        assertTrue(step.path("error").path("message").asText().contains("../escape.txt"), run.toString());
        assertFalse(step.path("diff").asText().contains("escape.txt"), run.toString());
    }

    @Test
    void theServeLoopAnswersEachRequestInOrder() throws Exception {
        Path root = reactor();
        ObjectNode early = fixture.runRequest(recipe("test.Rename", changeType("a.B", "a.C")), "test.Rename", true);
        ObjectNode parse = fixture.parseRequest(root);
        ObjectNode first = fixture.runRequest(
                recipe("test.Rename", changeType("com.acme.core.Widget", "com.acme.core.Gadget")), "test.Rename", true);
        ObjectNode second = fixture.runRequest(recipe("test.Other", REPLACE_IN_README), "test.Other", false);
        ObjectNode unknown = fixture.runRequest(recipe("test.Rename", changeType("a.B", "a.C")), "test.Missing", true);
        String stdin = String.join(
                "\n",
                fixture.write(early).toString(),
                fixture.write(parse).toString(),
                "",
                fixture.write(first).toString(),
                fixture.write(second).toString(),
                fixture.write(unknown).toString());
        fixture.main.serve(new BufferedReader(new StringReader(stdin + "\n")), null);

        assertEquals(
                List.of("done run-1", "done parse-2", "done run-3", "done run-4", "done run-5"),
                fixture.stdout.toString(StandardCharsets.UTF_8).lines().toList());
        JsonNode noParse = Fixture.results(early);
        assertFalse(noParse.path("ok").asBoolean());
        assertEquals("no_parse", noParse.path("error").path("kind").asText());
        assertEquals("run-1", noParse.path("id").asText());
        assertEquals(1, noParse.path("protocol").asInt());

        JsonNode parsed = Fixture.results(parse);
        assertTrue(parsed.path("ok").asBoolean(), parsed.toString());
        assertTrue(parsed.path("seconds").isNumber());

        JsonNode renamed = Fixture.results(first);
        assertEquals(2, renamed.path("runs").size(), renamed.toString());
        assertTrue(renamed.path("runs").get(1).path("diff").asText().contains("+import com.acme.core.Gadget;"));

        JsonNode whole = Fixture.results(second);
        assertEquals(1, whole.path("runs").size(), "without each_step: the whole recipe only");
        assertTrue(whole.path("runs").get(0).path("diff").asText().contains("+# replaced"), whole.toString());
        // The run before saw the same, unchanged trees.
        assertFalse(whole.path("runs").get(0).path("diff").asText().contains("Gadget"));

        JsonNode missing = Fixture.results(unknown);
        assertFalse(missing.path("ok").asBoolean());
        assertEquals("unknown_recipe", missing.path("error").path("kind").asText(), missing.toString());
        try (var files = Files.list(fixture.dir())) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().endsWith(".tmp")), "no temporary file left");
        }
    }

    @Test
    void eachStepKeepsTheRecipesPreconditions() throws Exception {
        fixture.parse(fixture.repo("README.md", "# Acme\n", "NOTES.md", "# Acme notes\n"));
        String yaml =
                """
                type: specs.openrewrite.org/v1beta/recipe
                name: test.Guarded
                preconditions:
                  - org.openrewrite.FindSourceFiles:
                      filePattern: README.md
                recipeList:
                  - org.openrewrite.text.FindAndReplace:
                      find: Acme
                      replace: Widgets
                  - org.openrewrite.java.ChangeType:
                      oldFullyQualifiedTypeName: a.B
                """;
        JsonNode runs = fixture.run(yaml, "test.Guarded").path("runs");
        assertEquals(3, runs.size(), runs.toString());
        assertEquals(
                "org.openrewrite.text.FindAndReplace", runs.get(0).path("name").asText());
        assertEquals("[\"README.md\"]", runs.get(0).path("files").toString(), runs.toString());
        assertEquals("invalid_option", runs.get(1).path("error").path("kind").asText(), runs.toString());
        assertEquals("[\"README.md\"]", runs.get(2).path("files").toString(), runs.toString());
        assertEquals("[1]", runs.get(2).path("left_out").toString());
    }

    @Test
    void whatARecipeWritesFollowsTheRepositorysOwnIndentation() throws Exception {
        Path root = fixture.repo(
                "src/main/java/com/acme/Point.java",
                "package com.acme;\n\npublic class Point implements java.io.Serializable {\n  int x;\n\n  int y() {\n"
                        + "    return x;\n  }\n}\n",
                "src/main/java/com/acme/Line.java",
                "package com.acme;\n\nclass Line {\n  Point from;\n\n  Point from() {\n    return from;\n  }\n}\n");
        fixture.parse(root);
        JsonNode run = fixture.run(
                recipe("test.Serial", "org.openrewrite.staticanalysis.AddSerialVersionUidToSerializable"),
                "test.Serial");
        String diff = run.path("runs").get(0).path("diff").asText();
        // Two spaces, as the rest of the file: OpenRewrite's default style would write four.
        assertTrue(diff.contains("\n+  private static final long serialVersionUID = 1;\n"), diff);
    }

    @Test
    void everyKindOfFileHasItsParser() throws Exception {
        JsonNode parsed = fixture.parse(fixture.repo(
                "build.gradle", "plugins {\n    id 'java'\n}\n",
                "settings.gradle.kts", "rootProject.name = \"acme\"\n",
                "src/main/kotlin/Greeter.kt", "class Greeter {\n    fun greet() = \"hi\"\n}\n",
                "src/main/groovy/Tool.groovy", "class Tool {\n    def run() { 1 }\n}\n",
                "Dockerfile", "FROM eclipse-temurin:17\nRUN echo hi\n",
                "infra/main.tf", "resource \"null_resource\" \"x\" {\n}\n",
                "pyproject.toml", "[project]\nname = \"acme\"\n",
                "package.json", "{\"name\": \"acme\"}\n",
                "src/main/resources/app.properties", "a=b\n",
                "src/main/resources/log.xml", "<configuration/>\n",
                ".github/workflows/ci.yml", "on: push\n",
                "src/test/resources/Fixture.java", "this is test data, not a source\n",
                "src/test/resources/project/pom.xml", "<project/>\n",
                "target/Generated.java", "class Generated {}\n"));
        JsonNode kinds = parsed.path("files").path("by_kind");
        assertEquals(2, kinds.path("gradle").asInt(), parsed.toString());
        assertEquals(1, kinds.path("kotlin").asInt(), parsed.toString());
        assertEquals(1, kinds.path("groovy").asInt(), parsed.toString());
        assertEquals(1, kinds.path("docker").asInt(), parsed.toString());
        assertEquals(1, kinds.path("hcl").asInt(), parsed.toString());
        assertEquals(1, kinds.path("toml").asInt(), parsed.toString());
        assertEquals(1, kinds.path("json").asInt(), parsed.toString());
        assertEquals(1, kinds.path("properties").asInt(), parsed.toString());
        assertEquals(2, kinds.path("xml").asInt(), "a pom.xml among test resources is XML, not a module");
        assertEquals(1, kinds.path("yaml").asInt(), parsed.toString());
        assertEquals(1, kinds.path("plain_text").asInt(), "Java among resources is data");
        assertEquals(0, kinds.path("maven").asInt() + kinds.path("java").asInt(), parsed.toString());
        assertEquals(13, parsed.path("files").path("total").asInt(), "target/ is build output");
        assertEquals(0, parsed.path("unparsed").size(), parsed.toString());
        // The Gradle build is a module of its own (GradleTest has the rest).
        assertEquals(1, parsed.path("modules").size(), parsed.toString());
        assertEquals("build.gradle", parsed.path("modules").get(0).path("pom").asText());
    }

    @Test
    void aRecipeFileThatIsNotYamlIsAYamlError() throws Exception {
        fixture.parse(fixture.repo("a.txt", "a\n"));
        JsonNode results = fixture.send(fixture.runRequest("type: [unclosed\n  - : :\n", "test.Any", true));
        assertFalse(results.path("ok").asBoolean());
        assertEquals("yaml_error", results.path("error").path("kind").asText(), results.toString());
    }

    /** The real process: stdout is the protocol only, and the exit statuses are the documented ones. */
    @Test
    void theProcessExitsAsDocumented() throws Exception {
        ObjectNode early = fixture.runRequest(recipe("test.Rename", changeType("a.B", "a.C")), "test.Rename", true);
        Process serve = runner("--serve");
        serve.getOutputStream().write((fixture.write(early) + "\n").getBytes(StandardCharsets.UTF_8));
        serve.getOutputStream().close();
        String out = new String(serve.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(serve.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, serve.exitValue());
        assertEquals("done run-1\n", out);
        assertEquals(
                "no_parse", Fixture.results(early).path("error").path("kind").asText());

        Path garbage = fixture.dir().resolve("garbage.json");
        Files.writeString(garbage, "this is not json");
        Process bad = runner(garbage.toString());
        assertTrue(bad.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, bad.exitValue());

        ObjectNode wrong = fixture.parseRequest(fixture.dir());
        wrong.put("protocol", 99);
        Process rejected = runner(fixture.write(wrong).toString());
        assertTrue(rejected.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, rejected.exitValue());
        JsonNode why = Fixture.results(wrong);
        assertFalse(why.path("ok").asBoolean());
        assertNotNull(why.path("error").path("message").asText(null));
    }

    private static Process runner(String argument) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(
                        java.toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "rewriteassist.runner.Main",
                        argument)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }
}
