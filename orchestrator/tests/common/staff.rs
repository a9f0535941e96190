//! Staff members for the tests: added with a password and, for the roles that need one, a
//! second factor enrolled; the code of the moment computed from the sealed secret, as the
//! member's authenticator app would.

use events::pii::{Keys, PiiKind, Vault};
use orchestrator::staff::accounts::Accounts;
use orchestrator::staff::{second_factor, Role};
use sqlx::PgPool;
use totp_rs::{Algorithm, Secret, TOTP};

pub const PASSWORD: &str = "senha-de-teste-longa";

fn vault(db: &PgPool) -> Vault {
    Vault::new(db.clone(), Keys::insecure_dev())
}

/// Adds the member; support and admin get a second factor, whose recovery codes come back.
pub async fn add(db: &PgPool, email: &str, role: Role) -> Vec<String> {
    let vault = vault(db);
    let id = Accounts { db, vault: &vault }.add(email, role, PASSWORD).await.expect("staff added");
    if !second_factor::required_for(role) {
        return Vec::new();
    }
    second_factor::enrol(db, &vault, id, &PiiKind::Email.normalize(email)).await.expect("enrolled").recovery_codes
}

/// The member's TOTP code now, or `None` without a second factor. Each code is accepted once,
/// so the member's last accepted step is forgotten first: tests sign one member in several
/// times within 30 seconds (the once-only rule has a test of its own).
pub async fn code_now(db: &PgPool, email: &str) -> Option<String> {
    let vault = vault(db);
    let found = Accounts { db, vault: &vault }.credentials(email).await.expect("credentials")?;
    let sealed: Option<String> =
        sqlx::query_scalar("UPDATE staff SET totp_last_step = NULL WHERE id = $1 RETURNING totp_sealed")
            .bind(found.id)
            .fetch_one(db)
            .await
            .expect("secret");
    let base32 = vault.secret_box().open(&format!("staff-{}", found.id), "totp", &sealed?).expect("opened");
    let secret = Secret::Encoded(base32).to_bytes().expect("base32");
    let totp = TOTP::new(Algorithm::SHA1, 6, 1, 30, secret, None, String::new()).expect("totp");
    Some(totp.generate_current().expect("clock"))
}
