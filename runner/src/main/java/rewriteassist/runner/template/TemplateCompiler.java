package rewriteassist.runner.template;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.JavacTask;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import javax.annotation.processing.Processor;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import rewriteassist.runner.common.Directories;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.protocol.ErrorKind;
import rewriteassist.runner.protocol.Failure;
import rewriteassist.runner.protocol.TemplateRequest;
import rewriteassist.runner.results.CompileResults;
import rewriteassist.runner.results.CompiledTemplate;

/**
 * A {@code compile_templates} request: Refaster templates compiled in this JVM with javac and
 * rewrite-templating's {@code RefasterTemplateProcessor} into recipe classes, then the recipe jar
 * and its POM ({@link RecipeJar}).
 *
 * <p>The processor refuses what it cannot translate (a method-level type parameter, several
 * statements, …) with a note and goes on, and javac still succeeds: so every template is looked up
 * by the recipe class the processor would name after it, and one without is reported with the
 * processor's message. A compile error is reported the same way, never thrown.
 */
public final class TemplateCompiler {
    private static final String PROCESSOR = "org.openrewrite.java.template.processor.RefasterTemplateProcessor";
    private static final int MAX_WARNINGS = 50;

    private final TemplateRequest request;
    private final Path classes;
    private final Path generated;
    /** The request's sources by the URI javac knows them by, for naming them in diagnostics. */
    private final Map<URI, String> names = new HashMap<>();

    private TemplateCompiler(TemplateRequest request) {
        this.request = request;
        this.classes = request.directory().resolve("classes");
        this.generated = request.directory().resolve("generated");
    }

    public static CompileResults compile(TemplateRequest request) throws Failure {
        return new TemplateCompiler(request).compile(System.nanoTime());
    }

    private CompileResults compile(long started) throws Failure {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new Failure(
                    ErrorKind.INTERNAL, "the runner's Java has no compiler (a JRE, not a JDK): templates need javac");
        }
        Processor processor = processor();
        try {
            fresh(classes);
            fresh(generated);
        } catch (IOException e) {
            throw new Failure(ErrorKind.INTERNAL, "cannot write into " + request.directory() + ": " + Log.oneLine(e));
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        TemplateRules rules;
        try (StandardJavaFileManager files =
                javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            JavacTask task = (JavacTask) javac.getTask(null, files, diagnostics, options(), null, sources());
            task.setProcessors(List.of(processor));
            // In steps, to read the templates' trees (attributed, processed) before the classes are written.
            Iterable<? extends CompilationUnitTree> units = task.parse();
            task.analyze();
            rules = TemplateRules.of(task, units);
            task.generate();
        } catch (IOException | RuntimeException e) {
            // The processor or javac itself threw: the reason is the answer, the runner goes on.
            Log.log("compile_templates: " + Log.stack(e));
            return new CompileResults(
                    null,
                    null,
                    List.of(),
                    List.of(),
                    List.of("the compiler failed: " + Log.oneLine(e)),
                    List.of(),
                    Log.seconds(started));
        }
        return results(rules, diagnostics.getDiagnostics(), processor, started);
    }

