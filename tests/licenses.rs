//! The licences of the Java side's Maven dependencies (docs/licensing.md): every dependency of
//! `runner/pom.xml` and `catalog/generator/pom.xml`, at the pinned versions, must carry a licence of
//! the allow-list below, or be one of the recipe modules we allow by artifact. The check is
//! license-maven-plugin's `add-third-party` with `failOnBlacklist` and `failOnMissing`: the plugin
//! fails the build, and this test fails with its report.
//!
//! The Rust side has the same check: `cargo deny check licenses bans` (deny.toml), run by
//! `scripts/check-licenses`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rewrite_assist::openrewrite::Versions;
use rewrite_assist::openrewrite::versions::MODULES;
use rewrite_assist::validation::embedded::runner::version_properties;

/// The plugin, by version (the newest Maven Central served when this was written).
const PLUGIN: &str = "org.codehaus.mojo:license-maven-plugin:2.7.1";

/// What any dependency may be licensed under, after [`MERGES`]: permissive licences, and the weak
/// copyleft ones that only ask to keep their own files' sources open. A dual-licensed artifact passes
/// when one of its licences is here.
const ALLOWED: &[&str] = &[
    "Apache-2.0",
    "MIT",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "CC0-1.0",
    // JUnit and jqwik (the runner's tests only).
    "EPL-2.0",
    // jaxb-api, dual-licensed CDDL-1.1 / GPL-2.0 with the classpath exception: we take the CDDL.
    "CDDL-1.1",
];

/// The spellings POMs use for the licences above, each line `canonical|spelling|…`.
const MERGES: &[&str] = &[
    "Apache-2.0|The Apache Software License, Version 2.0|Apache License, Version 2.0|The Apache License, Version 2.0|Apache 2|Apache 2.0|Apache License 2.0",
    "MIT|The MIT License|The MIT License (MIT)|MIT license|MIT License",
    "BSD-2-Clause|The BSD 2-Clause License",
    // The Eclipse Distribution License 1.0 is the BSD 3-clause licence (SPDX lists EDL-1.0 as BSD-3-Clause).
    "BSD-3-Clause|The BSD3 License|EDL 1.0",
    "CC0-1.0|Public Domain, per Creative Commons CC0",
    "EPL-2.0|Eclipse Public License v2.0|Eclipse Public License - v 2.0",
    "CDDL-1.1|CDDL 1.1",
];

/// Recipe modules under the Moderne Source Available License, allowed **by artifact**, knowingly:
/// the binary never ships them (the runner is built on the user's machine, and Maven fetches them
/// from Maven Central there at first use, as the build plugins do), and the licence allows the
/// internal use rewrite-assist makes of them. Redistributing them, or offering their functionality
/// as a service, is what it forbids (docs/licensing.md). Any other artifact under that licence
/// fails the check until it is added here on purpose.
const MSAL_BY_ARTIFACT: &[&str] = &[
    "rewrite-migrate-java",
    "rewrite-spring",
    "rewrite-testing-frameworks",
    "rewrite-static-analysis",
    "rewrite-github-actions",
    "rewrite-hibernate",
    "rewrite-logging-frameworks",
    "rewrite-apache",
    "rewrite-micrometer",
    "rewrite-jenkins",
    "rewrite-joda",
    "rewrite-rewrite",
];

/// The licence name the allowed MSAL artifacts get in the report. Only this name is allowed, never
/// "Moderne Source Available License" itself.
const MSAL_ALLOWED_NAME: &str =
    "Moderne Source Available License (allowed for this artifact: docs/licensing.md)";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The exception list and `versions.rs` say the same: a module pinned as MSAL there is allowed here,
/// and nothing else is.
#[test]
fn the_msal_exceptions_are_exactly_the_msal_modules_of_the_pins() {
    let mut pinned: Vec<&str> = MODULES
        .iter()
        .filter(|m| m.licence == "Moderne Source Available License")
        .map(|m| m.artifact)
        .collect();
    let mut allowed = MSAL_BY_ARTIFACT.to_vec();
    pinned.sort_unstable();
    allowed.sort_unstable();
    assert_eq!(allowed, pinned);
}

#[test]
fn the_runners_maven_dependencies_have_allowed_licences() {
    let output = check(&root().join("runner/pom.xml"), MSAL_BY_ARTIFACT);
    assert_passed(&output, "runner/pom.xml");
}

#[test]
fn the_catalog_generators_maven_dependencies_have_allowed_licences() {
    let output = check(&root().join("catalog/generator/pom.xml"), MSAL_BY_ARTIFACT);
    assert_passed(&output, "catalog/generator/pom.xml");
}

