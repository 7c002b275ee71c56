package rewriteassist.runner.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Java source text as tokens, for comparing and rewriting the after side token by token: a
 * parameter's text is replaced where its tokens occur, never inside a longer identifier or a
 * string, and two texts that differ only in whitespace (or comments) are the same text.
 */
record JavaTokens(List<Token> tokens) {
    /** A token and whether whitespace (or a comment) came before it. */
    record Token(String text, boolean spaceBefore) {
        boolean isIdentifier() {
            return Character.isJavaIdentifierStart(text.charAt(0));
        }
    }

    /** Longest first, so {@code >>=} is one token, not {@code >} and {@code >=}. */
    private static final List<String> OPERATORS = List.of(
            ">>>=", "<<=", ">>=", ">>>", "...", "->", "::", "++", "--", "&&", "||", "==", "!=", "<=", ">=", "+=", "-=",
            "*=", "/=", "&=", "|=", "^=", "%=", "<<", ">>");

    private static final Set<String> KEYWORDS_BEFORE_PARENTHESIS =
            Set.of("if", "while", "for", "switch", "catch", "synchronized", "return", "new", "super", "this");

    static JavaTokens of(String text) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        boolean space = false;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                space = true;
                i++;
            } else if (text.startsWith("//", i)) {
                int end = text.indexOf('\n', i);
                i = end < 0 ? text.length() : end;
                space = true;
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? text.length() : end + 2;
                space = true;
            } else {
                int end = end(text, i);
                tokens.add(new Token(text.substring(i, end), space && !tokens.isEmpty()));
                space = false;
                i = end;
            }
        }
        return new JavaTokens(List.copyOf(tokens));
    }

    /** Where the token starting at {@code i} ends. */
    private static int end(String text, int i) {
        char c = text.charAt(i);
        if (Character.isJavaIdentifierStart(c)) {
            int j = i + 1;
            while (j < text.length() && Character.isJavaIdentifierPart(text.charAt(j))) {
                j++;
            }
            return j;
        }
        if (Character.isDigit(c) || (c == '.' && i + 1 < text.length() && Character.isDigit(text.charAt(i + 1)))) {
            int j = i + 1;
            while (j < text.length()) {
                char d = text.charAt(j);
                boolean exponentSign = (d == '+' || d == '-') && "eEpP".indexOf(text.charAt(j - 1)) >= 0;
                if (!Character.isLetterOrDigit(d) && d != '.' && d != '_' && !exponentSign) {
                    break;
                }
                j++;
            }
            return j;
        }
        if (text.startsWith("\"\"\"", i)) {
            int close = text.indexOf("\"\"\"", i + 3);
            return close < 0 ? text.length() : close + 3;
        }
        if (c == '"' || c == '\'') {
            int j = i + 1;
            while (j < text.length() && text.charAt(j) != c) {
                j += text.charAt(j) == '\\' ? 2 : 1;
            }
            return Math.min(j + 1, text.length());
        }
        for (String operator : OPERATORS) {
            if (text.startsWith(operator, i)) {
                return i + operator.length();
            }
        }
        return i + 1;
    }

    /**
     * The methods the text calls by their simple names ({@code assertThat(x)}, not {@code
     * Assertions.assertThat(x)} or {@code new X(…)}), in order, each once: in a template, such a
     * call is a static import.
     */
    List<String> unqualifiedCalls() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i + 1 < tokens.size(); i++) {
            Token token = tokens.get(i);
            boolean qualified =
                    i > 0 && Set.of(".", "new", "::").contains(tokens.get(i - 1).text());
            if (token.isIdentifier()
                    && !qualified
                    && !KEYWORDS_BEFORE_PARENTHESIS.contains(token.text())
                    && tokens.get(i + 1).text().equals("(")
                    && !names.contains(token.text())) {
                names.add(token.text());
            }
        }
        return names;
    }

    /**
     * What two texts share when they differ in whitespace and comments only (the tokens, one space
     * between each): the key to compare them by. {@link #normalized()} is the text to show.
     */
    String key() {
        return String.join(" ", tokens.stream().map(Token::text).toList());
    }

    /** The text with each run of whitespace and comments written as one space. */
    String normalized() {
        StringBuilder out = new StringBuilder();
        for (Token token : tokens) {
            if (token.spaceBefore()) {
                out.append(' ');
            }
            out.append(token.text());
        }
        return out.toString();
    }

    /**
     * These tokens with every occurrence of {@code part}'s tokens replaced by one identifier token
     * {@code name}. A part that is one identifier is not replaced where it is a member's name
     * ({@code x.part}) or a method's ({@code part(…)}): those are other symbols of the same name.
     */
    JavaTokens replace(JavaTokens part, String name) {
        List<Token> find = part.tokens;
        if (find.isEmpty()) {
            return this;
        }
        boolean identifier = find.size() == 1 && find.get(0).isIdentifier();
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < tokens.size()) {
            if (matchesAt(i, find)
                    && !(identifier
                            && ((i > 0 && tokens.get(i - 1).text().equals("."))
                                    || (i + 1 < tokens.size()
                                            && tokens.get(i + 1).text().equals("("))))) {
                out.add(new Token(name, tokens.get(i).spaceBefore()));
                i += find.size();
            } else {
                out.add(tokens.get(i));
                i++;
            }
        }
        return new JavaTokens(List.copyOf(out));
    }

    private boolean matchesAt(int at, List<Token> find) {
        if (at + find.size() > tokens.size()) {
            return false;
        }
        for (int k = 0; k < find.size(); k++) {
            if (!tokens.get(at + k).text().equals(find.get(k).text())) {
                return false;
            }
        }
        return true;
    }

    /** The identifiers used as a name: every identifier token not after a {@code .}. */
    List<String> simpleNames() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i).isIdentifier()
                    && (i == 0 || !tokens.get(i - 1).text().equals("."))) {
                names.add(tokens.get(i).text());
            }
        }
        return names;
    }

    /** The names of the methods called, in order: each identifier right before a {@code (}. */
    List<String> calledMethods() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i + 1 < tokens.size(); i++) {
            Token token = tokens.get(i);
            if (token.isIdentifier()
                    && tokens.get(i + 1).text().equals("(")
                    && !KEYWORDS_BEFORE_PARENTHESIS.contains(token.text())
                    && (i == 0 || !tokens.get(i - 1).text().equals("new"))) {
                names.add(token.text());
            }
        }
        return names;
    }
}
