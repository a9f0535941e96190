//! The extractors of staff routes: the session from the `__Host-exa_staff` cookie (401 without one),
//! CSRF on state-changing requests (`X-CSRF-Token` equal to the session's and an `Origin`
//! equal to the portal's own, else 403), and the role (403). The staff types are the staff
//! area's (`crate::staff::auth`); reading them from a request is the server's.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::Method;

use crate::error::ApiError;
use crate::http::state::AppState;
use crate::staff::auth::{constant_time_eq, same_origin, AdminStaff, AnalystStaff, Staff, SupportStaff};
use crate::staff::{accounts, sessions, Role};

impl FromRequestParts<AppState> for Staff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let token = sessions::token_from_headers(&parts.headers).ok_or(ApiError::Unauthorized)?;
        // An event stream (the console's live timeline) is opened and reopened by the page
        // itself: it does not count as the staff member's activity.
        let activity = if parts.method == Method::GET && parts.uri.path().ends_with("/stream") {
            sessions::Activity::Passive
        } else {
            sessions::Activity::Active
        };
        let session = sessions::load(&state.db, &token, activity).await?.ok_or(ApiError::Unauthorized)?;
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
