package rewriteassist.runner.net;

import java.lang.reflect.Method;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.openrewrite.MavenXml;

/**
 * XML that cannot reach outside itself. Every POM the runner reads (the repository's own, the
 * parents and dependency POMs a declared repository serves, {@code maven-metadata.xml}, Maven
 * settings) goes through rewrite-maven's {@link MavenXmlMapper}, whose Woodstox factory fetches
 * external DTDs and expands parameter entities: a POM could read a local file and send it to a URL
 * it names, or put it into an error message that ends up in a public PR comment. So, before the
 * first parse:
 *
 * <ul>
 *   <li>that factory gets no DTD support, no external entities, a resolver that refuses every
 *       external resource, and bounded entity expansion;
 *   <li>the JDK's own parsers (JAXP: {@code DocumentBuilderFactory}, {@code SAXParserFactory}, the
 *       JDK's StAX), which other libraries on the classpath use, may access no external DTD,
 *       schema or stylesheet, and expand entities within tight limits.
 * </ul>
 *
 * <p>rewrite-maven has no public way to configure its mapper, so the factory is reached through
 * {@code MavenXmlMapper} (internal API) and Jackson's public {@code XmlFactory.getXMLInputFactory}.
 * When that fails, {@link #harden} throws and the runner does not start: a runner that would parse
 * POMs unprotected is worse than none. {@code SafeXmlTest} checks the result against a real server.
 */
public final class SafeXml {
    /** How many entity expansions, and how deeply nested, a document may have. */
    private static final long MAX_ENTITIES = 100;

    private static final int MAX_ENTITY_DEPTH = 2;

    private static volatile boolean hardened;

    private SafeXml() {}

    /** Hardens every XML parser the runner's libraries use; idempotent. */
    public static synchronized void harden() {
        if (hardened) {
            return;
        }
        // JAXP: read by the JDK's factories when they are created, so this must come first.
        System.setProperty("javax.xml.accessExternalDTD", "");
        System.setProperty("javax.xml.accessExternalSchema", "");
        System.setProperty("javax.xml.accessExternalStylesheet", "");
        System.setProperty("jdk.xml.entityExpansionLimit", String.valueOf(MAX_ENTITIES));
        System.setProperty("jdk.xml.maxGeneralEntitySizeLimit", "100000");
        System.setProperty("jdk.xml.maxParameterEntitySizeLimit", "100000");
        System.setProperty("jdk.xml.totalEntitySizeLimit", "1000000");
        configure(mavenFactory());
        hardened = true;
    }

    /** No DTDs, no external entities, nothing resolved from outside, bounded expansion. */
    static void configure(XMLInputFactory factory) {
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setXMLResolver((publicId, systemId, base, namespace) -> {
            throw new XMLStreamException("external XML resources are refused (" + systemId + ")");
        });
        // Woodstox's own limits (ignored by other StAX implementations, which do not know them).
        setIfSupported(factory, "com.ctc.wstx.maxEntityCount", MAX_ENTITIES);
        setIfSupported(factory, "com.ctc.wstx.maxEntityDepth", MAX_ENTITY_DEPTH);
        setIfSupported(factory, "com.ctc.wstx.maxElementDepth", 500);
    }

    private static void setIfSupported(XMLInputFactory factory, String property, Object value) {
        if (factory.isPropertySupported(property)) {
            factory.setProperty(property, value);
        }
    }

    /** The StAX factory behind rewrite-maven's POM mapper (shared by its read and write mappers). */
    static XMLInputFactory mavenFactory() {
        Object jackson = MavenXml.readMapper().getFactory();
        try {
            Method getter = jackson.getClass().getMethod("getXMLInputFactory");
            return (XMLInputFactory) getter.invoke(jackson);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException(
                    "cannot reach rewrite-maven's XML factory to disable external entities: " + Log.oneLine(e), e);
        }
    }
}
