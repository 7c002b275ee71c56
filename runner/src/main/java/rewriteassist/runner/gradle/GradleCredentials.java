package rewriteassist.runner.gradle;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The credentials a Gradle {@code maven { }} repository declares, as written in the script: each of
 * user and password is a {@link Source} that says where Gradle would take the value. They are
 * looked up in {@link GradleProperties} (Gradle properties and the environment), never evaluated:
 * anything but the common forms is {@link Source.Unread} and named in the warning instead.
 */
record GradleCredentials(Source username, Source password) {

    /** Where a value comes from. */
    sealed interface Source {
        /** A string literal. */
        record Literal(String value) implements Source {}

        /** A Gradle property: {@code findProperty("k")}, {@code providers.gradleProperty("k")}, … */
        record Property(String name) implements Source {}

        /** An environment variable: {@code System.getenv("X")}, {@code providers.environmentVariable("X")}. */
        record Environment(String name) implements Source {}

        /** {@code first ?: second}: the first when it is set, else the second. */
        record Either(Source first, Source second) implements Source {}

        /** An expression the runner does not evaluate, as written. */
        record Unread(String written) implements Source {}
    }

    /**
     * {@code credentials(PasswordCredentials)} of the repository {@code name}: Gradle's convention,
     * the properties {@code <name>Username} and {@code <name>Password}.
     */
    static GradleCredentials ofRepositoryNamed(String name) {
        return new GradleCredentials(new Source.Property(name + "Username"), new Source.Property(name + "Password"));
    }

    /** The user and password, when both are known. */
    Optional<String[]> values(GradleProperties properties) {
        Optional<String> user = value(username, properties);
        Optional<String> pass = value(password, properties);
        return user.isPresent() && pass.isPresent()
                ? Optional.of(new String[] {user.get(), pass.get()})
                : Optional.empty();
    }

    private static Optional<String> value(Source source, GradleProperties properties) {
        if (source instanceof Source.Literal literal) {
            return Optional.of(literal.value());
        }
        if (source instanceof Source.Property property) {
            return properties.property(property.name());
        }
        if (source instanceof Source.Environment variable) {
            return properties.environment(variable.name());
        }
        if (source instanceof Source.Either either) {
            return value(either.first(), properties).or(() -> value(either.second(), properties));
        }
        return Optional.empty();
    }

    /** What is missing for the values, by name (never a value): empty when both are known. */
    List<String> missing(GradleProperties properties) {
        List<String> out = new ArrayList<>();
        missing(username, properties, out);
        missing(password, properties, out);
        return out;
    }

    private static void missing(Source source, GradleProperties properties, List<String> out) {
        if (value(source, properties).isPresent()) {
            return;
        }
        if (source instanceof Source.Property property) {
            out.add("the Gradle property `" + property.name() + "` (or ORG_GRADLE_PROJECT_" + property.name() + ")");
        } else if (source instanceof Source.Environment variable) {
            out.add("the environment variable `" + variable.name() + "`");
        } else if (source instanceof Source.Either either) {
            missing(either.first(), properties, out);
            missing(either.second(), properties, out);
        } else if (source instanceof Source.Unread unread) {
            out.add("`" + unread.written() + "` (an expression, not evaluated)");
        }
    }
}
