package rewriteassist.runner.run;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Recipe;
import rewriteassist.runner.protocol.ErrorKind;
import rewriteassist.runner.protocol.Failure;

/**
 * The names a request's recipe files use in their recipe lists and preconditions, checked before
 * OpenRewrite loads them. Its {@code RecipeLoader} initializes whatever class a name gives ({@code
 * Class.forName(name, true, …)}) and only then finds out whether it is a recipe, so a recipe file
 * (from {@code validate --recipe}, or a {@code rewrite.yml} of the repository under analysis) could
 * run the static initializer of any class on the runner's classpath. A name that is a class but not
 * a recipe is refused here, looked up without initializing it; a name that is no class at all is a
 * declarative recipe (or a typo OpenRewrite reports as it always does).
 */
final class RecipeNames {
    private static final String RECIPE_TYPE = "specs.openrewrite.org/v1beta/recipe";

    private RecipeNames() {}

    /**
     * Checks the names in {@code documents}, looked up in {@code loader}: the runner's, or the one of
     * a request's learned recipe jars (below the runner's), where a learned recipe is a recipe and the
     * template libraries' classes are classes like any other.
     */
    static void check(List<Object> documents, ClassLoader loader) throws Failure {
        Set<String> declared = new HashSet<>();
        for (Object document : documents) {
            if (document instanceof Map<?, ?> map && RECIPE_TYPE.equals(map.get("type"))) {
                declared.add(String.valueOf(map.get("name")));
            }
        }
        for (Object document : documents) {
            if (!(document instanceof Map<?, ?> map) || !RECIPE_TYPE.equals(map.get("type"))) {
                continue;
            }
            for (String key : List.of("recipeList", "preconditions")) {
                if (map.get(key) instanceof List<?> entries) {
                    for (Object entry : entries) {
                        String name = nameOf(entry);
                        if (name != null && !declared.contains(name)) {
                            refuseNonRecipe(name, loader);
                        }
                    }
                }
            }
        }
    }

    /** The recipe an entry names: {@code - Name} or {@code - Name: {options}}. */
    private static @Nullable String nameOf(Object entry) {
        if (entry instanceof String name) {
            return name;
        }
        if (entry instanceof Map<?, ?> map && map.size() == 1) {
            return String.valueOf(map.keySet().iterator().next());
        }
        return null;
    }

    private static void refuseNonRecipe(String name, ClassLoader loader) throws Failure {
        Class<?> found;
        try {
            found = Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError | IllegalArgumentException e) {
            return;
        }
        if (!Recipe.class.isAssignableFrom(found)) {
            throw new Failure(
                    ErrorKind.YAML_ERROR,
                    "`" + name + "` in a recipe list is a class but not a recipe: refused before it is loaded");
        }
    }
}
