/**
 * The embedded OpenRewrite runner (docs/embedded-runner.md). Types here are non-null unless marked
 * {@link org.jspecify.annotations.Nullable}, as in OpenRewrite's own packages.
 */
@NullMarked
package rewriteassist.runner;

import org.jspecify.annotations.NullMarked;
