package rewriteassist.runner.parse;

import java.util.Locale;

/**
 * What a parsed file became, as a parse's {@code by_kind} counts it: a POM, a build script or a
 * source of each language, a file of each data format, plain text, or a Quark (a file OpenRewrite
 * knows exists but does not read). In the order the results list them.
 */
public enum FileKind {
    MAVEN,
    JAVA,
    GRADLE,
    KOTLIN,
    GROOVY,
    DOCKER,
    YAML,
    JSON,
    PROPERTIES,
    XML,
    HCL,
    TOML,
    PROTO,
    PLAIN_TEXT,
    QUARK;

    /** The name in {@code by_kind}: {@code maven}, {@code plain_text}, … */
    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
