//! One path prefix per upstream kind, so one sandbox host plays them all, and one base URL per
//! kind in the orchestrator (a real upstream's, or the sandbox's under its prefix).

use serde::{Deserialize, Serialize};

pub const PHONE_AUTH: &str = "/phone-auth";
pub const DOCDB: &str = "/docdb";
pub const ANTIVIRUS: &str = "/antivirus";
pub const PARTNER_API: &str = "/partner-api";
pub const SSO: &str = "/sso";
pub const IDENTITY: &str = "/identity";
pub const BFF_DEFAULT: &str = "/bff-default";
pub const BFF_TIM: &str = "/bff-tim";
pub const HERO: &str = "/hero";
pub const OAUTH: &str = "/oauth";
pub const CLOUD_FUNCTIONS: &str = "/cloud-functions";
pub const DOWNLOAD_MANAGER: &str = "/download-manager";
pub const CHATBOT: &str = "/chatbot";
pub const SMS_INBOX: &str = "/sms";

/// One base URL per upstream kind. Paths of `docs/upstreams.md` are appended to these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpstreamUrls {
    /// Desktop flow's phone authentication (send and confirm the SMS code).
    pub phone_auth: String,
    /// Document database (`runQuery` on the user collection).
    pub docdb: String,
    /// Antivirus API; its paths start with `/v1`.
    pub antivirus: String,
    /// Partner API: `/authentication/v1/...` and `/authorization/api/v1/...`.
    pub partner_api: String,
    /// Single sign-on: `/auth/v1/token`.
    pub sso: String,
    /// Identity provider: `verifyCustomToken`.
    pub identity: String,
    /// Back-for-front-end of the default brand: `/bff/api/v2/...`.
    pub bff_default: String,
    /// Back-for-front-end of the carrier brand (`tim`): same contract.
    pub bff_tim: String,
    /// Telecom partner's API: `/api/hero/...`.
    pub hero: String,
    /// Broadband partner's OAuth provider: `/authorize`, `/token`, `/customer`.
    pub oauth: String,
    /// Cloud functions: the cloud activation's wrappers.
    pub cloud_functions: String,
    /// Download manager serving the installer (its URLs come from `av-desktop-url`).
    pub download_manager: String,
    /// Chatbot orchestrator: the page embedded with `?p=hero` and its avatar.
    pub chatbot: String,
    /// The sandbox's SMS inbox page (sandbox mode only; no real counterpart).
    pub sms_inbox: String,
}

/// The sandbox layout under `base` (for example `http://127.0.0.1:8090`).
pub fn upstream_urls(base: &str) -> UpstreamUrls {
    let base = base.trim_end_matches('/');
    let at = |prefix: &str| format!("{base}{prefix}");
    UpstreamUrls {
        phone_auth: at(PHONE_AUTH),
        docdb: at(DOCDB),
        antivirus: at(ANTIVIRUS),
        partner_api: at(PARTNER_API),
        sso: at(SSO),
        identity: at(IDENTITY),
        bff_default: at(BFF_DEFAULT),
        bff_tim: at(BFF_TIM),
        hero: at(HERO),
        oauth: at(OAUTH),
        cloud_functions: at(CLOUD_FUNCTIONS),
        download_manager: at(DOWNLOAD_MANAGER),
        chatbot: at(CHATBOT),
        sms_inbox: at(SMS_INBOX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_appends_prefixes_without_double_slashes() {
        let urls = upstream_urls("http://127.0.0.1:8090/");
        assert_eq!(urls.antivirus, "http://127.0.0.1:8090/antivirus");
        assert_eq!(urls.bff_tim, "http://127.0.0.1:8090/bff-tim");
        assert_eq!(urls.sms_inbox, "http://127.0.0.1:8090/sms");
    }
}
