package rewriteassist.runner.maven;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.openrewrite.maven.MavenDownloadingException;
import org.openrewrite.maven.MavenDownloadingExceptions;
import org.openrewrite.maven.tree.GroupArtifactVersion;

/**
 * What the Maven downloaders could not get, and POM texts that resolve without it.
 *
 * <p>A direct dependency (or BOM) that cannot be downloaded is left out of the POM. A transitive
 * one (a dependency's dependency, or the parent of one, that exists only on a retired repository)
 * is excluded under the direct dependency that brings it in, so that dependency's own jar stays on
 * the classpath: first the failing artifact alone, then, when the same direct dependency fails
 * again (the failure was the parent of something deeper), everything below it, and only then the
 * direct dependency itself.
 *
 * <p>A parent cannot be left out. A parent that is a snapshot (a project's main branch often builds
 * on its organisation's next parent, published only to a snapshot repository) is replaced by its
 * newest release below it of the same major version: the managed versions and plugins of the
 * nearest release are closer to the truth than no resolution at all, where Maven recipes skip the
 * POM and its modules.
 */
final class Unavailable {
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>.*?</dependency>", Pattern.DOTALL);
    /** Marks the exclusions this class adds, so a later round knows what it tried already. */
    private static final String MARK = "<!-- rewrite-assist: cannot be downloaded -->";

    private static final String ALL = "*:*";

    private static final Pattern PARENT = Pattern.compile("<parent>.*?</parent>", Pattern.DOTALL);
    private static final Pattern SNAPSHOT_VERSION = Pattern.compile("<version>\\s*([^<\\s]+)-SNAPSHOT\\s*</version>");

    /** Where the newest release of an artifact below a snapshot of it comes from. */
    interface Releases {
        /** Looks none up (a POM made here has no parent). */
        Releases NONE = (group, artifact, below) -> null;

        /**
         * The newest release of {@code group:artifact} below {@code below} (a snapshot's version
         * without {@code -SNAPSHOT}) with the same major version; null when there is none.
         */
        @Nullable
        String newestBelow(String group, String artifact, String below);
    }

    /** Every artifact that failed, and whose failure was warned about (group:artifact). */
    private final Set<String> reported = new LinkedHashSet<>();
    /** Direct dependencies, BOMs and parents that failed themselves (group:artifact). */
    private final Set<String> direct = new LinkedHashSet<>();
    /** Direct dependency (group:artifact) to the transitive artifacts that failed below it. */
    private final Map<String, Set<String>> below = new LinkedHashMap<>();
    /** Direct dependencies with a failure below them since the last {@link #newRound()}. */
    private final Set<String> failingNow = new LinkedHashSet<>();
    /**
     * What the rounds settled on for each dependency they changed (group:artifact): the artifacts
     * excluded under it, or none when it was left out; the last round's word counts.
     */
    private final Map<String, List<String>> settled = new LinkedHashMap<>();
    /** A parent snapshot that failed ({@code group:artifact:version-SNAPSHOT}) to the release in its place. */
    private final Map<String, String> releasedParents = new LinkedHashMap<>();

    /**
     * Takes what a downloader reported; returns the warnings to show (each artifact once), or
     * {@code null} when {@code t} is not a download failure.
     */
    @Nullable
    List<String> take(Throwable t) {
        List<MavenDownloadingException> failures = new ArrayList<>();
        if (t instanceof MavenDownloadingExceptions many) {
            failures.addAll(many.getExceptions());
        } else if (t instanceof MavenDownloadingException one) {
            failures.add(one);
        } else {
            return null;
        }
        List<String> warnings = new ArrayList<>();
        for (MavenDownloadingException failure : failures) {
            GroupArtifactVersion gav = failure.getFailedOn();
            String failed = ga(gav);
            String root = ga(failure.getRoot());
            if (root.equals(failed)) {
                direct.add(failed);
            } else {
                below.computeIfAbsent(root, r -> new LinkedHashSet<>()).add(failed);
                failingNow.add(root);
            }
            if (reported.add(failed)) {
                String message = String.valueOf(failure.getMessage());
                warnings.add(message.contains(gav.toString()) ? message : gav + ": " + message);
            }
        }
        return warnings;
    }

    /** Forgets which direct dependencies failed in the last resolution (not what failed). */
    void newRound() {
        failingNow.clear();
    }

