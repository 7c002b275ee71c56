package rewriteassist.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import rewriteassist.runner.common.Jackson;

/**
 * Small git repositories, request files and a runner to send them to, in a temporary directory.
 * Registered as an extension ({@code @RegisterExtension final Fixture fixture = new Fixture();}),
 * each test gets a temporary directory of its own ({@link #root}), deleted after it.
 */
public final class Fixture implements BeforeEachCallback, AfterEachCallback {
    final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    public final Main main = new Main(new PrintStream(stdout, true, StandardCharsets.UTF_8));
    private final @Nullable String subdirectory;
    private @Nullable Path root;
    private @Nullable Path dir;
    private int requests;

    /** A fixture for {@code @RegisterExtension}, working in the test's temporary directory. */
    public Fixture() {
        this.subdirectory = null;
    }

    /**
     * A fixture for {@code @RegisterExtension} working in {@code subdirectory} of the test's
     * temporary directory, whose rest the test uses for other files (a local repository, a server's).
     */
    public static Fixture in(String subdirectory) {
        return new Fixture(subdirectory);
    }

    private Fixture(String subdirectory) {
        this.subdirectory = subdirectory;
    }

    /** A fixture in {@code dir}, for a test that makes several. */
    public Fixture(Path dir) {
        this.subdirectory = null;
        this.root = dir;
        this.dir = dir;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        root = Files.createTempDirectory("runner-test-");
        dir = subdirectory == null ? root : root.resolve(subdirectory);
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        Path temporary = root;
        if (temporary != null) {
            try (Stream<Path> paths = Files.walk(temporary)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    /** The test's temporary directory. */
    public Path root() {
        return Objects.requireNonNull(root, "the fixture is not registered as an extension");
    }

    /** Where the requests, their results and the repositories go. */
    public Path dir() {
        return Objects.requireNonNull(dir, "the fixture is not registered as an extension");
    }

    /** A git repository with the given files (path, content, path, content, …), committed. */
    public Path repo(String... pathsAndContents) throws IOException, InterruptedException {
        Path root = dir().resolve("repo");
        for (int i = 0; i < pathsAndContents.length; i += 2) {
            Path file = root.resolve(pathsAndContents[i]);
            Files.createDirectories(file.getParent());
            Files.writeString(file, pathsAndContents[i + 1]);
        }
        git(root, "init", "-q", ".");
        git(root, "add", "-A");
        git(root, "-c", "user.email=test@example.org", "-c", "user.name=test", "commit", "-q", "-m", "base");
        return root;
    }

    private static void git(Path root, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(args));
        Process git = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        assertEquals(0, git.waitFor(), String.join(" ", command));
    }

    /** The local repository of the machine: the tests read the jars it has and add what they fetch. */
    public static Path localRepository() {
        return Paths.get(System.getProperty("user.home"), ".m2", "repository");
    }

    public ObjectNode parseRequest(Path root) {
        return parseRequest(root, localRepository(), false);
    }

    /** A parse with its own local repository, and whether POMs' {@code file:} repositories are trusted. */
    public ObjectNode parseRequest(Path root, Path localRepository, boolean trustFileRepositories) {
        ObjectNode request = request("parse");
        request.put("root", root.toString());
        request.put("local_repository", localRepository.toString());
        request.put("trust_file_repositories", trustFileRepositories);
        return request;
    }

    public ObjectNode runRequest(String recipeYaml, String recipe, boolean eachStep) throws IOException {
        ObjectNode request = request("run");
        Path file = dir().resolve(request.get("id").asText() + "-recipe.yml");
        Files.writeString(file, recipeYaml);
        request.putArray("recipe_files").add(file.toString());
        request.put("recipe", recipe);
        request.put("each_step", eachStep);
        return request;
    }

    /** A request of `type` with its protocol, id and output filled in. */
    public ObjectNode request(String type) {
        String id = type + "-" + ++requests;
        ObjectNode request = Jackson.MAPPER.createObjectNode();
        request.put("protocol", 1);
        request.put("id", id);
        request.put("type", type);
        request.put("output", dir().resolve(id + ".json").toString());
        return request;
    }

    /** Writes the request file; its path is what goes on the runner's stdin. */
    public Path write(ObjectNode request) throws IOException {
        Path file = dir().resolve(request.get("id").asText() + ".request.json");
        Files.writeString(file, Jackson.MAPPER.writeValueAsString(request));
        return file;
    }

    /** Sends a request to the in-process runner and reads its results. */
    public JsonNode send(ObjectNode request) throws Exception {
        main.handle(write(request));
        return results(request);
    }

    public static JsonNode results(ObjectNode request) throws IOException {
        return Jackson.MAPPER.readTree(Paths.get(request.get("output").asText()).toFile());
    }

    public JsonNode parse(Path root) throws Exception {
        JsonNode results = send(parseRequest(root));
        assertEquals(true, results.path("ok").asBoolean(), results.toString());
        return results;
    }

    public JsonNode run(String recipeYaml, String recipe) throws Exception {
        JsonNode results = send(runRequest(recipeYaml, recipe, true));
        assertEquals(true, results.path("ok").asBoolean(), results.toString());
        return results;
    }

    /**
     * Starts a runner process of its own with {@code arguments}, its stderr into {@code log}, whose
     * environment is exactly {@code environment} (and {@code PATH}, to find git), as the binary
     * starts it with its allow-list of variables.
     */
    public static Process startRunner(Path log, Map<String, String> environment, String... arguments)
            throws IOException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(
                List.of(java, "-Xmx512m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path")));
        command.add(Main.class.getName());
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(log.toFile());
        builder.environment().clear();
        builder.environment().put("PATH", System.getenv("PATH"));
        builder.environment().putAll(environment);
        return builder.start();
    }

    /** A declarative recipe named {@code name} with these entries (YAML, one per line, indented). */
    public static String recipe(String name, String... entries) {
        StringBuilder yaml = new StringBuilder("type: specs.openrewrite.org/v1beta/recipe\nname: " + name
                + "\ndisplayName: " + name + "\nrecipeList:\n");
        for (String entry : entries) {
            yaml.append("  - ").append(entry.replace("\n", "\n    ")).append('\n');
        }
        return yaml.toString();
    }

    /** The text of a test resource ({@code src/test/resources/<path>}), a fixture's file. */
    public static String testResource(String path) {
        try (InputStream in = Fixture.class.getResourceAsStream("/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String changeType(String from, String to) {
        return "org.openrewrite.java.ChangeType:\n  oldFullyQualifiedTypeName: " + from
                + "\n  newFullyQualifiedTypeName: " + to;
    }
}
