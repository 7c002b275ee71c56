//! Maven POMs, read with a real XML parser: parent, properties, dependencies (plain, managed, in
//! profiles and in plugins), plugin versions and configuration, repositories. Each entity is found
//! in the full base and head files, so a changed `<version>` line is attributed to the dependency
//! whose groupId/artifactId surround it. A POM that does not parse falls back to text intents.

use std::collections::{BTreeMap, BTreeSet};

use quick_xml::events::Event;
use quick_xml::reader::Reader;

use crate::model::Change;
use crate::model::ChangeLine;

use super::Side;
use super::atomic::Atomic;
use super::change::FileChange;
use super::versions::related_artifacts;

/// An XML element with the lines it spans.
#[derive(Debug, Default, Clone)]
pub(crate) struct Node {
    pub name: String,
    pub text: String,
    /// Line of the start tag and of the end tag (1-based, inclusive).
    pub start: usize,
    pub end: usize,
    pub children: Vec<Node>,
}

impl Node {
    fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The trimmed text of a child element, or "".
    fn value(&self, name: &str) -> String {
        self.child(name).map(|c| c.text.trim().to_string()).unwrap_or_default()
    }

    fn span(&self) -> (usize, usize) {
        (self.start, self.end)
    }
}

/// Parses a document into its root element, or `None` when it is not well-formed XML.
pub(crate) fn parse_xml(text: &str) -> Option<Node> {
    let newlines: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
    let line_of = |offset: u64| -> usize {
        let offset = usize::try_from(offset).unwrap_or(usize::MAX);
        newlines.partition_point(|&n| n < offset) + 1
    };
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut stack: Vec<Node> = Vec::new();
    let mut root: Option<Node> = None;
    loop {
        let before = reader.buffer_position();
        let event = reader.read_event().ok()?;
        let after = reader.buffer_position();
        match event {
            Event::Start(tag) => {
                let name = tag.local_name().as_ref().to_string();
                stack.push(Node { name, start: line_of(before), ..Node::default() });
            }
            Event::Empty(tag) => {
                let name = tag.local_name().as_ref().to_string();
                let node = Node {
                    name,
                    start: line_of(before),
                    end: line_of(after.saturating_sub(1)),
                    ..Node::default()
                };
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => root = root.or(Some(node)),
                }
            }
            Event::End(_) => {
                let mut node = stack.pop()?;
                node.end = line_of(after.saturating_sub(1));
                match stack.last_mut() {
                    Some(parent) => parent.children.push(node),
                    None => root = root.or(Some(node)),
                }
            }
            Event::Text(text) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&text);
                }
            }
            Event::CData(data) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&data);
                }
            }
            Event::GeneralRef(reference) => {
                if let Some(top) = stack.last_mut() {
                    let resolved = match reference.resolve_char_ref() {
                        Ok(Some(c)) => c.to_string(),
                        _ => match &*reference {
                            "lt" => "<".into(),
                            "gt" => ">".into(),
                            "amp" => "&".into(),
                            "apos" => "'".into(),
                            "quot" => "\"".into(),
                            other => format!("&{other};"),
                        },
                    };
                    top.text.push_str(&resolved);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !stack.is_empty() {
        return None;
    }
    root
}

/// Coordinates of a dependency or plugin, with where it and its version are.
#[derive(Debug, Clone)]
struct Artifact {
    /// Where it is declared: `dependencies`, `dependencyManagement`, `profile:ID/dependencies`,
    /// `plugin:G:A` (a plugin's own dependencies), `build/plugins`, ...
    context: String,
    group: String,
    artifact: String,
    version: String,
    scope: String,
    /// `type` and `classifier` tell two artifacts with the same coordinates apart.
    variant: String,
    span: (usize, usize),
    version_span: Option<(usize, usize)>,
    /// Plugin `configuration` leaves: dotted path -> (value, span).
    config: BTreeMap<String, (String, (usize, usize))>,
}

impl Artifact {
    fn key(&self) -> (String, String, String, String) {
        (self.context.clone(), self.group.clone(), self.artifact.clone(), self.variant.clone())
    }

    fn managed(&self) -> bool {
        self.context.ends_with("dependencyManagement") || self.context.ends_with("pluginManagement")
    }

    fn coordinates(&self) -> String {
        format!("{}:{}", self.group, self.artifact)
    }
}

#[derive(Debug, Clone)]
struct Entry {
    value: String,
    span: (usize, usize),
}

/// A repository's name and update policies, as written.
#[derive(Debug, Default, Clone)]
struct RepositoryInfo {
    name: String,
    snapshots: String,
    releases: String,
}

#[derive(Debug, Default)]
struct Pom {
    parent: Option<Artifact>,
    /// (profile id or "", key) -> value.
    properties: BTreeMap<(String, String), Entry>,
    dependencies: Vec<Artifact>,
    plugins: Vec<Artifact>,
    /// (section, id) -> what else the repository says.
    repository_info: BTreeMap<(String, String), RepositoryInfo>,
    /// Section (`repositories`, `pluginRepositories`, with a profile's prefix) -> its element's lines.
    repository_sections: BTreeMap<String, (usize, usize)>,
    /// (section, id) -> url.
    repositories: BTreeMap<(String, String), Entry>,
}

impl Pom {
    fn read(root: &Node) -> Pom {
        let mut pom = Pom::default();
        if let Some(parent) = root.child("parent") {
            pom.parent = Some(artifact(parent, "parent", ""));
        }
        pom.section(root, "");
        if let Some(profiles) = root.child("profiles") {
            for profile in profiles.all("profile") {
                let id = profile.value("id");
                pom.section(profile, &format!("profile:{id}/"));
            }
        }
        pom
    }

    /// What a project and a profile have in common.
    fn section(&mut self, node: &Node, prefix: &str) {
        if let Some(properties) = node.child("properties") {
            for property in &properties.children {
                let key = (prefix.trim_end_matches('/').to_string(), property.name.clone());
                let entry = Entry { value: property.text.trim().to_string(), span: property.span() };
                self.properties.insert(key, entry);
            }
        }
        self.dependencies_in(node.child("dependencies"), &format!("{prefix}dependencies"));
        if let Some(management) = node.child("dependencyManagement") {
            self.dependencies_in(management.child("dependencies"), &format!("{prefix}dependencyManagement"));
        }
        if let Some(build) = node.child("build") {
            self.plugins_in(build.child("plugins"), &format!("{prefix}build/plugins"));
            if let Some(management) = build.child("pluginManagement") {
                self.plugins_in(management.child("plugins"), &format!("{prefix}build/pluginManagement"));
            }
        }
        for (section, item) in [("repositories", "repository"), ("pluginRepositories", "pluginRepository")] {
            if let Some(list) = node.child(section) {
                self.repository_sections.insert(format!("{prefix}{section}"), list.span());
                for repository in list.all(item) {
                    let key = (format!("{prefix}{section}"), repository.value("id"));
                    let entry = Entry { value: repository.value("url"), span: repository.span() };
                    let enabled = |policy: &str| {
                        repository.child(policy).map(|p| p.value("enabled")).unwrap_or_default()
                    };
                    let info = RepositoryInfo {
                        name: repository.value("name"),
                        snapshots: enabled("snapshots"),
                        releases: enabled("releases"),
                    };
                    self.repositories.insert(key.clone(), entry);
                    self.repository_info.insert(key, info);
                }
            }
        }
    }

    fn dependencies_in(&mut self, list: Option<&Node>, context: &str) {
        for dependency in list.into_iter().flat_map(|l| l.all("dependency")) {
            self.dependencies.push(artifact(dependency, context, ""));
        }
    }

    fn plugins_in(&mut self, list: Option<&Node>, context: &str) {
        for plugin in list.into_iter().flat_map(|l| l.all("plugin")) {
            let mut found = artifact(plugin, context, "org.apache.maven.plugins");
            if let Some(configuration) = plugin.child("configuration") {
                flatten(configuration, "", &mut found.config);
            }
            let own = format!("plugin:{}", found.coordinates());
            self.plugins.push(found);
            self.dependencies_in(plugin.child("dependencies"), &own);
        }
    }
}

fn artifact(node: &Node, context: &str, default_group: &str) -> Artifact {
    let group = node.value("groupId");
    let group = if group.is_empty() { default_group.to_string() } else { group };
    let variant = format!("{}:{}", node.value("type"), node.value("classifier"));
    Artifact {
        context: context.to_string(),
        group,
        artifact: node.value("artifactId"),
        version: node.value("version"),
        scope: node.value("scope"),
        variant,
        span: node.span(),
        version_span: node.child("version").map(Node::span),
        config: BTreeMap::new(),
    }
}

/// Leaves of a plugin configuration as dotted paths (`compilerArgs.arg`); repeated names keep the
/// first occurrence.
fn flatten(node: &Node, prefix: &str, out: &mut BTreeMap<String, (String, (usize, usize))>) {
    for child in &node.children {
        let path = if prefix.is_empty() { child.name.clone() } else { format!("{prefix}.{}", child.name) };
        if child.children.is_empty() {
            out.entry(path).or_insert_with(|| (child.text.trim().to_string(), child.span()));
        } else {
            flatten(child, &path, out);
        }
    }
}

pub(crate) fn analyze(file: &FileChange<'_>) -> Option<Vec<Atomic>> {
    let old = Pom::read(&parse_xml(file.old_text.as_deref()?)?);
    let new = Pom::read(&parse_xml(file.new_text.as_deref()?)?);
    let mut out = Vec::new();
    let evidence = |old: Option<(usize, usize)>, new: Option<(usize, usize)>| -> Vec<ChangeLine> {
        let mut lines = old.map(|(a, b)| file.removed_between(a, b)).unwrap_or_default();
        lines.extend(new.map(|(a, b)| file.added_between(a, b)).unwrap_or_default());
        lines
    };
    parent(file, &old, &new, &evidence, &mut out);
    properties(file, &old, &new, &evidence, &mut out);
    dependencies(file, &old, &new, &evidence, &mut out);
    plugins(file, &old, &new, &evidence, &mut out);
    repositories(file, &old, &new, &evidence, &mut out);
    out.retain(|a| !a.evidence.is_empty());
    Some(out)
}

type Evidence<'e> = dyn Fn(Option<(usize, usize)>, Option<(usize, usize)>) -> Vec<ChangeLine> + 'e;

fn parent(file: &FileChange<'_>, old: &Pom, new: &Pom, evidence: &Evidence<'_>, out: &mut Vec<Atomic>) {
    let gav = |p: &Option<Artifact>| {
        p.as_ref().map(|p| (p.group.clone(), p.artifact.clone(), p.version.clone())).unwrap_or_default()
    };
    let (og, oa, ov) = gav(&old.parent);
    let (ng, na, nv) = gav(&new.parent);
    if (&og, &oa, &ov) == (&ng, &na, &nv) {
        return;
    }
    // Dependencies the PR left without a version (the new parent manages them now).
    let deps = match_artifacts(&old.dependencies, &new.dependencies);
    let drops_managed_versions = deps.both.iter().any(|(o, n)| !o.version.is_empty() && n.version.is_empty());
    let title = if og == ng && oa == na {
        format!("Change parent {og}:{oa} {ov} -> {nv}")
    } else {
        format!("Change parent {og}:{oa}:{ov} -> {ng}:{na}:{nv}")
    };
    out.push(
        Atomic::new(
            Change::MavenParentChange {
                old_group_id: og.to_string(),
                old_artifact_id: oa.to_string(),
                old_version: ov.to_string(),
                new_group_id: ng.to_string(),
                new_artifact_id: na.to_string(),
                new_version: nv.to_string(),
                drops_managed_versions,
            },
            file.path,
            title,
        )
        .evidence(evidence(old.parent.as_ref().map(|p| p.span), new.parent.as_ref().map(|p| p.span))),
    );
}

fn properties(file: &FileChange<'_>, old: &Pom, new: &Pom, evidence: &Evidence<'_>, out: &mut Vec<Atomic>) {
    let keys: BTreeSet<&(String, String)> = old.properties.keys().chain(new.properties.keys()).collect();
    for key in keys {
        let (profile, name) = key;
        let (before, after) = (old.properties.get(key), new.properties.get(key));
        let profile = (!profile.is_empty()).then(|| profile.trim_start_matches("profile:").to_string());
        let atomic = match (before, after) {
            (Some(b), Some(a)) if b.value != a.value => Atomic::new(
                Change::MavenPropertyChange {
                    key: name.to_string(),
                    old_value: b.value.to_string(),
                    new_value: a.value.to_string(),
                    profile,
                },
                file.path,
                format!("Change property {name} {} -> {} in {}", b.value, a.value, file.path),
            ),
            (None, Some(a)) => Atomic::new(
                Change::MavenPropertyAdded { key: name.to_string(), value: a.value.to_string(), profile },
                file.path,
                format!("Add property {name} = {} in {}", a.value, file.path),
            ),
            (Some(_), None) => Atomic::new(
                Change::MavenPropertyRemoved { key: name.to_string(), profile },
                file.path,
                format!("Remove property {name} from {}", file.path),
            ),
            _ => continue,
        };
        out.push(atomic.evidence(evidence(before.map(|e| e.span), after.map(|e| e.span))));
    }
}

/// Artifacts of one side not found on the other, and pairs found on both.
struct Matched<'a> {
    both: Vec<(&'a Artifact, &'a Artifact)>,
    removed: Vec<&'a Artifact>,
    added: Vec<&'a Artifact>,
}

