package rewriteassist.runner.template;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
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
