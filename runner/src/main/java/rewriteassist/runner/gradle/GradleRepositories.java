package rewriteassist.runner.gradle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openrewrite.ExecutionContext;
import org.openrewrite.maven.MavenExecutionContextView;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.MavenRepositoryCredentials;
import rewriteassist.runner.gradle.GradleScript.Repository;
import rewriteassist.runner.net.AccessDenied;
import rewriteassist.runner.net.CredentialScope;
import rewriteassist.runner.net.RepositoryPolicy;

/**
 * The repositories a Gradle build declares, as rewrite-maven's {@link MavenRepository}: with the
 * credentials their {@code credentials { }} read from {@link GradleProperties}, so that POMs and
 * jars are fetched authenticated through the runner's sender, as Maven servers' are. For each one
 * {@link AccessDenied} learns what to set should it refuse access: the Gradle property or the
 * environment variable that was missing, or that the credentials were refused.
 */
public final class GradleRepositories {
    private static final String PASS = "the action input `env` (CLI: `--pass-env`)";

    private final GradleProperties properties;
    private final AccessDenied accessDenied;
    private final CredentialScope credentials;
    private final MavenExecutionContextView ctx;

    GradleRepositories(GradleProperties properties, RepositoryPolicy policy, ExecutionContext ctx) {
        this.properties = properties;
        this.accessDenied = policy.accessDenied();
        this.credentials = policy.credentials();
        this.ctx = MavenExecutionContextView.view(ctx);
    }

    /** The build's repositories; Maven Central when it names none that the runner can use. */
    List<MavenRepository> of(List<Repository> repositories) {
        Map<String, MavenRepository> out = new LinkedHashMap<>();
        for (Repository repository : repositories) {
            String url = repository.url();
            if (url.equals(MavenRepository.MAVEN_CENTRAL.getUri())) {
                out.put(url, MavenRepository.MAVEN_CENTRAL);
            } else if ((url.startsWith("http") || url.startsWith("file:")) && !out.containsKey(url)) {
                out.put(url, mavenRepository(repository));
            }
        }
        out.putIfAbsent(MavenRepository.MAVEN_CENTRAL.getUri(), MavenRepository.MAVEN_CENTRAL);
        return List.copyOf(out.values());
    }

    private MavenRepository mavenRepository(Repository repository) {
        String id = repository.name().isEmpty() ? repository.url() : repository.name();
        MavenRepository.Builder builder = MavenRepository.builder()
                .id(id)
                .uri(repository.url())
                .releases(true)
                .snapshots(true);
        Optional<String[]> values = repository.credentials().flatMap(c -> c.values(properties));
        values.ifPresent(v -> {
            builder.username(v[0]).password(v[1]);
            // They go to this repository only, as Gradle sends them.
            credentials.allowGradleRepository(id, repository.url(), v[0], v[1]);
            // On the context too: the downloader keeps a repository's probed form (without
            // credentials) across parses, and puts the context's credentials back on it.
            MavenRepositoryCredentials these = new MavenRepositoryCredentials(id, v[0], v[1]);
            if (!ctx.getCredentials().contains(these)) {
                List<MavenRepositoryCredentials> all = new ArrayList<>(ctx.getCredentials());
                all.add(these);
                ctx.setCredentials(all);
            }
        });
        accessDenied.fixOf(id, fix(repository.credentials()));
        return builder.build();
    }

    /** What to set so that the repository accepts the runner: one sentence, names only. */
    private String fix(Optional<GradleCredentials> credentials) {
        if (credentials.isEmpty()) {
            return "its `maven { }` block in the build script declares no `credentials { }`: give it credentials from "
                    + "Gradle properties (gradle.properties, ORG_GRADLE_PROJECT_<name>) or environment variables "
                    + "passed with " + PASS;
        }
        List<String> missing = credentials.get().missing(properties);
        if (missing.isEmpty()) {
            return "the repository refused the credentials its build script gives: check them, and the account's "
                    + "access to the repository";
        }
        boolean unread = missing.stream().anyMatch(m -> m.startsWith("`"));
        return "its credentials read " + String.join(", ", missing) + ", not set for the runner: set Gradle "
                + "properties in gradle.properties (the build's or $GRADLE_USER_HOME's), pass environment variables "
                + "with " + PASS + (unread ? "; the runner evaluates only literals, properties and variables" : "");
    }
}
