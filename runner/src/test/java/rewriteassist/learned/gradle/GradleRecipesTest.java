package rewriteassist.learned.gradle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.Recipe;
import org.openrewrite.SourceFile;
import org.openrewrite.gradle.GradleParser;
import org.openrewrite.internal.InMemoryLargeSourceSet;

/** The learned jar's Gradle recipes on real parses of Groovy and Kotlin build scripts. */
class GradleRecipesTest {
    /** {@code text} as {@code recipe} leaves it, parsed and printed by OpenRewrite. */
    private static String run(Recipe recipe, String path, String text) {
        InMemoryExecutionContext ctx = new InMemoryExecutionContext(e -> {
            throw new AssertionError(e);
        });
        List<SourceFile> trees = GradleParser.builder()
                .build()
                .parseInputs(List.of(Parser.Input.fromString(Path.of(path), text)), null, ctx)
                .toList();
        assertEquals(text, trees.get(0).printAll(), "the parse prints the script back");
        var results = recipe.run(new InMemoryLargeSourceSet(trees), ctx)
                .getChangeset()
                .getAllResults();
        return results.isEmpty() ? text : results.get(0).getAfter().printAll();
    }

    @Test
    void aPropertyIsSetWhereverTheScriptNestsItAndNothingElseChanges() {
        String script =
                """
                compileJava {
                    sourceCompatibility = '1.8'
                }
                compileKotlin {
                    kotlinOptions.jvmTarget = '1.8'
                }
                compileTestKotlin {
                    kotlinOptions {
                        jvmTarget = "1.8"
                    }
                }
                ext.jvmTargetNote = '1.8'
                """;
        String after = run(new ChangeGradlePropertyValue("jvmTarget", "17", null), "build.gradle", script);
        assertEquals(
                script.replace("jvmTarget = '1.8'", "jvmTarget = '17'")
                        .replace("jvmTarget = \"1.8\"", "jvmTarget = \"17\""),
                after);
        // A longer name must match the blocks too; an old value must match.
        assertEquals(
                script.replace("kotlinOptions.jvmTarget = '1.8'", "kotlinOptions.jvmTarget = '11'"),
                run(
                        new ChangeGradlePropertyValue("compileKotlin.kotlinOptions.jvmTarget", "11", "1.8"),
                        "build.gradle",
                        script));
        assertEquals(script, run(new ChangeGradlePropertyValue("jvmTarget", "17", "11"), "build.gradle", script));
    }

    @Test
    void aKotlinScriptsPropertyToo() {
        String script =
                """
                tasks.withType<org.jetbrains.kotlin.gradle.tasks.KotlinCompile> {
                    kotlinOptions {
                        jvmTarget = "11"
                    }
                }
                """;
        assertEquals(
                script.replace("\"11\"", "\"17\""),
                run(new ChangeGradlePropertyValue("kotlinOptions.jvmTarget", "17", null), "build.gradle.kts", script));
    }

    @Test
    void oneDependencysVersionGoesAndTheSameCoordinatesElsewhereStay() {
        String script =
                """
                dependencies {
                    implementation 'org.springframework.boot:spring-boot-starter-web:2.6.7'
                    testImplementation "org.springframework.boot:spring-boot-starter-web:2.6.7"
                    implementation group: 'org.springframework.boot', name: 'spring-boot-starter-actuator', version: '2.6.7'
                    compileOnly 'org.projectlombok:lombok:1.18.24'
                    annotationProcessor 'org.projectlombok:lombok:1.18.24'
                    implementation 'org.springframework.boot:spring-boot-starter-web:2.6.7:tests'
                }
                """;
        String web = run(
                new RemoveGradleDependencyVersion(
                        "org.springframework.boot", "spring-boot-starter-web", "implementation"),
                "build.gradle",
                script);
        assertEquals(
                script.replace(
                        "implementation 'org.springframework.boot:spring-boot-starter-web:2.6.7'\n",
                        "implementation 'org.springframework.boot:spring-boot-starter-web'\n"),
                web);
        String actuator = run(
                new RemoveGradleDependencyVersion("org.springframework.boot", "spring-boot-starter-actuator", null),
                "build.gradle",
                script);
        assertEquals(script.replace(", version: '2.6.7'", ""), actuator);
        String lombok = run(
                new RemoveGradleDependencyVersion("org.projectlombok", "lombok", "compileOnly"),
                "build.gradle",
                script);
        assertEquals(
                script.replace(
                        "compileOnly 'org.projectlombok:lombok:1.18.24'", "compileOnly 'org.projectlombok:lombok'"),
                lombok);
    }

    @Test
    void aKotlinScriptsDependencyVersionToo() {
        String script =
                """
                dependencies {
                    implementation("org.springframework.boot:spring-boot-starter-web:2.6.7")
                    runtimeOnly("org.postgresql:postgresql:42.7.3")
                }
                """;
        assertEquals(
                script.replace("starter-web:2.6.7", "starter-web"),
                run(
                        new RemoveGradleDependencyVersion("org.springframework.boot", "spring-boot-starter-web", null),
                        "build.gradle.kts",
                        script));
    }
}
