//! A candidate recipe (option 1 wide, 2 narrow, 3 synthesized) and why each step is in it.

use serde::{Deserialize, Serialize};

use super::OptionId;
use crate::openrewrite::{DeclarativeRecipe, RecipeStep};

/// How an option's recipe was composed (`strategy` in the JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Broad catalog recipes matching the strategic and tactical intents.
    Wide,
    /// One targeted recipe per atomic intent, with exact options.
    Narrow,
    /// Built from what validation showed about options 1 and 2.
    Synthesized,
    /// The recommended recipe generalized for other repositories (not a candidate).
    Reusable,
}

impl Strategy {
    /// The strategy as the JSON and the recipe names spell it.
    pub fn label(self) -> &'static str {
        match self {
            Strategy::Wide => "wide",
            Strategy::Narrow => "narrow",
            Strategy::Synthesized => "synthesized",
            Strategy::Reusable => "reusable",
        }
    }
}

/// One recipe of an option and its provenance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PlannedStep {
    /// The OpenRewrite recipe and its options, as written in the recipe YAML.
    pub step: RecipeStep,
    /// False for plain-text recipes (`text.FindAndReplace`): they work, but know nothing of the
    /// code's structure.
    pub semantic: bool,
    /// A recipe learned from this PR's own edits (a Refaster template compiled into a recipe jar):
    /// semantic, but from no catalog. Wherever it runs, its jar must be on the classpath.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub learned: bool,
    /// Ids of the intents this step implements.
    pub intents: Vec<String>,
    /// Why the step is there, for `option-N-creation-analysis.md`.
    pub reason: String,
    /// Files (globs) the step is restricted to, through a precondition; empty = everywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scope: Vec<String>,
    /// The step works on what the step before it made (one change mapped to a chain, such as a
    /// method renamed on the type the previous step moved its calls to): alone it changes nothing,
    /// so it is kept or dropped with that step, never judged by itself.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub after_previous: bool,
    /// The step applies to code the migration already made (JUnit 5's best practices need
    /// Jupiter's `@Test`): discovery found it on the migrated trees, so it runs after the option's
    /// other semantic steps.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub after_migration: bool,
    /// A precondition that keeps the step to the modules its migration is about (the catalog's
    /// Spring Boot upgrade only where a module depends on Spring Boot); None = everywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<RecipeStep>,
}

impl PlannedStep {
    /// A step with no scope, guard or ordering constraint.
    pub fn new(step: RecipeStep, semantic: bool, intents: Vec<String>, reason: impl Into<String>) -> Self {
        PlannedStep {
            step,
            semantic,
            learned: false,
            intents,
            reason: reason.into(),
            scope: Vec::new(),
            after_previous: false,
            after_migration: false,
            guard: None,
        }
    }

    /// Whether the step runs inside a wrapper recipe whose preconditions restrict it (to its
    /// files, to the modules its migration is about).
    pub(crate) fn wrapped(&self) -> bool {
        !self.scope.is_empty() || self.guard.is_some()
    }

    /// The step's recipe and options, plus its scope: what makes two steps do the same thing.
    pub fn signature(&self) -> String {
        let mut signature = self.step.signature();
        if !self.scope.is_empty() {
            signature = format!("{signature} @{}", self.scope.join(";"));
        }
        if let Some(guard) = &self.guard {
            signature = format!("{signature} if {}", guard.signature());
        }
        signature
    }
}

/// A candidate recipe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CandidateOption {
    /// Which option this is (1 wide, 2 narrow, 3 refined, …).
    pub number: OptionId,
    /// How its steps were chosen.
    pub strategy: Strategy,
    /// What the PR does, in a reviewer's words ("Upgrade Java 11 -> 17; Migrate javax -> jakarta").
    #[serde(default)]
    pub purpose: String,
    /// The recipes of the option, in the order they run.
    pub steps: Vec<PlannedStep>,
    /// Notes for the creation analysis: intents left uncovered, recipes rejected and why.
    pub notes: Vec<String>,
}

impl CandidateOption {
    /// An option with no steps or notes yet; its strategy follows from its number.
    pub fn new(number: OptionId, purpose: impl Into<String>) -> Self {
        let strategy = number.strategy();
        CandidateOption { number, strategy, purpose: purpose.into(), steps: Vec::new(), notes: Vec::new() }
    }

    /// The option's declarative recipe name, e.g. `rewriteassist.Option1Wide`.
    pub fn recipe_name(&self) -> String {
        format!("rewriteassist.Option{}{}", self.number, capitalized(self.strategy.label()))
    }

    /// The name of the wrapper recipe that scopes step `index` (0-based) to its files.
    pub fn scoped_name(&self, index: usize) -> String {
        format!("{}.Scoped{}", self.recipe_name(), index + 1)
    }

    /// The name under which OpenRewrite reports step `index` as a top-level recipe.
    pub fn reported_name(&self, index: usize) -> String {
        match self.steps.get(index) {
            Some(step) if step.wrapped() => self.scoped_name(index),
            Some(step) => step.step.name.clone(),
            None => String::new(),
        }
    }

    /// The option's recipe file: the main recipe, then one wrapper recipe per wrapped step (a
    /// `FindSourceFiles` precondition restricts it to its files, its guard to its modules).
    pub fn to_yaml(&self) -> String {
        let mut out = self.recipe().to_yaml();
        for (index, planned) in self.steps.iter().enumerate().filter(|(_, s)| s.wrapped()) {
            out.push_str(&wrapper(self.scoped_name(index), planned).to_yaml());
        }
        out
    }

