//! Java sources: import changes grouped into package moves and type renames across files, static
//! import and static call target changes, annotation changes and method renames, all resolved to
//! fully qualified names through each file's imports.
//!
//! Work happens in three steps. Per file, paired import lines and paired body lines become facts
//! ("this line pair shows type A becoming type B"). Across files, facts are grouped: a package pair
//! whose types all keep their simple names becomes one package move, anything else stays a type
//! rename. Last, import lines that were not paired by simple name (`org.junit.Before` removed,
//! `org.junit.jupiter.api.BeforeEach` added) become evidence of the intents that name them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use similar::{Algorithm, DiffTag};

use crate::model::Change;
use crate::model::ChangeLine;

use super::atomic::Atomic;
use super::change::{FileChange, lines, pair_lines};
use super::text::sort_lines;

/// One `import` line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Import {
    /// `a.b.Type`, `a.b.*`, or for static imports `a.b.Type.member` / `a.b.Type.*`.
    name: String,
    is_static: bool,
    line: usize,
}

impl Import {
    fn is_wildcard(&self) -> bool {
        self.name.ends_with(".*")
    }

    /// The last segment: the simple type name, or the member of a static import.
    fn simple(&self) -> &str {
        self.name.rsplit('.').next().unwrap_or(&self.name)
    }

    /// Everything before the last segment: the package (or the type, for static imports).
    fn owner(&self) -> &str {
        self.name.rsplit_once('.').map(|(o, _)| o).unwrap_or("")
    }
}

/// What the analyzer needs of one side of a Java file.
#[derive(Debug, Default)]
struct Source {
    package: String,
    package_line: usize,
    imports: Vec<Import>,
}

impl Source {
    fn parse(text: &str) -> Source {
        let mut source = Source::default();
        for (index, line) in lines(text).iter().enumerate() {
            let trimmed = line.trim();
            if let Some(rest) = keyword(trimmed, "package") {
                source.package = statement_name(rest);
                source.package_line = index + 1;
            } else if let Some(rest) = keyword(trimmed, "import") {
                let (is_static, rest) = match keyword(rest.trim_start(), "static") {
                    Some(after) => (true, after),
                    None => (false, rest),
                };
                let name = statement_name(rest);
                if !name.is_empty() {
                    source.imports.push(Import { name, is_static, line: index + 1 });
                }
            }
        }
        source
    }

    /// Simple type name -> fully qualified name, from explicit imports.
    fn types(&self) -> HashMap<&str, &str> {
        self.imports
            .iter()
            .filter(|i| !i.is_static && !i.is_wildcard())
            .map(|i| (i.simple(), i.name.as_str()))
            .collect()
    }

    /// Member name -> its type, from explicit static imports (`import static a.B.check;`).
    fn static_members(&self) -> HashMap<&str, &str> {
        self.imports
            .iter()
            .filter(|i| i.is_static && !i.is_wildcard())
            .map(|i| (i.simple(), i.owner()))
            .collect()
    }

    fn has_import(&self, name: &str, is_static: bool) -> bool {
        self.imports.iter().any(|i| i.name == name && i.is_static == is_static)
    }
}

/// `word` followed by whitespace at the start of `line`: the rest.
fn keyword<'a>(line: &'a str, word: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(word)?;
    rest.starts_with(char::is_whitespace).then_some(rest)
}

/// The dotted name of a `package`/`import` statement, whitespace removed, up to the `;`.
fn statement_name(rest: &str) -> String {
    let name = rest.split(';').next().unwrap_or("");
    let name: String = name.chars().filter(|c| !c.is_whitespace()).collect();
    if name.chars().all(|c| c.is_alphanumeric() || c == '.' || c == '_' || c == '$' || c == '*') {
        name
    } else {
        String::new()
    }
}

/// The package of a fully qualified type name: the segments before the first capitalized one.
fn package_of(fqn: &str) -> &str {
    let mut end = 0;
    for (i, segment) in fqn.split('.').enumerate() {
        if segment.starts_with(|c: char| c.is_uppercase()) {
            break;
        }
        end += segment.len() + usize::from(i > 0);
    }
    &fqn[..end.min(fqn.len())]
}

