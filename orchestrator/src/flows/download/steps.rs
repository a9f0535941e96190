//! The desktop download's runner steps: each due step is one upstream call, its outcome an
//! event. The SMS session, the user token and the granted URL go to the attempt's secrets,
//! never into an event.

use std::collections::BTreeMap;
use std::time::Duration;

use async_trait::async_trait;
use events::flow::{PiiField, PlannedStep};
use events::flows::download::{
    DesktopPhone, Device, DownloadEvent, DownloadFlow, DownloadState, Partner, Pending, COUNTRY_PREFIX,
};
use events::pii::PiiKind;
use secrecy::{ExposeSecret, SecretString};

use super::client::{CallError, DesktopClient, Endpoints, UpstreamDevice, UpstreamPartner};
use crate::config::DownloadConfig;
use crate::runner::StepError;
use crate::runner::{FlowSteps, StepContext};

/// Names of the attempt's secrets (`<flow>.<name>`, as in every flow).
pub mod secret {
    pub const SESSION: &str = "download.phone_auth_session";
    pub const USER_TOKEN: &str = "download.user_token";
    pub const INSTALLER_URL: &str = "download.installer_url";
    /// Partner id → its `prioritySubscriptionId`, as JSON.
    pub const SUBSCRIPTIONS: &str = "download.subscriptions";
    /// Device reference (`device-1`, ...) → the upstream's device id, as JSON.
    pub const DEVICES: &str = "download.devices";
}
use secret::{DEVICES, INSTALLER_URL, SESSION, SUBSCRIPTIONS, USER_TOKEN};

/// The SMS code lives 15 minutes (spec §9); its session no longer.
const SESSION_TTL: Duration = Duration::from_secs(15 * 60);
/// Used when the phone-auth service does not say how long the token lives.
const USER_TOKEN_TTL: Duration = Duration::from_secs(60 * 60);
/// The download manager's links last one hour.
const INSTALLER_URL_TTL: Duration = Duration::from_secs(60 * 60);

/// Reasons recorded when a secret a step needs is gone (expired or never stored).
pub const SESSION_LOST: &str = "SESSION_EXPIRED";
pub const TOKEN_LOST: &str = "USER_TOKEN_EXPIRED";

pub struct DownloadSteps {
    config: DownloadConfig,
}

impl DownloadSteps {
    pub fn new(config: DownloadConfig) -> Self {
        Self { config }
    }

    fn client(&self, ctx: &StepContext) -> DesktopClient {
        let urls = &ctx.upstreams.urls;
        DesktopClient::new(
            ctx.http.clone(),
            ctx.upstreams.timeout,
            Endpoints {
                phone_auth: &urls.phone_auth,
                phone_auth_key: &ctx.upstreams.phone_auth_api_key,
                docdb: &urls.docdb,
                docdb_project: &self.config.docdb_project,
                antivirus: &urls.antivirus,
                calls: &ctx.calls,
            },
        )
    }
}

fn missing(what: &str) -> StepError {
    StepError::Transient(format!("the attempt has no {what}"))
}

/// A refusal becomes the step's failure event; anything else is retried by the runner.
fn refused(error: CallError, fail: impl FnOnce(String) -> DownloadEvent) -> Result<Vec<DownloadEvent>, StepError> {
    match error {
        CallError::Refused { .. } => Ok(vec![fail(error.reason())]),
        CallError::Transient(reason) => Err(StepError::Transient(reason)),
    }
}

/// The phone as the desktop upstreams want it, `+55` and 11 digits. The vault keeps the
/// normalized digits (`5511...`), so the plus sign is put back here.
async fn msisdn(ctx: &StepContext, state: &DownloadState) -> Result<String, StepError> {
    let opened = ctx.open(state.phone.as_ref().ok_or_else(|| missing("phone"))?).await?;
    desktop_msisdn(&opened).ok_or_else(|| missing("valid phone"))
}

fn desktop_msisdn(opened: &str) -> Option<String> {
    let digits: String = opened.chars().filter(char::is_ascii_digit).collect();
    let national = match digits.len() {
        13 => digits.strip_prefix(COUNTRY_PREFIX)?,
        11 => digits.as_str(),
        _ => return None,
    };
    DesktopPhone::parse(national).ok().map(|phone| phone.msisdn())
}

