package rewriteassist.runner.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;
import rewriteassist.runner.common.Jackson;

/**
 * {@code compile_templates}: Refaster templates compiled into a recipe jar with rewrite-templating's
 * processor, and that jar's recipes run by a {@code run} request like any other recipe.
 */
class TemplatesTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    private static final String TEMPLATE =
            """
            package org.example.templates;

            import com.google.errorprone.refaster.annotation.AfterTemplate;
            import com.google.errorprone.refaster.annotation.BeforeTemplate;
            import org.openrewrite.java.template.RecipeDescriptor;

            @RecipeDescriptor(name = "Hamcrest to AssertJ (learned)", description = "Learned from a pull request.")
            public class HamcrestToAssertJ {
                @RecipeDescriptor(name = "`assertThat(a, is(e))` to `assertThat(a).isEqualTo(e)`",
                        description = "Replaces Hamcrest's `is` assertion with AssertJ's `isEqualTo`.")
                public static class AssertThatIs<T> {
                    @BeforeTemplate
                    void before(T actual, T expected) {
                        org.hamcrest.MatcherAssert.assertThat(actual, org.hamcrest.Matchers.is(expected));
                    }

                    @AfterTemplate
                    void after(T actual, T expected) {
                        org.assertj.core.api.Assertions.assertThat(actual).isEqualTo(expected);
                    }
                }
            }
            """;

    private static final String POM =
            """
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <groupId>com.acme</groupId>
              <artifactId>shop</artifactId>
              <version>1.0</version>
              <properties><maven.compiler.release>17</maven.compiler.release></properties>
              <dependencies>
                <dependency><groupId>org.hamcrest</groupId><artifactId>hamcrest</artifactId><version>2.2</version><scope>test</scope></dependency>
                <dependency><groupId>org.assertj</groupId><artifactId>assertj-core</artifactId><version>3.27.7</version><scope>test</scope></dependency>
                <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
              </dependencies>
            </project>
            """;

    private static final String CART_TEST =
            """
            package com.acme;

            import static org.hamcrest.MatcherAssert.assertThat;
            import static org.hamcrest.Matchers.is;
            import static org.hamcrest.Matchers.not;

            import java.util.List;

            class CartTest {
                void total(List<String> items, String name) {
                    assertThat(items.size(), is(2));
                    assertThat(name, not("x"));
                }
            }
            """;

    private static final String RECIPES = "org.example.templates.HamcrestToAssertJRecipes";

    /** A jar of the local repository, where the parse of {@link #POM} fetched it. */
    private static Path jar(String group, String artifact, String version) {
        Path jar = Fixture.localRepository()
                .resolve(group.replace('.', '/'))
                .resolve(artifact)
                .resolve(version)
                .resolve(artifact + "-" + version + ".jar");
        assertTrue(Files.isRegularFile(jar), jar + " was not fetched by the parse");
        return jar;
    }

    private ObjectNode compileRequest(String file, String source) {
        ObjectNode request = Jackson.MAPPER.createObjectNode();
        request.put("protocol", 1);
        String id = "compile-" + Path.of(file).getFileName().toString().replace(".java", "");
        request.put("id", id);
        request.put("type", "compile_templates");
        request.put("output", fixture.dir().resolve(id + ".json").toString());
        request.putObject("sources").put(file, source);
        request.put("directory", fixture.dir().resolve("learned").toString());
        request.put("coordinates", "org.example.learned:learned-recipes:0.1.0");
        return request;
    }

    @Test
    void aLearnedTemplateBecomesARecipeThatRuns() throws Exception {
        fixture.parse(fixture.repo("pom.xml", POM, "src/test/java/com/acme/CartTest.java", CART_TEST));
        Path hamcrest = jar("org.hamcrest", "hamcrest", "2.2");
        Path assertj = jar("org.assertj", "assertj-core", "3.27.7");
        Path junit = jar("junit", "junit", "4.13.2");
        ObjectNode compile = compileRequest("org/example/templates/HamcrestToAssertJ.java", TEMPLATE);
        var libraries = compile.putArray("libraries");
        libraries.addObject().put("jar", hamcrest.toString()).put("coordinates", "org.hamcrest:hamcrest:2.2");
        libraries.addObject().put("jar", assertj.toString()).put("coordinates", "org.assertj:assertj-core:3.27.7");
        libraries.addObject().put("jar", junit.toString()).put("coordinates", "junit:junit:4.13.2");
        JsonNode compiled = fixture.send(compile);

        assertTrue(compiled.path("ok").asBoolean(), compiled.toString());
        assertEquals("[]", compiled.path("errors").toString(), compiled.toString());
        assertEquals(
                "[\"" + RECIPES + "\",\"" + RECIPES + "$AssertThatIsRecipe\"]",
                compiled.path("recipes").toString());
        JsonNode template = compiled.path("templates").get(0);
        assertEquals(
                "org.example.templates.HamcrestToAssertJ.AssertThatIs",
                template.path("name").asText());
        assertEquals(RECIPES + "$AssertThatIsRecipe", template.path("recipe").asText());
        assertTrue(template.path("refused").isNull(), template.toString());
        Path jar = Path.of(compiled.path("jar").asText());
        assertEquals("learned-recipes-0.1.0.jar", jar.getFileName().toString());
        try (JarFile entries = new JarFile(jar.toFile())) {
            assertNotNull(entries.getEntry("org/example/templates/HamcrestToAssertJ.java"), "the template's source");
            assertNotNull(entries.getEntry("org/example/templates/HamcrestToAssertJRecipes$AssertThatIsRecipe.class"));
        }
        // The POM declares what the recipes need at run time, and not a library the templates do not use.
        String pom = Files.readString(Path.of(compiled.path("pom").asText()));
        assertTrue(pom.contains("<artifactId>learned-recipes</artifactId>"), pom);
        assertTrue(pom.contains("<artifactId>hamcrest</artifactId>"), pom);
        assertTrue(pom.contains("<artifactId>assertj-core</artifactId>"), pom);
        assertTrue(pom.contains("<artifactId>rewrite-templating</artifactId>"), pom);
        assertFalse(pom.contains("junit"), pom);

        // Named by a recipe file, and alone by its name: the learned recipe rewrites the `is`
        // assertion and leaves the `not` one alone.
        for (ObjectNode run : new ObjectNode[] {
            fixture.runRequest(Fixture.recipe("test.Learned", RECIPES), "test.Learned", true),
            fixture.runRequest("", RECIPES, true)
        }) {
            ObjectNode learned = run.putObject("learned");
            learned.putArray("jars").add(jar.toString());
            learned.putArray("libraries").add(hamcrest.toString()).add(assertj.toString());
            JsonNode results = fixture.send(run);
            assertTrue(results.path("ok").asBoolean(), results.toString());
            JsonNode whole = results.path("runs").get(results.path("runs").size() - 1);
            String diff = whole.path("diff").asText();
            assertTrue(whole.path("error").isNull(), whole.toString());
            assertTrue(diff.contains("+        Assertions.assertThat(items.size()).isEqualTo(2);"), diff);
            assertTrue(diff.contains("+import org.assertj.core.api.Assertions;"), diff);
            assertFalse(diff.contains("-        assertThat(name, not(\"x\"));"), diff);
        }
        assertEquals(
                Thread.currentThread().getContextClassLoader(),
                TemplatesTest.class.getClassLoader(),
                "the context class loader is put back after the run");
    }

    @Test
    void aTemplateTheProcessorRefusesIsNamedWithItsReason() throws Exception {
        String source =
                """
                package org.example.templates;

                import com.google.errorprone.refaster.annotation.AfterTemplate;
                import com.google.errorprone.refaster.annotation.BeforeTemplate;

                public class Emptiness {
                    public static class GenericList {
                        @BeforeTemplate
                        <T> boolean before(java.util.List<T> list) {
                            return list.size() == 0;
                        }

                        @AfterTemplate
                        <T> boolean after(java.util.List<T> list) {
                            return list.isEmpty();
                        }
                    }

                    public static class StringLength {
                        @BeforeTemplate
                        boolean before(String s) {
                            return s.length() == 0;
                        }

                        @AfterTemplate
                        boolean after(String s) {
                            return s.isEmpty();
                        }
                    }
                }
                """;
        JsonNode compiled = fixture.send(compileRequest("org/example/templates/Emptiness.java", source));
        assertTrue(compiled.path("ok").asBoolean(), compiled.toString());
        JsonNode refused = compiled.path("templates").get(0);
        assertEquals(
                "org.example.templates.Emptiness.GenericList",
                refused.path("name").asText(),
                compiled.toString());
        assertTrue(refused.path("recipe").isNull(), refused.toString());
        assertTrue(
                refused.path("refused").asText().contains("Generic type parameters are only allowed at class level"),
                refused.toString());
        JsonNode kept = compiled.path("templates").get(1);
        assertEquals(
                "org.example.templates.EmptinessRecipes$StringLengthRecipe",
                kept.path("recipe").asText());
        assertFalse(compiled.path("recipes").toString().contains("GenericList"), compiled.toString());
    }

    @Test
    void aTemplateThatDoesNotCompileIsReportedNotThrown() throws Exception {
        String source =
                """
                package org.example.templates;

                import com.google.errorprone.refaster.annotation.AfterTemplate;
                import com.google.errorprone.refaster.annotation.BeforeTemplate;

                public class Broken {
                    @BeforeTemplate
                    boolean before(String s) {
                        return s.lengthOf() == 0;
                    }

                    @AfterTemplate
                    boolean after(String s) {
                        return s.isEmpty();
                    }
                }
                """;
        JsonNode compiled = fixture.send(compileRequest("org/example/templates/Broken.java", source));
        assertTrue(compiled.path("ok").asBoolean(), compiled.toString());
        assertTrue(compiled.path("jar").isNull(), compiled.toString());
        assertEquals("[]", compiled.path("recipes").toString());
        String error = compiled.path("errors").get(0).asText();
        assertTrue(error.startsWith("org/example/templates/Broken.java:9: cannot find symbol"), compiled.toString());
        JsonNode template = compiled.path("templates").path(0);
        assertEquals("org.example.templates.Broken", template.path("name").asText(), compiled.toString());
        assertTrue(template.path("recipe").isNull(), compiled.toString());
        assertFalse(template.path("refused").asText().isEmpty(), compiled.toString());
    }
}
