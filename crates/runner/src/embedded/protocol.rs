//! The runner's protocol, version 1 (docs/embedded-runner.md): request files in, results files out.
//! This side owns it; the Java runner follows it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub(crate) use crate::model::residual::Measure;
use crate::model::residual::{Residual, Unresolved};
use crate::validation::maven_settings::CredentialUrls;

pub(crate) const PROTOCOL: u32 = 1;

/// How the runner words a 401/403 from a declared repository, in a parse's or a run's warnings
/// (`AccessDenied.java`): `repository `id` (url) refused access (HTTP 401) to …`.
pub const ACCESS_REFUSED: &str = ") refused access (HTTP ";

/// How the runner words a file a recipe left as it was because a host could not be reached
/// (`Unreachable.java`): the recipe's other changes stand, so the run is short of that file.
pub(crate) const HOST_OUT_OF_REACH: &str = "a host out of reach";

/// A request file.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Request {
    /// Parse every tracked file under `root` into trees, replacing earlier ones. A `file:`
    /// repository named by a POM or build script is read only with `trust_file_repositories`.
    Parse {
        protocol: u32,
        id: String,
        output: PathBuf,
        root: PathBuf,
        local_repository: PathBuf,
        trust_file_repositories: bool,
        /// The user's Maven settings.xml: mirrors, servers (credentials, `${env.X}` from the
        /// runner's environment) and active profiles, read with rewrite-maven's `MavenSettings`.
        #[serde(skip_serializing_if = "Option::is_none")]
        maven_settings: Option<PathBuf>,
        /// Per server id, URLs its credentials may go to besides those the settings name
        /// (`--credential-url`); the runner sends a server's credentials nowhere else.
        #[serde(skip_serializing_if = "CredentialUrls::is_empty")]
        credential_urls: CredentialUrls,
        /// The CI's variables for the `BuildEnvironment` marker the build plugins add (the
        /// runner's own environment is an allow-list without them).
        build_environment: BTreeMap<String, String>,
        /// The PR's head versions of its changed files, parsed beside the base for their types.
        #[serde(skip_serializing_if = "Option::is_none")]
        head: Option<HeadFiles>,
    },
    /// Run `recipe` (and with `each_step` each of its steps on its own) on the parsed trees;
    /// without `whole` (discovery), only the steps.
    Run {
        protocol: u32,
        id: String,
        output: PathBuf,
        recipe_files: Vec<PathBuf>,
        recipe: String,
        each_step: bool,
        whole: bool,
        /// With `each_step`: no step starts after this many seconds (discovery's time limit).
        #[serde(skip_serializing_if = "Option::is_none")]
        stop_after_seconds: Option<f64>,
        /// A recipe of `recipe_files` run once first: the steps run on its result.
        #[serde(skip_serializing_if = "Option::is_none")]
        after: Option<String>,
        /// What the whole run measures besides its diff (residual uses of the old library, the
        /// compile check); None: nothing.
        #[serde(skip_serializing_if = "Option::is_none")]
        measure: Option<Measure>,
        /// Where the whole run writes OpenRewrite's data tables, one CSV per table as the build
        /// plugins export them; None: nowhere.
        #[serde(skip_serializing_if = "Option::is_none")]
        datatables: Option<PathBuf>,
        /// Learned recipe jars (`learn_templates`) whose recipes the run may name.
        #[serde(skip_serializing_if = "Option::is_none")]
        learned: Option<LearnedJars>,
    },
    /// Learn Refaster templates from the PR's repeated Java edits over the parsed (base) trees,
    /// compile them into a recipe jar and keep those that change nothing the PR left alone.
    LearnTemplates {
        protocol: u32,
        id: String,
        output: PathBuf,
        #[serde(flatten)]
        request: LearnRequest,
    },
}

impl Request {
    pub(crate) fn id(&self) -> &str {
        match self {
            Request::Parse { id, .. } | Request::Run { id, .. } | Request::LearnTemplates { id, .. } => id,
        }
    }

