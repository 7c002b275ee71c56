//! OpenRewrite's `filePattern` globs: facts that mapping (which writes text steps), refinement and
//! decision (which tell text work from semantic work) share. The plain-text recipes' names are in
//! [`super::recipe_names`].

/// OpenRewrite's `filePattern`: `;`-separated globs over the source path.
pub fn file_pattern_matches(pattern: &str, path: &str) -> bool {
    pattern.split(';').map(str::trim).filter(|p| !p.is_empty()).any(|glob| {
        globset::GlobBuilder::new(glob)
            .literal_separator(true)
            .build()
            .map(|g| g.compile_matcher().is_match(path))
            .unwrap_or(false)
    })
}

/// A path as a glob that matches only itself.
pub fn glob_escape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_patterns() {
        assert!(file_pattern_matches("Dockerfile", "Dockerfile"));
        assert!(file_pattern_matches("**/Dockerfile;pom.xml", "pom.xml"));
        assert!(file_pattern_matches("**/*.yml", ".github/workflows/ci.yml"));
        assert!(!file_pattern_matches("*.yml", ".github/workflows/ci.yml"));
        assert!(!file_pattern_matches("", "x"));
    }
}
