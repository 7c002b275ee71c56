/**
 * Gradle's model without Gradle: build scripts, settings and version catalogs read from their parsed
 * trees, resolved into {@code GradleProject} markers and classpaths
 * ({@link rewriteassist.runner.gradle.GradleBuild}).
 */
@NullMarked
package rewriteassist.runner.gradle;

import org.jspecify.annotations.NullMarked;