/// The part of a fully qualified type name after its package (`Map.Entry` for nested types).
fn type_part(fqn: &str) -> &str {
    let package = package_of(fqn);
    fqn[package.len()..].trim_start_matches('.')
}

/// One thing a line pair or import pair shows.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Fact {
    Type {
        old: String,
        new: String,
        annotation: bool,
    },
    /// A wildcard import pair: only the packages are known.
    Package {
        old: String,
        new: String,
    },
    StaticCall {
        method: String,
        old_type: String,
        new_type: String,
        /// Empty when the name stays.
        new_method: String,
    },
    Method {
        old: String,
        new: String,
        declaring_type: String,
    },
}

struct Found {
    fact: Fact,
    evidence: Vec<ChangeLine>,
}

/// Per file: the parsed sides and the import lines not yet explained.
struct JavaFile {
    head: Source,
    loose_removed: Vec<(Import, ChangeLine)>,
    loose_added: Vec<(Import, ChangeLine)>,
}

/// A type renamed by renaming or moving its file: `com.a.Foo` -> `com.b.Bar`.
#[derive(Debug, Clone)]
struct Declared {
    old: String,
    new: String,
}

pub(crate) fn analyze(files: &[&FileChange<'_>]) -> Vec<Atomic> {
    let declared = declared_renames(files);
    let mut found: Vec<Found> = Vec::new();
    let mut parsed: Vec<JavaFile> = Vec::new();
    for file in files {
        let (Some(old_text), Some(new_text)) = (file.old_text.as_deref(), file.new_text.as_deref()) else {
            continue;
        };
        let base = Source::parse(old_text);
        let head = Source::parse(new_text);
        let mut java = JavaFile { head: Source::default(), loose_removed: vec![], loose_added: vec![] };
        imports(file, &base, &head, &mut java, &mut found);
        body(file, &base, &head, &declared, &mut found);
        java.head = head;
        parsed.push(java);
    }
    wildcard_pairs(&mut parsed, &mut found);
    attach_declaring_types(files, &mut found);
    let mut atomics = group(found, &parsed);
    attach_loose_imports(&parsed, &mut atomics);
    for atomic in &mut atomics {
        sort_lines(&mut atomic.evidence);
        let files: BTreeSet<String> = atomic.evidence.iter().map(|c| c.path.clone()).collect();
        atomic.set_files(files.into_iter().collect());
    }
    atomics
}

/// A method renamed at its declaration too (`int quantityOf(String sku) {` in `Stock.java`) is
/// declared by that file's type: every rename of the same name pair whose receiver could not be
/// resolved gets it, so the narrow option can use a type-aware `ChangeMethodName`. Left empty when
/// several types declare the pair.
fn attach_declaring_types(files: &[&FileChange<'_>], found: &mut [Found]) {
    let mut owner_of_path: HashMap<&str, String> = HashMap::new();
    for file in files {
        let (Some(old_path), Some(old_text)) = (file.old_path, file.old_text.as_deref()) else { continue };
        let fqn = primary_type(old_path, old_text);
        for path in [Some(old_path), file.new_path].into_iter().flatten() {
            owner_of_path.insert(path, fqn.clone());
        }
    }
    let mut declarers: HashMap<(String, String), BTreeSet<String>> = HashMap::new();
    for f in found.iter() {
        let Fact::Method { old, new, declaring_type } = &f.fact else { continue };
        if !declaring_type.is_empty() {
            continue;
        }
        for line in f.evidence.iter().filter(|l| l.kind == crate::diff::ChangeKind::Removed) {
            if declares_method(&line.content, old)
                && let Some(owner) = owner_of_path.get(line.path.as_str())
            {
                declarers.entry((old.clone(), new.clone())).or_default().insert(owner.clone());
            }
        }
    }
    for f in found.iter_mut() {
        if let Fact::Method { old, new, declaring_type } = &mut f.fact
            && declaring_type.is_empty()
            && let Some(owners) = declarers.get(&(old.clone(), new.clone()))
            && owners.len() == 1
        {
            *declaring_type = owners.iter().next().cloned().unwrap_or_default();
        }
    }
}

/// Whether `line` declares method `name` (a return type or modifier before `name(`, and a body or
/// `;` after), not a call to it.
fn declares_method(line: &str, name: &str) -> bool {
    let trimmed = line.trim();
    let Some(at) = trimmed.find(&format!("{name}(")) else { return false };
    let before = trimmed[..at].trim_end();
    let Some(last) = before.split_whitespace().last() else { return false };
    const NOT_TYPES: &[&str] = &["return", "new", "throw", "else", "case", "yield", "await"];
    let ends_like_type = last.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '>' || c == ']');
    ends_like_type
        && !NOT_TYPES.contains(&last)
        && !before.contains(['=', '(', '.', ';'])
        && (trimmed.ends_with('{') || trimmed.ends_with(';') || trimmed.ends_with(','))
        && !trimmed[at..].contains("->")
}

/// The fully qualified name of the type a Java file is named after: its package + file stem.
fn primary_type(path: &str, text: &str) -> String {
    let stem = path.rsplit('/').next().unwrap_or(path).trim_end_matches(".java");
    let package = Source::parse(text).package;
    if package.is_empty() { stem.to_string() } else { format!("{package}.{stem}") }
}

/// Types renamed or moved together with their file (`Foo.java` -> `Bar.java`, or a new package).
fn declared_renames(files: &[&FileChange<'_>]) -> Vec<Declared> {
    let mut out = Vec::new();
    for file in files {
        let (Some(old_path), Some(new_path)) = (file.old_path, file.new_path) else { continue };
        let (Some(old_text), Some(new_text)) = (file.old_text.as_deref(), file.new_text.as_deref()) else {
            continue;
        };
        let old = primary_type(old_path, old_text);
        let new = primary_type(new_path, new_text);
        if old != new {
            out.push(Declared { old, new });
        }
    }
    out
}

/// Pairs the file's removed and added imports: same simple name in another package is a type
/// move; static imports of the same member from another type are a static call target change.
fn imports(file: &FileChange<'_>, base: &Source, head: &Source, java: &mut JavaFile, found: &mut Vec<Found>) {
    let removed: Vec<(Import, ChangeLine)> = base
        .imports
        .iter()
        .filter(|i| !head.has_import(&i.name, i.is_static))
        .filter_map(|i| file.removed_at(i.line).map(|c| (i.clone(), c.clone())))
        .collect();
    let mut added: Vec<Option<(Import, ChangeLine)>> = head
        .imports
        .iter()
        .filter(|i| !base.has_import(&i.name, i.is_static))
        .filter_map(|i| file.added_at(i.line).map(|c| Some((i.clone(), c.clone()))))
        .collect();
    for (old, old_line) in removed {
        let partner = added.iter().position(|slot| {
            slot.as_ref().is_some_and(|(new, _)| {
                new.is_static == old.is_static
                    && new.is_wildcard() == old.is_wildcard()
                    && !old.is_wildcard()
                    && new.simple() == old.simple()
                    && new.owner() != old.owner()
            })
        });
        let Some(index) = partner else {
            java.loose_removed.push((old, old_line));
            continue;
        };
        let Some((new, new_line)) = added[index].take() else { continue };
        let fact = if old.is_static {
            Fact::StaticCall {
                method: old.simple().to_string(),
                old_type: old.owner().to_string(),
                new_type: new.owner().to_string(),
                new_method: String::new(),
            }
        } else {
            Fact::Type { old: old.name.clone(), new: new.name.clone(), annotation: false }
        };
        found.push(Found { fact, evidence: vec![old_line, new_line] });
    }
    java.loose_added.extend(added.into_iter().flatten());
}

/// Explains replaced body lines whose every difference is a known kind of rename.
fn body(file: &FileChange<'_>, base: &Source, head: &Source, declared: &[Declared], found: &mut Vec<Found>) {
    let old_types = base.types();
    let new_types = head.types();
    let old_statics = base.static_members();
    let new_statics = head.static_members();
    let resolver = Resolver {
        old_types: &old_types,
        new_types: &new_types,
        old_statics: &old_statics,
        new_statics: &new_statics,
        declared,
    };
    let is_import = |c: &&ChangeLine| keyword(c.content.trim(), "import").is_some();
    for block in file.blocks() {
        let removed: Vec<&ChangeLine> = block.removed.iter().filter(|c| !is_import(c)).collect();
        let added: Vec<&ChangeLine> = block.added.iter().filter(|c| !is_import(c)).collect();
        if removed.is_empty() || added.is_empty() {
            continue;
        }
        let old: Vec<&str> = removed.iter().map(|c| c.content.as_str()).collect();
        let new: Vec<&str> = added.iter().map(|c| c.content.as_str()).collect();
        for (i, j) in pair_lines(&old, &new) {
            let evidence = vec![removed[i].clone(), added[j].clone()];
            let facts = if old[i].trim_start().starts_with("package ")
                && new[j].trim_start().starts_with("package ")
            {
                package_declaration(base, head, declared)
            } else {
                resolver.line_pair(old[i], new[j])
            };
            for fact in facts.unwrap_or_default() {
                found.push(Found { fact, evidence: evidence.clone() });
            }
        }
    }
}

/// A changed `package` line of a moved file is the move of its type.
fn package_declaration(base: &Source, head: &Source, declared: &[Declared]) -> Option<Vec<Fact>> {
    if base.package == head.package {
        return None;
    }
    let moved =
        declared.iter().find(|d| package_of(&d.old) == base.package && package_of(&d.new) == head.package)?;
    Some(vec![Fact::Type { old: moved.old.clone(), new: moved.new.clone(), annotation: false }])
}

struct Resolver<'a> {
    old_types: &'a HashMap<&'a str, &'a str>,
    new_types: &'a HashMap<&'a str, &'a str>,
    /// Statically imported members on each side: an unqualified `check(` is `a.B.check(`.
    old_statics: &'a HashMap<&'a str, &'a str>,
    new_statics: &'a HashMap<&'a str, &'a str>,
    declared: &'a [Declared],
}

/// A dotted name resolved to a type and the members after it (`Assert.assertEquals` ->
/// `org.junit.Assert` + `assertEquals`).
#[derive(Debug, PartialEq, Eq)]
struct Ref {
    type_name: String,
    members: Vec<String>,
}

impl Resolver<'_> {
    /// The facts that explain every difference between two lines, or `None` when some difference
    /// is not a rename we understand (then the pair is left for the text fallback).
    fn line_pair(&self, old: &str, new: &str) -> Option<Vec<Fact>> {
        let a = items(old);
        let b = items(new);
        let ops = similar::capture_diff_slices(Algorithm::Myers, &a, &b);
        let mut facts = Vec::new();
        for op in ops {
            let (tag, old_range, new_range) = op.as_tag_tuple();
            match tag {
                DiffTag::Equal => continue,
                DiffTag::Replace if old_range.len() == new_range.len() => {}
                _ => return None,
            }
            for (i, j) in old_range.zip(new_range) {
                let before = if i > 0 { a[i - 1].as_str() } else { "" };
                let after_old = a.get(i + 1).map(String::as_str).unwrap_or("");
                let after_new = b.get(j + 1).map(String::as_str).unwrap_or("");
                let call = after_old == "(" && after_new == "(";
                facts.push(self.substitution(&a[i], &b[j], before == "@", call)?);
            }
        }
        (!facts.is_empty()).then_some(facts)
    }

    fn substitution(&self, old: &str, new: &str, annotation: bool, call: bool) -> Option<Fact> {
        let identifier = |s: &str| s.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$');
        if !identifier(old) || !identifier(new) {
            return None;
        }
        match (self.resolve(old, false), self.resolve(new, true)) {
            (Some(o), Some(n)) => {
                if o.members == n.members && o.type_name != n.type_name {
                    if o.members.is_empty() || o.members == ["class"] {
                        return Some(Fact::Type { old: o.type_name, new: n.type_name, annotation });
                    }
                    if o.members.len() == 1 {
                        return Some(Fact::StaticCall {
                            method: o.members[0].clone(),
                            old_type: o.type_name,
                            new_type: n.type_name,
                            new_method: String::new(),
                        });
                    }
                    return None;
                }
                // `Preconditions.checkNotNull(` -> `Objects.requireNonNull(`: another type's
                // static method in its place.
                let static_call =
                    |r: &Ref| r.members.len() == 1 && r.members[0].starts_with(char::is_lowercase);
                if call && o.type_name != n.type_name && static_call(&o) && static_call(&n) {
                    return Some(Fact::StaticCall {
                        method: o.members[0].clone(),
                        old_type: o.type_name,
                        new_type: n.type_name,
                        new_method: n.members[0].clone(),
                    });
                }
                if o.type_name == n.type_name && o.members.len() == 1 && n.members.len() == 1 && call {
                    return Some(Fact::Method {
                        old: o.members[0].clone(),
                        new: n.members[0].clone(),
                        declaring_type: o.type_name,
                    });
                }
                None
            }
            (None, None) if call => {
                // `receiver.oldName(` -> `receiver.newName(`: same receiver, another method.
                let (old_receiver, old_method) = old.rsplit_once('.').unwrap_or(("", old));
                let (new_receiver, new_method) = new.rsplit_once('.').unwrap_or(("", new));
                let lower = |s: &str| s.starts_with(|c: char| c.is_lowercase());
                (old_receiver == new_receiver && lower(old_method) && lower(new_method)).then(|| {
                    Fact::Method {
                        old: old_method.to_string(),
                        new: new_method.to_string(),
                        declaring_type: String::new(),
                    }
                })
            }
            _ => None,
        }
    }

    /// Resolves a dotted name on one side: a fully qualified name, or a name starting with an
    /// imported (or renamed-with-its-file) type.
    fn resolve(&self, chain: &str, head: bool) -> Option<Ref> {
        let segments: Vec<&str> = chain.split('.').collect();
        let upper = |s: &str| s.starts_with(|c: char| c.is_uppercase());
        // `checkNotNull` alone, statically imported: `Preconditions.checkNotNull`.
        if let [member] = segments.as_slice() {
            let statics = if head { self.new_statics } else { self.old_statics };
            if let Some(owner) = statics.get(member) {
                return Some(Ref { type_name: owner.to_string(), members: vec![member.to_string()] });
            }
        }
        let first_type = segments.iter().position(|s| upper(s))?;
        let (type_name, rest) = if first_type == 0 {
            let imports = if head { self.new_types } else { self.old_types };
            let fqn = match imports.get(segments[0]) {
                Some(fqn) => (*fqn).to_string(),
                None => self.declared_type(segments[0], head)?,
            };
            (fqn, &segments[1..])
        } else if first_type >= 2 {
            // A qualified name such as `javax.persistence.Entity` (a variable never has two
            // lower-case segments before a type).
            (segments[..=first_type].join("."), &segments[first_type + 1..])
        } else {
            return None;
        };
        // Nested types stay part of the type name.
        let nested = rest.iter().take_while(|s| upper(s)).count();
        let mut type_name = type_name;
        for segment in &rest[..nested] {
            type_name.push('.');
            type_name.push_str(segment);
        }
        Some(Ref { type_name, members: rest[nested..].iter().map(|s| s.to_string()).collect() })
    }

    fn declared_type(&self, simple: &str, head: bool) -> Option<String> {
        let mut matches = self.declared.iter().filter_map(|d| {
            let fqn = if head { &d.new } else { &d.old };
            (type_part(fqn) == simple).then(|| fqn.clone())
        });
        let first = matches.next()?;
        matches.next().is_none().then_some(first)
    }
}

