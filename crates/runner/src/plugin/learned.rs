//! Recipes learned from a PR, for the plugin backend (#39): the build plugins load a recipe jar
//! only from a repository, so the learned jar and its POM (written side by side,
//! `artifact-version.jar` and `.pom`) are installed into the local repository the plugin's Maven
//! reads, and the caller names its coordinates among the recipe artifacts.

use std::path::Path;

use anyhow::{Result, bail};

use crate::process;

/// `mvn install:install-file` of `jar` and the POM beside it, with the user's settings (their
/// local repository is the one the plugin's runs read).
pub fn install(jar: &Path) -> Result<()> {
    let pom = jar.with_extension("pom");
    for file in [jar, pom.as_path()] {
        if !file.is_file() {
            bail!("the learned recipe jar cannot be installed: {} is missing", file.display());
        }
    }
    let output = process::maven::command(&process::maven::executable())
        .args(["-B", "-q", "--no-transfer-progress", "install:install-file"])
        .arg(format!("-Dfile={}", jar.display()))
        .arg(format!("-DpomFile={}", pom.display()))
        .output()
        .map_err(|e| anyhow::anyhow!("installing the learned recipe jar: cannot start Maven: {e}"))?;
    if !output.status.success() {
        let log = String::from_utf8_lossy(&output.stdout);
        let last: Vec<&str> = log.lines().rev().take(5).collect();
        bail!(
            "installing the learned recipe jar {} failed: {}",
            jar.display(),
            last.into_iter().rev().collect::<Vec<_>>().join(" / ")
        );
    }
    Ok(())
}
