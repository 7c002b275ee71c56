package rewriteassist.runner.template;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarFile;
import javax.lang.model.SourceVersion;
import org.jspecify.annotations.Nullable;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.SourceFile;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.TypeUtils;
import org.openrewrite.xml.XmlParser;
import org.openrewrite.xml.tree.Xml;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.maven.Reactor;
import rewriteassist.runner.measure.ClasspathAfter;
import rewriteassist.runner.parse.RepositoryParser;
import rewriteassist.runner.protocol.ErrorKind;
import rewriteassist.runner.protocol.Failure;
import rewriteassist.runner.protocol.LearnTemplatesRequest;
import rewriteassist.runner.protocol.TemplateRequest;
import rewriteassist.runner.results.CompileResults;
import rewriteassist.runner.results.CompiledTemplate;
import rewriteassist.runner.results.LearnResults;

/**
 * A {@code learn_templates} request: Refaster templates learned from the edits a PR repeated. The
 * edits' statement pairs ({@link EditPairs}) are grouped by the before's top node and generalized
 * over the attributed base trees ({@link AntiUnifier}); a shape all of whose occurrences the PR
 * rewrote the same way becomes a template ({@link TemplateSource}), compiled with {@link
 * TemplateCompiler} and run on the base ({@link BaseCheck}): a template that would change a line of
 * an edited file the PR left as it was is refused. Every refusal is a result with its reason.
 */
public final class TemplateLearner {
    /** A compile's message for a template that is fine but shared the compile with one that is not. */
    private static final String NOT_COMPILED = "not compiled: the sources have errors";

    private final RepositoryParser.Outcome parsed;
    private final LearnTemplatesRequest request;
    private final List<String> warnings = new ArrayList<>();
    private final List<LearnedShape> shapes = new ArrayList<>();
    private final List<LearnResults.Refused> refused = new ArrayList<>();
    private final Map<String, Optional<J.CompilationUnit>> heads = new HashMap<>();
    private final TextParser parser = new TextParser();
    /** The jars templates are compiled against, and whether each class asked about is in one of them. */
    private List<TemplateRequest.Library> libraries = List.of();

    private final Map<String, Boolean> classes = new HashMap<>();

    private TemplateLearner(RepositoryParser.Outcome parsed, LearnTemplatesRequest request) {
        this.parsed = parsed;
        this.request = request;
    }

    public static LearnResults learn(RepositoryParser.Outcome parsed, LearnTemplatesRequest request) throws Failure {
        return new TemplateLearner(parsed, request).learn(System.nanoTime());
    }

    private LearnResults learn(long started) throws Failure {
        Set<String> edited = new LinkedHashSet<>();
        request.edits().forEach(edit -> edited.add(edit.path()));
        Map<String, J.CompilationUnit> base = new HashMap<>();
        for (SourceFile tree : parsed.trees()) {
            if (tree instanceof J.CompilationUnit unit
                    && edited.contains(tree.getSourcePath().toString())) {
                base.put(tree.getSourcePath().toString(), unit);
            }
        }
        libraries = libraries(edited);
        Map<String, List<EditPairs.Pair>> groups = new LinkedHashMap<>();
        for (EditPairs.Pair pair : EditPairs.of(base, request.edits(), parser, warnings)) {
            groups.computeIfAbsent(groupOf(pair), g -> new ArrayList<>()).add(pair);
        }
        groups.values().forEach(this::learn);

        // Shapes the PR rewrote the same way, with the same parameters: one template, several befores.
        Map<List<Object>, List<LearnedShape>> rewrites = new LinkedHashMap<>();
        shapes.forEach(shape -> rewrites.computeIfAbsent(shape.rewrite(), r -> new ArrayList<>())
                .add(shape));
        List<TemplateSource.Template> candidates = TemplateSource.name(new ArrayList<>(rewrites.values()));

        Compiled compiled = compile(candidates, libraries);
        List<LearnResults.Template> templates = new ArrayList<>();
        if (compiled.jar != null) {
            Map<String, BaseCheck.Outcome> checked = BaseCheck.run(
                    parsed,
                    Paths.get(compiled.jar),
                    libraries.stream().map(TemplateRequest.Library::jar).toList(),
                    recipes());
            List<TemplateSource.Template> accepted = new ArrayList<>();
            for (TemplateSource.Template template : compiled.templates) {
                LearnResults.Template result = check(template, checked);
                if (result != null) {
                    accepted.add(template);
                    templates.add(result);
                }
            }
            if (accepted.size() < compiled.templates.size()) {
                // The jar holds only the accepted templates (a compile refuses what it cannot compile).
                compiled = compile(accepted, libraries);
                Set<String> kept = new LinkedHashSet<>();
                compiled.templates.forEach(template -> kept.add(qualifiedName(template)));
                templates.removeIf(template -> !kept.contains(template.name()));
            }
        }
        if (templates.isEmpty() || compiled.jar == null) {
            deleteJar();
            JarAndPom gradle = gradleRecipes(new JarAndPom(null, null));
            return new LearnResults(
                    Log.seconds(started),
                    List.of(),
                    List.copyOf(refused),
                    null,
                    gradle.jar(),
                    gradle.pom(),
                    null,
                    List.of(),
                    List.copyOf(warnings));
        }
        JarAndPom jar = gradleRecipes(new JarAndPom(compiled.jar, compiled.pom));
        return new LearnResults(
                Log.seconds(started),
                List.copyOf(templates),
                List.copyOf(refused),
                new LearnResults.Source(sourceFile(), compiled.text),
                jar.jar(),
                jar.pom(),
                recipe(compiled.text),
                libraries.stream().map(library -> library.jar().toString()).toList(),
                List.copyOf(warnings));
    }

