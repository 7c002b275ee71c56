package rewriteassist.runner.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rewriteassist.runner.Fixture.changeType;
import static rewriteassist.runner.Fixture.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import rewriteassist.runner.Fixture;

/**
 * A file name that is not UTF-8 (Latin-1 {@code caf\xE9.txt}) in the repository: the parse
 * succeeds, the file is kept as plain text under its decoded name and named in a warning, and
 * recipes still change the other files.
 */
class FileNamesTest {
    /** {@code café.txt} in Latin-1: one byte, 0xE9, that is not UTF-8. */
    private static final byte[] LATIN_1 = "caf\u00e9.txt".getBytes(StandardCharsets.ISO_8859_1);

    @RegisterExtension
    final Fixture fixture = new Fixture();

    @Test
    void aNameThatIsNotUtf8IsNamedByItsBytes() throws Exception {
        Path root = Files.createDirectories(fixture.dir().resolve("names"));
        FileNames.Named named = FileNames.of(root, LATIN_1);
        assertNotNull(named.odd());
        Files.writeString(named.path(), "x\n");
        assertEquals("x\n", Files.readString(named.path()));
        assertEquals("caf\uFFFD.txt", root.relativize(named.path()).toString());
        assertEquals("caf\\xE9.txt", FileNames.shown(LATIN_1));

        FileNames.Named plain = FileNames.of(root, "fixture.dir()/caf\u00e9.txt".getBytes(StandardCharsets.UTF_8));
        assertNull(plain.odd());
        assertEquals(root.resolve("fixture.dir()/caf\u00e9.txt"), plain.path());
        assertEquals(
                "fixture.dir()/caf\u00e9.txt",
                FileNames.shown("fixture.dir()/caf\u00e9.txt".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aFileNameThatIsNotUtf8IsKeptAsPlainTextAndTheParseGoesOn() throws Exception {
        Path root = Files.createDirectories(fixture.dir().resolve("repo"));
        Files.writeString(FileNames.fromBytes(root, LATIN_1), "old\n");
        root = fixture.repo(
                "pom.xml",
                "<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId>"
                        + "<artifactId>app</artifactId><version>1</version></project>\n",
                "src/main/java/com/acme/A.java",
                "package com.acme;\n\nclass A {\n}\n",
                "README.md",
                "old\n");

        JsonNode parsed = fixture.parse(root);
        assertEquals(1, parsed.path("files").path("by_kind").path("java").asInt(), parsed.toString());
        assertEquals(1, parsed.path("unparsed").size(), parsed.toString());
        assertEquals(
                "caf\uFFFD.txt", parsed.path("unparsed").get(0).path("path").asText(), parsed.toString());
        boolean named = false;
        for (JsonNode warning : parsed.path("warnings")) {
            named |= warning.asText().startsWith("caf\\xE9.txt: kept as plain text")
                    && warning.asText().contains("not UTF-8");
        }
        assertTrue(named, parsed.toString());

        JsonNode renamed = fixture.run(recipe("test.Rename", changeType("com.acme.A", "com.acme.B")), "test.Rename");
        assertTrue(renamed.path("runs").get(0).path("diff").asText().contains("+class B {"), renamed.toString());
        // A text recipe reads the file through its real name and changes it under the decoded one
        // (which the diff quotes as git does: U+FFFD's bytes in octal), as the CLI decodes git's.
        JsonNode replaced = fixture.run(
                recipe("test.Replace", "org.openrewrite.text.FindAndReplace:\n  find: old\n  replace: new"),
                "test.Replace");
        String diff = replaced.path("runs").get(0).path("diff").asText();
        assertTrue(diff.contains("+++ b/README.md"), diff);
        assertTrue(diff.contains("+++ \"b/caf\\357\\277\\275.txt\""), diff);
    }
}
