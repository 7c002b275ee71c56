/**
 * Maven without Maven: the reactor of a repository's POMs resolved
 * ({@link rewriteassist.runner.maven.Reactor}) into modules, Java levels and classpaths, what could
 * not be downloaded and what resolves without it, the user's settings, POM limits, and POMs
 * fetched ahead of the resolution.
 */
@NullMarked
package rewriteassist.runner.maven;

import org.jspecify.annotations.NullMarked;
