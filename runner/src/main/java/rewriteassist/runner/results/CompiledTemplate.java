package rewriteassist.runner.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;

/**
 * One Refaster template (a class with a {@code @BeforeTemplate} method) of a {@code
 * compile_templates} request: the source file it is in, its name, and either the recipe
 * rewrite-templating made of it or why it made none ({@code refused}: the processor's message).
 * The processor refuses what it cannot translate with a note or a warning and compiles the rest, so
 * a template without a recipe must be named here, or it would vanish without a word.
 */
@JsonPropertyOrder({"name", "file", "recipe", "refused"})
public record CompiledTemplate(String name, String file, @Nullable String recipe, @Nullable String refused) {}