    /** A recipe jar and its POM, when written. */
    private record JarAndPom(@Nullable String jar, @Nullable String pom) {}

    /**
     * The jar and POM with the Gradle recipes added when the request asks for them (both written
     * when there is no jar), else as they are.
     */
    private JarAndPom gradleRecipes(JarAndPom compiled) throws Failure {
        if (!request.gradleRecipes()) {
            return compiled;
        }
        try {
            Path[] written =
                    GradleBundle.addTo(request.directory(), request.coordinates(), compiled.jar(), compiled.pom());
            return new JarAndPom(written[0].toString(), written[1].toString());
        } catch (IOException e) {
            throw new Failure(ErrorKind.INTERNAL, "cannot add the Gradle recipes to the jar: " + Log.oneLine(e));
        }
    }

    /** The group of a pair: a call by its method (declaring type, name, argument count), else the node's class. */
    private static String groupOf(EditPairs.Pair pair) {
        String kind = pair.expression() ? "expression " : "statement ";
        if (pair.before() instanceof J.MethodInvocation call && call.getMethodType() != null) {
            return kind + "call " + AntiUnifier.name(call.getMethodType().getDeclaringType()) + "#"
                    + call.getSimpleName() + "/"
                    + call.getArguments().stream()
                            .filter(a -> !(a instanceof J.Empty))
                            .count();
        }
        return kind + pair.before().getClass().getName();
    }

    /** The statements a template can be: an expression used as a statement, a declaration with an initializer. */
    private static boolean learnable(EditPairs.Pair pair) {
        J before = pair.before();
        return pair.expression()
                || before instanceof J.MethodInvocation
                || before instanceof J.Assignment
                || before instanceof J.AssignmentOperation
                || before instanceof J.Unary
                || before instanceof J.NewClass
                || (before instanceof J.VariableDeclarations declarations
                        && declarations.getVariables().size() == 1
                        && declarations.getVariables().get(0).getInitializer() != null);
    }