fn match_artifacts<'a>(old: &'a [Artifact], new: &'a [Artifact]) -> Matched<'a> {
    let mut both = Vec::new();
    let mut removed = Vec::new();
    let mut taken = vec![false; new.len()];
    for o in old {
        match (0..new.len()).find(|&j| !taken[j] && new[j].key() == o.key()) {
            Some(j) => {
                taken[j] = true;
                both.push((o, &new[j]));
            }
            None => removed.push(o),
        }
    }
    let added = new.iter().enumerate().filter(|(j, _)| !taken[*j]).map(|(_, a)| a).collect();
    Matched { both, removed, added }
}

/// A removed and an added artifact of the same library (shared name words): one replaced the
/// other. One edited in the same place is preferred to one elsewhere in the same section; an
/// unrelated one counts only when it alone took the removed one's place.
fn pair_swaps<'a>(
    file: &FileChange<'_>,
    removed: &mut Vec<&'a Artifact>,
    added: &mut Vec<&'a Artifact>,
) -> Vec<(&'a Artifact, &'a Artifact)> {
    let mut swaps = Vec::new();
    let mut i = 0;
    while i < removed.len() {
        let o = removed[i];
        let related = |a: &&Artifact| {
            a.context == o.context && related_artifacts(&o.group, &o.artifact, &a.group, &a.artifact)
        };
        // The change block the removed artifact is in; an added one in the same block took its place.
        let block = file.block_between(Side::Base, o.span.0, o.span.1);
        let in_block = |a: &&Artifact| {
            a.context == o.context
                && block.is_some()
                && file.block_between(Side::Head, a.span.0, a.span.1) == block
        };
        let same_place =
            |a: &&Artifact| related(a) && (file.old_to_new(o.span.0) == Some(a.span.0) || in_block(a));
        // An unrelated artifact in exactly the place of the removed one, alone in its change
        // block on both sides, replaced it too (log4j:log4j 1.2.17 -> ch.qos.reload4j:reload4j
        // 1.2.25) ...
        let alone = removed
            .iter()
            .filter(|r| r.context == o.context && file.block_between(Side::Base, r.span.0, r.span.1) == block)
            .count()
            == 1
            && added.iter().filter(|a| in_block(a)).count() == 1;
        // ... and looks like a drop-in: same scope, same major version (a fork or relocation).
        let major = |v: &str| v.split(['.', '-']).next().unwrap_or("").to_string();
        let drop_in = |a: &&Artifact| {
            a.scope == o.scope && !o.version.is_empty() && major(&a.version) == major(&o.version)
        };
        let replaced_in_place = |a: &&Artifact| alone && in_block(a) && drop_in(a);
        match added
            .iter()
            .position(same_place)
            .or_else(|| added.iter().position(related))
            .or_else(|| added.iter().position(replaced_in_place))
        {
            Some(j) => {
                swaps.push((o, added.remove(j)));
                removed.remove(i);
            }
            None => i += 1,
        }
    }
    swaps
}

