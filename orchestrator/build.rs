//! Rebuilds when a migration is added: `sqlx::migrate!` and `#[sqlx::test(migrations = ...)]`
//! embed the directory's files at compile time, and cargo does not watch a directory for new
//! files by itself.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
