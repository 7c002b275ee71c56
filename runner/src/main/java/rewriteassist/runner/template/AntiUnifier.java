package rewriteassist.runner.template;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Predicate;
import javax.lang.model.SourceVersion;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Tree;
import org.openrewrite.java.JavaVisitor;
import org.openrewrite.java.tree.Expression;
import org.openrewrite.java.tree.Flag;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.JavaType;
import org.openrewrite.java.tree.TypeUtils;
import org.openrewrite.marker.Markers;

/**
 * The generalization of a group of before statements over their attributed trees (anti-unification):
 * walked in parallel, nodes of the same class and label (method and its declaring type, literal
 * value, operator, type or static member named) stay fixed and their children are walked; anything
 * else becomes a parameter, the same differing subtrees the same parameter. A variable (local,
 * parameter, instance field) is a parameter even where every occurrence names the same one: a
 * template cannot name it.
 *
 * <p>The fixed part is written from the first occurrence's tree with its parameters replaced by
 * their names, and with every type and static member fully qualified as the base's attribution
 * declares them: matching is by declaring type, and the before side has no imports.
 */
final class AntiUnifier {
    /** A parameter: its subtree in each occurrence, and the method it is a direct argument of, if any. */
    static final class Parameter {
        final List<J> subtrees;
        final JavaType.@Nullable Method callee;
        final int argument;
        String name = "";
        String type = "";

        Parameter(List<J> subtrees, JavaType.@Nullable Method callee, int argument) {
            this.subtrees = subtrees;
            this.callee = callee;
            this.argument = argument;
        }
    }

    /**
     * A generalized group: its parameters (named and typed, in the order the first occurrence meets
     * them), its class type parameters, the before fully qualified, the type an expression template
     * returns (null: a statement template), the methods its fixed part calls, and the reason it is
     * refused (null: it may become a template).
     */
    record Generalization(
            List<EditPairs.Pair> pairs,
            List<Parameter> parameters,
            List<String> typeVariables,
            String before,
            @Nullable String returnType,
            List<String> methods,
            @Nullable String refused) {}

    private final Map<List<String>, Parameter> store = new LinkedHashMap<>();
    private final Map<UUID, Parameter> byRepresentative = new HashMap<>();
    private final List<String> methods = new ArrayList<>();
    private boolean substantive;

    private AntiUnifier() {}

    /**
     * {@code nameable}: whether the template's compile can name a public class (by its binary name,
     * {@code a.B$C}), for a type parameter's bound.
     */
    static Generalization of(List<EditPairs.Pair> pairs, Predicate<String> nameable) {
        AntiUnifier unifier = new AntiUnifier();
        List<J> tops = pairs.stream().map(EditPairs.Pair::before).toList();
        unifier.walk(tops, null, 0);
        List<Parameter> parameters = new ArrayList<>(unifier.store.values());
        String refused = null;
        if (unifier.byRepresentative.containsKey(tops.get(0).getId())) {
            refused = "its occurrences share nothing but literals";
        } else if (!unifier.substantive) {
            refused = "its occurrences share nothing but literals";
        }
        List<String> typeVariables = new ArrayList<>();
        Map<List<String>, String> variables = new LinkedHashMap<>();
        String returnType = null;
        if (refused == null) {
            refused = type(parameters, pairs, variables, typeVariables, nameable);
        }
        if (refused == null && pairs.get(0).expression()) {
            // An expression template returns what the expression is, typed as a parameter is.
            Parameter returned = new Parameter(tops, null, 0);
            refused = type(List.of(returned), pairs, variables, typeVariables, nameable);
            returnType = refused == null ? returned.type : null;
            refused = refused == null ? null : refused.replace("parameter 1", "the expression");
        }
        name(parameters);
        String before = unifier.before(pairs.get(0).before());
        return new Generalization(
                pairs,
                List.copyOf(parameters),
                List.copyOf(typeVariables),
                before,
                returnType,
                List.copyOf(unifier.methods),
                refused);
    }

