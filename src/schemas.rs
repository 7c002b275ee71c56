//! The JSON Schemas of the documents the tool writes, made from the types that write them and
//! committed under `docs/schemas/` (a test keeps the two equal, another validates what the
//! commands write against them). Every document is versioned (`document`): its schema is
//! the type's, with `schema_version` first.

use schemars::JsonSchema;

use crate::document::{Failed, Versioned};

/// Where the committed schemas are published (each schema's `$id`).
const SCHEMAS_URL: &str = "https://raw.githubusercontent.com/rewrite-assist/rewrite-assist/main/docs/schemas";

/// One kind of document: its schema's name (`docs/schemas/NAME.schema.json`) and where it is
/// written.
pub struct Document {
    pub name: &'static str,
    /// The files and outputs that hold it, for the docs and for the validating test.
    pub written_as: &'static [&'static str],
    schema: fn() -> schemars::Schema,
}

impl Document {
    /// The schema, with `$id` naming its committed file.
    pub fn schema(&self) -> serde_json::Value {
        let mut schema = (self.schema)().to_value();
        if let Some(fields) = schema.as_object_mut() {
            fields.insert("$id".into(), format!("{SCHEMAS_URL}/{}.schema.json", self.name).into());
        }
        schema
    }
}

/// `T`'s schema with `schema_version` in front; its title and description are `T`'s.
fn versioned<T: JsonSchema + ?Sized + 'static>() -> schemars::Schema {
    let mut schema = schemars::schema_for!(Versioned<'static, T>);
    let own = schemars::schema_for!(T);
    for key in ["title", "description"] {
        match own.get(key) {
            Some(value) => schema.insert(key.into(), value.clone()),
            None => schema.remove(key),
        };
    }
    schema
}

/// The documents, in the order of the pipeline: a table, as it grows with every document.
const DOCUMENTS: &[Document] = &[
    Document {
        name: "intent-tree",
        written_as: &["intent-tree.json", "intents --format json"],
        schema: versioned::<crate::model::IntentTree>,
    },
    Document {
        name: "validation-stats",
        written_as: &["stats.json", "option-N-stats.json", "validate --json"],
        schema: versioned::<crate::model::ValidationStats>,
    },
    Document {
        name: "discovery",
        written_as: &["discovery.json"],
        schema: versioned::<crate::discovery::Discovery>,
    },
    Document {
        name: "reusable-option",
        written_as: &["result/reusable-option.json"],
        schema: versioned::<crate::model::CandidateOption>,
    },
    Document {
        name: "pull-request",
        written_as: &["result/pull-request.json"],
        schema: versioned::<crate::github::source::SourcePr>,
    },
    Document {
        name: "run-summary",
        written_as: &["analyze --json", "demo --json"],
        schema: versioned::<crate::model::RunSummary>,
    },
    Document {
        name: "workflow-metadata",
        written_as: &["workflow-metadata.json"],
        schema: versioned::<crate::pipeline::metadata::WorkflowMetadata<'static>>,
    },
    Document {
        name: "audit-entry",
        written_as: &["audit.jsonl (each line)"],
        schema: versioned::<crate::model::AuditEntry>,
    },
    Document { name: "metrics", written_as: &["metrics --json"], schema: versioned::<crate::model::Metrics> },
    Document {
        name: "learn",
        written_as: &["learn.json", "learn --json"],
        schema: versioned::<crate::learn::Learned>,
    },
    Document {
        name: "eval-case",
        written_as: &["<case>/case-result.json"],
        schema: versioned::<crate::model::CaseResult>,
    },
    Document {
        name: "eval-shard",
        written_as: &["shard-results.json", "eval run --json"],
        schema: versioned::<crate::model::ShardResults>,
    },
    Document {
        name: "eval-suite",
        written_as: &["suite-results.json", "eval aggregate --json"],
        schema: versioned::<crate::model::SuiteResults>,
    },
    Document {
        name: "eval-history",
        written_as: &["history.json"],
        schema: versioned::<crate::eval::trend::History>,
    },
    Document {
        name: "eval-cache",
        written_as: &["eval cache list --json"],
        schema: versioned::<crate::eval::cache::Listing>,
    },
    Document {
        name: "rollout",
        written_as: &["rollout.json", "apply --json", "rollout merge --json"],
        schema: versioned::<crate::github::rollout::table::Report>,
    },
    Document {
        name: "rollout-repository",
        written_as: &["<owner+name>/result.json"],
        schema: versioned::<crate::github::rollout::one::RepoResult<'static>>,
    },
    Document {
        name: "catalog-search",
        written_as: &["catalog search --json"],
        schema: versioned::<crate::cli::catalog::SearchResults<'static>>,
    },
    Document {
        name: "catalog-recipe",
        written_as: &["catalog show --json"],
        schema: versioned::<crate::cli::catalog::Shown<'static>>,
    },
    Document {
        name: "failed",
        written_as: &["--json of a command that failed before its own document"],
        schema: versioned::<Failed>,
    },
];

/// Every kind of document, in the order of the pipeline.
pub fn documents() -> &'static [Document] {
    DOCUMENTS
}

/// `docs/schemas/README.md`: which file or output holds which document.
pub fn index() -> String {
    let mut out = String::from(
        "# JSON Schemas of the documents rewrite-assist writes\n\n\
         Made from the types that write them (`src/schemas.rs`); a test keeps these files equal to the types and \
         validates what the commands write against them. Every document is an object whose first field is \
         `schema_version` (now 1): it is raised when a field is removed or changes meaning, not when one is added, \
         so readers should ignore fields they do not know.\n\n\
         | schema | written as |\n|---|---|\n",
    );
    for doc in documents() {
        let places = doc.written_as.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ");
        out.push_str(&format!("| [{0}]({0}.schema.json) | {places} |\n", doc.name));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// With `REWRITE_ASSIST_WRITE_SCHEMAS=1`, writes the files instead of comparing.
    #[test]
    fn the_committed_schemas_are_made_from_the_types() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schemas");
        let write = std::env::var_os("REWRITE_ASSIST_WRITE_SCHEMAS").is_some();
        let mut files = vec![("README.md".to_string(), index())];
        for doc in documents() {
            let text = serde_json::to_string_pretty(&doc.schema()).unwrap() + "\n";
            files.push((format!("{}.schema.json", doc.name), text));
        }
        let mut stale = Vec::new();
        for (name, text) in &files {
            let path = dir.join(name);
            if write {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, text).unwrap();
            } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                stale.push(name.clone());
            }
        }
        let listed: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        let extra: Vec<_> =
            listed.iter().filter(|n| !files.iter().any(|(name, _)| n.to_str() == Some(name))).collect();
        assert!(
            stale.is_empty() && extra.is_empty(),
            "docs/schemas is not what the types make (stale {stale:?}, no longer made {extra:?}); \
             run `REWRITE_ASSIST_WRITE_SCHEMAS=1 cargo test --lib schemas` and commit the files"
        );
    }

    #[test]
    fn every_schema_puts_the_version_first_and_requires_it() {
        for doc in documents() {
            let schema = doc.schema();
            let required = schema["required"].as_array().cloned().unwrap_or_default();
            assert!(required.contains(&"schema_version".into()), "{}: {required:?}", doc.name);
        }
    }
}
