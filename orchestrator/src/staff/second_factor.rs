//! Staff's second factor: TOTP (RFC 6238: HMAC-SHA1, 6 digits, 30 s, one step of drift each
//! way) through `totp-rs`, enrolled from the command line (`orchestrator staff totp`), and ten
//! one-time recovery codes. Required for the roles that reveal and erase personal data
//! (support, admin); an analyst who enrolled is asked for it too.
//!
//! The secret is sealed at rest with the attempts' `SecretBox` (bound to the member's stream
//! and the name `totp`); a code is accepted once (the last accepted time step is kept, so a
//! code read over a shoulder does not open a second session); recovery codes are kept only as
//! keyed hashes and deleted when used.

use anyhow::Context;
use events::pii::Vault;
use rand::Rng;
use sqlx::{PgPool, Row};
use totp_rs::{Algorithm, Secret, TOTP};
use uuid::Uuid;

use super::{auth::constant_time_eq, Role};

/// The `Vault::tag` purpose of recovery codes.
const RECOVERY_TAG: &str = "staff-recovery-code";
const RECOVERY_CODES: usize = 10;
/// The issuer an authenticator app shows.
const ISSUER: &str = "EXA Suporte";
const STEP: u64 = 30;

/// What enrolment hands the operator, once.
pub struct Enrolled {
    /// `otpauth://totp/...`, the QR code's content.
    pub url: String,
    /// The secret in base32, for typing into an app by hand.
    pub secret_base32: String,
    pub recovery_codes: Vec<String>,
}

/// What a typed code turned out to be.
#[derive(Debug, PartialEq, Eq)]
pub enum Checked {
    Accepted,
    Refused,
}

/// Whether this role may sign in without a second factor.
pub fn required_for(role: Role) -> bool {
    role.may_support()
}

fn totp(secret: Vec<u8>, account: &str) -> anyhow::Result<TOTP> {
    TOTP::new(Algorithm::SHA1, 6, 1, STEP, secret, Some(ISSUER.into()), account.into())
        .map_err(|e| anyhow::anyhow!("building the TOTP: {e}"))
}

/// The time step, within one step of `now`, whose code is `code` (constant-time compare).
fn matching_step(totp: &TOTP, code: &str, now: u64) -> Option<u64> {
    let current = now / STEP;
    (current.saturating_sub(1)..=current + 1)
        .find(|step| constant_time_eq(totp.generate(step * STEP).as_bytes(), code.as_bytes()))
}

/// A recovery code: ten characters of an alphabet without look-alikes, in two groups.
fn recovery_code() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    let chars: String = (0..10).map(|_| char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())])).collect();
    format!("{}-{}", &chars[..5], &chars[5..])
}

/// The form recovery codes are hashed in: lower case, no spaces or dashes.
fn normalize_recovery(code: &str) -> String {
    code.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect()
}

fn stream(staff_id: Uuid) -> String {
    format!("staff-{staff_id}")
}

/// A new secret and new recovery codes for `staff_id` (the old ones stop working), and the
/// member's sessions ended.
pub async fn enrol(db: &PgPool, vault: &Vault, staff_id: Uuid, account: &str) -> anyhow::Result<Enrolled> {
    let secret = Secret::generate_secret().to_bytes().map_err(|e| anyhow::anyhow!("secret: {e:?}"))?;
    let totp = totp(secret, account)?;
    let secret_base32 = totp.get_secret_base32();
    let sealed = vault.secret_box().seal(&stream(staff_id), "totp", &secret_base32)?;
    let recovery_codes: Vec<String> = (0..RECOVERY_CODES).map(|_| recovery_code()).collect();
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE staff SET totp_sealed = $2, totp_last_step = NULL WHERE id = $1")
        .bind(staff_id)
        .bind(sealed)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM staff_recovery_codes WHERE staff_id = $1").bind(staff_id).execute(&mut *tx).await?;
    for code in &recovery_codes {
        sqlx::query("INSERT INTO staff_recovery_codes (staff_id, code_hash) VALUES ($1, $2)")
            .bind(staff_id)
            .bind(vault.tag(RECOVERY_TAG, &normalize_recovery(code)))
            .execute(&mut *tx)
            .await?;
    }
    sqlx::query("DELETE FROM staff_sessions WHERE staff_id = $1").bind(staff_id).execute(&mut *tx).await?;
    tx.commit().await.context("enrolling the second factor")?;
    Ok(Enrolled { url: totp.get_url(), secret_base32, recovery_codes })
}

