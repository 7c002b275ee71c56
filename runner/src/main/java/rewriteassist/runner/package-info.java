/**
 * The embedded OpenRewrite runner (docs/embedded-runner.md): {@link rewriteassist.runner.Main} reads
 * request files and answers them, {@link rewriteassist.runner.ParentWatch} ends the runner with its
 * parent. The work is in the packages below, one role each. Types are non-null unless marked
 * {@link org.jspecify.annotations.Nullable}, as in OpenRewrite's own packages (in every package
 * here).
 */
@NullMarked
package rewriteassist.runner;

import org.jspecify.annotations.NullMarked;
