package rewriteassist.runner.measure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.java.JavaIsoVisitor;
import org.openrewrite.java.search.FindMissingTypes;
import org.openrewrite.java.tree.Expression;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.TypeTree;
import org.openrewrite.marker.Marker;
import org.openrewrite.marker.SearchResult;

/**
 * The symbols of a freshly parsed Java file that did not resolve, as OpenRewrite's own diagnostic
 * recipe {@link FindMissingTypes} finds them (method invocations without a method type,
 * identifiers, type trees, annotations, variables, constructors of unknown type; imports are
 * allowed to have none). The recipe marks each; here each mark is a problem with its line and a
 * short description: the name as the file's imports spell it, so that a type whose library left
 * the classpath reads {@code org.junit.jupiter.api.Test} rather than {@code Test}.
 */
final class MissingTypes {
    /** One symbol that does not resolve: where, and what. */
    record Problem(int line, String what) {}

    private MissingTypes() {}

    static List<Problem> of(J.CompilationUnit cu) {
        J.CompilationUnit marked = (J.CompilationUnit)
                new FindMissingTypes(false).getVisitor().visitNonNull(cu, new InMemoryExecutionContext());
        if (marked == cu) {
            return List.of();
        }
        Map<String, String> imported = new HashMap<>();
        for (J.Import anImport : cu.getImports()) {
            if (!anImport.isStatic() && !anImport.getQualid().getSimpleName().equals("*")) {
                imported.put(anImport.getQualid().getSimpleName(), anImport.getTypeName());
            }
        }
        Map<UUID, String> what = new LinkedHashMap<>();
        new JavaIsoVisitor<Integer>() {
            @Override
            public <M extends Marker> M visitMarker(Marker marker, Integer p) {
                if (marker instanceof SearchResult found) {
                    J element = getCursor().firstEnclosing(J.class);
                    what.put(found.getId(), element == null ? "?" : clean(describe(element, imported)));
                }
                return super.visitMarker(marker, p);
            }
        }.visit(marked, 0);
        Map<UUID, MarkedLines.Line> lines = MarkedLines.of(marked);
        List<Problem> problems = new ArrayList<>();
        what.forEach((id, description) -> {
            MarkedLines.Line line = lines.get(id);
            problems.add(new Problem(line == null ? 0 : line.number(), description));
        });
        problems.sort(Comparator.comparingInt(Problem::line));
        return problems;
    }

    /** Without the comments a printed mark leaves (a search result's ~~>), on one line, at most 200 characters. */
    private static String clean(String description) {
        return MarkedLines.trimmed(description.replaceAll("/\\*~~.*?\\*/", "").replaceAll("\\s+", " "));
    }

    /** A short name for what does not resolve. */
    static String describe(J element, Map<String, String> imported) {
        if (element instanceof J.Identifier identifier) {
            return imported.getOrDefault(identifier.getSimpleName(), identifier.getSimpleName());
        }
        if (element instanceof J.MethodInvocation invocation) {
            Expression select = invocation.getSelect();
            String owner = select instanceof J.Identifier id
                    ? imported.getOrDefault(id.getSimpleName(), id.getSimpleName()) + "."
                    : select instanceof J.FieldAccess access ? access.toString() + "." : "";
            return owner + invocation.getSimpleName() + "()";
        }
        if (element instanceof J.NewClass newClass) {
            TypeTree clazz = newClass.getClazz();
            return "new " + (clazz == null ? "?" : describe(clazz, imported)) + "()";
        }
        if (element instanceof J.FieldAccess access) {
            return access.toString();
        }
        if (element instanceof J.VariableDeclarations.NamedVariable variable) {
            return "variable " + variable.getSimpleName();
        }
        if (element instanceof J.MethodDeclaration method) {
            return "method " + method.getSimpleName();
        }
        if (element instanceof J.ClassDeclaration declaration) {
            return "class " + declaration.getSimpleName();
        }
        if (element instanceof J.MemberReference reference) {
            return "::" + reference.getReference().getSimpleName();
        }
        if (element instanceof J.Annotation annotation) {
            return "@" + describe(annotation.getAnnotationType(), imported);
        }
        return element.getClass().getSimpleName();
    }
}
