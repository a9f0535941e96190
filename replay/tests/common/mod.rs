//! Shared by replay's integration tests.

use sqlx::PgPool;

/// The test database's URL, for the `replay` processes a test starts.
pub fn database_url(db: &PgPool) -> String {
    let options = db.connect_options();
    let base = std::env::var("DATABASE_URL").expect("DATABASE_URL (sqlx::test needs it too)");
    let (server, _) = base.rsplit_once('/').unwrap_or((&base, ""));
    format!("{server}/{}", options.get_database().unwrap_or("postgres"))
}
