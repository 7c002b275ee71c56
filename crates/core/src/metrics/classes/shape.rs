//! The shape of a changed line: what the change substituted, not where. The PR replaced
//! `javax.servlet.Filter` by `jakarta.servlet.Filter`; a recipe that replaces
//! `javax.servlet.ServletException` by `jakarta.servlet.ServletException` in a file the author did
//! not touch makes the same change elsewhere (a completion). One that replaces `javax.xml.bind` by
//! `jakarta.xml.bind` does not: the library is part of the shape.

/// A substitution, word by word: each differing region of the two lines as (removed, added), with
/// the parts of qualified names both sides share cut off, a package keeping one shared segment as
/// its context. Sorted, so the shape does not depend on where in the line it happened.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Shape(Vec<(String, String)>);

/// The shape of replacing `removed` by `added`; None when they are the same code.
pub(crate) fn substitution(removed: &str, added: &str) -> Option<Shape> {
    let a = tokens(removed);
    let b = tokens(added);
    let regions = differing_regions(&a, &b);
    if regions.is_empty() {
        return None;
    }
    let mut parts: Vec<(String, String)> =
        regions.into_iter().map(|(from, to)| core(&from.concat(), &to.concat())).collect();
    parts.sort();
    parts.dedup();
    Some(Shape(parts))
}

/// Words (identifier characters, with the dots of a qualified name) and single other characters;
/// whitespace is not a token.
fn tokens(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in line.chars() {
        let wordy = c.is_alphanumeric() || c == '_' || c == '$';
        if wordy || (c == '.' && !word.is_empty()) {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Cells of the longest-common-subsequence table one comparison may fill. A generated or minified
/// line has tens of thousands of tokens, and two of them would ask for gigabytes (a real PR's
/// recipe run did: 21 GB); beyond this the differing middle is one region.
const MAX_TABLE_CELLS: usize = 1 << 20;

/// The regions where two token sequences differ: what lies between the tokens both start and end
/// with, split further by their longest common subsequence when that table is small enough.
fn differing_regions(a: &[String], b: &[String]) -> Vec<(Vec<String>, Vec<String>)> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    if a.is_empty() && b.is_empty() {
        return Vec::new();
    }
    let Some(lcs) = lcs_table(a, b) else {
        return vec![(a.to_vec(), b.to_vec())];
    };
    let (n, m) = (a.len(), b.len());
    let mut regions = Vec::new();
    let (mut i, mut j) = (0, 0);
    let (mut from, mut to) = (Vec::new(), Vec::new());
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            if !from.is_empty() || !to.is_empty() {
                regions.push((std::mem::take(&mut from), std::mem::take(&mut to)));
            }
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            to.push(b[j].clone());
            j += 1;
        } else {
            from.push(a[i].clone());
            i += 1;
        }
    }
    if !from.is_empty() || !to.is_empty() {
        regions.push((from, to));
    }
    regions
}

/// The lengths of the longest common subsequences of every pair of suffixes of `a` and `b`; None
/// when the table would have more than [`MAX_TABLE_CELLS`] cells.
fn lcs_table(a: &[String], b: &[String]) -> Option<Vec<Vec<u32>>> {
    let (n, m) = (a.len(), b.len());
    if (n + 1).saturating_mul(m + 1) > MAX_TABLE_CELLS {
        return None;
    }
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    Some(lcs)
}

/// The core of a substitution of two qualified names: the segments both share at the start and
/// the end cut off; a package-level change (a lower-case segment) keeps the next shared segment
/// as context, an insertion the segment before it.
fn core(from: &str, to: &str) -> (String, String) {
    let a: Vec<&str> = from.split('.').collect();
    let b: Vec<&str> = to.split('.').collect();
    if a.len() < 2 && b.len() < 2 {
        return (from.to_string(), to.to_string());
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let max_suffix = a.len().min(b.len()) - prefix;
    let suffix = a.iter().rev().zip(b.iter().rev()).take(max_suffix).take_while(|(x, y)| x == y).count();
    let (mut ca, mut cb) = (a[prefix..a.len() - suffix].to_vec(), b[prefix..b.len() - suffix].to_vec());
    let lower =
        |parts: &[&str]| parts.first().is_some_and(|s| s.chars().next().is_some_and(char::is_lowercase));
    if (ca.is_empty() || cb.is_empty()) && prefix > 0 {
        ca.insert(0, a[prefix - 1]);
        cb.insert(0, b[prefix - 1]);
    } else if (lower(&ca) || lower(&cb)) && suffix > 0 {
        ca.push(a[a.len() - suffix]);
        cb.push(b[b.len() - suffix]);
    }
    (ca.join("."), cb.join("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_huge_lines_are_compared_in_bounded_memory() {
        let words = |n: usize, w: &str| (0..n).map(|i| format!("{w}{i}")).collect::<Vec<_>>().join(" ");
        // 2,000 differing tokens a side: a table of 4 million cells, over the bound; the shared
        // start and end are cut off before any table is made.
        let (before, after) = (words(2_000, "a"), words(2_000, "b"));
        assert!(lcs_table(&tokens(&before), &tokens(&after)).is_none());
        let found = shape(
            &format!("x = {before} javax.servlet.Filter;"),
            &format!("x = {after} jakarta.servlet.Filter;"),
        );
        assert_eq!(found.len(), 1, "one region between the shared start and end");
        assert!(found[0].1.ends_with("jakarta.servlet"), "{}", &found[0].1[found[0].1.len() - 40..]);
        assert_eq!(
            shape(&format!("{before} javax.servlet.Filter"), &format!("{before} jakarta.servlet.Filter")),
            vec![pair("javax.servlet", "jakarta.servlet")]
        );
    }

    fn shape(a: &str, b: &str) -> Vec<(String, String)> {
        substitution(a, b).map(|s| s.0).unwrap_or_default()
    }

    fn pair(a: &str, b: &str) -> (String, String) {
        (a.to_string(), b.to_string())
    }

    #[test]
    fn a_package_move_keeps_the_library_as_its_context() {
        let servlet = shape("import javax.servlet.Filter;", "import jakarta.servlet.Filter;");
        assert_eq!(servlet, vec![pair("javax.servlet", "jakarta.servlet")]);
        assert_eq!(
            shape(
                "import javax.servlet.http.HttpServletRequest;",
                "import jakarta.servlet.http.HttpServletRequest;"
            ),
            servlet
        );
        assert_ne!(shape("import javax.xml.bind.JAXB;", "import jakarta.xml.bind.JAXB;"), servlet);
    }

    #[test]
    fn a_type_or_member_change_is_its_names() {
        let assertions =
            shape("        Assert.assertEquals(a, b);", "        Assertions.assertEquals(a, b);");
        assert_eq!(assertions, vec![pair("Assert", "Assertions")]);
        assert_eq!(shape("Assert.assertTrue(ok);", "Assertions.assertTrue(ok);"), assertions);
        assert_eq!(
            shape("import org.junit.Test;", "import org.junit.jupiter.api.Test;"),
            vec![pair("junit", "junit.jupiter.api")]
        );
        assert_eq!(shape("    @Before", "    @BeforeEach"), vec![pair("Before", "BeforeEach")]);
    }

    #[test]
    fn the_same_code_has_no_shape_and_layout_is_not_a_change() {
        assert_eq!(substitution("  f(a,b);", "f(a, b);"), None);
        assert_eq!(shape("Logger log = getLogger(A.class);", "Logger log = getLogger(getClass());").len(), 1);
    }
}
