package rewriteassist.runner.template;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import org.openrewrite.config.ClasspathScanningLoader;
import org.openrewrite.config.Environment;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.protocol.ErrorKind;
import rewriteassist.runner.protocol.Failure;
import rewriteassist.runner.run.RecipeRunner;

/**
 * The recipes of learned recipe jars ({@code compile_templates}' output) that a run request names,
 * with the libraries their templates use, in a class loader of their own below the runner's.
 *
 * <p>A generated recipe parses its templates against {@code JavaParser.runtimeClasspath()}, which
 * is the runner's classpath plus the <em>thread context class loader's</em> jars: unless that
 * loader is this one while the recipe runs, the templates cannot see their libraries and silently
 * match nothing. {@link #activate()} sets it for the duration of a run.
 */
public final class LearnedRecipes implements AutoCloseable {
    /** No learned jars: the runner's own recipes only. */
    public static final LearnedRecipes NONE = new LearnedRecipes(List.of(), null, List.of());

    /** The jars and libraries, each with its size and modification time: a jar compiled again is new. */
    private final List<String> key;

    private final @Nullable URLClassLoader loader;
    private final List<ClasspathScanningLoader> recipes;

    private LearnedRecipes(List<String> key, @Nullable URLClassLoader loader, List<ClasspathScanningLoader> recipes) {
        this.key = key;
        this.loader = loader;
        this.recipes = recipes;
    }

    /**
     * These jars' recipes: this same instance when it already holds them (scanning a jar and
     * loading its classes again for every request would waste both), else a new one, closing this.
     */
    public LearnedRecipes reuseOr(List<Path> jars, List<Path> libraries) throws Failure {
        List<String> wanted = key(jars, libraries);
        if (wanted.equals(key)) {
            return this;
        }
        close();
        if (jars.isEmpty()) {
            return NONE;
        }
        List<URL> urls = new ArrayList<>();
        try {
            for (Path path : concat(jars, libraries)) {
                urls.add(path.toUri().toURL());
            }
        } catch (MalformedURLException e) {
            throw new Failure(ErrorKind.INTERNAL, "a learned jar's path: " + Log.oneLine(e));
        }
        URLClassLoader loader =
                new URLClassLoader("learned-recipes", urls.toArray(URL[]::new), RecipeRunner.class.getClassLoader());
        List<ClasspathScanningLoader> recipes = new ArrayList<>();
        for (Path jar : jars) {
            recipes.add(new ClasspathScanningLoader(jar, new Properties(), List.of(), loader));
        }
        return new LearnedRecipes(wanted, loader, recipes);
    }

    private static List<String> key(List<Path> jars, List<Path> libraries) throws Failure {
        List<String> key = new ArrayList<>();
        for (Path path : concat(jars, libraries)) {
            try {
                key.add(path + " " + Files.size(path) + " " + Files.getLastModifiedTime(path));
            } catch (IOException e) {
                throw new Failure(
                        ErrorKind.UNKNOWN_RECIPE,
                        "learned recipe jar or library " + path + " cannot be read: " + Log.oneLine(e));
            }
        }
        return List.copyOf(key);
    }

    private static List<Path> concat(List<Path> jars, List<Path> libraries) {
        List<Path> all = new ArrayList<>(jars);
        all.addAll(libraries);
        return all;
    }

    public boolean isEmpty() {
        return recipes.isEmpty();
    }

    /** The loader the names of recipe files are looked up in: the learned jars' and the runner's. */
    public ClassLoader classLoader() {
        return loader != null ? loader : RecipeRunner.class.getClassLoader();
    }

    /** Whether a learned jar has a recipe of this name. */
    public boolean has(String name) {
        return recipes.stream().anyMatch(r -> r.listRecipes().stream()
                .anyMatch(recipe -> recipe.getName().equals(name)));
    }

    public Environment.Builder addTo(Environment.Builder builder) {
        recipes.forEach(builder::load);
        return builder;
    }

    /** Makes the learned loader the thread's context class loader until the scope is closed. */
    public Scope activate() {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        if (loader != null) {
            thread.setContextClassLoader(loader);
        }
        return () -> thread.setContextClassLoader(before);
    }

    /** A context class loader set for a while; closing it puts the previous one back. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    @Override
    public void close() {
        if (loader != null) {
            try {
                loader.close();
            } catch (IOException e) {
                Log.log("learned recipes: cannot close their class loader: " + Log.oneLine(e));
            }
        }
    }
}
