fn main() -> std::process::ExitCode {
    rewrite_assist::run(std::env::args_os())
}
