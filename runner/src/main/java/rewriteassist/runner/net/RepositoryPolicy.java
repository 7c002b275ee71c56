package rewriteassist.runner.net;

import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.maven.MavenUserSettings;

/**
 * Where the runner may take artifacts from. Repositories come from untrusted POMs and build
 * scripts: HTTP(S) repositories are what Maven would use anyway, but a {@code file:} repository
 * named by a POM reads (and copies into the shared local repository) whatever the machine has at
 * that path. So {@code file:} is allowed for the local repository only, unless the user trusts the
 * repository's build configuration ({@code --trust-build-config}). Every refusal, and every
 * repository whose jars could not be verified, is recorded once for the parse's warnings.
 *
 * <p>The user's Maven settings come along (mirrors and credentials: how artifacts are reached), and
 * so do the repositories that refused access for want of them ({@link AccessDenied}).
 */
public final class RepositoryPolicy {
    private final Path localRepository;
    private final boolean trustFileRepositories;
    private final MavenUserSettings settings;
    private final ScopedSender sender;
    private final AccessDenied accessDenied;
    private final Set<String> notices = new LinkedHashSet<>();

    public RepositoryPolicy(Path localRepository, boolean trustFileRepositories) {
        this(localRepository, trustFileRepositories, MavenUserSettings.NONE);
    }

    public RepositoryPolicy(Path localRepository, boolean trustFileRepositories, MavenUserSettings settings) {
        this(localRepository, trustFileRepositories, settings, Map.of());
    }

    /**
     * With the URLs the user allowed a server's credentials to go to, by server id, besides those
     * their settings name ({@code --credential-url}, {@link CredentialScope}).
     */
    public RepositoryPolicy(
            Path localRepository,
            boolean trustFileRepositories,
            MavenUserSettings settings,
            Map<String, List<String>> credentialUrls) {
        this.localRepository = localRepository.toAbsolutePath().normalize();
        this.trustFileRepositories = trustFileRepositories;
        this.settings = settings;
        this.sender = new ScopedSender(Network.SENDER, CredentialScope.of(settings.settings(), credentialUrls));
        this.accessDenied = new AccessDenied(settings, sender.scope());
    }

    public MavenUserSettings settings() {
        return settings;
    }

    /**
     * The HTTP sender of this parse and its runs: counted and bounded ({@link Network}), credentials
     * only where they may go and only once asked ({@link ScopedSender}).
     */
    public ScopedSender sender() {
        return sender;
    }

    /** Where credentials may go; Gradle builds add their repositories' to it. */
    public CredentialScope credentials() {
        return sender.scope();
    }

    public AccessDenied accessDenied() {
        return accessDenied;
    }

    /**
     * What stands between the user and their private repositories: settings that could not be read,
     * repositories that refused access. First among the warnings, since a report shows the first few.
     */
    public List<String> accessProblems() {
        List<String> problems = new ArrayList<>();
        if (settings.problem() != null) {
            problems.add(settings.problem());
        }
        problems.addAll(accessDenied.warnings());
        problems.addAll(settings.unsetWarnings());
        problems.addAll(sender.scope().warnings());
        return problems;
    }

    public Path localRepository() {
        return localRepository;
    }

    /** Why artifacts may not come from {@code uri}, or null when they may. */
    @Nullable
    public String refusal(@Nullable String uri) {
        if (uri == null) {
            return "a repository without a URL";
        }
        String lower = uri.toLowerCase(Locale.ROOT);
        if (lower.startsWith("https:") || lower.startsWith("http:")) {
            return null;
        }
        if (isLocalRepository(uri)) {
            return null;
        }
        if (lower.startsWith("file:")) {
            if (trustFileRepositories) {
                return null;
            }
            return "file repository " + uri
                    + " is not used: a POM or build script named it (--trust-build-config allows it)";
        }
        return "repository " + uri + " is not used: only HTTP(S) repositories are";
    }

    /**
     * Whether {@code uri} is the local repository: as a {@code file:} URI, or in the user-neutral
     * form rewrite-maven records on POMs it found there ({@code ~/.m2/repository}).
     */
    boolean isLocalRepository(String uri) {
        try {
            Path path = uri.startsWith("~")
                    ? Paths.get(System.getProperty("user.home") + uri.substring(1))
                    : uri.regionMatches(true, 0, "file:", 0, 5) ? Paths.get(URI.create(uri)) : null;
            return path != null && path.toAbsolutePath().normalize().equals(localRepository);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Records a refusal (once per message) and logs it. */
    public void refuse(@Nullable String why) {
        record("refused: " + why);
    }

    /** Records something the user should know about a repository (once per message). */
    void note(String what) {
        record(what);
    }

    private void record(String line) {
        String one = Log.oneLine(line);
        boolean first;
        synchronized (notices) {
            first = notices.add(one);
        }
        if (first) {
            Log.log(one);
        }
    }

    /** The refusals and notes so far, in order. */
    public List<String> notices() {
        synchronized (notices) {
            return new ArrayList<>(notices);
        }
    }
}
