package rewriteassist.runner.maven;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.maven.MavenExecutionContextView;
import org.openrewrite.maven.MavenSettings;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.net.SafeXml;
import rewriteassist.runner.openrewrite.MavenXml;

/**
 * The user's Maven settings ({@code settings.xml}), read with rewrite-maven's own {@link MavenSettings},
 * as rewrite-maven-plugin gets them from Maven: mirrors, servers (credentials, with {@code ${env.X}}
 * taken from the runner's environment), profiles and active profiles. Without them a private
 * repository's artifacts are missing and the result is quietly worse.
 *
 * <p>The file goes through rewrite-maven's XML mapper, which {@link SafeXml} hardens before the first
 * read: a DOCTYPE in it can neither read a local file nor reach a URL.
 *
 * <p>Credentials never leave this class except to the downloaders: what the runner reports about a
 * server is its id and the names of the variables it lacks, never a value.
 */
public final class MavenUserSettings {
    /** No settings: what Maven does without a settings.xml. */
    public static final MavenUserSettings NONE = new MavenUserSettings(null, null, Map.of(), null);

    /** A settings.xml is a few KiB; anything far larger is not one. */
    static final long MAX_BYTES = 1024 * 1024;

    private static final Pattern ENV = Pattern.compile("\\$\\{env\\.([A-Za-z_][A-Za-z0-9_]*)}");

    private final @Nullable Path file;
    private final @Nullable MavenSettings settings;
    /** Per server id, the {@code ${env.X}} of its credentials that the environment does not have. */
    private final Map<String, List<String>> unset;
    /** Why the file could not be used (a warning), or null. */
    private final @Nullable String problem;

    private MavenUserSettings(
            @Nullable Path file,
            @Nullable MavenSettings settings,
            Map<String, List<String>> unset,
            @Nullable String problem) {
        this.file = file;
        this.settings = settings;
        this.unset = unset;
        this.problem = problem;
    }

