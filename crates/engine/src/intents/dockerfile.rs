//! Dockerfiles: `FROM` image and tag changes, stage by stage.

use crate::model::Change;

use super::atomic::Atomic;
use super::change::{FileChange, lines};

/// One `FROM` instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
struct From {
    image: String,
    tag: String,
    stage: String,
    line: usize,
}

pub(crate) fn analyze(file: &FileChange<'_>) -> Option<Vec<Atomic>> {
    let old = parse(file.old_text.as_deref()?);
    let new = parse(file.new_text.as_deref()?);
    let mut out = Vec::new();
    for (before, after) in pair_stages(&old, &new) {
        if before.image == after.image && before.tag == after.tag {
            continue;
        }
        let show =
            |f: &From| if f.tag.is_empty() { f.image.clone() } else { format!("{}:{}", f.image, f.tag) };
        let title = if before.image == after.image {
            format!("Change image {} tag {} -> {}", before.image, before.tag, after.tag)
        } else {
            format!("Change image {} -> {}", show(before), show(after))
        };
        let evidence: Vec<_> =
            file.removed_at(before.line).into_iter().chain(file.added_at(after.line)).cloned().collect();
        out.push(
            Atomic::new(
                Change::DockerFromChange {
                    old_image: before.image.to_string(),
                    old_tag: before.tag.to_string(),
                    new_image: after.image.to_string(),
                    new_tag: after.tag.to_string(),
                },
                file.path,
                title,
            )
            .evidence(evidence),
        );
    }
    out.retain(|a| !a.evidence.is_empty());
    Some(out)
}

/// Stages are matched by name when both sides name them, otherwise by position.
fn pair_stages<'a>(old: &'a [From], new: &'a [From]) -> Vec<(&'a From, &'a From)> {
    let mut out = Vec::new();
    for (i, before) in old.iter().enumerate() {
        let named =
            (!before.stage.is_empty()).then(|| new.iter().find(|n| n.stage == before.stage)).flatten();
        if let Some(after) = named.or_else(|| new.get(i)) {
            out.push((before, after));
        }
    }
    out
}

fn parse(text: &str) -> Vec<From> {
    let mut out = Vec::new();
    for (index, line) in lines(text).iter().enumerate() {
        let mut words = line.split_whitespace();
        if !words.next().is_some_and(|w| w.eq_ignore_ascii_case("FROM")) {
            continue;
        }
        let mut words = words.skip_while(|w| w.starts_with("--"));
        let Some(reference) = words.next() else { continue };
        let stage = match (words.next(), words.next()) {
            (Some(r#as), Some(name)) if r#as.eq_ignore_ascii_case("AS") => name.to_string(),
            _ => String::new(),
        };
        let (image, tag) = split_reference(reference);
        out.push(From { image, tag, stage, line: index + 1 });
    }
    out
}

/// `registry:5000/team/app:1.2@sha256:…` -> (`registry:5000/team/app`, `1.2@sha256:…`): the tag is
/// after the last `:` of the last path segment; a digest stays with the tag.
pub(crate) fn split_reference(reference: &str) -> (String, String) {
    let (name, digest) = match reference.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (reference, None),
    };
    let last_slash = name.rfind('/').map(|i| i + 1).unwrap_or(0);
    let (image, tag) = match name[last_slash..].rfind(':') {
        Some(colon) => (&name[..last_slash + colon], &name[last_slash + colon + 1..]),
        None => (name, ""),
    };
    let tag = match digest {
        Some(d) if tag.is_empty() => format!("@{d}"),
        Some(d) => format!("{tag}@{d}"),
        None => tag.to_string(),
    };
    (image.to_string(), tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_split_into_image_and_tag() {
        assert_eq!(split_reference("eclipse-temurin:17-jre"), ("eclipse-temurin".into(), "17-jre".into()));
        assert_eq!(split_reference("localhost:5000/app"), ("localhost:5000/app".into(), String::new()));
        assert_eq!(split_reference("ghcr.io/a/b:1@sha256:ab"), ("ghcr.io/a/b".into(), "1@sha256:ab".into()));
    }

    #[test]
    fn stages_and_platform_flags() {
        let froms = parse(
            "FROM --platform=linux/amd64 maven:3.9-eclipse-temurin-17 AS build\nRUN x\nfrom eclipse-temurin:17-jre\n",
        );
        assert_eq!(froms.len(), 2);
        assert_eq!(froms[0].stage, "build");
        assert_eq!(froms[0].image, "maven");
        assert_eq!(froms[1].line, 3);
    }
}
