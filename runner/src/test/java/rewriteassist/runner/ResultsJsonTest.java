package rewriteassist.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The exact JSON of each results record, as the runner writes it into a results file: the keys,
 * their order, their types and which are null or absent, as src/validation/embedded/protocol.rs
 * reads them and docs/embedded-runner.md shows them.
 */
class ResultsJsonTest {
    private static String json(Results results, String id) throws JsonProcessingException {
        return Main.JSON.writeValueAsString(ResultsFile.of(id, results));
    }

    @Test
    void aParsesResults() throws JsonProcessingException {
        Map<String, Integer> byKind = new LinkedHashMap<>();
        byKind.put("java", 1);
        byKind.put("plain_text", 2);
        ParseResults results = new ParseResults(
                12.5,
                new ParseResults.FileCounts(3, byKind, 1),
                List.of(new ParseResults.Unparsed("src/main/java/Broken.java", "one line")),
                List.of("a warning"),
                List.of(new ParseResults.ParsedModule("core/pom.xml", "g:a:v", 12, 1)),
                null);
        String common = "{\"protocol\":1,\"id\":\"parse-1\",\"ok\":true,\"seconds\":12.5,"
                + "\"files\":{\"total\":3,\"by_kind\":{\"java\":1,\"plain_text\":2},\"binary_skipped\":1},"
                + "\"unparsed\":[{\"path\":\"src/main/java/Broken.java\",\"error\":\"one line\"}],"
                + "\"warnings\":[\"a warning\"],"
                + "\"modules\":[{\"pom\":\"core/pom.xml\",\"gav\":\"g:a:v\",\"classpath_jars\":12,\"unresolved\":1}]";
        assertEquals(common + "}", json(results, "parse-1"), "without head files: no `types`");

        ParseResults withTypes = results.withTypes(
                new ParseResults.Types(Map.of("A.java", List.of("a.B")), Map.of("A.java", List.of("a.C")), 0.5));
        assertEquals(
                common
                        + ",\"types\":{\"base\":{\"A.java\":[\"a.B\"]},\"head\":{\"A.java\":[\"a.C\"]},\"seconds\":0.5}}",
                json(withTypes, "parse-1"));
    }

    @Test
    void aRunsResults() throws JsonProcessingException {
        ObjectNode options = Main.JSON.createObjectNode().put("oldFullyQualifiedTypeName", "a.B");
        StepRun changed = new StepRun(
                0,
                "org.openrewrite.java.ChangeType",
                options,
                "diff --git a/A.java b/A.java\n",
                List.of("A.java"),
                null,
                List.of(),
                Map.of("A.java", List.of("a.C")),
                null,
                0.4,
                null);
        StepRun invalid = new StepRun(
                1,
                "org.openrewrite.java.ChangePackage",
                Main.JSON.createObjectNode(),
                "",
                List.of(),
                new ErrorReport(ErrorKind.INVALID_OPTION, "newPackageName: is required", null),
                List.of(),
                null,
                null,
                0.1,
                null);
        StepRun whole = new StepRun(
                null,
                "rewriteassist.Option2Narrow",
                Main.JSON.createObjectNode(),
                "d",
                List.of("A.java"),
                null,
                List.of("w"),
                Map.of(),
                Map.of("A.java", List.of(0)),
                1.25,
                List.of(1));
        String expected = "{\"protocol\":1,\"id\":\"run-2\",\"ok\":true,\"runs\":["
                + "{\"step\":0,\"name\":\"org.openrewrite.java.ChangeType\","
                + "\"options\":{\"oldFullyQualifiedTypeName\":\"a.B\"},\"diff\":\"diff --git a/A.java b/A.java\\n\","
                + "\"files\":[\"A.java\"],\"error\":null,\"warnings\":[],\"types\":{\"A.java\":[\"a.C\"]},"
                + "\"seconds\":0.4},"
                + "{\"step\":1,\"name\":\"org.openrewrite.java.ChangePackage\",\"options\":{},\"diff\":\"\","
                + "\"files\":[],\"error\":{\"kind\":\"invalid_option\",\"message\":\"newPackageName: is required\","
                + "\"stack\":null},\"warnings\":[],\"seconds\":0.1},"
                + "{\"step\":null,\"name\":\"rewriteassist.Option2Narrow\",\"options\":{},\"diff\":\"d\","
                + "\"files\":[\"A.java\"],\"error\":null,\"warnings\":[\"w\"],\"types\":{},"
                + "\"steps_by_file\":{\"A.java\":[0]},\"seconds\":1.25,\"left_out\":[1]}],"
                + "\"not_run\":[3],\"seconds\":3.0}";
        assertEquals(expected, json(new RunResults(List.of(changed, invalid, whole), List.of(3), 3.0), "run-2"));
    }

    @Test
    void aFailedRequestsResults() throws JsonProcessingException {
        ErrorReport error = new ErrorReport(ErrorKind.NO_PARSE, "no parse", "at x");
        assertEquals(
                "{\"protocol\":1,\"id\":\"run-1\",\"ok\":false,"
                        + "\"error\":{\"kind\":\"no_parse\",\"message\":\"no parse\",\"stack\":\"at x\"},\"seconds\":0.0}",
                json(new FailedRequest(error, 0.0), "run-1"));
        // The answer to a request file that is not a request: no id known, no request handled.
        assertEquals(
                "{\"protocol\":1,\"id\":null,\"ok\":false,"
                        + "\"error\":{\"kind\":\"internal\",\"message\":\"not a request\",\"stack\":null}}",
                Main.JSON.writeValueAsString(
                        ResultsFile.of(null, Main.failure(ErrorKind.INTERNAL, "not a request", null))));
    }

    @Test
    void everyErrorKindHasTheProtocolsName() throws JsonProcessingException {
        StringBuilder names = new StringBuilder();
        for (ErrorKind kind : ErrorKind.values()) {
            names.append(Main.JSON.writeValueAsString(kind));
        }
        assertEquals(
                "\"unknown_recipe\"\"yaml_error\"\"invalid_option\"\"recipe_error\"\"no_parse\"\"internal\"",
                names.toString());
    }
}