    /**
     * Generalizes a group; when its occurrences were rewritten in different ways, splits it by the
     * calls a parameter hides ({@link #bySignature}), else by after template, and generalizes each
     * part with enough occurrences again.
     */
    private void learn(List<EditPairs.Pair> pairs) {
        if (pairs.size() < request.minOccurrences()) {
            refuse(
                    written(pairs.get(0), Printed.tokens(pairs.get(0).before()).normalized()),
                    written(pairs.get(0), Printed.tokens(pairs.get(0).after()).normalized()),
                    pairs,
                    pairs.size() == 1 ? "one occurrence" : "only " + pairs.size() + " occurrences");
            return;
        }
        if (!learnable(pairs.get(0))) {
            refuse(
                    written(pairs.get(0), Printed.tokens(pairs.get(0).before()).normalized()),
                    written(pairs.get(0), Printed.tokens(pairs.get(0).after()).normalized()),
                    pairs,
                    "only expression statements, declarations with an initializer and the one expression two"
                            + " statements differ in are learned, not a "
                            + pairs.get(0).before().getClass().getSimpleName());
            return;
        }
        AntiUnifier.Generalization generalization = AntiUnifier.of(pairs, this::nameable);
        if (generalization.refused() != null) {
            refuse(
                    written(pairs.get(0), generalization.before()),
                    written(pairs.get(0), Printed.tokens(pairs.get(0).after()).normalized()),
                    pairs,
                    generalization.refused());
            return;
        }
        // By after template, whitespace aside; each shown as its first occurrence wrote it.
        Map<String, List<EditPairs.Pair>> byAfter = new LinkedHashMap<>();
        Map<String, String> shown = new HashMap<>();
        for (int k = 0; k < pairs.size(); k++) {
            JavaTokens after = after(generalization, k);
            byAfter.computeIfAbsent(after.key(), a -> new ArrayList<>()).add(pairs.get(k));
            shown.putIfAbsent(after.key(), after.normalized());
        }
        if (byAfter.size() == 1) {
            shapes.add(new LearnedShape(
                    generalization, shown.get(byAfter.keySet().iterator().next())));
            return;
        }
        Map<String, List<EditPairs.Pair>> bySignature = bySignature(generalization);
        if (bySignature.size() > 1) {
            // A parameter hid different calls (`is(y)`, `hasSize(n)`; or one call of two declaring types,
            // Hamcrest's `Matchers.is` and `CoreMatchers.is`): each part is generalized on its own (a
            // part too small is refused there), and parts rewritten alike become one template's befores.
            bySignature.values().forEach(this::learn);
            return;
        }
        for (Map.Entry<String, List<EditPairs.Pair>> part : byAfter.entrySet()) {
            if (part.getValue().size() >= request.minOccurrences()) {
                learn(part.getValue());
            } else {
                refuse(
                        written(pairs.get(0), generalization.before()),
                        written(pairs.get(0), shown.get(part.getKey())),
                        part.getValue(),
                        "the PR rewrote this shape in " + byAfter.size() + " ways");
            }
        }
    }

    /**
     * The occurrences split by the calls a parameter hides: by the signature of its subtree in each
     * occurrence ({@link #signature}), for a parameter that is an attributed call in every occurrence.
     * Of several such parameters, the one whose split leaves the most occurrences in parts of
     * {@code min_occurrences} or more (then the fewest parts, then the first); one part when none
     * splits them.
     */
    private Map<String, List<EditPairs.Pair>> bySignature(AntiUnifier.Generalization generalization) {
        Map<String, List<EditPairs.Pair>> best = Map.of();
        int bestKept = -1;
        for (AntiUnifier.Parameter parameter : generalization.parameters()) {
            if (!parameter.subtrees.stream()
                    .allMatch(s -> s instanceof J.MethodInvocation call && call.getMethodType() != null)) {
                continue;
            }
            Map<String, List<EditPairs.Pair>> parts = new LinkedHashMap<>();
            for (int k = 0; k < generalization.pairs().size(); k++) {
                parts.computeIfAbsent(signature(parameter.subtrees.get(k)), s -> new ArrayList<>())
                        .add(generalization.pairs().get(k));
            }
            if (parts.size() < 2) {
                continue;
            }
            int kept = parts.values().stream()
                    .filter(part -> part.size() >= request.minOccurrences())
                    .mapToInt(List::size)
                    .sum();
            if (kept > bestKept || (kept == bestKept && parts.size() < best.size())) {
                best = parts;
                bestKept = kept;
            }
        }
        return best;
    }

    /**
     * The skeleton of the calls in a subtree: a call by its declaring type, name and arguments (its
     * target first, for a call on an instance), a constructor by its type and arguments, recursively;
     * anything else is {@code _}. {@code org.hamcrest.Matchers#not(org.hamcrest.Matchers#hasItem(_))}.
     */
    static String signature(J node) {
        List<J> inner = new ArrayList<>();
        String head;
        if (node instanceof J.MethodInvocation call && call.getMethodType() != null) {
            head = AntiUnifier.name(call.getMethodType().getDeclaringType()) + "#" + call.getSimpleName();
            if (!AntiUnifier.isStatic(call) && call.getSelect() != null) {
                inner.add(call.getSelect());
            }
            call.getArguments().stream().filter(a -> !(a instanceof J.Empty)).forEach(inner::add);
        } else if (node instanceof J.NewClass created && TypeUtils.asFullyQualified(created.getType()) != null) {
            head = "new " + AntiUnifier.name(Objects.requireNonNull(TypeUtils.asFullyQualified(created.getType())));
            created.getArguments().stream().filter(a -> !(a instanceof J.Empty)).forEach(inner::add);
        } else {
            return "_";
        }
        return head + "("
                + String.join(
                        ", ", inner.stream().map(TemplateLearner::signature).toList()) + ")";
    }

