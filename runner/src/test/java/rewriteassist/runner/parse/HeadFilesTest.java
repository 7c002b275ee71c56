package rewriteassist.runner.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;

/**
 * The PR's head versions of its changed files are parsed beside the base, and each parse and run
 * says which types its Java files use: what the base used, what the head uses instead, and what a
 * recipe's result uses.
 */
class HeadFilesTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    private static final String BASE = "package com.acme;\n\nimport static org.hamcrest.MatcherAssert.assertThat;\n"
            + "import static org.hamcrest.Matchers.equalTo;\n\nimport java.util.List;\n\nclass CartTest {\n"
            + "    void total(List<String> items) {\n        assertThat(items.size(), equalTo(2));\n    }\n}\n";

    private static final String HEAD =
            "package com.acme;\n\nimport static org.assertj.core.api.Assertions.assertThat;\n\n"
                    + "import java.util.List;\n\nclass CartTest {\n    void total(List<String> items) {\n"
                    + "        assertThat(items).hasSize(2);\n    }\n}\n";

    @Test
    void theHeadsTypesAreTheOnesTheBaseLeftBehind() throws Exception {
        Path root = fixture.repo("src/test/java/com/acme/CartTest.java", BASE, "README.md", "# cart\n");
        Path head = fixture.dir().resolve("head");
        Files.createDirectories(head.resolve("src/test/java/com/acme"));
        Files.writeString(head.resolve("src/test/java/com/acme/CartTest.java"), HEAD);
        ObjectNode request = fixture.parseRequest(root);
        request.putObject("head")
                .put("root", head.toString())
                .putArray("files")
                .add("src/test/java/com/acme/CartTest.java")
                .add("README.md");
        JsonNode results = fixture.send(request);
        assertTrue(results.path("ok").asBoolean(), results.toString());
        JsonNode types = results.path("types");
        String base =
                types.path("base").path("src/test/java/com/acme/CartTest.java").toString();
        String headTypes =
                types.path("head").path("src/test/java/com/acme/CartTest.java").toString();
        assertTrue(base.contains("org.hamcrest.MatcherAssert"), types.toString());
        assertTrue(base.contains("java.util.List"), types.toString());
        assertFalse(headTypes.contains("org.hamcrest"), types.toString());
        assertTrue(headTypes.contains("org.assertj.core.api.Assertions"), types.toString());
        assertFalse(types.path("base").has("README.md"), "only Java files have types");

        // A recipe's result says which types it leaves in use.
        JsonNode run = fixture.run(
                Fixture.recipe(
                        "test.Retype",
                        "org.openrewrite.java.ChangeType:\n  oldFullyQualifiedTypeName: java.util.List"
                                + "\n  newFullyQualifiedTypeName: java.util.Collection"),
                "test.Retype");
        JsonNode step = run.path("runs").get(0);
        String after =
                step.path("types").path("src/test/java/com/acme/CartTest.java").toString();
        assertTrue(after.contains("java.util.Collection") && !after.contains("java.util.List"), step.toString());
        assertTrue(after.contains("org.hamcrest.MatcherAssert"), step.toString());
        assertEquals(1, step.path("types").size(), step.toString());
    }
}
