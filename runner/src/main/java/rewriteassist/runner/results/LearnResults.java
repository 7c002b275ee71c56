package rewriteassist.runner.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The results of a {@code learn_templates} request: the templates learned from the PR's repeated
 * edits (each compiled and checked on the base), the shapes refused and why, the one generated
 * source file and the recipe jar, its POM and the recipe that runs them all, and the jars the
 * templates were compiled against (a {@code run} naming the jar needs them, see {@code
 * LearnedRecipes}). {@code source},
 * {@code jar}, {@code pom} and {@code recipe} are null when no template was accepted. A refusal is
 * a result, not a failed request: the Rust side counts them.
 */
@JsonPropertyOrder({"ok", "seconds", "templates", "refused", "source", "jar", "pom", "recipe", "libraries", "warnings"})
public record LearnResults(
        double seconds,
        List<Template> templates,
        List<Refused> refused,
        @Nullable Source source,
        @Nullable String jar,
        @Nullable String pom,
        @Nullable String recipe,
        List<String> libraries,
        List<String> warnings)
        implements Results {
    @Override
    public boolean ok() {
        return true;
    }

    /**
     * A learned template: its class ({@code package.Class.Name}), the recipe rewrite-templating made
     * of it, its parameters, its before forms (fully-qualified) and its after text, the base lines it
     * was learned from, and the base lines of files the PR did not edit that it also changes.
     */
    @JsonPropertyOrder({"name", "recipe", "parameters", "before", "after", "occurrences", "matches"})
    public record Template(
            String name,
            String recipe,
            List<Parameter> parameters,
            List<String> before,
            String after,
            List<Place> occurrences,
            List<Place> matches) {}

    /** A template parameter: its name and its Java type (a class type parameter such as {@code T}). */
    @JsonPropertyOrder({"name", "type"})
    public record Parameter(String name, String type) {}

    /** A base line: where a pair's before statement starts, or a line a template changes. */
    @JsonPropertyOrder({"path", "line"})
    public record Place(String path, int line) {}

    /** A shape that became no template, with its occurrences and why. */
    @JsonPropertyOrder({"before", "after", "occurrences", "reason"})
    public record Refused(String before, String after, List<Place> occurrences, String reason) {}

    /** The generated source file: its path relative to a source root, and its text. */
    @JsonPropertyOrder({"file", "text"})
    public record Source(String file, String text) {}
}
