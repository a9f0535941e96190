//! Tokens the sandbox issued, by kind, with their claims and expiry. Issuing one (a fresh random
//! token) is `World::issue_token` in [`crate::tokens`].

use std::collections::HashMap;

use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};

use crate::error::{Refusal, Style};
use crate::headers::Brand;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// Phone-auth id token of the desktop flow (document database bearer, `X-User-Token`).
    PhoneUser,
    /// `fs-custom-token` of `/authentication/v1/validate`.
    FsCustom,
    /// `fs-auth-token` of `/authorization/api/v1/authorize/cpf|cnpj`.
    FsAuth,
    /// `authorization.custom_token` of `/authorization/api/v1/authorize`.
    Custom,
    /// Identity provider's `idToken` (packs bearer).
    Id,
    /// SSO `accessToken` of `/auth/v1/token`.
    Access,
    /// Telecom partner's login token.
    Hero,
    /// OAuth provider's access token.
    OAuthAccess,
    /// Cloud functions: `fs_custom_token`, `custom_token`, `id_token`.
    CloudFsCustom,
    CloudCustom,
    CloudId,
    /// Download manager link.
    Download,
}

impl TokenKind {
    /// What every token of this kind starts with.
    pub fn prefix(self) -> &'static str {
        match self {
            Self::PhoneUser => "sbx-user-",
            Self::FsCustom => "sbx-fscustom-",
            Self::FsAuth => "sbx-fsauth-",
            Self::Custom => "sbx-custom-",
            Self::Id => "sbx-id-",
            Self::Access => "sbx-access-",
            Self::Hero => "sbx-hero-",
            Self::OAuthAccess => "sbx-oauth-",
            Self::CloudFsCustom => "sbx-cloud-fscustom-",
            Self::CloudCustom => "sbx-cloud-custom-",
            Self::CloudId => "sbx-cloud-id-",
            Self::Download => "dl",
        }
    }

    /// Lifetimes of the real services' tokens (one hour), shorter for the code-derived ones.
    pub fn ttl(self) -> Duration {
        match self {
            Self::FsCustom | Self::FsAuth | Self::CloudFsCustom => Duration::minutes(15),
            _ => Duration::hours(1),
        }
    }
}

/// What a token stands for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Claims {
    /// `55DDNNNNNNNNN` of the verified phone, when there is one.
    pub msisdn: Option<String>,
    pub brand: Option<Brand>,
    /// Kind-specific subject: a CPF/CNPJ, a customer id, an OS.
    pub subject: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenError {
    /// Never issued, or issued for another upstream.
    Unknown,
    Expired,
}

impl TokenError {
    /// 401 `INVALID_TOKEN` or `TOKEN_EXPIRED` in the upstream's style.
    pub fn refusal(self, style: Style) -> Refusal {
        match self {
            Self::Unknown => {
                Refusal::new(style, StatusCode::UNAUTHORIZED, "INVALID_TOKEN", "token not issued by this service")
            }
            Self::Expired => Refusal::new(style, StatusCode::UNAUTHORIZED, "TOKEN_EXPIRED", "token expired"),
        }
    }
}

#[derive(Debug)]
struct Issued {
    kind: TokenKind,
    claims: Claims,
    expires_at: DateTime<Utc>,
}

#[derive(Debug, Default)]
pub struct TokenBook(HashMap<String, Issued>);

impl TokenBook {
    /// Records `token` of `kind`, issued at `now` for `claims`.
    pub fn insert(&mut self, token: String, kind: TokenKind, claims: Claims, now: DateTime<Utc>) {
        self.0.insert(token, Issued { kind, claims, expires_at: now + kind.ttl() });
    }

    /// The claims of `token` if it is one of `accepted` and still valid.
    pub fn check(&self, token: &str, accepted: &[TokenKind], now: DateTime<Utc>) -> Result<Claims, TokenError> {
        let issued = self.0.get(token).filter(|issued| accepted.contains(&issued.kind));
        match issued {
            None => Err(TokenError::Unknown),
            Some(issued) if now >= issued.expires_at => Err(TokenError::Expired),
            Some(issued) => Ok(issued.claims.clone()),
        }
    }
}
