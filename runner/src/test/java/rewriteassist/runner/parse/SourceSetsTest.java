package rewriteassist.runner.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openrewrite.SourceFile;
import org.openrewrite.java.JavaIsoVisitor;
import org.openrewrite.java.marker.JavaSourceSet;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.JavaType;
import org.openrewrite.marker.GitProvenance;
import org.openrewrite.marker.GitTreeEntry;
import org.openrewrite.marker.OperatingSystemProvenance;
import rewriteassist.runner.Fixture;

/**
 * Sources parsed as the build plugins parse them: each module's main and test source sets with
 * their own classpath, so that types come from the library versions that module uses; the
 * module's charset; and the provenance markers the plugins add.
 */
class SourceSetsTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    private static String parent(String... modules) {
        StringBuilder list = new StringBuilder();
        for (String module : modules) {
            list.append("<module>").append(module).append("</module>");
        }
        return """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.acme</groupId>
                  <artifactId>parent</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <modules>%s</modules>
                </project>
                """
                .formatted(list);
    }

    private static String module(String name, String dependencies) {
        return """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent><groupId>com.acme</groupId><artifactId>parent</artifactId><version>1</version></parent>
                  <artifactId>%s</artifactId>
                  <dependencies>%s</dependencies>
                </project>
                """
                .formatted(name, dependencies);
    }

    private static String lang3(String version, String scope) {
        return "<dependency><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><version>"
                + version + "</version>" + (scope == null ? "" : "<scope>" + scope + "</scope>") + "</dependency>";
    }

    private SourceFile tree(String path) {
        return fixture.main.parsed().trees().stream()
                .filter(t -> t.getSourcePath().toString().equals(path))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no tree for " + path));
    }

    /** The method types of the calls named {@code name} in a tree (null where unattributed). */
    private static List<JavaType.Method> calls(SourceFile tree, String name) {
        List<JavaType.Method> types = new ArrayList<>();
        new JavaIsoVisitor<Integer>() {
            @Override
            public J.MethodInvocation visitMethodInvocation(J.MethodInvocation method, Integer p) {
                if (method.getSimpleName().equals(name)) {
                    types.add(method.getMethodType());
                }
                return super.visitMethodInvocation(method, p);
            }
        }.visit(tree, 0);
        return types;
    }

    /**
     * Two modules on two versions of commons-lang3: {@code StringUtils.truncate} exists from 3.5 on.
     * With one parser over both classpaths, the first jar wins for both modules and the newer
     * module's call is not attributed; each module with its own classpath attributes it.
     */
    @Test
    void eachModuleSeesTheLibraryVersionItDeclares() throws Exception {
        Path root = fixture.repo(
                "pom.xml", parent("aold", "bnew"),
                "aold/pom.xml", module("aold", lang3("3.1", null)),
                "aold/src/main/java/com/acme/a/Old.java",
                        "package com.acme.a;\n\nimport org.apache.commons.lang3.StringUtils;\n\n"
                                + "class Old {\n    boolean f(String s) {\n        return StringUtils.isBlank(s);\n    }\n}\n",
                "bnew/pom.xml", module("bnew", lang3("3.12.0", null)),
                "bnew/src/main/java/com/acme/b/New.java",
                        "package com.acme.b;\n\nimport org.apache.commons.lang3.StringUtils;\n\n"
                                + "class New {\n    String f(String s) {\n        return StringUtils.truncate(s, 3);\n    }\n}\n");
        fixture.parse(root);
        assertNotNull(
                calls(tree("aold/src/main/java/com/acme/a/Old.java"), "isBlank").get(0));
        JavaType.Method truncate = calls(tree("bnew/src/main/java/com/acme/b/New.java"), "truncate")
                .get(0);
        assertNotNull(truncate, "StringUtils.truncate (commons-lang3 3.5+) is not attributed in the 3.12.0 module");
        assertEquals(
                "org.apache.commons.lang3.StringUtils",
                truncate.getDeclaringType().getFullyQualifiedName());
    }

    private static final String USE_LANG3 = "package com.acme;\n\nimport org.apache.commons.lang3.StringUtils;\n\n"
            + "class %s {\n    boolean f(String s) {\n        return StringUtils.isBlank(s);\n    }\n}\n";

    private static String single(String dependencies) {
        return module("app", dependencies)
                .replace(
                        "<parent><groupId>com.acme</groupId><artifactId>parent</artifactId><version>1</version></parent>",
                        "<groupId>com.acme</groupId><version>1</version>");
    }

    /**
     * A library in test scope is on the test classpath only: main code that names one of its types
     * does not compile with the build, and the plugin leaves that type unattributed there. (One
     * parser over the union of the classpaths attributed it.)
     */
    @Test
    void mainDoesNotSeeTheTestClasspath() throws Exception {
        Path root = fixture.repo(
                "pom.xml", single(lang3("3.12.0", "test")),
                "src/main/java/com/acme/Main.java", USE_LANG3.formatted("Main"));
        fixture.parse(root);
        SourceFile main = tree("src/main/java/com/acme/Main.java");
        assertNull(calls(main, "isBlank").get(0), "a test-scoped library attributed in main");
        JavaSourceSet mainSet = main.getMarkers().findFirst(JavaSourceSet.class).orElseThrow();
        assertEquals("main", mainSet.getName());
        assertFalse(mainSet.getGavToTypes().keySet().stream().anyMatch(g -> g.contains("commons-lang3")));
    }

    /** The test source set has the test classpath: its library is attributed, and in its marker. */
    @Test
    void testHasItsOwnClasspath() throws Exception {
        Path root = fixture.repo(
                "pom.xml", single(lang3("3.12.0", "test")),
                "src/main/java/com/acme/Main.java", "package com.acme;\n\nclass Main {\n}\n",
                "src/test/java/com/acme/MainTest.java", USE_LANG3.formatted("MainTest"));
        fixture.parse(root);
        SourceFile test = tree("src/test/java/com/acme/MainTest.java");
        assertNotNull(calls(test, "isBlank").get(0), "the test-scoped library is not attributed in test");
        JavaSourceSet testSet = test.getMarkers().findFirst(JavaSourceSet.class).orElseThrow();
        assertEquals("test", testSet.getName());
        assertTrue(testSet.getGavToTypes().keySet().stream().anyMatch(g -> g.contains("commons-lang3")));
    }

    /** A test source set sees its module's main classes, and a module its sibling's, from source. */
    @Test
    void siblingsAndMainAreSeenFromTheirSources() throws Exception {
        Path root = fixture.repo(
                "pom.xml",
                parent("core", "app"),
                "core/pom.xml",
                module("core", ""),
                "core/src/main/java/com/acme/core/Widget.java",
                "package com.acme.core;\n\npublic class Widget {\n    public int size() {\n        return 1;\n    }\n}\n",
                "app/pom.xml",
                module(
                        "app",
                        "<dependency><groupId>com.acme</groupId><artifactId>core</artifactId>"
                                + "<version>1</version></dependency>"),
                "app/src/main/java/com/acme/app/App.java",
                "package com.acme.app;\n\nimport com.acme.core.Widget;\n\npublic class App {\n"
                        + "    public int f() {\n        return new Widget().size();\n    }\n}\n",
                "app/src/test/java/com/acme/app/AppTest.java",
                "package com.acme.app;\n\nclass AppTest {\n    int g() {\n        return new App().f();\n    }\n}\n");
        fixture.parse(root);
        assertNotNull(
                calls(tree("app/src/main/java/com/acme/app/App.java"), "size").get(0));
        assertNotNull(
                calls(tree("app/src/test/java/com/acme/app/AppTest.java"), "f").get(0));
    }

    /** The module's declared source encoding decides how its sources are read. */
    @Test
    void sourcesAreReadInTheModulesCharset() throws Exception {
        Path root = fixture.repo(
                "pom.xml",
                """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.acme</groupId><artifactId>latin</artifactId><version>1</version>
                  <properties><project.build.sourceEncoding>ISO-8859-1</project.build.sourceEncoding></properties>
                </project>
                """);
        Path source = root.resolve("src/main/java/com/acme/Cafe.java");
        Files.createDirectories(source.getParent());
        Files.write(
                source,
                "package com.acme;\n\nclass Cafe {\n    String name = \"caf\u00e9\";\n}\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
        new ProcessBuilder("git", "-C", root.toString(), "add", "-A").start().waitFor();
        fixture.parse(root);
        SourceFile cafe = tree("src/main/java/com/acme/Cafe.java");
        assertTrue(cafe instanceof J.CompilationUnit, cafe.getClass().getName());
        assertEquals(StandardCharsets.ISO_8859_1, cafe.getCharset());
        assertTrue(cafe.printAll().contains("caf\u00e9"), cafe.printAll());
    }

    /** GitProvenance, the OS, each file's git tree entry, and the CI environment the caller names. */
    @Test
    void filesCarryTheirProvenance() throws Exception {
        Path root =
                fixture.repo("README.md", "# x\n", "src/main/java/com/acme/A.java", "package com.acme;\nclass A {}\n");
        com.fasterxml.jackson.databind.node.ObjectNode request = fixture.parseRequest(root);
        request.putObject("build_environment")
                .put("CI", "true")
                .put("GITHUB_ACTION", "__run")
                .put("GITHUB_ACTIONS", "true")
                .put("GITHUB_SERVER_URL", "https://github.com")
                .put("GITHUB_API_URL", "https://api.github.com")
                .put("GITHUB_REPOSITORY", "acme/shop")
                .put("GITHUB_RUN_ID", "42")
                .put("GITHUB_SHA", "0123456789abcdef0123456789abcdef01234567")
                .put("GITHUB_REF", "refs/heads/main")
                .put("GITHUB_HEAD_REF", "")
                .put("GITHUB_BASE_REF", "");
        assertTrue(fixture.send(request).path("ok").asBoolean());
        for (String path : List.of("README.md", "src/main/java/com/acme/A.java")) {
            SourceFile tree = tree(path);
            assertTrue(tree.getMarkers().findFirst(GitProvenance.class).isPresent(), path);
            assertTrue(
                    tree.getMarkers().findFirst(OperatingSystemProvenance.class).isPresent(), path);
            GitTreeEntry entry = tree.getMarkers().findFirst(GitTreeEntry.class).orElseThrow();
            assertEquals(40, entry.getObjectId().length(), path);
            assertTrue(
                    tree.getMarkers()
                            .findFirst(org.openrewrite.marker.ci.GithubActionsBuildEnvironment.class)
                            .isPresent(),
                    path);
        }
    }
}
