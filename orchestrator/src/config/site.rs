//! What the site shows about the deployment, and who the company is.

use clap::Args;

/// What the site shows about the deployment. `Default` is production's: no sandbox.
#[derive(Debug, Clone, Default, Args)]
pub struct SiteSettings {
    /// Whether the upstreams are the sandbox (the footer then links its SMS inbox). Off unless
    /// asked for: a deployment that forgets it runs with production's limits and keys.
    #[arg(long, env = "SANDBOX_MODE", default_value_t = false, action = clap::ArgAction::Set)]
    pub sandbox_mode: bool,

    /// Public URL of the chatbot page the site embeds. Unset: the sandbox's.
    #[arg(long, env = "CHATBOT_URL")]
    pub chatbot_url: Option<String>,

    /// Public URL of the chatbot's avatar. Unset: the sandbox's.
    #[arg(long, env = "CHATBOT_AVATAR_URL")]
    pub chatbot_avatar_url: Option<String>,

    #[command(flatten)]
    pub company: CompanySettings,
    /// The portal's own origin (`https://portal.example`; several separated by commas): the
    /// only place the broadband partner's OAuth may send the visitor back to. Unset: in sandbox
    /// mode the bind address and the loopback forms, otherwise none.
    #[arg(long, env = "PUBLIC_ORIGIN")]
    pub public_origin: Option<String>,
}

/// Placeholders of the demonstration; an operator sets the company's real facts.
const PLACEHOLDER_LEGAL_NAME: &str = "EXA Tecnologia e Segurança Digital S.A.";
const PLACEHOLDER_CNPJ: &str = "00.000.000/0001-00";
const PLACEHOLDER_ADDRESS: &str = "Rua Fidêncio Ramos, 308 – 12º andar; Vila Olímpia, São Paulo – SP; CEP 04551-010";
const PLACEHOLDER_CONTACT_EMAIL: &str = "contato@exa.com.br";
const PLACEHOLDER_PRESS_EMAIL: &str = "imprensa@exa.com.br";

/// Who the company is, as the site shows it (footer, contact page, terms). The defaults are
/// neutral placeholders for development; production sets every one.
#[derive(Debug, Clone, Args)]
pub struct CompanySettings {
    /// Legal name shown in the footer, the contact page and the terms.
    #[arg(long, env = "COMPANY_LEGAL_NAME", default_value = PLACEHOLDER_LEGAL_NAME)]
    pub company_legal_name: String,

    /// CNPJ, formatted (NN.NNN.NNN/NNNN-NN).
    #[arg(long, env = "COMPANY_CNPJ", default_value = PLACEHOLDER_CNPJ)]
    pub company_cnpj: String,

    /// Postal address; `;` separates its lines.
    #[arg(long, env = "COMPANY_ADDRESS", default_value = PLACEHOLDER_ADDRESS)]
    pub company_address: String,

    /// General contact e-mail.
    #[arg(long, env = "COMPANY_CONTACT_EMAIL", default_value = PLACEHOLDER_CONTACT_EMAIL)]
    pub company_contact_email: String,

    /// Press e-mail.
    #[arg(long, env = "COMPANY_PRESS_EMAIL", default_value = PLACEHOLDER_PRESS_EMAIL)]
    pub company_press_email: String,

    /// Support phone line as visitors dial it. Unset: the site shows no phone.
    #[arg(long, env = "SUPPORT_PHONE")]
    pub support_phone: Option<String>,

    /// Support WhatsApp number as visitors read it. Unset: the site shows no WhatsApp.
    #[arg(long, env = "SUPPORT_WHATSAPP")]
    pub support_whatsapp: Option<String>,

    /// Image URL of the ethical-company seal issued by its certifier. Unset: our neutral slot.
    #[arg(long, env = "ETHICS_SEAL_URL")]
    pub ethics_seal_url: Option<String>,
}

impl Default for CompanySettings {
    fn default() -> Self {
        Self {
            company_legal_name: PLACEHOLDER_LEGAL_NAME.into(),
            company_cnpj: PLACEHOLDER_CNPJ.into(),
            company_address: PLACEHOLDER_ADDRESS.into(),
            company_contact_email: PLACEHOLDER_CONTACT_EMAIL.into(),
            company_press_email: PLACEHOLDER_PRESS_EMAIL.into(),
            support_phone: None,
            support_whatsapp: None,
            ethics_seal_url: None,
        }
    }
}
