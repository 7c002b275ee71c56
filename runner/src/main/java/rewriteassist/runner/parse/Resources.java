package rewriteassist.runner.parse;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.openrewrite.ExecutionContext;
import org.openrewrite.SourceFile;
import org.openrewrite.polyglot.OmniParser;
import org.openrewrite.quark.QuarkParser;
import org.openrewrite.text.PlainTextParser;
import rewriteassist.runner.common.Log;

/**
 * Every file that is not a build file or a source, parsed with OpenRewrite's {@code OmniParser}
 * as rewrite-maven-plugin configures it: the resource parsers (JSON, XML, YAML, properties,
 * protobuf, TOML, Docker, HCL, Groovy), plain text for the files its default masks name, and a
 * {@code Quark} (a file OpenRewrite knows exists but does not read) for the rest; the directories
 * it ignores ({@code target}, {@code build}, {@code out}, {@code .idea}, …); files over its size
 * threshold left out. So a recipe sees the same kind of tree for each file as with the plugin:
 * text recipes cannot change a Quark there either.
 */
record Resources(List<SourceFile> trees, int tooLarge) {
    /** rewrite-maven-plugin's default size threshold. */
    static final int SIZE_THRESHOLD_MB = 10;

    /**
     * rewrite-maven-plugin's default {@code plainTextMasks} (6.46.1,
     * {@code ConfigurableRewriteMojo#getPlainTextMasks}): the files it reads as plain text.
     */
    static final List<String> PLAIN_TEXT_MASKS = List.of(
            "**/*.adoc",
            "**/*.aj",
            "**/*.bash",
            "**/*.bat",
            "**/CODEOWNERS",
            "**/*.css",
            "**/*.config",
            "**/[dD]ockerfile*",
            "**/*.[dD]ockerfile",
            "**/*[cC]ontainerfile*",
            "**/*.[cC]ontainerfile",
            "**/*.env",
            "**/.gitattributes",
            "**/.gitignore",
            "**/*.htm*",
            "**/gradlew",
            "**/.java-version",
            "**/*.jelly",
            "**/*.jsp",
            "**/*.ksh",
            "**/*.lock",
            "**/lombok.config",
            "**/[mM]akefile",
            "**/*.md",
            "**/*.mf",
            "**/META-INF/services/**",
            "**/META-INF/spring/**",
            "**/META-INF/spring.factories",
            "**/mvnw",
            "**/mvnw.cmd",
            "**/*.qute.java",
            "**/.sdkmanrc",
            "**/*.sh",
            "**/*.sql",
            "**/*.svg",
            "**/*.tsx",
            "**/*.txt",
            "**/*.py");

    /** Parses the files under {@code root} that {@code parsed} does not already hold. */
    static Resources parse(Path root, Set<Path> parsed, ExecutionContext ctx, RepositoryParser.Unparsed unparsed) {
        long started = System.nanoTime();
        OmniParser parser = omniParser(root, parsed);
        List<Path> accepted = new ArrayList<>();
        int tooLarge = 0;
        for (Path file : parser.acceptedPaths(root)) {
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                // A name that is not UTF-8: the walk decodes it into a path that names nothing.
                // RepositoryParser keeps that file as plain text itself (FileNames).
                continue;
            }
            // The plugin's threshold, applied here so that the files it leaves out are counted.
            if (file.toFile().length() > SIZE_THRESHOLD_MB * 1024L * 1024L) {
                tooLarge++;
            } else {
                accepted.add(file);
            }
        }
        // TOML's parser slows down with the square of a table's entries: each such file is parsed on
        // its own, within its budget (FileBudget) and what is left of all of theirs (TotalBudget),
        // the rest together.
        List<Path> toml = accepted.stream()
                .filter(file -> file.getFileName().toString().endsWith(".toml"))
                .toList();
        accepted.removeAll(toml);
        List<SourceFile> trees = new ArrayList<>(
                RepositoryParser.parseWithFallback("resources", () -> parser, accepted, root, ctx, unparsed));
        trees.addAll(RepositoryParser.parseEachWithinBudget(
                "toml", () -> omniParser(root, parsed), toml, root, ctx, unparsed, TotalBudget.toml()));
        Log.log("  resources: " + (accepted.size() + toml.size()) + " files (" + tooLarge + " over " + SIZE_THRESHOLD_MB
                + " MiB left out) in " + Log.seconds(started) + " s");
        return new Resources(trees, tooLarge);
    }

    private static OmniParser omniParser(Path root, Collection<Path> parsed) {
        return OmniParser.builder(
                        OmniParser.defaultResourceParsers(),
                        PlainTextParser.builder()
                                .plainTextMasks(root, PLAIN_TEXT_MASKS)
                                .build(),
                        QuarkParser.builder().build())
                .exclusions(parsed)
                .sizeThresholdMb(0)
                .build();
    }
}
