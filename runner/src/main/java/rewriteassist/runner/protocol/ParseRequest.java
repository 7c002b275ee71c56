package rewriteassist.runner.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A {@code parse} request.
 *
 * @param root the repository to parse
 * @param trustFileRepositories whether {@code file:} repositories named by POMs and build scripts
 *     may be read
 * @param mavenSettings the user's Maven settings.xml (null: none): mirrors, servers, profiles
 * @param credentialUrls per server id, URLs its credentials may go to besides those the settings name
 * @param buildEnvironment the CI's variables for {@code BuildEnvironment} (the runner's own
 *     environment has none)
 * @param headRoot where the PR's head versions of the changed files are (null: none)
 * @param headFiles which files they are
 */
public record ParseRequest(
        String id,
        Path output,
        Path root,
        Path localRepository,
        boolean trustFileRepositories,
        @Nullable Path mavenSettings,
        Map<String, List<String>> credentialUrls,
        Map<String, String> buildEnvironment,
        @Nullable Path headRoot,
        List<String> headFiles)
        implements Request {
    static final String TYPE = "parse";

    @Override
    public String type() {
        return TYPE;
    }

    static ParseRequest from(JsonNode json, String id, Path output, Requests.Rejecter rejecter) throws BadRequest {
        Path root = Paths.get(Requests.text(json, "root", id, output, rejecter));
        String local = json.path("local_repository").asText("");
        Path localRepository =
                local.isEmpty() ? Paths.get(System.getProperty("user.home"), ".m2", "repository") : Paths.get(local);
        boolean trustFileRepositories = json.path("trust_file_repositories").asBoolean(false);
        String settings = json.path("maven_settings").asText("");
        Path mavenSettings = settings.isEmpty() ? null : Paths.get(settings);
        Map<String, List<String>> allowed = new LinkedHashMap<>();
        json.path("credential_urls").properties().forEach(e -> {
            List<String> urls = new ArrayList<>();
            e.getValue().forEach(url -> urls.add(url.asText()));
            allowed.put(e.getKey(), List.copyOf(urls));
        });
        Map<String, String> environment = new HashMap<>();
        json.path("build_environment")
                .properties()
                .forEach(e -> environment.put(e.getKey(), e.getValue().asText()));
        JsonNode head = json.path("head");
        Path headRoot = head.path("root").isTextual()
                ? Paths.get(head.path("root").asText()).toAbsolutePath().normalize()
                : null;
        List<String> files = new ArrayList<>();
        head.path("files").forEach(f -> files.add(f.asText()));
        return new ParseRequest(
                id,
                output,
                root,
                localRepository,
                trustFileRepositories,
                mavenSettings,
                Map.copyOf(allowed),
                Map.copyOf(environment),
                headRoot,
                List.copyOf(files));
    }
}
