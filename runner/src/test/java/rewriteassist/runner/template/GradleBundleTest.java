package rewriteassist.runner.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.Recipe;
import org.openrewrite.SourceFile;
import org.openrewrite.gradle.GradleParser;
import org.openrewrite.internal.InMemoryLargeSourceSet;
import org.openrewrite.internal.RecipeLoader;
import rewriteassist.runner.Fixture;

/**
 * {@code learn_templates} with {@code gradle_recipes}: the Gradle recipes travel in the learned jar,
 * with their sources and rewrite-gradle in the POM, and run from the jar alone.
 */
class GradleBundleTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    private static final String SCRIPT =
            """
            plugins { id 'java' }
            dependencies {
                implementation 'org.springframework.boot:spring-boot-starter-web:2.6.7'
                compileOnly 'org.projectlombok:lombok:1.18.24'
                annotationProcessor 'org.projectlombok:lombok:1.18.24'
            }
            """;

    private ObjectNode request(String id, boolean gradle) {
        ObjectNode request = LearnTemplatesTest.learnRequest(fixture, id);
        request.put("gradle_recipes", gradle);
        return request;
    }

    @Test
    void aRecipeListNamesTheGradleRecipesWithTheirOptionsAsAnyRecipe() throws Exception {
        fixture.parse(fixture.repo("build.gradle", SCRIPT, "settings.gradle", "rootProject.name = 'shop'\n"));
        JsonNode results = fixture.run(
                Fixture.recipe(
                        "com.acme.Learned",
                        "rewriteassist.learned.gradle.RemoveGradleDependencyVersion:\n  groupId: org.projectlombok\n"
                                + "  artifactId: lombok\n  configuration: compileOnly"),
                "com.acme.Learned");
        JsonNode whole = results.path("runs").get(results.path("runs").size() - 1);
        assertTrue(whole.path("error").isNull(), whole.toString());
        String diff = whole.path("diff").asText();
        assertTrue(diff.contains("+    compileOnly 'org.projectlombok:lombok'\n"), diff);
        assertTrue(!diff.contains("-    annotationProcessor"), diff);
    }

    @Test
    void withoutATemplateTheJarHoldsTheGradleRecipesAndTheirSourcesAndRunsOnItsOwn() throws Exception {
        fixture.parse(fixture.repo("build.gradle", SCRIPT, "settings.gradle", "rootProject.name = 'shop'\n"));
        JsonNode none = fixture.send(request("learn-none", false));
        assertTrue(none.path("ok").asBoolean(), none.toString());
        assertTrue(none.path("jar").isNull(), none.toString());

        JsonNode learned = fixture.send(request("learn-gradle", true));
        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        assertTrue(learned.path("recipe").isNull(), learned.toString());
        Path jar = Path.of(learned.path("jar").asText());
        try (JarFile file = new JarFile(jar.toFile())) {
            for (String name : List.of("RemoveGradleDependencyVersion", "ChangeGradlePropertyValue")) {
                String entry = "rewriteassist/learned/gradle/" + name;
                assertTrue(file.getEntry(entry + ".class") != null, entry);
                assertTrue(file.getEntry(entry + ".java") != null, entry);
            }
        }
        String pom = Files.readString(Path.of(learned.path("pom").asText()));
        assertTrue(pom.contains("<artifactId>rewrite-gradle</artifactId>"), pom);

        // Loaded from the jar by a loader that does not see the runner's own copy of the classes:
        // all the recipe needs is OpenRewrite, as in a build plugin.
        ClassLoader withoutRunner = new ClassLoader(getClass().getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.startsWith("rewriteassist.")) {
                    throw new ClassNotFoundException(name);
                }
                return super.loadClass(name, resolve);
            }
        };
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, withoutRunner)) {
            String name = "rewriteassist.learned.gradle.RemoveGradleDependencyVersion";
            assertEquals(loader, loader.loadClass(name).getClassLoader());
            // As a plugin loads a recipe list's entry: options by the constructor's parameter names.
            Recipe recipe = new RecipeLoader(loader)
                    .load(
                            name,
                            Map.of(
                                    "groupId",
                                    "org.projectlombok",
                                    "artifactId",
                                    "lombok",
                                    "configuration",
                                    "compileOnly"));
            assertEquals(loader, recipe.getClass().getClassLoader());
            InMemoryExecutionContext ctx = new InMemoryExecutionContext(e -> {
                throw new AssertionError(e);
            });
            List<SourceFile> trees = GradleParser.builder()
                    .build()
                    .parseInputs(List.of(Parser.Input.fromString(Path.of("build.gradle"), SCRIPT)), null, ctx)
                    .toList();
            String after = recipe.run(new InMemoryLargeSourceSet(trees), ctx)
                    .getChangeset()
                    .getAllResults()
                    .get(0)
                    .getAfter()
                    .printAll();
            assertEquals(
                    SCRIPT.replace(
                            "compileOnly 'org.projectlombok:lombok:1.18.24'", "compileOnly 'org.projectlombok:lombok'"),
                    after);
        }
    }
}
