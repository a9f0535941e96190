//! A step a command plans due at once, claimed in the command's own transaction for this
//! process's runner and handed to it once committed: no claim transaction of its own, and no
//! wait for the runner to be woken (issue 24). Offered only while a runner is attached and has
//! a free slot; otherwise the plan is written free and any runner claims it as before. A
//! command that leaves a plan free wakes the runner in process ([`Handoff::wake`]), so the
//! runner need not claim on its own process's NOTIFYs.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::{mpsc, Notify, OwnedSemaphorePermit, Semaphore};

use super::schedule::{release, Chain, Claimed, Planned};

/// A claimed step on its way to the runner, with the runner's slot it will run in.
#[derive(Debug)]
pub struct Handed {
    pub claimed: Claimed,
    pub slot: OwnedSemaphorePermit,
}

#[derive(Debug)]
struct Attached {
    runner_id: String,
    lease: Duration,
    slots: Arc<Semaphore>,
    sender: mpsc::UnboundedSender<Handed>,
}

/// Where commands hand steps to this process's runner.
#[derive(Debug, Default)]
pub struct Handoff {
    attached: Mutex<Option<Attached>>,
    /// A plan was written free by this process.
    planned: Notify,
}

/// One free slot of the attached runner, held through a command's transaction.
#[derive(Debug)]
pub struct Offer {
    runner_id: String,
    lease: Duration,
    slot: OwnedSemaphorePermit,
    sender: mpsc::UnboundedSender<Handed>,
}

impl Handoff {
    /// The runner `runner_id` takes the steps handed over from now on, each in one of its
    /// `slots` (taken from the same semaphore its own claims take theirs from).
    pub fn attach(&self, runner_id: &str, lease: Duration, slots: Arc<Semaphore>) -> mpsc::UnboundedReceiver<Handed> {
        let (sender, receiver) = mpsc::unbounded_channel();
        if let Ok(mut attached) = self.attached.lock() {
            *attached = Some(Attached { runner_id: runner_id.to_string(), lease, slots, sender });
        }
        receiver
    }

    /// The runner `runner_id` stops taking steps (it then gives back what is still on its way).
    pub fn detach(&self, runner_id: &str) {
        if let Ok(mut attached) = self.attached.lock() {
            if attached.as_ref().is_some_and(|a| a.runner_id == runner_id) {
                *attached = None;
            }
        }
    }

    /// After a commit: hands a step the commit took (with `offer`'s slot) to the runner, or wakes
    /// the runner for a plan it left free.
    pub async fn committed(&self, db: &PgPool, offer: Option<Offer>, planned: Planned) {
        match (planned, offer) {
            (Planned::Taken(claimed), Some(offer)) => offer.hand(db, claimed).await,
            (Planned::Nothing, _) => {}
            // Nothing takes a step without an offer; were it so, the step is free again once
            // its lease runs out, and the runner is woken for it meanwhile.
            _ => self.wake(),
        }
    }

    /// Wakes the runner to claim a plan this process wrote free (kept for the runner if it is
    /// busy claiming).
    pub fn wake(&self) {
        self.planned.notify_one();
    }

    /// Until a plan is written free by this process.
    pub async fn woken(&self) {
        self.planned.notified().await;
    }

    /// Whether a runner takes hand-offs now.
    pub fn is_attached(&self) -> bool {
        self.attached.lock().is_ok_and(|attached| attached.is_some())
    }

    /// A free slot of the attached runner, if there is one.
    pub fn offer(&self) -> Option<Offer> {
        let attached = self.attached.lock().ok()?;
        let attached = attached.as_ref()?;
        let slot = attached.slots.clone().try_acquire_owned().ok()?;
        Some(Offer {
            runner_id: attached.runner_id.clone(),
            lease: attached.lease,
            slot,
            sender: attached.sender.clone(),
        })
    }
}

impl Offer {
    /// Who takes a step due at once ([`super::schedule::schedule_and_take`]).
    pub fn chain(&self) -> Chain<'_> {
        Chain { runner_id: &self.runner_id, lease: self.lease }
    }

    /// Hands `claimed` (committed under [`Offer::chain`]) to the runner; gives the claim back
    /// when the runner stopped meanwhile, so another one takes the step at once.
    pub async fn hand(self, db: &PgPool, claimed: Claimed) {
        if let Err(mpsc::error::SendError(handed)) = self.sender.send(Handed { claimed, slot: self.slot }) {
            if let Err(error) = release(db, &handed.claimed).await {
                tracing::warn!(%error, stream = %handed.claimed.stream_id, "giving back a step no runner took");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_is_offered_only_while_a_runner_is_attached_and_has_one_free() {
        let handoff = Handoff::default();
        assert!(handoff.offer().is_none() && !handoff.is_attached(), "no runner");
        let slots = Arc::new(Semaphore::new(1));
        let _receiver = handoff.attach("runner-a", Duration::from_secs(30), slots.clone());
        let offer = handoff.offer().expect("a free slot");
        assert_eq!(offer.chain().runner_id, "runner-a");
        assert_eq!(slots.available_permits(), 0, "the offer holds the slot");
        assert!(handoff.offer().is_none(), "no slot left");
        drop(offer);
        assert_eq!(slots.available_permits(), 1, "an offer not taken gives its slot back");
        handoff.detach("runner-b");
        assert!(handoff.offer().is_some(), "another runner's detach leaves this one");
        handoff.detach("runner-a");
        assert!(handoff.offer().is_none() && !handoff.is_attached(), "detached");
    }
}