fn dependencies(file: &FileChange<'_>, old: &Pom, new: &Pom, evidence: &Evidence<'_>, out: &mut Vec<Atomic>) {
    // Dependencies of a plugin that was added or removed belong to that plugin.
    let contexts = |pom: &Pom| -> BTreeSet<String> {
        pom.plugins.iter().map(|p| format!("plugin:{}", p.coordinates())).collect()
    };
    let (old_plugins, new_plugins) = (contexts(old), contexts(new));
    let kept = |a: &&Artifact| {
        !a.context.starts_with("plugin:")
            || (old_plugins.contains(&a.context) && new_plugins.contains(&a.context))
    };
    let old_deps: Vec<Artifact> = old.dependencies.iter().filter(kept).cloned().collect();
    let new_deps: Vec<Artifact> = new.dependencies.iter().filter(kept).cloned().collect();
    let Matched { both, mut removed, mut added } = match_artifacts(&old_deps, &new_deps);
    for (o, n) in both {
        if o.version != n.version {
            out.push(
                Atomic::new(
                    Change::MavenDependencyVersion {
                        group_id: o.group.to_string(),
                        artifact_id: o.artifact.to_string(),
                        old_version: o.version.to_string(),
                        new_version: n.version.to_string(),
                        managed: o.managed(),
                    },
                    file.path,
                    format!("Upgrade {} {} -> {}{}", o.coordinates(), o.version, n.version, managed_note(o)),
                )
                .evidence(evidence(o.version_span, n.version_span)),
            );
        }
    }
    for (o, n) in pair_swaps(file, &mut removed, &mut added) {
        out.push(
            Atomic::new(
                Change::MavenDependencySwap {
                    old_group_id: o.group.to_string(),
                    old_artifact_id: o.artifact.to_string(),
                    new_group_id: n.group.to_string(),
                    new_artifact_id: n.artifact.to_string(),
                    old_version: o.version.to_string(),
                    new_version: n.version.to_string(),
                    managed: o.managed(),
                },
                file.path,
                format!("Replace {} with {}{}", o.coordinates(), n.coordinates(), managed_note(o)),
            )
            .evidence(evidence(Some(o.span), Some(n.span))),
        );
    }
    for o in removed {
        out.push(
            Atomic::new(
                Change::MavenDependencyRemoved {
                    group_id: o.group.to_string(),
                    artifact_id: o.artifact.to_string(),
                    managed: o.managed(),
                },
                file.path,
                format!("Remove dependency {}", o.coordinates()),
            )
            .evidence(evidence(Some(o.span), None)),
        );
    }
    for n in added {
        let version = if n.version.is_empty() { String::new() } else { format!(" {}", n.version) };
        out.push(
            Atomic::new(
                Change::MavenDependencyAdded {
                    group_id: n.group.to_string(),
                    artifact_id: n.artifact.to_string(),
                    version: n.version.to_string(),
                    scope: n.scope.to_string(),
                    managed: n.managed(),
                },
                file.path,
                format!("Add dependency {}{version}", n.coordinates()),
            )
            .evidence(evidence(None, Some(n.span))),
        );
    }
}

