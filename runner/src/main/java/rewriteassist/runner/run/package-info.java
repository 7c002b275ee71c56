/**
 * Recipes run on the parsed trees ({@link rewriteassist.runner.run.RecipeRunner}): each step and the
 * whole recipe, which step changed which file, the data tables, the names a recipe file may use,
 * and the runs kept for the next request.
 */
@NullMarked
package rewriteassist.runner.run;

import org.jspecify.annotations.NullMarked;