    /// The main recipe document (scoped steps appear as their wrapper's name).
    pub(crate) fn recipe(&self) -> DeclarativeRecipe {
        DeclarativeRecipe {
            preconditions: Vec::new(),
            name: self.recipe_name(),
            display_name: if self.purpose.is_empty() {
                format!(
                    "Option {}: {} recipe generated by rewrite-assist",
                    self.number,
                    self.strategy.label()
                )
            } else {
                format!("{} (option {}, {})", self.purpose, self.number, self.strategy.label())
            },
            description: format!(
                "Reproduces the pull request's migration ({} strategy, {} recipe{}). Generated and validated by rewrite-assist.",
                self.strategy.label(),
                self.steps.len(),
                super::plural(self.steps.len())
            ),
            recipe_list: self
                .steps
                .iter()
                .enumerate()
                .map(|(i, s)| if s.wrapped() { RecipeStep::new(self.scoped_name(i)) } else { s.step.clone() })
                .collect(),
        }
    }

    /// Sorted step signatures: two options with the same signature run the same recipes.
    pub fn signature(&self) -> Vec<String> {
        let mut sig: Vec<String> = self.steps.iter().map(PlannedStep::signature).collect();
        sig.sort();
        sig
    }

    /// How many of its steps are semantic (not plain text).
    pub fn semantic_steps(&self) -> usize {
        self.steps.iter().filter(|s| s.semantic).count()
    }
}

/// The recipe that runs `planned` under its preconditions, named `name`.
fn wrapper(name: String, planned: &PlannedStep) -> DeclarativeRecipe {
    let short = crate::openrewrite::simple_name(&planned.step.name);
    let mut preconditions = Vec::new();
    let mut display_name = short.to_string();
    let mut description = String::from("One step of the recipe above");
    if !planned.scope.is_empty() {
        preconditions.push(
            RecipeStep::new(crate::openrewrite::recipe_names::FIND_SOURCE_FILES)
                .with("filePattern", planned.scope.join(";")),
        );
        display_name = format!("{display_name} in {}", planned.scope.join(", "));
        description.push_str(", restricted to the files where it reproduces the pull request");
    }
    if let Some(guard) = &planned.guard {
        preconditions.push(guard.clone());
        display_name = format!("{display_name} where {}", crate::openrewrite::simple_name(&guard.name));
        description.push_str(", only in the modules its migration is about");
    }
    description.push('.');
    DeclarativeRecipe {
        name,
        display_name,
        description,
        preconditions,
        recipe_list: vec![planned.step.clone()],
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openrewrite::RecipeFile;
    use crate::openrewrite::recipe_names::CHANGE_TYPE;

    #[test]
    fn scoped_steps_become_wrapper_recipes_with_a_precondition() {
        let change_type = RecipeStep::new(CHANGE_TYPE)
            .with("oldFullyQualifiedTypeName", "java.util.List")
            .with("newFullyQualifiedTypeName", "java.util.Set");
        let mut scoped = PlannedStep::new(change_type.clone(), true, vec!["1".into()], "why");
        scoped.scope = vec!["src/A.java".into()];
        let plain = PlannedStep::new(
            RecipeStep::new("org.openrewrite.java.migrate.UpgradeToJava17"),
            true,
            vec![],
            "why",
        );
        let option = CandidateOption {
            steps: vec![plain, scoped],
            ..CandidateOption::new(OptionId::Synthesized, "Use sets")
        };

        assert_eq!(option.reported_name(0), "org.openrewrite.java.migrate.UpgradeToJava17");
        assert_eq!(option.reported_name(1), "rewriteassist.Option3Synthesized.Scoped2");
        let yaml = option.to_yaml();
        let file = RecipeFile::parse(&yaml).unwrap();
        assert_eq!(
            file.names(),
            vec!["rewriteassist.Option3Synthesized", "rewriteassist.Option3Synthesized.Scoped2"]
        );
        let steps: Vec<String> =
            file.external_steps(&option.recipe_name()).iter().map(|s| s.signature()).collect();
        assert_eq!(
            steps,
            vec!["org.openrewrite.java.migrate.UpgradeToJava17".to_string(), change_type.signature()]
        );
        assert!(
            yaml.contains(
                "preconditions:\n  - org.openrewrite.FindSourceFiles:\n      filePattern: \"src/A.java\""
            ),
            "{yaml}"
        );
        assert!(yaml.contains("displayName: \"Use sets (option 3, synthesized)\""), "{yaml}");
        // The scope is part of what the step does.
        assert_ne!(option.steps[1].signature(), change_type.signature());
    }

    #[test]
    fn option_numbers_are_the_five_known_ones_and_stay_numbers_in_json() {
        let option = CandidateOption::new(OptionId::Synthesized, "Use sets");
        let json = serde_json::to_value(&option).unwrap();
        assert_eq!(json["number"], serde_json::json!(3));
        let back: CandidateOption = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, option);
        let mut unknown = json;
        unknown["number"] = serde_json::json!(9);
        assert!(serde_json::from_value::<CandidateOption>(unknown).is_err(), "option 9 does not exist");
    }
}
