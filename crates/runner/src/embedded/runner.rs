//! The runner program: its sources are embedded in this binary (so an installed binary needs
//! nothing else), built with Maven on first use into a cache directory keyed by a hash of the
//! sources and the OpenRewrite versions, and reused from there.
//!
//! Versions come from [`crate::openrewrite::versions`] as `-D` properties, exactly as for the
//! catalog generator, so the pins and the user's overrides stay in one place.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use include_dir::{Dir, include_dir};

use crate::catalog::generate::modules_in_use;
use crate::openrewrite::Versions;
use crate::openrewrite::versions::{REWRITE_CORE_VERSION, REWRITE_POLYGLOT_VERSION};

/// The runner's Maven project.
const POM: &str = include_str!("../../../../runner/pom.xml");
/// Its main sources (tests stay in the repository: they run with `mvn verify` there).
static MAIN: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../runner/src/main");

/// Where built runners are kept: `$REWRITE_ASSIST_RUNNER_CACHE`, else `$XDG_CACHE_HOME` or
/// `~/.cache`, under `rewrite-assist/runner`.
pub(crate) const CACHE_ENV: &str = "REWRITE_ASSIST_RUNNER_CACHE";

/// A built runner: what `java -cp` needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Runner {
    /// The runner's cache directory, `…/rewrite-assist/runner/<versions>-<hash>/`, where Maven
    /// built it.
    pub dir: PathBuf,
    /// Its compiled classes and dependency jars, `:`-separated, for `java -cp`.
    pub classpath: String,
}

/// The built runner for `versions`, building it first when it is not in the cache (tests read
/// its classpath to run OpenRewrite's own libraries, e.g. SnakeYAML, on what we write).
pub fn ensure(versions: &Versions) -> Result<Runner> {
    ensure_in(&cache_root()?, versions)
}

/// [`ensure`] with the runners kept under `root`.
fn ensure_in(root: &Path, versions: &Versions) -> Result<Runner> {
    let dir = root.join(key(versions));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    // One build at a time per version set: parallel tests and shards wait for the first.
    let _lock = crate::process::file_lock::exclusive(&dir.join(".lock"))?;
    if let Some(runner) = built(&dir) {
        return Ok(runner);
    }
    // Compiled, but a jar of its classpath is gone (the image leaves out the MSAL recipe jars,
    // docs/licensing.md): resolving the classpath again fetches it in seconds, where compiling
    // the runner again would take a minute.
    if dir.join("ready").is_file() && dir.join("target/classes").is_dir() {
        eprintln!("rewrite-assist: fetching the embedded runner's missing jars into the Maven repository");
        match maven(&dir, versions, &CLASSPATH) {
            Ok(()) => {
                if let Some(runner) = built(&dir) {
                    return Ok(runner);
                }
            }
            Err(e) => tracing::info!("fetching the runner's jars failed, building it again: {e:#}"),
        }
    }
    build(&dir, versions)?;
    built(&dir).ok_or_else(|| anyhow::anyhow!("the runner built in {} but left no classpath", dir.display()))
}

fn built(dir: &Path) -> Option<Runner> {
    if !dir.join("ready").is_file() {
        return None;
    }
    let dependencies = std::fs::read_to_string(dir.join("classpath.txt")).ok()?;
    // A jar that is gone (the image leaves out the MSAL recipe jars, docs/licensing.md): build
    // again, and Maven fetches it on this machine.
    if dependencies.trim().split(':').filter(|jar| !jar.is_empty()).any(|jar| !Path::new(jar).is_file()) {
        return None;
    }
    let classes = dir.join("target/classes");
    let classpath = format!("{}:{}", classes.display(), dependencies.trim());
    Some(Runner { dir: dir.to_path_buf(), classpath })
}

/// The Maven goals that write the runner's classpath (and fetch what it lacks).
const CLASSPATH: [&str; 2] = ["dependency:build-classpath", "-Dmdep.outputFile=classpath.txt"];

fn build(dir: &Path, versions: &Versions) -> Result<()> {
    let _ = std::fs::remove_file(dir.join("ready"));
    std::fs::write(dir.join("pom.xml"), pom(versions))?;
    let main = dir.join("src/main");
    if main.exists() {
        std::fs::remove_dir_all(&main)?;
    }
    std::fs::create_dir_all(&main)?;
    MAIN.extract(&main).with_context(|| format!("writing the runner's sources to {}", main.display()))?;
    eprintln!(
        "rewrite-assist: building the embedded OpenRewrite runner (once per version set) in {}",
        dir.display()
    );
    let mut goals = vec!["package"];
    goals.extend(CLASSPATH);
    goals.extend(["-DskipTests", "-Dspotless.check.skip=true"]);
    maven(dir, versions, &goals)?;
    std::fs::write(dir.join("ready"), "")?;
    Ok(())
}

