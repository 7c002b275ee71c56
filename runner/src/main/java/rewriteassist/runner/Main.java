package rewriteassist.runner;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.maven.MavenContexts;
import rewriteassist.runner.maven.MavenUserSettings;
import rewriteassist.runner.measure.EarlierChecks;
import rewriteassist.runner.measure.Residual;
import rewriteassist.runner.net.Network;
import rewriteassist.runner.net.RepositoryPolicy;
import rewriteassist.runner.net.SafeXml;
import rewriteassist.runner.parse.HeadFiles;
import rewriteassist.runner.parse.RepositoryParser;
import rewriteassist.runner.protocol.BadRequest;
import rewriteassist.runner.protocol.CompileTemplatesRequest;
import rewriteassist.runner.protocol.ErrorKind;
import rewriteassist.runner.protocol.Failure;
import rewriteassist.runner.protocol.LearnTemplatesRequest;
import rewriteassist.runner.protocol.ParseRequest;
import rewriteassist.runner.protocol.Request;
import rewriteassist.runner.protocol.Requests;
import rewriteassist.runner.protocol.RunRequest;
import rewriteassist.runner.results.FailedRequest;
import rewriteassist.runner.results.LearnResults;
import rewriteassist.runner.results.ParseResults;
import rewriteassist.runner.results.Results;
import rewriteassist.runner.results.ResultsFile;
import rewriteassist.runner.results.RunResults;
import rewriteassist.runner.run.EarlierRuns;
import rewriteassist.runner.run.RecipeRunner;
import rewriteassist.runner.template.LearnedRecipes;
import rewriteassist.runner.template.TemplateCompiler;
import rewriteassist.runner.template.TemplateLearner;

/**
 * The protocol of docs/embedded-runner.md: one request-file path per line on stdin, one results file
 * per request (written to a temporary name and renamed), one {@code done <id>} line on stdout. The
 * parsed trees live here between requests.
 *
 * <p>Stdout carries nothing but the protocol: it is taken for the protocol at start and
 * {@code System.out} is pointed at stderr, so a library that prints cannot corrupt it.
 */
public final class Main {

    /** Exit status for a request file that cannot be read or is not a request. */
    static final int BAD_REQUEST = 2;
    /** Exit status for an out-of-memory, the same as {@code -XX:+ExitOnOutOfMemoryError}'s. */
    static final int OUT_OF_MEMORY = 3;

    /**
     * Fault injection for the batch tests (a runner that dies in one case must cost that case
     * only): a runner started with {@code -D<this>=PATH} halts, as a crashed JVM would, when asked
     * to parse a root where PATH exists. Set through {@code REWRITE_ASSIST_RUNNER_JAVA_OPTIONS}.
     */
    static final String CRASH_PROPERTY = "rewriteassist.runner.crashWhenParsing";

    /** The exit status of that halt: a JVM's after SIGABRT. */
    static final int CRASHED = 134;

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
                MavenContexts.keepPomsIn(Paths.get(rest.remove(pomCache + 1)));
                rest.remove(pomCache);
            }
            Path recipeIndex = null;
            int index = rest.indexOf("--recipe-index");
            if (index >= 0 && index + 1 < rest.size()) {
                recipeIndex = Paths.get(rest.remove(index + 1));
                rest.remove(index);
            }
            if (rest.equals(List.of("--serve"))) {
                main.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), recipeIndex);
            } else if (rest.size() == 1 && !rest.get(0).startsWith("-")) {
                main.handle(Paths.get(rest.get(0)));
            } else {
                Log.log("usage: Main [--pom-cache DIR] [--recipe-index FILE] (--serve | REQUEST.json)");
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

    /**
     * Handles request after request until the end of stdin; the classpath's recipe index is read
     * from (or kept in) {@code recipeIndex} (null: made in memory).
     */
    void serve(BufferedReader in, @Nullable Path recipeIndex) throws IOException, BadRequest {
        RecipeRunner.readRecipesInBackground(recipeIndex);
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
        Request request = Requests.read(requestFile, this::reject);
        long started = System.nanoTime();
        Log.log("request " + request.id() + " (" + request.type() + ")");
        Results results;
        try {
            results = answer(request);
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Failure e) {
            results = FailedRequest.of(e.kind, e.getMessage(), e.stack);
        } catch (Throwable t) {
            Log.log("request " + request.id() + " failed: " + Log.stack(t));
            results = FailedRequest.of(ErrorKind.INTERNAL, Log.oneLine(t), Log.stack(t));
        }
        if (results instanceof FailedRequest failed && failed.seconds() == null) {
            results = failed.withSeconds(Log.seconds(started));
        }
        ResultsFile.of(request.id(), results).write(request.output());
        protocol.println("done " + request.id());
        protocol.flush();
        Log.log("done " + request.id() + " in " + String.format("%.1f", Log.seconds(started)) + " s; network so far: "
                + Network.SENDER.summary());
    }

    private Results answer(Request request) throws Exception {
        if (request instanceof ParseRequest parse) {
            return parse(parse);
        }
        if (request instanceof RunRequest run) {
            return run(run);
        }
        if (request instanceof LearnTemplatesRequest learn) {
            return learn(learn);
        }
        return TemplateCompiler.compile(((CompileTemplatesRequest) request).templates());
    }

    private LearnResults learn(LearnTemplatesRequest request) throws Failure {
        RepositoryParser.Outcome last = parsed;
        if (last == null) {
            throw new Failure(
                    ErrorKind.NO_PARSE, "no parse request came before this learn_templates (or the last one failed)");
        }
        return TemplateLearner.learn(last, request);
    }

    private ParseResults parse(ParseRequest request) throws Exception {
        String crashMarker = System.getProperty(CRASH_PROPERTY);
        if (crashMarker != null && Files.exists(request.root().resolve(crashMarker))) {
            Log.log("halting on purpose: " + crashMarker + " is in the parsed root (" + CRASH_PROPERTY + ")");
            Runtime.getRuntime().halt(CRASHED);
        }
        // The old trees go first: two repositories' trees at once could need twice the heap.
        parsed = null;
        EarlierRuns.forget();
        EarlierChecks.forget();
        Residual.forget();
        RepositoryParser.Outcome outcome = RepositoryParser.repository(
                request.root(),
                new RepositoryPolicy(
                        request.localRepository(),
                        request.trustFileRepositories(),
                        MavenUserSettings.read(request.mavenSettings()),
                        request.credentialUrls()),
                request.buildEnvironment());
        parsed = outcome;
        ParseResults results = outcome.results();
        Path head = request.headRoot();
        if (head != null) {
            results = results.withTypes(HeadFiles.types(outcome, head, request.headFiles()));
        }
        return results;
    }

    private RunResults run(RunRequest request) throws Failure {
        RepositoryParser.Outcome last = parsed;
        if (last == null) {
            throw new Failure(ErrorKind.NO_PARSE, "no parse request came before this run (or the last one failed)");
        }
        learned = learned.reuseOr(request.learnedJars(), request.learnedLibraries());
        LearnedRecipes.Scope scope = learned.activate();
        try {
            return RecipeRunner.recipe(
                    last,
                    request.recipeFiles(),
                    request.recipe(),
                    new RecipeRunner.Mode(
                            request.eachStep(),
                            request.whole(),
                            request.stopAfterSeconds(),
                            request.after(),
                            request.measure(),
                            request.datatables(),
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
}
