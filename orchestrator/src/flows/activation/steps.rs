//! The activation's runner steps: each due step is one call of [`ActivationClient`], its
//! [`Reply`] one event. Tokens go to the attempt's secrets, never into an event.

use std::time::Duration;

use super::client::{ActivationClient, HashSubscription, PartnerSession, Reply};
use super::partner_login::{self, Authorization};
use crate::config::PartnerConfig;
use crate::runner::{FlowSteps, StepContext, StepError};
use async_trait::async_trait;
use events::flow::{PiiField, PlannedStep};
use events::flows::activation::{
    ActivationEvent as Event, ActivationFlow, ActivationState as State, ActivationStep as Step, Brand, CodeRefusal,
    Products, Refused, StepFailed, Variant,
};
use events::pii::PiiKind;
use secrecy::{ExposeSecret, SecretString};

/// Names of the attempt's secrets (`<flow>.<name>`, as in every flow).
pub mod secret {
    /// The broadband partner's OAuth access token, until the customer is read.
    pub const PARTNER_ACCESS_TOKEN: &str = "activation.partner_access_token";
    pub const HERO_TOKEN: &str = "activation.hero_token";
    pub const ACCESS_TOKEN: &str = "activation.access_token";
    pub const FS_AUTH_TOKEN: &str = "activation.fs_auth_token";
    pub const TRANSACTION_ID: &str = "activation.transaction_id";
    pub const FS_CUSTOM_TOKEN: &str = "activation.fs_custom_token";
    pub const CUSTOM_TOKEN: &str = "activation.custom_token";
    pub const ID_TOKEN: &str = "activation.id_token";
    /// The partner's customer id, sealed (`StepContext::put_sealed`).
    pub const CUSTOMER_ID: &str = "activation.customer_id";
}

const MINUTES_15: Duration = Duration::from_secs(15 * 60);
const HOUR: Duration = Duration::from_secs(3600);

/// The activation's step executor.
pub struct ActivationSteps {
    partners: PartnerConfig,
}

impl ActivationSteps {
    pub fn new(partners: PartnerConfig) -> Self {
        Self { partners }
    }
}

#[async_trait]
impl FlowSteps for ActivationSteps {
    type F = ActivationFlow;

    // Subscribed or the product list: nothing later needs a token.
    const FORGETS_SECRETS_WHEN_COMPLETED: bool = true;

    async fn run(
        &self,
        ctx: &StepContext,
        state: &State,
        step: &PlannedStep,
        key: &str,
    ) -> Result<Vec<Event>, StepError> {
        let Some(which) = Step::from_name(&step.name) else {
            return Err(StepError::Transient(format!("unknown activation step {}", step.name)));
        };
        tracing::info!(stream = %ctx.stream, correlation = %ctx.correlation_id, step = which.name(), "activation step");
        let client = ActivationClient::new(&ctx.http, &ctx.upstreams, brand(state), &ctx.calls);
        let run = Run { ctx, state, client, key };
        let event = match which {
            Step::PreparePartnerLogin => run.prepare_partner_login().await?,
            Step::LookUpCustomer => run.look_up_customer().await?,
            Step::PartnerLogin => run.partner_login().await?,
            Step::FetchAccount => run.fetch_account().await?,
            Step::CarrierToken => run.carrier_token().await?,
            Step::AuthorizeDocument => run.authorize_document().await?,
            Step::SendCode => run.send_code().await?,
            Step::ValidateCode => run.validate_code().await?,
            Step::Authorize => run.authorize().await?,
            Step::VerifyToken => run.verify_token().await?,
            Step::FetchPacks => run.fetch_packs().await?,
            Step::SubscribeSerial => run.subscribe_serial().await?,
            Step::SubscribeByHash => run.subscribe_by_hash(&self.partners).await?,
        };
        Ok(vec![event])
    }
}

/// One step of one attempt.
struct Run<'a> {
    ctx: &'a StepContext,
    state: &'a State,
    client: ActivationClient<'a>,
    /// The step's idempotency key, the same on every retry.
    key: &'a str,
}

