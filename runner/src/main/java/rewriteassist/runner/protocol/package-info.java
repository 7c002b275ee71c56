/**
 * The protocol of docs/embedded-runner.md as types: the requests, the results written for them
 * (records serialized by Jackson, in the shapes of src/validation/embedded/protocol.rs), and the
 * failures and error kinds they report.
 */
@NullMarked
package rewriteassist.runner.protocol;

import org.jspecify.annotations.NullMarked;
