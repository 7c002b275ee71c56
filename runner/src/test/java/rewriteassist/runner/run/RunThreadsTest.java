package rewriteassist.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rewriteassist.runner.Fixture.changeType;
import static rewriteassist.runner.Fixture.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;

/**
 * A request's steps and its whole run at once, on the runner's threads: the results are the ones
 * the same request gives with one thread, runs that change the POMs among them, and a step that
 * fails still leaves the whole without it.
 */
class RunThreadsTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    private static final String OPTION = "test.Option";

    private static final String POM =
            """
            <project>
              <modelVersion>4.0.0</modelVersion>
              <groupId>com.acme</groupId>
              <artifactId>acme</artifactId>
              <version>1.0</version>
              <properties>
                <maven.compiler.release>11</maven.compiler.release>
                <acme.flavour>plain</acme.flavour>
              </properties>
            </project>
            """;

    private static final String[] STEPS = {
        "org.openrewrite.maven.ChangePropertyValue:\n  key: maven.compiler.release\n  newValue: '17'",
        changeType("com.acme.Widget", "com.acme.Gadget"),
        "org.openrewrite.maven.ChangePropertyValue:\n  key: acme.flavour\n  newValue: spicy",
        "org.openrewrite.text.FindAndReplace:\n  find: Acme\n  replace: replaced\n  filePattern: '**/*.md'",
        "org.openrewrite.maven.AddProperty:\n  key: acme.added\n  value: 'yes'",
    };

    @AfterEach
    void oneThreadAgain() {
        RunThreads.threads(1);
        EarlierRuns.forget();
    }

    private Path repository() throws Exception {
        return fixture.repo(
                "pom.xml", POM,
                "src/main/java/com/acme/Widget.java", "package com.acme;\n\npublic class Widget {}\n",
                "src/main/java/com/acme/Shop.java",
                        "package com.acme;\n\nclass Shop {\n    Widget widget = new Widget();\n}\n",
                "README.md", "# Acme\n");
    }

    /** The request's results without its timings (and nothing kept from an earlier request). */
    private JsonNode run(ObjectNode request, int threads) throws Exception {
        RunThreads.threads(threads);
        EarlierRuns.forget();
        JsonNode results = fixture.send(request.deepCopy());
        assertTrue(results.path("ok").asBoolean(), results.toString());
        return withoutTimes(results.deepCopy());
    }

    private static JsonNode withoutTimes(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove("seconds");
            object.forEach(RunThreadsTest::withoutTimes);
        } else if (node.isArray()) {
            node.forEach(RunThreadsTest::withoutTimes);
        }
        return node;
    }

    @Test
    void stepsAndTheWholeRunAtOnceReportWhatTheyReportInTurn() throws Exception {
        fixture.parse(repository());
        ObjectNode request = fixture.runRequest(recipe(OPTION, STEPS), OPTION, true);
        JsonNode inTurn = run(request, 1);
        JsonNode runs = inTurn.path("runs");
        assertEquals(STEPS.length + 1, runs.size(), inTurn.toString());
        String whole = runs.get(STEPS.length).path("diff").asText();
        assertTrue(whole.contains("+    <maven.compiler.release>17<"), whole);
        assertTrue(whole.contains("+    <acme.flavour>spicy<"), whole);
        assertTrue(whole.contains("+    <acme.added>yes<"), whole);
        assertTrue(whole.contains("+    Gadget widget = new Gadget();"), whole);
        assertTrue(whole.contains("+# replaced"), whole);
        // Three runs change the POM: each run at once still starts from the POM as parsed.
        for (int i = 0; i < 3; i++) {
            assertEquals(inTurn, run(request, 2), "round " + i);
        }
    }

    @Test
    void aStepThatFailsLeavesTheWholeRunAtOnceWithoutIt() throws Exception {
        fixture.parse(repository());
        String[] steps = Stream.concat(Stream.of("rewriteassist.runner.ThrowingRecipe"), Stream.of(STEPS))
                .toArray(String[]::new);
        ObjectNode request = fixture.runRequest(recipe(OPTION, steps), OPTION, true);
        Path tablesInTurn = fixture.dir().resolve("tables-in-turn");
        request.put("datatables", tablesInTurn.toString());
        JsonNode inTurn = run(request, 1);
        Path tablesAtOnce = fixture.dir().resolve("tables-at-once");
        request.put("datatables", tablesAtOnce.toString());
        JsonNode atOnce = run(request, 2);
        assertEquals(inTurn, atOnce);

        JsonNode whole = atOnce.path("runs").get(steps.length);
        assertTrue(whole.path("error").isNull(), whole.toString());
        assertEquals("[0]", whole.path("left_out").toString());
        // The first whole run, with the failing step, exported tables of its own: only the
        // second's are left.
        List<String> exported = files(tablesInTurn);
        assertEquals(exported, files(tablesAtOnce));
        assertTrue(exported.contains("org.openrewrite.table.SourcesFileResults.csv"), exported.toString());
        assertFalse(exported.contains("org.openrewrite.table.SourcesFileErrors.csv"), exported.toString());
    }

    /** A request's learned recipes load through its thread's context class loader: so do its runs'. */
    @Test
    void runsAtOnceHaveTheRequestsContextClassLoader() throws Exception {
        RunThreads.threads(2);
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try (java.net.URLClassLoader learned = new java.net.URLClassLoader(new java.net.URL[0], before)) {
            thread.setContextClassLoader(learned);
            List<ClassLoader> seen = RunThreads.all(List.of(
                    () -> Thread.currentThread().getContextClassLoader(),
                    () -> Thread.currentThread().getContextClassLoader(),
                    () -> Thread.currentThread().getContextClassLoader()));
            assertEquals(List.of(learned, learned, learned), seen);
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    private static List<String> files(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
