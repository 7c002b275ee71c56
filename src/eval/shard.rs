//! Which cases a matrix job runs: `--shard I/N`.
//!
//! A transfer pair runs in the shard that ran both its cases (it needs their results), so the cases
//! a pair links stay together: the suite's cases form groups (a case alone, or every case linked to
//! it through pairs), and each group, in the order of its first case, goes to the shard with the
//! fewest cases so far (the lowest on a tie). Without pairs that is round-robin on the position:
//! shards differ in size by at most one case, and appending cases never moves an existing case to
//! another shard. Linking cases by a new pair, reordering or removing cases can move them, which is
//! harmless: `eval aggregate` matches results by case name, not by shard.

use super::suite::{Case, Suite};
use crate::model::Shard;

/// `shard`'s cases of `suite`, in suite order, with the cases its pairs link kept together.
pub(crate) fn cases(shard: Shard, suite: &Suite) -> Vec<&Case> {
    let names: Vec<&str> = suite.cases.iter().map(|c| c.name.as_str()).collect();
    let links: Vec<(&str, &str)> = suite.pairs.iter().map(|p| (p.from.as_str(), p.to.as_str())).collect();
    let shards = assignment(&names, &links, shard.count);
    suite
        .cases
        .iter()
        .zip(shards)
        .filter(|(_, in_shard)| *in_shard == shard.index)
        .map(|(case, _)| case)
        .collect()
}

/// The shard (1-based) of each of `names`, with the names `links` connect in the same shard.
fn assignment(names: &[&str], links: &[(&str, &str)], count: usize) -> Vec<usize> {
    // Union-find over positions; a link naming an unknown case links nothing.
    let mut parent: Vec<usize> = (0..names.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let position = |name: &str| names.iter().position(|n| *n == name);
    for (a, b) in links {
        if let (Some(a), Some(b)) = (position(a), position(b)) {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            // The earlier case is the group's root, so groups come in the order of their first case.
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut sizes = vec![0usize; count];
    let mut shard_of_group: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let mut members: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for i in 0..names.len() {
        *members.entry(root(&mut parent, i)).or_default() += 1;
    }
    (0..names.len())
        .map(|i| {
            let group = root(&mut parent, i);
            *shard_of_group.entry(group).or_insert_with(|| {
                let smallest = (0..count).min_by_key(|&s| (sizes[s], s)).unwrap_or(0);
                sizes[smallest] += members[&group];
                smallest + 1
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_links_shards_differ_by_at_most_one_case_and_appending_keeps_them() {
        let names: Vec<String> = (0..51).map(|i| format!("c{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        for size in [0, 1, 2, 3, 5, 8, 13, 50] {
            for count in 1..=7 {
                let shards = assignment(&names[..size], &[], count);
                let sizes: Vec<usize> =
                    (1..=count).map(|s| shards.iter().filter(|&&x| x == s).count()).collect();
                let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(max - min <= 1, "size {size}, {count} shards unbalanced: {sizes:?}");
                assert_eq!(assignment(&names[..size + 1], &[], count)[..size], shards[..], "appending");
            }
        }
    }

    #[test]
    fn without_links_groups_are_round_robin() {
        for size in [0, 1, 5, 13] {
            let names: Vec<String> = (0..size).map(|i| format!("c{i}")).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            for count in 1..=5 {
                let expected: Vec<usize> = (0..size).map(|p| p % count + 1).collect();
                assert_eq!(assignment(&names, &[], count), expected, "{size} cases, {count} shards");
            }
        }
    }

    #[test]
    fn linked_cases_share_a_shard_and_groups_fill_the_emptiest_shard() {
        let names = ["a", "b", "c", "d", "e", "f", "g"];
        // a-e-g are one group of three, c-d one of two; b and f alone.
        let links = [("a", "e"), ("g", "e"), ("d", "c"), ("x", "a")];
        let shards = assignment(&names, &links, 3);
        assert_eq!(shards, [1, 2, 3, 3, 1, 2, 1]);
        // Every shard run sees both cases of every pair.
        for (from, to) in links.iter().filter(|(f, _)| names.contains(f)) {
            let at = |n: &str| shards[names.iter().position(|x| *x == n).unwrap()];
            assert_eq!(at(from), at(to), "{from} -> {to}");
        }
        // Appending a case alone leaves the others where they were.
        let more = ["a", "b", "c", "d", "e", "f", "g", "h"];
        assert_eq!(assignment(&more, &links, 3)[..7], shards);
    }

    #[test]
    fn a_shards_cases_keep_suite_order() {
        let suite = super::super::suite::parse(
            "suite_name: s\ncases:\n  - { name: a, repo: r, base: b, head: h }\n  - { name: b, repo: r, base: b, head: h }\n  - { name: c, repo: r, base: b, head: h }\n  - { name: d, repo: r, base: b, head: h }\npairs:\n  - { from: d, to: a }\n",
            std::path::Path::new("/tmp"),
        )
        .unwrap();
        let names = |shard: Shard| cases(shard, &suite).iter().map(|c| c.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(Shard { index: 1, count: 2 }), ["a", "d"]);
        assert_eq!(names(Shard { index: 2, count: 2 }), ["b", "c"]);
        assert_eq!(names(Shard::ALL), ["a", "b", "c", "d"]);
    }

    #[test]
    fn parses_and_prints() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(" 1 / 1 ".parse::<Shard>(), Ok(Shard::ALL));
        assert_eq!(Shard { index: 3, count: 7 }.to_string(), "3/7");
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "", "1/2/3", "-1/2"] {
            let error = bad.parse::<Shard>().unwrap_err();
            assert!(error.to_string().contains("I/N"), "{bad}: {error}");
        }
    }
}
