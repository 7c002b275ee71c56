package rewriteassist.runner.gradle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rewriteassist.runner.Fixture.changeType;
import static rewriteassist.runner.Fixture.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.gradle.GradleParser;
import org.openrewrite.java.tree.JavaSourceFile;
import org.openrewrite.toml.TomlParser;
import org.openrewrite.toml.tree.Toml;
import rewriteassist.runner.Fixture;

/**
 * Gradle builds without Gradle: the static read of the scripts, and OpenRewrite's Gradle recipes
 * running on the markers built from it (real parsers, real recipes, Maven Central for the POMs).
 */
public class GradleTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    /** A script's tree, as the runner parses it. */
    private static JavaSourceFile tree(String path, String text) {
        return (JavaSourceFile) GradleParser.builder()
                .build()
                .parseInputs(
                        List.of(Parser.Input.fromString(Path.of(path), text)), null, new InMemoryExecutionContext())
                .findFirst()
                .orElseThrow();
    }

    private static GradleScript script(String path, String text) {
        return GradleScript.read(tree(path, text), GradleCatalog.empty());
    }

    private static GradleCatalog catalog(String toml) {
        return GradleCatalog.read(
                (Toml.Document) new TomlParser().parse(toml).findFirst().orElseThrow());
    }

    @Test
    void aGroovyScriptIsReadWithoutRunningIt() {
        GradleScript script = script(
                "build.gradle",
                """
                plugins {
                    id 'java'
                    id 'org.springframework.boot' version '2.7.18' // the Boot plugin
                    id "io.spring.dependency-management" version "1.0.15.RELEASE"
                }
                group = 'com.acme'
                version '1.2.0'
                ext { guavaVersion = '32.1.3-jre' }
                sourceCompatibility = '1.8'
                repositories {
                    mavenCentral()
                    maven { url 'https://repo.acme.com/maven' }
                }
                /* a block comment with implementation 'not:a:dependency:1' */
                dependencies {
                    implementation 'org.springframework.boot:spring-boot-starter-web'
                    implementation "com.google.guava:guava:$guavaVersion"
                    testImplementation group: 'junit', name: 'junit', version: '4.13.2'
                    implementation platform('org.acme:acme-bom:3')
                    implementation project(':core')
                    compileOnly libs.lombok
                }
                subprojects {
                    apply plugin: 'java'
                    dependencies { implementation 'org.slf4j:slf4j-api:2.0.9' }
                }
                """);
        assertEquals(
                List.of("java", "org.springframework.boot", "io.spring.dependency-management"),
                script.plugins().stream()
                        .filter(p -> p.scope() == GradleScript.Scope.OWN)
                        .map(GradleScript.Plugin::id)
                        .toList());
        assertEquals("2.7.18", script.plugins().get(1).version());
        assertEquals(Optional.of("com.acme"), script.group());
        assertEquals(Optional.of("1.2.0"), script.version());
        assertEquals(Optional.of("1.8"), script.javaLevel());
        assertEquals("32.1.3-jre", script.variables().get("guavaVersion"));
        assertEquals(
                List.of("https://repo.maven.apache.org/maven2", "https://repo.acme.com/maven"),
                script.repositories().stream().map(GradleScript.Repository::url).toList());
        List<String> declared = script.dependencies().stream()
                .map(d -> d.configuration() + " " + d.ga() + ":" + d.version() + (d.platform() ? " platform" : "")
                        + (d.project().isEmpty() ? "" : " project " + d.project())
                        + (d.catalogAlias().isEmpty() ? "" : " libs." + d.catalogAlias())
                        + (d.scope() == GradleScript.Scope.OWN ? "" : " " + d.scope()))
                .toList();
        assertEquals(
                List.of(
                        "implementation org.springframework.boot:spring-boot-starter-web:",
                        "implementation com.google.guava:guava:${guavaVersion}",
                        "testImplementation junit:junit:4.13.2",
                        "implementation org.acme:acme-bom:3 platform",
                        "implementation :: project :core",
                        "compileOnly :: libs.lombok",
                        "implementation org.slf4j:slf4j-api:2.0.9 SUBPROJECTS"),
                declared);
        assertEquals(
                Optional.of("com.google.guava:guava:32.1.3-jre"),
                GradleValues.interpolated("com.google.guava:guava:${guavaVersion}", script.variables()));
        assertEquals(Optional.empty(), GradleValues.interpolated("a:b:${unknown}", script.variables()));
    }

    @Test
    void aKotlinScriptSettingsAndACatalogAreReadToo() {
        GradleScript script = script(
                "build.gradle.kts",
                """
                plugins {
                    `java-library`
                    kotlin("jvm") version "1.9.22"
                    id("org.springframework.boot") version "3.2.0"
                }
                val jacksonVersion = "2.16.1"
                java { toolchain { languageVersion.set(JavaLanguageVersion.of(17)) } }
                dependencies {
                    api("com.fasterxml.jackson.core:jackson-databind:$jacksonVersion")
                    implementation(libs.commons.lang3)
                    testImplementation(platform("org.junit:junit-bom:5.10.1"))
                }
                """);
        assertEquals(
                List.of("java-library", "org.jetbrains.kotlin.jvm", "org.springframework.boot"),
                script.plugins().stream().map(GradleScript.Plugin::id).toList());
        assertEquals("1.9.22", script.plugins().get(1).version());
        assertEquals(Optional.of("17"), script.javaLevel());
        assertEquals("2.16.1", script.variables().get("jacksonVersion"));
        assertEquals("commons.lang3", script.dependencies().get(1).catalogAlias());
        assertTrue(script.dependencies().get(2).platform());

        GradleScript.Settings settings = GradleScript.Settings.read(
                tree(
                        "settings.gradle",
                        "rootProject.name = \"shop\"\ninclude(\":core\", \":web:api\")\ninclude 'cli'\nincludeBuild(\"../lib\")\n"));
        assertEquals("shop", settings.rootName());
        assertEquals(List.of("core", "web/api", "cli"), settings.projects());
        assertEquals(List.of("../lib"), settings.includedBuilds());

        GradleCatalog catalog = catalog(
                """
                [versions]
                lang3 = "3.14.0"
                [libraries]
                commons-lang3 = { module = "org.apache.commons:commons-lang3", version.ref = "lang3" }
                guava = "com.google.guava:guava:33.0.0-jre"
                [plugins]
                boot = { id = "org.springframework.boot", version = "3.2.0" }
                """);
        assertEquals(
                Optional.of(new GradleCatalog.Entry("org.apache.commons", "commons-lang3", "3.14.0")),
                catalog.library("commons.lang3"));
        assertEquals("33.0.0-jre", catalog.library("guava").orElseThrow().version());
        assertEquals(
                "org.springframework.boot", catalog.plugin("boot").orElseThrow().group());
    }

    /** Runs {@code org.openrewrite.gradle.UpgradeDependencyVersion} of jspecify to 1.0.0. */
    private JsonNode upgradeJspecify() throws Exception {
        return fixture.run(
                recipe(
                        "test.Upgrade",
                        "org.openrewrite.gradle.UpgradeDependencyVersion:\n  groupId: org.jspecify\n"
                                + "  artifactId: jspecify\n  newVersion: 1.0.0"),
                "test.Upgrade");
    }

    private static final String APP =
            "package com.acme;\n\nimport org.jspecify.annotations.Nullable;\n\nclass App {\n    @Nullable String name;\n}\n";

    @Test
    void aGradleProjectGetsItsModelAndItsClasspathAndGradleRecipesRun() throws Exception {
        Path root = fixture.repo(
                "settings.gradle",
                "rootProject.name = 'shop'\n",
                "build.gradle",
                """
                plugins {
                    id 'java'
                }
                group = 'com.acme'
                repositories {
                    mavenCentral()
                }
                dependencies {
                    implementation 'org.jspecify:jspecify:0.3.0'
                }
                """,
                "src/main/java/com/acme/App.java",
                APP);
        JsonNode parsed = fixture.parse(root);
        JsonNode module = parsed.path("modules").get(0);
        assertEquals("build.gradle", module.path("pom").asText(), parsed.toString());
        assertEquals("com.acme:shop:unspecified", module.path("gav").asText());
        assertEquals(1, module.path("classpath_jars").asInt(), parsed.toString());
        assertEquals(2, parsed.path("files").path("by_kind").path("gradle").asInt(), parsed.toString());

        // The dependency recipes find the marker: a version upgrade and a swap.
        JsonNode upgrade = upgradeJspecify();
        String diff = upgrade.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+    implementation 'org.jspecify:jspecify:1.0.0'"), upgrade.toString());
        JsonNode swap = fixture.run(
                recipe(
                        "test.Swap",
                        "org.openrewrite.gradle.ChangeDependency:\n  oldGroupId: org.jspecify\n"
                                + "  oldArtifactId: jspecify\n  newGroupId: com.google.code.findbugs\n"
                                + "  newArtifactId: jsr305\n  newVersion: 3.0.2"),
                "test.Swap");
        diff = swap.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+    implementation 'com.google.code.findbugs:jsr305:3.0.2'"), swap.toString());

        // The Java sources have the declared dependency's types.
        JsonNode rename = fixture.run(
                recipe(
                        "test.Rename",
                        changeType("org.jspecify.annotations.Nullable", "org.jspecify.annotations.NonNull")),
                "test.Rename");
        diff = rename.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+import org.jspecify.annotations.NonNull;"), rename.toString());
    }

    @Test
    void aKotlinDslMultiProjectBuildWithACatalog() throws Exception {
        Path root = fixture.repo(
                "settings.gradle.kts",
                "rootProject.name = \"shop\"\ninclude(\":core\")\n",
                "gradle/libs.versions.toml",
                "[versions]\njspecify = \"0.3.0\"\n[libraries]\njspecify = { module = \"org.jspecify:jspecify\", "
                        + "version.ref = \"jspecify\" }\n",
                "build.gradle.kts",
                "plugins {\n    java\n}\nallprojects {\n    repositories {\n        mavenCentral()\n    }\n}\n",
                "core/build.gradle.kts",
                "plugins {\n    `java-library`\n}\ndependencies {\n    api(libs.jspecify)\n"
                        + "    implementation(\"org.jspecify:jspecify:0.3.0\")\n}\n",
                "core/src/main/java/com/acme/App.java",
                APP);
        JsonNode parsed = fixture.parse(root);
        JsonNode modules = parsed.path("modules");
        assertEquals(2, modules.size(), parsed.toString());
        JsonNode core = modules.get(1).path("pom").asText().startsWith("core") ? modules.get(1) : modules.get(0);
        assertEquals("core/build.gradle.kts", core.path("pom").asText(), parsed.toString());
        assertEquals(1, core.path("classpath_jars").asInt(), parsed.toString());

        // The Kotlin DSL's dependencies are recognized through the marker's configurations.
        JsonNode upgrade = upgradeJspecify();
        String diff = upgrade.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+    implementation(\"org.jspecify:jspecify:1.0.0\")"), upgrade.toString());
        JsonNode rename = fixture.run(
                recipe(
                        "test.Rename",
                        changeType("org.jspecify.annotations.Nullable", "org.jspecify.annotations.NonNull")),
                "test.Rename");
        assertTrue(
                rename.path("runs").get(0).path("diff").asText().contains("+import org.jspecify.annotations.NonNull;"),
                rename.toString());
    }

    @Test
    void aPluginAppliedThroughACatalogAliasGivesItsVersion() throws Exception {
        // The Kotlin plugin, applied by its catalog alias, gives the Kotlin libraries their version.
        Path root = fixture.repo(
                "settings.gradle.kts",
                "rootProject.name = \"shop\"\n",
                "gradle/libs.versions.toml",
                "[versions]\nkotlin = \"1.9.10\"\n[plugins]\nkotlin-jvm = { id = \"org.jetbrains.kotlin.jvm\", "
                        + "version.ref = \"kotlin\" }\n",
                "build.gradle.kts",
                "plugins {\n    alias(libs.plugins.kotlin.jvm)\n}\nrepositories {\n    mavenCentral()\n}\n"
                        + "dependencies {\n    implementation(\"org.jetbrains.kotlin:kotlin-stdlib\")\n}\n");
        JsonNode parsed = fixture.parse(root);
        // kotlin-stdlib 1.9.10 with kotlin-stdlib-common and the annotations it depends on.
        assertEquals(3, parsed.path("modules").get(0).path("classpath_jars").asInt(), parsed.toString());
        assertEquals("[]", parsed.path("warnings").toString(), parsed.toString());
    }

    @Test
    void aBuildscriptClasspathIsTheBuildscriptsAndItsRecipesRun() throws Exception {
        // Kotlin DSL: no type attribution says `classpath` is a dependency; the marker's buildscript does.
        Path root = fixture.repo(
                "settings.gradle.kts",
                "rootProject.name = \"shop\"\n",
                "build.gradle.kts",
                """
                buildscript {
                    repositories {
                        mavenCentral()
                    }
                    dependencies {
                        classpath("org.jspecify:jspecify:0.3.0")
                    }
                }
                plugins {
                    java
                }
                """);
        JsonNode parsed = fixture.parse(root);
        // The build's own classpath, not the project's.
        assertEquals(0, parsed.path("modules").get(0).path("classpath_jars").asInt(), parsed.toString());
        JsonNode upgrade = upgradeJspecify();
        String diff = upgrade.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+        classpath(\"org.jspecify:jspecify:1.0.0\")"), upgrade.toString());
    }

    @Test
    void aPluginsMarkerIsOnTheBuildscriptClasspathSoSpringBootsManagedVersionsAreKnown() throws Exception {
        // RemoveRedundantDependencyVersions reads Spring Boot's version from its plugin marker on the
        // buildscript's classpath (as Gradle resolves the plugins block), then its BOM's versions
        // (whose Jackson BOM's parent holds a bnd macro with a placeholder inside a placeholder).
        Path root = fixture.repo(
                "settings.gradle",
                "rootProject.name = 'shop'\n",
                "build.gradle",
                """
                plugins {
                    id 'org.springframework.boot' version '2.6.7'
                    id 'io.spring.dependency-management' version '1.0.11.RELEASE'
                    id 'java'
                }
                repositories {
                    mavenCentral()
                }
                dependencies {
                    implementation 'com.google.code.gson:gson:2.8.9'
                    implementation 'org.jspecify:jspecify:0.3.0'
                }
                """);
        fixture.parse(root);
        JsonNode removed = fixture.run(
                recipe(
                        "test.Managed",
                        "org.openrewrite.gradle.RemoveRedundantDependencyVersions:\n"
                                + "  groupPattern: com.google.code.gson\n  artifactPattern: gson\n"
                                + "  onlyIfManagedVersionIs: GTE"),
                "test.Managed");
        String diff = removed.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+    implementation 'com.google.code.gson:gson'\n"), removed.toString());
        // Only the dependency the patterns name: jspecify keeps its version (Boot does not manage it).
        assertFalse(diff.contains("-    implementation 'org.jspecify"), removed.toString());
    }

    @Test
    void whatAStaticReadCannotSeeIsAWarning() throws Exception {
        Path root = fixture.repo(
                "settings.gradle",
                "includeBuild 'tools'\n",
                "build.gradle",
                "plugins { id 'java' }\nrepositories { mavenCentral() }\n"
                        + "dependencies {\n    implementation \"org.jspecify:jspecify:${computeVersion()}\"\n}\n",
                "buildSrc/build.gradle",
                "plugins { id 'groovy-gradle-plugin' }\n");
        JsonNode parsed = fixture.parse(root);
        String warnings = parsed.path("warnings").toString();
        assertTrue(warnings.contains("included build tools is not read"), warnings);
        assertTrue(warnings.contains("buildSrc is not read"), warnings);
        assertTrue(warnings.contains("org.jspecify:jspecify"), warnings);
        assertEquals(0, parsed.path("unparsed").size(), parsed.toString());
    }
}
