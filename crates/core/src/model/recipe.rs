//! A recipe as the catalog knows it: OpenRewrite's own description of it (generated from the real
//! recipe jars, see `catalog::generate`) plus where it ships and under which licence. Read by
//! recipe mapping (search) and validation (options, classpath).

use serde::{Deserialize, Serialize};

/// One recipe of the catalog (`catalog/recipes.json.gz`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecipeDescriptor {
    /// Fully qualified, e.g. `org.openrewrite.java.ChangePackage`.
    pub name: String,
    /// OpenRewrite's display name, e.g. "Rename package name"; empty for an MSAL module until read from the user's jars.
    pub display_name: String,
    /// OpenRewrite's description; empty for an MSAL module until read from the user's jars.
    pub description: String,
    /// OpenRewrite's tags, e.g. `spring`, `junit`; empty for an MSAL module until read from the user's jars.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The options the recipe takes.
    #[serde(default)]
    pub options: Vec<RecipeOption>,
    /// Names of the recipes a composite recipe runs, in order (empty for a single recipe).
    #[serde(default)]
    pub members: Vec<String>,
    /// `group:artifact:version` to put on the recipe classpath; `None` for core recipes, which
    /// both build plugins bundle.
    pub artifact: Option<String>,
    /// The module's artifact id, e.g. `rewrite-spring` or `rewrite-java`.
    pub module: String,
    /// The module's licence: `Apache-2.0` or `Moderne Source Available License` (MSAL).
    pub licence: String,
}

/// One option of a catalog recipe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecipeOption {
    /// The key to write in `rewrite.yml`.
    pub name: String,
    /// The Java type as OpenRewrite reports it, e.g. `String`, `Boolean`, `List`.
    #[serde(rename = "type")]
    pub option_type: String,
    /// True when a recipe step must set it.
    pub required: bool,
    /// OpenRewrite's description of the option; absent for an MSAL module until read from the user's jars.
    #[serde(default)]
    pub description: Option<String>,
    /// An example value from OpenRewrite; absent for an MSAL module until read from the user's jars.
    #[serde(default)]
    pub example: Option<String>,
    /// The only values the option accepts, when OpenRewrite restricts them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub valid: Vec<String>,
}

impl RecipeDescriptor {
    /// The part after the last dot: `ChangePackage`.
    pub(crate) fn simple_name(&self) -> &str {
        crate::openrewrite::simple_name(&self.name)
    }

    /// Core recipes need no extra artifact on the classpath.
    pub fn is_bundled(&self) -> bool {
        self.artifact.is_none()
    }
}
