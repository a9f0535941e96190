//! LISTEN connections that writers can see. Each listener runs on a connection of its own
//! (`PgListener::connect_with(pool)` would keep one of the pool's connections for good), named
//! in `application_name` so that a writer's NOTIFY can first ask PostgreSQL whether anybody
//! needs it (notify.rs): a listener that learns this store's commits in process is named with
//! the store's tag, any other with the bare prefix. A LISTEN that is not made here is not seen,
//! so a lone process skips NOTIFYs it would be the only one to hear.

use sqlx::postgres::{PgListener, PgPoolOptions};

use super::EventStore;

/// Prefix of every listener connection's `application_name`.
pub(super) const LISTENER: &str = "events-listener";

/// Whether a listener learns this store's own commits in process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hears {
    /// Every commit only from NOTIFYs (this store's too).
    Notifications,
    /// This store's commits in process ([`EventStore::appended_here`], or a hand-off), other
    /// stores' from NOTIFYs: this store sends no NOTIFY for it alone.
    OthersOnly,
}

/// The `application_name` of a listener that hears what `hears` says, for a store tagged `tag`.
pub(super) fn listener_name(tag: &str, hears: Hears) -> String {
    match hears {
        Hears::Notifications => LISTENER.to_string(),
        Hears::OthersOnly => format!("{LISTENER}:{tag}"),
    }
}

impl EventStore {
    /// A LISTEN on `channel` on a connection of its own to the store's database, named so
    /// this store's and other processes' writers know what it needs.
    pub async fn listener(&self, channel: &str, hears: Hears) -> Result<PgListener, sqlx::Error> {
        let options =
            (*self.pool.connect_options()).clone().application_name(&listener_name(self.notifier.tag(), hears));
        let own = PgPoolOptions::new().max_connections(1).connect_lazy_with(options);
        let mut listener = PgListener::connect_with(&own).await?;
        listener.listen(channel).await?;
        Ok(listener)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listener_that_hears_the_store_in_process_is_named_with_its_tag() {
        assert_eq!(listener_name("3f2a9c1e", Hears::OthersOnly), "events-listener:3f2a9c1e");
        assert_eq!(listener_name("3f2a9c1e", Hears::Notifications), "events-listener");
    }
}
