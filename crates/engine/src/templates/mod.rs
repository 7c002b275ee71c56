//! Learned templates (#39): where an option still writes Java lines as plain text, the PR's own
//! edits of those lines are the examples the runner learns Refaster templates from
//! (`learn_templates`, docs/embedded-runner.md). This module says which edits those are and
//! what step a learned recipe becomes; the runner anti-unifies, compiles and checks.

use crate::diff::{ChangeKind, Diff, LineKind};
use crate::model::{ChangeLine, PlannedStep};
use crate::openrewrite::RecipeStep;
use crate::validation::embedded::protocol::TemplateEdit;

/// The package and class of the generated template source.
pub(crate) const PACKAGE: &str = "rewriteassist.learned";
/// The class holding every learned template (each a nested class).
pub(crate) const CLASS: &str = "LearnedTemplates";
/// The recipe jar's coordinates: the plugins find it in the local repository under them.
pub(crate) const COORDINATES: &str = "rewriteassist.learned:learned-recipes:1.0.0";
/// How many times the PR must make one edit for it to become a template.
pub(crate) const MIN_OCCURRENCES: usize = 2;

/// The PR's edits in Java files, one per run of changed lines of a hunk that replaces base lines
/// and that `is_text` says at least one line of is plain-text work: the examples a template may be
/// learned from. New files and pure insertions have no base lines to learn from and are left out.
pub(crate) fn edits(pr: &Diff, is_text: impl Fn(&ChangeLine) -> bool) -> Vec<TemplateEdit> {
    let mut edits = Vec::new();
    for file in &pr.files {
        let (Some(old), Some(new)) = (&file.old_path, &file.new_path) else { continue };
        if !old.ends_with(".java") || old != new {
            continue;
        }
        for hunk in &file.hunks {
            let mut block: Vec<&crate::diff::HunkLine> = Vec::new();
            // The old line the next change would start at: after the last context line.
            let mut next_old = hunk.old_start as usize;
            let mut start = next_old;
            for line in hunk.lines.iter().chain(std::iter::once(&CONTEXT_END)) {
                if line.kind == LineKind::Context {
                    if !block.is_empty() {
                        edits.extend(edit(old, start, &block, &is_text));
                        block.clear();
                    }
                    next_old = line.old_line.map(|l| l as usize + 1).unwrap_or(next_old);
                    start = next_old;
                    continue;
                }
                if block.is_empty() {
                    start = next_old;
                }
                if let Some(l) = line.old_line {
                    next_old = l as usize + 1;
                }
                block.push(line);
            }
        }
    }
    edits
}

/// Ends a hunk's last block of changes.
const CONTEXT_END: crate::diff::HunkLine = crate::diff::HunkLine {
    kind: LineKind::Context,
    content: String::new(),
    old_line: None,
    new_line: None,
    no_newline: false,
};

/// One block of changed lines as an edit, when a line of it is text work.
fn edit(
    path: &str,
    start: usize,
    block: &[&crate::diff::HunkLine],
    is_text: impl Fn(&ChangeLine) -> bool,
) -> Option<TemplateEdit> {
    let as_change = |l: &crate::diff::HunkLine| ChangeLine {
        path: path.to_string(),
        kind: if l.kind == LineKind::Added { ChangeKind::Added } else { ChangeKind::Removed },
        line: l.old_line.or(l.new_line).unwrap_or_default(),
        content: l.content.clone(),
    };
    // Imports follow what a recipe rewrites; they are no example of a rewrite themselves.
    let import = |l: &&crate::diff::HunkLine| {
        let line = l.content.trim();
        line.is_empty() || line.starts_with("import ") || line.starts_with("package ")
    };
    if block.iter().all(import) || !block.iter().any(|l| is_text(&as_change(l))) {
        return None;
    }
    let removed = block.iter().filter(|l| l.kind == LineKind::Removed).count();
    if removed == 0 {
        // A pure insertion rewrote nothing of the base: no example of a rewrite.
        return None;
    }
    let after: String =
        block.iter().filter(|l| l.kind == LineKind::Added).map(|l| format!("{}\n", l.content)).collect();
    Some(TemplateEdit { path: path.to_string(), before_start: start, before_end: start + removed - 1, after })
}

/// The step that runs every template learned from the PR (`recipe`, the jar's aggregate recipe),
/// for `intents`: the intents of the text steps whose lines it writes.
pub(crate) fn learned_step(recipe: &str, templates: usize, intents: Vec<String>) -> PlannedStep {
    let mut step = PlannedStep::new(
        RecipeStep::new(recipe),
        true,
        intents,
        format!(
            "{templates} Refaster template{} learned from the PR's repeated edits (see learned/)",
            if templates == 1 { "" } else { "s" }
        ),
    );
    step.learned = true;
    step
}

