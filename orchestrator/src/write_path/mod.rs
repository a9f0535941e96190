//! The one write path of attempts, shared by the command service (`attempts/`) and the step
//! runner (`runner/`):
//!
//! 1. [`prepare_in`]: decided events become storable ones, in the transaction that appends them: personal data sealed ([`pii`]),
//!    one-time secrets moved to the attempt's [`secrets`], anything left in clear refused;
//! 2. [`append_and_plan`]: the events are appended with the expected version and, in the same
//!    transaction, the step the folded stream now has due is scheduled, so a crash can never
//!    leave an appended change without its plan.

mod commit;
pub mod handoff;
pub mod histories;
pub mod pii;
mod prepare;
pub mod schedule;
pub mod secrets;

pub use commit::{append_after, append_and_plan, plan_next, recorded_after};
pub use handoff::{Handoff, Offer};
pub use histories::Histories;
pub use prepare::{prepare_in, PrepareError};
pub use schedule::schedule_in_tx;
pub use secrets::Secrets;
