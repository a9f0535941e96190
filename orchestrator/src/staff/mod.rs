//! Staff of the support console (docs/support.md): accounts created on the command line,
//! argon2id passwords, server-side sessions behind the `exa_staff` cookie, the brute-force
//! limit, the extractor that checks session, CSRF and role, and the audit events every staff
//! action leaves in its member's `staff-<uuid>` stream.

pub mod accounts;
pub mod audit;
pub mod auth;
pub mod password;
pub mod second_factor;
pub mod sessions;
pub mod throttle;

use std::fmt;
use std::str::FromStr;

/// What a staff member may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Look-ups, attempts with personal data masked, reveal one field with a reason.
    Support,
    /// Funnels only; never personal data.
    Analyst,
    /// Everything support may, plus erasing a person.
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Support => "support",
            Role::Analyst => "analyst",
            Role::Admin => "admin",
        }
    }

    /// Whether the role may use the support routes (personal data, masked or revealed).
    pub fn may_support(self) -> bool {
        matches!(self, Role::Support | Role::Admin)
    }

    /// Funnels: analysts and admins.
    pub fn may_analyse(self) -> bool {
        matches!(self, Role::Analyst | Role::Admin)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "support" => Ok(Role::Support),
            "analyst" => Ok(Role::Analyst),
            "admin" => Ok(Role::Admin),
            other => Err(format!("unknown role {other:?} (support, analyst or admin)")),
        }
    }
}