    private CompileResults results(
            TemplateRules rules,
            List<Diagnostic<? extends JavaFileObject>> diagnostics,
            Processor processor,
            long started)
            throws Failure {
        List<String> errors = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics) {
            (diagnostic.getKind() == Diagnostic.Kind.ERROR ? errors : warnings).add(describe(diagnostic));
        }
        List<CompiledTemplate> templates = new ArrayList<>();
        Set<String> recipes = new LinkedHashSet<>();
        for (TemplateRules.Rule rule : rules.rules) {
            String recipe = errors.isEmpty()
                    ? rule.recipeNames().stream()
                            .filter(this::compiled)
                            .findFirst()
                            .orElse(null)
                    : null;
            if (recipe != null) {
                // A nested template's recipe sits in its source's `…Recipes`, which runs them all.
                String outer = recipe.contains("$") ? recipe.substring(0, recipe.indexOf('$')) : null;
                if (outer != null && compiled(outer)) {
                    recipes.add(outer);
                }
                recipes.add(recipe);
            }
            templates.add(new CompiledTemplate(
                    rule.name(),
                    nameOf(rule.source()),
                    recipe,
                    recipe == null ? refusal(rule, rules, diagnostics, errors) : null));
        }
        if (recipes.isEmpty()) {
            return new CompileResults(null, null, List.of(), templates, errors, limit(warnings), Log.seconds(started));
        }
        List<TemplateRequest.Coordinates> needs = dependencies(rules, processor, warnings);
        try {
            Path jar =
                    RecipeJar.write(request.directory(), request.coordinates(), classes, request.sources(), generated);
            Path pom = RecipeJar.writePom(request.directory(), request.coordinates(), needs);
            return new CompileResults(
                    jar.toString(),
                    pom.toString(),
                    List.copyOf(recipes),
                    templates,
                    errors,
                    limit(warnings),
                    Log.seconds(started));
        } catch (IOException e) {
            throw new Failure(ErrorKind.INTERNAL, "cannot write the recipe jar: " + Log.oneLine(e));
        }
    }

    /** Why a template has no recipe: the messages in its source span, else the best we know. */
    private String refusal(
            TemplateRules.Rule rule,
            TemplateRules rules,
            List<Diagnostic<? extends JavaFileObject>> diagnostics,
            List<String> errors) {
        List<String> own = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics) {
            if (rules.ruleOf(diagnostic) == rule) {
                own.add(diagnostic.getMessage(Locale.ROOT));
            }
        }
        if (!own.isEmpty()) {
            return Log.oneLine(String.join("; ", new LinkedHashSet<>(own)));
        }
        return errors.isEmpty()
                // The processor says each reason once per compile: another template's may be this one's.
                ? "rewrite-templating made no recipe of it (its reason may be one given for another template)"
                : "not compiled: the sources have errors (see `errors`)";
    }

    /** rewrite-templating (its runtime classes) and every library whose classes the templates name. */
    private List<TemplateRequest.Coordinates> dependencies(
            TemplateRules rules, Processor processor, List<String> warnings) {
        List<TemplateRequest.Coordinates> needs = new ArrayList<>();
        String templating = processor.getClass().getPackage().getImplementationVersion();
        if (templating == null) {
            warnings.add("rewrite-templating's version is unknown: the recipe's POM does not declare it");
        } else {
            needs.add(new TemplateRequest.Coordinates("org.openrewrite", "rewrite-templating", templating));
        }
        for (TemplateRequest.Library library : request.libraries()) {
            if (!holdsAny(library.jar(), rules.usedTypes)) {
                continue;
            }
            if (library.coordinates() == null) {
                warnings.add("the templates use " + library.jar()
                        + ", whose coordinates are unknown: the recipe's POM cannot declare it");
            } else {
                needs.add(library.coordinates());
            }
        }
        return needs;
    }

    /** Whether a jar (or classes directory) holds the class file of one of {@code types}. */
    private static boolean holdsAny(Path entry, Set<String> types) {
        if (Files.isDirectory(entry)) {
            return types.stream().anyMatch(t -> Files.isRegularFile(entry.resolve(t.replace('.', '/') + ".class")));
        }
        try (JarFile jar = new JarFile(entry.toFile())) {
            return types.stream().anyMatch(t -> jar.getEntry(t.replace('.', '/') + ".class") != null);
        } catch (IOException e) {
            return false;
        }
    }

    private boolean compiled(String binaryName) {
        return Files.isRegularFile(classes.resolve(binaryName.replace('.', '/') + ".class"));
    }

    private List<String> options() {
        StringBuilder classpath = new StringBuilder(System.getProperty("java.class.path"));
        request.libraries().forEach(l -> classpath.append(File.pathSeparator).append(l.jar()));
        return List.of(
                "--release",
                "17",
                "-parameters",
                "-classpath",
                classpath.toString(),
                "-d",
                classes.toString(),
                "-s",
                generated.toString(),
                // The default, javax.annotation.Generated, is not in JDK 17: the generated source would not compile.
                "-Arewrite.generatedAnnotation=javax.annotation.processing.Generated");
    }

    private List<JavaFileObject> sources() throws Failure {
        List<JavaFileObject> sources = new ArrayList<>();
        for (Map.Entry<String, String> source : request.sources().entrySet()) {
            try {
                TemplateSource file = new TemplateSource(source.getKey(), source.getValue());
                names.put(file.toUri(), source.getKey());
                sources.add(file);
            } catch (URISyntaxException e) {
                throw new Failure(ErrorKind.INTERNAL, "source name `" + source.getKey() + "`: " + Log.oneLine(e));
            }
        }
        return sources;
    }

    /** {@code file:line: message}, the file named as the request named it (generated ones by their path). */
    private String describe(Diagnostic<? extends JavaFileObject> diagnostic) {
        JavaFileObject source = diagnostic.getSource();
        String where = source == null ? "" : nameOf(source.toUri()) + ":" + diagnostic.getLineNumber() + ": ";
        return Log.oneLine(where + diagnostic.getMessage(Locale.ROOT));
    }

    private String nameOf(URI source) {
        String name = names.get(source);
        if (name != null) {
            return name;
        }
        if ("file".equals(source.getScheme()) && Path.of(source).startsWith(generated)) {
            return request.directory().relativize(Path.of(source)).toString();
        }
        return source.toString();
    }

    private static List<String> limit(List<String> lines) {
        return lines.size() <= MAX_WARNINGS ? List.copyOf(lines) : List.copyOf(lines.subList(0, MAX_WARNINGS));
    }

    /**
     * The processor, by name: it comes with the recipe modules (at the version they were built
     * with), so naming it at compile time would pin a version of our own. Its "print each message
     * once" memory is static, so in a runner that compiles twice the second compile's refusals
     * would go unsaid: it is emptied first.
     */
    private static Processor processor() throws Failure {
        try {
            Class<?> type = Class.forName(PROCESSOR);
            try {
                Field printed = type.getDeclaredField("printedMessages");
                printed.setAccessible(true);
                if (printed.get(null) instanceof Map<?, ?> map) {
                    map.clear();
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                Log.log("compile_templates: the processor's message memory is not emptied: " + Log.oneLine(e));
            }
            return (Processor) type.getConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new Failure(
                    ErrorKind.INTERNAL,
                    "rewrite-templating's processor is not on the runner's classpath: " + Log.oneLine(e));
        }
    }

    /** Emptied, or made: a second compile into the same directory must not see the first's classes. */
    private static void fresh(Path directory) throws IOException {
        Directories.delete(directory);
        Files.createDirectories(directory);
    }

    /** A template source held in memory, named by its relative path so javac checks class names. */
    private static final class TemplateSource extends SimpleJavaFileObject {
        private final String text;

        TemplateSource(String name, String text) throws URISyntaxException {
            super(new URI("string", null, "/" + name, null), Kind.SOURCE);
            this.text = text;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return text;
        }
    }
}
