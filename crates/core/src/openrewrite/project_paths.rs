//! A recipe's file paths as a build in a project directory sees them. The pipeline writes paths
//! from the repository's root, as the PR's diff has them (`services/api/notes.txt`), but
//! OpenRewrite's source paths start where the build runs: a monorepo's `--working-directory`
//! (`notes.txt`). Without this, a `filePattern` written from the root matches nothing there.

use serde_json::Value;

use super::recipe_yaml::RECIPE_TYPE;
use super::text::glob_escape;

/// The step options that hold source paths: `filePattern` (`;`-separated globs, of
/// `FindAndReplace`, `DeleteSourceFiles`, `FindSourceFiles` and the format recipes) and
/// `relativeFileName` (the `Create…File` recipes).
const PATH_OPTIONS: [&str; 2] = ["filePattern", "relativeFileName"];

/// `yaml` with every path option of its recipes (steps and preconditions) made relative to the
/// project directory `prefix` (`services/api/`). None when nothing changes, or when `yaml` cannot
/// be read (the run reports that itself). Globs that do not start with the prefix (`**/*.yml`, a
/// file outside the project) are left as they are.
pub fn relative_to(yaml: &str, prefix: &str) -> Option<String> {
    let mut documents = super::yaml::documents(yaml).ok()?;
    let prefixes = [prefix.to_string(), glob_escape(prefix)];
    let mut changed = false;
    for document in &mut documents {
        changed |= relativize_document(document, &prefixes);
    }
    if !changed {
        return None;
    }
    let mut out = String::new();
    for document in documents.iter().filter(|d| !d.is_null()) {
        out.push_str("---\n");
        out.push_str(&super::yaml::to_string(document)?);
    }
    Some(out)
}

fn relativize_document(document: &mut Value, prefixes: &[String]) -> bool {
    let Value::Object(map) = document else { return false };
    if map.get("type").and_then(Value::as_str) != Some(RECIPE_TYPE) {
        return false;
    }
    let mut changed = false;
    for list in ["recipeList", "preconditions"] {
        let Some(Value::Array(steps)) = map.get_mut(list) else { continue };
        for step in steps {
            // A step with options is `Name: {options}`; a bare name has no paths.
            let Value::Object(entry) = step else { continue };
            for (_, options) in entry.iter_mut() {
                let Value::Object(options) = options else { continue };
                for key in PATH_OPTIONS {
                    if let Some(Value::String(value)) = options.get_mut(key) {
                        let relative = relativize(value, prefixes);
                        changed |= relative != *value;
                        *value = relative;
                    }
                }
            }
        }
    }
    changed
}

/// Each `;`-separated glob of `value` without the project's prefix, when it starts with it.
fn relativize(value: &str, prefixes: &[String]) -> String {
    value
        .split(';')
        .map(|glob| {
            let trimmed = glob.trim();
            prefixes.iter().find_map(|p| trimmed.strip_prefix(p.as_str())).unwrap_or(glob)
        })
        .collect::<Vec<_>>()
        .join(";")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openrewrite::RecipeFile;

    const RECIPE: &str = r#"type: specs.openrewrite.org/v1beta/recipe
name: a.Main
preconditions:
  - org.openrewrite.FindSourceFiles:
      filePattern: "services/api/src/A.java;**/B.java"
recipeList:
  - org.openrewrite.java.RemoveUnusedImports
  - org.openrewrite.text.FindAndReplace:
      find: "services/api/"
      replace: "x"
      filePattern: "services/api/notes.txt"
  - org.openrewrite.text.CreateTextFile:
      relativeFileName: "services/api/conf/new.txt"
      fileContents: "a"
  - org.openrewrite.DeleteSourceFiles:
      filePattern: "services/api/old/\\[legacy\\].txt;other/x.txt"
  - org.openrewrite.maven.ChangePropertyValue:
      key: "x"
      newValue: "3.10"
---
type: specs.openrewrite.org/v1beta/style
name: a.Style
"#;

    fn step_text(file: &RecipeFile, index: usize, key: &str) -> String {
        file.recipes[0].steps[index].text(key)
    }

    #[test]
    fn path_options_lose_the_project_prefix_and_nothing_else_changes() {
        let written = relative_to(RECIPE, "services/api/").unwrap();
        let file = RecipeFile::parse(&written).unwrap();
        assert_eq!(file.recipes[0].preconditions[0].text("filePattern"), "src/A.java;**/B.java");
        assert_eq!(step_text(&file, 1, "filePattern"), "notes.txt");
        assert_eq!(step_text(&file, 1, "find"), "services/api/", "only paths");
        assert_eq!(step_text(&file, 2, "relativeFileName"), "conf/new.txt");
        assert_eq!(step_text(&file, 3, "filePattern"), "old/\\[legacy\\].txt;other/x.txt");
        assert_eq!(step_text(&file, 4, "newValue"), "3.10", "a version stays text");
        assert!(written.contains("a.Style"), "other documents stay: {written}");
    }

    #[test]
    fn a_recipe_without_paths_under_the_prefix_is_left_alone() {
        assert_eq!(relative_to(RECIPE, "elsewhere/"), None);
        assert_eq!(relative_to("not: [valid", "services/api/"), None);
        let escaped = "type: specs.openrewrite.org/v1beta/recipe\nname: a.B\nrecipeList:\n  - org.openrewrite.DeleteSourceFiles:\n      filePattern: \"apps/\\\\[id\\\\]/x.txt\"\n";
        let written = relative_to(escaped, "apps/[id]/").unwrap();
        assert_eq!(RecipeFile::parse(&written).unwrap().recipes[0].steps[0].text("filePattern"), "x.txt");
    }
}
