//! The funnels of the three flows as code: for each flow and variant, its ordered steps (each
//! reached when one of its event types is recorded) and the event types that end an attempt
//! as a refusal. The message the visitor read with a refusal is not repeated here: it is the
//! flow's own outcome (`Flow::outcome`) after folding the attempt.

use std::fmt;

/// One step of a funnel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FunnelStep {
    pub key: &'static str,
    /// What the analyst reads (pt-BR).
    pub label: &'static str,
    /// Reached when any of these is recorded.
    pub events: &'static [&'static str],
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Funnel {
    pub flow: &'static str,
    /// `None`: every variant of the flow (only the common steps).
    pub variant: Option<&'static str>,
    pub steps: Vec<FunnelStep>,
    /// Event types that end an attempt refused.
    pub refusals: &'static [&'static str],
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FunnelError {
    UnknownFlow(String),
    UnknownVariant { flow: String, variant: String },
}

impl fmt::Display for FunnelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownFlow(flow) => write!(f, "fluxo desconhecido: {flow} (use activation, download ou cloud)"),
            Self::UnknownVariant { flow, variant } => write!(f, "variante desconhecida de {flow}: {variant}"),
        }
    }
}

impl std::error::Error for FunnelError {}

const fn step(key: &'static str, label: &'static str, events: &'static [&'static str]) -> FunnelStep {
    FunnelStep { key, label, events }
}

const STARTED: FunnelStep = step("started", "Abriu a página", &["attempt.started"]);
const CODE_SENT: FunnelStep = step("code_sent", "Código enviado", &["code.sent"]);
const CODE_VALIDATED: FunnelStep = step("code_validated", "Código validado", &["code.validated"]);
const SUBSCRIBED: FunnelStep = step("subscribed", "Assinatura ativada", &["subscription.created"]);
const STORE: FunnelStep = step("store", "Foi para a loja de apps", &["store.redirected"]);

const ACTIVATION_REFUSALS: &[&str] = &[
    "customer.not_found",
    "partner.login_refused",
    "document.refused",
    "code.send_failed",
    "code.rejected",
    "authorization.refused",
    "serial.not_found",
    "step.failed",
    "step.gave_up",
];

/// The variants of the activation flow.
pub const ACTIVATION_VARIANTS: [&str; 6] =
    ["standard", "insurance", "partner_portal", "broadband", "telecom", "carrier"];

/// The funnel of `flow` (and `variant`, for activation).
pub fn funnel(flow: &str, variant: Option<&str>) -> Result<Funnel, FunnelError> {
    match flow {
        "activation" => activation(variant),
        "download" | "cloud" => match variant {
            Some(v) => Err(FunnelError::UnknownVariant { flow: flow.into(), variant: v.into() }),
            None if flow == "download" => Ok(download()),
            None => Ok(cloud()),
        },
        other => Err(FunnelError::UnknownFlow(other.into())),
    }
}

fn activation(variant: Option<&str>) -> Result<Funnel, FunnelError> {
    let steps = match variant {
        None => vec![
            STARTED,
            step("submitted", "Enviou o formulário", &["phone.submitted", "email.submitted"]),
            CODE_SENT,
            CODE_VALIDATED,
        ],
        Some("standard" | "insurance" | "partner_portal") => vec![
            STARTED,
            step("phone_submitted", "Enviou celular e licença", &["phone.submitted"]),
            CODE_SENT,
            CODE_VALIDATED,
            SUBSCRIBED,
            STORE,
        ],
        Some("broadband") => vec![
            STARTED,
            step("customer_found", "Cliente encontrado no parceiro", &["customer.found"]),
            step("phone_submitted", "Enviou o celular", &["phone.submitted"]),
            CODE_SENT,
            CODE_VALIDATED,
            SUBSCRIBED,
            STORE,
        ],
        Some("telecom") => vec![
            STARTED,
            step("email_submitted", "Enviou celular e e-mail", &["email.submitted"]),
            step("partner_logged_in", "Login no parceiro", &["partner.logged_in"]),
            CODE_SENT,
            CODE_VALIDATED,
            SUBSCRIBED,
            STORE,
        ],
        Some("carrier") => vec![
            STARTED,
            step("phone_and_document", "Enviou celular e CPF/CNPJ", &["phone.submitted"]),
            CODE_SENT,
            CODE_VALIDATED,
            step("authorized", "Autorizado", &["authorization.granted"]),
            step("packs", "Produtos do plano", &["packs.fetched"]),
            step("product_chosen", "Escolheu na lista de produtos", &["product.chosen"]),
        ],
        Some(other) => return Err(FunnelError::UnknownVariant { flow: "activation".into(), variant: other.into() }),
    };
    let variant = variant.and_then(|v| ACTIVATION_VARIANTS.iter().copied().find(|known| *known == v));
    Ok(Funnel { flow: "activation", variant, steps, refusals: ACTIVATION_REFUSALS })
}

