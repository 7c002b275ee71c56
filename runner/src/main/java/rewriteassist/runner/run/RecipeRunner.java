package rewriteassist.runner.run;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.LargeSourceSet;
import org.openrewrite.PrintOutputCapture;
import org.openrewrite.Recipe;
import org.openrewrite.RecipeRun;
import org.openrewrite.Result;
import org.openrewrite.SourceFile;
import org.openrewrite.Tree;
import org.openrewrite.TreeVisitor;
import org.openrewrite.Validated;
import org.openrewrite.config.DeclarativeRecipe;
import org.openrewrite.config.Environment;
import org.openrewrite.config.OptionDescriptor;
import org.openrewrite.config.YamlResourceLoader;
import org.openrewrite.marker.Markup;
import org.openrewrite.table.SourcesFileErrors;
import rewriteassist.runner.common.Directories;
import rewriteassist.runner.common.Jackson;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.maven.MavenContexts;
import rewriteassist.runner.measure.Measurements;
import rewriteassist.runner.net.Unreachable;
import rewriteassist.runner.openrewrite.DeclarativeRecipes;
import rewriteassist.runner.openrewrite.Placeholders;
import rewriteassist.runner.openrewrite.RecipeOptionMapper;
import rewriteassist.runner.openrewrite.SourceSets;
import rewriteassist.runner.parse.RepositoryParser;
import rewriteassist.runner.parse.TypesInUse;
import rewriteassist.runner.protocol.ErrorKind;
import rewriteassist.runner.protocol.Failure;
import rewriteassist.runner.results.ErrorReport;
import rewriteassist.runner.results.RunResults;
import rewriteassist.runner.results.StepRun;
import rewriteassist.runner.template.LearnedRecipes;

/**
 * Runs a recipe on the parsed trees: with {@code each_step}, each of its direct steps on its own
 * (every step sees the unchanged trees, so a step's diff is its own), then the recipe as a whole
 * without the steps that failed validation or threw.
 *
 * <p>A recipe from the request's files is taken apart at the YAML level: each step becomes a
 * declarative recipe of its own, written like the original (same preconditions, same options) with
 * only that entry in its {@code recipeList}; the whole run is the same with the good entries. So a
 * step keeps its index even when OpenRewrite cannot load it (a step that does not load is left out
 * of {@code getRecipeList()} and only shows in the recipe's validation), and the preconditions
 * apply to each step exactly as in the option. A recipe found only on the classpath is split with
 * {@code getRecipeList()} instead.
 */
public final class RecipeRunner {
    private static final String RECIPE_TYPE = "specs.openrewrite.org/v1beta/recipe";

    /**
     * Placeholders as {@link YamlResourceLoader} resolves them (with no properties: escapes only).
     * OpenRewrite's internal helper on purpose: the loader resolves with this very class and offers
     * no public way to get the text it resolved, and a helper of our own could resolve differently.
     */

    /** A validation failure that means a recipe name that exists nowhere (rather than a bad option). */
    private static final Pattern UNKNOWN =
            Pattern.compile("does not exist|cannot be found|could not be loaded|not found", Pattern.CASE_INSENSITIVE);

    /** The hunk header's tail OpenRewrite fills with recipe names; git's format has none. */
    private static final Pattern HUNK_TAIL = Pattern.compile("(?m)^(@@ -\\S+ \\+\\S+ @@).*$");

    /** The recipes of the runner's classpath: indexed once, each file read when a recipe needs it. */
    private static @Nullable IndexedRecipes classpath;

    /** The index being read in the background (null: none was started). */
    private static @Nullable CompletableFuture<IndexedRecipes> reading;

    private RecipeRunner() {}

    /** The classpath's recipes, once their index is read (the files are read as needed). */
    private static IndexedRecipes classpath() {
        CompletableFuture<IndexedRecipes> pending;
        synchronized (RecipeRunner.class) {
            pending = reading;
        }
        if (pending != null) {
            return pending.join();
        }
        synchronized (RecipeRunner.class) {
            if (classpath == null) {
                classpath = new IndexedRecipes(RecipeIndex.of(RecipeIndex.classpath(), null));
            }
            return classpath;
        }
    }