    pub(crate) fn output(&self) -> &PathBuf {
        match self {
            Request::Parse { output, .. }
            | Request::Run { output, .. }
            | Request::LearnTemplates { output, .. } => output,
        }
    }
}

/// Recipe jars compiled from learned templates, and the libraries their templates name: the run
/// loads their recipes below the runner's and parses the templates against those libraries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LearnedJars {
    /// The recipe jars.
    pub jars: Vec<PathBuf>,
    /// The jars their templates are written against (without them a template matches nothing).
    pub libraries: Vec<PathBuf>,
}

/// What a `learn_templates` request learns from (docs/embedded-runner.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LearnRequest {
    /// One per hunk of the PR in a Java file.
    pub edits: Vec<TemplateEdit>,
    /// The head text of each edited file (the after side's imports come from it), by path relative
    /// to the parse root.
    pub head_files: BTreeMap<String, String>,
    /// Jars to compile against besides the edited files' source-set classpath.
    pub libraries: Vec<Library>,
    /// The package of the one generated source file.
    pub package: String,
    /// The class of the one generated source file; each template is a class nested in it.
    pub class: String,
    /// Where the sources, classes, the jar and its POM are written.
    pub directory: PathBuf,
    /// `group:artifact:version` of the recipe jar.
    pub coordinates: String,
    /// How many occurrences a shape needs to become a template.
    pub min_occurrences: usize,
    /// Whether the jar also carries the Gradle recipes learned Gradle steps name
    /// (`rewriteassist.learned.gradle`); then a jar is written even when no template is learned.
    pub gradle_recipes: bool,
}

/// A hunk of the PR in a Java file: the base lines it replaced and the text it wrote there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TemplateEdit {
    /// The file, relative to the parse root.
    pub path: String,
    /// The first base line the hunk replaced (1-based).
    pub before_start: usize,
    /// The last base line it replaced (inclusive; `before_start - 1` for a pure insertion).
    pub before_end: usize,
    /// The lines the PR wrote in their place, with their line ends.
    pub after: String,
}

/// A jar to compile templates against, with its coordinates when known (the recipe jar's POM
/// declares it so the build plugins put it on the templates' classpath).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Library {
    /// The jar.
    pub jar: PathBuf,
    /// Its `group:artifact:version`, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coordinates: Option<String>,
}

/// The results of a `learn_templates`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LearnResults {
    /// The request's `id`, echoed back.
    pub id: String,
    /// False when the request failed as a whole (no parse yet); a template's refusal is not a
    /// failure.
    pub ok: bool,
    /// Why the request failed; None when `ok`.
    #[serde(default)]
    pub error: Option<Failure>,
    /// Wall time of the whole request (learning, compiling, checking), in seconds.
    #[serde(default)]
    pub seconds: f64,
    /// The templates that compiled and change nothing the PR left alone.
    #[serde(default)]
    pub templates: Vec<LearnedTemplate>,
    /// The shapes that did not become templates, with why.
    #[serde(default)]
    pub refused: Vec<RefusedShape>,
    /// The generated source file holding the accepted templates; None when none was accepted.
    #[serde(default)]
    pub source: Option<TemplateSource>,
    /// The recipe jar of the accepted templates; None when none was accepted.
    #[serde(default)]
    pub jar: Option<PathBuf>,
    /// The jar's POM (it declares the libraries the templates name); None with `jar`.
    #[serde(default)]
    pub pom: Option<PathBuf>,
    /// The recipe that runs every accepted template; None when none was accepted.
    #[serde(default)]
    pub recipe: Option<String>,
    /// The jars the templates were compiled against: a run naming the jar needs them.
    #[serde(default)]
    pub libraries: Vec<PathBuf>,
    /// What the runner could not do but did not fail on, one line each.
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// A template learned from the PR, compiled and checked on the base.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LearnedTemplate {
    /// The template class, fully qualified (`package.Class.Name`).
    pub name: String,
    /// The recipe the processor made of it.
    pub recipe: String,
    /// Its parameters: what differs between the occurrences.
    #[serde(default)]
    pub parameters: Vec<TemplateParameter>,
    /// Its before forms, as Java with fully-qualified names (one per `@BeforeTemplate`).
    #[serde(default)]
    pub before: Vec<String>,
    /// Its after form, as Java.
    #[serde(default)]
    pub after: String,
    /// Where the PR made this edit (base lines).
    #[serde(default)]
    pub occurrences: Vec<Place>,
    /// Where it changes the base outside the PR's edits (files the PR did not edit: the migration's
    /// completion).
    #[serde(default)]
    pub matches: Vec<Place>,
}

