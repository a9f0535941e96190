//! What the sandbox remembers, as plain records and the books that keep them: code
//! transactions, issued tokens, the SMS inbox, the admin book (faults, call log, stored replies),
//! subscriptions and the partners' customers and grants.
//!
//! The bottom of the module graph: handlers import [`crate::state`] and these records, `state`
//! imports these records, and nothing here imports `state` or a handler (only `error` for the
//! refusals and `headers` for the brand). Desktop accounts are the scenario table's own type,
//! [`crate::scenarios::DesktopAccount`]; `scenarios` imports nothing of the crate either.

pub mod admin;
pub mod codes;
pub mod faults;
pub mod inbox;
pub mod partners;
pub mod subscriptions;
pub mod tokens;
