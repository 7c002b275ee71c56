package rewriteassist.runner.parse;

import static org.openrewrite.Tree.randomId;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openrewrite.SourceFile;
import org.openrewrite.jgit.api.Git;
import org.openrewrite.jgit.lib.ObjectId;
import org.openrewrite.jgit.lib.Repository;
import org.openrewrite.jgit.revwalk.RevCommit;
import org.openrewrite.jgit.revwalk.RevWalk;
import org.openrewrite.jgit.treewalk.TreeWalk;
import org.openrewrite.marker.GitProvenance;
import org.openrewrite.marker.GitTreeEntry;
import org.openrewrite.marker.Marker;
import org.openrewrite.marker.Markers;
import org.openrewrite.marker.OperatingSystemProvenance;
import org.openrewrite.marker.ci.BuildEnvironment;
import rewriteassist.runner.common.Log;

/**
 * The provenance markers rewrite-maven-plugin puts on every file: the CI {@link BuildEnvironment}
 * (from the variables the caller passes: the runner's own environment is an allow-list without
 * them), {@link GitProvenance} of the clone (origin, branch, commit, committers),
 * {@link OperatingSystemProvenance}, and on each tracked file its {@link GitTreeEntry} (object id
 * and mode at HEAD). Recipes that look at where a file comes from see what they would see there.
 */
final class Provenance {
    private final List<Marker> everywhere;
    private final Map<Path, GitTreeEntry> entries;

    private Provenance(List<Marker> everywhere, Map<Path, GitTreeEntry> entries) {
        this.everywhere = everywhere;
        this.entries = entries;
    }

    static Provenance of(Path root, Map<String, String> environment) {
        long started = System.nanoTime();
        List<Marker> everywhere = new ArrayList<>();
        BuildEnvironment buildEnvironment = BuildEnvironment.build(environment::get);
        if (buildEnvironment != null) {
            everywhere.add(buildEnvironment);
        }
        try {
            GitProvenance git = GitProvenance.fromProjectDirectory(root, buildEnvironment);
            if (git != null) {
                everywhere.add(git);
            }
        } catch (RuntimeException e) {
            Log.log("no git provenance: " + Log.oneLine(e));
        }
        everywhere.add(OperatingSystemProvenance.current());
        Map<Path, GitTreeEntry> entries = treeEntries(root);
        Log.log("  provenance in " + Log.seconds(started) + " s");
        return new Provenance(everywhere, entries);
    }

    /** Every file of HEAD's tree (relative to {@code root}) with its object id and mode, in one walk. */
    private static Map<Path, GitTreeEntry> treeEntries(Path root) {
        Map<Path, GitTreeEntry> entries = new HashMap<>();
        try (Git git = Git.open(gitRoot(root).toFile())) {
            Repository repository = git.getRepository();
            ObjectId head = repository.resolve("HEAD");
            if (head == null) {
                return entries;
            }
            Path top = repository.getWorkTree().toPath().toAbsolutePath().normalize();
            try (RevWalk revWalk = new RevWalk(repository);
                    TreeWalk walk = new TreeWalk(repository)) {
                RevCommit commit = revWalk.parseCommit(head);
                walk.addTree(commit.getTree());
                walk.setRecursive(true);
                while (walk.next()) {
                    Path file = top.resolve(walk.getPathString());
                    if (file.startsWith(root)) {
                        entries.put(
                                root.relativize(file),
                                new GitTreeEntry(randomId(), walk.getObjectId(0).name(), walk.getRawMode(0)));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            Log.log("no git tree entries: " + Log.oneLine(e));
        }
        return entries;
    }

    /** The work tree's top above {@code dir} (the clone's root for a monorepo's project directory). */
    private static Path gitRoot(Path dir) {
        for (Path at = dir; at != null; at = at.getParent()) {
            if (java.nio.file.Files.exists(at.resolve(".git"))) {
                return at;
            }
        }
        return dir;
    }

    List<SourceFile> mark(List<SourceFile> trees) {
        List<SourceFile> out = new ArrayList<>(trees.size());
        for (SourceFile tree : trees) {
            Markers markers = tree.getMarkers();
            for (Marker marker : everywhere) {
                markers = markers.addIfAbsent(marker);
            }
            GitTreeEntry entry = entries.get(tree.getSourcePath());
            if (entry != null) {
                markers = markers.addIfAbsent(entry);
            }
            out.add(tree.withMarkers(markers));
        }
        return out;
    }
}
