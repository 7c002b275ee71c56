package rewriteassist.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.openrewrite.SourceFile;

/**
 * The protocol loop (docs/embedded-runner.md): one request-file path per line on stdin, one results
 * file per request, one {@code done <id>} line on stdout per request. The parsed trees live here
 * between requests. Logs go to stderr only: stdout carries the protocol.
 */
public final class Main {
    static final int PROTOCOL = 1;
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The trees of the last successful parse; null before any. */
    private List<SourceFile> trees;

    private Main() {}

    /** A fresh runner state, for the tests. */
    static Main forTests() {
        return new Main();
    }

    public static void main(String[] args) throws IOException {
        Main main = new Main();
        if (args.length == 1 && !args[0].equals("--serve")) {
            System.exit(main.handle(Paths.get(args[0])) ? 0 : 2);
        }
        if (args.length != 1) {
            System.err.println("usage: Main --serve | Main REQUEST.json");
            System.exit(2);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        int status = 0;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            if (!main.handle(Paths.get(line.trim()))) {
                status = 2;
            }
        }
        System.exit(status);
    }

    /** Handles one request; false when the request file itself was unusable. */
    boolean handle(Path requestFile) {
        JsonNode request;
        try {
            request = JSON.readTree(requestFile.toFile());
        } catch (IOException | RuntimeException e) {
            System.err.println("runner: cannot read request " + requestFile + ": " + e);
            System.out.println("done ?");
            System.out.flush();
            return false;
        }
        String id = request.path("id").asText("?");
        String type = request.path("type").asText("");
        Path output = Paths.get(request.path("output").asText(requestFile + ".results.json"));
        ObjectNode results;
        boolean usable = true;
        try {
            if (request.path("protocol").asInt(-1) != PROTOCOL) {
                results = failure(id, "internal", "protocol " + request.path("protocol") + " is not " + PROTOCOL, null);
                usable = false;
            } else if (type.equals("parse")) {
                Parse.Outcome parsed = Parse.repository(
                        Paths.get(request.path("root").asText()),
                        Paths.get(request.path("local_repository").asText(defaultLocalRepository())));
                trees = parsed.trees();
                results = parsed.results();
            } else if (type.equals("run")) {
                if (trees == null) {
                    results = failure(id, "no_parse", "no parse request came before this run", null);
                } else {
                    results = Run.recipe(trees, request);
                }
            } else {
                results = failure(id, "internal", "unknown request type `" + type + "`", null);
                usable = false;
            }
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable t) {
            results = failure(id, "internal", oneLine(t), stack(t));
        }
        results.put("protocol", PROTOCOL);
        results.put("id", id);
        write(output, results);
        System.out.println("done " + id);
        System.out.flush();
        return usable;
    }

    static ObjectNode failure(String id, String kind, String message, String stack) {
        ObjectNode results = JSON.createObjectNode();
        results.put("protocol", PROTOCOL);
        results.put("id", id);
        results.put("ok", false);
        results.set("error", error(kind, message, stack));
        return results;
    }

    static ObjectNode error(String kind, String message, String stack) {
        ObjectNode error = JSON.createObjectNode();
        error.put("kind", kind);
        error.put("message", message);
        if (stack != null) {
            error.put("stack", stack);
        }
        return error;
    }

    /** Written to a temporary name and renamed, so a results file is always complete. */
    private static void write(Path output, ObjectNode results) {
        try {
            Path partial = output.resolveSibling(output.getFileName() + ".partial");
            JSON.writeValue(partial.toFile(), results);
            Files.move(partial, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("runner: cannot write " + output + ": " + e);
        }
    }

    private static String defaultLocalRepository() {
        return Paths.get(System.getProperty("user.home"), ".m2", "repository").toString();
    }

    static String oneLine(Throwable t) {
        String message =
                t.getMessage() == null ? t.getClass().getName() : t.getClass().getSimpleName() + ": " + t.getMessage();
        return message.replaceAll("\\s+", " ").trim();
    }

    /** The first lines of a stack trace: enough to see where, short enough for a report. */
    static String stack(Throwable t) {
        StringWriter text = new StringWriter();
        t.printStackTrace(new PrintWriter(text));
        return excerpt(text.toString());
    }

    static String excerpt(String trace) {
        String[] lines = trace.split("\n");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(10, lines.length); i++) {
            out.append(lines[i].stripTrailing()).append('\n');
        }
        return out.toString().stripTrailing();
    }
}