    /**
     * The after statement of occurrence {@code k} with each parameter's text there replaced by the
     * parameter's name, token by token (longest texts first, so a parameter inside another's text
     * does not break it).
     */
    private static JavaTokens after(AntiUnifier.Generalization generalization, int k) {
        JavaTokens tokens = Printed.tokens(generalization.pairs().get(k).after());
        List<AntiUnifier.Parameter> longestFirst = new ArrayList<>(generalization.parameters());
        longestFirst.sort(Comparator.comparingInt((AntiUnifier.Parameter p) ->
                -Printed.tokens(p.subtrees.get(k)).tokens().size()));
        for (AntiUnifier.Parameter parameter : longestFirst) {
            tokens = tokens.replace(Printed.tokens(parameter.subtrees.get(k)), parameter.name);
        }
        return tokens;
    }

    /** A statement with its {@code ;}, an expression as is. */
    private static String written(EditPairs.Pair pair, String text) {
        return pair.expression() || text.endsWith(";") || text.endsWith("}") ? text : text + ";";
    }

    private void refuse(String before, String after, List<EditPairs.Pair> pairs, String reason) {
        refused.add(new LearnResults.Refused(
                before,
                after,
                pairs.stream()
                        .map(p -> new LearnResults.Place(p.path(), p.line()))
                        .toList(),
                reason));
    }

    /** A compile of some templates: those it compiled, the source, and the jar and POM (null: none). */
    private record Compiled(
            List<TemplateSource.Template> templates, String text, @Nullable String jar, @Nullable String pom) {}

    /**
     * Compiles the templates; one the processor refuses, or whose span has a compile error, is
     * refused with that reason and the rest are compiled again without it (javac writes no class
     * while any source has an error).
     */
    private Compiled compile(List<TemplateSource.Template> templates, List<TemplateRequest.Library> libraries)
            throws Failure {
        List<TemplateSource.Template> remaining = new ArrayList<>(templates);
        while (!remaining.isEmpty()) {
            Set<String> imports = imports(remaining, libraries);
            String text = TemplateSource.write(
                    request.packageName(), request.className(), remaining, imports, staticMethods(remaining, imports));
            CompileResults results = TemplateCompiler.compile(new TemplateRequest(
                    Map.of(sourceFile(), text), libraries, request.directory(), request.coordinates()));
            Map<String, CompiledTemplate> byName = new HashMap<>();
            results.templates().forEach(t -> byName.put(t.name(), t));
            List<TemplateSource.Template> good = new ArrayList<>();
            boolean ownErrors = false;
            for (TemplateSource.Template template : remaining) {
                CompiledTemplate compiled = byName.get(qualifiedName(template));
                if (compiled != null && compiled.recipe() != null) {
                    good.add(template);
                } else if (compiled != null
                        && compiled.refused() != null
                        && compiled.refused().startsWith(NOT_COMPILED)) {
                    good.add(template); // fine itself: another template's error stopped the compile
                } else {
                    ownErrors = true;
                    refuse(
                            template,
                            compiled == null || compiled.refused() == null
                                    ? "rewrite-templating made no recipe of it"
                                    : compiled.refused());
                }
            }
            if (results.errors().isEmpty() && good.size() == remaining.size()) {
                return new Compiled(List.copyOf(good), text, results.jar(), results.pom());
            }
            if (!ownErrors) {
                // An error no template's span holds (an import the after side needs): none compiles.
                String reason = "it does not compile: " + String.join("; ", results.errors());
                good.forEach(template -> refuse(template, Log.oneLine(reason)));
                good.clear();
            }
            remaining = good;
        }
        return new Compiled(List.of(), "", null, null);
    }

    private void refuse(TemplateSource.Template template, String reason) {
        for (LearnedShape shape : template.shapes()) {
            refuse(
                    shape.written(shape.generalization().before()),
                    shape.written(shape.after()),
                    shape.generalization().pairs(),
                    reason);
        }
    }

