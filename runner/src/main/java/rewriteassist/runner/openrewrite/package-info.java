/**
 * OpenRewrite's internal APIs, each behind one adapter class of its own: rewrite-core and
 * rewrite-maven keep the right to change what is under {@code internal}, so an upgrade that moves
 * one of them changes one file here, and nothing else of the runner imports {@code internal}.
 */
@NullMarked
package rewriteassist.runner.openrewrite;

import org.jspecify.annotations.NullMarked;