    /**
     * Reads the index of the classpath's declarative recipes (YAML) on a background thread, from
     * {@code indexFile} when it was made from the same classpath, else from the recipe files (kept
     * in {@code indexFile} for the next runner; null: not kept); then the recipe files themselves,
     * one at a time, beside the parse: that takes seconds and needs no trees. A request that needs
     * a file not read yet reads it itself, without waiting for the others.
     */
    public static synchronized void readRecipesInBackground(@Nullable Path indexFile) {
        CompletableFuture<IndexedRecipes> index = new CompletableFuture<>();
        reading = index;
        Thread reader = new Thread(
                () -> {
                    long started = System.nanoTime();
                    try {
                        IndexedRecipes recipes = new IndexedRecipes(RecipeIndex.of(RecipeIndex.classpath(), indexFile));
                        index.complete(recipes);
                        Log.log("recipes: the classpath's recipe index ready in " + Log.seconds(started) + " s");
                        int files = 0;
                        while (recipes.readAhead()) {
                            files++;
                        }
                        Log.log("recipes: " + files + " more recipe files read ahead in " + Log.seconds(started)
                                + " s");
                    } catch (RuntimeException | Error e) {
                        index.completeExceptionally(e);
                        throw e;
                    }
                },
                "recipe-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** A recipe file: its text with placeholders resolved, and its YAML documents. */
    private record RecipeFile(Path path, String text, List<Object> documents) {}

    /** One step to run: its index, name and options as written, and how to build it. */
    interface Step {
        String name();

        ObjectNode options();

        Recipe build();
    }

    /**
     * How a request runs its recipe: each step on its own, the whole, no step started after
     * {@code stopAfterSeconds} (0: no limit), on the result of the recipe {@code after} (null: on
     * the parsed trees), what to measure of the whole run (null: nothing), where the whole run
     * exports its data tables (null: nowhere), and the learned recipe jars whose recipes it may name.
     */
    public record Mode(
            boolean eachStep,
            boolean runWhole,
            double stopAfterSeconds,
            @Nullable String after,
            @Nullable Measurements measure,
            @Nullable Path datatables,
            LearnedRecipes learned) {}

    public static RunResults recipe(RepositoryParser.Outcome base, List<Path> recipeFiles, String name, Mode mode)
            throws Failure {
        long started = System.nanoTime();
        boolean eachStep = mode.eachStep();
        double stopAfterSeconds = mode.stopAfterSeconds();
        LearnedRecipes learned = mode.learned();
        List<RecipeFile> files = load(recipeFiles, learned);
        RepositoryParser.Outcome parsed = mode.after() == null ? base : after(base, files, learned, mode.after());
        Map<String, Object> document = find(files, name);
        List<Step> steps = new ArrayList<>();
        Whole whole;
        if (document != null) {
            Object list = document.get("recipeList");
            if (!(list instanceof List<?> entries)) {
                throw new Failure(ErrorKind.YAML_ERROR, "recipe `" + name + "` has no `recipeList` list");
            }
            for (int i = 0; i < entries.size(); i++) {
                steps.add(new YamlStep(files, learned, document, entries, i));
            }
            whole = good -> good.size() == entries.size()
                    ? environment(files, learned, null).activateRecipes(name)
                    : declarative(
                            files,
                            learned,
                            document,
                            good.stream().map(i -> entries.get(i)).toList(),
                            "#without");
        } else {
            if (!learned.has(name) && classpath().loadRecipe(name) == null) {
                throw new Failure(
                        ErrorKind.UNKNOWN_RECIPE,
                        "recipe `" + name + "` is defined neither in " + recipeFiles
                                + (learned.isEmpty() ? "" : ", nor in the learned recipe jars,")
                                + " nor on the runner's classpath");
            }
            Recipe loaded = environment(files, learned, null).activateRecipes(name);
            List<Recipe> direct = directSteps(loaded);
            direct.forEach(step -> steps.add(new ClasspathStep(step)));
            whole = good -> good.size() == direct.size()
                    ? loaded
                    : new Subset(loaded, good.stream().map(direct::get).toList());
        }

        // The steps, and the whole run as it will most likely be (every step good), at once when
        // the runner has threads for it; the whole is run again should a step turn out bad. Every
        // recipe is built before any of them runs: a declarative recipe of the classpath is one
        // instance that every recipe listing it shares, and building one that lists it
        // initializes it again (with new members), which must not happen while it runs.
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            all.add(i);
        }
        boolean wantWhole = mode.runWhole() || !eachStep;
        List<Supplier<@Nullable StepRun>> tasks = new ArrayList<>();
        for (int i = 0; eachStep && i < steps.size(); i++) {
            tasks.add(stepRun(steps.get(i), i, base, parsed, files, learned, started, stopAfterSeconds));
        }
        Supplier<WholeRun> likely = eachStep && wantWhole && RunThreads.parallel()
                ? wholeRun(name, steps, whole, all, parsed, mode.datatables())
                : null;
        RunThreads.Pending<WholeRun> ahead = likely == null ? null : RunThreads.start(likely);
        List<StepRun> runs = new ArrayList<>();
        List<Integer> good = new ArrayList<>();
        List<Integer> leftOut = new ArrayList<>();
        List<Integer> notRun = new ArrayList<>();
        List<@Nullable StepRun> made = RunThreads.all(tasks);
        for (int i = 0; i < made.size(); i++) {
            StepRun run = made.get(i);
            if (run == null) {
                notRun.add(i);
                continue;
            }
            runs.add(run);
            (run.error() == null ? good : leftOut).add(i);
        }
        if (!eachStep) {
            good.addAll(all);
        }
        if (wantWhole) {
            WholeRun done = ahead == null ? null : ahead.get();
            if (done == null || !good.equals(all)) {
                if (done != null) {
                    Log.log("  whole " + name + " again: without the steps that failed or did not run");
                    forgetTables(mode.datatables());
                }
                done = wholeRun(name, steps, whole, good, parsed, mode.datatables())
                        .get();
            }
            Measurements measure = mode.measure();
            if (measure != null && done.result() != null) {
                measure.apply(parsed, parsed == base, done.result(), done.run());
            }
            done.run().leftOut = leftOut;
            runs.add(done.run().build());
        }
        return new RunResults(runs, notRun, Log.seconds(started));
    }

    /**
     * One step's run on {@code parsed}, its recipe built now, run when the result is asked for; or
     * the earlier one of the same recipe on the same trees. The result is null when discovery's time
     * was up before the step started (reported as not run).
     */
    private static Supplier<@Nullable StepRun> stepRun(
            Step step,
            int index,
            RepositoryParser.Outcome base,
            RepositoryParser.Outcome parsed,
            List<RecipeFile> files,
            LearnedRecipes learned,
            long started,
            double stopAfterSeconds) {
        BooleanSupplier timeIsUp = () -> stopAfterSeconds > 0 && (System.nanoTime() - started) / 1e9 > stopAfterSeconds;
        if (timeIsUp.getAsBoolean()) {
            return () -> null;
        }
        // Only on the parsed trees; never with learned jars, whose recipes of the same name
        // change when they are compiled again.
        @Nullable String key = parsed == base && learned.isEmpty() ? cacheKey(step, files) : null;
        Optional<StepRun> earlier = key == null ? Optional.empty() : EarlierRuns.find(base, key);
        if (earlier.isPresent()) {
            Log.log("  step " + index + " " + step.name() + ": as in an earlier request");
            StepRun again = earlier.get().asStep(index);
            return () -> again;
        }
        StepRun.Builder run = new StepRun.Builder(index, step.name(), step.options());
        Prepared prepared = prepare(step::build, parsed, run);
        return () -> {
            if (timeIsUp.getAsBoolean()) {
                return null;
            }
            executeGuarded(prepared, parsed, run, null, null);
            StepRun made = run.build();
            if (key != null) {
                EarlierRuns.keep(base, key, made);
            }
            return made;
        };
    }

    /** A whole run: what it reports so far, and OpenRewrite's run (null when it did not run). */
    private record WholeRun(StepRun.Builder run, @Nullable RecipeRun result) {}

    /**
     * The run of the whole recipe made of the steps {@code good} (by index): its recipe built now,
     * run when the result is asked for.
     */
    private static Supplier<WholeRun> wholeRun(
            String name,
            List<Step> steps,
            Whole whole,
            List<Integer> good,
            RepositoryParser.Outcome parsed,
            @Nullable Path datatables) {
        StepRun.Builder run = new StepRun.Builder(null, name, Jackson.MAPPER.createObjectNode());
        Map<Integer, Step> included = new LinkedHashMap<>();
        good.forEach(i -> included.put(i, steps.get(i)));
        Prepared prepared = prepare(() -> whole.of(good), parsed, run);
        return () -> new WholeRun(run, executeGuarded(prepared, parsed, run, included, datatables));
    }

    /** Removes the tables a whole run exported, before the run that replaces it exports its own. */
    private static void forgetTables(@Nullable Path datatables) {
        if (datatables == null) {
            return;
        }
        try {
            Directories.delete(datatables);
        } catch (IOException | UncheckedIOException e) {
            Log.log("data tables: cannot remove the first whole run's from " + datatables + ": " + Log.oneLine(e));
        }
    }

    /**
     * The trees after {@code name} ran on {@code parsed}: what discovery's follow-up round runs on
     * (recipes that only apply to migrated code, like JUnit 5 best practices, change nothing on the
     * base commit). A prefix that fails is the request's failure: nothing after it would be right.
     */
    private static RepositoryParser.Outcome after(
            RepositoryParser.Outcome parsed, List<RecipeFile> files, LearnedRecipes learned, String name)
            throws Failure {
        long started = System.nanoTime();
        Recipe recipe;
        try {
            recipe = environment(files, learned, null).activateRecipes(name);
        } catch (RuntimeException e) {
            throw new Failure(ErrorKind.YAML_ERROR, "the recipe to run first, `" + name + "`: " + Log.oneLine(e));
        }
        ExecutionContext ctx = MavenContexts.configure(new InMemoryExecutionContext(t -> {}), parsed.policy());
        RecipeRun result;
        try {
            result = recipe.run(sourceSet(parsed), ctx);
            parsed.ran(result);
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable t) {
            parsed.ran(null);
            throw new Failure(ErrorKind.RECIPE_ERROR, "the recipe to run first, `" + name + "`: " + Log.oneLine(t));
        }
        RepositoryParser.Outcome outcome = parsed.after(result.getChangeset().getAllResults());
        Log.log("  ran " + name + " first: "
                + result.getChangeset().getAllResults().size() + " files changed (" + Log.seconds(started) + " s)");
        return outcome;
    }

    /** The trees of a parse for one recipe run, as rewrite-maven-plugin gives them to a recipe. */
    private static LargeSourceSet sourceSet(RepositoryParser.Outcome parsed) {
        return SourceSets.inMemory(parsed.treesForRun());
    }

    /** The whole recipe made of the given steps (by index). */
    private interface Whole {
        Recipe of(List<Integer> steps);
    }

    private static List<RecipeFile> load(List<Path> paths, LearnedRecipes learned) throws Failure {
        List<RecipeFile> files = new ArrayList<>();
        for (Path path : paths) {
            String text;
            try {
                text = Placeholders.replace(Files.readString(path));
            } catch (IOException | RuntimeException e) {
                throw new Failure(ErrorKind.YAML_ERROR, "cannot read " + path + ": " + Log.oneLine(e));
            }
            List<Object> documents = new ArrayList<>();
            try {
                SnakeYaml.loadAll(text).forEach(documents::add);
            } catch (RuntimeException e) {
                throw new Failure(ErrorKind.YAML_ERROR, path + " is not valid YAML: " + Log.oneLine(e), Log.stack(e));
            }
            files.add(new RecipeFile(path, text, documents));
        }
        RecipeNames.check(files.stream().flatMap(f -> f.documents().stream()).toList(), learned.classLoader());
        return files;
    }

    @SuppressWarnings("unchecked")
    private static @Nullable Map<String, Object> find(List<RecipeFile> files, String name) {
        for (RecipeFile file : files) {
            for (Object document : file.documents()) {
                if (document instanceof Map<?, ?> map
                        && RECIPE_TYPE.equals(map.get("type"))
                        && name.equals(map.get("name"))) {
                    return (Map<String, Object>) map;
                }
            }
        }
        return null;
    }

    /**
     * The recipes of the request's files, of the learned jars and of the classpath; {@code extra} (a
     * recipe written here) first, so its name is found before any other.
     */
    private static Environment environment(
            List<RecipeFile> files, LearnedRecipes learned, @Nullable YamlResourceLoader extra) {
        Environment.Builder builder = learned.addTo(Environment.builder());
        if (extra != null) {
            builder.load(extra);
        }
        for (RecipeFile file : files) {
            builder.load(new YamlResourceLoader(
                    new ByteArrayInputStream(file.text().getBytes(StandardCharsets.UTF_8)),
                    file.path().toUri(),
                    null));
        }
        return builder.load(classpath()).build();
    }

    /**
     * What makes {@code step} the recipe it is, for {@link EarlierRuns}; null when that is not
     * known. A recipe file's entry naming a recipe not the request's own: its name, options and its
     * recipe's preconditions are the whole recipe. A composite's member split from the classpath
     * when it is declarative: its name is all of it (discovery splits the Spring Boot umbrellas,
     * whose members are the previous versions' umbrellas, run on their own before); an imperative
     * member may hold state its options do not show.
     */
    private static @Nullable String cacheKey(Step step, List<RecipeFile> files) {
        if (find(files, step.name()) != null) {
            return null;
        }
        if (step instanceof YamlStep entry) {
            return entry.key();
        }
        if (step instanceof ClasspathStep member && member.recipe() instanceof DeclarativeRecipe) {
            return YamlStep.key(step.name(), step.options(), null);
        }
        return null;
    }

    /** The declarative recipe {@code document} with only {@code entries} in its recipe list. */
    private static Recipe declarative(
            List<RecipeFile> files,
            LearnedRecipes learned,
            Map<String, Object> document,
            List<?> entries,
            String suffix) {
        Map<String, Object> copy = new LinkedHashMap<>(document);
        String name = document.get("name") + suffix;
        copy.put("name", name);
        copy.put("recipeList", new ArrayList<>(entries));
        copy.remove("examples");
        String text = SnakeYaml.dump(copy);
        Path source = files.isEmpty() ? Path.of("runner.yml") : files.get(0).path();
        YamlResourceLoader loader = new YamlResourceLoader(
                new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), source.toUri(), null);
        return environment(files, learned, loader).activateRecipes(name);
    }

