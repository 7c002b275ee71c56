//! Adding recipes to a project's `rewrite.yml`: a recipe of the same name is replaced where it
//! stands, new ones are appended, and every other document (other recipes, styles, categories,
//! comments) is kept byte for byte.

use super::recipe_yaml::{RECIPE_TYPE, RecipeFile, RecipeFileError};

/// `existing` (the file's text, if it exists) with the recipe documents of `new` merged in.
pub fn merge(existing: Option<&str>, new: &str) -> Result<String, RecipeFileError> {
    let incoming = documents(new)?;
    let mut merged: Vec<String> = match existing {
        Some(text) if !text.trim().is_empty() => documents(text)?.into_iter().map(|(_, doc)| doc).collect(),
        _ => Vec::new(),
    };
    let mut names: Vec<Option<String>> = merged.iter().map(|doc| recipe_name(doc)).collect();
    for (name, doc) in incoming {
        let Some(name) = name else { continue };
        match names.iter().position(|n| n.as_deref() == Some(name.as_str())) {
            Some(index) => merged[index] = doc,
            None => {
                merged.push(doc);
                names.push(Some(name));
            }
        }
    }
    let mut out = String::new();
    for (i, doc) in merged.iter().enumerate() {
        // Every document after the first needs its separator.
        if i > 0 && !starts_with_separator(doc) {
            out.push_str("---\n");
        }
        out.push_str(doc);
        if !doc.ends_with('\n') {
            out.push('\n');
        }
    }
    RecipeFile::parse(&out)?;
    Ok(out)
}

/// The file split at `---` lines, each document with its recipe name (None: not a recipe).
/// The YAML must be well-formed as a whole.
fn documents(text: &str) -> Result<Vec<(Option<String>, String)>, RecipeFileError> {
    super::yaml::documents(text).map_err(RecipeFileError::Yaml)?;
    let mut docs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        let is_separator = line.trim_end() == "---" || line.starts_with("--- ");
        // Blank lines and comments before a separator belong to the document that follows.
        if is_separator && has_content(&current) {
            docs.push(std::mem::take(&mut current));
        }
        current.push_str(line);
    }
    if !current.trim().is_empty() {
        docs.push(current);
    }
    Ok(docs.into_iter().map(|doc| (recipe_name(&doc), doc)).collect())
}

fn starts_with_separator(document: &str) -> bool {
    let first = document.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'));
    first.is_some_and(|l| l == "---" || l.starts_with("--- "))
}

fn has_content(document: &str) -> bool {
    document.lines().map(str::trim).any(|l| !l.is_empty() && !l.starts_with('#') && l != "---")
}

fn recipe_name(document: &str) -> Option<String> {
    let value = super::yaml::documents(document).ok()?.into_iter().next()?;
    let map = value.as_object()?;
    (map.get("type")?.as_str()? == RECIPE_TYPE)
        .then(|| map.get("name")?.as_str().map(|s| s.trim().to_string()))?
}

#[cfg(test)]
mod tests {
    use super::*;

    const STYLE: &str =
        "---\ntype: specs.openrewrite.org/v1beta/style\nname: com.acme.Style\nstyleConfigs: []\n";
    const A: &str = "---\ntype: specs.openrewrite.org/v1beta/recipe\nname: com.acme.A\nrecipeList:\n  - org.openrewrite.java.OrderImports\n";
    const B_OLD: &str = "# our migration\n---\ntype: specs.openrewrite.org/v1beta/recipe\nname: rewriteassist.B\nrecipeList:\n  - org.openrewrite.java.RemoveUnusedImports\n";
    const B_NEW: &str = "---\ntype: specs.openrewrite.org/v1beta/recipe\nname: \"rewriteassist.B\"\nrecipeList:\n  - org.openrewrite.java.ChangePackage:\n      oldPackageName: \"javax.persistence\"\n      newPackageName: \"jakarta.persistence\"\n";

    #[test]
    fn a_new_file_holds_just_the_recipe() {
        assert_eq!(merge(None, B_NEW).unwrap(), B_NEW);
        assert_eq!(merge(Some("  \n"), B_NEW).unwrap(), B_NEW);
    }

    #[test]
    fn other_documents_are_kept_and_new_recipes_appended() {
        let existing = format!("{STYLE}{A}");
        let merged = merge(Some(&existing), B_NEW).unwrap();
        assert_eq!(merged, format!("{STYLE}{A}{B_NEW}"));
    }

    #[test]
    fn a_recipe_of_the_same_name_is_replaced_in_place() {
        let existing = format!("{A}{B_OLD}{STYLE}");
        let merged = merge(Some(&existing), B_NEW).unwrap();
        assert!(merged.starts_with(A), "{merged}");
        assert!(merged.ends_with(STYLE), "{merged}");
        assert!(
            merged.contains("jakarta.persistence") && !merged.contains("RemoveUnusedImports"),
            "{merged}"
        );
        assert_eq!(merged.matches("name: \"rewriteassist.B\"").count(), 1);
        let file = RecipeFile::parse(&merged).unwrap();
        assert_eq!(file.names(), vec!["com.acme.A", "rewriteassist.B"]);
    }

    #[test]
    fn a_first_document_without_separator_and_bad_yaml() {
        let existing = "type: specs.openrewrite.org/v1beta/recipe\nname: com.acme.A\nrecipeList: []\n";
        let merged = merge(Some(existing), B_NEW).unwrap();
        assert_eq!(merged, format!("{existing}{B_NEW}"));
        assert!(matches!(merge(Some("a: [unclosed"), B_NEW), Err(RecipeFileError::Yaml(_))));
    }
}
