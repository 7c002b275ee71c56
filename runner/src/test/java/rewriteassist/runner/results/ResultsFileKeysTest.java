package rewriteassist.runner.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rewriteassist.runner.Fixture.changeType;
import static rewriteassist.runner.Fixture.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;
import rewriteassist.runner.protocol.BadRequest;

/**
 * The keys of every results file the real runner writes, in order, and which of them are null or
 * absent: what src/validation/embedded/protocol.rs reads. A field that goes missing, appears where
 * it was absent, or turns from null into absent shows here, whatever the code that writes it.
 */
class ResultsFileKeysTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    private static final String POM = "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId>"
            + "<artifactId>shop</artifactId><version>1</version></project>\n";

    private static final String CART =
            "package com.acme;\n\nimport java.util.List;\n\nclass Cart {\n" + "    List<String> items;\n}\n";

    private static final List<String> STEP_RUN_KEYS =
            List.of("step", "name", "options", "diff", "files", "error", "warnings", "types", "seconds");

    @Test
    void everyResultsFileHasTheKeysTheRustSideReads() throws Exception {
        ObjectNode early = fixture.runRequest(recipe("test.Early", changeType("a.B", "a.C")), "test.Early", true);
        JsonNode noParse = fixture.send(early);
        assertEquals(List.of("protocol", "id", "ok", "error", "seconds"), keys(noParse));
        assertEquals(List.of("kind", "message", "stack"), keys(noParse.path("error")));
        assertTrue(noParse.path("error").path("stack").isNull(), noParse.toString());

        Path root = fixture.repo(
                "pom.xml",
                POM,
                "src/main/java/com/acme/Cart.java",
                CART,
                "src/main/java/com/acme/Broken.java",
                "package com.acme;\nclass Broken { void f( {\n}\n",
                "README.md",
                "# shop\n");
        Path head = fixture.dir().resolve("head");
        Files.createDirectories(head.resolve("src/main/java/com/acme"));
        Files.writeString(head.resolve("src/main/java/com/acme/Cart.java"), CART.replace("List", "Collection"));
        ObjectNode request = fixture.parseRequest(root);
        request.putObject("head")
                .put("root", head.toString())
                .putArray("files")
                .add("src/main/java/com/acme/Cart.java");
        JsonNode parsed = fixture.send(request);
        assertEquals(
                List.of("protocol", "id", "ok", "seconds", "files", "unparsed", "warnings", "modules", "types"),
                keys(parsed));
        assertEquals(List.of("total", "by_kind", "binary_skipped"), keys(parsed.path("files")));
        assertEquals(
                List.of(
                        "maven",
                        "java",
                        "gradle",
                        "kotlin",
                        "groovy",
                        "docker",
                        "yaml",
                        "json",
                        "properties",
                        "xml",
                        "hcl",
                        "toml",
                        "proto",
                        "plain_text",
                        "quark"),
                keys(parsed.path("files").path("by_kind")));
        assertEquals(List.of("path", "error"), keys(parsed.path("unparsed").get(0)));
        assertEquals(
                List.of("pom", "gav", "classpath_jars", "unresolved"),
                keys(parsed.path("modules").get(0)));
        assertEquals(List.of("base", "head", "seconds"), keys(parsed.path("types")));
        assertTrue(parsed.path("types")
                .path("head")
                .path("src/main/java/com/acme/Cart.java")
                .isArray());

        JsonNode run = fixture.run(
                recipe(
                        "test.Option",
                        "rewriteassist.runner.ThrowingRecipe",
                        "org.openrewrite.java.ChangeType:\n  oldFullyQualifiedTypeName: com.acme.Cart",
                        changeType("java.util.List", "java.util.Collection")),
                "test.Option");
        assertEquals(List.of("protocol", "id", "ok", "runs", "not_run", "seconds"), keys(run));
        JsonNode runs = run.path("runs");
        assertEquals(4, runs.size(), run.toString());
        // A step that threw on the trees: it ran, so its result's types are there (none).
        assertEquals(STEP_RUN_KEYS, keys(runs.get(0)));
        assertEquals("recipe_error", runs.get(0).path("error").path("kind").asText());
        assertTrue(
                runs.get(0).path("error").path("stack").isTextual(), runs.get(0).toString());
        // A step that did not validate never ran: no types at all.
        List<String> notRun = new ArrayList<>(STEP_RUN_KEYS);
        notRun.remove("types");
        assertEquals(notRun, keys(runs.get(1)));
        assertTrue(runs.get(1).path("error").path("stack").isNull(), runs.get(1).toString());
        assertEquals(STEP_RUN_KEYS, keys(runs.get(2)));
        assertTrue(runs.get(2).path("error").isNull(), runs.get(2).toString());
        assertTrue(runs.get(2).path("step").isInt());
        List<String> whole = new ArrayList<>(STEP_RUN_KEYS);
        whole.add(whole.indexOf("seconds"), "steps_by_file");
        whole.add("left_out");
        assertEquals(whole, keys(runs.get(3)));
        assertTrue(runs.get(3).path("step").isNull(), runs.get(3).toString());
        assertEquals("[0,1]", runs.get(3).path("left_out").toString());

        ObjectNode wrong = fixture.parseRequest(root);
        wrong.put("protocol", 99);
        assertThrows(BadRequest.class, () -> fixture.main.handle(fixture.write(wrong)));
        JsonNode rejected = Fixture.results(wrong);
        assertEquals(List.of("protocol", "id", "ok", "error"), keys(rejected));
        assertEquals("internal", rejected.path("error").path("kind").asText());
    }

    private static List<String> keys(JsonNode object) {
        List<String> keys = new ArrayList<>();
        object.fieldNames().forEachRemaining(keys::add);
        return keys;
    }
}
