//! One build of a monorepo per analysis: the results comment, the recipe's branch, the run
//! directory and the recipe file are the working directory's, so matrix legs over
//! `working-directory` never overwrite each other's.

use crate::setup::ProjectDir;

/// The working directory as a name part: `services/api` -> `services-api` (letters, digits, `.`,
/// `_` and `-` only, so it is safe in a branch name, a file name and an HTML comment).
pub(crate) fn slug(dir: Option<&ProjectDir>) -> Option<String> {
    let dir = dir?;
    let text: String = dir
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_') { c } else { '-' })
        .collect();
    let text = text.trim_matches(['-', '.']).to_string();
    (!text.is_empty()).then_some(text)
}

/// `-services-api` for a working directory, empty for the repository root.
pub(crate) fn suffix(dir: Option<&ProjectDir>) -> String {
    slug(dir).map(|s| format!("-{s}")).unwrap_or_default()
}

/// The hidden first line of the results comment: `<!-- rewrite-assist:results -->` for the root,
/// `<!-- rewrite-assist:results:services-api -->` for a working directory.
pub(crate) fn marker(dir: Option<&ProjectDir>) -> String {
    match slug(dir) {
        Some(slug) => format!("<!-- rewrite-assist:results:{slug} -->"),
        None => super::comment::MARKER.to_string(),
    }
}

/// Where the build plugins look for recipes: `rewrite.yml` at the build's root.
pub(crate) fn recipe_path(dir: Option<&ProjectDir>) -> String {
    match dir {
        Some(dir) => format!("{}/{}", dir.path().display(), super::apply::REWRITE_YML),
        None => super::apply::REWRITE_YML.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(text: &str) -> Option<ProjectDir> {
        ProjectDir::parse(text).unwrap()
    }

    #[test]
    fn names_carry_the_working_directory() {
        let api = dir("./services/api/");
        assert_eq!(slug(api.as_ref()).as_deref(), Some("services-api"));
        assert_eq!(suffix(api.as_ref()), "-services-api");
        assert_eq!(marker(api.as_ref()), "<!-- rewrite-assist:results:services-api -->");
        assert_eq!(recipe_path(api.as_ref()), "services/api/rewrite.yml");
        assert_eq!((suffix(None), marker(None)), (String::new(), "<!-- rewrite-assist:results -->".into()));
        assert_eq!(recipe_path(None), "rewrite.yml");
        // Nothing of a directory's name can end the comment or break a branch name.
        assert_eq!(slug(dir("a-->b c/..x").as_ref()).as_deref(), Some("a---b-c-..x"));
        assert!(!marker(dir("x-->").as_ref()).contains("x-->"));
        // Two builds never share a marker, and the root's is not a prefix of theirs.
        assert_ne!(marker(dir("a").as_ref()), marker(dir("b").as_ref()));
        assert!(!marker(api.as_ref()).starts_with(&marker(None)));
    }
}
