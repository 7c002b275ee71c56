/**
 * Learned Refaster templates: compiled into a recipe jar and its POM
 * ({@link rewriteassist.runner.template.TemplateCompiler}), and the jars a run names loaded in a
 * class loader of their own ({@link rewriteassist.runner.template.LearnedRecipes}).
 */
@NullMarked
package rewriteassist.runner.template;

import org.jspecify.annotations.NullMarked;