/// The tokens of a line, with dotted names kept whole: `Assert.assertEquals`, `(`, `a`, `,`, ...
/// Comments are dropped; string and char literals are single tokens.
fn items(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let ident_start = |c: char| c.is_alphabetic() || c == '_' || c == '$';
    let ident_part = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            break;
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let mut j = i + 2;
            while j + 1 < chars.len() && !(chars[j] == '*' && chars[j + 1] == '/') {
                j += 1;
            }
            i = j + 2;
        } else if c == '"' || c == '\'' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != c {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(chars.len());
            out.push(chars[i..end].iter().collect());
            i = end;
        } else if ident_start(c) {
            let mut j = i;
            loop {
                while j < chars.len() && ident_part(chars[j]) {
                    j += 1;
                }
                if chars.get(j) == Some(&'.') && chars.get(j + 1).is_some_and(|&n| ident_start(n)) {
                    j += 1;
                } else {
                    break;
                }
            }
            out.push(chars[i..j].iter().collect());
            i = j;
        } else if c.is_ascii_digit() {
            let mut j = i;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '.' || chars[j] == '_') {
                j += 1;
            }
            out.push(chars[i..j].iter().collect());
            i = j;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// Wildcard imports replaced in a file (`javax.persistence.*` -> `jakarta.persistence.*`) are a