/// A template's parameter.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TemplateParameter {
    /// Its name in the template.
    pub name: String,
    /// Its Java type: a type the occurrences share, or a class-level type parameter (`T`).
    #[serde(rename = "type")]
    pub java_type: String,
}

/// A line of the base.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Place {
    /// The file, relative to the parse root.
    pub path: String,
    /// The line, 1-based.
    pub line: usize,
}

/// A shape of the PR's edits that did not become a template.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RefusedShape {
    /// Its before form (as far as it was generalized).
    #[serde(default)]
    pub before: String,
    /// Its after form.
    #[serde(default)]
    pub after: String,
    /// Where the PR made these edits.
    #[serde(default)]
    pub occurrences: Vec<Place>,
    /// Why, in one line.
    pub reason: String,
}

/// A generated template source file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TemplateSource {
    /// Its path relative to a source root (`package/Class.java`).
    pub file: String,
    /// Its text.
    pub text: String,
}

/// Why a request or a step failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// The error's class, which decides the run's [`crate::model::ErrorKind`].
    pub kind: FailureKind,
    /// What went wrong, in one line.
    pub message: String,
    /// A short excerpt of the Java stack (at most 10 lines); None when the message says it all.
    #[serde(default)]
    pub stack: Option<String>,
}

/// The protocol's error kinds (`kind` of an `error` object), as the runner names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// A step names a recipe that none of the loaded recipes is.
    UnknownRecipe,
    /// A recipe file that does not load.
    YamlError,
    /// A step whose options fail `validate()` or name options its recipe does not have; it is not
    /// run.
    InvalidOption,
    /// A recipe that threw while running; the trees it broke do not count in its diff.
    RecipeError,
    /// A `run` before any `parse`: there are no trees to run on.
    NoParse,
    /// A failure of the runner itself (a bug, or a request it could not read).
    Internal,
    /// Any kind a newer runner reports that this side does not know.
    #[serde(other)]
    Other,
}

/// The results of a `parse`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ParseResults {
    /// The request's `id`, echoed back.
    pub id: String,
    /// False when the parse failed as a whole; then `error` says why.
    pub ok: bool,
    /// Why the request failed; None when `ok`.
    #[serde(default)]
    pub error: Option<Failure>,
    /// Wall time of the parse, in seconds.
    #[serde(default)]
    pub seconds: f64,
    /// How many files were parsed, by what each became.
    #[serde(default)]
    pub files: FileCounts,
    /// Files that did not parse, kept in the trees as plain text.
    #[serde(default)]
    pub unparsed: Vec<Unparsed>,
    /// One line each: an unresolvable parent, BOM, dependency or repository (a refused repository
    /// first).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// The Maven modules or Gradle projects found, with how well their classpaths resolved.
    #[serde(default)]
    pub modules: Vec<Module>,
    /// With `head` in the request: the types the base and head versions of those Java files use.
    #[serde(default)]
    pub types: Option<Types>,
}

/// The types the base and head versions of the PR's Java files use, by path.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct Types {
    /// Per changed Java file, the types its base version uses.
    #[serde(default)]
    pub base: BTreeMap<String, Vec<String>>,
    /// Per changed Java file, the types its head version uses.
    #[serde(default)]
    pub head: BTreeMap<String, Vec<String>>,
    /// Time spent parsing the head files for their types, in seconds.
    #[serde(default)]
    pub seconds: f64,
}

