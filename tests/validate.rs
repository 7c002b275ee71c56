//! `rewrite-assist validate` with real git repositories and real OpenRewrite runs through Maven.

mod common;
#[path = "common/schemas.rs"]
mod schemas;

use std::path::{Path, PathBuf};

use common::{bin, json_stdout};
use rewrite_assist::fixtures::scenarios::{JAKARTA_RECIPE, JAVAX_TO_JAKARTA};
use rewrite_assist::fixtures::{Fixture, RepoBuilder};

struct Setup {
    _dir: tempfile::TempDir,
    fixture: Fixture,
    recipe: PathBuf,
    out: PathBuf,
}

fn setup(recipe_yaml: &str) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let fixture = JAVAX_TO_JAKARTA.build(&dir.path().join("shop")).unwrap();
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(&recipe, recipe_yaml).unwrap();
    let out = dir.path().join("out");
    Setup { _dir: dir, fixture, recipe, out }
}

fn validate(
    repo: &Path,
    recipe: &Path,
    out: &Path,
    extra: &[&str],
) -> (Option<i32>, serde_json::Value, String) {
    let output = bin()
        .args(["validate", "--json", "--base", "main", "--head", "migration", "--repo"])
        .arg(repo)
        .arg("--recipe")
        .arg(recipe)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let json = if output.stdout.is_empty() { serde_json::Value::Null } else { json_stdout(&output) };
    if !output.stdout.is_empty() {
        schemas::assert_output("validation-stats", &String::from_utf8_lossy(&output.stdout));
    }
    schemas::assert_documents(out);
    (output.status.code(), json, stderr)
}

fn git(repo: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git").current_dir(repo).args(args).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn change_package_and_dependency_swap_reproduce_the_pr_exactly() {
    let s = setup(JAKARTA_RECIPE);
    let head_before = git(&s.fixture.path, &["rev-parse", "HEAD"]);
    let (code, stats, stderr) = validate(&s.fixture.path, &s.recipe, &s.out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let m = &stats["metrics"];
    assert_eq!(m["f1"], 1.0, "{stats:#}");
    assert_eq!(m["perfect_match"], true);
    assert_eq!(m["true_positives"], 22);
    assert_eq!(stats["error"], serde_json::Value::Null);
    assert_eq!(stats["build_tool"], "maven");
    assert_eq!(stats["tests"], serde_json::json!({"before": 2, "after": 2, "dropped": false}));
    let attribution = stats["attribution"].as_array().unwrap();
    assert!(attribution.iter().any(|row| row["source_path"] == "src/main/java/com/acme/shop/Customer.java"
        && row["recipe"] == "org.openrewrite.java.ChangePackage"
        && row["options"].as_str().unwrap().contains("newPackageName=jakarta.persistence")));
    assert!(attribution.iter().any(|row| row["source_path"] == "pom.xml"
        && row["recipe"] == "org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId"));

    // Artifacts: stats.json is the same object, recipe.diff the recipe's diff.
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(s.out.join("stats.json")).unwrap()).unwrap();
    assert_eq!(written["metrics"], stats["metrics"]);
    let diff = std::fs::read_to_string(s.out.join("recipe.diff")).unwrap();
    assert!(diff.contains("+import jakarta.persistence.Entity;"), "{diff}");
    assert!(!diff.contains("target/"), "build output is not part of the recipe's diff");

    // The user's repository is untouched.
    assert_eq!(git(&s.fixture.path, &["status", "--porcelain"]), "");
    assert_eq!(git(&s.fixture.path, &["rev-parse", "HEAD"]), head_before);
}