    /**
     * The YAML library {@link YamlResourceLoader} reads recipes with, so a step is read and written
     * back exactly as OpenRewrite reads it. It comes with rewrite-core in runtime scope only, so it
     * is called reflectively: declaring it for compilation would pin a version of our own instead of
     * following the one the pinned OpenRewrite brings.
     */
    static final class SnakeYaml {
        private SnakeYaml() {}

        private static Object yaml() throws ReflectiveOperationException {
            Class<?> loaderOptions = Class.forName("org.yaml.snakeyaml.LoaderOptions");
            Object safeConstructor = Class.forName("org.yaml.snakeyaml.constructor.SafeConstructor")
                    .getConstructor(loaderOptions)
                    .newInstance(loaderOptions.getConstructor().newInstance());
            return Class.forName("org.yaml.snakeyaml.Yaml")
                    .getConstructor(Class.forName("org.yaml.snakeyaml.constructor.BaseConstructor"))
                    .newInstance(safeConstructor);
        }

        static List<Object> loadAll(String text) {
            List<Object> documents = new ArrayList<>();
            try {
                Object yaml = yaml();
                Iterable<?> all = (Iterable<?>)
                        yaml.getClass().getMethod("loadAll", String.class).invoke(yaml, text);
                all.forEach(documents::add);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("SnakeYAML is not usable", e);
            }
            return documents;
        }

