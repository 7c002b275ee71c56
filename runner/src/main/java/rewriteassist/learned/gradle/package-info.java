/**
 * Recipes for what a Gradle build script says that OpenRewrite's catalog does not change (#39):
 * {@link rewriteassist.learned.gradle.ChangeGradlePropertyValue} sets a property assigned by name
 * wherever the script nests it, {@link rewriteassist.learned.gradle.RemoveGradleDependencyVersion}
 * removes one dependency's version and nothing else. Their options are learned from a pull request;
 * the classes and their sources travel in the learned recipe jar, so OpenRewrite's build plugins
 * load them on the next repository like any recipe artifact. They depend on OpenRewrite only.
 */
@NullMarked
package rewriteassist.learned.gradle;

import org.jspecify.annotations.NullMarked;
