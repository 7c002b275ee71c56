package rewriteassist.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rewriteassist.runner.Fixture.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;

/** A run request's {@code datatables}: the whole run's data tables as CSV files, as the plugins export them. */
class ExportedTablesTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    private static final String OPTION = "test.Option";

    private static final String REPLACE_IN_README =
            "org.openrewrite.text.FindAndReplace:\n  find: Acme\n  replace: replaced\n  filePattern: '**/*.md'";

    private static final String SOURCES_FILE_RESULTS = "org.openrewrite.table.SourcesFileResults.csv";

    @Test
    void theWholeRunExportsOneCsvPerTableAndTheStepsNone() throws Exception {
        fixture.parse(fixture.repo("README.md", "# Acme\n", "NOTES.md", "nothing to replace\n"));
        Path tables = fixture.dir().resolve("tables");
        ObjectNode request = fixture.runRequest(recipe(OPTION, REPLACE_IN_README), OPTION, true);
        request.put("datatables", tables.toString());
        JsonNode results = fixture.send(request);
        assertTrue(results.path("ok").asBoolean(), results.toString());

        List<String> lines = Files.readAllLines(tables.resolve(SOURCES_FILE_RESULTS));
        assertEquals("# @name org.openrewrite.table.SourcesFileResults", lines.get(0), lines.toString());
        assertTrue(lines.get(3).startsWith("sourcePath,afterSourcePath,parentRecipe,recipe,"), lines.toString());
        List<String> readme =
                lines.stream().filter(l -> l.startsWith("README.md,README.md,")).toList();
        assertEquals(1, readme.size(), "the whole run's row, and none of the step's on its own: " + lines);
        assertTrue(readme.get(0).contains("org.openrewrite.text.FindAndReplace"), readme.toString());
        assertFalse(lines.stream().anyMatch(l -> l.startsWith("NOTES.md")), lines.toString());

        // What the runner reads of the tables itself is unchanged: the whole run's diff and files.
        JsonNode whole = results.path("runs").get(1);
        assertTrue(whole.path("step").isNull(), whole.toString());
        assertEquals("[\"README.md\"]", whole.path("files").toString());
    }

    @Test
    void aRequestWithoutItExportsNothingAndAnExportThatFailsLeavesTheRunAsItIs() throws Exception {
        fixture.parse(fixture.repo("README.md", "# Acme\n"));
        JsonNode plain = fixture.run(recipe(OPTION, REPLACE_IN_README), OPTION);
        try (var files = Files.list(fixture.dir())) {
            assertFalse(files.anyMatch(p -> p.toString().endsWith(".csv")), "nothing exported unasked");
        }

        // A file where the directory should be: the tables cannot be written, the run stands.
        Path blocked = fixture.dir().resolve("blocked");
        Files.writeString(blocked, "a file\n");
        ObjectNode request = fixture.runRequest(recipe(OPTION, REPLACE_IN_README), OPTION, true);
        request.put("datatables", blocked.toString());
        JsonNode results = fixture.send(request);
        assertTrue(results.path("ok").asBoolean(), results.toString());
        assertEquals(
                plain.path("runs").get(1).path("diff"),
                results.path("runs").get(1).path("diff"),
                results.toString());
        assertTrue(results.path("runs").get(1).path("error").isNull(), results.toString());
    }
}
