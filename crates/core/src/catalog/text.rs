//! Which of the catalog's text ships in the binary, and how the rest comes back. The Moderne Source
//! Available License forbids redistributing its modules, so the embedded snapshot carries, for them,
//! only what names their recipes ([`strip`]); their display names, descriptions, tags and option
//! descriptions are read from the user's own copies of the jars and put back ([`enrich`]).

use std::collections::{BTreeSet, HashMap};

use super::snapshot::{ModuleText, Snapshot};
use crate::model::RecipeDescriptor;
use crate::openrewrite::versions::APACHE_2;

/// The licences whose recipe text the binary may carry: Apache-2.0, ours. Any other licence,
/// today's MSAL or one a module moves to, ships names only until someone decides otherwise.
const TEXT_SHIPS_UNDER: &[&str] = &[APACHE_2];

pub(crate) fn text_ships(licence: &str) -> bool {
    TEXT_SHIPS_UNDER.contains(&licence)
}

/// `snapshot` as the binary may carry it: the modules whose licence is not in [`TEXT_SHIPS_UNDER`]
/// keep names, option names, types and valid values, members, module and licence only.
pub fn strip(snapshot: &Snapshot) -> Snapshot {
    let mut stripped = snapshot.clone();
    for module in stripped.modules.iter_mut().filter(|m| !text_ships(&m.licence)) {
        module.text = ModuleText::NamesOnly;
    }
    let names_only = names_only(&stripped);
    for recipe in stripped.recipes.iter_mut().filter(|r| names_only.contains(&r.module)) {
        recipe.display_name.clear();
        recipe.description.clear();
        recipe.tags.clear();
        for option in &mut recipe.options {
            option.description = None;
            option.example = None;
        }
    }
    stripped
}

/// `stripped` with the text of its names-only modules lent by `source` (a snapshot generated from
/// the user's jars), recipe by recipe and option by option, matched by name. Everything else stays
/// `stripped`'s, so the result never depends on what else `source` holds. A module becomes
/// [`ModuleText::Full`] when `source` had every one of its recipes.
pub(crate) fn enrich(stripped: &Snapshot, source: &Snapshot) -> Snapshot {
    let lenders: HashMap<&str, &RecipeDescriptor> =
        source.recipes.iter().map(|r| (r.name.as_str(), r)).collect();
    let names_only = names_only(stripped);
    let mut enriched = stripped.clone();
    let mut missing: BTreeSet<String> = BTreeSet::new();
    for recipe in enriched.recipes.iter_mut().filter(|r| names_only.contains(&r.module)) {
        match lenders.get(recipe.name.as_str()) {
            Some(lender) => lend_text(recipe, lender),
            None => {
                missing.insert(recipe.module.clone());
            }
        }
    }
    for module in enriched.modules.iter_mut().filter(|m| names_only.contains(&m.module)) {
        if !missing.contains(&module.module) {
            module.text = ModuleText::Full;
        }
    }
    enriched
}

fn lend_text(recipe: &mut RecipeDescriptor, lender: &RecipeDescriptor) {
    recipe.display_name.clone_from(&lender.display_name);
    recipe.description.clone_from(&lender.description);
    recipe.tags.clone_from(&lender.tags);
    for option in &mut recipe.options {
        if let Some(lent) = lender.options.iter().find(|o| o.name == option.name) {
            option.description.clone_from(&lent.description);
            option.example.clone_from(&lent.example);
        }
    }
}