/// Only URLs of the configured download manager are fetched later on the visitor's behalf.
/// Both are parsed and normalised first (`a/../b` is `b`), so a granted URL cannot climb out of
/// the manager's path; one with credentials in it is refused. Returns the normalised URL.
fn download_manager_url(url: &str, base: &str) -> Option<String> {
    let granted = reqwest::Url::parse(url).ok()?;
    let base = reqwest::Url::parse(base.trim_end_matches('/')).ok()?;
    let same_origin = granted.scheme() == base.scheme()
        && granted.host_str() == base.host_str()
        && granted.port_or_known_default() == base.port_or_known_default();
    let prefix = format!("{}/", base.path().trim_end_matches('/'));
    let inside = granted.path().starts_with(&prefix) && granted.path().len() > prefix.len();
    let no_credentials = granted.username().is_empty() && granted.password().is_none();
    (same_origin && inside && no_credentials).then(|| granted.to_string())
}

#[async_trait]
impl FlowSteps for DownloadSteps {
    type F = DownloadFlow;

    async fn run(
        &self,
        ctx: &StepContext,
        state: &DownloadState,
        step: &PlannedStep,
        key: &str,
    ) -> Result<Vec<DownloadEvent>, StepError> {
        let pending = state.pending.as_ref().filter(|p| p.step().name() == step.name);
        let Some(pending) = pending else {
            return Err(StepError::Transient(format!("step {} is not due", step.name)));
        };
        let client = self.client(ctx);
        match pending {
            Pending::SendCode | Pending::ResendCode => {
                let resend = *pending == Pending::ResendCode;
                match client
                    .send_code(&msisdn(ctx, state).await?, self.config.bot_check_token.expose_secret(), key)
                    .await
                {
                    Ok(session) => {
                        ctx.keep_secret(SESSION, &session, SESSION_TTL);
                        Ok(vec![if resend { DownloadEvent::CodeResent {} } else { DownloadEvent::CodeSent {} }])
                    }
                    Err(error) => refused(error, |reason| DownloadEvent::CodeSendFailed { reason }),
                }
            }
            Pending::ConfirmCode => {
                let code = ctx.reveal(state.code.as_ref().ok_or_else(|| missing("code"))?).await?;
                let code = code.as_str();
                let Some(session) = ctx.secret(SESSION).await? else {
                    return Ok(vec![DownloadEvent::CodeRejected { reason: SESSION_LOST.into() }]);
                };
                match client.confirm_code(&session, code, key).await {
                    Ok(user) => {
                        let ttl =
                            user.expires_in.map(Duration::from_secs).unwrap_or(USER_TOKEN_TTL).min(USER_TOKEN_TTL);
                        ctx.keep_secret(USER_TOKEN, &user.token, ttl);
                        Ok(vec![DownloadEvent::CodeConfirmed {}])
                    }
                    Err(error) => refused(error, |reason| DownloadEvent::CodeRejected { reason }),
                }
            }
            Pending::FindUser => {
                let Some(token) = ctx.secret(USER_TOKEN).await? else {
                    return Ok(vec![DownloadEvent::UserLookupFailed { reason: TOKEN_LOST.into() }]);
                };
                match client.user_exists(&token, &msisdn(ctx, state).await?, key).await {
                    Ok(true) => Ok(vec![DownloadEvent::UserFound {}]),
                    Ok(false) => Ok(vec![DownloadEvent::UserNotFound {}]),
                    Err(error) => refused(error, |reason| DownloadEvent::UserLookupFailed { reason }),
                }
            }
            Pending::ListPartners => {
                let Some(token) = ctx.secret(USER_TOKEN).await? else {
                    return Ok(vec![DownloadEvent::PartnersFailed { reason: TOKEN_LOST.into() }]);
                };
                match client.partners(&token).await {
                    Ok(upstream) => {
                        let (partners, subscriptions) = partners_for_events(upstream);
                        keep_map(ctx, SUBSCRIPTIONS, &subscriptions).await?;
                        Ok(vec![DownloadEvent::PartnersListed { partners }])
                    }
                    Err(error) => refused(error, |reason| DownloadEvent::PartnersFailed { reason }),
                }
            }
            Pending::RequestDownload => {
                let os = state.os.ok_or_else(|| missing("os"))?;
                let (Some(token), Some(subscription)) =
                    (ctx.secret(USER_TOKEN).await?, subscription(ctx, state).await?)
                else {
                    return Ok(vec![DownloadEvent::DownloadFailed { reason: TOKEN_LOST.into() }]);
                };
                match client.desktop_url(&token, &subscription, &state.browser, os.as_str()).await {
                    Ok(url) => match download_manager_url(&url, &ctx.upstreams.urls.download_manager) {
                        Some(url) => {
                            ctx.keep_secret(INSTALLER_URL, &SecretString::from(url), INSTALLER_URL_TTL);
                            Ok(vec![DownloadEvent::DownloadGranted {}])
                        }
                        None => Ok(vec![DownloadEvent::DownloadFailed { reason: "UNEXPECTED_INSTALLER_HOST".into() }]),
                    },
                    Err(error) if error.code() == Some("NO_FREE_LICENSE") => Ok(vec![DownloadEvent::LicencesFull {}]),
                    Err(error) if error.code() == Some("SDK_NOT_ALLOWED_FOR_SUBSCRIPTION") => {
                        Ok(vec![DownloadEvent::PlanWithoutAntivirus {}])
                    }
                    Err(error) => refused(error, |reason| DownloadEvent::DownloadFailed { reason }),
                }
            }
            Pending::ListDevices => {
                let (Some(token), Some(subscription)) =
                    (ctx.secret(USER_TOKEN).await?, subscription(ctx, state).await?)
                else {
                    return Ok(vec![DownloadEvent::DevicesFailed { reason: TOKEN_LOST.into() }]);
                };
                match client.devices(&token, &subscription).await {
                    Ok(upstream) => {
                        let (devices, ids) = devices_for_events(upstream);
                        keep_map(ctx, DEVICES, &ids).await?;
                        Ok(vec![DownloadEvent::DevicesListed { devices }])
                    }
                    Err(error) => refused(error, |reason| DownloadEvent::DevicesFailed { reason }),
                }
            }
            Pending::RemoveDevice(reference) => {
                let device_id = reference.clone();
                let token = ctx.secret(USER_TOKEN).await?;
                let subscription = subscription(ctx, state).await?;
                let upstream_id = lookup(ctx, DEVICES, reference).await?;
                let (Some(token), Some(subscription), Some(upstream_id)) = (token, subscription, upstream_id) else {
                    return Ok(vec![DownloadEvent::DeviceRemovalFailed { device_id, reason: TOKEN_LOST.into() }]);
                };
                match client.remove_device(&token, &subscription, &upstream_id, key).await {
                    Ok(()) => Ok(vec![DownloadEvent::DeviceRemoved { device_id }]),
                    Err(error) => refused(error, |reason| DownloadEvent::DeviceRemovalFailed { device_id, reason }),
                }
            }
        }
    }
}

