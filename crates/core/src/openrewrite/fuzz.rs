//! Property tests of recipe YAML on hostile input: documents built from the pieces that stress a
//! YAML reader (flow and block nesting, quotes, block scalars, comments, anchors, several
//! documents) and plain random text. Whatever comes in, the limits and the parser return (no
//! panic), and a file that parses writes back to a file that parses to the same recipes.
//! `scripts/test` runs the default number of cases (seconds); the nightly workflow sets
//! `PROPTEST_CASES` far higher.

use proptest::prelude::*;

use super::RecipeFile;
use super::yaml_limits;

fn yaml_line() -> impl Strategy<Value = String> {
    let indent = (0usize..8).prop_map(|n| " ".repeat(n));
    let piece = prop_oneof![
        Just("type: specs.openrewrite.org/v1beta/recipe".to_string()),
        Just("name: com.example.A".to_string()),
        Just("name: com.example.B".to_string()),
        Just("recipeList:".to_string()),
        Just("preconditions:".to_string()),
        Just("- com.example.B".to_string()),
        Just("- org.openrewrite.text.FindAndReplace:".to_string()),
        Just("find: '[{'''".to_string()),
        Just("replace: \"\\\"]}\\n\"".to_string()),
        Just("- org.openrewrite.java.ChangeType: {oldFullyQualifiedTypeName: a.B, newFullyQualifiedTypeName: [c]}".to_string()),
        Just("fileContents: |".to_string()),
        Just("fileContents: >-".to_string()),
        Just("---".to_string()),
        Just("- &a x".to_string()),
        Just("- *a".to_string()),
        Just("# [[[".to_string()),
        "[\\[\\]{}\\-:'\"|>#&*! ]{0,12}",
        "[^\n]{0,20}",
    ];
    (indent, piece).prop_map(|(indent, piece)| format!("{indent}{piece}"))
}

/// Line soup: mostly not YAML, or not a recipe.
fn yaml_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(yaml_line(), 0..30).prop_map(|lines| lines.join("\n") + "\n")
}

/// An option value as people and generators write them, some of it hostile.
fn option_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9 .*]{0,10}",
        "[^\n']{0,12}".prop_map(|t| format!("'{t}'")),
        "[^\n\\\"]{0,12}".prop_map(|t| format!("\"{t}\"")),
        prop::collection::vec("[^\n]{0,12}", 1..4).prop_map(|lines| format!(
            "|\n{}",
            lines.iter().map(|l| format!("        {l}\n")).collect::<String>()
        )),
        Just("[a, [b, {c: d}]]".to_string()),
        Just("true".to_string()),
        Just("42".to_string()),
        "[^\n]{0,15}",
    ]
}

/// A recipe document: a name and steps with options.
fn recipe_document() -> impl Strategy<Value = String> {
    let step = (
        "[a-z]{1,4}\\.[A-Z][a-zA-Z]{0,6}",
        prop::collection::vec(("[a-z][a-zA-Z]{0,8}", option_value()), 0..3),
    );
    ("[a-z]{1,4}\\.[A-Z][a-z]{0,4}", prop::collection::vec(step, 0..6)).prop_map(|(name, steps)| {
        let mut doc = format!("type: specs.openrewrite.org/v1beta/recipe\nname: {name}\nrecipeList:\n");
        for (step, options) in steps {
            if options.is_empty() {
                doc.push_str(&format!("  - {step}\n"));
            } else {
                doc.push_str(&format!("  - {step}:\n"));
                for (key, value) in options {
                    let value = if value.starts_with('|') { value } else { format!("{value}\n") };
                    doc.push_str(&format!("      {key}: {value}"));
                }
            }
        }
        doc
    })
}

fn yaml_text() -> impl Strategy<Value = String> {
    prop_oneof![
        yaml_soup(),
        prop::collection::vec(recipe_document(), 1..4).prop_map(|docs| docs.join("---\n")),
    ]
}

proptest! {
    #[test]
    fn recipe_shaped_yaml_never_panics_and_round_trips(text in yaml_text()) {
        let _ = yaml_limits::check(&text);
        if let Ok(file) = RecipeFile::parse(&text) {
            let written: String = file.recipes.iter().map(|r| r.to_declarative().to_yaml()).collect();
            let again = RecipeFile::parse(&written).expect("what we write parses");
            prop_assert_eq!(again.names(), file.names());
            for (a, b) in again.recipes.iter().zip(&file.recipes) {
                let steps = |r: &super::recipe_yaml::DefinedRecipe| r.steps.iter().map(|s| s.name.clone()).collect::<Vec<_>>();
                prop_assert_eq!(steps(a), steps(b));
            }
            for name in file.names() {
                let _ = file.external_steps(name);
                let _ = file.family(name);
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = RecipeFile::parse(&text);
    }
}
