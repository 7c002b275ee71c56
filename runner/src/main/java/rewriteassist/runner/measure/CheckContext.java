package rewriteassist.runner.measure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.openrewrite.Parser;
import org.openrewrite.Result;
import org.openrewrite.SourceFile;
import org.openrewrite.java.tree.J;
import rewriteassist.runner.parse.TypesInUse;

/**
 * The sources a {@link CompileCheck} compiles beside the changed files, the same on both sides:
 * the repository's Java files that declare the types the changed files use (one hop: the names
 * of {@link TypesInUse} of their trees before and after, a type's file by its top-level class,
 * an on-demand import's package by its files). The parse saw the project's own types in the
 * sources of the whole repository; without them every use of one would not resolve, before as
 * after. A declaring file the recipe changed too is given in its own text of each side (a file
 * it created, on the after side only).
 */
final class CheckContext {
    /** At most this many context files per batch. */
    static final int MAX_FILES = 500;

    /** The Java trees of the parse by path. */
    private final Map<Path, SourceFile> trees = new HashMap<>();
    /** Top-level types by fully qualified name, and packages, to the files declaring them. */
    private final Map<String, Path> types = new HashMap<>();

    private final Map<String, Set<Path>> packages = new HashMap<>();
    /** The whole run's changes, by path before (a new file: by its path after). */
    private final Map<Path, Result> changes = new HashMap<>();

    CheckContext(List<SourceFile> parsed, List<Result> changed) {
        for (SourceFile tree : parsed) {
            if (tree instanceof J.CompilationUnit cu) {
                trees.put(tree.getSourcePath(), tree);
                declare(cu);
            }
        }
        for (Result change : changed) {
            if (change.getBefore() != null) {
                changes.put(change.getBefore().getSourcePath(), change);
            } else if (change.getAfter() instanceof J.CompilationUnit created) {
                changes.put(created.getSourcePath(), change);
                declare(created);
            }
        }
    }

    private void declare(J.CompilationUnit cu) {
        String pkg = cu.getPackageDeclaration() == null
                ? ""
                : cu.getPackageDeclaration().getPackageName();
        packages.computeIfAbsent(pkg, p -> new TreeSet<>()).add(cu.getSourcePath());
        for (J.ClassDeclaration declared : cu.getClasses()) {
            types.putIfAbsent((pkg.isEmpty() ? "" : pkg + ".") + declared.getSimpleName(), cu.getSourcePath());
        }
    }

    /** The names the changed files use, before and after. */
    List<String> typesUsedBy(List<Result> batch) {
        Set<String> names = new TreeSet<>();
        for (Result change : batch) {
            if (change.getBefore() != null) {
                names.addAll(TypesInUse.of(change.getBefore()));
            }
            if (change.getAfter() != null) {
                names.addAll(TypesInUse.of(change.getAfter()));
            }
        }
        return List.copyOf(names);
    }

    /**
     * The context of one side ({@code after}: the recipe's result) for files using {@code used},
     * without the batch's {@code own} files.
     */
    List<Parser.Input> inputs(List<String> used, Collection<Path> own, boolean after, Path root) {
        Set<Path> files = new LinkedHashSet<>();
        for (String name : used) {
            files.addAll(declaring(name));
        }
        files.removeAll(own);
        List<Parser.Input> inputs = new ArrayList<>();
        for (Path file : files) {
            if (inputs.size() >= MAX_FILES) {
                break;
            }
            Result change = changes.get(file);
            SourceFile text = change == null ? trees.get(file) : after ? change.getAfter() : change.getBefore();
            if (text instanceof J.CompilationUnit) {
                inputs.add(CompileCheck.input(root, text));
            }
        }
        return inputs;
    }

    /** The files declaring a name: its top-level type's file, or an on-demand package's files. */
    private Set<Path> declaring(String name) {
        boolean onDemand = name.endsWith(".*");
        String dotted = onDemand ? name.substring(0, name.length() - 2) : name;
        if (onDemand && OldLibrary.packageOf(dotted + ".X").equals(dotted)) {
            return packages.getOrDefault(dotted, Set.of());
        }
        String candidate = dotted.contains("$") ? dotted.substring(0, dotted.indexOf('$')) : dotted;
        // A static import's member or a nested type written with dots: the enclosing names.
        for (int i = 0; i < 3 && !candidate.isEmpty(); i++) {
            Path file = types.get(candidate);
            if (file != null) {
                return Set.of(file);
            }
            candidate = candidate.contains(".") ? candidate.substring(0, candidate.lastIndexOf('.')) : "";
        }
        return Set.of();
    }
}