/// The partners as events carry them, and the partner → subscription map kept as a secret.
fn partners_for_events(upstream: Vec<UpstreamPartner>) -> (Vec<Partner>, BTreeMap<String, String>) {
    let mut subscriptions = BTreeMap::new();
    let partners = upstream
        .into_iter()
        .map(|p| {
            let subscription = p.priority_subscription_id.filter(|s| !s.trim().is_empty());
            let has_subscription = subscription.is_some();
            if let Some(subscription) = subscription {
                subscriptions.insert(p.id.clone(), subscription);
            }
            Partner { id: p.id, name: p.name, logotype: p.logotype.unwrap_or_default(), has_subscription }
        })
        .collect();
    (partners, subscriptions)
}

/// The devices as events carry them (with `device-N` references), and reference → upstream id.
fn devices_for_events(upstream: Vec<UpstreamDevice>) -> (Vec<Device>, BTreeMap<String, String>) {
    let mut ids = BTreeMap::new();
    let devices = upstream
        .into_iter()
        .enumerate()
        .map(|(index, d)| {
            let reference = format!("device-{}", index + 1);
            ids.insert(reference.clone(), d.id);
            Device {
                id: reference,
                device_name: PiiField::clear(PiiKind::DeviceName, &d.device_name),
                os_type: d.os_type,
                os_version: d.os_version,
                country: d.country,
                first_login: d.first_login.map(|s| s.seconds),
                last_login: d.last_login.map(|s| s.seconds),
            }
        })
        .collect();
    (devices, ids)
}