    /**
     * The POM's text one step closer to resolving: without the direct dependencies that failed,
     * and with exclusions under those whose dependencies failed, and a parent snapshot that failed
     * replaced by a release ({@code releases}). {@code dropped} collects what was left out or
     * replaced, as the warning names it.
     */
    String withoutFailures(String pom, Set<String> dropped, Releases releases) {
        String released = eachParentSnapshot(pom, (ga, version) -> {
            // A parent's failure has the POM it is the parent of as its root, so any failure counts.
            if (!reported.contains(ga)) {
                return null;
            }
            String key = ga + ":" + version + "-SNAPSHOT";
            String release = releasedParents.get(key);
            if (release == null) {
                String[] parts = ga.split(":", 2);
                release = releases.newestBelow(parts[0], parts[1], version);
                if (release == null) {
                    return null;
                }
                releasedParents.put(key, release);
            }
            dropped.add(key + ", the parent, with its release " + release + " in its place");
            return release;
        });
        return eachDependency(released, block -> {
            String replacement = block;
            String failed = matching(block, direct);
            String root = matching(block, failingNow);
            if (failed != null) {
                dropped.add(failed);
                settled.put(failed, List.of());
                replacement = "";
            } else if (root != null) {
                if (block.contains(MARK + exclusion(ALL))) {
                    dropped.add(root);
                    settled.put(root, List.of());
                    replacement = "";
                } else if (block.contains(MARK)) {
                    dropped.add("the dependencies of " + root);
                    settled.put(root, List.of(ALL));
                    replacement = withExclusions(withoutMarked(block), List.of(ALL));
                } else {
                    Set<String> transitive = below.get(root);
                    dropped.add(String.join(", ", transitive) + " (through " + root + ")");
                    settled.put(root, List.copyOf(transitive));
                    replacement = withExclusions(block, List.copyOf(transitive));
                }
            }
            return replacement;
        });
    }

    /**
     * Another text of a POM the rounds resolved (the POM as a recipe left it) with what they
     * settled on done at once: the dependencies they left out are left out, those whose own
     * dependencies failed get the same exclusions. The text as it is when nothing failed.
     */
    String settledIn(String pom) {
        if (settled.isEmpty() && releasedParents.isEmpty()) {
            return pom;
        }
        String released =
                eachParentSnapshot(pom, (ga, version) -> releasedParents.get(ga + ":" + version + "-SNAPSHOT"));
        return eachDependency(released, block -> {
            String ga = matching(block, settled.keySet());
            if (ga == null) {
                return block;
            }
            List<String> excluded = settled.get(ga);
            return excluded.isEmpty() ? "" : withExclusions(block, excluded);
        });
    }

    /**
     * The POM's text with the version of its parent, when that is a snapshot, replaced by what
     * {@code release} says for the parent's {@code group:artifact} and the version without
     * {@code -SNAPSHOT}; unchanged when it says null.
     */
    private static String eachParentSnapshot(String pom, BiFunction<String, String, @Nullable String> release) {
        Matcher parent = PARENT.matcher(pom);
        if (!parent.find()) {
            return pom;
        }
        String block = parent.group();
        Matcher version = SNAPSHOT_VERSION.matcher(block);
        Matcher group = Pattern.compile("<groupId>\\s*([^<\\s]+)\\s*</groupId>").matcher(block);
        Matcher artifact =
                Pattern.compile("<artifactId>\\s*([^<\\s]+)\\s*</artifactId>").matcher(block);
        if (!version.find() || !group.find() || !artifact.find()) {
            return pom;
        }
        String replacement = release.apply(group.group(1) + ":" + artifact.group(1), version.group(1));
        if (replacement == null) {
            return pom;
        }
        return pom.substring(0, parent.start())
                + block.substring(0, version.start()) + "<version>" + replacement + "</version>"
                + block.substring(version.end())
                + pom.substring(parent.end());
    }

    /** The POM's text with each {@code <dependency>} block replaced as {@code replace} says. */
    private static String eachDependency(String pom, UnaryOperator<String> replace) {
        Matcher m = DEPENDENCY.matcher(pom);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(replace.apply(m.group())));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static @Nullable String matching(String block, Set<String> artifacts) {
        String match = null;
        for (String ga : artifacts) {
            String[] parts = ga.split(":", 2);
            if (Pattern.compile("<groupId>\\s*" + Pattern.quote(parts[0]) + "\\s*</groupId>")
                            .matcher(block)
                            .find()
                    && Pattern.compile("<artifactId>\\s*" + Pattern.quote(parts[1]) + "\\s*</artifactId>")
                            .matcher(block)
                            .find()) {
                match = ga;
            }
        }
        return match;
    }

    private static String withExclusions(String block, List<String> artifacts) {
        StringBuilder added = new StringBuilder();
        for (String ga : artifacts) {
            added.append(MARK).append(exclusion(ga));
        }
        int open = block.indexOf("<exclusions>");
        if (open >= 0) {
            int at = open + "<exclusions>".length();
            return block.substring(0, at) + added + block.substring(at);
        }
        int close = block.lastIndexOf("</dependency>");
        return block.substring(0, close) + "<exclusions>" + added + "</exclusions>" + block.substring(close);
    }

    private static String withoutMarked(String block) {
        return block.replaceAll(Pattern.quote(MARK) + "<exclusion>.*?</exclusion>", "");
    }

    private static String exclusion(String ga) {
        String[] parts = ga.split(":", 2);
        return "<exclusion><groupId>" + parts[0] + "</groupId><artifactId>" + parts[1] + "</artifactId></exclusion>";
    }

    private static String ga(GroupArtifactVersion gav) {
        return gav.getGroupId() + ":" + gav.getArtifactId();
    }
}
