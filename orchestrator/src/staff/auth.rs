//! Who a staff request comes from: the signed-in member and the role's wrappers, and the
//! checks the server's extractors make (`http/staff_auth.rs`): same origin, CSRF token.

use axum::http::header::{HOST, ORIGIN};
use axum::http::HeaderMap;
use uuid::Uuid;

use super::Role;

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

/// Whether the request's `Origin` is the portal's own (`http(s)://<Host>`).
pub fn same_origin(headers: &HeaderMap) -> bool {
    let origin = headers.get(ORIGIN).and_then(|v| v.to_str().ok());
    let host = headers.get(HOST).and_then(|v| v.to_str().ok());
    match (origin, host) {
        (Some(origin), Some(host)) => origin == format!("https://{host}") || origin == format!("http://{host}"),
        _ => false,
    }
}

pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
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
