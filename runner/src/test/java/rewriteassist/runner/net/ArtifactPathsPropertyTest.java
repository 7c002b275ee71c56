package rewriteassist.runner.net;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Generated coordinates, hostile ones among them (separators, {@code ..}, control characters,
 * placeholders, absolute forms): whatever {@link ArtifactPaths} accepts becomes a path inside the
 * local repository without a {@code ..} in it, and whatever would leave it is refused.
 */
class ArtifactPathsPropertyTest {
    private static final Path REPOSITORY = Path.of("/tmp/rewrite-assist-property/repository");

    @Provide
    Arbitrary<String> parts() {
        Arbitrary<String> pieces = Arbitraries.of(
                "a",
                "B",
                "7",
                "-",
                "_",
                ".",
                "..",
                "/",
                "\\",
                ":",
                "\u0000",
                "\n",
                " ",
                "${x}",
                "~",
                "C:",
                "é",
                "*",
                "SNAPSHOT",
                "1.0");
        return pieces.list().ofMinSize(0).ofMaxSize(6).map(list -> String.join("", list));
    }

    @Property(tries = 3000)
    void acceptedCoordinatesStayInsideTheRepository(
            @ForAll("parts") String group,
            @ForAll("parts") String artifact,
            @ForAll("parts") String version,
            @ForAll("parts") String classifier) {
        String problem = ArtifactPaths.problem(group, artifact, version, classifier, null);
        if (problem != null) {
            assertThrows(
                    IOException.class, () -> ArtifactPaths.jar(REPOSITORY, group, artifact, version, null, classifier));
            return;
        }
        Path jar;
        try {
            jar = ArtifactPaths.jar(REPOSITORY, group, artifact, version, null, classifier);
        } catch (IOException e) {
            throw new AssertionError("accepted but refused: " + e.getMessage(), e);
        }
        assertTrue(jar.startsWith(REPOSITORY) && !jar.equals(REPOSITORY), jar.toString());
        for (Path part : REPOSITORY.relativize(jar)) {
            assertTrue(!part.toString().equals("..") && !part.toString().isEmpty(), jar.toString());
        }
        String all = group + artifact + version + classifier;
        assertTrue(
                all.chars().noneMatch(c -> c == '/' || c == '\\' || c == ':' || Character.isISOControl(c)),
                "a separator or control character was accepted: " + jar);
    }

    @Property(tries = 500)
    void aSeparatorOrControlCharacterAnywhereIsRefused(@ForAll("parts") String prefix, @ForAll("parts") String suffix) {
        for (String hostile : new String[] {"/", "\\", "\u0000", "\n"}) {
            String value = prefix + hostile + suffix;
            assertTrue(ArtifactPaths.problem(value, "a", "1", null, null) != null, value);
            assertTrue(ArtifactPaths.problem("g", value, "1", null, null) != null, value);
            assertTrue(ArtifactPaths.problem("g", "a", value, null, null) != null, value);
            assertTrue(ArtifactPaths.problem("g", "a", "1", value, null) != null, value);
        }
        // A group's dots become folders: an empty segment would climb or start at the root.
        assertTrue(ArtifactPaths.problem(prefix + ".." + suffix, "a", "1", null, null) != null);
        assertTrue(ArtifactPaths.problem("g", "..", "1", null, null) != null);
        assertTrue(ArtifactPaths.problem("g", "a", "..", null, null) != null);
    }
}
