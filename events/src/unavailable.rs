//! Whether a database error means the database cannot be reached right now (a failover, a
//! restart, a cut network) rather than a fault in the request: the caller waits and asks again,
//! and a visitor is answered 503 with `Retry-After`, never 500 (docs/operations.md, "A
//! failover").

use crate::error::StoreError;

/// SQLSTATEs a server answers while it cannot serve: class 08 (connection exception), 57P01
/// `admin_shutdown`, 57P02 `crash_shutdown`, 57P03 `cannot_connect_now` (starting up, shutting
/// down, in recovery) and 25006 `read_only_sql_transaction` (the connection reached a standby:
/// a demoted primary, or a proxy that has not switched yet).
pub fn unavailable_sqlstate(code: &str) -> bool {
    code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03" | "25006")
}

/// The pool had no connection in time (every connect failed, or all were busy), the connection
/// broke, or the server said it cannot serve now.
pub fn database_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(error) => error.code().is_some_and(|code| unavailable_sqlstate(&code)),
        _ => false,
    }
}

impl StoreError {
    /// [`database_unavailable`] for the store's database errors.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Database(error) if database_unavailable(error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failover_states_are_unavailable_and_faults_are_not() {
        for code in ["08000", "08003", "08006", "08001", "57P01", "57P02", "57P03", "25006"] {
            assert!(unavailable_sqlstate(code), "{code}");
        }
        // unique_violation, serialization_failure, undefined_table, query_canceled.
        for code in ["23505", "40001", "42P01", "57014"] {
            assert!(!unavailable_sqlstate(code), "{code}");
        }
    }

    #[test]
    fn a_lost_connection_or_no_connection_in_time_is_unavailable() {
        let reset = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "connection reset by peer");
        assert!(database_unavailable(&sqlx::Error::Io(reset)));
        assert!(database_unavailable(&sqlx::Error::PoolTimedOut));
        assert!(database_unavailable(&sqlx::Error::WorkerCrashed));
        assert!(!database_unavailable(&sqlx::Error::RowNotFound));
        assert!(!database_unavailable(&sqlx::Error::PoolClosed));
        assert!(StoreError::Database(sqlx::Error::PoolTimedOut).is_unavailable());
        assert!(!StoreError::EmptyAppend.is_unavailable());
    }
}
