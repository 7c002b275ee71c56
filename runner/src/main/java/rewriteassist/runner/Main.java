package rewriteassist.runner;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.common.Jackson;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.maven.MavenUserSettings;
import rewriteassist.runner.maven.Reactor;
import rewriteassist.runner.measure.EarlierChecks;
import rewriteassist.runner.measure.Measurements;
import rewriteassist.runner.measure.Residual;
import rewriteassist.runner.net.Network;
import rewriteassist.runner.net.RepositoryPolicy;
import rewriteassist.runner.net.SafeXml;
import rewriteassist.runner.parse.HeadFiles;
import rewriteassist.runner.parse.RepositoryParser;
import rewriteassist.runner.protocol.BadRequest;
import rewriteassist.runner.protocol.ErrorKind;
import rewriteassist.runner.protocol.FailedRequest;
import rewriteassist.runner.protocol.Failure;
import rewriteassist.runner.protocol.ParseResults;
import rewriteassist.runner.protocol.Results;
import rewriteassist.runner.protocol.ResultsFile;
import rewriteassist.runner.protocol.RunResults;
import rewriteassist.runner.protocol.TemplateRequest;
import rewriteassist.runner.run.EarlierRuns;
import rewriteassist.runner.run.RecipeRunner;
import rewriteassist.runner.template.LearnedRecipes;
import rewriteassist.runner.template.TemplateCompiler;

/**
 * The protocol of docs/embedded-runner.md: one request-file path per line on stdin, one results file
 * per request (written to a temporary name and renamed), one {@code done <id>} line on stdout. The
 * parsed trees live here between requests.
 *
 * <p>Stdout carries nothing but the protocol: it is taken for the protocol at start and
 * {@code System.out} is pointed at stderr, so a library that prints cannot corrupt it.
 */
public final class Main {
    static final String COMPILE_TEMPLATES = "compile_templates";

    /** Exit status for a request file that cannot be read or is not a request. */
    static final int BAD_REQUEST = 2;
    /** Exit status for an out-of-memory, the same as {@code -XX:+ExitOnOutOfMemoryError}'s. */
    static final int OUT_OF_MEMORY = 3;

    private final PrintStream protocol;
    /** The trees of the last parse (and where they came from); null before any. */
    private RepositoryParser.@Nullable Outcome parsed;
    /** The learned recipe jars of the last run, kept for the next run that names the same. */
    private LearnedRecipes learned = LearnedRecipes.NONE;

    Main(PrintStream protocol) {
        this.protocol = protocol;
        SafeXml.harden();
    }

    /** The last parse's trees, for tests. */
    public RepositoryParser.@Nullable Outcome parsed() {
        return parsed;
    }

    public static void main(String[] args) {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        ParentWatch.start();
        Main main = new Main(protocol);
        try {
            List<String> rest = new ArrayList<>(List.of(args));
            int pomCache = rest.indexOf("--pom-cache");
            if (pomCache >= 0 && pomCache + 1 < rest.size()) {
                Reactor.keepPomsIn(Paths.get(rest.remove(pomCache + 1)));
                rest.remove(pomCache);
            }
            if (rest.equals(List.of("--serve"))) {
                main.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
            } else if (rest.size() == 1 && !rest.get(0).startsWith("-")) {
                main.handle(Paths.get(rest.get(0)));
            } else {
                Log.log("usage: Main [--pom-cache DIR] (--serve | REQUEST.json)");
                System.exit(BAD_REQUEST);
            }
        } catch (BadRequest e) {
            Log.log("not a request: " + e.getMessage());
            System.exit(BAD_REQUEST);
        } catch (OutOfMemoryError e) {
            // Normally -XX:+ExitOnOutOfMemoryError ends the JVM first; this is for runs without it.
            Runtime.getRuntime().halt(OUT_OF_MEMORY);
        } catch (IOException e) {
            Log.log("cannot read stdin: " + e);
            System.exit(1);
        }
        System.exit(0);
    }

