package rewriteassist.runner.run;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Contributor;
import org.openrewrite.Recipe;
import org.openrewrite.config.CategoryDescriptor;
import org.openrewrite.config.ClasspathScanningLoader;
import org.openrewrite.config.RecipeDescriptor;
import org.openrewrite.config.RecipeExample;
import org.openrewrite.config.ResourceLoader;
import org.openrewrite.config.YamlResourceLoader;
import org.openrewrite.internal.RecipeLoader;
import org.openrewrite.style.NamedStyles;
import rewriteassist.runner.common.Log;

/**
 * The recipes of the runner's classpath, loaded by name as OpenRewrite's {@link
 * ClasspathScanningLoader} loads them, but reading only the YAML files the names need: an
 * imperative recipe by its class, a declarative one from the file the {@link RecipeIndex} names
 * (each file read at most once; the recipes it lists, from theirs, as their composite is
 * initialized). A name the index does not know, and every listing, go to a {@code
 * ClasspathScanningLoader} that reads every file, made when first needed: what is unknown is
 * still looked for everywhere, and answered as OpenRewrite would.
 *
 * <p>A declarative recipe is one instance for every recipe that lists it, as with OpenRewrite's
 * loader. Its methods hold its lock, so a background thread may read the files ahead ({@link
 * #readAhead}) while requests load recipes: a request waits for one file at most, never for all.
 */
final class IndexedRecipes implements ResourceLoader {
    private final RecipeIndex index;
    private final RecipeLoader classes = new RecipeLoader(ClasspathScanningLoader.class.getClassLoader());
    private final Properties properties = new Properties();
    /** The declarative recipes of the files read so far, each by the name the index gives it. */
    private final Map<String, Recipe> recipes = new HashMap<>();

    private final Set<URI> read = new HashSet<>();
    private @Nullable ClasspathScanningLoader everything;
    /** The files not read yet, in classpath order, for {@link #readAhead}. */
    private final Iterator<URI> ahead;

    IndexedRecipes(RecipeIndex index) {
        this.index = index;
        this.ahead = index.allFiles().iterator();
    }

    /** How many recipe files were read (tests: the index spares the others). */
    synchronized int filesRead() {
        return read.size();
    }

    /**
     * Reads the next file no recipe has needed yet; false when every file was read. A runner reads
     * them all ahead beside the parse: most analyses run umbrellas that need most of them.
     */
    synchronized boolean readAhead() {
        while (ahead.hasNext()) {
            URI file = ahead.next();
            if (read.add(file)) {
                readFile(file);
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized @Nullable Recipe loadRecipe(String recipeName, RecipeDetail... details) {
        // As ClasspathScanningLoader: a name that is a recipe class is that class, first.
        try {
            return classes.load(recipeName, null);
        } catch (NoClassDefFoundError | IllegalArgumentException notAClass) {
            // declarative, then
        }
        Recipe known = recipes.get(recipeName);
        if (known != null) {
            return known;
        }
        URI file = index.file(recipeName);
        if (file != null && read.add(file)) {
            readFile(file);
            known = recipes.get(recipeName);
            if (known != null) {
                return known;
            }
        }
        return everything().loadRecipe(recipeName, details);
    }

    /** The recipes {@code file} defines, those the index gives it (another file may redefine one). */
    private void readFile(URI file) {
        try (InputStream in = file.toURL().openStream()) {
            YamlResourceLoader loader =
                    new YamlResourceLoader(in, file, properties, (ClassLoader) null, List.<ResourceLoader>of());
            for (Recipe recipe : loader.listRecipes()) {
                if (file.equals(index.file(recipe.getName()))) {
                    recipes.put(recipe.getName(), recipe);
                }
            }
        } catch (IOException | RuntimeException e) {
            Log.log("recipes: cannot read " + file + ", looking everywhere: " + Log.oneLine(e));
        }
    }

    private ClasspathScanningLoader everything() {
        if (everything == null) {
            everything = new ClasspathScanningLoader(properties, new String[0]);
        }
        return everything;
    }

    @Override
    public synchronized Collection<Recipe> listRecipes() {
        return everything().listRecipes();
    }

    @Override
    public synchronized Collection<RecipeDescriptor> listRecipeDescriptors() {
        return everything().listRecipeDescriptors();
    }

    @Override
    public synchronized Collection<NamedStyles> listStyles() {
        return everything().listStyles();
    }

    @Override
    public synchronized Collection<CategoryDescriptor> listCategoryDescriptors() {
        return everything().listCategoryDescriptors();
    }

    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public synchronized Map<String, List<Contributor>> listContributors() {
        return everything().listContributors();
    }

    @Override
    public synchronized Map<String, List<RecipeExample>> listRecipeExamples() {
        return everything().listRecipeExamples();
    }
}