/// package pair when they are the file's only unexplained wildcards on each side.
fn wildcard_pairs(files: &mut [JavaFile], found: &mut Vec<Found>) {
    for file in files {
        let removed: Vec<usize> = (0..file.loose_removed.len())
            .filter(|&i| !file.loose_removed[i].0.is_static && file.loose_removed[i].0.is_wildcard())
            .collect();
        let added: Vec<usize> = (0..file.loose_added.len())
            .filter(|&i| !file.loose_added[i].0.is_static && file.loose_added[i].0.is_wildcard())
            .collect();
        if removed.len() != added.len() || removed.is_empty() {
            continue;
        }
        for (&r, &a) in removed.iter().zip(&added) {
            let (old, old_line) = &file.loose_removed[r];
            let (new, new_line) = &file.loose_added[a];
            found.push(Found {
                fact: Fact::Package { old: old.owner().to_string(), new: new.owner().to_string() },
                evidence: vec![old_line.clone(), new_line.clone()],
            });
        }
        let mut index = 0;
        file.loose_removed.retain(|_| {
            index += 1;
            !removed.contains(&(index - 1))
        });
        let mut index = 0;
        file.loose_added.retain(|_| {
            index += 1;
            !added.contains(&(index - 1))
        });
    }
}

/// Groups facts into atomic intents: package moves where a whole package moved, type renames and
/// annotation changes otherwise, static call target changes and method renames.
fn group(found: Vec<Found>, files: &[JavaFile]) -> Vec<Atomic> {
    let mut by_fact: BTreeMap<Fact, Vec<ChangeLine>> = BTreeMap::new();
    for f in found {
        by_fact.entry(f.fact).or_default().extend(f.evidence);
    }
    let mut done: BTreeSet<Fact> = BTreeSet::new();
    let mut out = package_moves(&by_fact, files, &mut done);
    out.extend(renames(&by_fact, &done));
    out
}

