//! Every JSON document the tool writes (artifacts, `--json` output, eval and rollout results) is
//! an object whose first field is `schema_version`, so a tool reading it knows which layout it
//! holds. The layouts are JSON Schemas made from the types themselves (`src/schemas.rs`, committed
//! under `docs/schemas/`); a test validates the documents the commands write against them.

use serde::Serialize;

/// The layout version of every document: raised when a field is removed or changes meaning (a new
/// field leaves it alone, readers ignore fields they do not know).
pub const SCHEMA_VERSION: u32 = 1;

/// `document` with `schema_version` in front. Only objects can be versioned: a list is written as
/// an object with the list in a named field.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Versioned<'a, T: ?Sized> {
    /// The layout of this document ([`SCHEMA_VERSION`] when it was written).
    pub schema_version: u32,
    /// The document's own fields, flattened after `schema_version`.
    #[serde(flatten)]
    pub document: &'a T,
}

/// `document`, versioned for writing.
pub fn versioned<T: ?Sized>(document: &T) -> Versioned<'_, T> {
    Versioned { schema_version: SCHEMA_VERSION, document }
}

/// What a command's `--json` prints when it fails before it has its own document (`validate`
/// and `analyze` print theirs with the failure in it instead).
#[derive(Serialize, schemars::JsonSchema)]
pub struct Failed {
    /// Always `failed`.
    pub status: FailedStatus,
    /// Why, in one line.
    pub reason: String,
}

/// The status of a [`Failed`] document.
#[derive(Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FailedStatus {
    /// The command failed.
    Failed,
}

/// `document` as pretty-printed, versioned JSON with a final newline.
pub fn to_json(document: &(impl Serialize + ?Sized)) -> serde_json::Result<String> {
    Ok(serde_json::to_string_pretty(&versioned(document))? + "\n")
}

/// `document` as one line of versioned JSON (for `.jsonl` files).
pub fn to_json_line(document: &(impl Serialize + ?Sized)) -> serde_json::Result<String> {
    serde_json::to_string(&versioned(document))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Doc {
        name: &'static str,
    }

    #[test]
    fn the_version_comes_first_and_the_fields_follow() {
        assert_eq!(to_json_line(&Doc { name: "x" }).unwrap(), r#"{"schema_version":1,"name":"x"}"#);
    }

    #[test]
    fn a_list_cannot_be_versioned_and_says_so() {
        assert!(to_json(&vec![1, 2]).is_err(), "a list must be wrapped in an object first");
    }
}
