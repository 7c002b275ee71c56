/**
 * What a run request's {@code measure} asks of the whole run
 * ({@link rewriteassist.runner.measure.Measurements}): the residual uses of an old library and a
 * compile check of the changed Java files.
 */
@NullMarked
package rewriteassist.runner.measure;

import org.jspecify.annotations.NullMarked;
