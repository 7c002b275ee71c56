//! A pull request's address, `<repository URL>/pull/<N>`, the one form every command takes (an eval
//! suite's `pr:`, the action's `workflow_dispatch` input). Read with the `url` crate, so schemes,
//! hosts, ports, percent-encoding, queries and fragments follow the URL standard.

use url::Url;

/// A pull request's URL, split into the repository (what `git clone` takes on GitHub) and the number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrUrl {
    repository: Url,
    number: u64,
}

/// Why a text is not a pull request's URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a pull-request URL like https://github.com/OWNER/REPO/pull/123")]
pub struct NotAPrUrl(pub String);

/// What may follow the number: GitHub's tabs of a pull request (`/files`, `/commits/SHA`, `/checks`).
const TABS: [&str; 3] = ["files", "commits", "checks"];

impl PrUrl {
    /// `<repository URL>/pull/<N>[/files|/commits…|/checks][?…][#…]` with N > 0 and a repository
    /// path that is not empty.
    pub fn parse(text: &str) -> Result<PrUrl, NotAPrUrl> {
        let fail = || NotAPrUrl(text.to_string());
        let url = Url::parse(text.trim()).map_err(|_| fail())?;
        if url.cannot_be_a_base() || (url.scheme() != "file" && url.host_str().is_none_or(str::is_empty)) {
            return Err(fail());
        }
        let mut segments: Vec<&str> = url.path_segments().ok_or_else(fail)?.collect();
        while segments.last() == Some(&"") {
            segments.pop();
        }
        // The last `pull` followed by a number and nothing but a tab.
        let at = (0..segments.len())
            .rev()
            .find(|&i| {
                segments[i] == "pull"
                    && segments.get(i + 2).is_none_or(|tab| TABS.contains(tab))
                    && segments.get(i + 1).is_some_and(|n| n.parse::<u64>().is_ok_and(|n| n > 0))
            })
            .ok_or_else(fail)?;
        if at == 0 || segments[..at].iter().any(|s| s.is_empty()) {
            return Err(fail());
        }
        let number = segments[at + 1].parse().map_err(|_| fail())?;
        let mut repository = url.clone();
        repository.set_query(None);
        repository.set_fragment(None);
        repository.set_path(&segments[..at].join("/"));
        Ok(PrUrl { repository, number })
    }

    /// The repository's URL without a trailing slash: `https://github.com/o/r`.
    pub fn repository(&self) -> String {
        self.repository.as_str().trim_end_matches('/').to_string()
    }

    /// The pull request's number.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// `(owner, name)` when the repository's path is exactly two segments, as on GitHub.
    pub fn owner_and_name(&self) -> Option<(&str, &str)> {
        let mut segments = self.repository.path_segments()?;
        match (segments.next(), segments.next(), segments.next()) {
            (Some(owner), Some(name), None) if !owner.is_empty() && !name.is_empty() => Some((owner, name)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_repository_and_the_number() {
        for (url, repository, number) in [
            ("https://github.com/o/r/pull/7", "https://github.com/o/r", 7),
            ("https://github.com/o/r/pull/7/", "https://github.com/o/r", 7),
            ("https://github.com/o/r/pull/7/files", "https://github.com/o/r", 7),
            ("https://github.com/o/r/pull/7/commits/0a1b2c", "https://github.com/o/r", 7),
            ("https://github.com/o/r/pull/7#discussion_r1", "https://github.com/o/r", 7),
            ("https://github.com/o/r/pull/7?w=1", "https://github.com/o/r", 7),
            ("  https://ghe.example.com:8443/o/r/pull/12 ", "https://ghe.example.com:8443/o/r", 12),
            ("file:///srv/git/shop.git/pull/3", "file:///srv/git/shop.git", 3),
        ] {
            let pr = PrUrl::parse(url).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!((pr.repository().as_str(), pr.number()), (repository, number), "{url}");
        }
    }

    #[test]
    fn refuses_what_is_not_a_pull_request() {
        for bad in [
            "https://github.com/o/r/issues/7",
            "https://github.com/o/r/pull/",
            "https://github.com/o/r/pull/0",
            "https://github.com/o/r/pull/x",
            "https://github.com/o/r/pull/7/bogus",
            "github.com/o/r/pull/7",
            "https:///pull/7",
            "https://github.com/pull/7",
            "mailto:o/r/pull/7",
            "",
        ] {
            assert_eq!(PrUrl::parse(bad), Err(NotAPrUrl(bad.to_string())), "{bad}");
        }
    }

    #[test]
    fn owner_and_name_only_for_two_segments() {
        let pr = PrUrl::parse("https://ghe.example.com/acme/shop/pull/42/files").unwrap();
        assert_eq!(pr.owner_and_name(), Some(("acme", "shop")));
        assert_eq!(PrUrl::parse("https://gitlab.example.com/g/sub/r/pull/1").unwrap().owner_and_name(), None);
        assert_eq!(PrUrl::parse("file:///srv/git/shop.git/pull/3").unwrap().owner_and_name(), None);
    }
}