#[test]
fn a_bare_repository_and_an_expected_diff_file_work_too() {
    let s = setup(JAKARTA_RECIPE);
    let bare = RepoBuilder::init(&s.fixture.path).unwrap().bare_clone().unwrap();
    let pr_diff = s.out.with_file_name("pr.diff");
    std::fs::write(&pr_diff, git(&s.fixture.path, &["diff", "main", "migration"])).unwrap();
    let output = bin()
        .args(["validate", "--json", "--base", "main", "--repo"])
        .arg(&bare)
        .arg("--expected")
        .arg(&pr_diff)
        .arg("--recipe")
        .arg(&s.recipe)
        .arg("--out")
        .arg(&s.out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(json_stdout(&output)["metrics"]["f1"], 1.0);
}

#[test]
fn a_misspelled_recipe_is_an_unknown_recipe_error() {
    let s = setup(&JAKARTA_RECIPE.replace("java.ChangePackage:", "java.ChangePackages:"));
    let (code, stats, _) = validate(&s.fixture.path, &s.recipe, &s.out, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(stats["error"]["kind"], "unknown_recipe", "{stats:#}");
    assert_eq!(stats["error"]["recipe"], "org.openrewrite.java.ChangePackages");
    // Refused before the build starts: the plugin would load an unknown name as a class.
    assert!(
        stats["error"]["detail"].as_str().unwrap().contains("is not a recipe of the catalog"),
        "{stats:#}"
    );
    assert!(stats["build_tool"].is_null(), "a build ran: {stats:#}");
    assert_eq!(stats["metrics"]["recall"], 0.0);
}

#[test]
fn a_wrong_option_name_is_an_option_error() {
    // Caught before anything runs: the catalog knows ChangePackage's options.
    let s = setup(&JAKARTA_RECIPE.replace("newPackageName:", "newPackage:"));
    let (code, stats, _) = validate(&s.fixture.path, &s.recipe, &s.out, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(stats["error"]["kind"], "invalid_option", "{stats:#}");
    assert_eq!(stats["error"]["recipe"], "org.openrewrite.java.ChangePackage");
    let detail = stats["error"]["detail"].as_str().unwrap();
    assert!(detail.contains("newPackage") && detail.contains("newPackageName"), "{detail}");
    assert_eq!(stats["command"], serde_json::Value::Null, "nothing ran");
}

#[test]
fn an_option_openrewrite_rejects_is_an_option_error_from_its_log() {
    // The names are right, the value is not: only OpenRewrite itself can tell.
    let s = setup(&JAKARTA_RECIPE.replace("recursive: true", "recursive: \"maybe\""));
    let (code, stats, _) = validate(&s.fixture.path, &s.recipe, &s.out, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(stats["error"]["kind"], "invalid_option", "{stats:#}");
    assert!(stats["error"]["excerpt"].as_str().unwrap().contains("maybe"), "{stats:#}");
    assert!(stats["command"].is_string(), "it ran");
}

#[test]
fn a_run_over_its_time_limit_is_killed_with_all_its_processes() {
    let s = setup(JAKARTA_RECIPE);
    let (code, stats, _) = validate(&s.fixture.path, &s.recipe, &s.out, &["--timeout", "2"]);
    assert_eq!(code, Some(1));
    assert_eq!(stats["error"]["kind"], "timeout", "{stats:#}");
    // The recipe file lived in the run's temporary directory: no process may still mention it,
    // and the directory itself is gone.
    let command = stats["command"].as_str().unwrap();
    let config =
        command.split_whitespace().find_map(|a| a.strip_prefix("-Drewrite.configLocation=")).unwrap();
    assert!(!Path::new(config).exists(), "the temporary clone was removed");
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            assert!(!String::from_utf8_lossy(&cmdline).contains(config), "a process of the run survived");
        }
    }
}

#[test]
fn a_recipe_that_deletes_a_test_method_is_flagged() {
    let recipe = r#"type: specs.openrewrite.org/v1beta/recipe
name: com.example.DropTest
recipeList:
  - org.openrewrite.text.FindAndReplace:
      find: "    @Test\n    public void hasNoIdBeforeSaving\\(\\) \\{\n[^}]*\\}\n"
      replace: ""
      regex: true
      caseSensitive: true
      filePattern: "**/CustomerTest.java"
"#;
    let s = setup(recipe);
    let (code, stats, stderr) = validate(&s.fixture.path, &s.recipe, &s.out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stats["tests"], serde_json::json!({"before": 2, "after": 1, "dropped": true}), "{stats:#}");
    assert!(
        stats["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("removed test methods"))
    );
}

#[test]
fn two_runs_in_parallel_on_the_same_repository_do_not_interfere() {
    let s = setup(JAKARTA_RECIPE);
    let other_out = s.out.with_file_name("out-2");
    let runs: Vec<_> = [s.out.clone(), other_out]
        .into_iter()
        .map(|out| {
            let (repo, recipe) = (s.fixture.path.clone(), s.recipe.clone());
            std::thread::spawn(move || validate(&repo, &recipe, &out, &[]))
        })
        .collect();
    for run in runs {
        let (code, stats, stderr) = run.join().unwrap();
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(stats["metrics"]["f1"], 1.0);
    }
    assert_eq!(git(&s.fixture.path, &["status", "--porcelain"]), "");
}

#[test]
fn malformed_recipe_yaml_is_reported_without_running_anything() {
    let head = "type: specs.openrewrite.org/v1beta/recipe\nname: x\nrecipeList:";
    let cases = [
        (format!("{head} [unclosed\n"), "not valid YAML"),
        // Both took minutes to parse once: depth and step count are bounded before.
        (
            format!("{head}\n  - a.B: {{x: {}1{}}}\n", "[".repeat(200_000), "]".repeat(200_000)),
            "line 4 nests deeper than 64 levels",
        ),
        (
            format!("{head}\n{}", "  - a.B\n".repeat(250_000)),
            "250000 recipe steps; recipe files are limited to 10000",
        ),
    ];
    for (yaml, message) in cases {
        let s = setup(&yaml);
        let (code, stats, stderr) = validate(&s.fixture.path, &s.recipe, &s.out, &[]);
        assert_eq!(code, Some(1));
        assert_eq!(stats["error"]["kind"], "yaml_error");
        let said: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error: ")).collect();
        assert_eq!(said.len(), 1, "one line on stderr: {stderr}");
        assert!(said[0].contains(message) && said[0].ends_with("(yaml_error)"), "{stderr}");
        assert_eq!(stats["command"], serde_json::Value::Null, "nothing ran");
    }
}

#[test]
fn input_problems_are_one_line_errors_with_exit_2() {
    let s = setup(JAKARTA_RECIPE);
    let two =
        format!("{JAKARTA_RECIPE}---\ntype: specs.openrewrite.org/v1beta/recipe\nname: com.example.Other\n");
    let two_path = s.recipe.with_file_name("two.yml");
    std::fs::write(&two_path, two).unwrap();
    let no_build = tempfile::tempdir().unwrap();
    let plain = RepoBuilder::init(no_build.path()).unwrap();
    plain.write("README.md", "hello\n").unwrap();
    plain.commit("one").unwrap();
    plain.branch("migration").unwrap();
    plain.write("README.md", "hello world\n").unwrap();
    plain.commit("two").unwrap();

    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--repo".into(), "/nonexistent".into()], "no such directory"),
        (vec!["--repo".into(), s.out.parent().unwrap().display().to_string()], "not a git repository"),
        (vec!["--base".into(), "no-such-branch".into()], "unknown ref `no-such-branch`"),
        (vec!["--recipe".into(), two_path.display().to_string()], "choose one with --recipe-name"),
        (vec!["--recipe-name".into(), "com.example.Nope".into()], "is not defined in the recipe file"),
        (vec!["--repo".into(), no_build.path().display().to_string()], "looked for pom.xml"),
        (vec!["--recipe".into(), "/dev/zero".into()], "larger than 16 MiB, the limit for recipe files"),
    ];
    for (overrides, message) in cases {
        let mut args: Vec<String> = vec![
            "validate".into(),
            "--repo".into(),
            s.fixture.path.display().to_string(),
            "--base".into(),
            "main".into(),
            "--head".into(),
            "migration".into(),
            "--recipe".into(),
            s.recipe.display().to_string(),
            "--out".into(),
            s.out.display().to_string(),
        ];
        for pair in overrides.chunks(2) {
            match args.iter().position(|a| *a == pair[0]) {
                Some(at) => args[at + 1] = pair[1].clone(),
                None => args.extend(pair.iter().cloned()),
            }
        }
        let output = bin().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "expected `{message}` in: {stderr}");
    }
    // A diff without end is refused at the limit, not read until memory runs out.
    for command in [
        &["metrics", "--expected", "/dev/zero", "--actual", "/dev/zero"][..],
        &[
            "validate",
            "--repo",
            s.fixture.path.to_str().unwrap(),
            "--base",
            "main",
            "--expected",
            "/dev/zero",
            "--recipe",
            s.recipe.to_str().unwrap(),
        ],
    ] {
        let output = bin().args(command).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{command:?}: {stderr}");
        assert_eq!(stderr.trim(), "error: /dev/zero is larger than 64 MiB, the limit for diffs");
    }
}

#[test]
fn ctrl_c_stops_the_run_and_removes_the_clone() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;

    let s = setup(JAKARTA_RECIPE);
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_rewrite-assist"))
        .env("REWRITE_ASSIST_BACKEND", "plugin")
        .args(["validate", "--json", "--base", "main", "--head", "migration", "--repo"])
        .arg(&s.fixture.path)
        .arg("--recipe")
        .arg(&s.recipe)
        .arg("--out")
        .arg(&s.out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until Maven is running (its log exists and has output), then interrupt.
    let log = s.out.join("build.log");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::metadata(&log).map(|m| m.len() == 0).unwrap_or(true) {
        assert!(std::time::Instant::now() < deadline, "Maven never started");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(130),
        "{:?} {}",
        output.status,
        String::from_utf8_lossy(&output.stdout)
    );
    let stats: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(stats["error"]["kind"], "interrupted");
    let command = stats["command"].as_str().unwrap();
    let config =
        command.split_whitespace().find_map(|a| a.strip_prefix("-Drewrite.configLocation=")).unwrap();
    assert!(!Path::new(config).parent().unwrap().exists(), "the temporary directory was removed");
    assert_eq!(git(&s.fixture.path, &["status", "--porcelain"]), "");
}

#[test]
fn a_misspelled_optional_option_is_caught_before_running() {
    // OpenRewrite would silently ignore `recursiv`; the catalog knows ChangePackage's options.
    let s = setup(&JAKARTA_RECIPE.replace("recursive: true", "recursiv: true"));
    let (code, stats, _) = validate(&s.fixture.path, &s.recipe, &s.out, &[]);
    assert_eq!(code, Some(1));
    assert_eq!(stats["error"]["kind"], "invalid_option", "{stats:#}");
    assert_eq!(stats["error"]["recipe"], "org.openrewrite.java.ChangePackage");
    assert!(stats["error"]["detail"].as_str().unwrap().contains("recursiv"), "{stats:#}");
    assert_eq!(stats["command"], serde_json::Value::Null, "nothing ran");
}

#[test]
fn gradle_projects_run_the_wrapper_with_a_generated_init_script() {
    // Gradle cannot be downloaded on our machines: the project's `gradlew` here records how it was
    // called (arguments, JAVA_HOME, the init script) and fails like Gradle does. The real run
    // happens where Gradle exists; this checks everything up to it.
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record");
    let repo = RepoBuilder::init(&dir.path().join("app")).unwrap();
    repo.write("settings.gradle.kts", "rootProject.name = \"app\"\n").unwrap();
    repo.write(
        "build.gradle.kts",
        "plugins { java }\njava { toolchain { languageVersion = JavaLanguageVersion.of(17) } }\n",
    )
    .unwrap();
    let script = format!(
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > {record}.args\necho \"$JAVA_HOME\" > {record}.java\nenv > {record}.env\n\
         while [ $# -gt 0 ]; do if [ \"$1\" = --init-script ]; then cp \"$2\" {record}.init; fi; shift; done\n\
         echo 'FAILURE: Build failed with an exception.'\necho '* What went wrong:'\necho 'Gradle is not installed here'\nexit 1\n",
        record = record.display()
    );
    repo.write("gradlew", script).unwrap();
    std::fs::set_permissions(
        repo.path().join("gradlew"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    repo.write("src/main/java/a/A.java", "package a;\nimport javax.inject.Inject;\nclass A {}\n").unwrap();
    repo.commit("base").unwrap();
    repo.branch("migration").unwrap();
    repo.write("src/main/java/a/A.java", "package a;\nimport jakarta.inject.Inject;\nclass A {}\n").unwrap();
    repo.commit("migrate").unwrap();
    let recipe = dir.path().join("recipe.yml");
    std::fs::write(
        &recipe,
        "type: specs.openrewrite.org/v1beta/recipe\nname: com.example.Inject\nrecipeList:\n  - org.openrewrite.java.migrate.jakarta.JavaxInjectMigrationToJakartaInject\n",
    )
    .unwrap();
    // The build runs the project's code: credentials of the environment must not reach it, except
    // those the user passes through by name.
    let output = bin()
        .args(["validate", "--json", "--base", "main", "--head", "migration"])
        .args(["--pass-env", "DEPLOY_USER", "--repo"])
        .arg(repo.path())
        .arg("--recipe")
        .arg(&recipe)
        .arg("--out")
        .arg(dir.path().join("out"))
        .env("GITHUB_TOKEN", "ghs_not_for_builds")
        .env("INPUT_GITHUB-TOKEN", "ghs_not_for_builds")
        // Credentials under any name: the build sees an allow-list, not "everything but tokens".
        .env("MY_API_KEY", "key_not_for_builds")
        .env("GH_PAT", "pat_not_for_builds")
        .env("DEPLOY_CREDENTIALS", "credentials_not_for_builds")
        .env("NPM_AUTH", "npm_not_for_builds")
        .env("DEPLOY_USER", "passed_through_to_builds")
        .output()
        .unwrap();
    let (code, stats, stderr) =
        (output.status.code(), json_stdout(&output), String::from_utf8_lossy(&output.stderr).into_owned());
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stats["build_tool"], "gradle");
    let env = std::fs::read_to_string(format!("{}.env", record.display())).unwrap();
    assert!(env.contains("JAVA_HOME="), "the recorder saw the environment: {env}");
    for secret in [
        "ghs_not_for_builds",
        "key_not_for_builds",
        "pat_not_for_builds",
        "credentials_not_for_builds",
        "npm_not_for_builds",
    ] {
        assert!(!env.contains(secret), "{secret} reached the build tool: {env}");
    }
    assert!(env.lines().any(|l| l == "DEPLOY_USER=passed_through_to_builds"), "--pass-env: {env}");
    assert_eq!(stats["error"]["kind"], "build_tool_failure", "{stats:#}");
    assert!(stats["error"]["excerpt"].as_str().unwrap().contains("Gradle is not installed here"));

    let args = std::fs::read_to_string(format!("{}.args", record.display())).unwrap();
    let args: Vec<&str> = args.lines().collect();
    assert_eq!(args[0], "--no-daemon");
    assert!(
        args.contains(&"rewriteRun") && args.contains(&"-Drewrite.activeRecipe=com.example.Inject"),
        "{args:?}"
    );
    let init = std::fs::read_to_string(format!("{}.init", record.display())).unwrap();
    assert!(init.contains("classpath('org.openrewrite:plugin:"), "{init}");
    assert!(
        init.contains("rewrite('org.openrewrite.recipe:rewrite-migrate-java:"),
        "the recipe's module: {init}"
    );
    assert!(init.contains("activeRecipe('com.example.Inject')"), "{init}");
    let java_home = std::fs::read_to_string(format!("{}.java", record.display())).unwrap();
    let major = rewrite_assist::validation::jdk::major_of(Path::new(java_home.trim())).unwrap();
    assert!(major >= 17, "a JDK at least the toolchain's level: {java_home}");
    // The init script lived outside the clone and the clone is gone.
    let script_path = args[args.iter().position(|a| *a == "--init-script").unwrap() + 1];
    assert!(!Path::new(script_path).exists());
}

#[test]
fn an_out_directory_with_files_or_a_zero_limit_is_bad_input_and_nothing_is_touched() {
    let s = setup(JAKARTA_RECIPE);
    // The user's file in the directory they named: refused like `analyze` refuses, and kept.
    std::fs::create_dir_all(&s.out).unwrap();
    std::fs::write(s.out.join("build.log"), "my own log").unwrap();
    let (code, _, stderr) = validate(&s.fixture.path, &s.recipe, &s.out, &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("is not empty") && stderr.lines().count() == 1, "{stderr}");
    assert_eq!(std::fs::read_to_string(s.out.join("build.log")).unwrap(), "my own log");
    // A path that cannot be a directory is bad input too.
    let (code, _, stderr) = validate(&s.fixture.path, &s.recipe, &s.out.join("build.log/out"), &[]);
    assert_eq!(code, Some(2), "{stderr}");
    // Limits of zero are errors, not silently 1.
    let fresh = s.out.with_file_name("fresh");
    let (code, _, stderr) = validate(&s.fixture.path, &s.recipe, &fresh, &["--timeout", "0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--timeout"), "{stderr}");
    let analyze = bin()
        .args(["analyze", "--jobs", "0", "--base", "main", "--head", "migration", "--repo"])
        .arg(&s.fixture.path)
        .output()
        .unwrap();
    assert_eq!(analyze.status.code(), Some(2));
}

/// A step OpenRewrite skips with a warning (a file outside the repository) is a warning in the
/// stats, not a silent success.
#[test]
fn openrewrite_warnings_reach_the_stats() {
    let recipe = JAKARTA_RECIPE.replace(
        "recipeList:\n",
        "recipeList:\n  - org.openrewrite.text.CreateTextFile:\n      relativeFileName: ../outside.txt\n      fileContents: hi\n",
    );
    let s = setup(&recipe);
    let (code, stats, stderr) = validate(&s.fixture.path, &s.recipe, &s.out, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stats["metrics"]["f1"], 1.0, "the other steps still ran: {stats:#}");
    let warnings = stats["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().starts_with("OpenRewrite: the recipe produced 1 warning")),
        "{warnings:?}"
    );
    assert!(!s.fixture.path.parent().unwrap().join("outside.txt").exists());
}

/// A Java agent (built here with the JDK's javac and jar) that writes `marker` when a JVM starts
/// with `-javaagent:agent.jar=<marker>`.
fn build_agent(dir: &Path) -> Vec<u8> {
    std::fs::write(
        dir.join("Agent.java"),
        "public class Agent {\n  public static void premain(String marker) throws Exception {\n    java.nio.file.Files.writeString(java.nio.file.Path.of(marker), \"repository code ran\");\n  }\n}\n",
    )
    .unwrap();
    std::fs::write(dir.join("manifest.txt"), "Premain-Class: Agent\n").unwrap();
    for args in [&["javac", "Agent.java"][..], &["jar", "cfm", "agent.jar", "manifest.txt", "Agent.class"]] {
        let status = std::process::Command::new(args[0]).args(&args[1..]).current_dir(dir).status().unwrap();
        assert!(status.success(), "{args:?}");
    }
    std::fs::read(dir.join("agent.jar")).unwrap()
}

/// The base commit's `.mvn/` (a `-javaagent` in jvm.config, an unknown option in maven.config, an
/// extension that does not exist) is not honoured by default: no code of the repository runs, and
/// the run says what it ignored. `--trust-build-config` honours it.
#[test]
fn the_repositorys_maven_config_runs_nothing_unless_trusted() {
    let s = setup(JAKARTA_RECIPE);
    let pr_diff = s.out.with_file_name("pr.diff");
    std::fs::write(&pr_diff, git(&s.fixture.path, &["diff", "main", "migration"])).unwrap();
    let marker = s.out.with_file_name("agent-ran");
    let agent = build_agent(s.out.parent().unwrap());
    let repo = RepoBuilder::init(&s.fixture.path).unwrap();
    repo.checkout("main").unwrap();
    repo.write(".mvn/agent.jar", &agent).unwrap();
    repo.write(".mvn/jvm.config", format!("-javaagent:.mvn/agent.jar={}\n", marker.display())).unwrap();
    let trusted_base = repo.commit("a Java agent in jvm.config").unwrap();
    repo.write(".mvn/maven.config", "--no-such-maven-option\n").unwrap();
    repo.write(
        ".mvn/extensions.xml",
        "<extensions><extension><groupId>com.example.nope</groupId><artifactId>nope</artifactId><version>1.0</version></extension></extensions>\n",
    )
    .unwrap();
    let base = repo.commit("build configuration that runs code").unwrap();

    let run = |base: &str, extra: &[&str]| {
        let output = bin()
            .args(["validate", "--json", "--base", base, "--repo"])
            .arg(&s.fixture.path)
            .arg("--expected")
            .arg(&pr_diff)
            .arg("--recipe")
            .arg(&s.recipe)
            .arg("--out")
            .arg(s.out.with_file_name(format!("out-{}", extra.len())))
            .args(extra)
            .output()
            .unwrap();
        (output.status.code(), json_stdout(&output), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (code, stats, stderr) = run(&base, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stats["metrics"]["f1"], 1.0, "{stats:#}");
    assert!(!marker.exists(), "the repository's Java agent ran");
    let warnings = stats["warnings"].to_string();
    assert!(
        warnings.contains("ignored the repository's .mvn/jvm.config, .mvn/maven.config, .mvn/extensions.xml"),
        "{warnings}"
    );

    let (code, stats, stderr) = run(&trusted_base, &["--trust-build-config"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stats["metrics"]["f1"], 1.0, "{stats:#}");
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "repository code ran", "trusted: honoured");
    assert!(!stats["warnings"].to_string().contains("ignored"), "{stats:#}");
}
