package rewriteassist.runner.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openrewrite.SourceFile;
import org.openrewrite.java.JavaParser;
import org.openrewrite.text.PlainText;
import rewriteassist.runner.common.Jackson;

/** The matching rules of {@link OldLibrary} and what {@link OldUses} counts in a file, without a runner. */
class OldUsesTest {
    private static OldLibrary spec(String json) throws Exception {
        return OldLibrary.from(Jackson.MAPPER.readTree(json));
    }

    private static SourceFile text(String path, String text) {
        return PlainText.builder().sourcePath(Path.of(path)).text(text).build();
    }

    @Test
    void oldNamesArePackagesAndTypesButNotTheNewPackagesBelowThem() throws Exception {
        OldLibrary junit = spec("{\"packages\":[\"org.junit\"],\"new_packages\":[\"org.junit.jupiter\"]}");
        assertTrue(junit.isOld("org.junit.Test"));
        assertTrue(junit.isOld("org.junit.Assert.assertEquals"));
        assertTrue(junit.isOld("org.junit.rules.TemporaryFolder"));
        assertTrue(junit.isOld("org.junit.*"));
        assertTrue(junit.isOld("org.junit.Assert.*"));
        assertFalse(junit.isOld("org.junit.jupiter.api.Test"));
        assertFalse(junit.isOld("org.junit.jupiter.api.Assertions.*"));
        assertFalse(junit.isOld("org.junitx.Foo"));

        OldLibrary types = spec("{\"types\":[\"org.joda.time.DateTime\"]}");
        assertTrue(types.isOld("org.joda.time.DateTime"));
        assertTrue(types.isOld("org.joda.time.DateTime$Property"));
        assertTrue(types.isOld("org.joda.time.DateTime.now"));
        assertFalse(types.isOld("org.joda.time.DateTimeZone"));
        assertFalse(types.isOld("org.joda.time.*"));

        assertEquals("org.junit", OldLibrary.packageOf("org.junit.Assert.assertEquals"));
        assertEquals("org.junit.Assert", OldLibrary.topLevelType("org.junit.Assert.assertEquals"));
        assertTrue(spec("{\"java_version\":\"1.8\"}").isOldJavaVersion("8"));
        assertTrue(spec("{\"java_version\":8}").isOldJavaVersion("1.8"));
        assertFalse(spec("{\"java_version\":8}").isOldJavaVersion("18"));
    }

    @Test
    void aJavaSourceCountsItsDistinctOldNamesEvenWithoutTheirTypes() throws Exception {
        // No JUnit on this parser's classpath: only the imports name it.
        SourceFile cu = JavaParser.fromJavaVersion()
                .build()
                .parse(
                        """
                        package a;

                        import static org.junit.Assert.assertEquals;

                        import org.junit.Test;
                        import org.junit.jupiter.api.Disabled;

                        class BTest {
                            @Test
                            void t() {
                                assertEquals(1, 1);
                            }
                        }
                        """)
                .findFirst()
                .orElseThrow();
        OldUses.Count count =
                OldUses.of(cu, spec("{\"packages\":[\"org.junit\"],\"new_packages\":[\"org.junit.jupiter\"]}"));
        assertEquals(2, count.count(), count.toString());
        assertEquals(
                List.of(
                        "a/BTest.java:3: import static org.junit.Assert.assertEquals;",
                        "a/BTest.java:5: import org.junit.Test;"),
                count.samples());
    }

    @Test
    void gradleScriptsAndCatalogsCountTheirLines() throws Exception {
        OldLibrary spec = spec("{\"dependencies\":[\"junit:junit\"],\"plugins\":[\"io.spring.dependency-management\"],"
                + "\"java_version\":11}");
        SourceFile groovy = text(
                "build.gradle",
                """
                plugins {
                    id 'io.spring.dependency-management' version '1.1.4'
                }
                java {
                    sourceCompatibility = '11'
                    toolchain { languageVersion = JavaLanguageVersion.of(11) }
                }
                dependencies {
                    testImplementation 'junit:junit:4.13.2'
                    testImplementation group: 'junit', name: 'junit', version: '4.13.2'
                    implementation 'junit:junit-dep:4.11'
                    implementation 'org.example:lib:11'
                }
                """);
        OldUses.Count count = OldUses.of(groovy, spec);
        assertEquals(5, count.count(), count.toString());
        assertEquals(
                "build.gradle:2: id 'io.spring.dependency-management' version '1.1.4'",
                count.samples().get(0));

        SourceFile kotlin = text(
                "app/build.gradle.kts",
                """
                plugins { id("io.spring.dependency-management") }
                java.targetCompatibility = JavaVersion.VERSION_11
                kotlin { compilerOptions { jvmTarget.set(JvmTarget.JVM_17) } }
                dependencies { testImplementation("junit:junit:4.13.2") }
                """);
        assertEquals(3, OldUses.of(kotlin, spec).count());

        SourceFile catalog = text(
                "gradle/libs.versions.toml",
                """
                [libraries]
                junit = { module = "junit:junit", version = "4.13.2" }
                junit4 = { group = "junit", name = "junit", version.ref = "junit" }
                [plugins]
                deps = { id = "io.spring.dependency-management", version = "1.1.4" }
                """);
        assertEquals(3, OldUses.of(catalog, spec).count());
    }
}
