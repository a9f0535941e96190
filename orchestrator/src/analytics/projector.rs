//! The server's task that keeps the funnel projection current (what `replay project --follow`
//! does): a page at a time, every quarter second while events come, every second when idle.
//! Several replicas may run it: the
//! checkpoint's row lock lets one write at a time, and a loser only drops its cache.

use events::funnel::projection::{Projector, Step, LIVE};
use events::pii::Vault;
use events::EventStore;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// Events per page (and per transaction).
const PAGE: i64 = 2_000;

/// How long new events gather before a page that caught up is followed by the next.
const GATHER: std::time::Duration = std::time::Duration::from_millis(250);

/// `vault` tags each attempt's person (counting people, `events::funnel::person`).
pub fn spawn(store: EventStore, vault: Vault, stop: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let until = crate::shutdown::stopped(stop);
        tokio::pin!(until);
        let mut projector = Projector::new(store, LIVE, PAGE).with_persons(vault);
        loop {
            let pause = match projector.step().await {
                // A full page: more are waiting.
                Ok(Step::Wrote(events)) if events as i64 >= PAGE => std::time::Duration::ZERO,
                // A page short of full caught up: the events of the next moment wait for a page
                // of their own, so a busy portal costs the projection a few transactions a
                // second, not one every few commits (issue 24).
                Ok(Step::Wrote(_)) => GATHER,
                Ok(Step::Raced) => std::time::Duration::ZERO,
                Ok(Step::CaughtUp { held_back: true }) => std::time::Duration::from_millis(20),
                Ok(Step::CaughtUp { held_back: false }) => std::time::Duration::from_secs(1),
                Err(error) => {
                    tracing::warn!(%error, "funnel projection: a page failed; retrying");
                    std::time::Duration::from_secs(5)
                }
            };
            tokio::select! {
                () = &mut until => break,
                () = tokio::time::sleep(pause) => {}
            }
        }
    })
}
