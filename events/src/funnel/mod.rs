//! Funnels of the three flows, pure: the definitions (steps and refusals as event types), what
//! is kept of one attempt (its track), the maths (how far an attempt got, the step table) and
//! a question's answer. `replay funnel` feeds them the log; the projection
//! ([`crate::funnel::projection`]) keeps the attempts' facts current in PostgreSQL.

pub mod answer;
pub mod compute;
pub mod definitions;
pub mod drivers;
pub mod dropoff;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod hot;
pub mod people;
pub mod person;
pub mod projection;
pub mod read;
pub mod track;

pub use answer::{DayCount, FunnelAnswer, FunnelQuery};
pub use compute::{Histogram, Order, Progress, StepRow, Tally};
pub use definitions::{funnel, Funnel, FunnelError, FunnelStep, ACTIVATION_VARIANTS};
pub use drivers::{Driver, Drivers};
pub use dropoff::{DrillDown, Dropped, DroppedAttempt, DroppedPage};
pub use people::{Count, Counted};
pub use track::{sao_paulo, AttemptFacts, AttemptTrack, Breakdown, Facts, LIMITED_EVENT};
