//! The support console's API (docs/support.md): look-ups of a person's attempts, one attempt
//! step by step with what the visitor saw, masked personal data and audited reveals, and the
//! erasure of a person; what is stuck, notes, and a look-up's results as CSV (issue 27). Every
//! route needs a staff session with the support or admin role.

pub mod csv;
pub mod detail;
pub mod erase;
pub mod lookup;
pub mod masking;
pub mod notes;
pub mod query;
pub mod stuck;
pub mod summary;
