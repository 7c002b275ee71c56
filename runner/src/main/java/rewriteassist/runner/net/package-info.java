/**
 * The network and what comes over it: the runner's HTTP sender, where credentials may go, which
 * repositories may be read, artifact paths and checksums, and the caches of POMs and jars.
 */
@NullMarked
package rewriteassist.runner.net;

import org.jspecify.annotations.NullMarked;
