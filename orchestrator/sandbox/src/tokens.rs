//! Tokens as the upstreams use them: an upstream accepts only its own kinds, and only before
//! expiry. The issued tokens themselves are kept in [`crate::records::tokens`].

use chrono::{DateTime, Utc};

use super::error::{Refusal, Style};
use super::records::tokens::{Claims, TokenError, TokenKind};
use super::state::World;

impl World {
    pub fn issue_token(&mut self, kind: TokenKind, claims: Claims, now: DateTime<Utc>) -> String {
        let token = self.token(kind.prefix());
        self.tokens.insert(token.clone(), kind, claims, now);
        token
    }

    /// [`World::check_token`] refused in the upstream's style.
    pub fn claims(
        &self,
        token: &str,
        accepted: &[TokenKind],
        now: DateTime<Utc>,
        style: Style,
    ) -> Result<Claims, Refusal> {
        self.check_token(token, accepted, now).map_err(|error| error.refusal(style))
    }

    /// The claims of `token` if it is one of `accepted` and still valid.
    pub fn check_token(&self, token: &str, accepted: &[TokenKind], now: DateTime<Utc>) -> Result<Claims, TokenError> {
        self.tokens.check(token, accepted, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SandboxConfig;
    use crate::state::SandboxState;
    use chrono::Duration;

    #[test]
    fn a_token_is_valid_for_its_kinds_until_it_expires() {
        let state = SandboxState::new(SandboxConfig::default());
        let now = state.now();
        let claims = Claims { msisdn: Some("5511910000001".into()), ..Claims::default() };
        let token = state.with(|w| w.issue_token(TokenKind::FsCustom, claims.clone(), now));
        state.with(|w| {
            assert_eq!(w.check_token(&token, &[TokenKind::FsAuth, TokenKind::FsCustom], now), Ok(claims));
            assert_eq!(w.check_token(&token, &[TokenKind::Id], now), Err(TokenError::Unknown));
            assert_eq!(w.check_token("sbx-fscustom-00", &[TokenKind::FsCustom], now), Err(TokenError::Unknown));
            let later = now + Duration::minutes(15);
            assert_eq!(w.check_token(&token, &[TokenKind::FsCustom], later), Err(TokenError::Expired));
        });
    }
}
