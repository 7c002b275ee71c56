package rewriteassist.runner.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import rewriteassist.runner.Fixture;
import rewriteassist.runner.RepositoryServer;

/**
 * The prefetch ({@link Prefetcher}) on a real repository server on loopback whose POMs each take a
 * while to arrive, as Maven Central's do from far away: a project with a dependency graph two
 * levels deep, one of whose POMs is hostile. The same project is parsed without the prefetch and
 * with it, each against a server of its own (the runner's in-memory POM cache is keyed by
 * repository, so neither run sees the other's downloads).
 */
class PrefetcherTest {
    private static final int WIDE = 12;

    @TempDir
    Path dir;

    @AfterEach
    void prefetchOnAgain() {
        Prefetcher.threads(Prefetcher.THREADS);
    }

    /** A POM of {@code group:artifact:1.0} with these dependencies' XML. */
    private static String pom(String group, String artifact, String dependencies) {
        return "<project><modelVersion>4.0.0</modelVersion><groupId>" + group + "</groupId><artifactId>" + artifact
                + "</artifactId><version>1.0</version><dependencies>" + dependencies + "</dependencies></project>\n";
    }

    private static String dependency(String group, String artifact) {
        return "<dependency><groupId>" + group + "</groupId><artifactId>" + artifact
                + "</artifactId><version>1.0</version></dependency>";
    }

    /** Forty doubling properties: 2 KB that expand to a trillion characters ({@link PomBudget}). */
    private static String bomb(String run) {
        StringBuilder properties = new StringBuilder("<p1>x</p1>");
        for (int i = 2; i <= 40; i++) {
            properties.append("<p").append(i).append(">${p").append(i - 1).append("}${p");
            properties.append(i - 1).append("}</p").append(i).append('>');
        }
        return "<project><modelVersion>4.0.0</modelVersion><groupId>" + run
                + ".evil</groupId><artifactId>bomb</artifactId>" + "<version>1.0</version><properties>" + properties
                + "</properties></project>\n";
    }

    /**
     * The graph: {@code run}.wide:w0..w11, each depending on {@code run}.deep:dN; d0 depends on the
     * bomb. The groups are the run's own: Maven Central is asked for the bomb too, and its "not
     * found" stays in the in-memory cache.
     */
    private static RepositoryServer repository(String run) throws Exception {
        RepositoryServer server = new RepositoryServer().slowPoms(150);
        for (int i = 0; i < WIDE; i++) {
            String deep = dependency(run + ".deep", "d" + i);
            server.serve(path(run + ".wide", "w" + i, "pom"), pom(run + ".wide", "w" + i, deep));
            server.serve(path(run + ".wide", "w" + i, "jar"), new byte[0]);
            String bomb = i == 0 ? dependency(run + ".evil", "bomb") : "";
            server.serve(path(run + ".deep", "d" + i, "pom"), pom(run + ".deep", "d" + i, bomb));
            server.serve(path(run + ".deep", "d" + i, "jar"), new byte[0]);
        }
        return server.serve(path(run + ".evil", "bomb", "pom"), bomb(run));
    }

    private static String path(String group, String artifact, String extension) {
        return "/" + group.replace('.', '/') + "/" + artifact + "/1.0/" + artifact + "-1.0." + extension;
    }

    private record Outcome(int mostAtOnce, Set<String> poms, String modules, String warnings, String log) {}

    /** Parses the project against a fresh server with {@code threads} downloads at once. */
    private Outcome parse(String name, int threads) throws Exception {
        Prefetcher.threads(threads);
        try (RepositoryServer server = repository(name)) {
            StringBuilder dependencies = new StringBuilder();
            for (int i = 0; i < WIDE; i++) {
                dependencies.append(dependency(name + ".wide", "w" + i));
            }
            String project = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>"
                    + "<groupId>com.acme</groupId><artifactId>app</artifactId><version>1.0</version>"
                    + "<repositories><repository><id>declared</id><url>" + server.url()
                    + "</url></repository></repositories><dependencies>" + dependencies + "</dependencies></project>\n";
            Fixture fixture = new Fixture(dir.resolve(name));
            Files.createDirectories(fixture.dir());
            Path root = fixture.repo("pom.xml", project, "src/main/java/App.java", "class App {}\n");
            Path local = Files.createDirectories(dir.resolve(name + "-repository"));
            PrintStream before = System.err;
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
            JsonNode results;
            try {
                results = fixture.send(fixture.parseRequest(root, local, false));
            } finally {
                System.setErr(before);
            }
            assertTrue(results.path("ok").asBoolean(), results.toString());
            Set<String> poms = new TreeSet<>();
            for (String request : server.requests()) {
                if (request.endsWith(".pom")) {
                    poms.add(request.replace("/" + name + "/", "/"));
                }
            }
            String url = server.url();
            return new Outcome(
                    server.mostPomsAtOnce(),
                    poms,
                    results.path("modules")
                            .toString()
                            .replace(url, "URL")
                            .replace(name + "/", "")
                            .replace(name + ".", ""),
                    results.path("warnings")
                            .toString()
                            .replace(url, "URL")
                            .replace(name + "/", "")
                            .replace(name + ".", ""),
                    log.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void downloadsInParallelWithinTheBoundWithTheSameResultsAndRefusals() throws Exception {
        Outcome sequential = parse("sequential", 1);
        Outcome parallel = parse("parallel", Prefetcher.THREADS);

        assertEquals(1, sequential.mostAtOnce(), "without the prefetch, rewrite-maven asks one POM at a time");
        assertTrue(
                parallel.mostAtOnce() > 1 && parallel.mostAtOnce() <= Prefetcher.THREADS,
                "POMs at once with the prefetch: " + parallel.mostAtOnce());
        assertEquals(sequential.modules(), parallel.modules());
        assertEquals(sequential.warnings(), parallel.warnings());
        assertEquals(sequential.poms(), parallel.poms(), "the prefetch asks for what the resolution needs");
        // The hostile POM is refused in both, by the same check, and named in the warnings.
        for (Outcome outcome : new Outcome[] {sequential, parallel}) {
            assertTrue(outcome.log().contains("expand it to more than"), outcome.log());
            assertTrue(outcome.warnings().contains("evil:bomb"), outcome.warnings());
        }
        assertTrue(parallel.log().contains("prefetched"), parallel.log());
    }
}
