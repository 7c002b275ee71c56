//! Declarative OpenRewrite recipes (`rewrite.yml`): reading and checking a user's file before a run,
//! and writing the ones the pipeline composes.
//!
//! Written YAML quotes every scalar option value: unquoted, `newVersion: 3.10` would reach
//! OpenRewrite as the number 3.1. Booleans are quoted too (`recursive: "true"`): OpenRewrite's
//! Jackson mapper reads them back as booleans.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The `type` of a recipe document.
pub(crate) const RECIPE_TYPE: &str = "specs.openrewrite.org/v1beta/recipe";

/// One recipe in a `recipeList`, with its options (empty for recipes without options).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RecipeStep {
    /// Fully qualified recipe name, e.g. `org.openrewrite.java.ChangePackage`.
    pub name: String,
    /// Option values by option name, as written under the recipe in `recipeList`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, OptionValue>,
}

impl RecipeStep {
    /// A step of recipe `name`, without options.
    pub fn new(name: impl Into<String>) -> Self {
        RecipeStep { name: name.into(), options: BTreeMap::new() }
    }

    /// Adds a string option (builder style).
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Self {
        self.options.insert(key.to_string(), OptionValue::Text(value.into()));
        self
    }

    /// Adds a boolean option (builder style).
    pub fn with_bool(mut self, key: &str, value: bool) -> Self {
        self.options.insert(key.to_string(), OptionValue::Bool(value));
        self
    }

    /// Adds a list option (builder style).
    pub fn with_list(mut self, key: &str, items: Vec<String>) -> Self {
        self.options.insert(key.to_string(), OptionValue::List(items));
        self
    }

    /// Option `key` as text; empty when the step does not set it.
    pub fn text(&self, key: &str) -> String {
        self.options.get(key).map(OptionValue::as_text).unwrap_or_default()
    }

    /// `name` plus sorted options: two steps with the same signature do the same thing.
    pub fn signature(&self) -> String {
        let mut s = self.name.clone();
        for (k, v) in &self.options {
            let _ = write!(s, " {k}={}", v.as_text());
        }
        s
    }
}

/// An option value. Booleans are kept apart from text so the recipe reads naturally in code; both
/// are written as quoted scalars.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum OptionValue {
    /// A boolean, e.g. `true`.
    Bool(bool),
    /// A string.
    Text(String),
    /// A list of strings.
    List(Vec<String>),
}

impl OptionValue {
    /// The value as one string: a list joined by commas.
    pub fn as_text(&self) -> String {
        match self {
            OptionValue::Bool(b) => b.to_string(),
            OptionValue::Text(t) => t.clone(),
            OptionValue::List(items) => items.join(","),
        }
    }
}

/// A declarative recipe document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DeclarativeRecipe {
    /// Fully qualified name of the declarative recipe, e.g. `rewriteassist.Option1Wide`.
    pub name: String,
    /// Human-readable title (`displayName` in the YAML).
    pub display_name: String,
    /// `description` in the YAML: what the recipe does.
    pub description: String,
    /// Recipes that must match a source file before `recipe_list` runs on it (e.g.
    /// `org.openrewrite.FindSourceFiles` to scope the list to some files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preconditions: Vec<RecipeStep>,
    /// The recipes it runs, in order (`recipeList`).
    pub recipe_list: Vec<RecipeStep>,
}

impl DeclarativeRecipe {
    /// Renders the recipe as one YAML document, every scalar quoted.
    pub fn to_yaml(&self) -> String {
        let mut out = String::new();
        out.push_str("---\n");
        let _ = writeln!(out, "type: {RECIPE_TYPE}");
        let _ = writeln!(out, "name: {}", quote(&self.name));
        let _ = writeln!(out, "displayName: {}", quote(&self.display_name));
        let _ = writeln!(out, "description: {}", quote(&self.description));
        if !self.preconditions.is_empty() {
            out.push_str("preconditions:\n");
            write_steps(&mut out, &self.preconditions);
        }
        out.push_str("recipeList:\n");
        write_steps(&mut out, &self.recipe_list);
        out
    }
}

fn write_steps(out: &mut String, steps: &[RecipeStep]) {
    for step in steps {
        if step.options.is_empty() {
            let _ = writeln!(out, "  - {}", step.name);
            continue;
        }
        let _ = writeln!(out, "  - {}:", step.name);
        for (key, value) in &step.options {
            match value {
                OptionValue::Bool(b) => {
                    let _ = writeln!(out, "      {key}: \"{b}\"");
                }
                OptionValue::Text(text) => {
                    let _ = writeln!(out, "      {key}: {}", quote(text));
                }
                OptionValue::List(items) => {
                    let _ = writeln!(out, "      {key}:");
                    for item in items {
                        let _ = writeln!(out, "        - {}", quote(item));
                    }
                }
            }
        }
    }
}

