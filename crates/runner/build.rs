//! Rebuild when the embedded runner's sources change: `include_dir!` embeds `runner/src/main` (at
//! the repository's root, two levels up), and cargo does not notice a file added to that directory
//! on its own.
fn main() {
    println!("cargo:rerun-if-changed=../../runner/pom.xml");
    println!("cargo:rerun-if-changed=../../runner/src/main");
}