async fn keep_map(ctx: &StepContext, name: &str, map: &BTreeMap<String, String>) -> Result<(), StepError> {
    let json = serde_json::to_string(map).map_err(|e| StepError::Transient(format!("encoding {name}: {e}")))?;
    ctx.keep_secret(name, &SecretString::from(json), USER_TOKEN_TTL);
    Ok(())
}

async fn lookup(ctx: &StepContext, name: &str, key: &str) -> Result<Option<String>, StepError> {
    let Some(json) = ctx.secret(name).await? else { return Ok(None) };
    let map: BTreeMap<String, String> = serde_json::from_str(json.expose_secret()).unwrap_or_default();
    Ok(map.get(key).cloned())
}

/// The chosen partner's priority subscription.
async fn subscription(ctx: &StepContext, state: &DownloadState) -> Result<Option<String>, StepError> {
    let partner = state.partner_id.as_deref().ok_or_else(|| missing("partner"))?;
    lookup(ctx, SUBSCRIPTIONS, partner).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_digits_become_the_plus_55_msisdn() {
        assert_eq!(desktop_msisdn("5511910000001").as_deref(), Some("+5511910000001"));
        assert_eq!(desktop_msisdn("+5511910000001").as_deref(), Some("+5511910000001"));
        assert_eq!(desktop_msisdn("11910000001").as_deref(), Some("+5511910000001"));
        assert_eq!(desktop_msisdn("4411910000001"), None);
        assert_eq!(desktop_msisdn("123"), None);
    }

    #[test]
    fn upstream_ids_stay_out_of_the_event_lists() {
        let (partners, subscriptions) = partners_for_events(vec![
            UpstreamPartner {
                id: "op".into(),
                name: "Op".into(),
                logotype: None,
                priority_subscription_id: Some("sub-5511910000001".into()),
            },
            UpstreamPartner {
                id: "sem".into(),
                name: "Sem".into(),
                logotype: Some("x.svg".into()),
                priority_subscription_id: Some(" ".into()),
            },
        ]);
        assert_eq!(partners.iter().map(|p| p.has_subscription).collect::<Vec<_>>(), [true, false]);
        assert_eq!(partners[0].logotype, "");
        assert_eq!(subscriptions.get("op").map(String::as_str), Some("sub-5511910000001"));
        assert!(!serde_json::to_string(&partners).unwrap().contains("5511910000001"));

        let (devices, ids) = devices_for_events(vec![UpstreamDevice {
            id: "dev-11910000003-1".into(),
            device_name: "Notebook".into(),
            first_login: Some(super::super::client::Seconds { seconds: 10 }),
            last_login: None,
            os_type: "windows".into(),
            os_version: "11".into(),
            country: "BR".into(),
        }]);
        assert_eq!(devices[0].id, "device-1");
        assert_eq!(devices[0].first_login, Some(10));
        assert_eq!(devices[0].device_name.kind(), Some(PiiKind::DeviceName), "sealed on append");
        assert_eq!(ids.get("device-1").map(String::as_str), Some("dev-11910000003-1"));
    }

    #[test]
    fn only_download_manager_urls_are_kept() {
        let base = "http://127.0.0.1:8090/download-manager";
        let kept = |url: &str| download_manager_url(url, base);
        assert_eq!(
            kept("http://127.0.0.1:8090/download-manager/files/t/antivirus-installer.exe").as_deref(),
            Some("http://127.0.0.1:8090/download-manager/files/t/antivirus-installer.exe")
        );
        assert_eq!(
            kept("http://127.0.0.1:8090/download-manager/a/../files/x").as_deref(),
            Some("http://127.0.0.1:8090/download-manager/files/x")
        );
        for refused in [
            "http://127.0.0.1:8090/download-manager-evil/x",
            "http://evil.test/download-manager/files/x",
            // Issue 16, item 7: these passed the old prefix check.
            "http://127.0.0.1:8090/download-manager/../x",
            "http://127.0.0.1:8090/download-manager/%2e%2e/admin/reset",
            "http://127.0.0.1:8090/download-manager/..",
            "http://user:pw@127.0.0.1:8090/download-manager/files/x",
            "http://127.0.0.1:8091/download-manager/files/x",
            "https://127.0.0.1:8090/download-manager/files/x",
            "http://127.0.0.1:8090/download-manager/",
            "not a url",
        ] {
            assert_eq!(kept(refused), None, "{refused}");
        }
    }
}