    /** Handles request after request until the end of stdin. */
    void serve(BufferedReader in) throws IOException, BadRequest {
        RecipeRunner.readRecipesInBackground();
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.isBlank()) {
                handle(Paths.get(line.strip()));
            }
        }
    }

    /**
     * Handles one request: writes its results file, then prints {@code done <id>}. A request that
     * fails still gets results ({@code ok: false}); only an unusable request file throws.
     */
    public void handle(Path requestFile) throws BadRequest {
        Request request = Request.read(requestFile, this::reject);
        long started = System.nanoTime();
        Log.log("request " + request.id + " (" + request.type + ")");
        Results results;
        try {
            results = switch (request.type) {
                case "parse" -> parse(request);
                case "run" -> run(request);
                case COMPILE_TEMPLATES -> TemplateCompiler.compile(request.templates());
                default -> throw new IllegalStateException("unreachable: " + request.type);
            };
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Failure e) {
            results = FailedRequest.of(e.kind, e.getMessage(), e.stack);
        } catch (Throwable t) {
            Log.log("request " + request.id + " failed: " + Log.stack(t));
            results = FailedRequest.of(ErrorKind.INTERNAL, Log.oneLine(t), Log.stack(t));
        }
        if (results instanceof FailedRequest failed && failed.seconds() == null) {
            results = failed.withSeconds(Log.seconds(started));
        }
        ResultsFile.of(request.id, results).write(request.output);
        protocol.println("done " + request.id);
        protocol.flush();
        Log.log("done " + request.id + " in " + String.format("%.1f", Log.seconds(started)) + " s; network so far: "
                + Network.SENDER.summary());
    }

    private ParseResults parse(Request request) throws Exception {
        // The old trees go first: two repositories' trees at once could need twice the heap.
        parsed = null;
        EarlierRuns.forget();
        EarlierChecks.forget();
        Residual.forget();
        RepositoryParser.Outcome outcome = RepositoryParser.repository(
                request.root(),
                new RepositoryPolicy(
                        request.localRepository(),
                        request.trustFileRepositories,
                        MavenUserSettings.read(request.mavenSettings),
                        request.credentialUrls),
                request.buildEnvironment);
        parsed = outcome;
        ParseResults results = outcome.results();
        if (request.headRoot != null) {
            results = results.withTypes(HeadFiles.types(outcome, request.headRoot, request.headFiles));
        }
        return results;
    }

    private RunResults run(Request request) throws Failure {
        RepositoryParser.Outcome last = parsed;
        if (last == null) {
            throw new Failure(ErrorKind.NO_PARSE, "no parse request came before this run (or the last one failed)");
        }
        learned = learned.reuseOr(request.learnedJars, request.learnedLibraries);
        LearnedRecipes.Scope scope = learned.activate();
        try {
            return RecipeRunner.recipe(
                    last,
                    request.recipeFiles,
                    request.recipe(),
                    new RecipeRunner.Mode(
                            request.eachStep,
                            request.whole,
                            request.stopAfterSeconds,
                            request.after,
                            request.measure,
                            request.datatables,
                            learned));
        } finally {
            scope.close();
        }
    }

    /**
     * Answers a request file that is not a request: its results say why when the output path is
     * known, and the runner then exits with {@link #BAD_REQUEST}.
     */
    private BadRequest reject(String why, @Nullable String id, @Nullable Path output) {
        if (output != null) {
            // No request was handled, so these results have no `seconds`.
            ResultsFile.of(id, FailedRequest.of(ErrorKind.INTERNAL, "not a request: " + why, null))
                    .write(output);
            if (id != null) {
                protocol.println("done " + id);
                protocol.flush();
            }
        }
        return new BadRequest(why);
    }

    /** A request file, checked against the protocol. */
    static final class Request {
        final String id;
        final String type;
        final Path output;
        /** The repository to parse (a parse request's only). */
        private final @Nullable Path root;

        private final @Nullable Path localRepository;
        /** Whether {@code file:} repositories named by POMs and build scripts may be read. */
        final boolean trustFileRepositories;
        /** The user's Maven settings.xml (null: none): mirrors, servers, profiles. */
        final @Nullable Path mavenSettings;
        /** Per server id, URLs its credentials may go to besides those the settings name. */
        final Map<String, List<String>> credentialUrls;
        /** The CI's variables for {@code BuildEnvironment} (the runner's own environment has none). */
        final Map<String, String> buildEnvironment;
        /** Where the PR's head versions of the changed files are (null: none), and which they are. */
        final @Nullable Path headRoot;

        final List<String> headFiles;

        final List<Path> recipeFiles;
        /** The recipe to run (a run request's only). */
        private final @Nullable String recipe;

        final boolean eachStep;
        /** Whether the recipe also runs as a whole (discovery only wants each step on its own). */
        final boolean whole;
        /** With each step on its own: no step starts after this many seconds (0: no limit). */
        final double stopAfterSeconds;
        /**
         * A recipe (in {@link #recipeFiles}) run once first; the steps then run on its result and
         * report what they change of it (null: the steps run on the parsed trees).
         */
        final @Nullable String after;

        /** What to measure of the whole run (a run request's {@code measure}; null: nothing). */
        final @Nullable Measurements measure;

        /** Where the whole run exports its data tables (a run request's {@code datatables}; null: nowhere). */
        final @Nullable Path datatables;

        /** Learned recipe jars whose recipes a run may name, and the libraries their templates use. */
        final List<Path> learnedJars;

        final List<Path> learnedLibraries;

        /** What to compile (a compile_templates request's only). */
        private final @Nullable TemplateRequest templates;

        TemplateRequest templates() {
            return Objects.requireNonNull(templates, "only a compile_templates request has templates");
        }

        Path root() {
            return Objects.requireNonNull(root, "only a parse request has a root");
        }

        Path localRepository() {
            return Objects.requireNonNull(localRepository, "only a parse request has a local repository");
        }

        String recipe() {
            return Objects.requireNonNull(recipe, "only a run request has a recipe");
        }

        interface Rejecter {
            BadRequest reject(String why, @Nullable String id, @Nullable Path output);
        }

        private Request(JsonNode json, String id, String type, Path output, Rejecter rejecter) throws BadRequest {
            this.id = id;
            this.type = type;
            this.output = output;
            if (type.equals("parse")) {
                root = Paths.get(text(json, "root", rejecter));
                String local = json.path("local_repository").asText("");
                localRepository = local.isEmpty()
                        ? Paths.get(System.getProperty("user.home"), ".m2", "repository")
                        : Paths.get(local);
                trustFileRepositories = json.path("trust_file_repositories").asBoolean(false);
                String settings = json.path("maven_settings").asText("");
                mavenSettings = settings.isEmpty() ? null : Paths.get(settings);
                Map<String, List<String>> allowed = new java.util.LinkedHashMap<>();
                json.path("credential_urls").properties().forEach(e -> {
                    List<String> urls = new ArrayList<>();
                    e.getValue().forEach(url -> urls.add(url.asText()));
                    allowed.put(e.getKey(), List.copyOf(urls));
                });
                credentialUrls = Map.copyOf(allowed);
                Map<String, String> environment = new java.util.HashMap<>();
                json.path("build_environment")
                        .properties()
                        .forEach(e -> environment.put(e.getKey(), e.getValue().asText()));
                buildEnvironment = Map.copyOf(environment);
                JsonNode head = json.path("head");
                headRoot = head.path("root").isTextual()
                        ? Paths.get(head.path("root").asText()).toAbsolutePath().normalize()
                        : null;
                List<String> files = new ArrayList<>();
                head.path("files").forEach(f -> files.add(f.asText()));
                headFiles = List.copyOf(files);
                recipeFiles = List.of();
                recipe = null;
                eachStep = false;
                whole = true;
                stopAfterSeconds = 0;
                after = null;
                measure = null;
                datatables = null;
                learnedJars = List.of();
                learnedLibraries = List.of();
                templates = null;
            } else if (type.equals(COMPILE_TEMPLATES)) {
                root = null;
                localRepository = null;
                trustFileRepositories = false;
                mavenSettings = null;
                credentialUrls = Map.of();
                buildEnvironment = Map.of();
                headRoot = null;
                headFiles = List.of();
                recipeFiles = List.of();
                recipe = null;
                eachStep = false;
                whole = true;
                stopAfterSeconds = 0;
                after = null;
                measure = null;
                datatables = null;
                learnedJars = List.of();
                learnedLibraries = List.of();
                try {
                    templates = TemplateRequest.from(json);
                } catch (IllegalArgumentException e) {
                    throw rejecter.reject(e.getMessage(), id, output);
                }
            } else {
                root = null;
                localRepository = null;
                trustFileRepositories = false;
                mavenSettings = null;
                credentialUrls = Map.of();
                buildEnvironment = Map.of();
                headRoot = null;
                headFiles = List.of();
                if (!json.path("recipe_files").isArray()) {
                    throw rejecter.reject("`recipe_files` is not a list", id, output);
                }
                recipeFiles = java.util.stream.StreamSupport.stream(
                                json.path("recipe_files").spliterator(), false)
                        .map(file -> Paths.get(file.asText()))
                        .toList();
                recipe = text(json, "recipe", rejecter);
                eachStep = json.path("each_step").asBoolean(false);
                whole = json.path("whole").asBoolean(true);
                stopAfterSeconds = json.path("stop_after_seconds").asDouble(0);
                after = json.path("after").isTextual()
                                && !json.path("after").asText().isEmpty()
                        ? json.path("after").asText()
                        : null;
                measure = Measurements.from(json.path("measure"));
                datatables = json.path("datatables").isTextual()
                                && !json.path("datatables").asText().isEmpty()
                        ? Paths.get(json.path("datatables").asText())
                        : null;
                learnedJars = paths(json.path("learned").path("jars"));
                learnedLibraries = paths(json.path("learned").path("libraries"));
                templates = null;
            }
        }

        private static List<Path> paths(JsonNode list) {
            List<Path> paths = new ArrayList<>();
            list.forEach(path -> paths.add(Paths.get(path.asText())));
            return List.copyOf(paths);
        }

        private String text(JsonNode json, String field, Rejecter rejecter) throws BadRequest {
            JsonNode value = json.get(field);
            if (value == null || !value.isTextual() || value.asText().isEmpty()) {
                throw rejecter.reject("`" + field + "` is missing", id, output);
            }
            return value.asText();
        }

        static Request read(Path file, Rejecter rejecter) throws BadRequest {
            JsonNode json;
            try {
                json = Jackson.MAPPER.readTree(file.toFile());
            } catch (IOException | RuntimeException e) {
                throw rejecter.reject(file + " cannot be read as JSON: " + Log.oneLine(e), null, null);
            }
            if (json == null || !json.isObject()) {
                throw rejecter.reject(file + " is not a JSON object", null, null);
            }
            String outputText = json.path("output").asText("");
            Path output = outputText.isEmpty() ? null : Paths.get(outputText);
            String id = json.path("id").isTextual() ? json.path("id").asText() : null;
            if (output == null) {
                throw rejecter.reject(file + " has no `output`", id, null);
            }
            if (id == null || id.isEmpty()) {
                throw rejecter.reject(file + " has no `id`", null, output);
            }
            if (json.path("protocol").asInt(-1) != ResultsFile.PROTOCOL) {
                throw rejecter.reject(
                        "protocol " + json.path("protocol") + " is not " + ResultsFile.PROTOCOL, id, output);
            }
            String type = json.path("type").asText("");
            if (!type.equals("parse") && !type.equals("run") && !type.equals(COMPILE_TEMPLATES)) {
                throw rejecter.reject("unknown request type `" + type + "`", id, output);
            }
            return new Request(json, id, type, output, rejecter);
        }
    }
}
