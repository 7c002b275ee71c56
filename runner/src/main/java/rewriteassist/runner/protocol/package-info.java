/**
 * The requests of docs/embedded-runner.md: one record per request type, read and checked by
 * {@link rewriteassist.runner.protocol.Requests}, and the failures and error kinds a request
 * reports.
 */
@NullMarked
package rewriteassist.runner.protocol;

import org.jspecify.annotations.NullMarked;