/// Package moves where a whole package moved (every type keeps its name and nothing still imports
/// the old package); the facts they explain go into `done`.
fn package_moves(
    by_fact: &BTreeMap<Fact, Vec<ChangeLine>>,
    files: &[JavaFile],
    done: &mut BTreeSet<Fact>,
) -> Vec<Atomic> {
    // Package pairs, and every type fact under the old package.
    let mut packages: BTreeMap<String, BTreeMap<String, Vec<Fact>>> = BTreeMap::new();
    for fact in by_fact.keys() {
        match fact {
            Fact::Type { old, new, .. } => {
                packages
                    .entry(package_of(old).to_string())
                    .or_default()
                    .entry(package_of(new).to_string())
                    .or_default()
                    .push(fact.clone());
            }
            Fact::Package { old, new } => {
                packages.entry(old.clone()).or_default().entry(new.clone()).or_default().push(fact.clone());
            }
            _ => {}
        }
    }
    let still_imported = |package: &str| {
        files.iter().any(|f| {
            f.head.imports.iter().any(|i| {
                !i.is_static
                    && (i.owner() == package)
                    && (i.is_wildcard() || i.simple().starts_with(|c: char| c.is_uppercase()))
            })
        })
    };
    let mut out = Vec::new();
    for (old_package, targets) in &packages {
        if targets.len() != 1 || old_package.is_empty() {
            continue;
        }
        let Some((new_package, facts)) = targets.iter().next() else { continue };
        if new_package.is_empty() || new_package == old_package {
            continue;
        }
        let types: BTreeSet<&str> = facts
            .iter()
            .filter_map(|f| match f {
                Fact::Type { old, .. } => Some(type_part(old)),
                _ => None,
            })
            .collect();
        let same_names = facts.iter().all(|f| match f {
            Fact::Type { old, new, .. } => type_part(old) == type_part(new),
            _ => true,
        });
        let last = |p: &str| p.rsplit('.').next().unwrap_or(p).to_string();
        let only_wildcards = types.is_empty();
        let whole_package = same_names
            && !still_imported(old_package)
            && (last(old_package) == last(new_package) || types.len() >= 3 || only_wildcards);
        if !whole_package && !only_wildcards {
            continue;
        }
        let mut evidence = Vec::new();
        for fact in facts {
            evidence.extend(by_fact.get(fact).cloned().unwrap_or_default());
            done.insert(fact.clone());
        }
        out.push(
            Atomic::new(
                Change::JavaPackageMove {
                    old_package: old_package.to_string(),
                    new_package: new_package.to_string(),
                },
                "",
                format!("Move package {old_package} -> {new_package}"),
            )
            .evidence(evidence),
        );
    }
    out
}

