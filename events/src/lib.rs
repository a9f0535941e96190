//! The event vocabulary and the PostgreSQL event store of the EXA portal.
//!
//! - [`EventStore`]: optimistic appends, stream / category / gap-free global reads,
//!   live subscriptions (LISTEN/NOTIFY + polling), upcasting through [`Upcasters`].
//! - [`pii`]: the personal-data [`Vault`](pii::Vault) (per-person keys, sealed payload
//!   fields, keyed look-ups, crypto-shredding).
//!
//! Design and guarantees: `docs/event-store.md`.

mod error;
pub mod flow;
pub mod flows;
pub mod funnel;
pub mod pii;
mod store;
mod stream_id;
mod types;
mod unavailable;
mod upcast;

pub use error::StoreError;
pub use store::{
    streams_named, versions_named, Appended, EventStore, Hears, Subscription, SubscriptionOptions, NOTIFY_CHANNEL,
};
pub use stream_id::StreamId;
pub use types::{AppendOutcome, Checkpoint, ExpectedVersion, Metadata, NewEvent, RecordedEvent};
pub use unavailable::{database_unavailable, unavailable_sqlstate};
pub use upcast::{UpcastError, Upcasters};