/// Runs Maven on the runner's project in `dir` with `goals` (and the pinned versions), its output
/// into `build.log`.
fn maven(dir: &Path, versions: &Versions, goals: &[&str]) -> Result<()> {
    let mvn = crate::process::maven::executable();
    let mut command = crate::process::maven::command(&mvn);
    command.current_dir(dir).args(["-B", "-q"]).args(goals).args(version_properties(versions));
    tracing::info!("the embedded runner: {}", crate::process::env::command_line(&command));
    let output = command.output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            crate::error::bad_input(format!(
                "`{mvn}` is not installed or not on PATH (needed to build the runner)"
            ))
        } else {
            anyhow::Error::new(e).context(format!("starting {mvn}"))
        }
    })?;
    std::fs::write(dir.join("build.log"), [output.stdout.as_slice(), output.stderr.as_slice()].concat())?;
    if !output.status.success() {
        let text =
            String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
        bail!(
            "building the embedded runner failed (log: {}): {}",
            dir.join("build.log").display(),
            build_errors(&text)
        );
    }
    Ok(())
}

/// What Maven said went wrong: its first `[ERROR]` lines without colours and without the
/// boilerplate it prints after every failure ("Re-run Maven using the -X switch", links), else
/// the last lines of its output.
fn build_errors(output: &str) -> String {
    let plain: Vec<String> = output
        .lines()
        .map(|line| {
            let mut text = String::new();
            let mut chars = line.chars();
            while let Some(c) = chars.next() {
                if c == '\u{1b}' {
                    // An ANSI colour sequence: ESC [ digits ; … letter.
                    for c in chars.by_ref() {
                        if c.is_ascii_alphabetic() {
                            break;
                        }
                    }
                } else {
                    text.push(c);
                }
            }
            text.trim().to_string()
        })
        .filter(|line| !line.is_empty())
        .collect();
    let boilerplate =
        ["-> [Help", "To see the full stack trace", "Re-run Maven", "For more information", "[Help 1]"];
    let errors: Vec<&str> = plain
        .iter()
        .filter_map(|line| line.strip_prefix("[ERROR]").map(str::trim))
        .filter(|line| !line.is_empty() && !boilerplate.iter().any(|b| line.contains(b)))
        .take(3)
        .collect();
    if errors.is_empty() {
        let tail: Vec<&str> = plain.iter().rev().take(5).map(String::as_str).collect();
        return tail.into_iter().rev().collect::<Vec<_>>().join(" | ");
    }
    errors.join(" | ")
}

/// The runner's pom, with the user's extra recipe artifacts (`--recipe-artifacts` coordinates that
/// are not one of our modules) added as dependencies, so their recipes load too.
fn pom(versions: &Versions) -> String {
    let extras: String = versions
        .extra_artifacts()
        .iter()
        .map(|c| {
            format!(
                "    <dependency><groupId>{}</groupId><artifactId>{}</artifactId><version>{}</version></dependency>\n",
                xml_text(&c.group),
                xml_text(&c.artifact),
                xml_text(&c.version)
            )
        })
        .collect();
    match POM.rfind("  </dependencies>") {
        Some(at) if !extras.is_empty() => format!("{}{extras}{}", &POM[..at], &POM[at..]),
        _ => POM.to_string(),
    }
}

fn xml_text(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// `-Drewrite.version=…` and one `-D<artifact>.version=…` per recipe module.
pub fn version_properties(versions: &Versions) -> Vec<String> {
    let mut args = vec![
        format!("-Drewrite.version={REWRITE_CORE_VERSION}"),
        format!("-Drewrite-polyglot.version={REWRITE_POLYGLOT_VERSION}"),
    ];
    for (module, coordinates) in modules_in_use(versions).iter().filter(|(m, _)| !m.bundled) {
        args.push(format!("-D{}.version={}", module.artifact, coordinates.version));
    }
    args
}

/// The cache key: a hash of the sources and the version properties, readable enough to tell two
/// apart (`8.89.0-<hash>`).
fn key(versions: &Versions) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    pom(versions).hash(&mut hasher);
    hash_dir(&MAIN, &mut hasher);
    version_properties(versions).hash(&mut hasher);
    format!("{REWRITE_CORE_VERSION}-{:016x}", hasher.finish())
}

