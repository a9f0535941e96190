//! Fans out "stream X changed" from PostgreSQL's NOTIFY to the server-sent-event streams.

use std::time::Duration;

use sqlx::postgres::PgListener;
use sqlx::PgPool;
use tokio::sync::broadcast;

#[derive(Clone)]
pub struct Notifier {
    tx: broadcast::Sender<String>,
}

impl Notifier {
    /// Starts listening in the background; reconnects after a lost connection.
    pub fn spawn(db: PgPool) -> Self {
        let (tx, _) = broadcast::channel(1024);
        let sender = tx.clone();
        tokio::spawn(async move {
            loop {
                if let Err(error) = listen(&db, &sender).await {
                    tracing::warn!(%error, "event notifications interrupted; reconnecting");
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
        Self { tx }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.tx.subscribe()
    }
}

async fn listen(db: &PgPool, sender: &broadcast::Sender<String>) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect_with(db).await?;
    listener.listen(events::NOTIFY_CHANNEL).await?;
    loop {
        let notification = listener.recv().await?;
        // No receivers is fine: nobody is watching that attempt right now.
        let _ = sender.send(notification.payload().to_string());
    }
}