    /**
     * The template as the check on the base leaves it: refused when its recipe failed there or
     * changed a line of an edited file that no edit replaced; else its result, with the lines it
     * changed in files the PR did not edit as {@code matches}.
     */
    private LearnResults.@Nullable Template check(
            TemplateSource.Template template, Map<String, BaseCheck.Outcome> checked) {
        String recipe = recipes() + "$" + template.name() + "Recipe";
        BaseCheck.Outcome outcome = checked.get(recipe);
        if (outcome == null) {
            refuse(template, "its recipe did not run on the base");
            return null;
        }
        if (!outcome.error().isEmpty()) {
            refuse(template, "its recipe failed on the base: " + outcome.error());
            return null;
        }
        List<LearnResults.Place> matches = new ArrayList<>();
        Set<LearnResults.Place> own = new LinkedHashSet<>();
        for (LearnResults.Place place : outcome.changed()) {
            List<LearnTemplatesRequest.Edit> edits = request.edits().stream()
                    .filter(e -> e.path().equals(place.path()))
                    .toList();
            if (edits.isEmpty()) {
                if (!matches.contains(place)) {
                    matches.add(place);
                }
            } else if (edits.stream().noneMatch(e -> e.covers(place.line()))) {
                refuse(
                        template,
                        "it would change " + place.path() + ":" + place.line() + ", which the PR left as it was");
                return null;
            } else {
                own.add(place);
            }
        }
        List<LearnResults.Place> occurrences = new ArrayList<>();
        template.shapes().forEach(shape -> occurrences.addAll(shape.occurrences()));
        if (occurrences.stream().noneMatch(own::contains)) {
            warnings.add(qualifiedName(template) + " changes none of the lines it was learned from on the base");
        }
        LearnedShape first = template.first();
        return new LearnResults.Template(
                qualifiedName(template),
                recipe,
                first.parameters(),
                TemplateSource.befores(template).stream().map(first::written).toList(),
                first.written(first.after()),
                List.copyOf(occurrences),
                List.copyOf(matches));
    }

    /**
     * The head files' imports (type and static) whose simple names the after templates use, as
     * {@code import …;} lines; and a head file's imports on demand ({@code import static
     * org.assertj.core.api.Assertions.*;}) when a simple name of the after is not imported by name,
     * each only if the compile's classpath has its class or package (a project's own package is not
     * on it, and an import that does not resolve would fail every template).
     */
    private Set<String> imports(List<TemplateSource.Template> templates, List<TemplateRequest.Library> libraries) {
        Set<String> lines = new LinkedHashSet<>();
        for (TemplateSource.Template template : templates) {
            for (LearnedShape shape : template.shapes()) {
                Set<String> unresolved =
                        new LinkedHashSet<>(JavaTokens.of(shape.after()).simpleNames());
                unresolved.removeIf(SourceVersion::isKeyword);
                shape.generalization().parameters().forEach(p -> unresolved.remove(p.name));
                List<String> names = List.copyOf(unresolved);
                for (EditPairs.Pair pair : shape.generalization().pairs()) {
                    List<J.Import> imports = heads.computeIfAbsent(pair.path(), path -> {
                                String text = request.headFiles().get(path);
                                return text == null ? Optional.empty() : parser.unit(text);
                            })
                            .map(J.CompilationUnit::getImports)
                            .orElse(List.of());
                    Set<String> left = new LinkedHashSet<>(names);
                    for (J.Import imported : imports) {
                        String name = qualifiedName(imported);
                        String simple = name.substring(name.lastIndexOf('.') + 1);
                        if (names.contains(simple)) {
                            lines.add("import " + (imported.isStatic() ? "static " : "") + name + ";");
                            left.remove(simple);
                        }
                    }
                    for (J.Import imported : imports) {
                        String name = qualifiedName(imported);
                        if (!left.isEmpty() && name.endsWith(".*") && onClasspath(imported, name, libraries)) {
                            lines.add("import " + (imported.isStatic() ? "static " : "") + name + ";");
                        }
                    }
                }
            }
        }
        return lines;
    }

    private static String qualifiedName(J.Import imported) {
        return Printed.tokens(imported.getQualid()).normalized().replace(" ", "");
    }

