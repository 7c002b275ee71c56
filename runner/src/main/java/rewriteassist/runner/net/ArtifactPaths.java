package rewriteassist.runner.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.openrewrite.maven.tree.ResolvedDependency;

/**
 * Maven coordinates as they become paths in the local repository. Coordinates come from untrusted
 * POMs and build scripts (the repository's, and any a declared repository serves), and the
 * downloaders join them into paths and URLs as they are: an {@code artifactId} of
 * {@code ../../../outside/a} would write a served jar outside the local repository. So every
 * coordinate is checked against Maven's own rules before it is used (the ids as Maven's model
 * validator allows them, versions without the characters it bans), and the final path must stay
 * under the local repository, symbolic links resolved.
 */
public final class ArtifactPaths {
    /** Maven's {@code DefaultModelValidator} id pattern, for group, artifact, classifier and type. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_\\-.]+");

    /** What Maven bans in a version (its {@code validateBannedCharacters}), and control characters. */
    private static final Pattern BANNED_IN_VERSION = Pattern.compile("[\\\\/:\"<>|?*\\p{Cntrl}\\s]");

    private ArtifactPaths() {}

    /**
     * Why these coordinates cannot become a path, or null when they can. {@code version},
     * {@code classifier} and {@code type} may be null (not known yet, or absent).
     */
    public static @Nullable String problem(
            @Nullable String group,
            @Nullable String artifact,
            @Nullable String version,
            @Nullable String classifier,
            @Nullable String type) {
        if (group == null || !ID.matcher(group).matches() || hasEmptySegment(group)) {
            return "groupId `" + printable(group) + "` is not a valid Maven id";
        }
        if (artifact == null || !ID.matcher(artifact).matches() || isDots(artifact)) {
            return "artifactId `" + printable(artifact) + "` is not a valid Maven id";
        }
        if (version != null
                && (version.isEmpty()
                        || BANNED_IN_VERSION.matcher(version).find()
                        || isDots(version)
                        || version.contains("${"))) {
            return "version `" + printable(version) + "` cannot be part of a path";
        }
        if (classifier != null
                && !classifier.isEmpty()
                && (!ID.matcher(classifier).matches() || isDots(classifier))) {
            return "classifier `" + printable(classifier) + "` is not a valid Maven id";
        }
        if (type != null && !type.isEmpty() && (!ID.matcher(type).matches() || isDots(type))) {
            return "type `" + printable(type) + "` is not a valid Maven id";
        }
        return null;
    }

    public static @Nullable String problem(ResolvedDependency dependency) {
        String problem = problem(
                dependency.getGroupId(),
                dependency.getArtifactId(),
                dependency.getVersion(),
                dependency.getClassifier(),
                dependency.getType());
        if (problem == null && dependency.getDatedSnapshotVersion() != null) {
            problem = problem(
                    dependency.getGroupId(),
                    dependency.getArtifactId(),
                    dependency.getDatedSnapshotVersion(),
                    null,
                    null);
        }
        return problem;
    }

    /**
     * The jar's path in {@code repository} (Maven's layout), checked: valid coordinates, and a
     * path that stays under the repository once normalized and once symbolic links are resolved.
     */
    static Path jar(Path repository, ResolvedDependency dependency) throws IOException {
        return jar(
                repository,
                dependency.getGroupId(),
                dependency.getArtifactId(),
                dependency.getVersion(),
                dependency.getDatedSnapshotVersion(),
                dependency.getClassifier());
    }

    /** {@link #jar(Path, ResolvedDependency)} of plain coordinates ({@code dated} and {@code classifier} may be null). */
    static Path jar(
            Path repository,
            String group,
            String artifact,
            String version,
            @Nullable String dated,
            @Nullable String classifier)
            throws IOException {
        String problem = problem(group, artifact, version, classifier, null);
        if (problem == null && dated != null) {
            problem = problem(group, artifact, dated, null, null);
        }
        if (problem != null) {
            throw new IOException("refused " + printable(group) + ":" + printable(artifact) + ":" + printable(version)
                    + ": " + problem);
        }
        String fileVersion = dated == null ? version : dated;
        String suffix = classifier == null || classifier.isEmpty() ? "" : "-" + classifier;
        Path base = repository.toAbsolutePath().normalize();
        Path jar = base.resolve(group.replace('.', '/'))
                .resolve(artifact)
                .resolve(version)
                .resolve(artifact + "-" + fileVersion + suffix + ".jar")
                .normalize();
        requireUnder(base, jar);
        return jar;
    }

    /** Throws unless {@code path} is under {@code base}, also after resolving symbolic links. */
    static void requireUnder(Path base, Path path) throws IOException {
        if (!path.startsWith(base) || path.equals(base)) {
            throw new IOException(path + " is outside the local repository " + base);
        }
        Path existing = path;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && Files.exists(base)) {
            Path real = existing.toRealPath();
            Path realBase = base.toRealPath();
            if (!real.startsWith(realBase)) {
                throw new IOException(path + " leads outside the local repository " + base + " (through " + real + ")");
            }
        }
    }

    public static String describe(ResolvedDependency dependency) {
        return printable(dependency.getGroupId()) + ":" + printable(dependency.getArtifactId()) + ":"
                + printable(dependency.getVersion());
    }

    private static boolean hasEmptySegment(String group) {
        return group.startsWith(".") || group.endsWith(".") || group.contains("..");
    }

    private static boolean isDots(String value) {
        return value.equals(".") || value.equals("..");
    }

    /** A coordinate for a message: control characters shown as {@code ?}, at most 80 characters. */
    static String printable(@Nullable String value) {
        if (value == null) {
            return "null";
        }
        String shown = value.replaceAll("\\p{Cntrl}", "?");
        return shown.length() <= 80 ? shown : shown.substring(0, 77) + "...";
    }
}