/// One intent per distinct rename the package moves left: types, annotations, static call
/// targets, methods (and wildcard package pairs whose package did not move as a whole).
fn renames(by_fact: &BTreeMap<Fact, Vec<ChangeLine>>, done: &BTreeSet<Fact>) -> Vec<Atomic> {
    let mut out = Vec::new();
    let mut types: BTreeMap<(String, String), (bool, Vec<ChangeLine>)> = BTreeMap::new();
    for (fact, evidence) in by_fact {
        if done.contains(fact) {
            continue;
        }
        match fact {
            Fact::Type { old, new, annotation } => {
                let entry = types.entry((old.clone(), new.clone())).or_default();
                entry.0 |= *annotation;
                entry.1.extend(evidence.iter().cloned());
            }
            Fact::Package { old, new } => {
                // A wildcard pair whose package did not move as a whole: the types named below it.
                let mut attached = false;
                for ((o, n), entry) in types.iter_mut() {
                    if package_of(o) == old && package_of(n) == new {
                        entry.1.extend(evidence.iter().cloned());
                        attached = true;
                    }
                }
                if !attached {
                    out.push(
                        Atomic::new(
                            Change::JavaPackageMove {
                                old_package: old.to_string(),
                                new_package: new.to_string(),
                            },
                            "",
                            format!("Move package {old} -> {new}"),
                        )
                        .evidence(evidence.iter().cloned()),
                    );
                }
            }
            Fact::StaticCall { method, old_type, new_type, new_method } => {
                let what = if method == "*" { "static members".to_string() } else { format!("{method}()") };
                let description = if new_method.is_empty() {
                    format!("Call {what} on {new_type} instead of {old_type}")
                } else {
                    format!("Call {new_type}.{new_method}() instead of {old_type}.{method}()")
                };
                out.push(
                    Atomic::new(
                        Change::JavaStaticCallTarget {
                            method: method.to_string(),
                            old_type: old_type.to_string(),
                            new_type: new_type.to_string(),
                            new_method: new_method.to_string(),
                        },
                        "",
                        description,
                    )
                    .evidence(evidence.iter().cloned()),
                );
            }
            Fact::Method { old, new, declaring_type } => {
                let on =
                    if declaring_type.is_empty() { String::new() } else { format!(" on {declaring_type}") };
                out.push(
                    Atomic::new(
                        Change::JavaMethodRename {
                            old_method: old.to_string(),
                            new_method: new.to_string(),
                            declaring_type: declaring_type.to_string(),
                        },
                        "",
                        format!("Rename method {old}() -> {new}(){on}"),
                    )
                    .evidence(evidence.iter().cloned()),
                );
            }
        }
    }
    for ((old, new), (annotation, evidence)) in types {
        let renamed = type_part(&old) != type_part(&new);
        let atomic = if annotation && renamed {
            Atomic::new(
                Change::JavaAnnotationChange {
                    old_annotation: old.to_string(),
                    new_annotation: new.to_string(),
                },
                "",
                format!("Change annotation @{} -> @{}", type_part(&old), type_part(&new)),
            )
        } else {
            Atomic::new(
                Change::JavaTypeRename { old_type: old.to_string(), new_type: new.to_string() },
                "",
                format!("Change type {old} -> {new}"),
            )
        };
        out.push(atomic.evidence(evidence));
    }
    out
}