    /** The settings in {@code file}; {@link #NONE} when there is no file. Never throws. */
    public static MavenUserSettings read(@Nullable Path file) {
        if (file == null) {
            return NONE;
        }
        SafeXml.harden();
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                return unusable(file, "larger than " + MAX_BYTES / 1024 + " KiB");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return unusable(file, Log.oneLine(e));
        }
        List<String> errors = new ArrayList<>();
        ExecutionContext ctx = new InMemoryExecutionContext(t -> errors.add(Log.oneLine(t)));
        MavenSettings settings;
        try {
            settings = MavenSettings.parse(new Parser.Input(file, () -> new ByteArrayInputStream(bytes)), ctx);
        } catch (RuntimeException e) {
            return unusable(file, Log.oneLine(e));
        }
        if (settings == null || !errors.isEmpty()) {
            return unusable(file, errors.isEmpty() ? "not a settings file" : errors.get(0));
        }
        Map<String, List<String>> unset = unsetVariables(bytes);
        unset.forEach((server, names) -> Log.log("settings: server " + server + " needs " + names + ", not set"));
        Log.log("settings: read " + file);
        return new MavenUserSettings(file, withoutUnsetCredentials(settings), unset, null);
    }

    /**
     * The settings without the credentials that still read {@code ${env.X}} after interpolation (a
     * variable the runner was not given): sent, the literal text would be the password. Nothing is
     * sent for them, and {@link #warnings} says which variables to pass.
     */
    private static MavenSettings withoutUnsetCredentials(MavenSettings settings) {
        if (settings.getServers() == null) {
            return settings;
        }
        List<MavenSettings.Server> servers = new ArrayList<>();
        for (MavenSettings.Server server : settings.getServers().getServers()) {
            MavenSettings.Server kept = server;
            if (unresolved(server.getUsername()) || unresolved(server.getPassword())) {
                kept = kept.withUsername(null).withPassword(null);
            }
            MavenSettings.ServerConfiguration configuration = server.getConfiguration();
            if (configuration != null && configuration.getHttpHeaders() != null) {
                List<MavenSettings.HttpHeader> headers = configuration.getHttpHeaders().stream()
                        .filter(h -> !unresolved(h.getValue()))
                        .toList();
                kept = kept.withConfiguration(
                        new MavenSettings.ServerConfiguration(headers, configuration.getTimeout()));
            }
            servers.add(kept);
        }
        return settings.withServers(new MavenSettings.Servers(servers));
    }

    private static boolean unresolved(@Nullable String value) {
        return value != null && ENV.matcher(value).find();
    }

    private static MavenUserSettings unusable(Path file, String why) {
        return new MavenUserSettings(
                file,
                null,
                Map.of(),
                "Maven settings " + file + " not read (" + why + "): their mirrors and the credentials of "
                        + "private repositories are not used");
    }

    /**
     * The {@code ${env.X}} each server's credentials name and the environment does not have, read
     * from the text as written: after interpolation a value could be a secret, and only names may
     * be reported.
     */
    private static Map<String, List<String>> unsetVariables(byte[] bytes) {
        Map<String, List<String>> unset = new LinkedHashMap<>();
        MavenSettings raw;
        try {
            raw = MavenXml.readMapper().readValue(bytes, MavenSettings.class);
        } catch (IOException e) {
            return unset;
        }
        if (raw.getServers() == null) {
            return unset;
        }
        for (MavenSettings.Server server : raw.getServers().getServers()) {
            List<String> values = new ArrayList<>();
            values.add(server.getUsername());
            values.add(server.getPassword());
            if (server.getConfiguration() != null && server.getConfiguration().getHttpHeaders() != null) {
                server.getConfiguration().getHttpHeaders().forEach(h -> values.add(h.getValue()));
            }
            for (String value : values) {
                Matcher m = ENV.matcher(value == null ? "" : value);
                while (m.find()) {
                    // Where MavenSettings' interpolation looks, in its order.
                    if (System.getProperty("env." + m.group(1)) == null && System.getenv(m.group(1)) == null) {
                        unset.computeIfAbsent(server.getId(), id -> new ArrayList<>())
                                .add("${env." + m.group(1) + "}");
                    }
                }
            }
        }
        return unset;
    }

    /** Why the settings could not be used, or null. */
    @Nullable
    public String problem() {
        return problem;
    }

    /** For each server whose credentials read variables the runner was not given: a warning (nothing is sent). */
    public List<String> unsetWarnings() {
        List<String> warnings = new ArrayList<>();
        unset.forEach((id, names) -> warnings.add("the <server> `" + id + "` of " + file
                + " takes its credentials from "
                + String.join(", ", names) + ", which the runner's environment does not have, so none are sent for "
                + "it: pass them with the action input `env` (CLI: `--pass-env`)"));
        return warnings;
    }

    /** Whether the settings hold usable credentials for the server {@code id}. */
    public boolean hasCredentials(String id) {
        return settings != null
                && settings.getServers() != null
                && !unset.containsKey(id)
                && settings.getServers().getServers().stream().anyMatch(s -> id.equals(s.getId()));
    }

    /** The parsed settings, for the jar downloader; null when there are none. */
    @Nullable
    public MavenSettings settings() {
        return settings;
    }

    /**
     * Puts the settings on a context: its mirrors, credentials, active profiles and the
     * repositories of those profiles. The context's local repository is replaced too (with the
     * settings' one, or Maven's default), so set it after this.
     */
    void applyTo(ExecutionContext ctx) {
        if (settings != null) {
            MavenExecutionContextView.view(ctx).setMavenSettings(settings);
        }
    }

    /** What to set so that the repository {@code id} accepts the runner: one sentence. */
    public String fix(String id) {
        String passThrough = "the action input `env` (CLI: `--pass-env`)";
        if (settings == null && file != null) {
            return "the Maven settings " + file + " could not be read (see the warning on them)";
        }
        if (settings == null) {
            return "no Maven settings were read: add a <server> with id `" + id + "` to ~/.m2/settings.xml (action "
                    + "input `maven-settings`), its credentials ${env.…} from environment variables passed with "
                    + passThrough;
        }
        boolean declared = settings.getServers() != null
                && settings.getServers().getServers().stream().anyMatch(s -> id.equals(s.getId()));
        if (!declared) {
            return "add a <server> with id `" + id + "` to " + file
                    + ", its credentials ${env.…} from environment variables passed with " + passThrough;
        }
        List<String> missing = unset.get(id);
        if (missing != null) {
            return "the <server> `" + id + "` of " + file + " takes its credentials from " + String.join(", ", missing)
                    + ", which the runner's environment does not have: pass them with " + passThrough;
        }
        return "the repository refused the credentials of the <server> `" + id + "` of " + file
                + ": check them, and the account's access to the repository";
    }
}
