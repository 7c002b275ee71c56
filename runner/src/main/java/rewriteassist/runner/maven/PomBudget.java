package rewriteassist.runner.maven;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.openrewrite.maven.tree.Parent;
import org.openrewrite.maven.tree.Pom;
import org.openrewrite.maven.tree.Profile;
import rewriteassist.runner.net.Network;
import rewriteassist.runner.openrewrite.RawPoms;

/**
 * What a POM may ask of rewrite-maven's resolution, checked before it gets there. Three inputs
 * that cost one file there cost the whole run:
 *
 * <ul>
 *   <li>a parent cycle through {@code relativePath} ({@code a} names {@code ../b}, {@code b} names
 *       {@code ../a}): rewrite-maven follows a reactor's parents by path without noticing a cycle
 *       ({@code MavenPomDownloader.getAncestryWithinProject}) and overflows its stack;
 *   <li>properties that grow when expanded ({@code <p2>${p1}${p1}</p2>}, forty times: a trillion
 *       characters from 2 KB): rewrite-maven expands placeholders without a bound, and the heap
 *       runs out;
 *   <li>properties that refer to each other in a cycle ({@code <a>${a}${a}</a>}): its expansion
 *       never ends.
 * </ul>
 *
 * <p>So the POMs of the reactor are measured with the same reading rewrite-maven makes of them
 * ({@link RawPoms}), their parents followed by the same rule, and a POM in a parent cycle, or whose
 * text with every placeholder expanded (its own properties, its profiles' and its local parents')
 * would exceed {@link #MAX_EXPANDED} characters, is kept out of the resolution: the caller keeps
 * it as plain text and names it in the warnings. {@link Network} measures every POM a repository
 * serves the same way (on its own, without parents).
 */
public final class PomBudget {
    /** Characters of a POM with every placeholder expanded: real POMs grow by a few percent. */
    static final long MAX_EXPANDED = 2_000_000;

