//! LISTEN on a connection of its own. `PgListener::connect_with(pool)` keeps one of the pool's
//! connections for good; with a few runners and the notifier listening, a small pool had none
//! left for requests. A listener gets a one-connection pool made from the same options instead.

use sqlx::postgres::{PgListener, PgPoolOptions};
use sqlx::PgPool;

/// A listener on `channel`, on its own connection to `db`'s database.
pub async fn own_listener(db: &PgPool, channel: &str) -> Result<PgListener, sqlx::Error> {
    let options = db.connect_options();
    let own = PgPoolOptions::new().max_connections(1).connect_lazy_with((*options).clone());
    let mut listener = PgListener::connect_with(&own).await?;
    listener.listen(channel).await?;
    Ok(listener)
}
