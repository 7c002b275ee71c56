//! What we write in recipe files reads back the same in SnakeYAML, the YAML 1.1 parser OpenRewrite
//! loads `rewrite.yml` with (`YamlResourceLoader`: `new Yaml(new SafeConstructor(new
//! LoaderOptions()))`). A 1.1 reader takes `on`, `yes`, `0777`, `12:30` or `2001-12-14` for a
//! boolean, a number or a date when they are not quoted, and rejects some characters unless they
//! are escaped. The reader here is the real one: the SnakeYAML jar on the embedded runner's
//! classpath, run by `tests/snakeyaml/ReadBack.java`.

use std::path::Path;
use std::process::Command;

use rewrite_assist::openrewrite::{DeclarativeRecipe, OptionValue, RecipeFile, RecipeStep, Versions, yaml};
use serde_json::{Map, Value, json};

/// Strings a YAML 1.1 reader may take for something else, or refuse unescaped.
const TRICKY: &[&str] = &[
    "yes",
    "no",
    "on",
    "off",
    "y",
    "n",
    "Y",
    "True",
    "FALSE",
    "null",
    "NULL",
    "~",
    "",
    "0777",
    "0o17",
    "0x1F",
    "0b101",
    "1_000",
    "190:20:30",
    "12:30",
    "1e3",
    "6.8523015e+5",
    "-.inf",
    ".NaN",
    "3.10",
    "2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    "=",
    "<<",
    "#x",
    "x #y",
    "- a",
    "a: b",
    "a:b",
    "[a]",
    "{a}",
    "&a",
    "*a",
    "!a",
    "!!str",
    "%a",
    "@a",
    "`a",
    "|",
    "> x",
    "'q'",
    "\"dq\"",
    "back\\slash",
    "tab\tx",
    "line\nbreak",
    "cr\rx",
    " lead",
    "trail ",
    "---",
    "...",
    "\u{85}",
    "\u{2028}",
    "\u{2029}",
    "\u{feff}x",
    "\u{7}",
    "\u{1b}",
    "\u{7f}",
    "\u{9f}",
    "\u{a0}",
    "é",
    "日本",
    "😀",
    "\u{e000}",
    "\u{fffe}",
    "\u{ffff}",
    "\u{10ffff}",
    "a\u{0}b",
];

fn snakeyaml_reads(files: &[&Path]) -> Vec<Value> {
    let runner = rewrite_assist::validation::embedded::runner::ensure(&Versions::default()).expect("runner");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snakeyaml/ReadBack.java");
    let output = Command::new("java")
        .arg("-cp")
        .arg(&runner.classpath)
        .arg(&source)
        .args(files)
        .output()
        .expect("java runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "SnakeYAML refused what we wrote:\n{stderr}");
    String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn recipe_files_we_write_read_back_the_same_in_snakeyaml() {
    let texts: Vec<String> = TRICKY.iter().map(|s| s.to_string()).collect();
    let mut step = RecipeStep::new("org.openrewrite.text.FindAndReplace").with_bool("regex", true);
    for (i, text) in texts.iter().enumerate() {
        step = step.with(&format!("o{i}"), text.clone());
    }
    let recipe = DeclarativeRecipe {
        name: "com.example.Tricky".into(),
        display_name: texts.join(" "),
        description: "on".into(),
        preconditions: vec![RecipeStep::new("org.openrewrite.FindSourceFiles").with("filePattern", "yes")],
        recipe_list: vec![step.with_list("items", texts.clone()), RecipeStep::new("org.openrewrite.Bare")],
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rewrite.yml");
    std::fs::write(&file, recipe.to_yaml()).unwrap();

    let documents = snakeyaml_reads(&[&file]);
    assert_eq!(documents.len(), 1);
    let document = &documents[0];
    assert_eq!(document["name"], "com.example.Tricky");
    assert_eq!(document["displayName"], texts.join(" "));
    assert_eq!(document["description"], "on");
    assert_eq!(
        document["preconditions"],
        json!([{"org.openrewrite.FindSourceFiles": {"filePattern": "yes"}}])
    );
    let options = &document["recipeList"][0]["org.openrewrite.text.FindAndReplace"];
    // Booleans are written as quoted text; OpenRewrite's Jackson mapper turns "true" into true.
    assert_eq!(options["regex"], "true");
    for (i, text) in texts.iter().enumerate() {
        assert_eq!(options[format!("o{i}")], Value::String(text.clone()), "option o{i} = {text:?}");
    }
    assert_eq!(options["items"], json!(texts));
    assert_eq!(document["recipeList"][1], "org.openrewrite.Bare");

    // And our own reader agrees with SnakeYAML on the same file.
    let read = RecipeFile::parse(&recipe.to_yaml()).unwrap();
    let steps = &read.recipes[0].steps;
    assert_eq!(steps[0].options["items"], OptionValue::List(texts.clone()));
    for (i, text) in texts.iter().enumerate() {
        assert_eq!(steps[0].text(&format!("o{i}")), *text, "our reader, option o{i}");
    }
}

#[test]
fn yaml_documents_we_rewrite_read_back_the_same_in_snakeyaml() {
    // `project_paths` rewrites a user's recipe file through `yaml::to_string`: keys and values both.
    let mut map = Map::new();
    for (i, text) in TRICKY.iter().enumerate() {
        map.insert(text.to_string(), json!(i));
        map.insert(format!("v{i}"), json!(text));
    }
    map.insert("list".into(), json!(TRICKY));
    map.insert("nested".into(), json!({"on": {"yes": ["0777", true, 3, 1.5, null]}}));
    let document = Value::Object(map);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rewrite.yml");
    std::fs::write(&file, yaml::to_string(&document).unwrap()).unwrap();

    let documents = snakeyaml_reads(&[&file]);
    assert_eq!(documents.len(), 1);
    let read = documents[0].as_object().unwrap();
    for (key, value) in document.as_object().unwrap() {
        assert_eq!(read.get(key), Some(value), "key {key:?}");
    }
    assert_eq!(read.len(), document.as_object().unwrap().len(), "no key read as another");
}
