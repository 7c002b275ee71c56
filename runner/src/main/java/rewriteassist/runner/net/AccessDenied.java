package rewriteassist.runner.net;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openrewrite.maven.MavenDownloadingException;
import org.openrewrite.maven.MavenDownloadingExceptions;
import org.openrewrite.maven.tree.MavenRepository;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.gradle.GradleRepositories;
import rewriteassist.runner.maven.MavenUserSettings;

/**
 * Repositories that refused the runner an artifact with 401 or 403. Such an artifact is not
 * missing, it is missing credentials, and the user can fix that: so each refusing repository is one
 * warning that names it (id and URL) and the setting to fix, first among the parse's warnings
 * (which reach the report and the PR comment). Never a silent loss.
 */
public final class AccessDenied {
    /** How rewrite-maven's downloader records an HTTP status among a failure's repository responses. */
    private static final Pattern STATUS = Pattern.compile("HTTP (401|403)");

    private final MavenUserSettings settings;
    private final CredentialScope credentials;
    /** The warning for each repository (by id and URL), in the order they refused. */
    private final Map<String, String> warnings = new LinkedHashMap<>();
    /**
     * The fix for repositories a Gradle build declares, by id: their credentials come from the
     * build script, not from a settings.xml ({@link GradleRepositories}).
     */
    private final Map<String, String> gradleFixes = new ConcurrentHashMap<>();

    AccessDenied(MavenUserSettings settings, CredentialScope credentials) {
        this.settings = settings;
        this.credentials = credentials;
    }

    /** A repository's answer, one per line of a download failure's message: {@code URL: HTTP 401}. */
    private static final Pattern RESPONSE_LINE = Pattern.compile("(?m)^(\\S+): HTTP (401|403)$");

    /**
     * Takes the refusals among what a downloader reported (anything else is left alone), and
     * returns their warnings.
     */
    public List<String> take(Throwable t) {
        List<String> found = new ArrayList<>();
        List<MavenDownloadingException> failures = new ArrayList<>();
        if (t instanceof MavenDownloadingExceptions many) {
            failures.addAll(many.getExceptions());
        } else if (t instanceof MavenDownloadingException one) {
            failures.add(one);
        }
        for (MavenDownloadingException failure : failures) {
            failure.getRepositoryResponses().forEach((repository, response) -> {
                Matcher status = STATUS.matcher(String.valueOf(response));
                if (status.matches()) {
                    found.add(refused(
                            repository, Integer.parseInt(status.group(1)), String.valueOf(failure.getFailedOn())));
                }
            });
        }
        return found;
    }

    /**
     * Takes the refusals a download failure's message names (what a recipe leaves of it on a tree:
     * {@code g:a:v failed. … Tried repositories:} then one {@code URL: HTTP 401} line each), the
     * repository found by its URL among {@code known}; returns their warnings.
     */
    public List<String> takeMessage(String message, Collection<MavenRepository> known) {
        List<String> found = new ArrayList<>();
        Matcher response = RESPONSE_LINE.matcher(message);
        while (response.find()) {
            String url = response.group(1).replaceAll("/+$", "");
            MavenRepository repository = known.stream()
                    .filter(r -> r.getUri() != null
                            && r.getUri().replaceAll("/+$", "").equals(url))
                    .findFirst()
                    .orElseGet(() -> MavenRepository.builder().id(url).uri(url).build());
            String first = message.lines().findFirst().orElse("");
            String artifact = first.contains(" failed.") ? first.substring(0, first.indexOf(" failed.")) : first;
            found.add(refused(repository, Integer.parseInt(response.group(2)), artifact));
        }
        return found;
    }

    /** From now on, a refusal by the repository {@code id} names {@code fix} (one sentence). */
    public void fixOf(String id, String fix) {
        gradleFixes.put(id, fix);
    }

    /**
     * Records that {@code repository} refused {@code artifact} with {@code status} (once per
     * repository), and returns the repository's warning.
     */
    public String refused(MavenRepository repository, int status, String artifact) {
        String id = repository.getId() == null ? "(no id)" : repository.getId();
        String fix = gradleFixes.containsKey(id)
                ? gradleFixes.get(id)
                : credentials.withheldFrom(id, repository.getUri())
                        ? "the credentials of the <server> `" + id
                                + "` go only to the URLs the Maven settings name for "
                                + "that id, and this is not one of them: if the repository is yours, allow it with "
                                + "`--credential-url " + id + "=URL` (action input `credential-urls`)"
                        : settings.fix(id);
        // A Gradle repository without a name has its URL for id.
        id = id.contains("://") ? withoutUserInfo(id).replaceAll("/+$", "") : id;
        // One repository, however a downloader spelled its URL (with or without the final slash).
        String url = withoutUserInfo(repository.getUri()).replaceAll("/+$", "");
        String warning = "repository `" + id + "` (" + url + ") refused access (HTTP " + status + ") to " + artifact
                + ", so its artifacts are missing: " + fix;
        synchronized (warnings) {
            String earlier = warnings.putIfAbsent(id + " " + url, warning);
            if (earlier == null) {
                Log.log(warning);
            }
            return earlier == null ? warning : earlier;
        }
    }

    /**
     * What to set so that the repository {@code id} at {@code url} accepts the runner: the settings'
     * fix ({@link MavenUserSettings#fix}), or, where the server's credentials were there to send but
     * may not go to this URL ({@link CredentialScope}), how to allow it.
     */
    private String settingsFix(String id, String url) {
        if (!credentials.withheldFrom(id, url)) {
            return settings.fix(id);
        }
        String allow = "`--credential-url " + id + "=URL` (action input `credential-urls`)";
        return settings.hasCredentials(id)
                ? "the credentials of the <server> `" + id + "` go only to the URLs the Maven settings name for that "
                        + "id, and this is not one of them: if the repository is yours, allow it with " + allow
                : settings.fix(id) + "; and allow this URL, which the settings do not name, with " + allow;
    }

    /** One warning per refusing repository, in order. */
    List<String> warnings() {
        synchronized (warnings) {
            return new ArrayList<>(warnings.values());
        }
    }

    /** A URL without the user and password a POM may have put into it: they never go into a report. */
    static String withoutUserInfo(String url) {
        if (url == null) {
            return "(no URL)";
        }
        try {
            URI uri = URI.create(url);
            if (uri.getRawUserInfo() == null) {
                return url;
            }
            return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null).toString();
        } catch (IllegalArgumentException | java.net.URISyntaxException e) {
            return "(a repository URL that is not a URL)";
        }
    }
}