/// `learned/README.md`: what was learned, how to review it, and how to run the jar with the
/// build plugins (`maven_plugin`: the rewrite-maven-plugin version to name).
pub(crate) fn readme(
    results: &crate::validation::embedded::protocol::LearnResults,
    maven_plugin: &str,
) -> String {
    use std::fmt::Write as _;
    let mut out = String::from("# Recipes learned from this pull request\n\n");
    let file_name = |p: &Option<std::path::PathBuf>| {
        p.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    };
    let (jar, pom) = (file_name(&results.jar), file_name(&results.pom));
    let recipe = results.recipe.as_deref().unwrap_or_default();
    let _ = writeln!(
        out,
        "The PR made the same edit several times where no catalog recipe makes it. Each such edit became a\n\
         Refaster-style template (`src/`), compiled by OpenRewrite's `rewrite-templating` into an ordinary,\n\
         type-aware recipe in `{jar}` (with its POM `{pom}`, coordinates `{COORDINATES}`). `{recipe}`\n\
         runs them all.\n"
    );
    out.push_str("## Templates\n\n");
    for t in &results.templates {
        let parameters: Vec<String> =
            t.parameters.iter().map(|p| format!("{} {}", p.java_type, p.name)).collect();
        let _ = writeln!(out, "- `{}` ({})", t.name, parameters.join(", "));
        for before in &t.before {
            let _ = writeln!(out, "  - before: `{}`", before.trim());
        }
        let _ = writeln!(out, "  - after: `{}`", t.after.trim());
        let places: Vec<String> = t.occurrences.iter().map(|p| format!("{}:{}", p.path, p.line)).collect();
        let _ = writeln!(out, "  - learned from: {}", places.join(", "));
        if !t.matches.is_empty() {
            let places: Vec<String> = t.matches.iter().map(|p| format!("{}:{}", p.path, p.line)).collect();
            let _ = writeln!(out, "  - also rewrites, in files the PR did not edit: {}", places.join(", "));
        }
    }
    if !results.refused.is_empty() {
        out.push_str("\n## Refused\n\n");
        for r in &results.refused {
            let places: Vec<String> =
                r.occurrences.iter().map(|p| format!("{}:{}", p.path, p.line)).collect();
            let _ = writeln!(
                out,
                "- `{}` → `{}` ({}): {}",
                r.before.trim(),
                r.after.trim(),
                places.join(", "),
                r.reason
            );
        }
    }
    let _ = write!(
        out,
        "\n## Review\n\n\
         Read each template as a rule: every call that matches a `@BeforeTemplate` (by the declaring types\n\
         written there, whatever the layout) becomes its `@AfterTemplate`; a parameter matches any\n\
         expression of its type. The runner kept only templates that change nothing the PR left alone in\n\
         the files it edited. The jar also holds the sources the processor generated.\n\n\
         ## Run it with rewrite-maven-plugin\n\n\
         ```sh\n\
         mvn install:install-file -Dfile={jar} -DpomFile={pom}\n\
         mvn org.openrewrite.maven:rewrite-maven-plugin:{maven_plugin}:run \\\n\
         \x20 -Drewrite.recipeArtifactCoordinates={COORDINATES} \\\n\
         \x20 -Drewrite.activeRecipes={recipe}\n\
         ```\n\n\
         A `rewrite.yml` may list `{recipe}` in its `recipeList` like any catalog recipe, with\n\
         `{COORDINATES}` among the plugin's `recipeArtifactCoordinates`.\n\n\
         ## Move it into your own recipe module\n\n\
         Copy `src/` into a module that depends on `org.openrewrite:rewrite-templating` and on the libraries\n\
         the templates name (with Error Prone's annotations at compile time, and `-Arewrite.generatedAnnotation=\n\
         javax.annotation.processing.Generated` on JDK 17), rename the package, and publish it as any recipe module.\n"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pr(text: &str) -> Diff {
        crate::diff::parse(text).unwrap()
    }

    #[test]
    fn each_block_of_changed_lines_is_an_edit_with_its_base_lines() {
        let diff = pr("diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n\
            @@ -10,7 +10,7 @@\n ctx\n-    assertThat(a, is(b));\n+    assertThat(a).isEqualTo(b);\n ctx\n ctx\n\
            -    assertThat(c, is(d));\n-    x();\n+    assertThat(c).isEqualTo(d);\n ctx\n\
            diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-a\n+b\n");
        let edits = edits(&diff, |_| true);
        assert_eq!(
            edits,
            vec![
                TemplateEdit {
                    path: "src/A.java".into(),
                    before_start: 11,
                    before_end: 11,
                    after: "    assertThat(a).isEqualTo(b);\n".into()
                },
                TemplateEdit {
                    path: "src/A.java".into(),
                    before_start: 14,
                    before_end: 15,
                    after: "    assertThat(c).isEqualTo(d);\n".into()
                },
            ]
        );
    }

    #[test]
    fn only_blocks_with_text_work_and_no_pure_insertion() {
        let diff = pr("diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n\
            @@ -1,3 +1,4 @@\n a\n+x();\n b\n-c();\n+d();\n");
        let all = edits(&diff, |_| true);
        assert_eq!(all.len(), 1);
        assert_eq!((all[0].before_start, all[0].before_end), (3, 3));
        // A file that was empty: its only hunk inserts.
        let empty = pr("diff --git a/src/B.java b/src/B.java\n--- a/src/B.java\n+++ b/src/B.java\n\
            @@ -0,0 +1 @@\n+class B {}\n");
        assert!(edits(&empty, |_| true).is_empty());
        let text_only = edits(&diff, |l| l.content.contains('d'));
        assert_eq!(text_only.len(), 1);
        assert_eq!(text_only[0].after, "d();\n");
    }

    #[test]
    fn blocks_of_imports_only_are_no_examples() {
        let diff = pr("diff --git a/src/A.java b/src/A.java\n--- a/src/A.java\n+++ b/src/A.java\n\
            @@ -1,4 +1,4 @@\n package a;\n-import static x.Y.is;\n+import x.Z;\n \n-a(b, is(c));\n+a(b).is(c);\n");
        let edits = edits(&diff, |_| true);
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].after, "a(b).is(c);\n");
    }
}