/// The PR's head versions of the files it changes, for the runner to parse beside the base.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct HeadFiles {
    /// A directory with the head versions at their paths (relative to the parse root).
    pub root: PathBuf,
    pub files: Vec<String>,
}

/// How many files a parse read, by what each became.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct FileCounts {
    /// Every file parsed, whatever it became.
    #[serde(default)]
    pub total: usize,
    /// Per kind (`java`, `maven`, `yaml`, …, `plain_text` for unparsed files, `quark` for files
    /// OpenRewrite does not read), how many files.
    #[serde(default)]
    pub by_kind: BTreeMap<String, usize>,
    /// Files over 10 MiB, left out of the trees.
    #[serde(default)]
    pub binary_skipped: usize,
}

/// A file whose parse failed: it is in the trees as plain text.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Unparsed {
    /// The file, relative to the parse root.
    pub path: String,
    /// Why its parse failed, in one line.
    pub error: String,
}

/// A Maven module or Gradle project of the parsed repository.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Module {
    /// Its build file (a POM, or a Gradle project's build script), relative to the parse root.
    pub pom: String,
    /// Its `group:artifact:version`; None when unknown.
    #[serde(default)]
    pub gav: Option<String>,
    /// How many jars its test classpath has.
    #[serde(default)]
    pub classpath_jars: usize,
    /// How many of its declared dependencies were left without a jar (those whose version only an
    /// unreachable parent knows).
    #[serde(default)]
    pub unresolved: usize,
}

/// The results of a `run`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct RunResults {
    /// The request's `id`, echoed back.
    pub id: String,
    /// False when the request failed as a whole (a recipe file that does not load, no parse yet); a
    /// step's own failure is in its run.
    pub ok: bool,
    /// Why the request failed; None when `ok`.
    #[serde(default)]
    pub error: Option<Failure>,
    /// Wall time of the whole request, in seconds.
    #[serde(default)]
    pub seconds: f64,
    /// One run per step run on its own, and one for the whole recipe (`step` None).
    #[serde(default)]
    pub runs: Vec<StepRun>,
    /// Steps that did not start because `stop_after_seconds` had passed.
    #[serde(default)]
    pub not_run: Vec<usize>,
}

impl RunResults {
    /// The run of the recipe as a whole.
    pub(crate) fn whole(&self) -> Option<&StepRun> {
        self.runs.iter().find(|r| r.step.is_none())
    }

    /// The runs of single steps, in step order.
    pub fn steps(&self) -> impl Iterator<Item = &StepRun> {
        self.runs.iter().filter(|r| r.step.is_some())
    }
}

