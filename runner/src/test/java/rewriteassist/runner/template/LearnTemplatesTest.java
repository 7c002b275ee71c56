package rewriteassist.runner.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;
import rewriteassist.runner.common.Jackson;

/**
 * {@code learn_templates}: templates learned from a PR's repeated edits over the parsed base,
 * compiled, checked on the base, and run like any learned recipe.
 */
class LearnTemplatesTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

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

    private static final String CART = "src/test/java/com/acme/CartTest.java";
    private static final String COUNT = "src/test/java/com/acme/CountTest.java";
    private static final String OTHER = "src/test/java/com/acme/OtherTest.java";

    /** Lines 8 and 9 are the PR's edits; {@code %s} is an extra line 10 (or none). */
    private static final String CART_TEST =
            """
            package com.acme;

            import static org.hamcrest.MatcherAssert.assertThat;
            import static org.hamcrest.Matchers.is;

            class CartTest {
                void names(String name, String other, int count) {
                    assertThat(name, is("x"));
                    assertThat(other.trim(), is(name));
            %s    }
            }
            """;

    private static final String CART_HEAD =
            """
            package com.acme;

            import static org.assertj.core.api.Assertions.assertThat;

            class CartTest {
                void names(String name, String other, int count) {
                    assertThat(name).isEqualTo("x");
                    assertThat(other.trim()).isEqualTo(name);
                }
            }
            """;

    /** Line 10 is the PR's edit. */
    private static final String COUNT_TEST =
            """
            package com.acme;

            import static org.hamcrest.MatcherAssert.assertThat;
            import static org.hamcrest.Matchers.is;

            import java.util.List;

            class CountTest {
                void count(List<String> items) {
                    assertThat(items.size(), is(2));
                }
            }
            """;

    private static final String COUNT_HEAD =
            """
            package com.acme;

            import static org.assertj.core.api.Assertions.assertThat;

            import java.util.List;

            class CountTest {
                void count(List<String> items) {
                    assertThat(items.size()).isEqualTo(2);
                }
            }
            """;

    /** A file the PR did not edit, with one more occurrence of the shape (line 9) and another assertion. */
    private static final String OTHER_TEST =
            """
            package com.acme;

            import static org.hamcrest.MatcherAssert.assertThat;
            import static org.hamcrest.Matchers.is;
            import static org.hamcrest.Matchers.not;

            class OtherTest {
                void other(long total, String label) {
                    assertThat(total, is(3L));
                    assertThat(label, not("y"));
                }
            }
            """;

    private Path hamcrestToAssertJ(String extraCartLine) throws Exception {
        return fixture.repo(
                "pom.xml", POM, CART, CART_TEST.formatted(extraCartLine), COUNT, COUNT_TEST, OTHER, OTHER_TEST);
    }

    private ObjectNode learnRequest(String id) {
        return learnRequest(fixture, id);
    }

    /** A {@code learn_templates} request with no edits, into {@code fixture}'s directory. */
    static ObjectNode learnRequest(Fixture fixture, String id) {
        ObjectNode request = Jackson.MAPPER.createObjectNode();
        request.put("protocol", 1);
        request.put("id", id);
        request.put("type", "learn_templates");
        request.put("output", fixture.dir().resolve(id + ".json").toString());
        request.putArray("edits");
        request.putObject("head_files");
        request.put("package", "rewriteassist.learned");
        request.put("class", "LearnedTemplates");
        request.put("directory", fixture.dir().resolve("learned").toString());
        request.put("coordinates", "rewriteassist.learned:learned-recipes:0.1.0");
        request.put("min_occurrences", 2);
        return request;
    }

    private static void edit(ObjectNode request, String path, int start, int end, String after) {
        ((ArrayNode) request.get("edits"))
                .addObject()
                .put("path", path)
                .put("before_start", start)
                .put("before_end", end)
                .put("after", after);
    }

    /** The PR: both assertions of CartTest (Strings) and the one of CountTest (an int) to AssertJ. */
    private ObjectNode hamcrestEdits(String id) {
        ObjectNode request = learnRequest(id);
        edit(
                request,
                CART,
                8,
                9,
                "        assertThat(name).isEqualTo(\"x\");\n        assertThat(other.trim()).isEqualTo(name);\n");
        edit(request, COUNT, 10, 10, "        assertThat(items.size()).isEqualTo(2);\n");
        ((ObjectNode) request.get("head_files")).put(CART, CART_HEAD).put(COUNT, COUNT_HEAD);
        return request;
    }

    private static Path jar(String group, String artifact, String version) {
        return Fixture.localRepository()
                .resolve(group.replace('.', '/'))
                .resolve(artifact)
                .resolve(version)
                .resolve(artifact + "-" + version + ".jar");
    }

    @Test
    void repeatedEditsBecomeOneTemplateWhoseRecipeRewritesAnUnseenOccurrence() throws Exception {
        fixture.parse(hamcrestToAssertJ(""));
        JsonNode learned = fixture.send(hamcrestEdits("learn-1"));

        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        assertEquals(1, learned.path("templates").size(), learned.toString());
        JsonNode template = learned.path("templates").get(0);
        // The keys the Rust side reads, in the spec's order.
        assertEquals(
                List.of(
                        "protocol",
                        "id",
                        "ok",
                        "seconds",
                        "templates",
                        "refused",
                        "source",
                        "jar",
                        "pom",
                        "recipe",
                        "libraries",
                        "warnings"),
                keys(learned));
        assertEquals(
                List.of("name", "recipe", "parameters", "before", "after", "occurrences", "matches"), keys(template));
        assertEquals(
                "[\"org.hamcrest.MatcherAssert.assertThat(" + parameter(template, 0) + ", org.hamcrest.Matchers.is("
                        + parameter(template, 1) + "));\"]",
                template.path("before").toString(),
                template.toString());
        assertEquals(
                "assertThat(" + parameter(template, 0) + ").isEqualTo(" + parameter(template, 1) + ");",
                template.path("after").asText(),
                template.toString());
        // Two parameters, each a String in one file and an int in the other: a class type parameter.
        assertEquals(2, template.path("parameters").size(), template.toString());
        for (JsonNode parameter : template.path("parameters")) {
            assertEquals("T", parameter.path("type").asText(), template.toString());
        }
        assertEquals(
                "[{\"path\":\"" + CART + "\",\"line\":8},{\"path\":\"" + CART + "\",\"line\":9}," + "{\"path\":\""
                        + COUNT + "\",\"line\":10}]",
                template.path("occurrences").toString());
        // The check on the base found the occurrence in the file the PR did not edit.
        assertEquals(
                "[{\"path\":\"" + OTHER + "\",\"line\":9}]",
                template.path("matches").toString());
        assertEquals("[]", learned.path("refused").toString(), learned.toString());
        // The head files import AssertJ's assertThat statically: the templates, then the static import.
        assertEquals(
                "rewriteassist.learned.LearnedTemplates$WithStaticImports",
                learned.path("recipe").asText());
        assertEquals(
                "rewriteassist.learned.LearnedTemplatesRecipes$"
                        + template.path("name").asText().substring("rewriteassist.learned.LearnedTemplates.".length())
                        + "Recipe",
                template.path("recipe").asText());
        assertEquals(
                "rewriteassist/learned/LearnedTemplates.java",
                learned.path("source").path("file").asText());
        String source = learned.path("source").path("text").asText();
        assertTrue(source.contains("import static org.assertj.core.api.Assertions.assertThat;"), source);
        assertFalse(source.contains("import static org.hamcrest"), source);
        Path jar = Path.of(learned.path("jar").asText());
        assertTrue(Files.isRegularFile(jar), learned.toString());
        // The request named no libraries: the source set's jars, with coordinates from their paths.
        String pom = Files.readString(Path.of(learned.path("pom").asText()));
        assertTrue(pom.contains("<artifactId>hamcrest</artifactId>"), pom);
        assertTrue(pom.contains("<artifactId>assertj-core</artifactId>"), pom);
        assertFalse(pom.contains("<artifactId>junit</artifactId>"), pom);

        // The learned jar, run as a `run` request's `learned`, rewrites the file the PR did not edit.
        ObjectNode run = fixture.runRequest("", learned.path("recipe").asText(), false);
        ObjectNode jars = run.putObject("learned");
        jars.putArray("jars").add(jar.toString());
        jars.putArray("libraries")
                .add(jar("org.hamcrest", "hamcrest", "2.2").toString())
                .add(jar("org.assertj", "assertj-core", "3.27.7").toString());
        JsonNode results = fixture.send(run);
        assertTrue(results.path("ok").asBoolean(), results.toString());
        JsonNode whole = results.path("runs").get(results.path("runs").size() - 1);
        assertTrue(whole.path("error").isNull(), whole.toString());
        String diff = whole.path("diff").asText();
        String other = diff.substring(diff.indexOf("--- a/" + OTHER));
        other = other.contains("\ndiff --git") ? other.substring(0, other.indexOf("\ndiff --git")) : other;
        assertTrue(other.contains("-        assertThat(total, is(3L));"), diff);
        assertTrue(other.contains("isEqualTo(3L);"), diff);
        assertFalse(other.contains("-        assertThat(label, not(\"y\"));"), diff);
    }

    @Test
    void anAfterCallingAStaticallyImportedMethodIsWrittenWithTheStaticImport() throws Exception {
        fixture.parse(hamcrestToAssertJ(""));
        JsonNode learned = fixture.send(hamcrestEdits("learn-static"));
        String source = learned.path("source").path("text").asText();
        // The head files import AssertJ's assertThat statically: the recipe the results name runs the
        // templates, then OpenRewrite's UseStaticImport for it.
        assertTrue(
                source.contains(
                        "new org.openrewrite.java.UseStaticImport(\"org.assertj.core.api.Assertions assertThat(..)\")"),
                source);
        assertEquals(
                "rewriteassist.learned.LearnedTemplates$WithStaticImports",
                learned.path("recipe").asText());
        // Run on the base, the recipe writes the PR's own lines: AssertJ's assertThat imported
        // statically, as the author wrote it, not `Assertions.assertThat`.
        ObjectNode run = fixture.runRequest("", learned.path("recipe").asText(), false);
        ObjectNode jars = run.putObject("learned");
        jars.putArray("jars").add(learned.path("jar").asText());
        ArrayNode libraries = jars.putArray("libraries");
        learned.path("libraries").forEach(library -> libraries.add(library.asText()));
        JsonNode results = fixture.send(run);
        String diff = results.path("runs")
                .get(results.path("runs").size() - 1)
                .path("diff")
                .asText();
        assertTrue(diff.contains("+        assertThat(items.size()).isEqualTo(2);"), diff);
        assertTrue(diff.contains("+import static org.assertj.core.api.Assertions.assertThat;"), diff);
        assertFalse(diff.contains("+        Assertions.assertThat(name)"), diff);
        // Where Hamcrest's assertThat stays imported (the file keeps a `not` assertion), a static
        // import of AssertJ's would clash: the call stays qualified there.
        assertTrue(diff.contains("+        Assertions.assertThat(total).isEqualTo(3L);"), diff);
    }

    private static List<String> keys(JsonNode object) {
        List<String> keys = new ArrayList<>();
        object.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    private static String parameter(JsonNode template, int index) {
        return template.path("parameters").get(index).path("name").asText();
    }

    @Test
    void occurrencesThatShareOnlyLiteralsAreRefused() throws Exception {
        String settings =
                """
                package com.acme;

                class Settings {
                    int first() {
                        int timeout = 10;
                        return timeout;
                    }

                    int second() {
                        int timeout = 10;
                        return timeout;
                    }
                }
                """;
        String path = "src/main/java/com/acme/Settings.java";
        fixture.parse(fixture.repo("pom.xml", POM, path, settings));
        ObjectNode request = learnRequest("learn-literals");
        edit(request, path, 5, 5, "        int timeout = 20;\n");
        edit(request, path, 10, 10, "        int timeout = 20;\n");
        ((ObjectNode) request.get("head_files")).put(path, settings.replace("10;", "20;"));
        JsonNode learned = fixture.send(request);

        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        assertEquals("[]", learned.path("templates").toString(), learned.toString());
        assertEquals(1, learned.path("refused").size(), learned.toString());
        JsonNode refused = learned.path("refused").get(0);
        assertEquals(
                "its occurrences share nothing but literals",
                refused.path("reason").asText());
        assertEquals(
                "[{\"path\":\"" + path + "\",\"line\":5},{\"path\":\"" + path + "\",\"line\":10}]",
                refused.path("occurrences").toString());
        assertTrue(learned.path("jar").isNull(), learned.toString());
        assertTrue(learned.path("source").isNull(), learned.toString());
        assertFalse(Files.exists(fixture.dir().resolve("learned/learned-recipes-0.1.0.jar")));
    }

    @Test
    void aTemplateThatWouldChangeALineThePrLeftAloneIsRefused() throws Exception {
        // CartTest keeps `assertThat(count, is(1))` on line 10: the PR did not rewrite it.
        fixture.parse(hamcrestToAssertJ("        assertThat(count, is(1));\n"));
        JsonNode learned = fixture.send(hamcrestEdits("learn-left-alone"));

        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        assertEquals("[]", learned.path("templates").toString(), learned.toString());
        assertEquals(1, learned.path("refused").size(), learned.toString());
        JsonNode refused = learned.path("refused").get(0);
        assertEquals(
                "it would change " + CART + ":10, which the PR left as it was",
                refused.path("reason").asText(),
                refused.toString());
        assertEquals(3, refused.path("occurrences").size(), refused.toString());
        assertTrue(learned.path("jar").isNull(), learned.toString());
    }

    @Test
    void statementsThatDifferInOneSubExpressionBecomeAnExpressionTemplate() throws Exception {
        String names =
                """
                package com.acme;

                import java.util.List;

                class Names {
                    boolean none(List<String> names) {
                        boolean empty = names.size() == 0;
                        return empty;
                    }

                    boolean noOthers(List<String> others) {
                        boolean empty = others.size() == 0;
                        return empty;
                    }
                }
                """;
        String path = "src/main/java/com/acme/Names.java";
        fixture.parse(fixture.repo("pom.xml", POM, path, names));
        ObjectNode request = learnRequest("learn-expression");
        edit(request, path, 7, 7, "        boolean empty = names.isEmpty();\n");
        edit(request, path, 12, 12, "        boolean empty = others.isEmpty();\n");
        ((ObjectNode) request.get("head_files")).put(path, names.replace("size() == 0", "isEmpty()"));
        JsonNode learned = fixture.send(request);

        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        assertEquals(1, learned.path("templates").size(), learned.toString());
        JsonNode template = learned.path("templates").get(0);
        String list = parameter(template, 0);
        assertEquals("[\"" + list + ".size() == 0\"]", template.path("before").toString(), template.toString());
        assertEquals(list + ".isEmpty()", template.path("after").asText(), template.toString());
        assertEquals(
                "java.util.List<java.lang.String>",
                template.path("parameters").get(0).path("type").asText(),
                template.toString());
        String source = learned.path("source").path("text").asText();
        assertTrue(source.contains("boolean before(java.util.List<java.lang.String> " + list + ")"), source);
        assertTrue(source.contains("return " + list + ".isEmpty();"), source);
        assertEquals("[]", learned.path("warnings").toString(), "its recipe rewrites the lines it was learned from");
    }

    @Test
    void twoFormsOfOneCallRewrittenAlikeBecomeOneTemplateWithTwoBefores() throws Exception {
        String matchers =
                """
                package com.acme;

                import static org.hamcrest.MatcherAssert.assertThat;
                import static org.hamcrest.Matchers.is;

                class MatchersTest {
                    void check(String name, int count) {
                        assertThat(name, is("x"));
                        assertThat(count, is(2));
                    }
                }
                """;
        String core =
                """
                package com.acme;

                import static org.hamcrest.CoreMatchers.is;
                import static org.hamcrest.MatcherAssert.assertThat;

                class CoreTest {
                    void check(String label, long total) {
                        assertThat(label, is("y"));
                        assertThat(total, is(3L));
                    }
                }
                """;
        String matchersPath = "src/test/java/com/acme/MatchersTest.java";
        String corePath = "src/test/java/com/acme/CoreTest.java";
        fixture.parse(fixture.repo("pom.xml", POM, matchersPath, matchers, corePath, core));
        ObjectNode request = learnRequest("learn-forms");
        edit(
                request,
                matchersPath,
                8,
                9,
                "        assertThat(name).isEqualTo(\"x\");\n        assertThat(count).isEqualTo(2);\n");
        edit(
                request,
                corePath,
                8,
                9,
                // Written across two lines: the same after template, whitespace aside.
                "        assertThat(label).isEqualTo(\"y\");\n        assertThat( total )\n                .isEqualTo(3L);\n");
        String assertj = "import static org.assertj.core.api.Assertions.assertThat;\n";
        ((ObjectNode) request.get("head_files"))
                .put(matchersPath, "package com.acme;\n\n" + assertj + "\nclass MatchersTest {}\n")
                .put(corePath, "package com.acme;\n\n" + assertj + "\nclass CoreTest {}\n");
        JsonNode learned = fixture.send(request);

        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        assertEquals(1, learned.path("templates").size(), learned.toString());
        JsonNode template = learned.path("templates").get(0);
        String actual = parameter(template, 0);
        String expected = parameter(template, 1);
        assertEquals(
                "[\"org.hamcrest.MatcherAssert.assertThat(" + actual + ", org.hamcrest.Matchers.is(" + expected
                        + "));\",\"org.hamcrest.MatcherAssert.assertThat(" + actual + ", org.hamcrest.CoreMatchers.is("
                        + expected + "));\"]",
                template.path("before").toString(),
                template.toString());
        assertEquals(4, template.path("occurrences").size(), template.toString());
        assertEquals("[]", learned.path("refused").toString(), learned.toString());
        assertEquals("[]", learned.path("warnings").toString(), "each form rewrites its own occurrences");
        String source = learned.path("source").path("text").asText();
        assertTrue(source.contains("void before2("), source);
    }

    @Test
    void aMatcherParameterHidingDifferentCallsIsSplitByThemIntoOneTemplateEach() throws Exception {
        String mixed =
                """
                package com.acme;

                import static org.hamcrest.MatcherAssert.assertThat;
                import static org.hamcrest.Matchers.hasSize;
                import static org.hamcrest.Matchers.is;
                import static org.hamcrest.Matchers.notNullValue;

                import java.util.List;

                class MixedTest {
                    void check(String name, String label, List<String> names, List<String> labels) {
                        assertThat(name, is("x"));
                        assertThat(names, hasSize(2));
                        assertThat(label, is(name));
                        assertThat(labels, hasSize(3));
                        assertThat(name, notNullValue());
                    }
                }
                """;
        String path = "src/test/java/com/acme/MixedTest.java";
        fixture.parse(fixture.repo("pom.xml", POM, path, mixed));
        ObjectNode request = learnRequest("learn-split");
        edit(
                request,
                path,
                12,
                16,
                """
                        assertThat(name).isEqualTo("x");
                        assertThat(names).hasSize(2);
                        assertThat(label).isEqualTo(name);
                        assertThat(labels).hasSize(3);
                        assertThat(name).isNotNull();
                """);
        ((ObjectNode) request.get("head_files"))
                .put(
                        path,
                        "package com.acme;\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\n"
                                + "class MixedTest {}\n");
        JsonNode learned = fixture.send(request);

        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        assertEquals(2, learned.path("templates").size(), learned.toString());
        JsonNode is = learned.path("templates").get(0);
        assertEquals(
                "[\"org.hamcrest.MatcherAssert.assertThat(" + parameter(is, 0) + ", org.hamcrest.Matchers.is("
                        + parameter(is, 1) + "));\"]",
                is.path("before").toString(),
                is.toString());
        assertEquals(
                "assertThat(" + parameter(is, 0) + ").isEqualTo(" + parameter(is, 1) + ");",
                is.path("after").asText(),
                is.toString());
        assertEquals(
                "[{\"path\":\"" + path + "\",\"line\":12},{\"path\":\"" + path + "\",\"line\":14}]",
                is.path("occurrences").toString());
        JsonNode hasSize = learned.path("templates").get(1);
        assertEquals(
                "[\"org.hamcrest.MatcherAssert.assertThat(" + parameter(hasSize, 0) + ", org.hamcrest.Matchers.hasSize("
                        + parameter(hasSize, 1) + "));\"]",
                hasSize.path("before").toString(),
                hasSize.toString());
        assertEquals(
                "assertThat(" + parameter(hasSize, 0) + ").hasSize(" + parameter(hasSize, 1) + ");",
                hasSize.path("after").asText(),
                hasSize.toString());
        assertEquals(
                "[{\"path\":\"" + path + "\",\"line\":13},{\"path\":\"" + path + "\",\"line\":15}]",
                hasSize.path("occurrences").toString());
        // The shape the PR rewrote once is refused as one occurrence, not as one of several ways.
        assertEquals(1, learned.path("refused").size(), learned.toString());
        JsonNode refused = learned.path("refused").get(0);
        assertEquals("one occurrence", refused.path("reason").asText(), refused.toString());
        assertEquals(
                "[{\"path\":\"" + path + "\",\"line\":16}]",
                refused.path("occurrences").toString());
        assertEquals("[]", learned.path("warnings").toString(), "each template rewrites its own occurrences");
    }

    @Test
    void aParameterOfCollectionsOfDifferentTypesIsBoundedByTheirCommonSupertype() throws Exception {
        String sizes =
                """
                package com.acme;

                import static org.hamcrest.MatcherAssert.assertThat;
                import static org.hamcrest.Matchers.hasSize;

                import java.util.List;
                import java.util.Set;

                class SizesTest {
                    void check(List<String> names, Set<Integer> ids) {
                        assertThat(names, hasSize(2));
                        assertThat(ids, hasSize(3));
                    }
                }
                """;
        String path = "src/test/java/com/acme/SizesTest.java";
        fixture.parse(fixture.repo("pom.xml", POM, path, sizes));
        ObjectNode request = learnRequest("learn-bound");
        edit(request, path, 11, 12, "        assertThat(names).hasSize(2);\n        assertThat(ids).hasSize(3);\n");
        ((ObjectNode) request.get("head_files"))
                .put(
                        path,
                        "package com.acme;\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\n"
                                + "class SizesTest {}\n");
        JsonNode learned = fixture.send(request);

        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        assertEquals("[]", learned.path("refused").toString(), learned.toString());
        assertEquals(1, learned.path("templates").size(), learned.toString());
        JsonNode template = learned.path("templates").get(0);
        assertEquals("T", template.path("parameters").get(0).path("type").asText(), template.toString());
        String source = learned.path("source").path("text").asText();
        // The bound's element type is a class type parameter of its own: OpenRewrite's template matcher
        // matches no `hasSize(n)` under `T extends java.util.Collection<?>`.
        assertTrue(source.contains("<U, T extends java.util.Collection<U>>"), source);
        assertEquals("[]", learned.path("warnings").toString(), "its recipe rewrites the lines it was learned from");

        // Its recipe rewrites both occurrences on the base.
        ObjectNode run = fixture.runRequest("", learned.path("recipe").asText(), false);
        ObjectNode jars = run.putObject("learned");
        jars.putArray("jars").add(learned.path("jar").asText());
        jars.putArray("libraries")
                .add(jar("org.hamcrest", "hamcrest", "2.2").toString())
                .add(jar("org.assertj", "assertj-core", "3.27.7").toString());
        JsonNode results = fixture.send(run);
        assertTrue(results.path("ok").asBoolean(), results.toString());
        JsonNode whole = results.path("runs").get(results.path("runs").size() - 1);
        assertTrue(whole.path("error").isNull(), whole.toString());
        String diff = whole.path("diff").asText();
        assertTrue(diff.contains("-        assertThat(names, hasSize(2));"), diff);
        assertTrue(diff.contains("assertThat(names).hasSize(2);"), diff);
        assertTrue(diff.contains("-        assertThat(ids, hasSize(3));"), diff);
        assertTrue(diff.contains("assertThat(ids).hasSize(3);"), diff);
    }

    @Test
    void aCommonSupertypeTheCompileCannotNameLeavesTheTypeParameterUnbounded() throws Exception {
        String pets =
                """
                package com.acme;

                import static org.hamcrest.MatcherAssert.assertThat;
                import static org.hamcrest.Matchers.notNullValue;

                class PetsTest {
                    void check(Dog dog, Cat cat) {
                        assertThat(dog, notNullValue());
                        assertThat(cat, notNullValue());
                    }
                }
                """;
        String path = "src/test/java/com/acme/PetsTest.java";
        fixture.parse(fixture.repo(
                "pom.xml",
                POM,
                "src/main/java/com/acme/Animal.java",
                "package com.acme;\n\npublic class Animal {}\n",
                "src/main/java/com/acme/Dog.java",
                "package com.acme;\n\npublic class Dog extends Animal {}\n",
                "src/main/java/com/acme/Cat.java",
                "package com.acme;\n\npublic class Cat extends Animal {}\n",
                path,
                pets));
        ObjectNode request = learnRequest("learn-unnameable");
        edit(request, path, 8, 9, "        assertThat(dog).isNotNull();\n        assertThat(cat).isNotNull();\n");
        ((ObjectNode) request.get("head_files"))
                .put(
                        path,
                        "package com.acme;\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\n"
                                + "class PetsTest {}\n");
        JsonNode learned = fixture.send(request);

        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        // The project's Animal is not on the templates' classpath: `T extends com.acme.Animal` would not compile.
        assertEquals("[]", learned.path("refused").toString(), learned.toString());
        assertEquals(1, learned.path("templates").size(), learned.toString());
        String source = learned.path("source").path("text").asText();
        assertTrue(source.contains("IsNotNull<T> {"), source);
        assertEquals("[]", learned.path("warnings").toString(), "its recipe rewrites the lines it was learned from");
    }

    @Test
    void theAfterSideGetsTheHeadFilesImportOnDemandWhenNoImportNamesItsMethod() throws Exception {
        fixture.parse(hamcrestToAssertJ(""));
        ObjectNode request = hamcrestEdits("learn-on-demand");
        String named = "import static org.assertj.core.api.Assertions.assertThat;";
        String onDemand = "import static org.assertj.core.api.Assertions.*;";
        ((ObjectNode) request.get("head_files"))
                .put(CART, CART_HEAD.replace(named, onDemand))
                .put(COUNT, COUNT_HEAD.replace(named, onDemand));
        JsonNode learned = fixture.send(request);

        assertEquals(1, learned.path("templates").size(), learned.toString());
        String source = learned.path("source").path("text").asText();
        assertTrue(source.contains(onDemand), source);
        assertFalse(source.contains("import java.util"), "an import the after does not need: " + source);
    }

    @Test
    void theHeadPomPutsTheLibraryThePrAddedOnTheTemplatesClasspath() throws Exception {
        String assertj =
                "    <dependency><groupId>org.assertj</groupId><artifactId>assertj-core</artifactId><version>3.27.7</version><scope>test</scope></dependency>\n";
        assertTrue(POM.contains(assertj), POM);
        // The base has Hamcrest and JUnit only: the PR adds AssertJ to the POM as it rewrites the assertions.
        String basePom = POM.replace(assertj, "");
        fixture.parse(
                fixture.repo("pom.xml", basePom, CART, CART_TEST.formatted(""), COUNT, COUNT_TEST, OTHER, OTHER_TEST));
        String assertjJar = jar("org.assertj", "assertj-core", "3.27.7").toString();

        // Without the head POM the after side does not compile on the base classpath.
        JsonNode baseOnly = fixture.send(hamcrestEdits("learn-base-pom"));
        assertTrue(baseOnly.path("ok").asBoolean(), baseOnly.toString());
        assertEquals(0, baseOnly.path("templates").size(), baseOnly.toString());
        assertFalse(baseOnly.path("refused").isEmpty(), baseOnly.toString());
        for (JsonNode refused : baseOnly.path("refused")) {
            assertTrue(
                    refused.path("reason").asText().startsWith("cannot find symbol symbol: method assertThat(T)"),
                    refused.toString());
        }

        // With it, the templates compile against the base jars and the jars the head POM resolves to.
        ObjectNode request = hamcrestEdits("learn-head-pom");
        ((ObjectNode) request.get("head_files")).put("pom.xml", POM);
        JsonNode learned = fixture.send(request);
        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        assertEquals("[]", learned.path("refused").toString(), learned.toString());
        assertEquals(1, learned.path("templates").size(), learned.toString());
        assertEquals("[]", learned.path("warnings").toString(), learned.toString());
        List<String> libraries = new ArrayList<>();
        learned.path("libraries").forEach(library -> libraries.add(library.asText()));
        assertTrue(libraries.contains(assertjJar), libraries.toString());
        assertTrue(libraries.contains(jar("org.hamcrest", "hamcrest", "2.2").toString()), libraries.toString());
        String pom = Files.readString(Path.of(learned.path("pom").asText()));
        assertTrue(pom.contains("<artifactId>assertj-core</artifactId>"), pom);

        // A later run loads the jar with the results' libraries and rewrites the file the PR did not edit.
        ObjectNode run = fixture.runRequest("", learned.path("recipe").asText(), false);
        ObjectNode jars = run.putObject("learned");
        jars.putArray("jars").add(learned.path("jar").asText());
        ArrayNode runLibraries = jars.putArray("libraries");
        libraries.forEach(runLibraries::add);
        JsonNode results = fixture.send(run);
        assertTrue(results.path("ok").asBoolean(), results.toString());
        JsonNode whole = results.path("runs").get(results.path("runs").size() - 1);
        assertTrue(whole.path("error").isNull(), whole.toString());
        String diff = whole.path("diff").asText();
        assertTrue(diff.contains("-        assertThat(total, is(3L));"), diff);
        assertTrue(diff.contains("isEqualTo(3L);"), diff);
    }

    @Test
    void aHeadPomThatDoesNotParseIsAWarningAndTheBaseClasspathHolds() throws Exception {
        fixture.parse(hamcrestToAssertJ(""));
        ObjectNode request = hamcrestEdits("learn-bad-pom");
        ((ObjectNode) request.get("head_files")).put("pom.xml", "<project><dependencies>");
        JsonNode learned = fixture.send(request);

        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        assertEquals(1, learned.path("templates").size(), learned.toString());
        assertTrue(
                learned.path("warnings").toString().contains("pom.xml at the head does not parse"), learned.toString());
    }

    @Test
    void aHeadPomThatDoesNotResolveIsAWarningAndTheBaseClasspathHolds() throws Exception {
        // A dependency Maven Central does not have.
        fixture.parse(hamcrestToAssertJ(""));
        ObjectNode request = hamcrestEdits("learn-unresolved-pom");
        String missing =
                "<dependency><groupId>com.acme.missing</groupId><artifactId>nowhere</artifactId><version>1.0</version></dependency>";
        ((ObjectNode) request.get("head_files"))
                .put("pom.xml", POM.replace("<dependencies>", "<dependencies>" + missing));
        JsonNode learned = fixture.send(request);

        assertTrue(learned.path("ok").asBoolean(), learned.toString());
        // The base POM has AssertJ: the templates compile on the base classpath, with a warning.
        assertEquals(1, learned.path("templates").size(), learned.toString());
        assertEquals(
                "[\"pom.xml does not resolve with the head POMs: its source sets' templates compile against the base"
                        + " classpath\"]",
                learned.path("warnings").toString(),
                learned.toString());
    }

    @Test
    void aLearnBeforeAnyParseFailsWithNoParse() throws Exception {
        JsonNode learned = fixture.send(hamcrestEdits("learn-early"));
        assertFalse(learned.path("ok").asBoolean(), learned.toString());
        assertEquals("no_parse", learned.path("error").path("kind").asText(), learned.toString());
    }

    @Test
    void theSameRequestGivesTheSameSource() throws Exception {
        fixture.parse(hamcrestToAssertJ(""));
        JsonNode first = fixture.send(hamcrestEdits("learn-first"));
        JsonNode second = fixture.send(hamcrestEdits("learn-second"));

        String text = first.path("source").path("text").asText();
        assertFalse(text.isEmpty(), first.toString());
        assertEquals(text, second.path("source").path("text").asText());
        assertEquals(first.path("templates"), second.path("templates"));
    }
}
