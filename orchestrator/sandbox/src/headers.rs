//! Request headers the upstreams require, and the checks the partner-API family makes on them.

use axum::http::{header, HeaderMap, StatusCode};
use uuid::Uuid;

use upstream_contract::credentials;

use super::error::{Refusal, Style};

pub use upstream_contract::headers::*;

/// The three brands of the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brand {
    Default,
    Agility,
    Tim,
}

impl Brand {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            credentials::BRAND_DEFAULT => Some(Self::Default),
            credentials::BRAND_AGILITY => Some(Self::Agility),
            credentials::BRAND_TIM => Some(Self::Tim),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Default => credentials::BRAND_DEFAULT,
            Self::Agility => credentials::BRAND_AGILITY,
            Self::Tim => credentials::BRAND_TIM,
        }
    }

    /// The identity-provider key whose project holds this brand's users.
    pub fn identity_key(self) -> &'static str {
        match self {
            Self::Tim => credentials::IDENTITY_KEY_TIM,
            Self::Default | Self::Agility => credentials::IDENTITY_KEY_DEFAULT,
        }
    }
}

/// A header's value, or 400 `MISSING_HEADER` naming it.
pub fn required<'h>(headers: &'h HeaderMap, name: &str, style: Style) -> Result<&'h str, Refusal> {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::trim)
        .filter(|value| !value.is_empty())
        .ok_or_else(|| Refusal::bad_request(style, "MISSING_HEADER", format!("header {name} is required")))
}

/// The token of `Authorization: Bearer <token>`, if any.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|token| !token.is_empty())
}

/// The bearer token, or 401 `MISSING_BEARER_TOKEN`.
pub fn required_bearer(headers: &HeaderMap, style: Style) -> Result<&str, Refusal> {
    bearer(headers).ok_or_else(|| {
        Refusal::new(
            style,
            StatusCode::UNAUTHORIZED,
            "MISSING_BEARER_TOKEN",
            "Authorization: Bearer <token> is required",
        )
    })
}

/// Correlation id, requester name and brand: what every partner-API, SSO and BFF call carries.
pub fn caller(headers: &HeaderMap) -> Result<Brand, Refusal> {
    let style = Style::Partner;
    let correlation = required(headers, CORRELATION_ID, style)?;
    if Uuid::parse_str(correlation).is_err() {
        return Err(Refusal::bad_request(style, "INVALID_CORRELATION_ID", "x-correlation-id must be a UUID"));
    }
    let requester = required(headers, REQUESTER_NAME, style)?;
    if requester != credentials::REQUESTER_NAME {
        return Err(Refusal::new(
            style,
            StatusCode::FORBIDDEN,
            "UNKNOWN_REQUESTER",
            format!("requester {requester:?} is not registered"),
        ));
    }
    let brand = required(headers, BRAND_NAME, style)?;
    Brand::parse(brand)
        .ok_or_else(|| Refusal::bad_request(style, "UNKNOWN_BRAND", format!("brand {brand:?} is not known")))
}

/// [`caller`] plus the client credentials headers.
pub fn client(headers: &HeaderMap) -> Result<Brand, Refusal> {
    let brand = caller(headers)?;
    let id = required(headers, CLIENT_ID, Style::Partner)?;
    let secret = required(headers, CLIENT_SECRET, Style::Partner)?;
    if id != credentials::CLIENT_ID || secret != credentials::CLIENT_SECRET {
        return Err(Refusal::new(
            Style::Partner,
            StatusCode::UNAUTHORIZED,
            "INVALID_CLIENT",
            "client credentials are not valid",
        ));
    }
    Ok(brand)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn partner_headers() -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            CORRELATION_ID,
            HeaderValue::from_str(&Uuid::new_v4().to_string()).expect("a UUID is a header value"),
        );
        headers.insert(REQUESTER_NAME, HeaderValue::from_static(credentials::REQUESTER_NAME));
        headers.insert(BRAND_NAME, HeaderValue::from_static("tim"));
        headers.insert(CLIENT_ID, HeaderValue::from_static(credentials::CLIENT_ID));
        headers.insert(CLIENT_SECRET, HeaderValue::from_static(credentials::CLIENT_SECRET));
        headers
    }

    #[test]
    fn client_accepts_the_documented_values() {
        assert_eq!(client(&partner_headers()).ok(), Some(Brand::Tim));
    }

    #[test]
    fn client_refuses_each_missing_or_wrong_header() {
        for (name, value, code) in [
            (CORRELATION_ID, "nao-e-uuid", "INVALID_CORRELATION_ID"),
            (REQUESTER_NAME, "outro", "UNKNOWN_REQUESTER"),
            (BRAND_NAME, "vivo", "UNKNOWN_BRAND"),
            (CLIENT_SECRET, "errado", "INVALID_CLIENT"),
        ] {
            let mut headers = partner_headers();
            headers.insert(name, HeaderValue::from_static(value));
            assert_eq!(client(&headers).unwrap_err().code, code, "{name}");
            headers.remove(name);
            assert_eq!(client(&headers).unwrap_err().code, "MISSING_HEADER", "{name}");
        }
    }

    #[test]
    fn bearer_reads_the_scheme_case_insensitively() {
        let mut headers = HeaderMap::new();
        assert_eq!(bearer(&headers), None);
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("bearer abc"));
        assert_eq!(bearer(&headers), Some("abc"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic abc"));
        assert_eq!(bearer(&headers), None);
    }

    #[test]
    fn the_carrier_brand_has_its_own_identity_key() {
        assert_eq!(Brand::Tim.identity_key(), credentials::IDENTITY_KEY_TIM);
        assert_eq!(Brand::Agility.identity_key(), credentials::IDENTITY_KEY_DEFAULT);
    }
}
