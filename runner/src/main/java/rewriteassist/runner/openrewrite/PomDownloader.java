package rewriteassist.runner.openrewrite;

import java.util.List;
import java.util.Map;
import org.openrewrite.ExecutionContext;
import org.openrewrite.maven.MavenDownloadingException;
import org.openrewrite.maven.MavenDownloadingExceptions;
import org.openrewrite.maven.MavenExecutionContextView;
import org.openrewrite.maven.internal.MavenPomDownloader;
import org.openrewrite.maven.tree.GroupArtifact;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenMetadata;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.Pom;
import org.openrewrite.maven.tree.ResolvedDependency;
import org.openrewrite.maven.tree.ResolvedPom;
import org.openrewrite.maven.tree.Scope;

/**
 * rewrite-maven's {@code MavenPomDownloader} (internal): POMs and version lists downloaded, and POMs
 * resolved with it, as rewrite-maven's own resolution does.
 */
public final class PomDownloader {
    private final MavenPomDownloader downloader;

    private PomDownloader(MavenPomDownloader downloader) {
        this.downloader = downloader;
    }

    /** The context-only downloader: the context's settings, without Maven Central unless told. */
    public static PomDownloader of(ExecutionContext ctx) {
        return new PomDownloader(new MavenPomDownloader(ctx));
    }

    /** A downloader with the context's settings and active profiles, Maven Central included. */
    public static PomDownloader withSettings(ExecutionContext ctx) {
        MavenExecutionContextView maven = MavenExecutionContextView.view(ctx);
        return new PomDownloader(new MavenPomDownloader(Map.of(), ctx, maven.getSettings(), maven.getActiveProfiles()));
    }

    /** The POM of {@code gav} from {@code repositories} (and those the context knows). */
    public Pom download(GroupArtifactVersion gav, List<MavenRepository> repositories) throws MavenDownloadingException {
        return downloader.download(gav, null, null, repositories);
    }

    /** The version list of an artifact from the repositories the context knows. */
    public MavenMetadata metadata(GroupArtifact artifact) throws MavenDownloadingException {
        return downloader.downloadMetadata(artifact, null, List.of());
    }

    /** A downloaded POM resolved without active profiles: parents, imports and properties. */
    public ResolvedPom resolve(Pom pom, List<MavenRepository> repositories, ExecutionContext ctx)
            throws MavenDownloadingException {
        return pom.resolve(List.of(), downloader, repositories, ctx);
    }

    /** {@code pom} resolved again, with this downloader. */
    public ResolvedPom resolve(ResolvedPom pom, ExecutionContext ctx) throws MavenDownloadingException {
        return pom.resolve(ctx, downloader);
    }

    /** The dependencies of a resolved POM in {@code scope}, transitive ones included. */
    public List<ResolvedDependency> dependencies(ResolvedPom pom, Scope scope, ExecutionContext ctx)
            throws MavenDownloadingExceptions {
        return pom.resolveDependencies(scope, downloader, ctx);
    }
}
