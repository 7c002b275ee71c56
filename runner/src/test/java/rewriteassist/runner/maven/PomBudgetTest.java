package rewriteassist.runner.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rewriteassist.runner.net.SafeXml;

/** What {@link PomBudget} lets through to rewrite-maven, and what it keeps out, without a parse. */
class PomBudgetTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void harden() {
        SafeXml.harden();
    }

    private static String pom(String artifact, String parent, String properties) {
        return "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>"
                + (parent == null
                        ? "<groupId>com.acme</groupId><version>1</version>"
                        : "<parent><groupId>com.acme</groupId><artifactId>" + parent
                                + "</artifactId><version>1</version></parent>")
                + "<artifactId>" + artifact + "</artifactId><properties>" + properties + "</properties>"
                + "<dependencies><dependency><groupId>com.acme</groupId><artifactId>lib</artifactId>"
                + "<version>${lib.version}</version></dependency></dependencies></project>";
    }

    private static String check(String pom) {
        return PomBudget.exceeded(pom.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void ordinaryPropertiesAndASelfReferencePass() {
        assertNull(check(pom(
                "app",
                null,
                "<revision>${revision}</revision><lib.version>2.${minor}</lib.version><minor>1</minor>"
                        + "<maven.compiler.release>17</maven.compiler.release>")));
    }

    @Test
    void aLongChainIsMeasuredWithoutRecursion() {
        StringBuilder properties = new StringBuilder("<p0>x</p0>");
        for (int i = 1; i < 20_000; i++) {
            properties
                    .append("<p")
                    .append(i)
                    .append(">${p")
                    .append(i - 1)
                    .append("}</p")
                    .append(i)
                    .append('>');
        }
        properties.append("<lib.version>${p19999}</lib.version>");
        assertNull(check(pom("app", null, properties.toString())));
    }

    @Test
    void growthCyclesAndNamesInsideNamesAreRefused() {
        StringBuilder doubling = new StringBuilder("<p1>x</p1>");
        for (int i = 2; i <= 25; i++) {
            doubling.append("<p").append(i).append(">${p").append(i - 1).append("}${p");
            doubling.append(i - 1).append("}</p").append(i).append('>');
        }
        assertTrue(check(pom("app", null, doubling.toString())).contains("expand it to more than"));
        assertTrue(check(pom("app", null, "<a>${b}</a><b>${a}${a}</b>")).contains("cycle"));
        assertTrue(check(pom("app", null, "<one>1</one><p2>${p${one}}</p2>")).contains("inside a placeholder"));
        // An inner name without a value computes no name: bnd's macro in Jackson's parent stays text.
        assertNull(check(pom("app", null, "<osgi.versionpolicy>${range;[===,=+);${@}}</osgi.versionpolicy>")));
        // The project's version is a property too: 2^19 characters here, within the budget once
        // (with p1 to p20, about 1.6 million in all), over it when ${project.version} repeats it.
        String twenty = doubling.substring(0, doubling.indexOf("<p21>"));
        String named = pom("app", null, twenty)
                .replace(
                        "<version>1</version>",
                        "<version>${p20}</version><name>${project.version}</name>"
                                + "<description>${project.version}</description>");
        assertNull(check(named.replace("${project.version}", "x")));
        assertTrue(check(named).contains("expand it to more than"), check(named));
    }

    @Test
    void aBombSplitBetweenAParentAndItsChildCostsTheChild() throws Exception {
        // The parent's p20 is 2^19 characters (about a million with p1 to p19: within the budget);
        // the child's q is four of them, but only with the parent's properties.
        StringBuilder doubling = new StringBuilder("<p1>x</p1>");
        for (int i = 2; i <= 20; i++) {
            doubling.append("<p").append(i).append(">${p").append(i - 1).append("}${p");
            doubling.append(i - 1).append("}</p").append(i).append('>');
        }
        Path parent = dir.resolve("pom.xml");
        Path child = dir.resolve("app/pom.xml");
        Files.createDirectories(child.getParent());
        Files.writeString(parent, pom("parent", null, doubling.toString()));
        Files.writeString(child, pom("app", "parent", "<q>${p20}${p20}${p20}${p20}</q>"));
        assertNull(check(Files.readString(parent)));
        assertNull(check(Files.readString(child)), "on its own the child is small");
        Map<Path, String> over = PomBudget.exceeded(dir, List.of(parent, child));
        assertEquals(List.of(child), List.copyOf(over.keySet()), over.toString());
    }

    @Test
    void aParentCycleNamesItsPath() throws Exception {
        Path a = dir.resolve("a/pom.xml");
        Path b = dir.resolve("b/pom.xml");
        Path c = dir.resolve("c/pom.xml");
        for (Path file : List.of(a, b, c)) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(a, pom("a", "b", "").replace("</parent>", "<relativePath>../b</relativePath></parent>"));
        Files.writeString(b, pom("b", "a", "").replace("</parent>", "<relativePath>../a</relativePath></parent>"));
        // c's parent is in the cycle but c is not: it stays, and resolves without its parent.
        Files.writeString(c, pom("c", "a", "").replace("</parent>", "<relativePath>../a</relativePath></parent>"));
        Map<Path, String> over = PomBudget.exceeded(dir, List.of(a, b, c));
        assertEquals(List.of(a, b), List.copyOf(over.keySet()), over.toString());
        assertEquals("its parents form a cycle (a/pom.xml -> b/pom.xml -> a/pom.xml)", over.get(a));
    }
}
