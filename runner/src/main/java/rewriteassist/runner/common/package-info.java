/**
 * What every package of the runner uses: its log ({@link rewriteassist.runner.common.Log}, masked by
 * {@link rewriteassist.runner.common.Redaction}), its JSON mapper and atomic file writes.
 */
@NullMarked
package rewriteassist.runner.common;

import org.jspecify.annotations.NullMarked;
