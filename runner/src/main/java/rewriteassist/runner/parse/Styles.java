package rewriteassist.runner.parse;

import java.util.ArrayList;
import java.util.List;
import org.openrewrite.SourceFile;
import org.openrewrite.java.tree.J;
import org.openrewrite.kotlin.tree.K;
import org.openrewrite.style.NamedStyles;
import org.openrewrite.xml.tree.Xml;

/**
 * The repository's own formatting, as rewrite-maven-plugin gives it to recipes: Java, Kotlin and
 * XML styles detected from the parsed files, a marker on every file of that language. Without
 * it a recipe that formats what it writes (an added field, a moved import, a reformatted
 * method) uses OpenRewrite's defaults, so a project indented with two spaces gets four and its
 * import layout is rearranged: lines the PR never touched show up as changed.
 */
final class Styles {
    private Styles() {}

    static List<SourceFile> autodetected(List<SourceFile> trees) {
        org.openrewrite.java.style.Autodetect.Detector java = org.openrewrite.java.style.Autodetect.detector();
        org.openrewrite.kotlin.style.Autodetect.Detector kotlin = org.openrewrite.kotlin.style.Autodetect.detector();
        org.openrewrite.xml.style.Autodetect.Detector xml = org.openrewrite.xml.style.Autodetect.detector();
        for (SourceFile tree : trees) {
            // A Kotlin tree is also a J.CompilationUnit's cousin: test it first, as the plugin does.
            if (tree instanceof K.CompilationUnit) {
                kotlin.sample(tree);
            } else if (tree instanceof J.CompilationUnit) {
                java.sample(tree);
            }
            xml.sample(tree);
        }
        NamedStyles javaStyle = java.build();
        NamedStyles kotlinStyle = kotlin.build();
        NamedStyles xmlStyle = xml.build();
        List<SourceFile> styled = new ArrayList<>(trees.size());
        for (SourceFile tree : trees) {
            NamedStyles style = tree instanceof K.CompilationUnit
                    ? kotlinStyle
                    : tree instanceof J.CompilationUnit ? javaStyle : tree instanceof Xml.Document ? xmlStyle : null;
            styled.add(style == null ? tree : tree.withMarkers(tree.getMarkers().add(style)));
        }
        return styled;
    }
}