    /** Whether an import on demand names a class (static) or package the compile's classpath has. */
    private static boolean onClasspath(J.Import imported, String name, List<TemplateRequest.Library> libraries) {
        String owner = name.substring(0, name.length() - 2);
        if (owner.startsWith("java.") || owner.startsWith("javax.")) {
            return true;
        }
        return holds(libraries, owner.replace('.', '/') + (imported.isStatic() ? ".class" : "/"));
    }

    /**
     * Whether one of the libraries (a jar, or a directory of classes) holds {@code entry}: a class
     * file, or with a trailing {@code /} a package.
     */
    private static boolean holds(List<TemplateRequest.Library> libraries, String entry) {
        for (TemplateRequest.Library library : libraries) {
            Path path = library.jar();
            if (Files.isDirectory(path)) {
                if (Files.exists(path.resolve(entry))) {
                    return true;
                }
                continue;
            }
            try (JarFile jar = new JarFile(path.toFile())) {
                // A jar need not list a package's directory: a package is there when a file is under it.
                boolean found = entry.endsWith("/")
                        ? jar.stream().anyMatch(e -> e.getName().startsWith(entry))
                        : jar.getEntry(entry) != null;
                if (found) {
                    return true;
                }
            } catch (IOException e) {
                // Not a jar to read: it holds nothing.
            }
        }
        return false;
    }

    /**
     * Whether the templates' compile can name a class (binary name, {@code a.B$C}): the JDK's ({@code
     * java.}, {@code javax.}) or one of the libraries'. The project's own classes are not on it.
     */
    private boolean nameable(String binaryName) {
        if (binaryName.startsWith("java.") || binaryName.startsWith("javax.")) {
            return true;
        }
        return classes.computeIfAbsent(binaryName, name -> holds(libraries, name.replace('.', '/') + ".class"));
    }

    /**
     * The request's libraries and the jars of the edited files' source sets, each with coordinates
     * where its path in the local repository gives them ({@code group/path/artifact/version/artifact-version.jar}).
     * When {@code head_files} holds the head text of POMs of the parsed reactor, a source set's jars
     * after them too ({@link #headPoms}): the before side needs the old library, the after side the
     * one the PR added.
     */
    private List<TemplateRequest.Library> libraries(Set<String> edited) {
        Map<Path, TemplateRequest.Library> libraries = new LinkedHashMap<>();
        request.libraries().forEach(library -> libraries.put(library.jar(), library));
        ClasspathAfter after;
        try {
            after = headPoms();
        } catch (RuntimeException e) {
            warnings.add("the head POMs do not parse (" + Log.oneLine(e)
                    + "): the templates compile against the base classpath");
            after = null;
        }
        Set<Path> unresolved = new LinkedHashSet<>();
        for (String path : edited) {
            Reactor.Placement placement = parsed.reactor().placement(Paths.get(path));
            if (placement == null) {
                continue;
            }
            List<Path> jars = new ArrayList<>(placement.jars());
            if (after != null) {
                try {
                    if (after.resolvedAgain(placement.module().pom())) {
                        jars.addAll(after.of(placement));
                    } else {
                        unresolved.add(placement.module().pom());
                    }
                } catch (RuntimeException e) {
                    warnings.add("the head POMs do not resolve (" + Log.oneLine(e)
                            + "): the templates compile against the base classpath");
                    after = null;
                }
            }
            for (Path jar : jars) {
                libraries.computeIfAbsent(jar, j -> new TemplateRequest.Library(j, coordinates(j)));
            }
        }
        for (Path pom : unresolved) {
            warnings.add(pom + " does not resolve with the head POMs: its source sets' templates compile"
                    + " against the base classpath");
        }
        if (after != null) {
            after.warnings().forEach(warning -> warnings.add("head POMs: " + warning));
        }
        return List.copyOf(libraries.values());
    }

