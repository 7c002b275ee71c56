//! A recipe as the catalog knows it: OpenRewrite's own description of it (generated from the real
//! recipe jars, see `catalog::generate`) plus where it ships and under which licence. Read by
//! recipe mapping (search) and validation (options, classpath).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecipeDescriptor {
    /// Fully qualified, e.g. `org.openrewrite.java.ChangePackage`.
    pub name: String,
    pub display_name: String,
    pub description: String,
    #[serde(default)]
    pub tags: Vec<String>,
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
    pub licence: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecipeOption {
    /// The key to write in `rewrite.yml`.
    pub name: String,
    /// The Java type as OpenRewrite reports it, e.g. `String`, `Boolean`, `List`.
    #[serde(rename = "type")]
    pub option_type: String,
    pub required: bool,
    #[serde(default)]
    pub description: Option<String>,
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
