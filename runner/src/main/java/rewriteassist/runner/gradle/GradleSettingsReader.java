package rewriteassist.runner.gradle;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.openrewrite.java.JavaIsoVisitor;
import org.openrewrite.java.tree.Expression;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.JavaSourceFile;

/**
 * Reads {@link GradleScript.Settings} from a settings script's tree: {@code rootProject.name},
 * the projects {@code include} names (as directories: {@code :web:api} is {@code web/api}) and the
 * builds {@code includeBuild} names.
 */
final class GradleSettingsReader extends JavaIsoVisitor<Integer> {
    private final List<String> projects = new ArrayList<>();
    private final List<String> builds = new ArrayList<>();
    private @Nullable String rootName;

    static GradleScript.Settings read(JavaSourceFile tree) {
        GradleSettingsReader reader = new GradleSettingsReader();
        reader.visit(tree, 0);
        return new GradleScript.Settings(reader.rootName, List.copyOf(reader.projects), List.copyOf(reader.builds));
    }

    @Override
    public J.MethodInvocation visitMethodInvocation(J.MethodInvocation method, Integer p) {
        if (method.getSelect() == null && method.getSimpleName().equals("include")) {
            for (Expression argument : method.getArguments()) {
                String name = GradleValues.string(argument);
                if (name != null) {
                    projects.add((name.startsWith(":") ? name.substring(1) : name).replace(':', '/'));
                }
            }
        } else if (method.getSelect() == null && method.getSimpleName().equals("includeBuild")) {
            String build = method.getArguments().isEmpty()
                    ? null
                    : GradleValues.string(method.getArguments().get(0));
            if (build != null) {
                builds.add(build);
            }
        }
        return super.visitMethodInvocation(method, p);
    }

    @Override
    public J.Assignment visitAssignment(J.Assignment assignment, Integer p) {
        String value = GradleValues.string(assignment.getAssignment());
        if (value != null && "rootProject.name".equals(GradleValues.dotted(assignment.getVariable()))) {
            rootName = value;
        }
        return super.visitAssignment(assignment, p);
    }
}
