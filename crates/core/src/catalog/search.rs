//! Full-text search over the catalog: a tantivy (BM25) index built in RAM, one ranked list per
//! query phrasing, fused with reciprocal rank fusion.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
use tantivy::tokenizer::{Language, Stemmer, TextAnalyzer, TokenStream as _};
use tantivy::{Index, IndexWriter, Searcher, TantivyDocument, Term, doc};

use super::query;
use super::tokenize::IdentifierTokenizer;
use crate::model::RecipeDescriptor;

/// The RRF constant: each list adds `1 / (K + rank)` for a recipe at `rank` (from 1).
pub(crate) const RRF_K: f64 = 60.0;

/// How deep each phrasing's ranked list goes before fusion.
const PER_QUERY: usize = 100;

/// BM25 candidates considered for the composite boost before cutting to [`PER_QUERY`].
const CANDIDATES: usize = 300;

/// A composite recipe whose own members also match the query is the broad migration for it: its
/// BM25 score is multiplied by `1 + HUB_BOOST * ln(1 + matching members)`. Without this, an
/// umbrella such as `JavaxMigrationToJakarta` ranks below its own parts, whose names and display
/// names repeat the query words more often.
const HUB_BOOST: f32 = 0.1;

/// Name and display name weigh most, then the description, then tags. A composite recipe's member
/// names weigh least: they tell an umbrella migration ("javax to jakarta", 40 members all about
/// javax and jakarta) from one of its parts, which otherwise looks the same or better on its own
/// name.
const FIELD_BOOSTS: [(&str, f32); 5] =
    [("name", 3.0), ("display_name", 3.0), ("description", 1.5), ("tags", 1.0), ("members", 0.5)];

const TOKENIZER: &str = "identifier";

/// The simple name (`ChangePackage`) once more, unstemmed, with each of its words as a compound of
/// its parts in sorted order (`changepackage`, `UpgradeSpringBoot` → `bootspringupgrade`), matched
/// by the query's terms and by sorted combinations of them: stemming alone cannot tell
/// `ChangePackage` from `ChangePackaging`, the compound can. Sorted, so that the ranking depends only
/// on the bag of query terms, which is what the cache is keyed by.
const EXACT_FIELD: (&str, f32) = ("simple_name", 2.0);
const EXACT_TOKENIZER: &str = "identifier_exact";
/// Compounds are made of 2 to this many parts.
const MAX_COMPOUND: usize = 3;
/// Queries with more terms than this get no compounds (they are log lines, not recipe names, and
/// the combinations would grow quickly).
const MAX_COMPOUND_TERMS: usize = 12;

/// Words recipe names use for what migration PRs and intents call otherwise ("bump", "rename"),
/// added to a query at [`SYNONYM_WEIGHT`] of its own words.
const SYNONYMS: &[(&str, &[&str])] = &[
    ("bump", &["upgrade", "update"]),
    ("update", &["upgrade"]),
    ("upgrade", &["update"]),
    ("rename", &["change"]),
    ("move", &["change"]),
    ("replace", &["change"]),
    // `OrderImports`: "reorder" is not a form of "order" to a stemmer.
    ("reorder", &["order"]),
    ("sort", &["order"]),
];
const SYNONYM_WEIGHT: f32 = 0.5;

/// The synonyms of `text`'s words that it does not already contain.
fn synonyms(text: &str) -> Vec<&'static str> {
    let words: Vec<String> = text.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase).collect();
    let mut found: Vec<&'static str> = SYNONYMS
        .iter()
        .filter(|(word, _)| words.iter().any(|w| w == word))
        .flat_map(|(_, synonyms)| synonyms.iter().copied())
        .filter(|s| !words.iter().any(|w| w == s))
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// The index and the per-process cache of ranked lists, keyed by normalized query.
pub(crate) struct SearchIndex {
    searcher: Searcher,
    analyzer: TextAnalyzer,
    fields: Vec<(Field, f32)>,
    exact_analyzer: TextAnalyzer,
    exact: (Field, f32),
    /// Per segment, the catalog position of each document.
    ords: Vec<Column<u64>>,
    /// Per catalog position, the distinct members that are themselves in the catalog.
    members: Vec<Vec<u32>>,
    cache: Mutex<HashMap<String, Arc<[u32]>>>,
    hits: AtomicUsize,
    misses: AtomicUsize,
}

