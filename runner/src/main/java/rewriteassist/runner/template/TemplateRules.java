package rewriteassist.runner.template;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.jspecify.annotations.Nullable;

/**
 * What a compile of templates analyzed, read before its classes are written: the Refaster
 * templates (classes with a {@code @BeforeTemplate} method) with where they are in their source,
 * and the top-level types the template sources name (for the POM: which libraries the recipes need
 * at run time).
 */
final class TemplateRules {
    private static final String BEFORE_TEMPLATE = "com.google.errorprone.refaster.annotation.BeforeTemplate";

    /** A template: its name, its binary name and its top-level class's, and its span in its source. */
    record Rule(String name, String binaryName, String topLevel, String simpleName, URI source, long start, long end) {
        /** The recipe class rewrite-templating names after it (nested rules go into {@code <Top>Recipes}). */
        List<String> recipeNames() {
            return List.of(topLevel + "Recipes$" + simpleName + "Recipe", binaryName + "Recipe");
        }

        boolean contains(Diagnostic<? extends JavaFileObject> diagnostic) {
            JavaFileObject file = diagnostic.getSource();
            long position = diagnostic.getPosition();
            return file != null
                    && file.toUri().equals(source)
                    && position != Diagnostic.NOPOS
                    && start <= position
                    && position <= end;
        }
    }

    final List<Rule> rules = new ArrayList<>();
    final Set<String> usedTypes = new LinkedHashSet<>();

    private final Trees trees;
    private final Elements elements;
    private final Set<CompilationUnitTree> scanned = new LinkedHashSet<>();

    private TemplateRules(JavacTask task) {
        trees = Trees.instance(task);
        elements = task.getElements();
    }

    /**
     * Reads the classes (and the classes nested in them) of the template sources {@code task}
     * parsed, once it analyzed them. The sources' trees, not the analyzed classes, because with a
     * compile error javac reports no class as analyzed.
     */
    static TemplateRules of(JavacTask task, Iterable<? extends CompilationUnitTree> units) {
        TemplateRules found = new TemplateRules(task);
        Set<TypeElement> seen = new LinkedHashSet<>();
        for (CompilationUnitTree unit : units) {
            TreePath path = new TreePath(unit);
            for (Tree declaration : unit.getTypeDecls()) {
                Element element = found.trees.getElement(new TreePath(path, declaration));
                if (element != null) {
                    found.visit(element, seen);
                }
            }
        }
        return found;
    }

    private void visit(Element element, Set<TypeElement> seen) {
        if (!(element instanceof TypeElement type) || !seen.add(type)) {
            return;
        }
        String binaryName = elements.getBinaryName(type).toString();
        if (isRule(type)) {
            TreePath path = trees.getPath(type);
            if (path != null && path.getLeaf() instanceof ClassTree tree) {
                CompilationUnitTree unit = path.getCompilationUnit();
                SourcePositions positions = trees.getSourcePositions();
                rules.add(new Rule(
                        type.getQualifiedName().toString(),
                        binaryName,
                        elements.getBinaryName(java.util.Objects.requireNonNullElse(outermost(type), type))
                                .toString(),
                        type.getSimpleName().toString(),
                        unit.getSourceFile().toUri(),
                        positions.getStartPosition(unit, tree),
                        positions.getEndPosition(unit, tree)));
                if (scanned.add(unit)) {
                    noteUsedTypes(new TreePath(unit));
                }
            }
        }
        type.getEnclosedElements().forEach(enclosed -> visit(enclosed, seen));
    }

    private static boolean isRule(TypeElement type) {
        for (Element member : type.getEnclosedElements()) {
            for (AnnotationMirror annotation : member.getAnnotationMirrors()) {
                Element annotationType = annotation.getAnnotationType().asElement();
                if (annotationType instanceof TypeElement t
                        && t.getQualifiedName().contentEquals(BEFORE_TEMPLATE)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The innermost template whose source span holds the diagnostic, or null. */
    @Nullable
    Rule ruleOf(Diagnostic<? extends JavaFileObject> diagnostic) {
        Rule found = null;
        for (Rule rule : rules) {
            if (rule.contains(diagnostic) && (found == null || rule.end - rule.start < found.end - found.start)) {
                found = rule;
            }
        }
        return found;
    }

    /** The top-level types every name in a template source refers to (a method's: its class). */
    private void noteUsedTypes(TreePath unit) {
        new TreePathScanner<Void, Void>() {
            @Override
            public Void visitIdentifier(IdentifierTree node, Void unused) {
                note(trees.getElement(getCurrentPath()));
                return super.visitIdentifier(node, unused);
            }

            @Override
            public Void visitMemberSelect(MemberSelectTree node, Void unused) {
                note(trees.getElement(getCurrentPath()));
                return super.visitMemberSelect(node, unused);
            }
        }.scan(unit, null);
    }

    private void note(@Nullable Element element) {
        if (element == null || element instanceof PackageElement) {
            return;
        }
        TypeElement top = outermost(element);
        if (top != null) {
            usedTypes.add(elements.getBinaryName(top).toString());
        }
    }

    /** The top-level class an element belongs to (null for a package or module). */
    private static @Nullable TypeElement outermost(Element element) {
        TypeElement top = null;
        for (Element e = element; e != null && !(e instanceof PackageElement); e = e.getEnclosingElement()) {
            if (e instanceof TypeElement type) {
                top = type;
            }
        }
        return top;
    }
}
