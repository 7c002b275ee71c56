package rewriteassist.runner.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rewriteassist.runner.Fixture;
import rewriteassist.runner.common.Jackson;
import rewriteassist.runner.measure.CompileCheck;
import rewriteassist.runner.measure.Residual;
import rewriteassist.runner.protocol.ErrorKind;

/**
 * The exact JSON of each results record, as the runner writes it into a results file: the keys,
 * their order, their types and which are null or absent. The expected texts are the files under
 * src/test/resources/results, which src/validation/embedded/protocol.rs's tests read with its own
 * deserializer: both sides agree on the same bytes.
 */
class ResultsJsonTest {
    private static String json(Results results, String id) throws JsonProcessingException {
        return Jackson.MAPPER.writeValueAsString(ResultsFile.of(id, results));
    }

    private static String sample(String name) {
        return Fixture.testResource("results/" + name).strip();
    }

    @Test
    void aParsesResults() throws IOException {
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
        assertEquals(sample("parse.json"), json(results, "parse-1"), "without head files: no `types`");

        ParseResults withTypes = results.withTypes(
                new ParseResults.Types(Map.of("A.java", List.of("a.B")), Map.of("A.java", List.of("a.C")), 0.5));
        assertEquals(sample("parse-with-types.json"), json(withTypes, "parse-1"));
    }

    @Test
    void aRunsResults() throws IOException {
        ObjectNode options = Jackson.MAPPER.createObjectNode().put("oldFullyQualifiedTypeName", "a.B");
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
                null,
                null,
                null);
        StepRun invalid = new StepRun(
                1,
                "org.openrewrite.java.ChangePackage",
                Jackson.MAPPER.createObjectNode(),
                "",
                List.of(),
                new ErrorReport(ErrorKind.INVALID_OPTION, "newPackageName: is required", null),
                List.of(),
                null,
                null,
                0.1,
                null,
                null,
                null);
        StepRun whole = new StepRun(
                null,
                "rewriteassist.Option2Narrow",
                Jackson.MAPPER.createObjectNode(),
                "d",
                List.of("A.java"),
                null,
                List.of("w"),
                Map.of(),
                Map.of("A.java", List.of(0)),
                1.25,
                List.of(1),
                null,
                null);
        assertEquals(
                sample("run.json"), json(new RunResults(List.of(changed, invalid, whole), List.of(3), 3.0), "run-2"));
    }

    @Test
    void aMeasuredRunsResults() throws IOException {
        // A request with `measure`: its whole run has `residual` and `unresolved` after `left_out`.
        StepRun whole = new StepRun(
                null,
                "rewriteassist.Option2Narrow",
                Jackson.MAPPER.createObjectNode(),
                "d",
                List.of("src/test/java/a/BTest.java"),
                null,
                List.of(),
                Map.of(),
                Map.of("src/test/java/a/BTest.java", List.of(0)),
                1.25,
                List.of(),
                new Residual.Counts(12, 2, 1, 2, List.of("pom.xml:20: <dependency>")),
                new CompileCheck.Counts(4, 9, 3, List.of("src/test/java/a/BTest.java:12: org.junit.jupiter.api.Test")));
        assertEquals(sample("run-measured.json"), json(new RunResults(List.of(whole), List.of(), 2.0), "run-3"));
        // A residual's samples name the lines after the recipe that still use the old library.
        assertEquals(
                "{\"before\":12,\"after\":1,\"files_after\":1,\"out_of_reach\":0,"
                        + "\"samples\":[\"src/test/java/a/BTest.java:3: import org.junit.Test;\"]}",
                Jackson.MAPPER.writeValueAsString(new Residual.Counts(
                        12, 1, 1, 0, List.of("src/test/java/a/BTest.java:3: import org.junit.Test;"))));
    }

    @Test
    void aLearnTemplatesResults() throws IOException {
        LearnResults.Template template = new LearnResults.Template(
                "rewriteassist.learned.LearnedTemplates.AssertThatIsToIsEqualTo",
                "rewriteassist.learned.LearnedTemplatesRecipes$AssertThatIsToIsEqualToRecipe",
                List.of(new LearnResults.Parameter("actual", "T"), new LearnResults.Parameter("expected", "T")),
                List.of("org.hamcrest.MatcherAssert.assertThat(actual, org.hamcrest.Matchers.is(expected));"),
                "assertThat(actual).isEqualTo(expected);",
                List.of(new LearnResults.Place("src/test/java/com/acme/CartTest.java", 12)),
                List.of(new LearnResults.Place("src/test/java/com/acme/OtherTest.java", 7)));
        LearnResults.Refused refused = new LearnResults.Refused(
                "int timeout = 10;",
                "int timeout = 20;",
                List.of(new LearnResults.Place("src/main/java/com/acme/Settings.java", 30)),
                "its occurrences share nothing but literals");
        LearnResults results = new LearnResults(
                2.3,
                List.of(template),
                List.of(refused),
                new LearnResults.Source(
                        "rewriteassist/learned/LearnedTemplates.java", "package rewriteassist.learned;\n"),
                "/abs/learned/learned-recipes-0.1.0.jar",
                "/abs/learned/learned-recipes-0.1.0.pom",
                "rewriteassist.learned.LearnedTemplatesRecipes",
                List.of("/m2/org/hamcrest/hamcrest/2.2/hamcrest-2.2.jar"),
                List.of());
        assertEquals(sample("learn.json"), json(results, "learn-1"));
        // No template accepted: no source, jar, POM or recipe, each null.
        assertEquals(
                sample("learn-none.json"),
                json(
                        new LearnResults(
                                0.5, List.of(), List.of(refused), null, null, null, null, List.of(), List.of("w")),
                        "learn-2"));
    }

    @Test
    void aFailedRequestsResults() throws IOException {
        ErrorReport error = new ErrorReport(ErrorKind.NO_PARSE, "no parse", "at x");
        assertEquals(sample("failed.json"), json(new FailedRequest(error, 0.0), "run-1"));
        // The answer to a request file that is not a request: no request handled, so no seconds.
        assertEquals(
                sample("rejected.json"),
                json(FailedRequest.of(ErrorKind.INTERNAL, "not a request: protocol 2 is not 1", null), "parse-1"));
        // Its id is null when the file had none (the Rust side always writes one).
        assertEquals(
                "{\"protocol\":1,\"id\":null,\"ok\":false,"
                        + "\"error\":{\"kind\":\"internal\",\"message\":\"not a request\",\"stack\":null}}",
                Jackson.MAPPER.writeValueAsString(
                        ResultsFile.of(null, FailedRequest.of(ErrorKind.INTERNAL, "not a request", null))));
    }

    @Test
    void everyErrorKindHasTheProtocolsName() throws JsonProcessingException {
        StringBuilder names = new StringBuilder();
        for (ErrorKind kind : ErrorKind.values()) {
            names.append(Jackson.MAPPER.writeValueAsString(kind));
        }
        assertEquals(
                "\"unknown_recipe\"\"yaml_error\"\"invalid_option\"\"recipe_error\"\"no_parse\"\"internal\"",
                names.toString());
    }
}
