//! Every path the CLI takes is made absolute here, once, as clap parses it: the commands hand
//! paths on to processes that run in other directories (git in a clone, Maven in a checkout, the
//! embedded runner), where a relative path would name another file or none.

use std::path::PathBuf;

/// A path argument, made absolute against the current directory (without resolving symbolic links,
/// which the checks downstream look at themselves).
pub(crate) fn absolute(arg: &str) -> Result<PathBuf, String> {
    if arg.is_empty() {
        return Err("an empty path".into());
    }
    std::path::absolute(arg).map_err(|e| e.to_string())
}

/// A server to clone from: a URL as given, a directory made absolute (`git clone` runs in another
/// directory).
pub(crate) fn server(arg: &str) -> Result<String, String> {
    let arg = arg.trim();
    if arg.contains("://") {
        return Ok(arg.to_string());
    }
    Ok(absolute(arg)?.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_become_absolute_and_urls_stay() {
        let here = std::env::current_dir().unwrap();
        assert_eq!(absolute("out/run").unwrap(), here.join("out/run"));
        assert_eq!(absolute("/srv/x").unwrap(), PathBuf::from("/srv/x"));
        assert!(absolute("").is_err());
        assert_eq!(server("https://github.com").unwrap(), "https://github.com");
        assert_eq!(server("file:///srv/git").unwrap(), "file:///srv/git");
        assert_eq!(PathBuf::from(server("git-server").unwrap()), here.join("git-server"));
    }
}
