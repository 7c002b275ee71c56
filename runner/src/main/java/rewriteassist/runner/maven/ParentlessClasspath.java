package rewriteassist.runner.maven;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openrewrite.xml.tree.Xml;

/**
 * The classpath of a module whose POM does not resolve because its parent (or an imported BOM)
 * exists only where we cannot reach it: a Jenkins plugin's parent on repo.jenkins-ci.org, a
 * company parent. Maven recipes still skip such a POM (a resolution without its parent would tell
 * them wrong versions), but its Java sources need types: a recipe such as {@code ChangeType}
 * matches nothing in code whose imports do not resolve. So the dependencies the POM itself
 * declares with a version of its own (a literal, or one of its own properties) are resolved on
 * their own, from the repositories it names and Maven Central, as a POM of their own.
 */
final class ParentlessClasspath {
    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]+)}");

    private ParentlessClasspath() {}

    /** A POM of its dependencies with versions of their own; empty when it declares none. */
    static Optional<String> pomOf(Xml.Document pom) {
        Xml.Tag project = pom.getRoot();
        Map<String, String> properties = new HashMap<>();
        project.getChild("properties").ifPresent(p -> p.getChildren()
                .forEach(tag -> tag.getValue().ifPresent(value -> properties.put(tag.getName(), value.strip()))));
        project.getChildValue("version").ifPresent(v -> properties.put("project.version", v.strip()));
        List<String> dependencies = new ArrayList<>();
        for (Xml.Tag dependency : project.getChild("dependencies")
                .map(d -> d.getChildren("dependency"))
                .orElse(List.of())) {
            Optional<String> group = literal(dependency.getChildValue("groupId"), properties);
            Optional<String> artifact = literal(dependency.getChildValue("artifactId"), properties);
            Optional<String> version = literal(dependency.getChildValue("version"), properties);
            if (group.isEmpty() || artifact.isEmpty() || version.isEmpty()) {
                continue;
            }
            StringBuilder entry = new StringBuilder("    <dependency><groupId>")
                    .append(escape(group.get()))
                    .append("</groupId><artifactId>")
                    .append(escape(artifact.get()))
                    .append("</artifactId><version>")
                    .append(escape(version.get()))
                    .append("</version>");
            for (String child : List.of("scope", "type", "classifier")) {
                literal(dependency.getChildValue(child), properties).ifPresent(v -> entry.append('<')
                        .append(child)
                        .append('>')
                        .append(escape(v))
                        .append("</")
                        .append(child)
                        .append('>'));
            }
            dependencies.add(entry.append("</dependency>").toString());
        }
        if (dependencies.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder repositories = new StringBuilder();
        for (Xml.Tag repository : project.getChild("repositories")
                .map(r -> r.getChildren("repository"))
                .orElse(List.of())) {
            Optional<String> id = literal(repository.getChildValue("id"), properties);
            Optional<String> url = literal(repository.getChildValue("url"), properties);
            if (id.isPresent() && url.isPresent()) {
                repositories
                        .append("<repository><id>")
                        .append(escape(id.get()))
                        .append("</id><url>")
                        .append(escape(url.get()))
                        .append("</url></repository>");
            }
        }
        return Optional.of("<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n"
                + "  <modelVersion>4.0.0</modelVersion>\n"
                + "  <groupId>rewriteassist.parentless</groupId>\n"
                + "  <artifactId>" + escape(project.getChildValue("artifactId").orElse("module")) + "</artifactId>\n"
                + "  <version>1</version>\n"
                + "  <repositories>" + repositories + "</repositories>\n"
                + "  <dependencies>\n" + String.join("\n", dependencies) + "\n  </dependencies>\n"
                + "</project>\n");
    }

    /** The value with this POM's own properties filled in; empty when one is not its own. */
    private static Optional<String> literal(Optional<String> value, Map<String, String> properties) {
        if (value.isEmpty() || value.get().isBlank()) {
            return Optional.empty();
        }
        String text = value.get().strip();
        for (int depth = 0; depth < 5 && text.contains("${"); depth++) {
            Matcher matcher = PROPERTY.matcher(text);
            StringBuilder out = new StringBuilder();
            while (matcher.find()) {
                String replacement = properties.get(matcher.group(1));
                if (replacement == null) {
                    return Optional.empty();
                }
                matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
            }
            matcher.appendTail(out);
            text = out.toString();
        }
        return text.contains("${") ? Optional.empty() : Optional.of(text);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
