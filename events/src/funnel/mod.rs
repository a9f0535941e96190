//! Funnels of the three flows, pure: the definitions (steps and refusals as event types) and
//! the maths (how far an attempt got, the step table). `replay funnel` feeds them the log.

pub mod compute;
pub mod definitions;

pub use compute::{Histogram, Order, Progress, StepRow, Tally};
pub use definitions::{funnel, Funnel, FunnelError, FunnelStep, ACTIVATION_VARIANTS};