/// How often ranked lists came from the cache in this process.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CacheStats {
    pub hits: usize,
    pub misses: usize,
}

fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(IdentifierTokenizer::default()).filter(Stemmer::new(Language::English)).build()
}

fn exact_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(IdentifierTokenizer::default()).build()
}

impl SearchIndex {
    /// Indexes `recipes`; a document's `ord` is its position in the slice.
    pub(crate) fn build(recipes: &[RecipeDescriptor]) -> tantivy::Result<SearchIndex> {
        let text = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(TOKENIZER)
                .set_index_option(IndexRecordOption::WithFreqs),
        );
        let mut schema = Schema::builder();
        let fields: Vec<(Field, f32)> = FIELD_BOOSTS
            .iter()
            .map(|&(name, boost)| (schema.add_text_field(name, text.clone()), boost))
            .collect();
        let exact_options = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(EXACT_TOKENIZER)
                .set_index_option(IndexRecordOption::WithFreqs),
        );
        let exact = (schema.add_text_field(EXACT_FIELD.0, exact_options), EXACT_FIELD.1);
        let ord = schema.add_u64_field("ord", FAST);
        let index = Index::create_in_ram(schema.build());
        index.tokenizers().register(TOKENIZER, analyzer());
        index.tokenizers().register(EXACT_TOKENIZER, exact_analyzer());

        // One thread with tantivy's smallest arena (the whole catalog indexes in a few MB): no contention
        // with the caller's work. More than one segment would still work (`ords` is per segment).
        let mut writer: IndexWriter<TantivyDocument> = index.writer_with_num_threads(1, 15_000_000)?;
        let [name, display_name, description, tags, members] = [0, 1, 2, 3, 4].map(|i| fields[i].0);
        for (i, recipe) in recipes.iter().enumerate() {
            let mut document = doc!(
                name => recipe.name.as_str(),
                display_name => recipe.display_name.as_str(),
                description => recipe.description.as_str(),
                exact.0 => exact_text(recipe.simple_name()),
                ord => i as u64,
            );
            for tag in &recipe.tags {
                document.add_text(tags, tag);
            }
            // Distinct names only: a member used five times with different options is one part.
            let mut distinct: Vec<&str> = recipe.members.iter().map(String::as_str).collect();
            distinct.sort_unstable();
            distinct.dedup();
            for member in distinct {
                document.add_text(members, member);
            }
            writer.add_document(document)?;
        }
        writer.commit()?;
        let searcher = index.reader()?.searcher();
        let ords = searcher
            .segment_readers()
            .iter()
            .map(|segment| segment.fast_fields().u64("ord"))
            .collect::<tantivy::Result<_>>()?;
        let position: HashMap<&str, u32> =
            recipes.iter().enumerate().map(|(i, r)| (r.name.as_str(), i as u32)).collect();
        let members = recipes
            .iter()
            .map(|r| {
                let mut ords: Vec<u32> =
                    r.members.iter().filter_map(|m| position.get(m.as_str()).copied()).collect();
                ords.sort_unstable();
                ords.dedup();
                ords
            })
            .collect();
        Ok(SearchIndex {
            searcher,
            members,
            analyzer: analyzer(),
            fields,
            exact_analyzer: exact_analyzer(),
            exact,
            ords,
            cache: Mutex::new(HashMap::new()),
            hits: AtomicUsize::new(0),
            misses: AtomicUsize::new(0),
        })
    }

    /// Fused ranking of several phrasings of one need: `(catalog position, RRF score)`, best first.
    /// Phrasings that clean to the same normalized query count once.
    pub(crate) fn search(&self, queries: &[&str]) -> tantivy::Result<Vec<(u32, f64)>> {
        let mut seen = Vec::new();
        let mut lists = Vec::new();
        for raw in queries {
            let cleaned = query::clean(raw);
            let key = query::normalize(&cleaned);
            if key.is_empty() || seen.contains(&key) {
                continue;
            }
            lists.push(self.ranked(&key)?);
            seen.push(key);
        }
        Ok(fuse(lists.iter().map(|l| &l[..])))
    }

    #[cfg(test)]
    pub(crate) fn cache_stats(&self) -> CacheStats {
        CacheStats { hits: self.hits.load(Ordering::Relaxed), misses: self.misses.load(Ordering::Relaxed) }
    }

    /// The BM25 ranking of one normalized query, from the cache when this process saw it before.
    fn ranked(&self, key: &str) -> tantivy::Result<Arc<[u32]>> {
        if let Some(list) = self.lock_cache().get(key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(Arc::clone(list));
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        let list: Arc<[u32]> = self.bm25(key)?.into_iter().map(|(ord, _)| ord).collect();
        self.lock_cache().insert(key.to_string(), Arc::clone(&list));
        Ok(list)
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<[u32]>>> {
        // A panic while holding the lock cannot leave the map half-updated, so a poisoned lock is fine.
        self.cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// `(catalog position, BM25 score)` for a normalized query (see [`query::normalize`]), best
    /// first.
    pub(crate) fn bm25(&self, key: &str) -> tantivy::Result<Vec<(u32, f32)>> {
        let terms = self.analyze(key);
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let mut weighted: Vec<(String, f32)> = terms.iter().map(|t| (t.clone(), 1.0)).collect();
        for synonym in self.analyze(&synonyms(key).join(" ")) {
            if !terms.contains(&synonym) {
                weighted.push((synonym, SYNONYM_WEIGHT));
            }
        }
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let mut add = |field: Field, term: &str, boost: f32| {
            let query = TermQuery::new(Term::from_field_text(field, term), IndexRecordOption::WithFreqs);
            clauses.push((Occur::Should, Box::new(BoostQuery::new(Box::new(query), boost))));
        };
        for &(field, boost) in &self.fields {
            for (term, weight) in &weighted {
                add(field, term, boost * weight);
            }
        }
        let mut exact_terms = analyze(&self.exact_analyzer, key);
        for compound in compounds(key) {
            if !exact_terms.contains(&compound) {
                exact_terms.push(compound);
            }
        }
        for term in &exact_terms {
            add(self.exact.0, term, self.exact.1);
        }
        let top = self
            .searcher
            .search(&BooleanQuery::new(clauses), &TopDocs::with_limit(CANDIDATES).order_by_score())?;
        let hits: HashMap<u32, f32> = top
            .into_iter()
            .filter_map(|(score, address)| {
                let ord = self.ords[address.segment_ord as usize].first(address.doc_id)?;
                Some((ord as u32, score))
            })
            .collect();
        let mut ranked: Vec<(u32, f32)> = hits
            .iter()
            .map(|(&ord, &score)| {
                let matching = self.members[ord as usize].iter().filter(|m| hits.contains_key(m)).count();
                (ord, score * (1.0 + HUB_BOOST * (1.0 + matching as f32).ln()))
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.truncate(PER_QUERY);
        Ok(ranked)
    }

    /// The query's distinct terms, through the same analyzer as the index.
    fn analyze(&self, text: &str) -> Vec<String> {
        analyze(&self.analyzer, text)
    }
}

fn analyze(analyzer: &TextAnalyzer, text: &str) -> Vec<String> {
    let mut analyzer = analyzer.clone();
    let mut stream = analyzer.token_stream(text);
    let mut terms: Vec<String> = Vec::new();
    while stream.advance() {
        let text = &stream.token().text;
        if !terms.contains(text) {
            terms.push(text.clone());
        }
    }
    terms
}

/// Every combination of 2 to [`MAX_COMPOUND`] of the normalized query's words (sorted, so in
/// sorted order), joined: the compounds [`exact_text`] indexes.
fn compounds(key: &str) -> Vec<String> {
    let words: Vec<&str> = key.split(' ').filter(|w| !w.is_empty()).collect();
    if words.len() > MAX_COMPOUND_TERMS {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut stack: Vec<(usize, String, usize)> =
        (0..words.len()).map(|i| (i, words[i].to_string(), 1)).collect();
    while let Some((last, joined, parts)) = stack.pop() {
        if parts >= 2 {
            out.push(joined.clone());
        }
        if parts < MAX_COMPOUND {
            stack.extend(
                (last + 1..words.len()).map(|next| (next, format!("{joined}{}", words[next]), parts + 1)),
            );
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The exact field's text: the simple name, then each of its words with 2 to [`MAX_COMPOUND`]
/// parts as one compound of its lower-cased parts in sorted order.
fn exact_text(simple_name: &str) -> String {
    let mut text = simple_name.to_string();
    for word in simple_name.split(|c: char| !c.is_alphanumeric()) {
        let mut parts: Vec<String> =
            super::tokenize::split_word(word).iter().map(|p| p.to_lowercase()).collect();
        if (2..=MAX_COMPOUND).contains(&parts.len()) {
            parts.sort();
            text.push(' ');
            text.push_str(&parts.concat());
        }
    }
    text
}

/// Reciprocal rank fusion: every list adds `1 / (RRF_K + rank)` (rank from 1) to each item in it.
/// Best first; equal scores keep catalog order (which is name order).
pub(crate) fn fuse<'a>(lists: impl IntoIterator<Item = &'a [u32]>) -> Vec<(u32, f64)> {
    let mut scores: HashMap<u32, f64> = HashMap::new();
    for list in lists {
        for (i, &item) in list.iter().enumerate() {
            *scores.entry(item).or_default() += 1.0 / (RRF_K + (i + 1) as f64);
        }
    }
    let mut fused: Vec<(u32, f64)> = scores.into_iter().collect();
    fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    fused
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn rrf_adds_one_over_k_plus_rank_per_list() {
        let fused = fuse([&[7, 3][..], &[3, 9][..]]);
        assert_eq!(fused.iter().map(|f| f.0).collect::<Vec<_>>(), [3, 7, 9]);
        assert!(close(fused[0].1, 1.0 / 62.0 + 1.0 / 61.0));
        assert!(close(fused[1].1, 1.0 / 61.0));
        assert!(close(fused[2].1, 1.0 / 62.0));
    }

    #[test]
    fn found_by_several_phrasings_beats_first_in_one() {
        // 5 is first in one list only; 8 is third in all three.
        let fused = fuse([&[5, 1, 8][..], &[2, 4, 8][..], &[6, 0, 8][..]]);
        assert_eq!(fused[0].0, 8);
        assert!(close(fused[0].1, 3.0 / 63.0));
    }

    #[test]
    fn synonyms_add_only_words_the_query_lacks() {
        assert_eq!(synonyms("Bump setup-java"), ["update", "upgrade"]);
        assert_eq!(synonyms("upgrade or update"), Vec::<&str>::new());
        assert_eq!(synonyms("rename yaml key"), ["change"]);
        assert!(synonyms("javax to jakarta").is_empty());
        assert_eq!(synonyms("Reorder imports"), ["order"]);
    }

    #[test]
    fn compounds_of_the_query_meet_compounds_of_the_name() {
        assert_eq!(compounds("change package"), ["changepackage"]);
        assert_eq!(
            compounds("boot spring upgrade"),
            ["bootspring", "bootspringupgrade", "bootupgrade", "springupgrade"]
        );
        assert!(compounds("java").is_empty());
        assert_eq!(exact_text("ChangePackage"), "ChangePackage changepackage");
        assert_eq!(exact_text("UpgradeSpringBoot_3_0"), "UpgradeSpringBoot_3_0 bootspringupgrade");
        assert_eq!(exact_text("UpgradeToJava17"), "UpgradeToJava17");
    }

    #[test]
    fn ties_keep_catalog_order_and_no_lists_give_nothing() {
        let fused = fuse([&[4][..], &[2][..]]);
        assert_eq!(fused.iter().map(|f| f.0).collect::<Vec<_>>(), [2, 4]);
        assert!(fuse(std::iter::empty()).is_empty());
    }
}
