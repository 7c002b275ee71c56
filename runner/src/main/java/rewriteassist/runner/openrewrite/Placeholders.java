package rewriteassist.runner.openrewrite;

import java.util.Properties;
import org.openrewrite.internal.PropertyPlaceholderHelper;

/** rewrite-core's {@code PropertyPlaceholderHelper} (internal): {@code ${name:default}} in text. */
public final class Placeholders {
    private static final PropertyPlaceholderHelper PLACEHOLDERS = new PropertyPlaceholderHelper("${", "}", ":");

    private Placeholders() {}

    /** {@code text} with its placeholders replaced as OpenRewrite's recipe loader replaces them. */
    public static String replace(String text) {
        return PLACEHOLDERS.replacePlaceholders(text, new Properties());
    }
}
