package rewriteassist.runner.openrewrite;

import org.openrewrite.Recipe;

/**
 * rewrite-core's {@code DeclarativeRecipe.PreconditionBellwether}: a class of its own package
 * (not even internal: package-private), so it is known by name only, here.
 */
public final class DeclarativeRecipes {
    private static final String BELLWETHER = "org.openrewrite.config.DeclarativeRecipe$PreconditionBellwether";

    private DeclarativeRecipes() {}

    /** Whether {@code step} is the bellwether a declarative recipe with preconditions puts first. */
    public static boolean isPreconditionBellwether(Recipe step) {
        return step.getClass().getName().equals(BELLWETHER);
    }
}