    /** Walks the same position of every occurrence: fixed when class and label agree, else a parameter. */
    private void walk(List<J> nodes, JavaType.@Nullable Method callee, int argument) {
        J first = nodes.get(0);
        String label = label(first);
        boolean same = label != null;
        for (J node : nodes) {
            same &= node.getClass() == first.getClass() && Objects.equals(label(node), label);
        }
        if (!same) {
            parameter(nodes, callee, argument);
            return;
        }
        if (label.startsWith("call ")
                || label.startsWith("new ")
                || label.startsWith("type ")
                || label.startsWith("static ")
                || label.startsWith("instanceof ")
                || ((label.startsWith("cast ") || label.startsWith("var ")) && label.contains("."))) {
            substantive = true;
        }
        if (first instanceof J.MethodInvocation call) {
            methods.add(call.getSimpleName());
        }
        List<List<J>> children = nodes.stream().map(AntiUnifier::children).toList();
        for (int k = 0; k < children.get(0).size(); k++) {
            List<J> column = new ArrayList<>();
            for (List<J> of : children) {
                column.add(of.get(k));
            }
            JavaType.Method method = null;
            int index = 0;
            if (first instanceof J.MethodInvocation call) {
                method = call.getMethodType();
                index = isStatic(call) ? k : k - 1;
            } else if (first instanceof J.NewClass created) {
                method = created.getConstructorType();
                index = k;
            }
            walk(column, index >= 0 ? method : null, index);
        }
    }

    /** The same differing subtrees (by their text in each occurrence) are the same parameter. */
    private void parameter(List<J> nodes, JavaType.@Nullable Method callee, int argument) {
        List<String> key = nodes.stream().map(n -> Printed.tokens(n).key()).toList();
        Parameter parameter = store.computeIfAbsent(key, k -> new Parameter(List.copyOf(nodes), callee, argument));
        byRepresentative.put(nodes.get(0).getId(), parameter);
    }

    /**
     * What must agree for a node to stay fixed; null for a node that is always a parameter: a
     * variable, an unattributed or unsupported node.
     */
    static @Nullable String label(J node) {
        if (node instanceof J.MethodInvocation call) {
            JavaType.Method method = call.getMethodType();
            if (method == null || call.getTypeParameters() != null || (call.getSelect() == null && !isStatic(call))) {
                return null; // unattributed, explicit type arguments, or a call on `this`
            }
            return "call " + name(method.getDeclaringType()) + "#" + call.getSimpleName() + "/"
                    + arguments(call.getArguments()).size() + (isStatic(call) ? " static" : "");
        }
        if (node instanceof J.NewClass created) {
            JavaType.FullyQualified type = TypeUtils.asFullyQualified(created.getType());
            if (created.getBody() != null || created.getEnclosing() != null || type == null || isUnknown(type)) {
                return null;
            }
            return "new " + name(type) + "/" + arguments(created.getArguments()).size();
        }
        if (node instanceof J.Identifier || node instanceof J.FieldAccess) {
            String reference = reference((Expression) node);
            if (reference != null) {
                return reference;
            }
            return node instanceof J.FieldAccess access ? "field " + access.getSimpleName() : null;
        }
        if (node instanceof J.Literal literal) {
            return "literal " + literal.getValueSource();
        }
        if (node instanceof J.Binary binary) {
            return "binary " + binary.getOperator();
        }
        if (node instanceof J.Unary unary) {
            return "unary " + unary.getOperator();
        }
        if (node instanceof J.Parentheses<?>) {
            return "()";
        }
        if (node instanceof J.TypeCast cast) {
            String type = TypeNames.writable(cast.getClazz().getType());
            return type == null ? null : "cast " + type;
        }
        if (node instanceof J.InstanceOf test) {
            String type = TypeNames.writable(test.getClazz() instanceof Expression e ? e.getType() : null);
            return type == null || test.getPattern() != null ? null : "instanceof " + type;
        }
        if (node instanceof J.Assignment) {
            return "=";
        }
        if (node instanceof J.AssignmentOperation operation) {
            return "op= " + operation.getOperator();
        }
        if (node instanceof J.Ternary) {
            return "?:";
        }
        if (node instanceof J.ArrayAccess) {
            return "[]";
        }
        if (node instanceof J.VariableDeclarations declarations
                && declarations.getVariables().size() == 1
                && declarations.getVariables().get(0).getInitializer() != null) {
            String type = TypeNames.writable(declarations.getType());
            return type == null
                    ? null
                    : "var " + type + " " + declarations.getVariables().get(0).getSimpleName();
        }
        return null;
    }