/// The modules of `snapshot` whose text it lacks.
pub(crate) fn names_only(snapshot: &Snapshot) -> BTreeSet<String> {
    snapshot.modules.iter().filter(|m| m.text == ModuleText::NamesOnly).map(|m| m.module.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::snapshot::ModuleSummary;
    use crate::model::RecipeOption;
    use crate::openrewrite::versions::MODERNE_SOURCE_AVAILABLE;

    fn module(name: &str, licence: &str, recipes: usize) -> ModuleSummary {
        ModuleSummary {
            module: name.into(),
            artifact: None,
            version: "1".into(),
            licence: licence.into(),
            recipes,
            text: ModuleText::Full,
        }
    }

    fn recipe(name: &str, module: &str, licence: &str) -> RecipeDescriptor {
        RecipeDescriptor {
            name: name.into(),
            display_name: format!("{name} shown"),
            description: format!("What {name} does."),
            tags: vec![format!("{name}-tag")],
            options: vec![RecipeOption {
                name: "version".into(),
                option_type: "String".into(),
                required: true,
                description: Some(format!("The version {name} moves to.")),
                example: Some("3.0".into()),
                valid: vec!["2.0".into(), "3.0".into()],
            }],
            members: vec!["a.Member".into()],
            artifact: None,
            module: module.into(),
            licence: licence.into(),
        }
    }

    /// One Apache-2.0 module and one MSAL module of two recipes: a full snapshot as generated.
    fn full() -> Snapshot {
        Snapshot {
            rewrite_version: "8".into(),
            modules: vec![
                module("rewrite-java", APACHE_2, 1),
                module("rewrite-spring", MODERNE_SOURCE_AVAILABLE, 2),
            ],
            excluded: Vec::new(),
            recipes: vec![
                recipe("a.Core", "rewrite-java", APACHE_2),
                recipe("b.Boot", "rewrite-spring", MODERNE_SOURCE_AVAILABLE),
                recipe("c.Boot", "rewrite-spring", MODERNE_SOURCE_AVAILABLE),
            ],
        }
    }

    #[test]
    fn stripping_keeps_names_options_and_members_of_msal_modules_and_all_of_apache_ones() {
        let full = full();
        let stripped = strip(&full);
        assert_eq!(stripped.modules[0].text, ModuleText::Full);
        assert_eq!(stripped.modules[1].text, ModuleText::NamesOnly);
        assert_eq!(stripped.recipes[0], full.recipes[0], "Apache-2.0 text ships");
        let boot = &stripped.recipes[1];
        assert_eq!((boot.display_name.as_str(), boot.description.as_str()), ("", ""));
        assert!(boot.tags.is_empty());
        let option = &boot.options[0];
        assert_eq!((&option.description, &option.example), (&None, &None));
        assert_eq!(
            (option.name.as_str(), option.option_type.as_str(), option.required, &option.valid),
            ("version", "String", true, &full.recipes[1].options[0].valid)
        );
        assert_eq!(
            (&boot.members, &boot.module, &boot.licence),
            (&full.recipes[1].members, &full.recipes[1].module, &full.recipes[1].licence)
        );
        assert_eq!(strip(&stripped), stripped, "stripping twice changes nothing");
    }

    #[test]
    fn enriching_the_stripped_snapshot_from_the_full_one_gives_exactly_the_full_one() {
        let full = full();
        assert_eq!(enrich(&strip(&full), &full), full);
    }

    /// The source lends text only: its own recipes, options and members do not come along, and a
    /// module it lacks a recipe of stays names-only.
    #[test]
    fn the_source_lends_text_only_and_a_module_it_misses_stays_names_only() {
        let stripped = strip(&full());
        let mut source = full();
        source.recipes.remove(2);
        source.recipes[1].options.push(recipe("x", "rewrite-spring", "").options[0].clone());
        source.recipes[1].options[1].name = "extra".into();
        source.recipes[1].members.push("z.Extra".into());
        source.recipes.push(recipe("d.Foreign", "rewrite-spring", MODERNE_SOURCE_AVAILABLE));
        let enriched = enrich(&stripped, &source);
        assert_eq!(enriched.modules[1].text, ModuleText::NamesOnly);
        assert_eq!(enriched.recipes.len(), 3);
        assert_eq!(enriched.recipes[1].description, "What b.Boot does.");
        assert_eq!(enriched.recipes[1].options.len(), 1);
        assert_eq!(enriched.recipes[1].members, ["a.Member"]);
        assert_eq!(enriched.recipes[2].description, "", "not in the source");
        assert_eq!(strip(&enriched), stripped, "what identifies the recipes is the stripped snapshot's");
    }
}
