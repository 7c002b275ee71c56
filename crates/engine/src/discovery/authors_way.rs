//! Which catalog recipe writes the PR's lines the author's way, where the recommended recipe wrote
//! them another way (issue #27). A catalog migration often makes the right change in a form the
//! author did not pick (`getClass()` for `lookup().lookupClass()`, a chained assertion for a
//! `satisfies`); the recommended recipe keeps its good parts, and the user learns which recipe,
//! among those discovery ran on its own, makes the author's lines in that file.

use std::collections::{BTreeMap, BTreeSet};

use super::Tried;
use crate::diff::ChangeKind;
use crate::model::{AuthorsWay, ChangeLine, classes::Classes};

/// At most this many files are named: the rest are in the validation analyses.
const MAX_FILES: usize = 10;

/// For each file where the recommended recipe wrote lines the PR does not have (variants and
/// wrong lines of `classes`) and missed lines the PR has (`missed`), the recipe of `tried` that
/// writes the most of those missed lines exactly — fewest other lines in that file on a tie, then
/// by name. Files no recipe helps with are left out.
pub(crate) fn authors_way(classes: &Classes, missed: &[ChangeLine], tried: &[Tried]) -> Vec<AuthorsWay> {
    let mut differing: BTreeMap<&str, usize> = BTreeMap::new();
    for line in classes.variant.iter().map(|c| &c.line).chain(&classes.wrong) {
        *differing.entry(line.path.as_str()).or_default() += 1;
    }
    let key = |l: &ChangeLine| (l.kind, l.content.trim().to_string());
    let mut found = Vec::new();
    for (path, lines_differing) in differing {
        let missed_here: BTreeSet<(ChangeKind, String)> =
            missed.iter().filter(|l| l.path == path).map(key).collect();
        if missed_here.is_empty() {
            continue;
        }
        let best = tried
            .iter()
            .filter(|t| t.error.is_none())
            .map(|t| {
                let writes: BTreeSet<(ChangeKind, String)> = t
                    .tp_lines
                    .iter()
                    .filter(|l| l.path == path)
                    .map(key)
                    .filter(|k| missed_here.contains(k))
                    .collect();
                let other = t.fp_lines.iter().filter(|l| l.path == path).count();
                (t, writes.len(), other)
            })
            .filter(|(_, writes, _)| *writes > 0)
            .max_by(|a, b| {
                a.1.cmp(&b.1).then(b.2.cmp(&a.2)).then(b.0.step.signature().cmp(&a.0.step.signature()))
            });
        if let Some((t, writes, _)) = best {
            found.push(AuthorsWay {
                path: path.to_string(),
                lines_differing,
                recipe: t.step.signature(),
                on_migration: t.on_migration,
                lines_written: writes,
                lines_missed: missed_here.len(),
            });
        }
    }
    found.sort_by(|a, b| b.lines_written.cmp(&a.lines_written).then(a.path.cmp(&b.path)));
    found.truncate(MAX_FILES);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(path: &str, kind: ChangeKind, content: &str) -> ChangeLine {
        ChangeLine { path: path.into(), kind, line: 1, content: content.into() }
    }

    fn tried(name: &str, tp: Vec<ChangeLine>, fp: Vec<ChangeLine>) -> Tried {
        Tried::for_test(name, 0, tp, fp)
    }

    #[test]
    fn names_the_recipe_that_writes_the_missed_lines_of_a_file_where_the_recipe_wrote_a_variant() {
        const AUTHOR: &str =
            "private static final Logger LOG = LoggerFactory.getLogger(lookup().lookupClass());";
        let classes = Classes {
            variant: vec![crate::model::classes::Classified {
                line: line(
                    "src/A.java",
                    ChangeKind::Added,
                    "Logger log = LoggerFactory.getLogger(getClass());",
                ),
                rule: "same_lines_replaced".into(),
            }],
            wrong: vec![line("src/B.java", ChangeKind::Added, "unrelated();")],
            ..Classes::default()
        };
        let missed = vec![
            line("src/A.java", ChangeKind::Added, AUTHOR),
            line("src/A.java", ChangeKind::Added, "import static java.lang.invoke.MethodHandles.lookup;"),
            // Missed in a file where the recipe wrote nothing differently: not its business.
            line("src/C.java", ChangeKind::Added, AUTHOR),
        ];
        let tried = vec![
            // Writes one of the author's lines, and a stray line in A.
            tried(
                "org.example.Broad",
                vec![line("src/A.java", ChangeKind::Added, AUTHOR)],
                vec![line("src/A.java", ChangeKind::Added, "stray();")],
            ),
            // Writes the same one, cleanly: preferred on the tie.
            tried(
                "org.example.Clean",
                vec![line("src/A.java", ChangeKind::Added, &format!("  {AUTHOR}"))],
                vec![],
            ),
            // Writes the author's line, but in C only.
            tried("org.example.Elsewhere", vec![line("src/C.java", ChangeKind::Added, AUTHOR)], vec![]),
        ];
        let found = authors_way(&classes, &missed, &tried);
        assert_eq!(found.len(), 1, "{found:?}");
        let way = &found[0];
        assert_eq!((way.path.as_str(), way.recipe.as_str()), ("src/A.java", "org.example.Clean"));
        assert_eq!((way.lines_differing, way.lines_written, way.lines_missed), (1, 1, 2));
        // A recipe that failed, or nothing missed: nothing to say.
        let mut failed = tried.clone();
        failed.iter_mut().for_each(|t| t.error = Some("boom".into()));
        assert!(authors_way(&classes, &missed, &failed).is_empty());
        assert!(authors_way(&classes, &[], &tried).is_empty());
        assert!(authors_way(&Classes::default(), &missed, &tried).is_empty());
    }
}
