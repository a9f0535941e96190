//! Starting attempts and handling visitors' commands: one transaction per command, in which
//! the command is decided once, admitted by the limits on what it will do, appended with its
//! next step and its idempotency answer (`command`); refusals by a limit are recorded in that
//! same transaction, refused starts only counted (`refusal`); what the browser reads back
//! (`reply`); the answers kept under an `Idempotency-Key` (`idempotency`); a support agent's
//! command on the same path (`support_command`).

mod command;
mod idempotency;
mod locked;
mod refusal;
mod reply;
mod savepoint;
mod support_command;

pub use command::{AttemptService, ClientInfo, MAX_EVENTS_PER_ATTEMPT};
pub use idempotency::{purge_old_keys, KEY_RETENTION_HOURS, MAX_KEY_CHARS};
pub use refusal::LIMITED_EVENT;
pub use reply::{open_for_owner, owner_reply, reply, AttemptReply, ClientEvent};
pub use support_command::TrailEntry;