        static String dump(Object document) {
            try {
                Object yaml = yaml();
                return (String) yaml.getClass().getMethod("dump", Object.class).invoke(yaml, document);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("SnakeYAML cannot write a recipe", e);
            }
        }
    }

    /** A step of a recipe from the request's files: its YAML entry, as a recipe of its own. */
    private record YamlStep(
            List<RecipeFile> files, LearnedRecipes learned, Map<String, Object> document, List<?> entries, int index)
            implements Step {
        @Override
        public String name() {
            Object entry = entries.get(index);
            if (entry instanceof Map<?, ?> map && !map.isEmpty()) {
                return String.valueOf(map.keySet().iterator().next());
            }
            return String.valueOf(entry);
        }

        @Override
        public ObjectNode options() {
            Object entry = entries.get(index);
            if (entry instanceof Map<?, ?> map
                    && !map.isEmpty()
                    && map.values().iterator().next() instanceof Map<?, ?> options) {
                return Jackson.MAPPER.valueToTree(options);
            }
            return Jackson.MAPPER.createObjectNode();
        }

        /** What makes this step the recipe it is: its name, its options, its recipe's preconditions. */
        String key() {
            return key(name(), options(), document.get("preconditions"));
        }

        static String key(String name, ObjectNode options, @Nullable Object preconditions) {
            return name + ' ' + options + ' ' + preconditions;
        }

        @Override
        public Recipe build() {
            Recipe recipe = declarative(files, learned, document, List.of(entries.get(index)), "#step" + index);
            checkOptionNames(recipe);
            return recipe;
        }

        /**
         * OpenRewrite ignores an option it does not know (a misspelt one would silently do nothing):
         * a name the step's recipe does not declare is an invalid option here.
         */
        private void checkOptionNames(Recipe recipe) {
            List<Recipe> steps = directSteps(recipe);
            if (steps.size() != 1 || !(entries.get(index) instanceof Map<?, ?> entry)) {
                return;
            }
            if (!(entry.values().iterator().next() instanceof Map<?, ?> options)) {
                return;
            }
            Set<String> known = optionNames(steps.get(0));
            for (Object option : options.keySet()) {
                if (!known.contains(String.valueOf(option))) {
                    List<String> declared = steps.get(0).getDescriptor().getOptions().stream()
                            .map(OptionDescriptor::getName)
                            .toList();
                    throw new InvalidOption(name() + " has no option `" + option + "` (its options: "
                            + String.join(", ", declared) + ")");
                }
            }
        }
    }