/// A YAML double-quoted scalar.
pub(crate) fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // YAML 1.1 (SnakeYAML, which OpenRewrite uses) folds these as line breaks...
            '\u{85}' => out.push_str("\\N"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            // ...and rejects these unescaped (outside its printable set).
            '\u{feff}' => out.push_str("\\uFEFF"),
            '\u{fffe}' => out.push_str("\\uFFFE"),
            '\u{ffff}' => out.push_str("\\uFFFF"),
            c if (c as u32) < 0x20 || (0x7f..=0x9f).contains(&(c as u32)) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What a recipe file defines, as far as running it is concerned.
#[derive(Debug, Clone, PartialEq)]
pub struct RecipeFile {
    /// Recipes defined in the file (documents of type [`RECIPE_TYPE`]), in file order.
    pub recipes: Vec<DefinedRecipe>,
}

/// One recipe document of a recipe file.
#[derive(Debug, Clone, PartialEq)]
pub struct DefinedRecipe {
    /// Its `name`.
    pub name: String,
    /// Its `displayName`; empty when missing.
    pub display_name: String,
    /// Its `description`; empty when missing.
    pub description: String,
    /// Its `preconditions`.
    pub preconditions: Vec<RecipeStep>,
    /// Its `recipeList`, in order.
    pub steps: Vec<RecipeStep>,
}

impl DefinedRecipe {
    /// The recipe as a document to write again.
    pub fn to_declarative(&self) -> DeclarativeRecipe {
        DeclarativeRecipe {
            name: self.name.clone(),
            display_name: self.display_name.clone(),
            description: self.description.clone(),
            preconditions: self.preconditions.clone(),
            recipe_list: self.steps.clone(),
        }
    }
}

/// Why a recipe file cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecipeFileError {
    /// The text does not parse as YAML.
    #[error("not valid YAML: {0}")]
    Yaml(String),
    /// Document number (1-based) is not a well-shaped recipe, and why.
    #[error("document {0}: {1}")]
    Document(usize, String),
    /// No document defines a recipe.
    #[error("no recipe defined (a document with `type: {RECIPE_TYPE}` and a `name`)")]
    NoRecipe,
    /// The file is over a size, depth or step limit.
    #[error(transparent)]
    Limit(#[from] super::yaml_limits::LimitError),
}

impl RecipeFile {
    /// Parses and checks every document: well-formed YAML, recipe documents with a name and a
    /// well-shaped `recipeList`. Other document types (styles, categories) are allowed and ignored.
    pub fn parse(text: &str) -> Result<RecipeFile, RecipeFileError> {
        super::yaml_limits::check(text)?;
        let mut recipes = Vec::new();
        let mut seen = HashSet::new();
        for (index, value) in
            super::yaml::documents(text).map_err(RecipeFileError::Yaml)?.into_iter().enumerate()
        {
            let number = index + 1;
            let map = match value {
                Value::Null => continue,
                Value::Object(map) => map,
                _ => return Err(RecipeFileError::Document(number, "is not a mapping".into())),
            };
            let doc_type = map.get("type").and_then(|v| v.as_str()).unwrap_or("");
            if doc_type.is_empty() {
                return Err(RecipeFileError::Document(number, "has no `type`".into()));
            }
            if doc_type != RECIPE_TYPE {
                continue;
            }
            let name = map.get("name").and_then(|v| v.as_str()).unwrap_or("").trim().to_string();
            if name.is_empty() {
                return Err(RecipeFileError::Document(number, "is a recipe without a `name`".into()));
            }
            // OpenRewrite would silently run only one of them.
            if !seen.insert(name.clone()) {
                return Err(RecipeFileError::Document(
                    number,
                    format!("defines recipe {name} a second time"),
                ));
            }
            let list = |key: &str| -> Result<Vec<RecipeStep>, RecipeFileError> {
                match map.get(key) {
                    None | Some(Value::Null) => Ok(Vec::new()),
                    Some(Value::Array(items)) => items
                        .iter()
                        .map(step_of)
                        .collect::<Result<_, _>>()
                        .map_err(|e| RecipeFileError::Document(number, format!("recipe {name}: {e}"))),
                    Some(_) => Err(RecipeFileError::Document(
                        number,
                        format!("recipe {name}: `{key}` is not a list"),
                    )),
                }
            };
            let text = |key: &str| map.get(key).and_then(|v| v.as_str()).unwrap_or("").to_string();
            recipes.push(DefinedRecipe {
                display_name: text("displayName"),
                description: text("description"),
                preconditions: list("preconditions")?,
                steps: list("recipeList")?,
                name,
            });
        }
        if recipes.is_empty() {
            return Err(RecipeFileError::NoRecipe);
        }
        let steps: usize = recipes.iter().map(|r| r.steps.len() + r.preconditions.len()).sum();
        if steps > super::yaml_limits::MAX_STEPS {
            return Err(super::yaml_limits::LimitError::Steps(steps).into());
        }
        Ok(RecipeFile { recipes })
    }

    /// The names of the recipes the file defines, in file order.
    pub fn names(&self) -> Vec<&str> {
        self.recipes.iter().map(|r| r.name.as_str()).collect()
    }

    /// The recipe the file defines under `name`.
    pub fn get(&self, name: &str) -> Option<&DefinedRecipe> {
        self.recipes.iter().find(|r| r.name == name)
    }

    /// `name` and the recipes of this file it runs (recursively), in file order: what must travel
    /// together when the recipe is copied elsewhere.
    pub fn family(&self, name: &str) -> Vec<&DefinedRecipe> {
        let defined = self.by_name();
        let mut wanted: HashSet<&str> = HashSet::from([name]);
        let mut queue = vec![name];
        while let Some(next) = queue.pop() {
            for step in defined.get(next).map_or(&[][..], |r| &r.steps[..]) {
                if defined.contains_key(step.name.as_str()) && wanted.insert(&step.name) {
                    queue.push(&step.name);
                }
            }
        }
        self.recipes.iter().filter(|r| wanted.contains(r.name.as_str())).collect()
    }

    /// The recipes no other recipe of this file runs: the one to run, when it is alone (our own
    /// files define a recipe and the wrappers that keep some of its steps to files or modules).
    pub fn roots(&self) -> Vec<&str> {
        let used: HashSet<&str> = self
            .recipes
            .iter()
            .flat_map(|r| r.steps.iter().chain(&r.preconditions))
            .map(|step| step.name.as_str())
            .collect();
        self.names().into_iter().filter(|name| !used.contains(name)).collect()
    }

    /// The recipes this file defines, by name (names are unique, see [`Self::parse`]).
    fn by_name(&self) -> HashMap<&str, &DefinedRecipe> {
        self.recipes.iter().map(|r| (r.name.as_str(), r)).collect()
    }

    /// Every recipe the named recipe runs that this file does not define itself (following
    /// recipes defined in the file), deduplicated, in order of first use.
    pub fn external_steps(&self, name: &str) -> Vec<&RecipeStep> {
        let defined = self.by_name();
        let mut out: Vec<&RecipeStep> = Vec::new();
        let mut signatures = HashSet::new();
        let mut visited: HashSet<&str> = HashSet::from([name]);
        // Depth first in file order, without recursion: a file may nest recipes deeply.
        let mut stack: Vec<std::slice::Iter<'_, RecipeStep>> =
            defined.get(name).map(|r| r.steps.iter()).into_iter().collect();
        while let Some(top) = stack.last_mut() {
            let Some(step) = top.next() else {
                stack.pop();
                continue;
            };
            match defined.get(step.name.as_str()) {
                Some(recipe) => {
                    if visited.insert(&step.name) {
                        stack.push(recipe.steps.iter());
                    }
                }
                None => {
                    if signatures.insert(step.signature()) {
                        out.push(step);
                    }
                }
            }
        }
        out
    }
}

/// A `recipeList` entry that is not a step, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
struct BadStep(String);

fn step_of(item: &Value) -> Result<RecipeStep, BadStep> {
    let bad = |why: &str| BadStep(why.to_string());
    match item {
        Value::String(name) => Ok(RecipeStep::new(name.trim())),
        Value::Object(map) if map.len() == 1 => {
            let (key, value) = map.iter().next().ok_or_else(|| bad("empty entry"))?;
            let name = key.trim();
            let mut step = RecipeStep::new(name);
            match value {
                Value::Null => {}
                Value::Object(options) => {
                    for (key, v) in options {
                        step.options.insert(key.to_string(), option_value(v));
                    }
                }
                _ => return Err(bad(&format!("{name}: options must be a mapping"))),
            }
            Ok(step)
        }
        _ => Err(bad("a recipeList entry must be a recipe name or `Name: {options}`")),
    }
}

fn option_value(value: &Value) -> OptionValue {
    match value {
        Value::Bool(b) => OptionValue::Bool(*b),
        Value::String(s) => OptionValue::Text(s.clone()),
        Value::Number(n) => OptionValue::Text(n.to_string()),
        Value::Array(items) => OptionValue::List(
            items.iter().map(|i| i.as_str().map(str::to_string).unwrap_or_else(|| scalar_text(i))).collect(),
        ),
        other => OptionValue::Text(scalar_text(other)),
    }
}

fn scalar_text(value: &Value) -> String {
    super::yaml::to_string(value).map(|s| s.trim().to_string()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openrewrite::recipe_names::{CHANGE_PACKAGE, MAVEN_UPGRADE_DEPENDENCY_VERSION};

    const TWO: &str = r#"
---
type: specs.openrewrite.org/v1beta/recipe
name: com.example.Outer
recipeList:
  - com.example.Inner
  - org.openrewrite.java.migrate.UpgradeToJava17
---
type: specs.openrewrite.org/v1beta/style
name: com.example.Style
---
type: specs.openrewrite.org/v1beta/recipe
name: com.example.Inner
recipeList:
  - org.openrewrite.java.ChangePackage:
      oldPackageName: javax.persistence
      newPackageName: jakarta.persistence
      recursive: true
  - org.openrewrite.maven.UpgradeDependencyVersion:
      groupId: org.example
      artifactId: lib
      newVersion: 3.10
"#;

    #[test]
    fn parses_recipes_and_follows_local_composites() {
        let file = RecipeFile::parse(TWO).unwrap();
        assert_eq!(file.names(), vec!["com.example.Outer", "com.example.Inner"]);
        let steps = file.external_steps("com.example.Outer");
        let names: Vec<_> = steps.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            vec![
                "org.openrewrite.java.ChangePackage",
                "org.openrewrite.maven.UpgradeDependencyVersion",
                "org.openrewrite.java.migrate.UpgradeToJava17"
            ]
        );
        assert_eq!(steps[0].options["recursive"], OptionValue::Bool(true));
        // Unquoted 3.10 already lost its trailing zero in YAML: this is why we quote what we write.
        assert_eq!(steps[1].options["newVersion"], OptionValue::Text("3.1".into()));
    }

    #[test]
    fn rejects_what_cannot_run() {
        assert!(matches!(RecipeFile::parse("a: [unclosed"), Err(RecipeFileError::Yaml(_))));
        assert_eq!(
            RecipeFile::parse("type: specs.openrewrite.org/v1beta/style\nname: x\n"),
            Err(RecipeFileError::NoRecipe)
        );
        assert!(matches!(
            RecipeFile::parse("type: specs.openrewrite.org/v1beta/recipe\nrecipeList: []\n"),
            Err(RecipeFileError::Document(1, _))
        ));
        assert!(matches!(RecipeFile::parse("name: x\n"), Err(RecipeFileError::Document(1, _))));
        assert!(matches!(
            RecipeFile::parse("type: specs.openrewrite.org/v1beta/recipe\nname: x\nrecipeList: nope\n"),
            Err(RecipeFileError::Document(1, _))
        ));
        assert_eq!(RecipeFile::parse(""), Err(RecipeFileError::NoRecipe));
        let twice = "type: specs.openrewrite.org/v1beta/recipe\nname: x\n---\ntype: specs.openrewrite.org/v1beta/recipe\nname: x\n";
        assert!(matches!(RecipeFile::parse(twice), Err(RecipeFileError::Document(2, _))));
    }

    #[test]
    fn quoting_survives_characters_yaml_treats_specially() {
        for text in [
            "a\u{85}b",
            "line\u{2028}sep",
            "par\u{2029}sep",
            "\u{feff}bom",
            "del\u{7f}",
            "c1\u{9b}",
            "tab\tq\"\\",
        ] {
            let back: String = super::super::yaml::from_str(&quote(text)).unwrap();
            assert_eq!(back, text);
            assert!(
                !quote(text).contains(['\u{85}', '\u{2028}', '\u{2029}', '\u{feff}', '\u{7f}']),
                "{text:?}"
            );
        }
    }

    #[test]
    fn written_yaml_quotes_scalars_and_reads_back() {
        let recipe = DeclarativeRecipe {
            preconditions: vec![],
            name: "com.example.Option2".into(),
            display_name: "Option 2: narrow".into(),
            description: "Say \"hi\"\nthen go".into(),
            recipe_list: vec![
                RecipeStep::new(MAVEN_UPGRADE_DEPENDENCY_VERSION)
                    .with("groupId", "org.example")
                    .with("artifactId", "lib")
                    .with("newVersion", "3.10"),
                RecipeStep::new(CHANGE_PACKAGE)
                    .with("oldPackageName", "javax.persistence")
                    .with("newPackageName", "jakarta.persistence")
                    .with_bool("recursive", true),
                RecipeStep::new("org.openrewrite.java.migrate.UpgradeToJava17"),
            ],
        };
        let yaml = recipe.to_yaml();
        assert!(yaml.contains("      newVersion: \"3.10\"\n"), "{yaml}");
        assert!(yaml.contains("      recursive: \"true\"\n"), "{yaml}");
        let back = RecipeFile::parse(&yaml).unwrap();
        assert_eq!(back.recipes[0].name, "com.example.Option2");
        let signatures = |steps: &[RecipeStep]| steps.iter().map(RecipeStep::signature).collect::<Vec<_>>();
        assert_eq!(signatures(&back.recipes[0].steps), signatures(&recipe.recipe_list));
    }
}