/// One recipe run: a step on its own (`step` its index), or the whole recipe (`step` None).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct StepRun {
    /// The step's index in the recipe's list; None for the whole recipe.
    pub step: Option<usize>,
    /// The recipe that ran (the step's recipe, or the whole recipe's name).
    pub name: String,
    /// The step's options as the recipe file wrote them (empty for the whole recipe).
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// Wall time of this run, in seconds.
    #[serde(default)]
    pub seconds: f64,
    /// The changes, as a git-format unified diff with paths relative to the parse root (empty:
    /// none).
    #[serde(default)]
    pub diff: String,
    /// The paths the run changed, created or deleted (the before path for a deletion).
    #[serde(default)]
    pub files: Vec<String>,
    /// Why this run failed (not loaded, invalid option, threw); None when it ran.
    #[serde(default)]
    pub error: Option<Failure>,
    /// What the run could not do but did not fail on (a refused repository, a host out of reach),
    /// one line each.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Steps the whole-recipe run left out (they failed on their own).
    #[serde(default)]
    pub left_out: Vec<usize>,
    /// The whole run only: for each file it changed, the steps in its recipe stacks (a step that
    /// works on an earlier step's result changes nothing on its own).
    #[serde(default)]
    pub steps_by_file: BTreeMap<String, Vec<usize>>,
    /// For each changed Java file, the types its result uses.
    #[serde(default)]
    pub types: BTreeMap<String, Vec<String>>,
    /// The whole run with a `measure`: uses of the old library before and after.
    #[serde(default)]
    pub residual: Option<Residual>,
    /// The whole run with a `compile_check`: symbols that do not resolve before and after.
    #[serde(default)]
    pub unresolved: Option<Unresolved>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_serialize_as_the_document_says() {
        let request = Request::Run {
            protocol: PROTOCOL,
            id: "run-2".into(),
            output: "/o/run-2.json".into(),
            recipe_files: vec!["/o/r.yaml".into()],
            recipe: "rewriteassist.Option2Narrow".into(),
            each_step: true,
            whole: true,
            stop_after_seconds: None,
            after: None,
            measure: None,
            datatables: None,
            learned: None,
        };
        let json = serde_json::to_value(&request).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"type": "run", "protocol": 1, "id": "run-2", "output": "/o/run-2.json",
                "recipe_files": ["/o/r.yaml"], "recipe": "rewriteassist.Option2Narrow", "each_step": true,
                "whole": true})
        );
        let follow_ups = Request::Run {
            protocol: PROTOCOL,
            id: "run-3".into(),
            output: "/o/run-3.json".into(),
            recipe_files: vec!["/o/f.yaml".into()],
            recipe: "rewriteassist.FollowUps1".into(),
            each_step: true,
            whole: false,
            stop_after_seconds: Some(30.0),
            after: Some("rewriteassist.DiscoveryMigration".into()),
            measure: None,
            datatables: None,
            learned: None,
        };
        let json = serde_json::to_value(&follow_ups).unwrap();
        assert_eq!(json["after"], "rewriteassist.DiscoveryMigration");
        assert_eq!(json["stop_after_seconds"], 30.0);
        // A whole run that measures: the old library's fields as the runner reads them.
        let old = crate::model::residual::OldLibrary {
            packages: vec!["org.junit".into()],
            new_packages: vec!["org.junit.jupiter".into()],
            dependencies: vec!["junit:junit".into()],
            java_version: Some(11),
            ..Default::default()
        };
        let measured = Request::Run {
            protocol: PROTOCOL,
            id: "run-4".into(),
            output: "/o/run-4.json".into(),
            recipe_files: vec!["/o/r.yaml".into()],
            recipe: "r.R".into(),
            each_step: true,
            whole: true,
            stop_after_seconds: None,
            after: None,
            measure: Some(crate::model::residual::Measure::of(&old)),
            datatables: Some("/o/run-4-datatables".into()),
            learned: None,
        };
        assert_eq!(serde_json::to_value(&measured).unwrap()["datatables"], "/o/run-4-datatables");
        assert_eq!(
            serde_json::to_value(&measured).unwrap()["measure"],
            serde_json::json!({"residual": {"packages": ["org.junit"], "new_packages": ["org.junit.jupiter"],
                "dependencies": ["junit:junit"], "java_version": 11}, "compile_check": true})
        );
    }

    #[test]
    fn a_learn_templates_request_serializes_as_the_document_says() {
        let request = Request::LearnTemplates {
            protocol: PROTOCOL,
            id: "learn-5".into(),
            output: "/o/learn-5.json".into(),
            request: LearnRequest {
                edits: vec![TemplateEdit {
                    path: "src/test/java/a/ATest.java".into(),
                    before_start: 12,
                    before_end: 12,
                    after: "        assertThat(a).isEqualTo(b);\n".into(),
                }],
                head_files: BTreeMap::from([("src/test/java/a/ATest.java".into(), "class ATest {}".into())]),
                libraries: vec![Library { jar: "/m2/x.jar".into(), coordinates: None }],
                package: "rewriteassist.learned".into(),
                class: "LearnedTemplates".into(),
                directory: "/o/learned".into(),
                coordinates: "rewriteassist.learned:learned-recipes:1.0.0".into(),
                min_occurrences: 2,
                gradle_recipes: true,
            },
        };
        assert_eq!(
            serde_json::to_value(&request).unwrap(),
            serde_json::json!({"type": "learn_templates", "protocol": 1, "id": "learn-5", "output": "/o/learn-5.json",
                "edits": [{"path": "src/test/java/a/ATest.java", "before_start": 12, "before_end": 12,
                           "after": "        assertThat(a).isEqualTo(b);\n"}],
                "head_files": {"src/test/java/a/ATest.java": "class ATest {}"},
                "libraries": [{"jar": "/m2/x.jar"}],
                "package": "rewriteassist.learned", "class": "LearnedTemplates", "directory": "/o/learned",
                "coordinates": "rewriteassist.learned:learned-recipes:1.0.0", "min_occurrences": 2,
                "gradle_recipes": true})
        );
        let run = Request::Run {
            protocol: PROTOCOL,
            id: "run-6".into(),
            output: "/o/run-6.json".into(),
            recipe_files: vec![],
            recipe: "r.R".into(),
            each_step: true,
            whole: true,
            stop_after_seconds: None,
            after: None,
            measure: None,
            datatables: None,
            learned: Some(LearnedJars { jars: vec!["/o/l.jar".into()], libraries: vec!["/m2/x.jar".into()] }),
        };
        assert_eq!(
            serde_json::to_value(&run).unwrap()["learned"],
            serde_json::json!({"jars": ["/o/l.jar"], "libraries": ["/m2/x.jar"]})
        );
    }

    /// The runner's own results, byte for byte as its ResultsJsonTest pins them.
    fn sample(name: &str) -> &'static str {
        match name {
            "parse" => include_str!("../../../../runner/src/test/resources/results/parse.json"),
            "parse-with-types" => {
                include_str!("../../../../runner/src/test/resources/results/parse-with-types.json")
            }
            "run" => include_str!("../../../../runner/src/test/resources/results/run.json"),
            "run-measured" => include_str!("../../../../runner/src/test/resources/results/run-measured.json"),
            "failed" => include_str!("../../../../runner/src/test/resources/results/failed.json"),
            "rejected" => include_str!("../../../../runner/src/test/resources/results/rejected.json"),
            "learn" => include_str!("../../../../runner/src/test/resources/results/learn.json"),
            "learn-none" => include_str!("../../../../runner/src/test/resources/results/learn-none.json"),
            _ => unreachable!("no sample {name}"),
        }
    }

    #[test]
    fn the_runners_parse_results_read_as_written() {
        let parsed: ParseResults = serde_json::from_str(sample("parse")).unwrap();
        assert_eq!(
            (parsed.ok, parsed.seconds, parsed.files.total, parsed.files.binary_skipped),
            (true, 12.5, 3, 1)
        );
        assert_eq!(parsed.files.by_kind["plain_text"], 2);
        assert_eq!(parsed.unparsed[0].path, "src/main/java/Broken.java");
        assert_eq!(parsed.warnings, ["a warning"]);
        let module = &parsed.modules[0];
        assert_eq!(
            (module.pom.as_str(), module.gav.as_deref(), module.classpath_jars, module.unresolved),
            ("core/pom.xml", Some("g:a:v"), 12, 1)
        );
        assert_eq!(parsed.types, None);

        let with_types: ParseResults = serde_json::from_str(sample("parse-with-types")).unwrap();
        let types = with_types.types.unwrap();
        assert_eq!((types.base["A.java"][0].as_str(), types.head["A.java"][0].as_str()), ("a.B", "a.C"));
    }

    #[test]
    fn a_measured_whole_run_reads_as_written() {
        let results: RunResults = serde_json::from_str(sample("run-measured")).unwrap();
        let whole = results.whole().unwrap();
        let residual = whole.residual.as_ref().unwrap();
        assert_eq!(
            (residual.before, residual.after, residual.files_after, residual.out_of_reach),
            (12, 2, 1, 2)
        );
        assert_eq!(residual.after_in_reach(), 0);
        let unresolved = whole.unresolved.as_ref().unwrap();
        assert_eq!(
            (unresolved.before, unresolved.after, unresolved.checked_files, unresolved.added()),
            (4, 9, 3, 5)
        );
        assert_eq!(unresolved.samples, ["src/test/java/a/BTest.java:12: org.junit.jupiter.api.Test"]);
        // Not asked for: absent.
        let plain: RunResults = serde_json::from_str(sample("run")).unwrap();
        assert!(plain.whole().unwrap().residual.is_none() && plain.whole().unwrap().unresolved.is_none());
    }

    #[test]
    fn the_runners_run_results_read_as_written() {
        let results: RunResults = serde_json::from_str(sample("run")).unwrap();
        assert_eq!((results.ok, results.not_run.as_slice(), results.seconds), (true, &[3][..], 3.0));
        let steps: Vec<&StepRun> = results.steps().collect();
        assert_eq!(steps[0].options["oldFullyQualifiedTypeName"], "a.B");
        assert_eq!(steps[0].types["A.java"], ["a.C"]);
        let invalid = steps[1].error.as_ref().unwrap();
        assert_eq!((invalid.kind, invalid.stack.as_deref()), (FailureKind::InvalidOption, None));
        assert!(steps[1].types.is_empty());
        let whole = results.whole().unwrap();
        assert_eq!(
            (whole.left_out.as_slice(), whole.steps_by_file["A.java"].as_slice()),
            (&[1][..], &[0][..])
        );
    }

    #[test]
    fn the_runners_learn_results_read_as_written() {
        let learned: LearnResults = serde_json::from_str(sample("learn")).unwrap();
        assert_eq!((learned.ok, learned.seconds), (true, 2.3));
        let template = &learned.templates[0];
        assert_eq!(
            template.parameters[1],
            TemplateParameter { name: "expected".into(), java_type: "T".into() }
        );
        assert_eq!(
            template.occurrences[0],
            Place { path: "src/test/java/com/acme/CartTest.java".into(), line: 12 }
        );
        assert_eq!(template.matches[0].line, 7);
        assert_eq!(learned.refused[0].reason, "its occurrences share nothing but literals");
        assert_eq!(learned.source.as_ref().unwrap().file, "rewriteassist/learned/LearnedTemplates.java");
        assert_eq!(learned.recipe.as_deref(), Some("rewriteassist.learned.LearnedTemplatesRecipes"));
        assert_eq!(learned.libraries, [PathBuf::from("/m2/org/hamcrest/hamcrest/2.2/hamcrest-2.2.jar")]);
        let none: LearnResults = serde_json::from_str(sample("learn-none")).unwrap();
        assert!(none.templates.is_empty() && none.jar.is_none() && none.source.is_none());
        assert_eq!(none.warnings, ["w"]);
    }

    #[test]
    fn the_runners_failures_read_as_written() {
        let failed: RunResults = serde_json::from_str(sample("failed")).unwrap();
        let error = failed.error.unwrap();
        assert_eq!(
            (failed.ok, error.kind, error.stack.as_deref()),
            (false, FailureKind::NoParse, Some("at x"))
        );
        let rejected: ParseResults = serde_json::from_str(sample("rejected")).unwrap();
        assert_eq!((rejected.ok, rejected.error.unwrap().kind), (false, FailureKind::Internal));
    }

    #[test]
    fn results_read_with_unknown_kinds_and_missing_fields() {
        let text = r#"{"protocol":1,"id":"run-1","ok":true,"runs":[
            {"step":0,"name":"a.B","diff":"","files":[],"error":{"kind":"recipe_error","message":"boom","stack":"at x"}},
            {"step":null,"name":"w.Hole","diff":"d","files":["f"],"left_out":[0],"error":{"kind":"brand_new","message":"?"}}]}"#;
        let results: RunResults = serde_json::from_str(text).unwrap();
        assert_eq!(results.steps().count(), 1);
        let whole = results.whole().unwrap();
        assert_eq!(
            (whole.left_out.as_slice(), whole.error.as_ref().unwrap().kind),
            (&[0][..], FailureKind::Other)
        );
    }
}