    /**
     * The option names a recipe takes: its declared options, and whatever else Jackson would set
     * when OpenRewrite reads it (a property without {@code @Option}, an alias), so that only a name
     * that really goes nowhere counts as unknown.
     */
    static Set<String> optionNames(Recipe recipe) {
        Set<String> names = new LinkedHashSet<>();
        recipe.getDescriptor().getOptions().forEach(o -> names.add(o.getName()));
        // The mapper YamlResourceLoader reads a recipe's options with: only an internal class has it,
        // and a mapper configured otherwise could accept other names than OpenRewrite does.
        ObjectMapper mapper = RecipeOptionMapper.of(recipe.getClass().getClassLoader());
        BeanDescription bean = mapper.getDeserializationConfig().introspect(mapper.constructType(recipe.getClass()));
        for (BeanPropertyDefinition property : bean.findProperties()) {
            names.add(property.getName());
            property.findAliases().forEach(alias -> names.add(alias.getSimpleName()));
        }
        return names;
    }

    /** A step whose options the recipe does not declare. */
    static final class InvalidOption extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidOption(String message) {
            super(message);
        }
    }

    /** A step of a recipe found only on the classpath. */
    private record ClasspathStep(Recipe recipe) implements Step {
        @Override
        public String name() {
            return recipe.getName();
        }

        @Override
        public ObjectNode options() {
            ObjectNode options = Jackson.MAPPER.createObjectNode();
            try {
                for (OptionDescriptor option : recipe.getDescriptor().getOptions()) {
                    if (option.getValue() != null) {
                        options.set(option.getName(), Jackson.MAPPER.valueToTree(option.getValue()));
                    }
                }
            } catch (RuntimeException e) {
                // Options are for the report only; a recipe that cannot describe itself still runs.
            }
            return options;
        }

        @Override
        public Recipe build() {
            return recipe;
        }
    }

    /**
     * A recipe's direct steps. A declarative recipe with preconditions lists a "bellwether" first and
     * wraps each step in a decorator that applies them; the steps are what is wrapped.
     */
    private static List<Recipe> directSteps(Recipe recipe) {
        List<Recipe> steps = new ArrayList<>();
        for (Recipe step : recipe.getRecipeList()) {
            if (DeclarativeRecipes.isPreconditionBellwether(step)) {
                continue;
            }
            steps.add(step instanceof Recipe.DelegatingRecipe delegating ? delegating.getDelegate() : step);
        }
        return steps;
    }

    /** A classpath recipe without the steps that failed on their own. */
    private static final class Subset extends Recipe {
        private final Recipe recipe;
        private final List<Recipe> steps;

        Subset(Recipe recipe, List<Recipe> steps) {
            this.recipe = recipe;
            this.steps = steps;
        }

        @Override
        public String getName() {
            return recipe.getName();
        }

        @Override
        public String getDisplayName() {
            return recipe.getDisplayName();
        }

        @Override
        public String getDescription() {
            return "The recipe without the steps that failed on their own.";
        }

        @Override
        public List<Recipe> getRecipeList() {
            return steps;
        }
    }

    /** How a recipe is built: loading it can fail too (a cycle, a malformed entry). */
    private interface Build {
        public Recipe recipe();
    }

    /**
     * A recipe built and validated for one run, with that run's context and the list OpenRewrite
     * reports its errors to, and the nanoseconds that took; the recipe is null when it did not load or
     * validate (the run's error says why).
     */
    private record Prepared(@Nullable Recipe recipe, ExecutionContext ctx, List<Throwable> reported, long nanos) {}

    /**
     * Builds and validates a recipe for one run, on the request's thread before any of its runs
     * starts (see {@link #recipe}).
     */
    private static Prepared prepare(Build build, RepositoryParser.Outcome parsed, StepRun.Builder run) {
        long started = System.nanoTime();
        List<Throwable> reported = Collections.synchronizedList(new ArrayList<>());
        ExecutionContext ctx = MavenContexts.configure(new InMemoryExecutionContext(reported::add), parsed.policy());
        Recipe recipe = null;
        try {
            recipe = build.recipe();
            ErrorReport invalid = validate(recipe, ctx);
            if (invalid != null) {
                run.error = invalid;
                recipe = null;
            }
        } catch (InvalidOption e) {
            run.error = new ErrorReport(ErrorKind.INVALID_OPTION, e.getMessage(), null);
        } catch (RuntimeException e) {
            // The recipe as written does not load (a cycle, a malformed field).
            run.error = new ErrorReport(ErrorKind.YAML_ERROR, Log.oneLine(e), Log.stack(e));
        }
        return new Prepared(run.error == null ? recipe : null, ctx, reported, System.nanoTime() - started);
    }

    /**
     * {@link #execute}, with any fault of our own bookkeeping kept to this one run: it is named as
     * the run's error, and the other steps and the whole run still count. The recipe's run when it
     * ran (null when it did not load, validate or run, or the bookkeeping failed).
     */
    private static @Nullable RecipeRun executeGuarded(
            Prepared prepared,
            RepositoryParser.Outcome parsed,
            StepRun.Builder run,
            @Nullable Map<Integer, Step> steps,
            @Nullable Path datatables) {
        try {
            return execute(prepared, parsed, run, steps, datatables);
        } catch (RuntimeException e) {
            Log.log("step " + run.step + " " + run.name + ": " + Log.stack(e));
            run.error = new ErrorReport(
                    ErrorKind.INTERNAL, "the runner failed on this step: " + Log.oneLine(e), Log.stack(e));
            return null;
        }
    }

    /**
     * Runs one prepared recipe on the trees; fills {@code run} with its diff, files and error,
     * and, for the whole run ({@code steps} not null), which of its steps changed each file. Its
     * data tables are exported to {@code datatables} (null: nowhere). The recipe's run, or null
     * when it did not run.
     */
    private static @Nullable RecipeRun execute(
            Prepared prepared,
            RepositoryParser.Outcome parsed,
            StepRun.Builder run,
            @Nullable Map<Integer, Step> steps,
            @Nullable Path datatables) {
        long started = System.nanoTime();
        ExecutionContext ctx = prepared.ctx();
        List<Throwable> reported = prepared.reported();
        Recipe recipe = prepared.recipe();
        ExportedTables tables = datatables == null ? null : ExportedTables.into(datatables, ctx);
        int withheldBefore = parsed.policy().credentials().warnings().size();
        try {
            if (recipe == null) {
                return null;
            }
            RecipeRun result;
            try {
                result = recipe.run(sourceSet(parsed), ctx);
                parsed.ran(result);
            } catch (OutOfMemoryError e) {
                throw e;
            } catch (Throwable t) {
                parsed.ran(null);
                run.error = new ErrorReport(ErrorKind.RECIPE_ERROR, Log.oneLine(t), Log.stack(t));
                return null;
            }
            report(result, run);
            List<String> withheld = parsed.policy().credentials().warnings();
            run.warnings.addAll(withheld.subList(Math.min(withheldBefore, withheld.size()), withheld.size()));
            run.warnings.addAll(RunRefusals.of(result, reported, parsed));
            if (steps != null) {
                try {
                    run.stepsByFile = MadeChanges.attribute(result, steps, run.files);
                } catch (RuntimeException e) {
                    // Bookkeeping only: the run's diff stands; its attribution to steps is unknown.
                    run.stepsByFile = Map.of();
                    run.warnings.add("which step changed which file is unknown: " + Log.oneLine(e));
                    Log.log("attribution failed: " + Log.stack(e));
                }
            }
            // What OpenRewrite reported besides the recipe errors (those are the error above). Each
            // recipe error it reports is also a SourcesFileErrors row whose first line names the
            // exception, or the cause of the wrapper a visitor's exception comes in.
            Set<String> errorLines = new LinkedHashSet<>();
            for (SourcesFileErrors.Row row : result.getDataTableRows(SourcesFileErrors.class)) {
                errorLines.add(row.getStackTrace().lines().findFirst().orElse(""));
            }
            Set<String> lines = new LinkedHashSet<>();
            for (Throwable t : reported) {
                Throwable cause = t.getCause();
                if (!errorLines.contains(headline(t)) && (cause == null || !errorLines.contains(headline(cause)))) {
                    lines.add(Log.oneLine(t));
                }
            }
            lines.stream().limit(50).forEach(run.warnings::add);
            return result;
        } finally {
            if (tables != null) {
                tables.close();
            }
            run.seconds = Log.seconds(started - prepared.nanos());
            ErrorReport error = run.error;
            Log.log("  " + (run.step == null ? "whole" : "step " + run.step) + " " + run.name + ": "
                    + run.files.size() + " files changed"
                    + (error == null ? "" : ", " + error.kind().wireName() + ": " + error.message())
                    + " (" + run.seconds + " s)");
        }
    }

    /** A throwable's first line as a {@link SourcesFileErrors} row has it. */
    private static String headline(Throwable t) {
        return t.getClass().getName() + ": " + t.getLocalizedMessage();
    }

    /** Null when valid; else the error, naming the options (or the recipes) that are wrong. */
    private static @Nullable ErrorReport validate(Recipe recipe, ExecutionContext ctx) {
        Collection<Validated<Object>> all;
        try {
            all = recipe.validateAll(ctx, new ArrayList<>());
        } catch (RuntimeException e) {
            return new ErrorReport(ErrorKind.INVALID_OPTION, "validation failed: " + Log.oneLine(e), Log.stack(e));
        }
        List<String> messages = new ArrayList<>();
        boolean unknown = false;
        for (Validated<Object> validated : all) {
            for (Validated.Invalid<Object> failure : validated.failures()) {
                String message = failure.getProperty() + ": " + failure.getMessage();
                unknown |= UNKNOWN.matcher(failure.getMessage()).find();
                messages.add(message);
            }
        }
        if (messages.isEmpty()) {
            return null;
        }
        return new ErrorReport(
                unknown ? ErrorKind.UNKNOWN_RECIPE : ErrorKind.INVALID_OPTION,
                Log.oneLine(String.join("; ", new LinkedHashSet<>(messages))),
                null);
    }

    /**
     * The diff and files of a run. A tree the recipe broke (OpenRewrite caught the exception and
     * marked the tree with {@link Markup.Error}, and recorded it in {@link SourcesFileErrors}) does
     * not count; the first such error is the run's {@code recipe_error}, unless a host out of reach
     * is all it is ({@link Unreachable}): then it is a warning and the run's other changes count.
     */
    private static void report(RecipeRun result, StepRun.Builder run) {
        List<SourcesFileErrors.Row> rows = result.getDataTableRows(SourcesFileErrors.class);
        Set<String> broken = new LinkedHashSet<>();
        rows.forEach(row -> broken.add(row.getSourcePath()));
        // A file left as it was because a host is out of reach is a warning, not the run's error.
        List<SourcesFileErrors.Row> errors = new ArrayList<>();
        Set<String> unreachable = new LinkedHashSet<>();
        for (SourcesFileErrors.Row row : rows) {
            if (Unreachable.is(row)) {
                unreachable.add(row.getSourcePath());
                run.warnings.add(Unreachable.warning(row));
            } else {
                errors.add(row);
            }
        }
        errors.forEach(row -> unreachable.remove(row.getSourcePath()));
        StringBuilder diff = new StringBuilder();
        Map<String, List<String>> types = new LinkedHashMap<>();
        run.types = types;
        Markup.Error marked = null;
        List<String> outside = new ArrayList<>();
        for (Result change : result.getChangeset().getAllResults()) {
            SourceFile before = change.getBefore();
            SourceFile after = change.getAfter();
            Path path = after != null ? after.getSourcePath() : before.getSourcePath();
            if (!inside(path) || (before != null && !inside(before.getSourcePath()))) {
                // A recipe that would write outside the parsed directory (an absolute or `..` path):
                // never part of a diff that could be applied.
                outside.add(path.toString());
                Log.log("a result outside the repository is left out: " + path);
                continue;
            }
            Markup.Error error = findError(after);
            if (error != null || broken.contains(path.toString())) {
                marked = marked != null || unreachable.contains(path.toString()) ? marked : error;
                broken.add(path.toString());
                continue;
            }
            String text;
            try {
                // SANITIZED: the markers recipes leave (search results, download warnings) are not
                // text of the file; the Maven plugin does not write them either.
                text = HUNK_TAIL
                        .matcher(change.diff(null, PrintOutputCapture.MarkerPrinter.SANITIZED))
                        .replaceAll("$1");
            } catch (RuntimeException e) {
                Log.log("no diff for " + path + ": " + Log.oneLine(e));
                continue;
            }
            if (text.isEmpty()) {
                continue;
            }
            run.files.add(path.toString());
            if (after instanceof org.openrewrite.java.tree.J.CompilationUnit) {
                types.put(path.toString(), TypesInUse.of(after));
            }
            diff.append(text);
            if (!text.endsWith("\n")) {
                diff.append('\n');
            }
        }
        run.diff = diff.toString();
        broken.removeAll(unreachable);
        String more = broken.size() > 1 ? " (and " + (broken.size() - 1) + " more files)" : "";
        if (!errors.isEmpty()) {
            SourcesFileErrors.Row first = errors.get(0);
            String trace = first.getStackTrace();
            run.error = new ErrorReport(
                    ErrorKind.RECIPE_ERROR,
                    Log.oneLine(first.getRecipe() + " failed on " + first.getSourcePath() + more + ": "
                            + trace.lines().findFirst().orElse("")),
                    Log.excerpt(trace));
        } else if (!outside.isEmpty()) {
            run.error = new ErrorReport(
                    ErrorKind.RECIPE_ERROR,
                    Log.oneLine("the recipe would write outside the repository: " + String.join(", ", outside)),
                    null);
        } else if (marked != null) {
            String detail = marked.getDetail();
            run.error = new ErrorReport(
                    ErrorKind.RECIPE_ERROR,
                    Log.oneLine("failed on " + broken.iterator().next() + more + ": " + marked.getMessage()),
                    detail == null ? null : Log.excerpt(detail));
        }
    }

    /** Whether a result's path stays inside the parsed directory: relative, without {@code ..}. */
    public static boolean inside(Path path) {
        if (path.isAbsolute()) {
            return false;
        }
        for (Path part : path) {
            if (part.toString().equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** The first {@link Markup.Error} anywhere in a tree (OpenRewrite marks the element that threw). */
    private static Markup.@Nullable Error findError(@Nullable SourceFile tree) {
        if (tree == null) {
            return null;
        }
        AtomicReference<Markup.Error> found = new AtomicReference<>();
        new TreeVisitor<Tree, Integer>() {
            @Override
            public Tree preVisit(Tree t, Integer p) {
                if (found.get() == null) {
                    t.getMarkers().findFirst(Markup.Error.class).ifPresent(found::set);
                }
                if (found.get() != null) {
                    stopAfterPreVisit();
                }
                return t;
            }
        }.visit(tree, 0);
        return found.get();
    }
}
