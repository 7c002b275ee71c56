//! Which cases a matrix job runs: `--shard I/N`.
//!
//! The case at position `k` of the suite (0-based) belongs to shard `k mod N + 1`. Round-robin on
//! the position rather than a hash of the name: shards differ in size by at most one case (a hash
//! leaves small suites lopsided, even with empty shards), and appending cases to a suite never
//! moves an existing case to another shard. Reordering or removing cases does reshuffle them,
//! which is harmless: `eval aggregate` matches results by case name, not by shard.

use std::fmt;
use std::str::FromStr;

use crate::model::Shard;

impl Shard {
    /// The whole suite in one job.
    pub(crate) const ALL: Shard = Shard { index: 1, count: 1 };

    /// Whether the case at `position` (0-based, in suite order) belongs to this shard.
    pub(crate) fn contains(self, position: usize) -> bool {
        position % self.count == self.index - 1
    }

    /// This shard's items, in their order.
    pub(crate) fn select<T>(self, items: &[T]) -> Vec<&T> {
        items
            .iter()
            .enumerate()
            .filter(|(position, _)| self.contains(*position))
            .map(|(_, item)| item)
            .collect()
    }

    /// Every shard of this split: 1/N … N/N.
    pub(crate) fn siblings(self) -> impl Iterator<Item = Shard> {
        (1..=self.count).map(move |index| Shard { index, count: self.count })
    }
}

/// Text that is not `I/N` with 1 ≤ I ≤ N.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a shard: write I/N with 1 <= I <= N, e.g. 2/4")]
pub(crate) struct NotAShard(pub String);

impl FromStr for Shard {
    type Err = NotAShard;

    /// `I/N` with 1 ≤ I ≤ N.
    fn from_str(text: &str) -> Result<Shard, NotAShard> {
        let usage = || NotAShard(text.to_string());
        let (index, count) = text.trim().split_once('/').ok_or_else(usage)?;
        let index: usize = index.trim().parse().map_err(|_| usage())?;
        let count: usize = count.trim().parse().map_err(|_| usage())?;
        if index == 0 || count == 0 || index > count {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_is_in_exactly_one_shard() {
        for size in [0, 1, 2, 3, 5, 8, 13, 50] {
            let cases: Vec<usize> = (0..size).collect();
            for count in 1..=7 {
                let mut seen = vec![0; size];
                let mut sizes = Vec::new();
                for shard in (Shard { index: 1, count }).siblings() {
                    let chosen = shard.select(&cases);
                    sizes.push(chosen.len());
                    for &&case in &chosen {
                        seen[case] += 1;
                    }
                }
                assert!(seen.iter().all(|&n| n == 1), "size {size}, {count} shards: {seen:?}");
                let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(max - min <= 1, "size {size}, {count} shards unbalanced: {sizes:?}");
            }
        }
    }

    #[test]
    fn appending_cases_keeps_the_existing_assignment() {
        let before: Vec<usize> = (0..9).collect();
        let after: Vec<usize> = (0..14).collect();
        for count in 1..=7 {
            for shard in (Shard { index: 1, count }).siblings() {
                let old = shard.select(&before);
                let new = shard.select(&after);
                assert_eq!(old[..], new[..old.len()], "shard {shard}");
            }
        }
    }

    #[test]
    fn selection_keeps_suite_order() {
        let cases = ["a", "b", "c", "d", "e"];
        assert_eq!(Shard { index: 2, count: 2 }.select(&cases), [&"b", &"d"]);
        assert_eq!(Shard::ALL.select(&cases).len(), 5);
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