fn managed_note(a: &Artifact) -> &'static str {
    if a.managed() { " (managed)" } else { "" }
}

fn plugins(file: &FileChange<'_>, old: &Pom, new: &Pom, evidence: &Evidence<'_>, out: &mut Vec<Atomic>) {
    let Matched { both, removed, added } = match_artifacts(&old.plugins, &new.plugins);
    for (o, n) in both {
        if o.version != n.version {
            out.push(
                Atomic::new(
                    Change::MavenPluginVersion {
                        group_id: o.group.to_string(),
                        artifact_id: o.artifact.to_string(),
                        old_version: o.version.to_string(),
                        new_version: n.version.to_string(),
                    },
                    file.path,
                    format!("Upgrade plugin {} {} -> {}", o.coordinates(), o.version, n.version),
                )
                .evidence(evidence(o.version_span, n.version_span)),
            );
        }
        for (key, (old_value, old_span)) in &o.config {
            let Some((new_value, new_span)) = n.config.get(key) else { continue };
            if old_value != new_value {
                out.push(
                    Atomic::new(
                        Change::MavenPluginConfig {
                            group_id: o.group.to_string(),
                            artifact_id: o.artifact.to_string(),
                            key: key.to_string(),
                            old_value: old_value.to_string(),
                            new_value: new_value.to_string(),
                        },
                        file.path,
                        format!("Set {} <{key}> {old_value} -> {new_value}", o.artifact),
                    )
                    .evidence(evidence(Some(*old_span), Some(*new_span))),
                );
            }
        }
    }
    for o in removed {
        out.push(
            Atomic::new(
                Change::MavenPluginRemoved {
                    group_id: o.group.to_string(),
                    artifact_id: o.artifact.to_string(),
                },
                file.path,
                format!("Remove plugin {}", o.coordinates()),
            )
            .evidence(evidence(Some(o.span), None)),
        );
    }
    for n in added {
        out.push(
            Atomic::new(
                Change::MavenPluginAdded {
                    group_id: n.group.to_string(),
                    artifact_id: n.artifact.to_string(),
                    version: n.version.to_string(),
                    section: n.context.to_string(),
                },
                file.path,
                format!("Add plugin {} {}", n.coordinates(), n.version),
            )
            .evidence(evidence(None, Some(n.span))),
        );
    }
}

