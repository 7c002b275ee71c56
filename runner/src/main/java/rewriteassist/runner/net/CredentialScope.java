package rewriteassist.runner.net;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ipc.http.HttpSender;
import org.openrewrite.maven.MavenSettings;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.common.Redaction;
import rewriteassist.runner.openrewrite.ProfileRepositories;

/**
 * Where each credential the runner holds may be sent. Maven keys a {@code <server>}'s credentials
 * by repository id alone, so any POM (a PR's, a dependency's) that declares a repository with a
 * common id ({@code company}, {@code nexus}, {@code releases}) at a host of its own would receive
 * them. Here a server's credentials go only to the URLs the user's own settings name for its id
 * (a mirror, or a repository of a profile) and to those the user allowed by name
 * ({@code --credential-url ID=URL}); a Gradle repository's only to that repository. Anything else
 * is taken off the request, and a warning names the server and the host.
 *
 * <p>A credential is recognised by the header that carries it: {@code Authorization} with a
 * server's basic credentials, or a header a server's {@code <httpHeaders>} configure. An
 * {@code Authorization} header that is no known credential is taken off too.
 */
public final class CredentialScope {
    /** Which request headers can carry credentials (lower case): Authorization, and the servers' own. */
    private final Set<String> secretHeaders = ConcurrentHashMap.newKeySet();
    /**
     * Per header (lower-case name, a newline, the value): whose credential it is. Two servers may
     * hold the same one (one account for several repositories).
     */
    private final Map<String, Set<String>> owners = new ConcurrentHashMap<>();
    /** Per owner: the URLs its credentials may go to. */
    private final Map<String, Set<Prefix>> allowed = new ConcurrentHashMap<>();
    /** Per owner, the URLs the settings name for it, for the warnings. */
    private final Map<String, Set<String>> named = new ConcurrentHashMap<>();
    /** Per owner and host, the warning of credentials withheld there, in order. */
    private final Map<String, String> withheld = new LinkedHashMap<>();
    /** Per owner, the URLs its credentials were taken off (a bounded number). */
    private final Map<String, Set<String>> withheldUrls = new ConcurrentHashMap<>();

    /** How many URLs per owner {@link #withheldUrls} keeps. */
    private static final int KEPT_URLS = 10_000;

    private CredentialScope() {
        secretHeaders.add("authorization");
    }

    /** No credentials at all. */
    static CredentialScope none() {
        return new CredentialScope();
    }

    /**
     * The scope of the user's settings (null: none) and of the URLs they allowed by server id on
     * top ({@code --credential-url}).
     */
    static CredentialScope of(@Nullable MavenSettings settings, Map<String, List<String>> allowedByUser) {
        CredentialScope scope = new CredentialScope();
        if (settings == null || settings.getServers() == null) {
            return scope;
        }
        for (MavenSettings.Server server : settings.getServers().getServers()) {
            String owner = serverOwner(server.getId());
            scope.basic(owner, server.getUsername(), server.getPassword());
            if (server.getConfiguration() != null && server.getConfiguration().getHttpHeaders() != null) {
                for (MavenSettings.HttpHeader header : server.getConfiguration().getHttpHeaders()) {
                    if (header.getName() != null && header.getValue() != null) {
                        scope.header(owner, header.getName(), header.getValue());
                    }
                }
            }
            for (String url : namedFor(settings, server.getId())) {
                scope.allow(owner, url);
                scope.named.computeIfAbsent(owner, o -> new LinkedHashSet<>()).add(url);
            }
            allowedByUser.getOrDefault(server.getId(), List.of()).forEach(url -> scope.allow(owner, url));
        }
        return scope;
    }

