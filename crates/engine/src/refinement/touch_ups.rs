//! Touch-ups: a semantic recipe that makes the PR's change but writes it differently (a block
//! lambda where the PR wrote an expression, a line wrapped elsewhere) is worth keeping when a few
//! literal replacements turn what it wrote into what the PR wrote. The recipe stays the migration
//! (and the reusable recipe keeps it); the touch-ups are this PR's formatting, listed as text.
//!
//! Only what the recipe itself wrote is touched up: a replacement whose old text is not all the
//! recipe's added lines, or whose new text is not all the PR's added lines, is not made, and the
//! file keeps its false positives (refinement then leaves the recipe out of it).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crate::diff::{ChangeKind, Diff, FileDiff, LineKind};
use crate::mapping::BaseFile;
use crate::mapping::text::{blocks, find_and_replace};
use crate::model::ChangeLine;
use crate::openrewrite::RecipeStep;

/// The touch-ups for one recipe.
#[derive(Debug, Default)]
pub(crate) struct TouchUps {
    /// Literal replacements to run after the semantic recipes.
    pub steps: Vec<RecipeStep>,
    /// The PR lines they write (added lines of the PR).
    pub writes: Vec<ChangeLine>,
    /// Files where every false positive of the recipe is touched up.
    pub files: BTreeSet<String>,
}

/// Touch-ups for the recipe whose own diff is `own_diff`, in the files where it made false
/// positives.
pub(crate) fn plan(own_diff: &str, pr: &Diff, base_file: BaseFile<'_>) -> TouchUps {
    let mut out = TouchUps::default();
    if own_diff.trim().is_empty() {
        return out;
    }
    let Ok(own) = crate::diff::parse(own_diff) else { return out };
    let (_, fp_lines) = crate::metrics::score_lines(pr, own_diff);
    let mut fp_by_file: BTreeMap<&str, Vec<&ChangeLine>> = BTreeMap::new();
    for line in &fp_lines {
        fp_by_file.entry(line.path.as_str()).or_default().push(line);
    }
    for (path, fps) in fp_by_file {
        let (Some(mine), Some(theirs)) = (edited(&own, path), edited(pr, path)) else { continue };
        let Some(base) = base_file(path) else { continue };
        // CRLF files keep their `\r` in diff lines; not worth the care here.
        if base.contains('\r') {
            continue;
        }
        let (Some(after_recipe), Some(after_pr)) = (apply(&base, mine), apply(&base, theirs)) else {
            continue;
        };
        let recipe_wrote: HashSet<&str> = added(mine).collect();
        // What the recipe wrote that the PR does not have: only that may be replaced. A line the
        // PR wrote too (elsewhere in the file, say) is the recipe's right answer: a replacement
        // that drops it without writing it again would turn a true positive into a miss.
        let wrong_here: HashSet<&str> =
            fps.iter().filter(|l| l.kind == ChangeKind::Added).map(|l| l.content.as_str()).collect();
        let pr_wrote: HashSet<&str> = added(theirs).collect();
        let text = format!(
            "diff --git a/{path} b/{path}\n{}",
            similar::TextDiff::from_lines(&after_recipe, &after_pr)
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{path}"), &format!("b/{path}"))
        );
        let Ok(between) = crate::diff::parse(&text) else { continue };
        let Some(file) = between.files.first() else { continue };
        let mut fixed: HashSet<(ChangeKind, String)> = HashSet::new();
        let mut steps = Vec::new();
        let mut writes = Vec::new();
        for (block, _) in blocks(file) {
            let about_fps = fps.iter().any(|l| match l.kind {
                ChangeKind::Added => block.removed.contains(&l.content),
                ChangeKind::Removed => block.added.contains(&l.content),
            });
            let own_lines_only = !block.removed.is_empty()
                && block.removed.iter().all(|l| recipe_wrote.contains(l.as_str()))
                && block.removed.iter().all(|l| wrong_here.contains(l.as_str()) || block.added.contains(l))
                && block.added.iter().all(|l| pr_wrote.contains(l.as_str()));
            if !about_fps || !own_lines_only {
                continue;
            }
            let Some(step) = find_and_replace(&block, &after_recipe) else { continue };
            for l in &block.removed {
                fixed.insert((ChangeKind::Added, l.clone()));
            }
            writes.extend(block.added.iter().map(|content| ChangeLine {
                path: path.to_string(),
                kind: ChangeKind::Added,
                line: 0,
                content: content.clone(),
            }));
            steps.push(step);
        }
        // The file counts as touched up only when nothing wrong is left in it.
        if !steps.is_empty() && fps.iter().all(|l| fixed.contains(&(l.kind, l.content.clone()))) {
            out.files.insert(path.to_string());
            out.steps.extend(steps);
            out.writes.extend(writes);
        }
    }
    out
}

/// The section of `diff` that edits `path` in place (not created, deleted or renamed).
fn edited<'d>(diff: &'d Diff, path: &str) -> Option<&'d FileDiff> {
    diff.files
        .iter()
        .find(|f| f.old_path.as_deref() == Some(path) && f.new_path.as_deref() == Some(path) && !f.binary)
}

fn added(file: &FileDiff) -> impl Iterator<Item = &str> {
    file.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind == LineKind::Added).map(|l| l.content.as_str())
}