    /**
     * The classpath after the head POMs in {@code head_files} (those of the parsed reactor, by path
     * relative to the root), each parsed as XML and given its base tree's source path and markers,
     * resolved again with the rest of the reactor as {@link ClasspathAfter} resolves a recipe's
     * changed POMs; null when there is none. A head POM that does not parse is a warning, and left out.
     */
    private @Nullable ClasspathAfter headPoms() {
        Set<Path> pomPaths = parsed.reactor().pomPaths();
        if (pomPaths.isEmpty()) {
            return null;
        }
        Map<Path, SourceFile> base = new HashMap<>();
        for (SourceFile tree : parsed.trees()) {
            if (pomPaths.contains(tree.getSourcePath())) {
                base.put(tree.getSourcePath(), tree);
            }
        }
        Map<Path, SourceFile> poms = new LinkedHashMap<>();
        for (Map.Entry<String, String> file : request.headFiles().entrySet()) {
            Path path;
            try {
                path = Paths.get(file.getKey()).normalize();
            } catch (InvalidPathException e) {
                continue;
            }
            SourceFile tree = base.get(path);
            if (tree == null) {
                continue;
            }
            List<Throwable> errors = new ArrayList<>();
            SourceFile head = new XmlParser()
                    .parse(new InMemoryExecutionContext(errors::add), file.getValue())
                    .findFirst()
                    .orElse(null);
            if (head instanceof Xml.Document document && errors.isEmpty()) {
                poms.put(path, document.withSourcePath(path).withMarkers(tree.getMarkers()));
            } else {
                warnings.add(file.getKey() + " at the head does not parse"
                        + (errors.isEmpty() ? "" : " (" + Log.oneLine(errors.get(0)) + ")")
                        + ": the templates compile against the base classpath");
            }
        }
        return poms.isEmpty() ? null : ClasspathAfter.ofPoms(parsed, poms);
    }

    private TemplateRequest.@Nullable Coordinates coordinates(Path jar) {
        Path repository = parsed.policy().localRepository().toAbsolutePath().normalize();
        Path file = jar.toAbsolutePath().normalize();
        if (!file.startsWith(repository)) {
            return null;
        }
        Path relative = repository.relativize(file);
        int n = relative.getNameCount();
        if (n < 4) {
            return null;
        }
        String version = relative.getName(n - 2).toString();
        String artifact = relative.getName(n - 3).toString();
        if (!relative.getName(n - 1).toString().equals(artifact + "-" + version + ".jar")) {
            return null;
        }
        String group = relative.subpath(0, n - 3)
                .toString()
                .replace(relative.getFileSystem().getSeparator(), ".");
        try {
            return TemplateRequest.Coordinates.parse(group + ":" + artifact + ":" + version);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** No template was accepted: no jar of an earlier compile stays behind to be taken for this one's. */
    private void deleteJar() {
        for (String extension : List.of("jar", "pom")) {
            try {
                Files.deleteIfExists(
                        request.directory().resolve(request.coordinates().fileName(extension)));
            } catch (IOException e) {
                warnings.add("cannot delete the recipe " + extension + " of a compile: " + Log.oneLine(e));
            }
        }
    }

    private String sourceFile() {
        return request.packageName().replace('.', '/') + "/" + request.className() + ".java";
    }

    private String qualifiedName(TemplateSource.Template template) {
        return request.packageName() + "." + request.className() + "." + template.name();
    }

    /**
     * The methods the templates' after forms call by their simple names, as {@code UseStaticImport}
     * patterns ({@code org.assertj.core.api.Assertions assertThat(..)}), from the static imports
     * that name them (by name, else on demand), each once, in order.
     */
    static List<String> staticMethods(List<TemplateSource.Template> templates, Set<String> imports) {
        Set<String> patterns = new LinkedHashSet<>();
        for (TemplateSource.Template template : templates) {
            for (String name : JavaTokens.of(template.first().after()).unqualifiedCalls()) {
                String owner = null;
                for (String line : imports) {
                    if (!line.startsWith("import static ")) {
                        continue;
                    }
                    String imported = line.substring("import static ".length(), line.length() - 1);
                    String member = imported.substring(imported.lastIndexOf('.') + 1);
                    String type = imported.substring(0, imported.lastIndexOf('.'));
                    if (member.equals(name)) {
                        owner = type;
                        break;
                    }
                    if (member.equals("*") && owner == null) {
                        owner = type;
                    }
                }
                if (owner != null) {
                    patterns.add(owner + " " + name + "(..)");
                }
            }
        }
        return List.copyOf(patterns);
    }

    /** The recipe the results name: every template, and the PR's static imports when it has some. */
    private String recipe(String text) {
        String nested = request.packageName() + "." + request.className() + "$" + TemplateSource.WITH_STATIC_IMPORTS;
        return text.contains("class " + TemplateSource.WITH_STATIC_IMPORTS + " ") ? nested : recipes();
    }

    /** The recipe rewrite-templating makes of the file: it runs every template's. */
    private String recipes() {
        return request.packageName() + "." + request.className() + "Recipes";
    }
}
