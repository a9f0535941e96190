//! Development credentials and partner constants the sandbox accepts. They are public on
//! purpose (documented in `docs/sandbox.md`): the orchestrator's default configuration uses the
//! same values, and real deployments replace every one of them through configuration.

/// Client credentials sent as `X-Client-Id` / `X-Client-Secret` to the partner API and the BFF,
/// and in the body of `/auth/v1/token`.
pub const CLIENT_ID: &str = "exa-portal-sandbox";
pub const CLIENT_SECRET: &str = "sandbox-client-secret";

/// The only requester name (`X-Requester-Name`) the sandbox knows.
pub const REQUESTER_NAME: &str = "exa-portal";

/// Brand names (`X-Brand-Name`): the default brand and the two telecom-partner variants.
pub const BRAND_DEFAULT: &str = "exa";
pub const BRAND_AGILITY: &str = "agility";
pub const BRAND_TIM: &str = "tim";

/// Identity-provider keys (`?key=` of `verifyCustomToken`): the carrier brand has its own
/// project, every other brand uses the default one.
pub const IDENTITY_KEY_DEFAULT: &str = "sandbox-identity-key-default";
pub const IDENTITY_KEY_TIM: &str = "sandbox-identity-key-tim";

/// Key (`?key=`) of the desktop flow's phone-authentication service.
pub const PHONE_AUTH_API_KEY: &str = "sandbox-phone-auth-key";

/// Token of the desktop flow's invisible bot check, sent with `send-code`; the sandbox only
/// requires one.
pub const PHONE_AUTH_BOT_CHECK_TOKEN: &str = "sandbox-invisible-bot-check";

/// Project id in the document database's path; the user collection's name.
pub const DOCDB_PROJECT: &str = "exa-sandbox";
pub const DOCDB_USER_COLLECTION: &str = "users";

/// `X-Api-Key` of the telecom partner's API (`/api/hero/...`).
pub const HERO_API_KEY: &str = "sandbox-hero-api-key";

/// The broadband partner's OAuth client.
pub const OAUTH_CLIENT_ID: &str = "exa-portal-brisanet";
pub const OAUTH_CLIENT_SECRET: &str = "sandbox-oauth-client-secret";

/// `partner` of `subscribe-by-hash` for the broadband partner, and its fixed plan hash.
pub const BROADBAND_PARTNER: &str = "brisanet";
pub const BROADBAND_PLAN_HASH: &str = "brisanet-exa-seguranca-plan";

/// `partner` of `subscribe-by-hash` for the telecom partner (the spec's fixed string).
pub const TELECOM_PARTNER_NAME: &str = "agility";
