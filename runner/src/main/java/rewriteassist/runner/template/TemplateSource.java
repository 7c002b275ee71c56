package rewriteassist.runner.template;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one generated source file of a {@code learn_templates} request: a class with a {@code
 * @RecipeDescriptor} holding each learned template as a static nested class, its before forms
 * written fully qualified (no imports: the before's {@code assertThat} may be Hamcrest's while the
 * after's is AssertJ's) and its after written as the PR wrote it, with the head file's imports its
 * simple names use. Names are deterministic: the same request gives the same bytes.
 */
final class TemplateSource {
    /** A template class: its name and the shapes it holds (one before form each, one after). */
    record Template(String name, List<LearnedShape> shapes) {
        LearnedShape first() {
            return shapes.get(0);
        }
    }

    private static final Set<String> OWN_NAMES = Set.of("AfterTemplate", "BeforeTemplate", "RecipeDescriptor");

    private TemplateSource() {}

    /** Names each template class after its shape (numbered on clashes), in the order given. */
    static List<Template> name(List<List<LearnedShape>> templates) {
        List<Template> named = new ArrayList<>();
        Set<String> used = new LinkedHashSet<>();
        for (List<LearnedShape> shapes : templates) {
            String base = baseName(shapes.get(0));
            String name = base;
            for (int n = 2; !used.add(name); n++) {
                name = base + n;
            }
            named.add(new Template(name, List.copyOf(shapes)));
        }
        return named;
    }

    /** {@code AssertThatIsToIsEqualTo}: the before's methods, "To", the after's methods it did not call before. */
    private static String baseName(LearnedShape shape) {
        List<String> before = shape.generalization().methods();
        List<String> after = new ArrayList<>(JavaTokens.of(shape.after()).calledMethods());
        if (!after.stream().allMatch(before::contains)) {
            after.removeAll(before);
        }
        String name = capitalized(before) + "To" + capitalized(after);
        if (before.isEmpty()) {
            name = "Learned" + name;
        }
        return name;
    }

    private static String capitalized(List<String> names) {
        StringBuilder out = new StringBuilder();
        for (String name : new LinkedHashSet<>(names)) {
            out.append(name.substring(0, 1).toUpperCase(Locale.ROOT)).append(name.substring(1));
        }
        return out.toString();
    }

    /** The nested recipe that runs the templates and then writes the PR's static imports. */
    static final String WITH_STATIC_IMPORTS = "WithStaticImports";

    /**
     * The file's text. {@code imports}: the lines {@code import …;} of the after side; {@code
     * staticMethods}: method patterns ({@code org.assertj.core.api.Assertions assertThat(..)}) the
     * after side calls by their simple names, through a static import.
     */
    static String write(
            String packageName,
            String className,
            List<Template> templates,
            Set<String> imports,
            List<String> staticMethods) {
        StringBuilder out = new StringBuilder();
        out.append("package ").append(packageName).append(";\n\n");
        Set<String> lines = new TreeSet<>(List.of(
                "import com.google.errorprone.refaster.annotation.AfterTemplate;",
                "import com.google.errorprone.refaster.annotation.BeforeTemplate;",
                "import org.openrewrite.java.template.RecipeDescriptor;"));
        for (String line : imports) {
            String simple = line.substring(line.lastIndexOf('.') + 1, line.length() - 1);
            if (!OWN_NAMES.contains(simple)) {
                lines.add(line);
            }
        }
        lines.forEach(line -> out.append(line).append('\n'));
        out.append("\n@RecipeDescriptor(\n")
                .append("        name = \"Learned from a pull request\",\n")
                .append(
                        "        description = \"Refaster templates learned from the edits a pull request repeated.\")\n")
                .append("public class ")
                .append(className)
                .append(" {\n");
        for (int t = 0; t < templates.size(); t++) {
            if (t > 0) {
                out.append('\n');
            }
            template(out, templates.get(t));
        }
        if (!staticMethods.isEmpty()) {
            withStaticImports(out, className, staticMethods);
        }
        out.append("}\n");
        return out.toString();
    }

    private static void template(StringBuilder out, Template template) {
        LearnedShape first = template.first();
        List<String> variables = first.generalization().typeVariables();
        List<String> occurrences = new ArrayList<>();
        template.shapes()
                .forEach(shape -> shape.occurrences().forEach(o -> occurrences.add(o.path() + ":" + o.line())));
        out.append("    @RecipeDescriptor(\n")
                .append("            name = ")
                .append(literal("`" + first.generalization().before() + "` to `" + first.after() + "`"))
                .append(",\n            description = ")
                .append(literal("Learned from " + String.join(", ", occurrences) + "."))
                .append(")\n")
                .append("    public static class ")
                .append(template.name())
                .append(variables.isEmpty() ? "" : "<" + String.join(", ", variables) + ">")
                .append(" {\n");
        List<String> befores = befores(template);
        for (int b = 0; b < befores.size(); b++) {
            out.append("        @BeforeTemplate\n        ")
                    .append(first.returnType())
                    .append(" before")
                    .append(b == 0 ? "" : String.valueOf(b + 1))
                    .append('(')
                    .append(first.parameterList())
                    .append(") {\n            ")
                    .append(first.body(befores.get(b)))
                    .append("\n        }\n\n");
        }
        out.append("        @AfterTemplate\n        ")
                .append(first.returnType())
                .append(" after(")
                .append(first.parameterList())
                .append(") {\n            ")
                .append(first.body(first.after()))
                .append("\n        }\n    }\n");
    }

    /**
     * A recipe that runs every template, then imports statically the methods the PR's author called
     * by their simple names. A template's recipe writes such a call qualified ({@code
     * Assertions.assertThat(x)}) while the file still imports a method of the same name statically
     * (Hamcrest's {@code assertThat}, which the template's own rewrite removes only afterwards);
     * OpenRewrite's {@code UseStaticImport}, run after, writes it the author's way where no such
     * import is left.
     */
    private static void withStaticImports(StringBuilder out, String className, List<String> staticMethods) {
        out.append("\n    public static class ")
                .append(WITH_STATIC_IMPORTS)
                .append(" extends org.openrewrite.Recipe {\n")
                .append("        @Override\n        public String getDisplayName() {\n")
                .append("            return \"Learned from a pull request, with its static imports\";\n        }\n\n")
                .append("        @Override\n        public String getDescription() {\n")
                .append(
                        "            return \"Runs the templates learned from the pull request, then imports statically ")
                .append("the methods its author called by their simple names.\";\n        }\n\n")
                .append("        @Override\n        public java.util.List<org.openrewrite.Recipe> getRecipeList() {\n")
                .append("            return java.util.List.of(\n                    new ")
                .append(className)
                .append("Recipes()");
        for (String pattern : staticMethods) {
            out.append(",\n                    new org.openrewrite.java.UseStaticImport(")
                    .append(literal(pattern))
                    .append(')');
        }
        out.append(");\n        }\n    }\n");
    }

    /** The before forms of a template, each once, in the order of its shapes. */
    static List<String> befores(Template template) {
        return List.copyOf(new LinkedHashSet<>(
                template.shapes().stream().map(s -> s.generalization().before()).toList()));
    }

    /** A Java string literal of a text. */
    private static String literal(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(c < ' ' ? String.format(Locale.ROOT, "\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.append('"').toString();
    }
}