/// Whether the member has a second factor enrolled.
pub async fn enrolled(db: &PgPool, staff_id: Uuid) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT totp_sealed IS NOT NULL FROM staff WHERE id = $1")
        .bind(staff_id)
        .fetch_optional(db)
        .await
        .map(|found| found.unwrap_or(false))
}

/// Checks a typed code: six digits against the TOTP (a step once only), anything else as a
/// recovery code (deleted when it matches).
pub async fn check(db: &PgPool, vault: &Vault, staff_id: Uuid, code: &str) -> anyhow::Result<Checked> {
    let code = code.trim();
    if code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()) {
        return check_totp(db, vault, staff_id, code).await;
    }
    let used = sqlx::query("DELETE FROM staff_recovery_codes WHERE staff_id = $1 AND code_hash = $2")
        .bind(staff_id)
        .bind(vault.tag(RECOVERY_TAG, &normalize_recovery(code)))
        .execute(db)
        .await?
        .rows_affected();
    Ok(if used == 1 { Checked::Accepted } else { Checked::Refused })
}

async fn check_totp(db: &PgPool, vault: &Vault, staff_id: Uuid, code: &str) -> anyhow::Result<Checked> {
    let row = sqlx::query("SELECT totp_sealed FROM staff WHERE id = $1").bind(staff_id).fetch_optional(db).await?;
    let Some(sealed) = row.map(|r| r.try_get::<Option<String>, _>("totp_sealed")).transpose()?.flatten() else {
        return Ok(Checked::Refused);
    };
    let base32 = vault.secret_box().open(&stream(staff_id), "totp", &sealed)?;
    let secret = Secret::Encoded(base32).to_bytes().map_err(|e| anyhow::anyhow!("stored secret: {e:?}"))?;
    let now = u64::try_from(chrono::Utc::now().timestamp()).unwrap_or(0);
    let Some(step) = matching_step(&totp(secret, "")?, code, now) else { return Ok(Checked::Refused) };
    // Accepted only if no later or equal step was: one use per code, even by two requests at once.
    let taken = sqlx::query(
        "UPDATE staff SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)",
    )
    .bind(staff_id)
    .bind(i64::try_from(step).unwrap_or(i64::MAX))
    .execute(db)
    .await?
    .rows_affected();
    Ok(if taken == 1 { Checked::Accepted } else { Checked::Refused })
}

/// The QR code of `url` as text for a terminal (two rows of modules per line).
pub fn terminal_qr(url: &str) -> anyhow::Result<String> {
    let code = qrcode::QrCode::new(url.as_bytes()).context("building the QR code")?;
    Ok(code
        .render::<qrcode::render::unicode::Dense1x2>()
        .dark_color(qrcode::render::unicode::Dense1x2::Light)
        .light_color(qrcode::render::unicode::Dense1x2::Dark)
        .quiet_zone(true)
        .build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_6238_sha1_vector_and_one_step_of_drift() {
        // RFC 6238, appendix B: the SHA-1 key "12345678901234567890" at T = 59 gives 94287082
        // in 8 digits; its last 6 are the 6-digit code.
        let totp = totp(b"12345678901234567890".to_vec(), "").expect("totp");
        assert_eq!(totp.generate(59), "287082");
        assert_eq!(matching_step(&totp, "287082", 59), Some(1));
        assert_eq!(matching_step(&totp, "287082", 59 + 30), Some(1));
        assert_eq!(matching_step(&totp, "287082", 59 + 90), None);
        assert_eq!(matching_step(&totp, "000000", 59), None);
    }

    #[test]
    fn recovery_codes_are_typed_loosely_and_differ() {
        let code = recovery_code();
        assert_eq!(code.len(), 11);
        assert_eq!(normalize_recovery(&code.to_uppercase().replace('-', " ")), code.replace('-', ""));
        assert_ne!(recovery_code(), recovery_code());
    }

    #[test]
    fn support_and_admin_need_it() {
        assert!(required_for(Role::Support) && required_for(Role::Admin) && !required_for(Role::Analyst));
    }

    #[test]
    fn the_terminal_qr_code_is_drawn() {
        let qr = terminal_qr("otpauth://totp/EXA:ana@exa.com.br?secret=JBSWY3DPEHPK3PXP").expect("qr");
        assert!(qr.lines().count() > 10);
    }
}
