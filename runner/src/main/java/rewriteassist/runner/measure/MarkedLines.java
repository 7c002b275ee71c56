package rewriteassist.runner.measure;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openrewrite.PrintOutputCapture;
import org.openrewrite.SourceFile;

/**
 * The lines of a tree's elements that a visitor marked ({@code SearchResult}s): the tree printed
 * with OpenRewrite's own fences around each mark ({@code {{id}}}, the printers of every language
 * emit them), so a mark's line is where its element is printed, whatever the language. Positions
 * are not kept in the trees; printing is how to find them.
 */
final class MarkedLines {
    private static final Pattern FENCE = Pattern.compile("\\{\\{([0-9a-fA-F-]{36})\\}\\}");

    /** A line of a file: its number (from 1) and its text, trimmed, without fences. */
    record Line(int number, String text) {
        String sample(String path) {
            return path + ":" + number + ": " + text;
        }
    }

    private MarkedLines() {}

    /** The line where each mark starts, by the mark's id (a mark's first fence). */
    static Map<UUID, Line> of(SourceFile marked) {
        String fenced = marked.printAll(new PrintOutputCapture<>(0, PrintOutputCapture.MarkerPrinter.FENCED));
        Map<UUID, Line> lines = new HashMap<>();
        Matcher fence = FENCE.matcher(fenced);
        int line = 1;
        int counted = 0;
        while (fence.find()) {
            for (int i = counted; i < fence.start(); i++) {
                if (fenced.charAt(i) == '\n') {
                    line++;
                }
            }
            counted = fence.start();
            UUID id = UUID.fromString(fence.group(1));
            if (!lines.containsKey(id)) {
                lines.put(id, new Line(line, lineText(fenced, fence.start())));
            }
        }
        return lines;
    }

    /** The line around {@code at}, fences removed, trimmed and at most 200 characters. */
    private static String lineText(String text, int at) {
        int start = text.lastIndexOf('\n', at - 1) + 1;
        int end = text.indexOf('\n', at);
        String line = FENCE.matcher(text.substring(start, end < 0 ? text.length() : end))
                .replaceAll("")
                .strip();
        return trimmed(line);
    }

    /** A source line for a sample: trimmed, at most 200 characters. */
    static String trimmed(String line) {
        String stripped = line.strip();
        return stripped.length() <= 200 ? stripped : stripped.substring(0, 197) + "...";
    }
}
