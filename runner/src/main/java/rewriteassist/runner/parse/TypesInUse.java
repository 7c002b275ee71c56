package rewriteassist.runner.parse;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.openrewrite.SourceFile;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.JavaSourceFile;
import org.openrewrite.java.tree.JavaType;
import org.openrewrite.java.tree.TypeUtils;
import rewriteassist.runner.measure.OldUses;

/**
 * The types a Java source refers to, by fully qualified name: the types in use that the compiler
 * attributed, the declaring types of the methods it calls, and what its imports name (so an
 * import of a library that is not on the classpath still counts). This is how the Rust side tells
 * which library a PR migrates away from (types the base uses and the head no longer does) and
 * whether a recipe's result still uses it.
 */
public final class TypesInUse {
    private TypesInUse() {}

    /** The names, sorted; empty for anything but a Java compilation unit. */
    public static List<String> of(SourceFile tree) {
        return tree instanceof J.CompilationUnit cu ? ofSource(cu) : List.of();
    }

    /**
     * The same for any Java-like source (Groovy and Kotlin too, for {@link OldUses}). A source whose
     * type table cannot be read still has its imports.
     */
    public static List<String> ofSource(JavaSourceFile cu) {
        Set<String> names = new TreeSet<>();
        for (J.Import anImport : cu.getImports()) {
            String name = anImport.getTypeName();
            names.add(anImport.getQualid().getSimpleName().equals("*") ? name + ".*" : name);
        }
        try {
            for (JavaType type : cu.getTypesInUse().getTypesInUse()) {
                add(names, type);
            }
            for (JavaType.Method method : cu.getTypesInUse().getUsedMethods()) {
                add(names, method.getDeclaringType());
            }
            // The file's own classes are not "in use" from elsewhere.
            for (J.ClassDeclaration declared : cu.getClasses()) {
                if (declared.getType() != null) {
                    names.remove(declared.getType().getFullyQualifiedName());
                }
            }
        } catch (RuntimeException e) {
            // A Groovy or Kotlin tree without what the table needs: its imports are what is known.
        }
        return List.copyOf(names);
    }

    private static void add(Set<String> names, JavaType type) {
        JavaType.FullyQualified fq = TypeUtils.asFullyQualified(type);
        if (fq != null
                && !(fq instanceof JavaType.Unknown)
                && !fq.getFullyQualifiedName().isEmpty()) {
            names.add(fq.getFullyQualifiedName());
        }
    }
}
