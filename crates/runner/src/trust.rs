//! How far a repository's own build is trusted, and so what of it runs. The plugin backend runs
//! the project's build tool: for Gradle that is `./gradlew` and the build scripts (the
//! repository's code, and a distribution from a host it names), for Maven the build extensions
//! its POMs declare (its `.mvn/` configuration is ignored unless trusted). rewrite-assist runs
//! that code only where it is already trusted:
//!
//! - `--trust-build-config` (action input `trust-build-config`): the user trusts the repository;
//! - the action on its own repository's base commit: its CI builds that commit anyway;
//! - `--backend plugin` (input `backend: plugin`): the user asked for the project's build.
//!
//! Anywhere else (`auto`'s confirmation and its fallback when the runner cannot start, `apply
//! --repos`, eval cases, a `pr_url` of another repository) it does not run, and the report says
//! so (error kind `untrusted_build`).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::build::BuildTool;
use super::choice::BackendChoice;

/// How far a repository's own build is trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trust {
    /// Nobody vouched for it: its build's own code does not run, its `.mvn/` configuration and
    /// the `file:` repositories it names are ignored.
    #[default]
    Untrusted,
    /// Its build may run, but its `.mvn/` configuration and `file:` repositories are still
    /// ignored.
    BuildRuns(Voucher),
    /// `--trust-build-config`: its build runs with its `.mvn/` configuration, and `file:`
    /// repositories are read.
    Trusted,
}

/// What lets a repository's build run without trusting all of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Voucher {
    /// The action analyzes its own repository's base commit, which its CI builds anyway.
    OwnRepository,
    /// The user chose the plugin backend, which is the project's build.
    PluginChosen,
}

impl Trust {
    /// The trust of a command's runs: `--trust-build-config` (`trusted`), else the plugin backend
    /// chosen by name lets the build run, else nothing does.
    pub fn of_run(trusted: bool, backend: BackendChoice) -> Trust {
        if trusted {
            Trust::Trusted
        } else if backend.asks_for_the_build() {
            Trust::BuildRuns(Voucher::PluginChosen)
        } else {
            Trust::Untrusted
        }
    }

    /// `--trust-build-config` alone (`apply`, which has no backend to choose).
    pub fn from_flag(trusted: bool) -> Trust {
        if trusted { Trust::Trusted } else { Trust::Untrusted }
    }

    /// The same trust for the action on its own repository (whose CI builds the base commit
    /// anyway): its build may run.
    pub fn on_own_repository(self) -> Trust {
        match self {
            Trust::Untrusted => Trust::BuildRuns(Voucher::OwnRepository),
            other => other,
        }
    }

    /// Whether the repository's `.mvn/` configuration is honoured and the `file:` repositories its
    /// POMs and build scripts name are read.
    pub(crate) fn honours_build_config(self) -> bool {
        self == Trust::Trusted
    }

    /// Whether the repository's own build code may run.
    pub(crate) fn runs_own_build(self) -> bool {
        self != Trust::Untrusted
    }
}

/// What of the repository's own code a run of its build tool would execute, in words (None:
/// nothing but the rewrite plugin: a Maven build without build extensions, its `.mvn/` ignored).
pub(crate) fn own_code(project: &Path, tool: BuildTool) -> Option<String> {
    match tool {
        BuildTool::Gradle if project.join("gradlew").is_file() => {
            Some("`./gradlew` and the repository's build scripts".into())
        }
        BuildTool::Gradle => Some("the repository's Gradle build scripts".into()),
        BuildTool::Maven => {
            let declared = maven_extensions(project);
            (!declared.is_empty())
                .then(|| format!("the build extensions its POMs declare ({})", declared.join(", ")))
        }
    }
}

/// Build extensions the project's POMs declare (`<build><extensions>` and plugins with
/// `<extensions>true</extensions>`, in profiles too): Maven loads them into itself before any
/// goal, `runNoFork` included. A parent POM that is not in the repository is not read here.
fn maven_extensions(project: &Path) -> Vec<String> {
    let mut poms = Vec::new();
    super::build::collect_files(project, &["pom.xml"], 0, &mut poms);
    poms.sort();
    let mut found: Vec<String> = Vec::new();
    for name in
        poms.iter().filter_map(|pom| std::fs::read_to_string(pom).ok()).flat_map(|t| declared_extensions(&t))
    {
        if !found.contains(&name) {
            found.push(name);
        }
    }
    found
}

