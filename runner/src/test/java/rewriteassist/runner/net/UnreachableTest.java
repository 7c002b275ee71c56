package rewriteassist.runner.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.openrewrite.table.SourcesFileErrors;

class UnreachableTest {
    private static SourcesFileErrors.Row row(String trace) {
        return new SourcesFileErrors.Row("gradle/wrapper/gradle-wrapper.properties", "a.Recipe", trace);
    }

    @Test
    void aHostWithoutNameRouteAnswerOrTrustedCertificateIsOutOfReach() {
        for (String cause : new String[] {
            "java.net.UnknownHostException: services.gradle.org",
            "java.net.ConnectException: Connection refused",
            "java.net.SocketTimeoutException: connect timed out",
            "javax.net.ssl.SSLHandshakeException: PKIX path building failed"
        }) {
            SourcesFileErrors.Row row = row("java.io.UncheckedIOException: " + cause + "\n  at a.B.c(B.java:1)");
            assertTrue(Unreachable.is(row), cause);
            assertEquals(
                    "a.Recipe left gradle/wrapper/gradle-wrapper.properties as it was, " + Unreachable.MARK + " ("
                            + cause + "); the recipe's other changes stand",
                    Unreachable.warning(row));
        }
    }

    @Test
    void aRecipesOwnFailureIsNot() {
        assertFalse(Unreachable.is(row("java.lang.IllegalStateException: boom\n  at a.B.c(B.java:1)")));
        assertFalse(Unreachable.is(row("java.lang.IllegalStateException: java.net.UnknownHostExceptionally")));
    }
}
