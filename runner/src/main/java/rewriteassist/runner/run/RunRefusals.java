package rewriteassist.runner.run;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.openrewrite.RecipeRun;
import org.openrewrite.Result;
import org.openrewrite.SourceFile;
import org.openrewrite.Tree;
import org.openrewrite.TreeVisitor;
import org.openrewrite.gradle.marker.GradleProject;
import org.openrewrite.marker.Markup;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.MavenResolutionResult;
import rewriteassist.runner.net.AccessDenied;
import rewriteassist.runner.parse.RepositoryParser;

/**
 * The repositories that refused access (401/403) while a recipe ran: a version list an upgrade
 * needed, a new parent. rewrite-maven's recipes leave such a failure as a warning marker on the
 * tag and change nothing, so the result is short of what the recipe would have done; each
 * refusal is named like one during the parse ({@link AccessDenied}), never a silent loss.
 */
final class RunRefusals {
    private RunRefusals() {}

    /** The warnings of the refusals in {@code result} and among what the run {@code reported}. */
    static List<String> of(RecipeRun result, List<Throwable> reported, RepositoryParser.Outcome parsed) {
        AccessDenied denied = parsed.policy().accessDenied();
        Set<String> warnings = new LinkedHashSet<>();
        reported.forEach(t -> warnings.addAll(denied.take(t)));
        List<String> messages = new ArrayList<>();
        for (Result change : result.getChangeset().getAllResults()) {
            markups(change.getAfter(), messages);
        }
        if (!messages.isEmpty()) {
            List<MavenRepository> known = repositories(parsed.trees());
            messages.forEach(message -> warnings.addAll(denied.takeMessage(message, known)));
        }
        return new ArrayList<>(warnings);
    }

    /** The messages of the warning and error markers in {@code tree} that name an HTTP status. */
    private static void markups(@Nullable SourceFile tree, List<String> into) {
        if (tree == null) {
            return;
        }
        new TreeVisitor<Tree, Integer>() {
            @Override
            public Tree preVisit(Tree t, Integer p) {
                for (Markup markup : t.getMarkers().findAll(Markup.class)) {
                    String message = markup.getMessage();
                    if (message != null && message.contains(": HTTP 40")) {
                        into.add(message);
                    }
                }
                return t;
            }
        }.visit(tree, 0);
    }

    /** The repositories the parsed builds declare (with their ids, for the fix a warning names). */
    private static List<MavenRepository> repositories(List<SourceFile> trees) {
        List<MavenRepository> out = new ArrayList<>();
        for (SourceFile tree : trees) {
            tree.getMarkers()
                    .findFirst(MavenResolutionResult.class)
                    .ifPresent(r -> out.addAll(r.getPom().getRepositories()));
            tree.getMarkers().findFirst(GradleProject.class).ifPresent(g -> out.addAll(g.getMavenRepositories()));
        }
        return out;
    }
}
