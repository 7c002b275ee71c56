/**
 * A repository's files into OpenRewrite trees ({@link rewriteassist.runner.parse.RepositoryParser}):
 * the sources by source set, the resources, the formatting and provenance markers, what one file
 * may cost, and the PR's head files parsed the same way.
 */
@NullMarked
package rewriteassist.runner.parse;

import org.jspecify.annotations.NullMarked;