/// The check can fail: a test dependency under the LGPL (not on the list), and an MSAL module that
/// is not allowed by artifact, each make the plugin refuse the build.
#[test]
fn a_dependency_under_a_licence_not_allowed_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let joda = MODULES.iter().find(|m| m.artifact == "rewrite-joda").unwrap();
    let pom = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>rewrite-assist</groupId>
  <artifactId>licence-check-control</artifactId>
  <version>1</version>
  <dependencies>
    <dependency><groupId>org.openrewrite.recipe</groupId><artifactId>rewrite-joda</artifactId><version>{}</version></dependency>
    <dependency><groupId>org.mariadb.jdbc</groupId><artifactId>mariadb-java-client</artifactId><version>3.5.3</version><scope>test</scope></dependency>
  </dependencies>
</project>
"#,
        joda.version
    );
    std::fs::write(dir.path().join("pom.xml"), pom).unwrap();
    let allowed_elsewhere: Vec<&str> =
        MSAL_BY_ARTIFACT.iter().copied().filter(|a| *a != "rewrite-joda").collect();
    let output = check(&dir.path().join("pom.xml"), &allowed_elsewhere);
    let log = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success(), "the check passed a forbidden licence:\n{log}");
    assert!(log.contains("There are some forbidden licenses used"), "{log}");
    for licence in ["License: 'LGPL-2.1-or-later'", "License: 'Moderne Source Available License'"] {
        assert!(log.contains(licence), "{licence} is not reported:\n{log}");
    }
}

fn assert_passed(output: &Output, pom: &str) {
    let log = String::from_utf8_lossy(&output.stdout);
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{pom}: a dependency's licence is not allowed (tests/licenses.rs, docs/licensing.md):\n{}\n{errors}",
        relevant(&log)
    );
}

/// The plugin's warnings and errors, not Maven's download noise.
fn relevant(log: &str) -> String {
    log.lines()
        .filter(|l| l.starts_with("[WARNING]") || l.starts_with("[ERROR]") || l.starts_with(" -"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `add-third-party` on a copy of `pom` (so nothing is written into the repository) with the
/// pinned versions and the allow-list; the MSAL modules named in `msal_allowed` get
/// [`MSAL_ALLOWED_NAME`] through the plugin's override file, which is keyed by exact coordinates.
fn check(pom: &Path, msal_allowed: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(pom, dir.path().join("pom.xml")).unwrap();
    let merges = dir.path().join("license-merges.txt");
    std::fs::write(&merges, MERGES.join("\n") + "\n").unwrap();
    let overrides = dir.path().join("override-THIRD-PARTY.properties");
    let lines: Vec<String> = MODULES
        .iter()
        .filter(|m| msal_allowed.contains(&m.artifact))
        .map(|m| format!("{}--{}--{}={}", m.group, m.artifact, m.version, MSAL_ALLOWED_NAME))
        .collect();
    std::fs::write(&overrides, lines.join("\n") + "\n").unwrap();
    let mut allowed: Vec<&str> = ALLOWED.to_vec();
    allowed.push(MSAL_ALLOWED_NAME);

    let mut command = Command::new(std::env::var("REWRITE_ASSIST_MVN").unwrap_or_else(|_| "mvn".into()));
    command.current_dir(dir.path()).args(["-B", "--no-transfer-progress"]);
    // As for the runner's own build: Maven itself would look in the passwd entry's home.
    if let Some(home) = std::env::var_os("HOME") {
        let settings = Path::new(&home).join(".m2/settings.xml");
        if settings.is_file() {
            command.arg("--settings").arg(settings);
        }
    }
    command
        .args(version_properties(&Versions::default()))
        .arg(format!("{PLUGIN}:add-third-party"))
        .args([
            "-Dlicense.failOnMissing=true",
            "-Dlicense.failOnBlacklist=true",
            "-Dlicense.force=true",
            // Dependencies published without a licence file of their own are not looked up in the
            // repositories' `third-party` files: what the POMs say is what counts.
            "-Dlicense.useRepositoryMissingFiles=false",
        ])
        .arg(format!("-Dlicense.includedLicenses={}", allowed.join("|")))
        .arg(format!("-Dlicense.licenseMergesUrl={}", file_url(&merges)))
        .arg(format!("-Dlicense.overrideUrl={}", file_url(&overrides)));
    command.output().unwrap_or_else(|e| panic!("cannot run Maven ({e}); scripts/setup installs it"))
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}