    /** A placeholder without another inside it: {@code ${name}}. */
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^${}]*)}");

    private PomBudget() {}

    /**
     * For the reactor's POMs (absolute paths under {@code root}): why each POM that exceeds the
     * budget does, in the order of {@code poms}.
     */
    public static Map<Path, String> exceeded(Path root, List<Path> poms) {
        Map<Path, Pom> byPath = new LinkedHashMap<>();
        Map<Path, String> texts = new HashMap<>();
        for (Path file : poms) {
            try {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                Path relative = root.relativize(file);
                byPath.put(relative, read(text, relative));
                texts.put(relative, text);
            } catch (Exception | StackOverflowError e) {
                // Not a POM rewrite-maven can read: its parser makes it a parse error of its own.
            }
        }
        Map<Path, String> out = new LinkedHashMap<>();
        cycles(byPath).forEach((path, why) -> out.put(root.resolve(path), why));
        // Parents first, so that a child's chain stops at a parent that is kept out (rewrite-maven
        // will not find it in the reactor either).
        List<Path> order = new ArrayList<>(byPath.keySet());
        order.removeIf(path -> out.containsKey(root.resolve(path)));
        order.sort(java.util.Comparator.comparingInt(
                path -> ancestry(path, byPath, Set.of()).size()));
        Set<Path> refused = new HashSet<>();
        out.keySet().forEach(file -> refused.add(root.relativize(file)));
        for (Path path : order) {
            List<Pom> chain = new ArrayList<>();
            for (Path ancestor : ancestry(path, byPath, refused)) {
                chain.add(byPath.get(ancestor));
            }
            String why = expansion(texts.get(path), chain);
            if (why != null) {
                out.put(root.resolve(path), why);
                refused.add(path);
            }
        }
        return out;
    }

    /** For a POM a repository serves: why it exceeds the budget on its own, or null. */
    public static @Nullable String exceeded(byte[] pom) {
        String text = new String(pom, StandardCharsets.UTF_8);
        Pom read;
        try {
            read = read(text, Paths.get("pom.xml"));
        } catch (Exception | StackOverflowError e) {
            return null; // rewrite-maven fails on it in its own way
        }
        return expansion(text, List.of(read));
    }

    private static Pom read(String text, Path path) {
        return RawPoms.read(text, path);
    }

    /**
     * The reactor parent of {@code pom} as rewrite-maven finds it: by {@code relativePath}
     * (default {@code ../pom.xml}; a directory means its {@code pom.xml}; empty means none), and
     * only when the POM there has the parent's group and artifact.
     */
    private static @Nullable Path parentOf(Path path, Map<Path, Pom> byPath) {
        Parent parent = byPath.get(path).getParent();
        if (parent == null) {
            return null;
        }
        String relativePath = parent.getRelativePath();
        if (relativePath != null && relativePath.isEmpty()) {
            return null;
        }
        if (relativePath == null) {
            relativePath = "../pom.xml";
        }
        Path resolved;
        try {
            resolved = Paths.get(relativePath);
        } catch (RuntimeException e) {
            return null;
        }
        if (!relativePath.endsWith(".xml")) {
            resolved = resolved.resolve("pom.xml");
        }
        Path candidate = path.resolve("..").resolve(resolved).normalize();
        Pom found = byPath.get(candidate);
        boolean same = found != null
                && found.getGav().getGroupId().equals(parent.getGav().getGroupId())
                && found.getGav().getArtifactId().equals(parent.getGav().getArtifactId());
        return same ? candidate : null;
    }

    /** The POMs in parent cycles, each with the cycle it is in. */
    private static Map<Path, String> cycles(Map<Path, Pom> byPath) {
        Map<Path, String> out = new LinkedHashMap<>();
        for (Path start : byPath.keySet()) {
            List<Path> chain = new ArrayList<>();
            Path at = start;
            while (at != null && !chain.contains(at)) {
                chain.add(at);
                at = parentOf(at, byPath);
            }
            if (at != null && at.equals(start)) {
                List<String> names = new ArrayList<>();
                chain.forEach(p -> names.add(p.toString()));
                names.add(start.toString());
                out.put(start, "its parents form a cycle (" + String.join(" -> ", names) + ")");
            }
        }
        return out;
    }

    /** {@code path} and its reactor parents, up to one in {@code refused} (left out) or a repeat. */
    private static List<Path> ancestry(Path path, Map<Path, Pom> byPath, Set<Path> refused) {
        List<Path> chain = new ArrayList<>();
        Path at = path;
        while (at != null && !refused.contains(at) && !chain.contains(at)) {
            chain.add(at);
            at = parentOf(at, byPath);
        }
        return chain;
    }

    /**
     * Why {@code text}, with its placeholders expanded from the properties of {@code chain} (the
     * POM first, then its parents; profiles included, since any may be active), is over budget.
     */
    static @Nullable String expansion(String text, List<Pom> chain) {
        Map<String, List<String>> definitions = new HashMap<>();
        for (Pom pom : chain) {
            define(definitions, pom.getProperties());
            for (Profile profile : pom.getProfiles()) {
                define(definitions, profile.getProperties());
            }
        }
        if (!chain.isEmpty()) {
            // The names ResolvedPom answers itself, from fields that may hold placeholders too.
            Pom pom = chain.get(0);
            builtIn(definitions, pom.getVersion(), "version", "project.version", "pom.version");
            builtIn(definitions, pom.getGroupId(), "groupId", "project.groupId", "pom.groupId");
            if (pom.getParent() != null) {
                builtIn(definitions, pom.getParent().getVersion(), "parent.version", "project.parent.version");
                builtIn(definitions, pom.getParent().getGroupId(), "parent.groupId", "project.parent.groupId");
            }
        }
        for (Map.Entry<String, List<String>> definition : definitions.entrySet()) {
            for (String value : definition.getValue()) {
                // Maven itself does not expand these; rewrite-maven does, and the name it reaches
                // cannot be measured before, so a chain of them could grow unseen. Only an inner
                // name that has a value computes another name: bnd's `${range;[===,=+);${@}}`
                // (com.fasterxml:oss-parent, under every Jackson BOM) stays the text it is.
                boolean computed = innerNames(value).stream()
                        .anyMatch(inner -> definitions.containsKey(inner)
                                || inner.startsWith("env.")
                                || System.getProperty(inner) != null);
                if (computed) {
                    return "its property " + definition.getKey() + " names another through a placeholder inside a "
                            + "placeholder";
                }
            }
        }
        Expansion expansion = new Expansion(definitions);
        long length;
        try {
            length = expansion.of(text);
        } catch (Cycle cycle) {
            return "its properties refer to each other in a cycle (${" + cycle.name + "})";
        }
        return length > MAX_EXPANDED ? "its properties expand it to more than " + MAX_EXPANDED + " characters" : null;
    }

    /**
     * The names of the placeholders that open inside another's name ({@code b} in {@code ${a${b}}}):
     * one pass, no regex.
     */
    static List<String> innerNames(String text) {
        List<String> names = new ArrayList<>();
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '{') {
                if (depth > 0) {
                    int end = text.indexOf('}', i + 2);
                    names.add(text.substring(i + 2, end < 0 ? text.length() : end));
                }
                depth++;
                i++;
            } else if (c == '}' && depth > 0) {
                depth--;
            }
        }
        return names;
    }

    private static void builtIn(Map<String, List<String>> definitions, String value, String... names) {
        if (value != null) {
            for (String name : names) {
                define(definitions, Map.of(name, value));
            }
        }
    }

    private static void define(Map<String, List<String>> definitions, Map<String, String> properties) {
        if (properties == null) {
            return;
        }
        properties.forEach((name, value) -> {
            // `<x>${x}</x>` is no cycle: ResolvedPom answers it from its own fields instead.
            if (value != null && !value.equals("${" + name + "}")) {
                definitions.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            }
        });
    }

    /** A property that refers to itself through others. */
    private static final class Cycle extends Exception {
        private static final long serialVersionUID = 1L;
        final String name;

        Cycle(String name) {
            super(name, null, false, false);
            this.name = name;
        }
    }

    /**
     * The longest a text can become when its placeholders are expanded: each placeholder of a
     * defined name becomes its longest definition, expanded in turn; an undefined one stays as
     * written. Computed without
     * recursion (a chain of thousands of properties is no problem) and saturating at
     * {@link #MAX_EXPANDED}, so a bomb is measured in a few steps.
     */
    private static final class Expansion {
        private final Map<String, List<String>> definitions;
        private final Map<String, Long> lengths = new HashMap<>();

        Expansion(Map<String, List<String>> definitions) {
            this.definitions = definitions;
        }

        /** The text expanded; a placeholder inside another's name counts as the longest property. */
        long of(String text) throws Cycle {
            long length = text.length();
            for (String name : references(text)) {
                if (definitions.containsKey(name)) {
                    length = add(length - placeholderLength(name), lengthOf(name));
                }
            }
            int nested = innerNames(text).size();
            if (nested > 0) {
                long longest = 0;
                for (String name : definitions.keySet()) {
                    longest = Math.max(longest, lengthOf(name));
                }
                for (int i = 0; i < nested; i++) {
                    length = add(length, longest);
                }
            }
            return length;
        }

        /** The names {@code value} refers to; a placeholder inside a name counts as a reference. */
        private static List<String> references(String value) {
            List<String> names = new ArrayList<>();
            Matcher placeholder = PLACEHOLDER.matcher(value);
            while (placeholder.find()) {
                names.add(placeholder.group(1));
            }
            return names;
        }

        /** The expanded length of a defined name: a depth-first walk with its own stack. */
        private long lengthOf(String start) throws Cycle {
            Long known = lengths.get(start);
            if (known != null) {
                return known;
            }
            Set<String> open = new HashSet<>();
            Deque<String> stack = new ArrayDeque<>();
            stack.push(start);
            while (!stack.isEmpty()) {
                String name = stack.peek();
                if (lengths.containsKey(name)) {
                    stack.pop();
                    continue;
                }
                open.add(name);
                boolean ready = true;
                for (String value : definitions.get(name)) {
                    for (String reference : references(value)) {
                        if (!definitions.containsKey(reference) || lengths.containsKey(reference)) {
                            continue;
                        }
                        if (open.contains(reference)) {
                            throw new Cycle(reference);
                        }
                        stack.push(reference);
                        ready = false;
                    }
                }
                if (ready) {
                    long longest = 0;
                    for (String value : definitions.get(name)) {
                        long length = value.length();
                        for (String reference : references(value)) {
                            Long referenced = lengths.get(reference);
                            if (referenced != null) {
                                length = add(length - placeholderLength(reference), referenced);
                            }
                        }
                        longest = Math.max(longest, length);
                    }
                    lengths.put(name, longest);
                    open.remove(name);
                    stack.pop();
                }
            }
            return lengths.get(start);
        }

        /** {@code ${name}}, which its value replaces. */
        private static int placeholderLength(String name) {
            return name.length() + 3;
        }

        private static long add(long a, long b) {
            return Math.min(MAX_EXPANDED + 1, a + b);
        }
    }
}
