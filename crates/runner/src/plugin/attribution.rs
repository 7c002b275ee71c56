//! Which recipe changed which file, from OpenRewrite's `SourcesFileResults` data table.

use std::path::Path;

pub(crate) use crate::model::validation::Attribution;

/// File name of the data table (one per run, under `target/rewrite/datatables/<timestamp>/` for
/// Maven and `build/reports/rewrite/datatables/<timestamp>/` for Gradle).
pub(crate) const SOURCES_FILE_RESULTS: &str = "org.openrewrite.table.SourcesFileResults.csv";

/// Every `SourcesFileResults` table under `root` (all modules), with option values taken from the
/// run's `log`; rows deduplicated and sorted. Without data tables, the log alone is used.
pub(crate) fn collect(root: &Path, log: &str) -> Vec<Attribution> {
    let from_log = from_log(log);
    let table: Vec<Attribution> = crate::validation::datatables::plugin_exports(root)
        .iter()
        .map(|export| export.dir.join(SOURCES_FILE_RESULTS))
        .filter(|p| p.is_file())
        .flat_map(|p| read_table(&p))
        .collect();
    let mut rows = if table.is_empty() { from_log.clone() } else { Vec::new() };
    for row in table {
        // The table has one row per (file, recipe): two steps of the same recipe with different
        // options share it. The log tells them apart.
        let logged: Vec<&Attribution> =
            from_log.iter().filter(|l| l.source_path == row.source_path && l.recipe == row.recipe).collect();
        if logged.is_empty() {
            rows.push(row);
            continue;
        }
        for l in logged {
            rows.push(Attribution { options: l.options.clone(), ..row.clone() });
        }
    }
    rows.sort();
    rows.dedup();
    rows
}

/// The log's `Changes have been made to PATH by:` blocks; each indented line below names a recipe
/// and, for recipes with options, `: {key=value, …}`.
pub(crate) fn from_log(log: &str) -> Vec<Attribution> {
    let mut rows = Vec::new();
    let mut current: Option<String> = None;
    for raw in log.lines() {
        let line = raw.strip_prefix("[WARNING]").or_else(|| raw.strip_prefix("[INFO]")).unwrap_or(raw);
        let trimmed = line.trim();
        if let Some(path) =
            trimmed.strip_prefix("Changes have been made to ").and_then(|r| r.strip_suffix(" by:"))
        {
            current = Some(path.to_string());
            continue;
        }
        let indented = line.starts_with("     ") || line.starts_with('\t');
        match (&current, indented && !trimmed.is_empty()) {
            (Some(path), true) => {
                let (recipe, options) = match trimmed.split_once(": {") {
                    Some((recipe, rest)) => (recipe, format!("{{{rest}")),
                    None => (trimmed, String::new()),
                };
                rows.push(Attribution {
                    source_path: path.clone(),
                    after_source_path: path.clone(),
                    parent_recipe: String::new(),
                    recipe: recipe.to_string(),
                    options,
                });
            }
            _ => current = None,
        }
    }
    rows
}

fn read_table(path: &Path) -> Vec<Attribution> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse_table(&text),
        Err(e) => {
            tracing::warn!("cannot read {}: {e}", path.display());
            Vec::new()
        }
    }
}