/// `base` with the file diff applied, or None when the diff does not fit it.
pub(crate) fn apply(base: &str, file: &FileDiff) -> Option<String> {
    let old: Vec<&str> = base.lines().collect();
    let mut new: Vec<&str> = Vec::with_capacity(old.len());
    let mut next = 0usize; // next old line (0-based) not yet copied
    let mut ends_without_eol = !base.ends_with('\n');
    for hunk in &file.hunks {
        // A pure addition's old_start is the line after which it goes.
        let start = if hunk.old_len == 0 {
            hunk.old_start as usize
        } else {
            (hunk.old_start as usize).saturating_sub(1)
        };
        if start < next || start > old.len() {
            return None;
        }
        new.extend_from_slice(&old[next..start]);
        next = start;
        for line in &hunk.lines {
            match line.kind {
                LineKind::Context | LineKind::Removed => {
                    if old.get(next) != Some(&line.content.as_str()) {
                        return None;
                    }
                    if line.kind == LineKind::Context {
                        new.push(old[next]);
                    }
                    next += 1;
                }
                LineKind::Added => {
                    new.push(&line.content);
                    ends_without_eol = line.no_newline;
                }
            }
        }
    }
    new.extend_from_slice(&old[next..]);
    let mut text = new.join("\n");
    if !ends_without_eol && !new.is_empty() {
        text.push('\n');
    }
    Some(text)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::refinement) fn unified(path: &str, old: &str, new: &str) -> String {
        format!(
            "diff --git a/{path} b/{path}\n{}",
            similar::TextDiff::from_lines(old, new)
                .unified_diff()
                .context_radius(3)
                .header(&format!("a/{path}"), &format!("b/{path}"))
        )
    }

    pub(in crate::refinement) const BASE: &str = "class T {\n    @Test(expected = E.class)\n    void a() {\n        build(null);\n    }\n\n    @Test(expected = E.class)\n    void b() {\n        make(null);\n    }\n}\n";
    pub(in crate::refinement) const PR: &str = "class T {\n    @Test\n    void a() {\n        assertThrows(E.class, () -> build(null));\n    }\n\n    @Test\n    void b() {\n        assertThrows(E.class, () -> make(null));\n    }\n}\n";
    pub(in crate::refinement) const RECIPE: &str = "class T {\n    @Test\n    void a() {\n        assertThrows(E.class, () -> {\n            build(null);\n        });\n    }\n\n    @Test\n    void b() {\n        assertThrows(E.class, () -> make(null));\n    }\n}\n";

    #[test]
    fn applying_a_diff_gives_the_new_text() {
        let diff = crate::diff::parse(&unified("T.java", BASE, RECIPE)).unwrap();
        assert_eq!(apply(BASE, &diff.files[0]).as_deref(), Some(RECIPE));
        assert_eq!(apply("something else\n", &diff.files[0]), None, "a diff of another text does not fit");
    }

    #[test]
    fn what_the_recipe_wrote_differently_is_touched_up_to_the_prs_text() {
        let pr = crate::diff::parse(&unified("T.java", BASE, PR)).unwrap();
        let base = |path: &str| (path == "T.java").then(|| BASE.to_string());
        let touch = plan(&unified("T.java", BASE, RECIPE), &pr, &base);
        assert_eq!(touch.files, BTreeSet::from(["T.java".to_string()]));
        assert_eq!(touch.steps.len(), 1, "{:#?}", touch.steps);
        let find = touch.steps[0].options["find"].as_text();
        assert!(
            find.contains("assertThrows(E.class, () -> {\n            build(null);\n        });"),
            "{find}"
        );
        assert_eq!(
            touch.steps[0].options["replace"].as_text(),
            "        assertThrows(E.class, () -> build(null));\n"
        );
        assert_eq!(touch.writes.len(), 1);

        // A recipe that wrote the PR's lines in another place, one of them another way: no
        // replacement may drop the lines it got right (the PR's are not written again), so the
        // file is not touched up and keeps its false positive.
        const POM: &str = "<dependencies>\n  <dependency>\n    <artifactId>a</artifactId>\n  </dependency>\n  <dependency>\n    <groupId>org.b</groupId>\n    <artifactId>b</artifactId>\n    <version>1</version>\n    <scope>test</scope>\n  </dependency>\n</dependencies>\n";
        let pr_pom = POM.replace(
            "</dependencies>",
            "  <dependency>\n    <artifactId>migrator</artifactId>\n  </dependency>\n</dependencies>",
        );
        let recipe_pom = POM.replacen(
            "  <dependency>\n    <groupId>org.b</groupId>",
            "  <dependency>\n    <artifactId>migrator</artifactId>\n    <version>4.1.2</version>\n  </dependency>\n  <dependency>\n    <groupId>org.b</groupId>",
            1,
        );
        let pr = crate::diff::parse(&unified("pom.xml", POM, &pr_pom)).unwrap();
        let base = |path: &str| (path == "pom.xml").then(|| POM.to_string());
        let touch = plan(&unified("pom.xml", POM, &recipe_pom), &pr, &base);
        for step in &touch.steps {
            let (find, replace) = (step.options["find"].as_text(), step.options["replace"].as_text());
            assert!(
                !find.contains("<artifactId>migrator</artifactId>")
                    || replace.contains("<artifactId>migrator</artifactId>"),
                "a touch-up drops a line the recipe got right: {find:?} -> {replace:?}"
            );
        }
        assert!(touch.files.is_empty(), "{touch:?}");

        // A recipe that also changed a line the PR kept is not touched up there.
        let wrong = RECIPE.replace("void b()", "void bb()");
        let touch = plan(&unified("T.java", BASE, &wrong), &pr, &base);
        assert!(touch.files.is_empty(), "{touch:?}");
        assert!(touch.steps.is_empty());
    }
}
