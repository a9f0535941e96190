//! Request header names the upstreams read (spec section 7), lower case as HTTP/2 sends them.

/// A fresh UUID on every partner-API and BFF call.
pub const CORRELATION_ID: &str = "x-correlation-id";
pub const REQUESTER_NAME: &str = "x-requester-name";
/// One of [`crate::credentials::BRAND_DEFAULT`], `BRAND_AGILITY`, `BRAND_TIM`.
pub const BRAND_NAME: &str = "x-brand-name";
pub const CLIENT_ID: &str = "x-client-id";
pub const CLIENT_SECRET: &str = "x-client-secret";
/// Same key on every retry of one step; the upstream answers a repeat from memory.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// The antivirus API's user token.
pub const USER_TOKEN: &str = "x-user-token";
pub const SUBSCRIPTION_ID: &str = "x-subscription-id";
pub const DEVICE_ID: &str = "x-device-id";
/// `win_pc` or `mac`.
pub const OS: &str = "x-os";
/// The telecom partner's API key.
pub const API_KEY: &str = "x-api-key";