impl Run<'_> {
    /// The partner OAuth authorization URL, with a random state and PKCE verifier kept
    /// server-side for this attempt (`partner_login`).
    async fn prepare_partner_login(&self) -> Result<Event, StepError> {
        let Some(return_url) = self.state.return_url.as_deref() else {
            return Ok(failed(Step::PreparePartnerLogin, None));
        };
        let authorization = Authorization::random();
        let stream = self.ctx.stream.to_string();
        partner_login::remember(
            self.ctx.secrets.pool(),
            self.ctx.secrets.sealer(),
            &stream,
            &authorization,
            return_url,
        )
        .await
        .map_err(|e| StepError::Transient(e.to_string()))?;
        // The portal reads `?code=&state=` on its way back (docs/activation-flow.md).
        let authorize =
            self.client.partner_authorize_url(return_url, &authorization.state, &authorization.challenge())?;
        Ok(Event::PartnerLoginPrepared { authorize_url: authorize.to_string() })
    }

    /// The broadband customer behind the partner's return: the state checked, the code
    /// exchanged server-side with the PKCE verifier, the customer read with the token (which
    /// is not kept). A forged or replayed return, and any refusal, is the spec's look-up
    /// failure.
    async fn look_up_customer(&self) -> Result<Event, StepError> {
        // A try that found the customer and never reported (a killed process, a lost claim)
        // kept its id and spent the code: the retry ends where that try did.
        if self.ctx.get_sealed(secret::CUSTOMER_ID).await?.is_some() {
            return Ok(Event::CustomerFound {});
        }
        let Some(field) = self.state.partner_code.as_ref() else {
            return Ok(failed(Step::LookUpCustomer, None));
        };
        let code = self.ctx.reveal(field).await?;
        let state = match self.state.partner_state.as_ref() {
            Some(field) => Some(self.ctx.reveal(field).await?),
            None => None,
        };
        let stream = self.ctx.stream.to_string();
        let accepted =
            partner_login::consume(self.ctx.secrets.pool(), self.ctx.secrets.sealer(), state.as_deref(), &stream)
                .await
                .map_err(|e| StepError::Transient(e.to_string()))?;
        let accepted = match accepted {
            Ok(accepted) => accepted,
            Err(refusal) => {
                tracing::warn!(stream = %self.ctx.stream, reason = refusal.as_str(), "partner OAuth return refused");
                return Ok(Event::CustomerNotFound(Refused { status: None }));
            }
        };
        // A code exchanges once: a retry of this step uses the token it already got.
        let token = match self.get(secret::PARTNER_ACCESS_TOKEN).await? {
            Some(token) => token,
            None => match self.client.exchange_partner_code(&code, &accepted.redirect_uri, &accepted.verifier).await? {
                Reply::Done(token) => {
                    // Stored at once, not with the outcome: a failed try's retry needs it.
                    let kept = SecretString::from(token.clone());
                    self.ctx.keep_secret_now(secret::PARTNER_ACCESS_TOKEN, &kept, MINUTES_15).await?;
                    token
                }
                Reply::Refused(status) | Reply::Malformed(status) => {
                    return Ok(Event::CustomerNotFound(refused(status)))
                }
            },
        };
        Ok(match self.client.partner_customer(&token).await? {
            Reply::Done(customer_id) => {
                // The code, state and token are spent: only the customer id is kept, and kept
                // before the rest goes, so that a retry finds it.
                self.ctx.put_sealed(secret::CUSTOMER_ID, PiiKind::PartnerCustomer, &customer_id, HOUR).await?;
                self.ctx.forget_secrets_except(&[secret::CUSTOMER_ID]).await?;
                Event::CustomerFound {}
            }
            Reply::Refused(status) | Reply::Malformed(status) => Event::CustomerNotFound(refused(status)),
        })
    }

    /// The telecom partner's log-in with the e-mail; the token stays server-side.
    async fn partner_login(&self) -> Result<Event, StepError> {
        let email = self.open(self.state.email.as_ref(), "e-mail").await?;
        Ok(match self.client.partner_login(&email, self.key).await? {
            Reply::Done(PartnerSession { token, customer_id }) => {
                self.put(secret::HERO_TOKEN, &token, HOUR);
                self.ctx.put_sealed(secret::CUSTOMER_ID, PiiKind::PartnerCustomer, &customer_id, HOUR).await?;
                Event::PartnerLoggedIn {}
            }
            Reply::Refused(status) => Event::PartnerLoginRefused(refused(status)),
            Reply::Malformed(status) => failed(Step::PartnerLogin, Some(status)),
        })
    }

    /// The plan id the subscription uses as its hash.
    async fn fetch_account(&self) -> Result<Event, StepError> {
        let Some(token) = self.get(secret::HERO_TOKEN).await? else {
            return Ok(failed(Step::FetchAccount, None));
        };
        Ok(match self.client.partner_plan(&token).await? {
            Reply::Done(plan_id) => Event::PartnerPlanFound { plan_id },
            Reply::Refused(status) | Reply::Malformed(status) => failed(Step::FetchAccount, Some(status)),
        })
    }

    /// The carrier's client-credentials token; it stays server-side.
    async fn carrier_token(&self) -> Result<Event, StepError> {
        Ok(match self.client.sso_token(self.key).await? {
            Reply::Done(access) => {
                let seconds = access.expires_in.unwrap_or(3600).clamp(60, 86_400);
                self.put(secret::ACCESS_TOKEN, &access.token, Duration::from_secs(seconds));
                Event::CarrierTokenObtained {}
            }
            Reply::Refused(status) | Reply::Malformed(status) => failed(Step::CarrierToken, Some(status)),
        })
    }

    /// The CPF/CNPJ's token; a refusal is the spec's authorize error.
    async fn authorize_document(&self) -> Result<Event, StepError> {
        let Some(kind) = self.state.document_kind else {
            return Ok(failed(Step::AuthorizeDocument, None));
        };
        let Some(access) = self.get(secret::ACCESS_TOKEN).await? else {
            return Ok(failed(Step::AuthorizeDocument, None));
        };
        let document = self.open(self.state.document.as_ref(), "CPF/CNPJ").await?;
        Ok(match self.client.authorize_document(&access, kind, &document, self.key).await? {
            Reply::Done(token) => {
                self.put(secret::FS_AUTH_TOKEN, &token, MINUTES_15);
                Event::DocumentAuthorized { kind }
            }
            // Our access token was refused: not the visitor's document.
            Reply::Refused(401) => failed(Step::AuthorizeDocument, Some(401)),
            Reply::Refused(status) => Event::DocumentRefused(refused(status)),
            Reply::Malformed(status) => failed(Step::AuthorizeDocument, Some(status)),
        })
    }

    /// Sends the code; the transaction id stays server-side.
    async fn send_code(&self) -> Result<Event, StepError> {
        let msisdn = self.open(self.state.phone.as_ref(), "phone").await?;
        Ok(match self.client.send_code(&msisdn, self.key).await? {
            Reply::Done(transaction) => {
                self.put(secret::TRANSACTION_ID, &transaction, MINUTES_15);
                Event::CodeSent { resend: self.state.resending }
            }
            Reply::Refused(status) | Reply::Malformed(status) => Event::CodeSendFailed(refused(status)),
        })
    }

    /// Validates the typed code; the `fs-custom-token` stays server-side.
    async fn validate_code(&self) -> Result<Event, StepError> {
        let Some(field) = self.state.pincode.as_ref() else {
            return Ok(failed(Step::ValidateCode, None));
        };
        let pincode = self.ctx.reveal(field).await?;
        // The transaction lived 15 minutes, like its code: past that the code is expired.
        let Some(transaction) = self.get(secret::TRANSACTION_ID).await? else {
            return Ok(Event::CodeRejected { reason: CodeRefusal::Expired, status: None });
        };
        Ok(match self.client.validate_code(&transaction, &pincode, self.key).await? {
            Reply::Done(token) => {
                self.put(secret::FS_CUSTOM_TOKEN, &token, MINUTES_15);
                Event::CodeValidated {}
            }
            Reply::Refused(status) => Event::CodeRejected { reason: refusal_for(status), status: Some(status) },
            Reply::Malformed(status) => failed(Step::ValidateCode, Some(status)),
        })
    }

    /// Authorizes with the CPF/CNPJ's token and the validated phone's (merge) token.
    async fn authorize(&self) -> Result<Event, StepError> {
        let merge = self.get(secret::FS_CUSTOM_TOKEN).await?;
        let auth = self.get(secret::FS_AUTH_TOKEN).await?;
        let (Some(merge), Some(auth)) = (merge, auth) else {
            return Ok(failed(Step::Authorize, None));
        };
        Ok(match self.client.authorize(&auth, &merge, self.key).await? {
            Reply::Done(token) => {
                self.put(secret::CUSTOM_TOKEN, &token, HOUR);
                Event::AuthorizationGranted {}
            }
            Reply::Refused(status) => Event::AuthorizationRefused(refused(status)),
            Reply::Malformed(status) => failed(Step::Authorize, Some(status)),
        })
    }

    /// The identity provider's id token for the custom token.
    async fn verify_token(&self) -> Result<Event, StepError> {
        let Some(custom) = self.get(secret::CUSTOM_TOKEN).await? else {
            return Ok(failed(Step::VerifyToken, None));
        };
        Ok(match self.client.verify_custom_token(&custom, self.key).await? {
            Reply::Done(id_token) => {
                self.put(secret::ID_TOKEN, &id_token, HOUR);
                Event::IdentityVerified {}
            }
            Reply::Refused(status) | Reply::Malformed(status) => failed(Step::VerifyToken, Some(status)),
        })
    }

    /// The products the plan grants.
    async fn fetch_packs(&self) -> Result<Event, StepError> {
        let Some(id_token) = self.get(secret::ID_TOKEN).await? else {
            return Ok(failed(Step::FetchPacks, None));
        };
        Ok(match self.client.packs(&id_token).await? {
            Reply::Done(items) => {
                let products = Products::from_item_names(items.iter().map(String::as_str));
                Event::PacksFetched { items, products }
            }
            Reply::Refused(status) | Reply::Malformed(status) => failed(Step::FetchPacks, Some(status)),
        })
    }

    /// Subscribes the licence; 404 is the spec's "serial not found".
    async fn subscribe_serial(&self) -> Result<Event, StepError> {
        let Some(sealed) = self.state.serial.as_ref() else {
            return Ok(failed(Step::SubscribeSerial, None));
        };
        let serial = self.ctx.open(sealed).await?;
        let msisdn = self.open(self.state.phone.as_ref(), "phone").await?;
        Ok(match self.client.subscribe_serial(&serial, &msisdn, self.key).await? {
            Reply::Done(()) => Event::Subscribed {},
            Reply::Refused(404) => Event::SerialNotFound(refused(404)),
            Reply::Refused(status) | Reply::Malformed(status) => failed(Step::SubscribeSerial, Some(status)),
        })
    }

    /// The broadband partner's fixed plan hash and customer id, or the telecom partner's plan
    /// id, customer id and e-mail.
    async fn subscribe_by_hash(&self, partners: &PartnerConfig) -> Result<Event, StepError> {
        let stored = if self.state.customer_known { self.ctx.get_sealed(secret::CUSTOMER_ID).await? } else { None };
        let Some(customer_id) = stored.as_deref() else {
            return Ok(failed(Step::SubscribeByHash, None));
        };
        let msisdn = self.open(self.state.phone.as_ref(), "phone").await?;
        let email;
        let subscription = match self.state.variant {
            Some(Variant::Telecom) => {
                let Some(plan_id) = self.state.plan_id.as_deref() else {
                    return Ok(failed(Step::SubscribeByHash, None));
                };
                email = self.open(self.state.email.as_ref(), "e-mail").await?;
                HashSubscription {
                    partner: &partners.telecom_partner,
                    msisdn: &msisdn,
                    hash: plan_id,
                    subscription_id: customer_id,
                    email: Some(&email),
                }
            }
            _ => HashSubscription {
                partner: &partners.broadband_partner,
                msisdn: &msisdn,
                hash: &partners.broadband_plan_hash,
                subscription_id: customer_id,
                email: None,
            },
        };
        Ok(match self.client.subscribe_by_hash(&subscription, self.key).await? {
            Reply::Done(()) => Event::Subscribed {},
            Reply::Refused(status) | Reply::Malformed(status) => failed(Step::SubscribeByHash, Some(status)),
        })
    }

    /// The clear text of a personal-data field the state must hold at this step.
    async fn open(&self, field: Option<&PiiField>, what: &str) -> Result<String, StepError> {
        let field = field.ok_or_else(|| StepError::Transient(format!("{what} missing from the attempt")))?;
        self.ctx.open(field).await
    }

    /// The activation client takes its tokens as text: [`StepContext::keep_secret`] for it.
    fn put(&self, name: &str, value: &str, ttl: Duration) {
        self.ctx.keep_secret(name, &SecretString::from(value), ttl);
    }

    async fn get(&self, name: &str) -> Result<Option<String>, StepError> {
        Ok(self.ctx.secret(name).await?.map(|token| token.expose_secret().to_string()))
    }
}

fn brand(state: &State) -> Brand {
    state.variant.map(|v| v.brand()).unwrap_or(Brand::Default)
}

fn refused(status: u16) -> Refused {
    Refused { status: Some(status) }
}

/// The step's outcome when the upstream answered something the flow has no branch for.
fn failed(step: Step, status: Option<u16>) -> Event {
    Event::StepFailed(StepFailed { step: step.name().to_string(), status })
}

/// Spec section 8: 403 invalid or expired, 406 too many attempts, anything else wrong.
pub fn refusal_for(status: u16) -> CodeRefusal {
    match status {
        403 => CodeRefusal::Expired,
        406 => CodeRefusal::Locked,
        _ => CodeRefusal::Wrong,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_statuses_map_to_the_spec_reasons() {
        assert_eq!(refusal_for(403), CodeRefusal::Expired);
        assert_eq!(refusal_for(406), CodeRefusal::Locked);
        assert_eq!(refusal_for(404), CodeRefusal::Wrong);
        assert_eq!(refusal_for(400), CodeRefusal::Wrong);
        assert_eq!(refusal_for(500), CodeRefusal::Wrong);
    }
}
