package rewriteassist.runner.gradle;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The Gradle properties a build's credentials may read, from where Gradle takes them, later ones
 * winning as in Gradle: the build's root {@code gradle.properties}, {@code gradle.properties} in
 * the Gradle user home ({@code $GRADLE_USER_HOME}, else {@code ~/.gradle}), and the environment's
 * {@code ORG_GRADLE_PROJECT_<name>}. The environment is the runner's: the binary passes it only
 * the variables the user names ({@code --pass-env}, action input {@code env}). Values never leave
 * this class except as credentials for the downloaders.
 */
final class GradleProperties {
    private static final String ENV_PREFIX = "ORG_GRADLE_PROJECT_";

    private final Map<String, String> properties;
    private final Map<String, String> environment;

    private GradleProperties(Map<String, String> properties, Map<String, String> environment) {
        this.properties = properties;
        this.environment = environment;
    }

    /** The properties of the build in {@code root}, with {@code environment} the process's. */
    static GradleProperties read(Path root, Map<String, String> environment) throws IOException {
        Map<String, String> properties =
                new HashMap<>(GradleProjectReader.properties(root.resolve("gradle.properties")));
        String home = environment.get("GRADLE_USER_HOME");
        Path userHome = home == null || home.isBlank()
                ? Paths.get(System.getProperty("user.home"), ".gradle")
                : Paths.get(home);
        properties.putAll(GradleProjectReader.properties(userHome.resolve("gradle.properties")));
        environment.forEach((name, value) -> {
            if (name.startsWith(ENV_PREFIX) && name.length() > ENV_PREFIX.length()) {
                properties.put(name.substring(ENV_PREFIX.length()), value);
            }
        });
        return new GradleProperties(properties, environment);
    }

    /** The Gradle property {@code name}. */
    Optional<String> property(String name) {
        return Optional.ofNullable(properties.get(name));
    }

    /** The environment variable {@code name}. */
    Optional<String> environment(String name) {
        return Optional.ofNullable(environment.get(name));
    }
}
