//! The portal's API routes, by area: each file holds one area's handlers over the server's
//! state and calls into that area's module, which knows nothing of HTTP's state.

pub mod altcha;
pub mod analytics;
pub mod attempts;
pub mod installer;
pub mod staff;
pub mod support;
pub mod support_actions;
pub mod support_stuck;
