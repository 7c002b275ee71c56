package rewriteassist.runner.openrewrite;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.openrewrite.maven.internal.MavenXmlMapper;

/** rewrite-maven's {@code MavenXmlMapper} (internal): the mapper it reads POMs and settings with. */
public final class MavenXml {
    private MavenXml() {}

    /** The mapper rewrite-maven reads POMs, metadata and settings with. */
    public static ObjectMapper readMapper() {
        return MavenXmlMapper.readMapper();
    }
}
