package rewriteassist.runner.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openrewrite.Recipe;
import org.openrewrite.config.ClasspathScanningLoader;
import org.openrewrite.config.Environment;
import org.openrewrite.config.ResourceLoader;

/** Recipes loaded by name from the files the index names, as OpenRewrite's own loader loads them. */
class IndexedRecipesTest {
    @TempDir
    Path dir;

    private static final String UMBRELLA = "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_2";

    /** The recipe's tree, depth first: each recipe's name and its options as OpenRewrite prints them. */
    private static List<String> tree(ResourceLoader loader, String name) {
        Recipe recipe = Environment.builder().load(loader).build().activateRecipes(name);
        List<String> out = new ArrayList<>();
        walk(recipe, "", out);
        return out;
    }

    private static void walk(Recipe recipe, String indent, List<String> out) {
        out.add(indent + recipe.getName() + " " + recipe.getDescriptor().getOptions());
        recipe.getRecipeList().forEach(member -> walk(member, indent + " ", out));
    }

    @Test
    void anUmbrellaLoadsAsOpenRewritesLoaderLoadsItFromTheFilesItNeedsOnly() {
        RecipeIndex index = RecipeIndex.of(RecipeIndex.classpath(), dir.resolve("index.json"));
        IndexedRecipes indexed = new IndexedRecipes(index);
        List<String> fromIndex = tree(indexed, UMBRELLA);
        List<String> fromAll = tree(new ClasspathScanningLoader(new Properties(), new String[0]), UMBRELLA);
        assertTrue(fromAll.size() > 500, "the umbrella has its members: " + fromAll.size());
        assertEquals(fromAll, fromIndex);
        int files = index.files();
        assertTrue(Files.isRegularFile(dir.resolve("index.json")), "the index is kept");
        assertTrue(
                indexed.filesRead() < files / 2,
                indexed.filesRead() + " of " + files + " recipe files read for one umbrella");
        assertNull(indexed.loadRecipe("org.example.NoSuchRecipe"), "an unknown name is no recipe");
    }

    @Test
    void anIndexOfAnotherClasspathIsMadeAgainAndTheLastFileOfANameWins() throws Exception {
        Path index = dir.resolve("index.json");
        Path first = recipes("first", "Acme");
        List<Path> classpath = new ArrayList<>(List.of(first));
        RecipeIndex.of(classpath, index);
        String kept = Files.readString(index);
        assertTrue(kept.contains("test.Rename"), kept);

        Path second = recipes("second", "Widget");
        classpath.add(second);
        RecipeIndex again = RecipeIndex.of(classpath, index);
        assertTrue(Files.readString(index).contains(second.toUri().toString()), Files.readString(index));
        Recipe rename =
                Environment.builder().load(new IndexedRecipes(again)).build().activateRecipes("test.Rename");
        assertEquals("Replaces Widget.", rename.getDescription());
        assertEquals(
                "[org.openrewrite.text.FindAndReplace]",
                rename.getRecipeList().stream().map(Recipe::getName).toList().toString());
    }

    /** A classpath folder with one recipe file defining {@code test.Rename}, replacing {@code word}. */
    private Path recipes(String folder, String word) throws Exception {
        Path root = dir.resolve(folder);
        Path file = root.resolve("META-INF/rewrite/rename.yml");
        Files.createDirectories(file.getParent());
        Files.writeString(
                file,
                """
                type: specs.openrewrite.org/v1beta/recipe
                name: test.Rename
                displayName: Rename
                description: Replaces %s.
                recipeList:
                  - org.openrewrite.text.FindAndReplace:
                      find: %s
                      replace: replaced
                """
                        .formatted(word, word));
        return root;
    }
}
