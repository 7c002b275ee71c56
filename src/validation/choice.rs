//! Which backend validates recipes (`--backend`, action input `backend`).

use serde::{Deserialize, Serialize};

/// The environment variable behind `--backend`.
pub(crate) const BACKEND_ENV: &str = "REWRITE_ASSIST_BACKEND";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub(crate) enum BackendChoice {
    /// Our runner on OpenRewrite's libraries: parses once, needs no build of the project, runs no
    /// code of it.
    Embedded,
    /// The project's own build tool with the rewrite plugin (what users run).
    Plugin,
    /// Explore with the embedded runner (falling back to the plugin when the runner cannot
    /// start), then confirm the recommended recipe once with the plugin where the build resolves.
    #[default]
    Auto,
}

impl BackendChoice {
    pub(crate) fn label(self) -> &'static str {
        match self {
            BackendChoice::Embedded => "embedded",
            BackendChoice::Plugin => "plugin",
            BackendChoice::Auto => "auto",
        }
    }

    /// Whether options are validated by the embedded runner first.
    pub(crate) fn explores_embedded(self) -> bool {
        self != BackendChoice::Plugin
    }
}

/// The environment variable behind `--trust-build-config`.
pub(crate) const TRUST_BUILD_CONFIG_ENV: &str = "REWRITE_ASSIST_TRUST_BUILD_CONFIG";