/// The artifactIds of the build extensions one POM declares. Malformed XML gives what was read
/// before the error (Maven would refuse such a POM anyway).
fn declared_extensions(pom: &str) -> Vec<String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(pom);
    let mut stack: Vec<String> = Vec::new();
    let (mut text, mut artifact, mut flagged) = (String::new(), String::new(), false);
    let mut out = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let name = e.local_name().as_ref().to_string();
                if name == "plugin" || name == "extension" {
                    (artifact, flagged) = (String::new(), false);
                }
                stack.push(name);
                text.clear();
            }
            Ok(Event::Text(t)) => text.push_str(&t.xml10_content()),
            Ok(Event::End(_)) => {
                let path = stack.join("/");
                if path.ends_with("/plugin/artifactId") || path.ends_with("/extension/artifactId") {
                    artifact = text.trim().to_string();
                } else if path.ends_with("/plugin/extensions") {
                    flagged = text.trim() == "true";
                } else if path.ends_with("/build/extensions/extension")
                    || (path.ends_with("/plugin") && flagged)
                {
                    out.push(if artifact.is_empty() { "a plugin".to_string() } else { artifact.clone() });
                }
                stack.pop();
                text.clear();
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    out
}

/// Why `auto` (or a rollout) did not run the repository's build: `what` would run, and nothing
/// vouches for the repository.
pub(crate) fn withheld(what: &str) -> String {
    format!(
        "not run: it would run {what}, and this repository is not trusted (another repository, or a \
         run without --trust-build-config); the action trusts only its own repository's base commit, \
         which its CI builds anyway. --trust-build-config (input `trust-build-config`) runs it"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_lets_the_build_run() {
        assert_eq!(Trust::of_run(false, BackendChoice::Auto), Trust::Untrusted);
        assert_eq!(Trust::of_run(false, BackendChoice::Embedded), Trust::Untrusted);
        assert_eq!(Trust::of_run(false, BackendChoice::Plugin), Trust::BuildRuns(Voucher::PluginChosen));
        assert_eq!(Trust::of_run(true, BackendChoice::Auto), Trust::Trusted);
        assert_eq!(Trust::Untrusted.on_own_repository(), Trust::BuildRuns(Voucher::OwnRepository));
        assert_eq!(Trust::Trusted.on_own_repository(), Trust::Trusted);
        assert!(!Trust::Untrusted.runs_own_build() && Trust::Untrusted.on_own_repository().runs_own_build());
        assert!(!Trust::BuildRuns(Voucher::OwnRepository).honours_build_config());
        assert!(Trust::Trusted.honours_build_config());
    }

    #[test]
    fn what_of_the_repository_a_build_would_run() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("pom.xml"), "<project><build><plugins><plugin><artifactId>maven-compiler-plugin</artifactId></plugin></plugins></build></project>").unwrap();
        assert_eq!(own_code(root, BuildTool::Maven), None);
        std::fs::create_dir_all(root.join("app")).unwrap();
        std::fs::write(
            root.join("app/pom.xml"),
            "<project><profiles><profile><build><extensions><extension><groupId>x</groupId><artifactId>evil-extension</artifactId></extension></extensions>\
             <plugins><plugin><artifactId>tycho-maven-plugin</artifactId><extensions>true</extensions></plugin>\
             <plugin><artifactId>quiet</artifactId><extensions>false</extensions></plugin></plugins></build></profile></profiles></project>",
        )
        .unwrap();
        assert_eq!(
            own_code(root, BuildTool::Maven).as_deref(),
            Some("the build extensions its POMs declare (evil-extension, tycho-maven-plugin)")
        );
        assert_eq!(
            own_code(root, BuildTool::Gradle).as_deref(),
            Some("the repository's Gradle build scripts")
        );
        std::fs::write(root.join("gradlew"), "#!/bin/sh\n").unwrap();
        assert_eq!(
            own_code(root, BuildTool::Gradle).as_deref(),
            Some("`./gradlew` and the repository's build scripts")
        );
    }
}