fn hash_dir(dir: &Dir<'_>, hasher: &mut impl Hasher) {
    for file in dir.files() {
        file.path().hash(hasher);
        file.contents().hash(hasher);
    }
    for sub in dir.dirs() {
        hash_dir(sub, hasher);
    }
}

fn cache_root() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os(CACHE_ENV).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    let base = crate::process::user_cache::dir()
        .ok_or_else(|| anyhow::anyhow!("no cache directory: set {CACHE_ENV} or HOME"))?;
    Ok(base.join("runner"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_build_is_told_by_its_first_errors_not_mavens_advice() {
        let output = "\u{1b}[0m[ERROR] COMPILATION ERROR : \n[ERROR] /x/Main.java: warnings found and -Werror specified\n[ERROR] -> [Help 1]\n[ERROR] \n[ERROR] Re-run Maven using the -X switch to enable full debug logging.\n\u{1b}[0m\u{1b}[0m";
        assert_eq!(
            build_errors(output),
            "COMPILATION ERROR : | /x/Main.java: warnings found and -Werror specified"
        );
        assert_eq!(build_errors("no network\nBUILD FAILURE\n"), "no network | BUILD FAILURE");
    }

    /// The embedded pom declares every module the versions pin (the same rule as the catalog
    /// generator), and the key changes with a version override.
    #[test]
    fn the_pom_names_every_pinned_module_and_the_key_follows_the_versions() {
        let versions = Versions::default();
        for property in version_properties(&versions) {
            let name = property.trim_start_matches("-D").split('=').next().unwrap().to_string();
            assert!(POM.contains(&format!("${{{name}}}")), "runner/pom.xml does not use {name}");
        }
        assert!(MAIN.get_file("java/rewriteassist/runner/Main.java").is_some());
        let other = Versions {
            overrides: crate::openrewrite::versions::parse_coordinates_list(
                "org.openrewrite.recipe:rewrite-spring:9.9.9",
            )
            .unwrap(),
            ..Versions::default()
        };
        assert_ne!(key(&versions), key(&other));
        assert_eq!(key(&versions), key(&Versions::default()));
    }

    /// A built runner whose classpath lost a jar (the image's MSAL recipe jars) gets its classpath
    /// again from Maven, without compiling: its sources and classes stay as they were.
    #[test]
    fn a_compiled_runner_that_lost_a_jar_only_fetches_its_classpath_again() {
        let versions = Versions::default();
        let built = ensure(&versions).expect("the runner builds");
        let root = tempfile::tempdir().unwrap();
        let copy = root.path().join(key(&versions));
        let status = std::process::Command::new("cp").arg("-R").arg(&built.dir).arg(&copy).status().unwrap();
        assert!(status.success());
        let gone = root.path().join("rewrite-spring-6.37.0.jar");
        let classpath = std::fs::read_to_string(copy.join("classpath.txt")).unwrap();
        std::fs::write(copy.join("classpath.txt"), format!("{}:{}", classpath.trim(), gone.display()))
            .unwrap();
        let untouched = copy.join("src/main/untouched");
        std::fs::write(&untouched, b"").unwrap();

        let runner = ensure_in(root.path(), &versions).expect("the runner is ready again");
        assert!(untouched.is_file(), "the runner was built again");
        assert!(!runner.classpath.contains(&gone.display().to_string()), "{}", runner.classpath);
        assert_eq!(runner.dir, copy);
    }

    /// A runner whose classpath names a jar that is gone (the image leaves out the MSAL recipe
    /// jars, docs/licensing.md) is not ready until Maven fetches the jar.
    #[test]
    fn a_runner_whose_classpath_lost_a_jar_is_not_ready() {
        let dir = tempfile::tempdir().unwrap();
        let jar = dir.path().join("kept.jar");
        std::fs::write(&jar, b"").unwrap();
        std::fs::write(dir.path().join("ready"), b"").unwrap();
        std::fs::write(dir.path().join("classpath.txt"), format!("{}\n", jar.display())).unwrap();
        assert!(built(dir.path()).is_some(), "every jar is there");
        let gone = dir.path().join("rewrite-spring-6.37.0.jar");
        std::fs::write(dir.path().join("classpath.txt"), format!("{}:{}", jar.display(), gone.display()))
            .unwrap();
        assert!(built(dir.path()).is_none(), "a jar of the classpath is missing");
    }
}
