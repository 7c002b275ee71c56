fn main() -> std::process::ExitCode {
    // Before anything else runs: the token must not stay readable in /proc/<pid>/environ.
    rewrite_assist::process::secrets::hide_from_environment();
    let _temp_root = rewrite_assist::process::TempRoot::create();
    rewrite_assist::run(std::env::args_os())
}