fn repositories(file: &FileChange<'_>, old: &Pom, new: &Pom, evidence: &Evidence<'_>, out: &mut Vec<Atomic>) {
    let keys: BTreeSet<&(String, String)> = old.repositories.keys().chain(new.repositories.keys()).collect();
    let mut claimed: BTreeSet<String> = BTreeSet::new();
    for key in keys {
        let (section, id) = key;
        let (before, after) = (old.repositories.get(key), new.repositories.get(key));
        let old_url = before.map(|e| e.value.clone()).unwrap_or_default();
        let new_url = after.map(|e| e.value.clone()).unwrap_or_default();
        let info = new.repository_info.get(key).cloned().unwrap_or_default();
        let (change, title) = match (before, after) {
            (Some(_), Some(_)) if old_url != new_url => {
                ("url", format!("Change repository {id} URL -> {new_url}"))
            }
            (None, Some(_)) => ("added", format!("Add repository {id} ({new_url})")),
            (Some(_), None) => ("removed", format!("Remove repository {id}")),
            _ => continue,
        };
        out.push(
            Atomic::new(
                Change::MavenRepositoryChange {
                    change: change.to_string(),
                    section: section.to_string(),
                    id: id.to_string(),
                    old_url: old_url.to_string(),
                    new_url: new_url.to_string(),
                    name: if change == "added" { info.name } else { String::new() },
                    snapshots: if change == "added" { info.snapshots } else { String::new() },
                    releases: if change == "added" { info.releases } else { String::new() },
                },
                file.path,
                title,
            )
            .evidence(evidence(before.map(|e| e.span), after.map(|e| e.span)))
            .evidence(section_lines(section, old, new, evidence, &mut claimed)),
        );
    }
}

