//! The built-in example the `demo` command analyzes (the README's first command): a small Maven
//! project with one realistic migration PR, built into a git repository on the fly. Only this
//! ships in the binary; the test fixtures (`crates/fixtures/`, a dev-only crate) build
//! their other examples with the same types.

mod repo;
mod scenario;
pub mod shop;

pub use repo::RepoBuilder;
pub use scenario::{FileEdit, Fixture, Scenario};
pub use shop::DEMO;
