//! Staff accounts: added, listed, disabled and given a new password from the command line.
//! The e-mail is found by its vault subject (keyed look-up hash) and kept sealed.

use anyhow::{bail, Context};
use chrono::{DateTime, Utc};
use events::pii::{Opened, PiiKind, Vault};
use serde_json::Value;
use sqlx::{PgPool, Row};
use uuid::Uuid;

use super::{password, Role};

/// One staff member as `staff list` shows them.
#[derive(Debug, Clone)]
pub struct Account {
    pub id: Uuid,
    pub email: String,
    pub role: Role,
    pub created_at: DateTime<Utc>,
    pub disabled_at: Option<DateTime<Utc>>,
}

/// What sign-in needs of an account.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub id: Uuid,
    pub role: Role,
    pub password_hash: String,
    pub disabled: bool,
}

pub struct Accounts<'a> {
    pub db: &'a PgPool,
    pub vault: &'a Vault,
}

/// A plausible e-mail address: one `@`, something on each side, no spaces, at most 254 chars.
pub fn valid_email(email: &str) -> bool {
    let email = email.trim();
    let Some((local, domain)) = email.split_once('@') else { return false };
    !local.is_empty()
        && !domain.is_empty()
        && !domain.contains('@')
        && email.len() <= 254
        && !email.chars().any(char::is_whitespace)
}

impl Accounts<'_> {
    pub async fn add(&self, email: &str, role: Role, password: &str) -> anyhow::Result<Uuid> {
        if !valid_email(email) {
            bail!("invalid e-mail address");
        }
        if let Some(why) = password::weakness(password) {
            bail!("{why}");
        }
        if self.credentials(email).await?.is_some() {
            bail!("a staff member with this e-mail already exists");
        }
        let subject = self.vault.subject_for(PiiKind::StaffEmail, email).await?;
        let sealed = self.vault.seal(subject, PiiKind::StaffEmail, &PiiKind::StaffEmail.normalize(email)).await?;
        let phc = hash_blocking(password).await?;
        let id = Uuid::new_v4();
        sqlx::query(
            "INSERT INTO staff (id, email_subject, email_sealed, role, password_hash) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(subject)
        .bind(sealed.to_value())
        .bind(role.as_str())
        .bind(phc)
        .execute(self.db)
        .await
        .context("adding the staff member")?;
        Ok(id)
    }

    pub async fn list(&self) -> anyhow::Result<Vec<Account>> {
        let rows = sqlx::query("SELECT id, email_sealed, role, created_at, disabled_at FROM staff ORDER BY created_at")
            .fetch_all(self.db)
            .await?;
        let mut accounts = Vec::with_capacity(rows.len());
        for row in rows {
            let sealed: Value = row.try_get("email_sealed")?;
            let role: String = row.try_get("role")?;
            accounts.push(Account {
                id: row.try_get("id")?,
                email: self.email_of(&sealed).await,
                role: role.parse().map_err(anyhow::Error::msg)?,
                created_at: row.try_get("created_at")?,
                disabled_at: row.try_get("disabled_at")?,
            });
        }
        Ok(accounts)
    }

    /// Disables the account and ends its sessions; false when no such staff member.
    pub async fn disable(&self, email: &str) -> anyhow::Result<bool> {
        let Some(found) = self.credentials(email).await? else { return Ok(false) };
        sqlx::query("UPDATE staff SET disabled_at = coalesce(disabled_at, now()) WHERE id = $1")
            .bind(found.id)
            .execute(self.db)
            .await?;
        sqlx::query("DELETE FROM staff_sessions WHERE staff_id = $1").bind(found.id).execute(self.db).await?;
        Ok(true)
    }

    /// Sets a new password and ends the member's sessions; false when no such staff member.
    pub async fn set_password(&self, email: &str, password: &str) -> anyhow::Result<bool> {
        if let Some(why) = password::weakness(password) {
            bail!("{why}");
        }
        let Some(found) = self.credentials(email).await? else { return Ok(false) };
        let phc = hash_blocking(password).await?;
        sqlx::query("UPDATE staff SET password_hash = $2 WHERE id = $1")
            .bind(found.id)
            .bind(phc)
            .execute(self.db)
            .await?;
        sqlx::query("DELETE FROM staff_sessions WHERE staff_id = $1").bind(found.id).execute(self.db).await?;
        Ok(true)
    }

    /// The account behind this e-mail, if any (never creates a vault subject). Staff e-mails
    /// are looked up in their own namespace (`staff_email`); an account added before it is
    /// found under the visitors' `email` look-up once, and moved to its own namespace then.
    pub async fn credentials(&self, email: &str) -> anyhow::Result<Option<Credentials>> {
        if let Some(subject) = self.vault.find_subject(PiiKind::StaffEmail, email).await? {
            return self.credentials_of(subject).await;
        }
        let Some(subject) = self.vault.find_subject(PiiKind::Email, email).await? else { return Ok(None) };
        let found = self.credentials_of(subject).await?;
        if found.is_some() {
            self.vault.move_lookup(subject, PiiKind::Email, PiiKind::StaffEmail, email).await?;
        }
        Ok(found)
    }

    async fn credentials_of(&self, subject: Uuid) -> anyhow::Result<Option<Credentials>> {
        let row = sqlx::query(
            "SELECT id, role, password_hash, disabled_at IS NOT NULL AS disabled FROM staff WHERE email_subject = $1",
        )
        .bind(subject)
        .fetch_optional(self.db)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let role: String = row.try_get("role")?;
        Ok(Some(Credentials {
            id: row.try_get("id")?,
            role: role.parse().map_err(anyhow::Error::msg)?,
            password_hash: row.try_get("password_hash")?,
            disabled: row.try_get("disabled")?,
        }))
    }

    /// The clear e-mail of a sealed one; a placeholder when it cannot be opened (erased).
    pub async fn email_of(&self, sealed: &Value) -> String {
        email_of(self.vault, sealed).await
    }
}

/// The clear e-mail of a staff member's sealed e-mail.
pub async fn email_of(vault: &Vault, sealed: &Value) -> String {
    match vault.open(sealed).await {
        Ok(Opened::Clear(email)) => email,
        Ok(Opened::Erased) => "dado apagado (LGPD)".into(),
        Err(error) => {
            tracing::warn!(%error, "a staff e-mail could not be opened");
            "—".into()
        }
    }
}

async fn hash_blocking(password: &str) -> anyhow::Result<String> {
    let password = password.to_string();
    tokio::task::spawn_blocking(move || password::hash(&password)).await?
}