fn download() -> Funnel {
    Funnel {
        flow: "download",
        variant: None,
        steps: vec![
            step("started", "Abriu a página", &["download.started"]),
            step("phone_submitted", "Enviou o celular", &["phone.submitted"]),
            CODE_SENT,
            step("code_confirmed", "Código confirmado", &["code.confirmed"]),
            step("user_found", "Usuário encontrado", &["user.found"]),
            step("partners", "Planos de parceiros listados", &["partners.listed"]),
            step("download_granted", "Download liberado", &["download.granted"]),
            step("file_served", "Instalador baixado", &["installer.served"]),
        ],
        refusals: &[
            "code.send_failed",
            "code.rejected",
            "user.not_found",
            "user.lookup_failed",
            "partners.failed",
            "plan.without_antivirus",
            "licences.full",
            "download.failed",
            "step.gave_up",
        ],
    }
}

fn cloud() -> Funnel {
    Funnel {
        flow: "cloud",
        variant: None,
        steps: vec![
            step("details_submitted", "Enviou celular e número de série", &["details.submitted"]),
            step("phone_checked", "Celular verificado", &["phone.checked"]),
            CODE_SENT,
            CODE_VALIDATED,
            step("serial_registered", "Número de série registrado", &["serial.registered"]),
            step("activated", "EXA Cloud ativado", &["cloud.activated"]),
        ],
        refusals: &[
            "phone.refused",
            "code.send_failed",
            "code.rejected",
            "serial.rejected",
            "custom_token.failed",
            "sign_in.failed",
            "step.gave_up",
        ],
    }
}

impl Funnel {
    /// The index of the step `event_type` reaches, if any.
    pub fn step_of(&self, event_type: &str) -> Option<usize> {
        self.steps.iter().position(|s| s.events.contains(&event_type))
    }

    pub fn is_refusal(&self, event_type: &str) -> bool {
        self.refusals.contains(&event_type)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_carrier_funnel_follows_the_issue_order() {
        let funnel = funnel("activation", Some("carrier")).expect("known");
        let keys: Vec<&str> = funnel.steps.iter().map(|s| s.key).collect();
        assert_eq!(
            keys,
            ["started", "phone_and_document", "code_sent", "code_validated", "authorized", "packs", "product_chosen"]
        );
        assert_eq!(funnel.step_of("packs.fetched"), Some(5));
        assert!(funnel.is_refusal("document.refused"));
        assert_eq!(funnel.step_of("document.refused"), None);
    }

    #[test]
    fn unknown_flows_and_variants_are_refused_by_name() {
        assert_eq!(funnel("vpn", None), Err(FunnelError::UnknownFlow("vpn".into())));
        assert!(matches!(funnel("activation", Some("x")), Err(FunnelError::UnknownVariant { .. })));
        assert!(matches!(funnel("cloud", Some("carrier")), Err(FunnelError::UnknownVariant { .. })));
    }

    /// Whether `F` has an event of this type (a type it lacks fails with "unknown variant";
    /// one it has may still miss fields in this empty payload).
    fn records<F: crate::flow::Flow>(event: &str) -> bool {
        match serde_json::from_value::<F::Event>(serde_json::json!({ "type": event, "data": {} })) {
            Ok(_) => true,
            Err(error) => !error.to_string().contains("unknown variant"),
        }
    }

    #[test]
    fn every_step_and_refusal_is_an_event_its_flow_records() {
        use crate::flows::{activation::ActivationFlow, cloud::CloudFlow, download::DownloadFlow};
        assert!(!records::<CloudFlow>("no.such_event"), "the check can fail");
        let mut all = vec![
            funnel("download", None).expect("d"),
            funnel("cloud", None).expect("c"),
            funnel("activation", None).expect("a"),
        ];
        all.extend(ACTIVATION_VARIANTS.iter().map(|v| funnel("activation", Some(v)).expect("variant")));
        for f in all {
            for event in f.steps.iter().flat_map(|s| s.events.iter()).chain(f.refusals.iter()) {
                let known = match f.flow {
                    "activation" => records::<ActivationFlow>(event),
                    "download" => records::<DownloadFlow>(event),
                    _ => records::<CloudFlow>(event),
                };
                assert!(known, "{} does not record {event}", f.flow);
            }
        }
    }
}
