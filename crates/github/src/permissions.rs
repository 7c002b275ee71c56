//! Who may make the bot work: users with write access to the repository. The comment's
//! `author_association` is a cheap first filter (only owners, members and collaborators can have
//! write access); the collaborator-permission API decides. A failed lookup is its own outcome.

use serde::Deserialize;

use super::{GitHub, RepoId};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Permission {
    Write,
    /// Read access or less (with the level, for the log).
    NoWrite(String),
    /// The lookup failed (the error, for the log): we do not know, so nothing runs.
    CouldNotVerify(String),
}

/// Associations that may carry write access; any other one cannot.
const MAY_WRITE: &[&str] = &["OWNER", "MEMBER", "COLLABORATOR"];

#[derive(Deserialize)]
struct PermissionAnswer {
    permission: String,
    #[serde(default)]
    role_name: Option<String>,
}

pub(crate) fn check(gh: &GitHub, repo: &RepoId, login: &str, association: &str) -> Permission {
    if !MAY_WRITE.contains(&association.to_ascii_uppercase().as_str()) {
        return Permission::NoWrite(format!("author association {association}"));
    }
    let path = format!("{}/collaborators/{login}/permission", repo.api());
    match gh.get::<PermissionAnswer>(&path) {
        Ok(answer) => level(&answer.permission, answer.role_name.as_deref()),
        Err(error) => Permission::CouldNotVerify(crate::error::one_line(&error)),
    }
}

/// `permission` is admin / write / read / none; `role_name` refines it (maintain, triage, custom).
fn level(permission: &str, role: Option<&str>) -> Permission {
    let writes = |p: &str| matches!(p, "admin" | "maintain" | "write");
    if writes(permission) || role.is_some_and(writes) {
        Permission::Write
    } else {
        Permission::NoWrite(format!("permission {permission}"))
    }
}

/// The polite answer to someone who may not run commands.
pub(crate) fn needs_write_reply(login: &str) -> String {
    format!(
        "Sorry @{login}, running rewrite-assist needs write access to this repository. \
A maintainer can comment `/rewrite-assist run` for you. (`/rewrite-assist help` works for everyone.)"
    )
}

/// The answer when the permission lookup failed.
pub(crate) fn could_not_verify_reply(login: &str) -> String {
    format!(
        "Sorry @{login}, I could not verify that you have write access to this repository, so I did not run anything. \
Please try again in a few minutes; if it keeps happening, check that the workflow's token may read collaborators."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        assert_eq!(level("admin", None), Permission::Write);
        assert_eq!(level("write", Some("maintain")), Permission::Write);
        assert_eq!(level("read", Some("maintain")), Permission::Write, "the role refines the level");
        assert_eq!(level("read", Some("triage")), Permission::NoWrite("permission read".into()));
        assert_eq!(level("none", None), Permission::NoWrite("permission none".into()));
    }

    #[test]
    fn associations_that_cannot_write_need_no_lookup() {
        // No server at all: the association decides before any call.
        let gh = GitHub::new(crate::github::Config {
            api_url: "http://127.0.0.1:9".into(),
            token: None,
            retry: crate::github::RetryPolicy { attempts: 1, ..Default::default() },
            timeout: std::time::Duration::from_secs(1),
        })
        .unwrap();
        let repo = RepoId::parse("acme/shop").unwrap();
        for association in ["CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER", "NONE", "MANNEQUIN"] {
            assert!(matches!(check(&gh, &repo, "bob", association), Permission::NoWrite(_)), "{association}");
        }
        // A possible writer needs the lookup, which fails here: not a denial, its own outcome.
        assert!(matches!(check(&gh, &repo, "carol", "COLLABORATOR"), Permission::CouldNotVerify(_)));
    }
}
