//! The extractors of staff routes: the session from the `exa_staff` cookie (401 without one),
//! CSRF on state-changing requests (`X-CSRF-Token` equal to the session's and an `Origin`
//! equal to the portal's own, else 403), and the role (403).

use axum::extract::FromRequestParts;
use axum::http::header::{HOST, ORIGIN};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method};
use uuid::Uuid;

use super::{accounts, sessions, Role};
use crate::http::error::ApiError;
use crate::state::AppState;

/// A signed-in staff member of any role.
#[derive(Debug, Clone)]
pub struct Staff {
    pub id: Uuid,
    pub role: Role,
    pub email: String,
    pub csrf_token: String,
    /// The cookie's token (sign-out ends it).
    pub token: String,
}

/// A staff member who may see personal data (support or admin).
#[derive(Debug, Clone)]
pub struct SupportStaff(pub Staff);

/// A staff member who may read funnels (analyst or admin).
#[derive(Debug, Clone)]
pub struct AnalystStaff(pub Staff);

/// An admin.
#[derive(Debug, Clone)]
pub struct AdminStaff(pub Staff);

impl FromRequestParts<AppState> for Staff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = sessions::token_from_headers(&parts.headers).ok_or(ApiError::Unauthorized)?;
        let session = sessions::load(&state.db, &token).await?.ok_or(ApiError::Unauthorized)?;
        if parts.method == Method::POST || parts.method == Method::DELETE {
            let token_ok = parts
                .headers
                .get("x-csrf-token")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|sent| constant_time_eq(sent.as_bytes(), session.csrf_token.as_bytes()));
            if !token_ok || !same_origin(&parts.headers) {
                return Err(ApiError::StaffForbidden);
            }
        }
        let email = accounts::email_of(&state.vault, &session.email_sealed).await;
        Ok(Staff { id: session.staff_id, role: session.role, email, csrf_token: session.csrf_token, token })
    }
}

impl FromRequestParts<AppState> for SupportStaff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let staff = Staff::from_request_parts(parts, state).await?;
        if !staff.role.may_support() {
            return Err(ApiError::StaffForbidden);
        }
        Ok(SupportStaff(staff))
    }
}

impl FromRequestParts<AppState> for AnalystStaff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let staff = Staff::from_request_parts(parts, state).await?;
        if !staff.role.may_analyse() {
            return Err(ApiError::StaffForbidden);
        }
        Ok(AnalystStaff(staff))
    }
}

impl FromRequestParts<AppState> for AdminStaff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let staff = Staff::from_request_parts(parts, state).await?;
        if staff.role != Role::Admin {
            return Err(ApiError::StaffForbidden);
        }
        Ok(AdminStaff(staff))
    }
}

/// Whether the request's `Origin` is the portal's own (`http(s)://<Host>`).
pub fn same_origin(headers: &HeaderMap) -> bool {
    let origin = headers.get(ORIGIN).and_then(|v| v.to_str().ok());
    let host = headers.get(HOST).and_then(|v| v.to_str().ok());
    match (origin, host) {
        (Some(origin), Some(host)) => origin == format!("https://{host}") || origin == format!("http://{host}"),
        _ => false,
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_origin_must_be_the_portal_itself() {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_static("portal.exa.com.br"));
        assert!(!same_origin(&headers));
        headers.insert(ORIGIN, HeaderValue::from_static("https://portal.exa.com.br"));
        assert!(same_origin(&headers));
        headers.insert(ORIGIN, HeaderValue::from_static("https://evil.example"));
        assert!(!same_origin(&headers));
    }
}
