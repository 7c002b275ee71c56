package rewriteassist.runner.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rewriteassist.runner.Fixture.changeType;
import static rewriteassist.runner.Fixture.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import rewriteassist.runner.Fixture;

/**
 * The battery's pathological inputs (issue #31): each is one file of a real repository, beside an
 * ordinary Java source. The parse finishes within the per-file budget, only that file is lost (kept
 * as plain text or left unresolved, and named in the warnings), and a recipe still makes its
 * change to the Java source. The timeouts run the test on a thread of its own, so a parse that
 * never ends fails the test instead of hanging the build.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PathologicalInputTest {
    @RegisterExtension
    final Fixture fixture = new Fixture();

    private static final String JAVA = "package com.acme;\n\nclass A {\n}\n";

    /** A repository of {@code files} and the Java source; the parse's results. */
    private JsonNode parse(String... files) throws Exception {
        List<String> all = new ArrayList<>(List.of(files));
        all.addAll(List.of("src/main/java/com/acme/A.java", JAVA));
        Path root = fixture.repo(all.toArray(String[]::new));
        JsonNode results = fixture.send(fixture.parseRequest(root));
        assertTrue(results.path("ok").asBoolean(), results.toString());
        return results;
    }

    /** The ordinary change beside the pathological file still comes out. */
    private void theJavaChangeIsStillMade() throws Exception {
        JsonNode run = fixture.run(recipe("test.Rename", changeType("com.acme.A", "com.acme.B")), "test.Rename");
        assertTrue(run.path("runs").get(0).path("diff").asText().contains("+class B {"), run.toString());
    }

    private static void aWarningNames(JsonNode results, String file, String why) {
        boolean named = false;
        for (JsonNode warning : results.path("warnings")) {
            named |= warning.asText().contains(file) && warning.asText().contains(why);
        }
        assertTrue(named, "no warning names " + file + " (" + why + "): " + results);
    }

    private static String nestedClosures(int depth) {
        return "plugins { id 'java' }\n" + "a {\n".repeat(depth) + "}\n".repeat(depth);
    }

    @Test
    void aThousandNestedClosuresCostOnlyTheirScript() throws Exception {
        JsonNode results = parse("build.gradle", nestedClosures(1_000));
        aWarningNames(results, "build.gradle", "nested");
        assertEquals(1, results.path("files").path("by_kind").path("java").asInt(), results.toString());
        theJavaChangeIsStillMade();
    }

    @Test
    void fiveThousandNestedClosuresCostOnlyTheirScript() throws Exception {
        JsonNode results = parse("build.gradle", nestedClosures(5_000));
        aWarningNames(results, "build.gradle", "nested");
        theJavaChangeIsStillMade();
    }

    @Test
    void aCatalogOfTenThousandEntriesCostsOnlyItself() throws Exception {
        StringBuilder catalog = new StringBuilder("[versions]\n");
        for (int i = 0; i < 10_000; i++) {
            catalog.append("v").append(i).append(" = \"1.").append(i).append("\"\n");
        }
        catalog.append("[libraries]\n");
        for (int i = 0; i < 10_000; i++) {
            catalog.append("lib")
                    .append(i)
                    .append(" = { module = \"com.acme:lib")
                    .append(i)
                    .append("\", version.ref = \"v")
                    .append(i)
                    .append("\" }\n");
        }
        JsonNode results = parse(
                "settings.gradle",
                "rootProject.name = 'app'\n",
                "build.gradle",
                "plugins { id 'java' }\n",
                "gradle/libs.versions.toml",
                catalog.toString());
        aWarningNames(results, "gradle/libs.versions.toml", "entries");
        theJavaChangeIsStillMade();
    }

    @Test
    void aPomOfDoublingPropertiesCostsOnlyItself() throws Exception {
        StringBuilder properties = new StringBuilder("<p1>x</p1>");
        for (int i = 2; i <= 40; i++) {
            properties
                    .append("<p")
                    .append(i)
                    .append(">${p")
                    .append(i - 1)
                    .append("}${p")
                    .append(i - 1);
            properties.append("}</p").append(i).append('>');
        }
        String pom = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n<modelVersion>4.0.0</modelVersion>\n"
                + "<groupId>com.acme</groupId><artifactId>app</artifactId><version>1</version>\n"
                + "<properties>" + properties + "</properties>\n"
                + "<dependencies><dependency><groupId>com.acme</groupId><artifactId>lib</artifactId>"
                + "<version>${p40}</version></dependency></dependencies>\n</project>\n";
        JsonNode results = parse("pom.xml", pom);
        aWarningNames(results, "pom.xml", "propert");
        theJavaChangeIsStillMade();
    }

    /** rewrite-maven's placeholder expansion never ends on this one (it re-reads what it wrote). */
    @Test
    void aPropertyThatRefersToItselfTwiceCostsOnlyItsPom() throws Exception {
        String pom = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n<modelVersion>4.0.0</modelVersion>\n"
                + "<groupId>com.acme</groupId><artifactId>app</artifactId><version>1</version>\n"
                + "<properties><a>${a}${a}</a></properties>\n"
                + "<dependencies><dependency><groupId>com.acme</groupId><artifactId>lib</artifactId>"
                + "<version>${a}</version></dependency></dependencies>\n</project>\n";
        JsonNode results = parse("pom.xml", pom);
        aWarningNames(results, "pom.xml", "cycle");
        theJavaChangeIsStillMade();
    }

    /**
     * What the measures do not foresee, the time budget catches: a catalog within the entry limit,
     * but slower to parse than a budget of one second (the TOML parser's time grows with the square
     * of a table's entries), is kept as plain text and the run goes on.
     */
    @Test
    void aFileOverItsTimeBudgetCostsOnlyItself() throws Exception {
        StringBuilder catalog = new StringBuilder("[versions]\n");
        for (int i = 0; i < 700; i++) {
            catalog.append("v").append(i).append(" = \"1.").append(i).append("\"\n");
        }
        long before = FileBudget.seconds(1);
        try {
            JsonNode results = parse("config/versions.toml", catalog.toString());
            aWarningNames(results, "config/versions.toml", "longer than 1 s");
            assertEquals(0, results.path("files").path("by_kind").path("toml").asInt(), results.toString());
        } finally {
            FileBudget.seconds(before);
        }
        theJavaChangeIsStillMade();
    }

    /**
     * Three TOML files just under the entry limit: each is within its own budget, together they
     * cost more than the parse's total for TOML (two files at the limit), so the third is kept as
     * plain text, named in one warning. Their entries are in small tables, so that the two that
     * are parsed take a moment (the parser is slow on a large table, not on many small ones).
     */
    @Test
    void threeTomlFilesAtTheEntryLimitExhaustTheTotalBudget() throws Exception {
        StringBuilder toml = new StringBuilder();
        for (int i = 0; i < FileBudget.MAX_TOML_ENTRIES - 1; i++) {
            toml.append(i % 10 == 0 ? "[t" + i + "]\n" : "v" + i + " = \"1." + i + "\"\n");
        }
        JsonNode results = parse(
                "config/a.toml", toml.toString(), "config/b.toml", toml.toString(), "config/c.toml", toml.toString());
        assertEquals(2, results.path("files").path("by_kind").path("toml").asInt(), results.toString());
        List<String> totals = new ArrayList<>();
        for (JsonNode warning : results.path("warnings")) {
            if (warning.asText().contains("total budget")) {
                totals.add(warning.asText());
            }
        }
        assertEquals(1, totals.size(), results.toString());
        assertTrue(totals.get(0).startsWith("config/c.toml: kept as plain text"), totals.toString());
        assertEquals(1, results.path("unparsed").size(), results.toString());
        assertEquals(
                "config/c.toml", results.path("unparsed").get(0).path("path").asText());
        theJavaChangeIsStillMade();
    }

    /** The time of all TOML files is bounded too: each parse gets what is left, then none is. */
    @Test
    void theTomlFilesOfAParseShareTheirTime(@TempDir Path root) {
        TotalBudget total = TotalBudget.toml();
        long seconds = FileBudget.seconds();
        assertEquals(seconds, total.seconds());
        total.spend(TimeUnit.SECONDS.toNanos(seconds));
        assertEquals(seconds, total.seconds());
        total.spend(TimeUnit.SECONDS.toNanos(seconds - 5));
        assertEquals(5, total.seconds());
        assertFalse(total.refuses(root.resolve("a.toml"), root));
        total.spend(TimeUnit.SECONDS.toNanos(5));
        assertTrue(total.refuses(root.resolve("b.toml"), root));
        assertTrue(total.refuses(root.resolve("c.toml"), root));
        String warning = String.valueOf(total.warning());
        assertTrue(
                warning.startsWith("b.toml, c.toml: kept as plain text, not parsed")
                        && warning.contains(TotalBudget.FILES * seconds + " s"),
                warning);
        assertNull(TotalBudget.none().warning());
    }

    @Test
    void aParentCycleIsReportedNotAStackOverflow() throws Exception {
        String a = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n<modelVersion>4.0.0</modelVersion>\n"
                + "<parent><groupId>com.acme</groupId><artifactId>b</artifactId><version>1</version>"
                + "<relativePath>../b/pom.xml</relativePath></parent>\n"
                + "<artifactId>a</artifactId>\n</project>\n";
        String b = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n<modelVersion>4.0.0</modelVersion>\n"
                + "<parent><groupId>com.acme</groupId><artifactId>a</artifactId><version>1</version>"
                + "<relativePath>../a/pom.xml</relativePath></parent>\n"
                + "<artifactId>b</artifactId>\n</project>\n";
        JsonNode results = parse("a/pom.xml", a, "b/pom.xml", b);
        aWarningNames(results, "a/pom.xml", "cycle");
        theJavaChangeIsStillMade();
    }
}
