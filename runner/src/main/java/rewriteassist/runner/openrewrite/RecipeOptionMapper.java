package rewriteassist.runner.openrewrite;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.openrewrite.internal.ObjectMappers;

/**
 * rewrite-core's {@code ObjectMappers} (internal): the mapper {@code YamlResourceLoader} reads a
 * recipe's options with. A mapper configured otherwise could accept other names than OpenRewrite
 * does.
 */
public final class RecipeOptionMapper {
    private RecipeOptionMapper() {}

    /** The property-based mapper for recipes of {@code classLoader}. */
    public static ObjectMapper of(ClassLoader classLoader) {
        return ObjectMappers.propertyBasedMapper(classLoader);
    }
}