    /** The nodes walked below a fixed node, in order (as many for every node of the same label). */
    private static List<J> children(J node) {
        List<J> children = new ArrayList<>();
        if (node instanceof J.MethodInvocation call) {
            if (!isStatic(call) && call.getSelect() != null) {
                children.add(call.getSelect());
            }
            children.addAll(arguments(call.getArguments()));
        } else if (node instanceof J.NewClass created) {
            children.addAll(arguments(created.getArguments()));
        } else if (node instanceof J.FieldAccess access && reference(access) == null) {
            children.add(access.getTarget());
        } else if (node instanceof J.Binary binary) {
            children.add(binary.getLeft());
            children.add(binary.getRight());
        } else if (node instanceof J.Unary unary) {
            children.add(unary.getExpression());
        } else if (node instanceof J.Parentheses<?> parentheses) {
            children.add(parentheses.getTree());
        } else if (node instanceof J.TypeCast cast) {
            children.add(cast.getExpression());
        } else if (node instanceof J.InstanceOf test) {
            children.add(test.getExpression());
        } else if (node instanceof J.Assignment assignment) {
            children.add(assignment.getVariable());
            children.add(assignment.getAssignment());
        } else if (node instanceof J.AssignmentOperation operation) {
            children.add(operation.getVariable());
            children.add(operation.getAssignment());
        } else if (node instanceof J.Ternary ternary) {
            children.add(ternary.getCondition());
            children.add(ternary.getTruePart());
            children.add(ternary.getFalsePart());
        } else if (node instanceof J.ArrayAccess access) {
            children.add(access.getIndexed());
            children.add(access.getDimension().getIndex());
        } else if (node instanceof J.VariableDeclarations declarations) {
            children.add(
                    Objects.requireNonNull(declarations.getVariables().get(0).getInitializer()));
        }
        return children;
    }

    private static List<Expression> arguments(List<Expression> arguments) {
        return arguments.stream().filter(a -> !(a instanceof J.Empty)).toList();
    }

    static boolean isStatic(J.MethodInvocation call) {
        JavaType.Method method = call.getMethodType();
        return method != null && method.hasFlags(Flag.Static);
    }

    /**
     * {@code type X} for a name of a type, {@code static X.f} for a static field (a constant, an
     * enum value): what a template can name. Null for anything else (a variable, a package).
     */
    static @Nullable String reference(Expression name) {
        J.Identifier identifier =
                name instanceof J.FieldAccess access ? access.getName() : name instanceof J.Identifier id ? id : null;
        if (identifier == null) {
            return null;
        }
        JavaType.Variable field = identifier.getFieldType();
        if (field != null) {
            JavaType.FullyQualified owner = TypeUtils.asFullyQualified(field.getOwner());
            return field.hasFlags(Flag.Static) && owner != null && !isUnknown(owner)
                    ? "static " + name(owner) + "." + field.getName()
                    : null;
        }
        JavaType type = name.getType();
        if (type instanceof JavaType.FullyQualified fq
                && !isUnknown(fq)
                && (name(fq).equals(identifier.getSimpleName())
                        || name(fq).endsWith("." + identifier.getSimpleName()))) {
            return "type " + name(fq);
        }
        return null;
    }

    static boolean isUnknown(@Nullable JavaType type) {
        return type == null || type instanceof JavaType.Unknown;
    }

    /** A class's name as Java source writes it ({@code a.B.C}, not {@code a.B$C}). */
    static String name(JavaType.FullyQualified type) {
        return type.getFullyQualifiedName().replace('$', '.');
    }