    /** The URLs the settings give the repository id {@code id}: its mirrors and profile repositories. */
    private static List<String> namedFor(MavenSettings settings, String id) {
        List<String> urls = new ArrayList<>();
        if (settings.getMirrors() != null) {
            for (MavenSettings.Mirror mirror : settings.getMirrors().getMirrors()) {
                if (id.equals(mirror.getId()) && mirror.getUrl() != null) {
                    urls.add(mirror.getUrl());
                }
            }
        }
        if (settings.getProfiles() != null) {
            for (MavenSettings.Profile profile : settings.getProfiles().getProfiles()) {
                urls.addAll(ProfileRepositories.urls(profile, id));
            }
        }
        return urls;
    }

    private static final String SERVER = "the <server> `";

    /** The owner name of a settings server's credentials, as warnings name it. */
    private static String serverOwner(String id) {
        return SERVER + id + "`";
    }

    /** A Gradle repository's credentials: they go to that repository only, as Gradle sends them. */
    public void allowGradleRepository(String name, String url, @Nullable String user, @Nullable String password) {
        String owner = "the Gradle repository `" + name + "`";
        basic(owner, user, password);
        allow(owner, url);
    }

    private void basic(String owner, @Nullable String user, @Nullable String password) {
        if (user == null || user.isBlank()) {
            return;
        }
        if (password != null) {
            Redaction.remember(password);
        }
        // As HttpSender's withBasicAuthentication writes it.
        String pair = user.trim() + ":" + (password == null ? "" : password.trim());
        header(
                owner,
                "Authorization",
                "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    }

    private void header(String owner, String name, String value) {
        Redaction.remember(value);
        String lower = name.toLowerCase(Locale.ROOT);
        secretHeaders.add(lower);
        owners.computeIfAbsent(lower + "\n" + value, k -> ConcurrentHashMap.newKeySet())
                .add(owner);
    }

    private void allow(String owner, String url) {
        Prefix prefix = Prefix.of(url);
        if (prefix != null) {
            allowed.computeIfAbsent(owner, o -> ConcurrentHashMap.newKeySet()).add(prefix);
        }
    }

    /** A request split by what it may carry. */
    record Admitted(HttpSender.Request anonymous, HttpSender.@Nullable Request withCredentials) {}

    /**
     * {@code request} without any credential header ({@code anonymous}), and with those of its
     * credentials that may go to its URL ({@code withCredentials}, null when none may). Each
     * credential taken off for its URL is recorded once per owner and host.
     */
    Admitted admit(HttpSender.Request request) {
        Map<String, String> kept = new LinkedHashMap<>();
        Map<String, String> credentials = new LinkedHashMap<>();
        for (Map.Entry<String, String> header : request.getRequestHeaders().entrySet()) {
            String lower = header.getKey().toLowerCase(Locale.ROOT);
            if (!secretHeaders.contains(lower)) {
                kept.put(header.getKey(), header.getValue());
                continue;
            }
            Set<String> holders = owners.getOrDefault(lower + "\n" + header.getValue(), Set.of());
            if (holders.stream().anyMatch(owner -> allows(owner, request.getUrl()))) {
                credentials.put(header.getKey(), header.getValue());
            } else {
                withhold(holders, request.getUrl());
            }
        }
        HttpSender.Request anonymous = with(request, kept);
        if (credentials.isEmpty()) {
            return new Admitted(anonymous, null);
        }
        Map<String, String> all = new LinkedHashMap<>(kept);
        all.putAll(credentials);
        return new Admitted(anonymous, with(request, all));
    }

    private boolean allows(String owner, URL url) {
        Set<Prefix> prefixes = allowed.get(owner);
        return prefixes != null && prefixes.stream().anyMatch(p -> p.covers(url));
    }

    /** Records that the credential of {@code holders} (none: of unknown origin) was taken off a request to {@code url}. */
    private void withhold(Set<String> holders, URL url) {
        for (String owner : holders) {
            Set<String> urls = withheldUrls.computeIfAbsent(owner, o -> ConcurrentHashMap.newKeySet());
            if (urls.size() < KEPT_URLS) {
                urls.add(url.toString());
            }
        }
        // One warning per credential and host, whether the host was asked over http or https.
        String host = url.getHost().toLowerCase(Locale.ROOT) + (url.getPort() == -1 ? "" : ":" + url.getPort());
        List<String> servers = holders.stream()
                .filter(o -> o.startsWith(SERVER))
                .map(o -> o.substring(SERVER.length(), o.length() - 1))
                .sorted()
                .toList();
        String warning;
        if (holders.isEmpty()) {
            warning = "an Authorization header of unknown origin was not sent to " + host;
        } else if (servers.isEmpty()) {
            warning = "the credentials of "
                    + String.join(", ", holders.stream().sorted().toList()) + " were not sent to " + host
                    + ": they go only to the repository they were given for";
        } else {
            Set<String> urls = new LinkedHashSet<>();
            servers.forEach(id -> urls.addAll(named.getOrDefault(serverOwner(id), Set.of())));
            String ids =
                    String.join(", ", servers.stream().map(id -> "`" + id + "`").toList());
            warning = "the credentials of the <server> " + ids + " of the Maven settings were not sent to " + host
                    + ", a repository the settings do not name for " + (servers.size() == 1 ? "that id" : "those ids")
                    + (urls.isEmpty()
                            ? ""
                            : " (they name "
                                    + String.join(
                                            ", ",
                                            urls.stream()
                                                    .map(AccessDenied::withoutUserInfo)
                                                    .toList()) + ")")
                    + ": a POM declared a repository under that id, and Maven settings' credentials go only where the "
                    + "settings send them. If that repository is yours, allow it with `--credential-url "
                    + servers.get(0) + "=URL` (action input `credential-urls`)";
        }
        synchronized (withheld) {
            if (withheld.putIfAbsent(String.join(",", holders.stream().sorted().toList()) + " " + host, warning)
                    == null) {
                Log.log(warning);
            }
        }
    }

    /** Whether credentials of the server {@code id} were taken off a request to the repository at {@code url}. */
    boolean withheldFrom(String id, String url) {
        Prefix repository = Prefix.of(url);
        Set<String> urls = withheldUrls.get(serverOwner(id));
        if (repository == null || urls == null) {
            return false;
        }
        return urls.stream().anyMatch(u -> {
            try {
                return repository.covers(java.net.URI.create(u).toURL());
            } catch (IllegalArgumentException | java.net.MalformedURLException e) {
                return false;
            }
        });
    }

    /** The warnings of credentials withheld so far, in order. */
    public List<String> warnings() {
        synchronized (withheld) {
            return new ArrayList<>(withheld.values());
        }
    }

    private static HttpSender.Request with(HttpSender.Request request, Map<String, String> headers) {
        return new HttpSender.Request(
                request.getUrl(),
                request.getEntity(),
                request.getMethod(),
                headers,
                request.getConnectTimeout(),
                request.getReadTimeout());
    }

    /**
     * A URL prefix credentials may go to: host and port, and a path prefix. {@code http} and
     * {@code https} are one (rewrite-maven tries {@code https} first for every {@code http}
     * repository), each with its default port.
     */
    record Prefix(String host, int port, String path) {
        static @Nullable Prefix of(String url) {
            try {
                URL parsed = java.net.URI.create(url.strip()).toURL();
                String scheme = parsed.getProtocol().toLowerCase(Locale.ROOT);
                if (!scheme.equals("http") && !scheme.equals("https")) {
                    return null;
                }
                String path = parsed.getPath().endsWith("/") ? parsed.getPath() : parsed.getPath() + "/";
                return new Prefix(parsed.getHost().toLowerCase(Locale.ROOT), port(parsed), path);
            } catch (IllegalArgumentException | java.net.MalformedURLException e) {
                return null;
            }
        }

        static int port(URL url) {
            return url.getPort() == url.getDefaultPort() ? -1 : url.getPort();
        }

        boolean covers(URL url) {
            String scheme = url.getProtocol().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https"))
                    && host.equals(url.getHost().toLowerCase(Locale.ROOT))
                    && port == port(url)
                    && (url.getPath() + (url.getPath().endsWith("/") ? "" : "/")).startsWith(path);
        }
    }
}