/// Parses both layouts: newer plugins write `# @name` comment lines and a header of field names;
/// older ones a row of display names and a row of descriptions, every value quoted.
pub(crate) fn parse_table(text: &str) -> Vec<Attribution> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .comment(Some(b'#'))
        .flexible(true)
        .from_reader(text.as_bytes());
    let records: Vec<csv::StringRecord> = reader.records().filter_map(Result::ok).collect();
    let Some(first) = records.first() else { return Vec::new() };
    let (columns, data_start) = if first.iter().any(|f| f == "sourcePath") {
        let index = |name: &str| first.iter().position(|f| f == name);
        ([index("sourcePath"), index("afterSourcePath"), index("parentRecipe"), index("recipe")], 1)
    } else {
        // Display-name row and description row first; the columns in their documented order.
        ([Some(0), Some(1), Some(2), Some(3)], 2)
    };
    let field = |record: &csv::StringRecord, column: Option<usize>| {
        column.and_then(|c| record.get(c)).unwrap_or("").to_string()
    };
    records
        .iter()
        .skip(data_start)
        .filter(|r| r.len() >= 4)
        .map(|r| Attribution {
            source_path: field(r, columns[0]),
            after_source_path: field(r, columns[1]),
            parent_recipe: field(r, columns[2]),
            recipe: field(r, columns[3]),
            options: String::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newer_layout_with_comment_lines() {
        let text = "# @name org.openrewrite.table.SourcesFileResults\n# @instanceName Source files that had results\n# @group \nsourcePath,afterSourcePath,parentRecipe,recipe,estimatedTimeSaving,cycle\npom.xml,pom.xml,com.example.Jakarta,org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId,300,1\nsrc/main/java/com/acme/Customer.java,src/main/java/com/acme/Customer.java,com.example.Jakarta,org.openrewrite.java.ChangePackage,300,1\n";
        let rows = parse_table(text);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].recipe, "org.openrewrite.java.ChangePackage");
        assert_eq!(rows[0].parent_recipe, "com.example.Jakarta");
    }

    #[test]
    fn older_layout_with_display_and_description_rows() {
        let text = "\"Source path before the run\",\"Source path after the run\",\"Parent of the recipe that made changes\",\"Recipe that made changes\",\"Estimated time saving\",\"Cycle\"\n\"The source path of the file before the run.\",\"A recipe may modify the source path.\",\"In a hierarchical recipe, the parent.\",\"The specific recipe that made a change.\",\"An estimated effort.\",\"The recipe cycle.\"\n\"a/B.java\",\"a/B.java\",\"\",\"com.example.R\",\"300\",\"1\"\n";
        let rows = parse_table(text);
        assert_eq!(
            rows,
            vec![Attribution {
                source_path: "a/B.java".into(),
                after_source_path: "a/B.java".into(),
                parent_recipe: String::new(),
                recipe: "com.example.R".into(),
                options: String::new(),
            }]
        );
    }

    #[test]
    fn options_come_from_the_log() {
        let log = "[INFO] Running recipe(s)...\n[WARNING] Changes have been made to pom.xml by:\n[WARNING]     org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId: {oldGroupId=javax.persistence, newVersion=3.1.0}\n[WARNING] Changes have been made to src/A.java by:\n[WARNING]     com.example.Composite\n[WARNING]         org.openrewrite.java.ChangePackage: {oldPackageName=javax.a, newPackageName=jakarta.a}\n[WARNING] Please review and commit the results.\n";
        let rows = from_log(log);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].options, "{oldGroupId=javax.persistence, newVersion=3.1.0}");
        assert_eq!(rows[1].recipe, "com.example.Composite");
        assert_eq!(rows[2].source_path, "src/A.java");

        let dir = tempfile::tempdir().unwrap();
        let table = dir.path().join("target/rewrite/datatables/t");
        std::fs::create_dir_all(&table).unwrap();
        std::fs::write(
            table.join(SOURCES_FILE_RESULTS),
            "sourcePath,afterSourcePath,parentRecipe,recipe\nsrc/A.java,src/A.java,com.example.R,org.openrewrite.java.ChangePackage\n",
        )
        .unwrap();
        let merged = collect(dir.path(), log);
        assert_eq!(merged.len(), 1);
        assert_eq!(merged[0].options, "{oldPackageName=javax.a, newPackageName=jakarta.a}");
        assert_eq!(merged[0].parent_recipe, "com.example.R", "the table's hierarchy is kept");

        // Two ChangeType steps in one file: one table row, two log lines, two attributions.
        let two = "[WARNING] Changes have been made to src/A.java by:\n[WARNING]     org.openrewrite.java.ChangeType: {oldFullyQualifiedTypeName=java.util.List, newFullyQualifiedTypeName=java.util.Set}\n[WARNING]     org.openrewrite.java.ChangeType: {oldFullyQualifiedTypeName=java.util.ArrayList, newFullyQualifiedTypeName=java.util.HashSet}\n";
        std::fs::write(
            table.join(SOURCES_FILE_RESULTS),
            "sourcePath,afterSourcePath,parentRecipe,recipe\nsrc/A.java,src/A.java,com.example.R,org.openrewrite.java.ChangeType\n",
        )
        .unwrap();
        let both = collect(dir.path(), two);
        assert_eq!(both.len(), 2);
        assert!(both.iter().any(|r| r.options.contains("java.util.Set")));
        assert!(both.iter().any(|r| r.options.contains("java.util.HashSet")));
    }

    #[test]
    fn collects_tables_of_all_modules() {
        let dir = tempfile::tempdir().unwrap();
        for module in ["target", "api/target"] {
            let table = dir.path().join(module).join("rewrite/datatables/2026-01-01_00-00-00-000");
            std::fs::create_dir_all(&table).unwrap();
            std::fs::write(
                table.join(SOURCES_FILE_RESULTS),
                format!("sourcePath,afterSourcePath,parentRecipe,recipe\n{module}.txt,{module}.txt,P,R\n"),
            )
            .unwrap();
        }
        assert_eq!(collect(dir.path(), "").len(), 2);
        assert!(parse_table("").is_empty());
    }
}