    /**
     * Types each parameter from its subtrees' attribution; the reason when one has none. One type
     * in every occurrence: that type; otherwise a class type parameter, shared by the parameters
     * whose occurrences have the same types, bounded by their most specific common supertype
     * ({@link TypeNames#bound}) when they have one besides {@code Object}.
     */
    private static @Nullable String type(
            List<Parameter> parameters,
            List<EditPairs.Pair> pairs,
            Map<List<String>, String> variables,
            List<String> typeVariables,
            Predicate<String> nameable) {
        for (int p = 0; p < parameters.size(); p++) {
            Parameter parameter = parameters.get(p);
            List<String> types = new ArrayList<>();
            List<JavaType> javaTypes = new ArrayList<>();
            for (int k = 0; k < parameter.subtrees.size(); k++) {
                J subtree = parameter.subtrees.get(k);
                JavaType type = subtree instanceof Expression e ? e.getType() : null;
                if (isUnknown(type)) {
                    EditPairs.Pair pair = pairs.get(k);
                    return "parameter " + (p + 1) + " has no type in " + pair.path() + ":" + pair.line();
                }
                javaTypes.add(Objects.requireNonNull(type));
                String writable = TypeNames.writable(type);
                types.add(writable == null ? "?" + Objects.requireNonNull(type) : writable);
            }
            if (types.stream().distinct().count() == 1 && !types.get(0).startsWith("?")) {
                parameter.type = types.get(0);
            } else {
                parameter.type = variables.computeIfAbsent(types, t -> {
                    String variable = TypeNames.variable(typeVariables.size());
                    typeVariables.add(variable);
                    // The bound's own type parameters are declared before it: `<U, T extends List<U>>`.
                    List<String> arguments = new ArrayList<>();
                    String bound = TypeNames.bound(javaTypes, nameable, () -> {
                        String argument = TypeNames.variable(typeVariables.size() + arguments.size());
                        arguments.add(argument);
                        return argument;
                    });
                    if (bound != null) {
                        typeVariables.set(typeVariables.size() - 1, variable + " extends " + bound);
                        typeVariables.addAll(typeVariables.size() - 1, arguments);
                    }
                    return variable;
                });
            }
        }
        return null;
    }

    /** The callee's parameter name where a parameter is a direct argument and it has one, else a, b, … */
    private static void name(List<Parameter> parameters) {
        List<String> used = new ArrayList<>();
        for (Parameter parameter : parameters) {
            String name = null;
            JavaType.Method callee = parameter.callee;
            if (callee != null && !callee.getParameterNames().isEmpty()) {
                List<String> names = callee.getParameterNames();
                String candidate = names.get(Math.min(parameter.argument, names.size() - 1));
                if (!candidate.matches("arg\\d+")
                        && SourceVersion.isIdentifier(candidate)
                        && !SourceVersion.isKeyword(candidate)
                        && !used.contains(candidate)) {
                    name = candidate;
                }
            }
            for (int i = 0; name == null; i++) {
                String letter = TypeNames.letter(i);
                if (!used.contains(letter)) {
                    name = letter;
                }
            }
            parameter.name = name;
            used.add(name);
        }
    }

    /** The first occurrence with each parameter replaced by its name and every type and static member fully qualified. */
    private String before(J representative) {
        J written = new Qualifier().visit(representative, 0);
        return Printed.tokens(Objects.requireNonNull(written)).normalized();
    }

    /** Writes parameters by name and types and static members by their fully qualified names. */
    private final class Qualifier extends JavaVisitor<Integer> {
        @Override
        public @Nullable J visit(@Nullable Tree tree, Integer p) {
            if (tree instanceof J node && byRepresentative.containsKey(node.getId())) {
                return identifier(node, byRepresentative.get(node.getId()).name);
            }
            return super.visit(tree, p);
        }

        @Override
        public J visitMethodInvocation(J.MethodInvocation call, Integer p) {
            J visited = super.visitMethodInvocation(call, p);
            JavaType.Method method = call.getMethodType();
            if (visited instanceof J.MethodInvocation m && method != null && isStatic(call)) {
                return m.withSelect(identifier(
                        m.getSelect() == null ? m.getName() : m.getSelect(), name(method.getDeclaringType())));
            }
            return visited;
        }

        @Override
        public J visitFieldAccess(J.FieldAccess access, Integer p) {
            String reference = reference(access);
            if (reference != null) {
                return identifier(access, reference.substring(reference.indexOf(' ') + 1));
            }
            return super.visitFieldAccess(access, p);
        }

        @Override
        public J visitIdentifier(J.Identifier identifier, Integer p) {
            Object parent = getCursor().getParentTreeCursor().getValue();
            if (parent instanceof J.FieldAccess
                    || parent instanceof J.MethodInvocation m && m.getName() == identifier) {
                return identifier;
            }
            String reference = reference(identifier);
            return reference == null
                    ? identifier
                    : identifier.withSimpleName(reference.substring(reference.indexOf(' ') + 1));
        }

        private J.Identifier identifier(J replaced, String text) {
            return new J.Identifier(Tree.randomId(), replaced.getPrefix(), Markers.EMPTY, List.of(), text, null, null);
        }
    }
}
