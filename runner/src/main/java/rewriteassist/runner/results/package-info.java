/**
 * What the runner answers: the results file of each request ({@link
 * rewriteassist.runner.results.ResultsFile}), records serialized by Jackson in the shapes of
 * src/validation/embedded/protocol.rs, which owns them; ResultsJsonTest pins them.
 */
@NullMarked
package rewriteassist.runner.results;

import org.jspecify.annotations.NullMarked;