/// Import lines that were not paired by name are evidence of the intents that name their type or
/// package: `import org.junit.Before;` of the change to `org.junit.jupiter.api.BeforeEach`.
fn attach_loose_imports(files: &[JavaFile], atomics: &mut [Atomic]) {
    for file in files {
        for (import, line) in &file.loose_removed {
            attach(import, line, atomics, true);
        }
        for (import, line) in &file.loose_added {
            attach(import, line, atomics, false);
        }
    }
}

fn attach(import: &Import, line: &ChangeLine, atomics: &mut [Atomic], old: bool) {
    let side = |old_name: &str, new_name: &str| if old { old_name.to_string() } else { new_name.to_string() };
    let (name, owner) = (import.name.as_str(), import.owner());
    for atomic in atomics.iter_mut() {
        let hit = match &atomic.change {
            Change::JavaTypeRename { old_type, new_type } => {
                let wanted = side(old_type, new_type);
                !import.is_static
                    && (wanted == name || (import.is_wildcard() && package_of(&wanted) == owner))
            }
            Change::JavaAnnotationChange { old_annotation, new_annotation } => {
                !import.is_static && side(old_annotation, new_annotation) == name
            }
            Change::JavaPackageMove { old_package, new_package } => {
                !import.is_static && side(old_package, new_package) == package_of(name)
            }
            Change::JavaStaticCallTarget { method, old_type, new_type, new_method } => {
                let target = side(old_type, new_type);
                let method = if new_method.is_empty() { method.clone() } else { side(method, new_method) };
                if import.is_static {
                    target == owner && (import.simple() == "*" || method == "*" || method == import.simple())
                } else {
                    target == name
                }
            }
            _ => false,
        };
        if hit {
            atomic.evidence.push(line.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_keep_dotted_names_whole() {
        assert_eq!(
            items("  Assert.assertEquals(\"a.b\", x); // done"),
            vec!["Assert.assertEquals", "(", "\"a.b\"", ",", "x", ")", ";"]
        );
        assert_eq!(items("@Before"), vec!["@", "Before"]);
    }

    #[test]
    fn package_and_type_parts() {
        assert_eq!(package_of("javax.persistence.Entity"), "javax.persistence");
        assert_eq!(package_of("java.util.Map.Entry"), "java.util");
        assert_eq!(type_part("java.util.Map.Entry"), "Map.Entry");
        assert_eq!(package_of("Foo"), "");
    }

    #[test]
    fn parses_imports_and_package() {
        let source = Source::parse(
            "package com.acme;\n\nimport static org.junit.Assert.*;\nimport java.util.List ;\n",
        );
        assert_eq!(source.package, "com.acme");
        assert_eq!(source.imports.len(), 2);
        assert!(source.imports[0].is_static && source.imports[0].is_wildcard());
        assert_eq!(source.imports[0].owner(), "org.junit.Assert");
        assert_eq!(source.imports[1].name, "java.util.List");
    }
}
