//! Property tests of the diff parser on hostile input: diff-shaped text built from the pieces a
//! parser trips over (headers with odd counts, hunks that end early, markers, CRs, non-ASCII) and
//! plain random text. Whatever comes in, parsing returns (no panic) and its result is consistent.
//! `scripts/test` runs the default number of cases (seconds); the nightly workflow sets
//! `PROPTEST_CASES` far higher.

use proptest::prelude::*;

use super::{parse, parse_all, remove_excluded_sections};

/// One line of a diff, or of something that almost is one.
fn diff_line() -> impl Strategy<Value = String> {
    let path = prop_oneof![Just("a.txt".to_string()), Just("src/Main.java".to_string()), "[a-z/ .]{0,12}"];
    let count = 0u32..6;
    prop_oneof![
        path.clone().prop_map(|p| format!("diff --git a/{p} b/{p}")),
        path.clone().prop_map(|p| format!("--- a/{p}")),
        path.prop_map(|p| format!("+++ b/{p}")),
        Just("--- /dev/null".to_string()),
        Just("+++ /dev/null".to_string()),
        (count.clone(), count.clone(), count.clone(), count)
            .prop_map(|(a, b, c, d)| format!("@@ -{a},{b} +{c},{d} @@ x")),
        Just("@@ -1 +1 @@".to_string()),
        Just("@@ garbage @@".to_string()),
        Just("\\ No newline at end of file".to_string()),
        Just("new file mode 100644".to_string()),
        Just("deleted file mode 100644".to_string()),
        Just("rename from x".to_string()),
        Just("Binary files a/x and b/x differ".to_string()),
        "[+ -][^\n]{0,20}",
        "[^\n]{0,30}",
    ]
}

fn diff_text() -> impl Strategy<Value = String> {
    (prop::collection::vec(diff_line(), 0..40), prop_oneof![Just("\n"), Just("\r\n"), Just("\r")])
        .prop_map(|(lines, end)| lines.join(end))
}

proptest! {
    #[test]
    fn diff_shaped_text_never_panics_and_parses_consistently(text in diff_text()) {
        if let Ok(all) = parse_all(&text) {
            let metric = parse(&text).expect("parse_all accepted it");
            prop_assert!(metric.files.len() <= all.files.len());
            prop_assert!(metric.change_count() <= all.change_count());
            // A hunk holds no more lines than its header announces.
            for file in &all.files {
                for hunk in &file.hunks {
                    prop_assert!(hunk.lines.len() as u64 <= u64::from(hunk.old_len) + u64::from(hunk.new_len));
                }
            }
        }
        let kept = remove_excluded_sections(&text);
        prop_assert!(kept.len() <= text.len() + 1);
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = parse(&text);
        let _ = remove_excluded_sections(&text);
    }
}
