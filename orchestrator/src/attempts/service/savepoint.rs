//! The savepoint a guarded command writes after and a refusal by a limit rolls back to. It is
//! never released: sqlx's nested transaction would release it with a round trip of its own
//! (`RELEASE SAVEPOINT`, 2 an attempt: issue 30), and the transaction's commit does the same.

use sqlx::{Executor, PgConnection, PgPool, Postgres, Transaction};

/// A transaction begun with its mark already made, in one round trip: the simple protocol
/// takes both statements at once (a start whose decision, made before its transaction, says a
/// limit watches it: about one round trip an attempt).
pub(super) async fn begin_marked(db: &PgPool) -> Result<Transaction<'static, Postgres>, sqlx::Error> {
    db.begin_with("BEGIN; SAVEPOINT before_limits").await
}

/// Marks where a refusal rolls back to, in the caller's transaction.
pub(super) async fn mark(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    conn.execute("SAVEPOINT before_limits").await.map(drop)
}

/// Undoes what the caller's transaction wrote since [`mark`]; the transaction goes on.
pub(super) async fn roll_back(conn: &mut PgConnection) -> Result<(), sqlx::Error> {
    conn.execute("ROLLBACK TO SAVEPOINT before_limits").await.map(drop)
}
