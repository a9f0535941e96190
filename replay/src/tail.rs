//! `replay tail`: the event log after a checkpoint, as JSON lines, on the gap-free read.

use std::io::Write;

use events::{Checkpoint, EventStore, RecordedEvent, SubscriptionOptions};

/// Parses `TX:POSITION` (as printed in each line's `checkpoint`), or `start`.
pub fn parse_checkpoint(text: &str) -> Result<Checkpoint, String> {
    if text == "start" {
        return Ok(Checkpoint::START);
    }
    let (tx, position) =
        text.split_once(':').ok_or_else(|| format!("checkpoint must be TX:POSITION or start, got {text:?}"))?;
    let tx_id = tx.parse().map_err(|_| format!("bad transaction id in {text:?}"))?;
    let position = position.parse().map_err(|_| format!("bad position in {text:?}"))?;
    Ok(Checkpoint { tx_id, position })
}

/// One line of output: the event plus the checkpoint to resume right after it.
pub fn json_line(event: &RecordedEvent) -> serde_json::Result<String> {
    let mut value = serde_json::to_value(event)?;
    if let Some(object) = value.as_object_mut() {
        let cp = event.checkpoint();
        object.insert("checkpoint".into(), format!("{}:{}", cp.tx_id, cp.position).into());
    }
    serde_json::to_string(&value)
}

pub struct TailOptions {
    pub after: Checkpoint,
    pub follow: bool,
    pub limit: Option<usize>,
    pub batch: i64,
    /// Without `follow`: how long to wait for events held back behind a transaction still open
    /// somewhere in the cluster before giving up with an error (any open transaction holds the
    /// gap-free read back, and one may stay open for hours).
    pub held_back_wait: std::time::Duration,
}

/// Writes events to `out` until the log is exhausted (or forever with `follow`).
/// Returns how many lines were written.
pub async fn tail(store: &EventStore, options: TailOptions, out: &mut impl Write) -> anyhow::Result<usize> {
    let mut written = 0usize;
    let mut checkpoint = options.after;
    let reached = |n: usize| options.limit.is_some_and(|limit| n >= limit);
    if !options.follow {
        let mut held_since: Option<std::time::Instant> = None;
        let mut read_after_check = false;
        loop {
            let batch = store.read_all_after(checkpoint, options.batch).await?;
            if batch.is_empty() {
                // Committed events may still be held back behind an older transaction in
                // progress (the gap-free rule); wait for it rather than stop short of them,
                // but not without bound.
                if store.has_held_back_after(checkpoint).await? {
                    let since = *held_since.get_or_insert_with(std::time::Instant::now);
                    if since.elapsed() >= options.held_back_wait {
                        out.flush()?;
                        anyhow::bail!(
                            "events after {}:{} are held back behind a transaction open for over {} s somewhere in \
                             the cluster (see pg_stat_activity); {written} lines printed; run again later with --after {}:{}",
                            checkpoint.tx_id,
                            checkpoint.position,
                            options.held_back_wait.as_secs(),
                            checkpoint.tx_id,
                            checkpoint.position
                        );
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    continue;
                }
                // The read and the check are two snapshots: a transaction that ended between
                // them released events the read could not see yet, and the check no longer
                // counts as held back. A second read, after the check, sees every one of them.
                if !read_after_check {
                    read_after_check = true;
                    continue;
                }
                return Ok(written);
            }
            read_after_check = false;
            held_since = None;
            for event in &batch {
                writeln!(out, "{}", json_line(event)?)?;
                written += 1;
                checkpoint = event.checkpoint();
                if reached(written) {
                    return Ok(written);
                }
            }
            out.flush()?;
        }
    }
    // A database that cannot serve (a failover, a restart) is waited out: the read resumes
    // after the last event printed, so nothing is skipped or printed twice across the switch.
    let mut subscription = loop {
        match store.subscribe_all_with(checkpoint, SubscriptionOptions::default()).await {
            Ok(subscription) => break subscription,
            Err(error) if error.is_unavailable() => unavailable_pause(&error, checkpoint).await,
            Err(error) => return Err(error.into()),
        }
    };
    loop {
        let batch = match subscription.next_batch().await {
            Ok(batch) => batch,
            Err(error) if error.is_unavailable() => {
                unavailable_pause(&error, subscription.checkpoint()).await;
                continue;
            }
            Err(error) => return Err(error.into()),
        };
        for event in batch {
            writeln!(out, "{}", json_line(&event)?)?;
            written += 1;
            if reached(written) {
                out.flush()?;
                return Ok(written);
            }
        }
        out.flush()?;
    }
}

/// How long `--follow` waits before reading again when the database could not serve.
const UNAVAILABLE_PAUSE: std::time::Duration = std::time::Duration::from_millis(500);

async fn unavailable_pause(error: &events::StoreError, at: Checkpoint) {
    eprintln!(
        "banco de dados indisponível ({error}); lendo de novo depois de {}:{} em {} ms",
        at.tx_id,
        at.position,
        UNAVAILABLE_PAUSE.as_millis()
    );
    tokio::time::sleep(UNAVAILABLE_PAUSE).await;
}
