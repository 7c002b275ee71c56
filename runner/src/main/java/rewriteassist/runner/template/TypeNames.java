package rewriteassist.runner.template;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.openrewrite.java.tree.Flag;
import org.openrewrite.java.tree.JavaType;

/** Types as a template's source writes them, and the names the learner makes up. */
final class TypeNames {
    private static final String VARIABLES = "TUVWXYZ";

    private TypeNames() {}

    /**
     * A type as Java source writes it: a primitive stays primitive, a class is fully qualified, a
     * parameterized type keeps its arguments when each is writable, else it is written raw. Null
     * for what source cannot name here (a type variable, a capture, an unknown type).
     */
    static @Nullable String writable(@Nullable JavaType type) {
        if (type == null || type instanceof JavaType.Unknown) {
            return null;
        }
        if (type instanceof JavaType.Primitive primitive) {
            return switch (primitive) {
                case String -> "java.lang.String";
                case None, Null -> null;
                default -> primitive.getKeyword();
            };
        }
        if (type instanceof JavaType.Array array) {
            String element = writable(array.getElemType());
            return element == null ? null : element + "[]";
        }
        if (type instanceof JavaType.Parameterized parameterized) {
            String raw = AntiUnifier.name(parameterized.getType());
            List<String> arguments = new ArrayList<>();
            for (JavaType argument : parameterized.getTypeParameters()) {
                String written = argument instanceof JavaType.Primitive ? null : writable(argument);
                if (written == null) {
                    return raw;
                }
                arguments.add(written);
            }
            return raw + "<" + String.join(", ", arguments) + ">";
        }
        if (type instanceof JavaType.Class clazz) {
            return AntiUnifier.name(clazz);
        }
        return null;
    }

    /**
     * The bound of a class type parameter standing for these types: the most specific supertype
     * (the type itself included) every one of them has besides {@code Object}, erased, with a fresh
     * class type parameter ({@code fresh}) for each of its type parameters: {@code
     * java.util.Collection<U>} for a {@code List<String>} and a {@code Set<Integer>}, {@code
     * java.util.List<U>} for a {@code List<String>} and a {@code List<Integer>}. (Not {@code
     * Collection<?>}: it compiles, but OpenRewrite's template matcher then matches no {@code
     * hasSize(n)} in the before, whose inferred type differs from the candidate's.) Of several most
     * specific ones, a class before an interface, then the first met walking the first type's
     * supertypes breadth first; only a public class {@code nameable} accepts (the compile's classpath
     * has it). Null (unbounded) when no other is common, or when a type is no class (a primitive, an
     * array, a type variable).
     */
    static @Nullable String bound(List<JavaType> types, Predicate<String> nameable, Supplier<String> fresh) {
        List<Map<String, JavaType.FullyQualified>> supertypes = new ArrayList<>();
        for (JavaType type : types) {
            if (!(type instanceof JavaType.FullyQualified fq) || type instanceof JavaType.Unknown) {
                return null;
            }
            supertypes.add(supertypes(fq));
        }
        Map<String, JavaType.FullyQualified> common = new LinkedHashMap<>(supertypes.get(0));
        supertypes.forEach(of -> common.keySet().retainAll(of.keySet()));
        common.remove("java.lang.Object");
        // Only a public class the compile has can bound a type parameter (not the project's own).
        common.values().removeIf(type -> !type.hasFlags(Flag.Public) || !nameable.test(type.getFullyQualifiedName()));
        // The most specific: no other common type is a subtype of it.
        List<JavaType.FullyQualified> specific = new ArrayList<>();
        for (Map.Entry<String, JavaType.FullyQualified> candidate : common.entrySet()) {
            boolean general = common.entrySet().stream()
                    .anyMatch(other -> !other.getKey().equals(candidate.getKey())
                            && supertypes(other.getValue()).containsKey(candidate.getKey()));
            if (!general) {
                specific.add(candidate.getValue());
            }
        }
        if (specific.isEmpty()) {
            return null;
        }
        JavaType.FullyQualified chosen = specific.stream()
                .filter(type -> type.getKind() != JavaType.FullyQualified.Kind.Interface)
                .findFirst()
                .orElse(specific.get(0));
        List<String> arguments = new ArrayList<>();
        chosen.getTypeParameters().forEach(parameter -> arguments.add(fresh.get()));
        return AntiUnifier.name(chosen) + (arguments.isEmpty() ? "" : "<" + String.join(", ", arguments) + ">");
    }

    /** A type and its supertypes and interfaces, erased, by name, breadth first. */
    private static Map<String, JavaType.FullyQualified> supertypes(JavaType.FullyQualified type) {
        Map<String, JavaType.FullyQualified> found = new LinkedHashMap<>();
        Deque<JavaType.FullyQualified> queue = new ArrayDeque<>(List.of(type));
        while (!queue.isEmpty()) {
            JavaType.FullyQualified next = queue.removeFirst();
            JavaType.FullyQualified erased =
                    next instanceof JavaType.Parameterized parameterized ? parameterized.getType() : next;
            if (erased instanceof JavaType.Unknown || found.putIfAbsent(AntiUnifier.name(erased), erased) != null) {
                continue;
            }
            if (next.getSupertype() != null) {
                queue.addLast(next.getSupertype());
            }
            queue.addAll(next.getInterfaces());
        }
        return found;
    }

    /** The class type parameters: T, U, …, Z, then T1, U1, … */
    static String variable(int index) {
        String letter = String.valueOf(VARIABLES.charAt(index % VARIABLES.length()));
        return index < VARIABLES.length() ? letter : letter + index / VARIABLES.length();
    }

    /** Parameter names without a better one: a, b, …, z, then a1, b1, … */
    static String letter(int index) {
        String letter = String.valueOf((char) ('a' + index % 26));
        return index < 26 ? letter : letter + index / 26;
    }
}
