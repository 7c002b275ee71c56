package rewriteassist.runner.maven;

import java.util.Comparator;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.maven.MavenDownloadingException;
import org.openrewrite.maven.tree.GroupArtifact;
import org.openrewrite.maven.tree.MavenMetadata;
import org.openrewrite.maven.tree.Version;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.openrewrite.PomDownloader;

/**
 * The newest release of an artifact below a version, from the version lists of the repositories a
 * context knows (the user's settings and Maven Central): what {@link Unavailable} puts in place of
 * a parent snapshot that cannot be downloaded.
 */
final class NewestRelease implements Unavailable.Releases {
    /** A release: numbers, and at most a release qualifier ({@code 1.2.3}, {@code 5.3.1.Final}). */
    private static final Pattern RELEASE = Pattern.compile("\\d+(\\.\\d+)*([.-](Final|RELEASE|GA))?");

    private final PomDownloader downloader;

    NewestRelease(ExecutionContext ctx) {
        // Not the context-only constructor: that one leaves Maven Central out unless told.
        this.downloader = PomDownloader.withSettings(ctx);
    }

    @Override
    public @Nullable String newestBelow(String group, String artifact, String below) {
        Version ceiling = new Version(below);
        String major = majorOf(below);
        try {
            MavenMetadata metadata = downloader.metadata(new GroupArtifact(group, artifact));
            return metadata.getVersioning().getVersions().stream()
                    .filter(v -> RELEASE.matcher(v).matches() && majorOf(v).equals(major))
                    .filter(v -> new Version(v).compareTo(ceiling) < 0)
                    .max(Comparator.comparing(Version::new))
                    .orElse(null);
        } catch (MavenDownloadingException | RuntimeException e) {
            Log.log("no release of " + group + ":" + artifact + " below " + below + ": " + Log.oneLine(e));
            return null;
        }
    }

    private static String majorOf(String version) {
        return version.split("[.-]", 2)[0];
    }
}
