//! Fans out "stream X changed" from PostgreSQL's NOTIFY to the server-sent-event streams.

use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::{broadcast, watch};

use crate::shutdown::stopped;

#[derive(Clone)]
pub struct Notifier {
    tx: broadcast::Sender<String>,
    /// The server's stop flag: event streams end when it turns true, so a graceful shutdown
    /// does not wait for browsers that keep a stream open.
    stop: watch::Receiver<bool>,
}

impl Notifier {
    /// Starts listening in the background, reconnecting after a lost connection, until `stop`
    /// turns true.
    pub fn spawn(db: PgPool, stop: watch::Receiver<bool>) -> Self {
        let (tx, _) = broadcast::channel(1024);
        let sender = tx.clone();
        let watched = stop.clone();
        tokio::spawn(async move {
            let until = stopped(stop);
            tokio::pin!(until);
            loop {
                tokio::select! {
                    () = &mut until => break,
                    result = listen(&db, &sender) => {
                        if let Err(error) = result {
                            tracing::warn!(%error, "event notifications interrupted; reconnecting");
                        }
                    }
                }
                tokio::select! {
                    () = &mut until => break,
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                }
            }
        });
        Self { tx, stop: watched }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.tx.subscribe()
    }

    /// Resolves when the server is stopping.
    pub async fn stopping(&self) {
        stopped(self.stop.clone()).await
    }
}

/// Returns once `receiver` names `stream`, or fell behind and may have missed it. A closed
/// channel never returns: the caller's time-out or the server's stop ends the wait.
pub async fn changed(receiver: &mut broadcast::Receiver<String>, stream: &str) {
    loop {
        match receiver.recv().await {
            Ok(changed) if changed == stream => return,
            Ok(_) => continue,
            Err(broadcast::error::RecvError::Lagged(_)) => return,
            Err(broadcast::error::RecvError::Closed) => std::future::pending::<()>().await,
        }
    }
}

async fn listen(db: &PgPool, sender: &broadcast::Sender<String>) -> Result<(), sqlx::Error> {
    let mut listener = crate::listen::own_listener(db, events::NOTIFY_CHANNEL).await?;
    loop {
        let notification = listener.recv().await?;
        // One NOTIFY may name several streams (the store's after-commit batches). No receivers
        // is fine: nobody is watching that attempt right now.
        for stream in events::streams_named(notification.payload()) {
            let _ = sender.send(stream.to_string());
        }
    }
}