/// A section the PR adds or removes as a whole: its start and end tag lines are part of the
/// first repository change in it (the recipe that adds the repository adds them too).
fn section_lines(
    section: &str,
    old: &Pom,
    new: &Pom,
    evidence: &Evidence<'_>,
    claimed: &mut BTreeSet<String>,
) -> Vec<ChangeLine> {
    let (before, after) = (old.repository_sections.get(section), new.repository_sections.get(section));
    if before.is_some() == after.is_some() || !claimed.insert(section.to_string()) {
        return Vec::new();
    }
    let tags = |span: &(usize, usize)| {
        let mut lines = vec![Some((span.0, span.0))];
        if span.1 != span.0 {
            lines.push(Some((span.1, span.1)));
        }
        lines
    };
    match (before, after) {
        (None, Some(span)) => tags(span).into_iter().flat_map(|t| evidence(None, t)).collect(),
        (Some(span), None) => tags(span).into_iter().flat_map(|t| evidence(t, None)).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_xml;

    #[test]
    fn elements_know_their_lines() {
        let root =
            parse_xml("<project>\n  <a>1</a>\n  <b\n   x=\"1\"/>\n  <c>&lt;&#65;</c>\n</project>\n").unwrap();
        assert_eq!((root.start, root.end), (1, 6));
        assert_eq!((root.children[0].start, root.children[0].end), (2, 2));
        assert_eq!((root.children[1].start, root.children[1].end), (3, 4));
        assert_eq!(root.children[2].text, "<A");
    }

    /// quick-xml reads a DOCTYPE as one event and never resolves what it declares: an entity that
    /// would read a local file (or fetch a URL) stays the literal reference, and nothing is read.
    #[test]
    fn a_doctype_s_entities_are_never_expanded() {
        let dir = tempfile::tempdir().unwrap();
        let canary = dir.path().join("canary.txt");
        std::fs::write(&canary, "CANARY-SECRET").unwrap();
        let pom = format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE project [\n<!ENTITY xxe SYSTEM \"file://{}\">\n\
             <!ENTITY % p SYSTEM \"http://192.0.2.1:9/e.dtd\"> %p;\n<!ENTITY inner \"boom\">\n]>\n\
             <project>\n  <name>&xxe;&inner;</name>\n</project>\n",
            canary.display()
        );
        let root = parse_xml(&pom).unwrap();
        assert_eq!(root.children[0].text, "&xxe;&inner;");
        let leaves = crate::validation::build::leaf_elements(&pom);
        assert!(
            leaves.iter().all(|(_, value)| !value.contains("CANARY") && !value.contains("boom")),
            "{leaves:?}"
        );
    }

    #[test]
    fn malformed_xml_is_none() {
        assert!(parse_xml("<project><a></b></project>").is_none());
        assert!(parse_xml("<project><a>").is_none());
    }
}
