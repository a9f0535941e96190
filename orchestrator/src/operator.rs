//! The operator's commands besides `serve`: staff accounts, a person's erasure and the
//! master key's rotation (`orchestrator staff|person|keys`), in the library so the command
//! line and the console share their code (the erasure is `support::erase::erase_named`).

use anyhow::{bail, Context};
use clap::Subcommand;
use events::pii::{PiiKind, Vault};

use crate::config::AdminConfig;
use crate::staff::accounts::Accounts;
use crate::staff::{audit, second_factor, Role};
use crate::support::erase;

#[derive(Subcommand)]
pub enum KeysCommand {
    /// Wraps every person's data key again under PII_KEK_HEX, opening each with it or one of
    /// PII_KEK_PREVIOUS_HEX; the portal keeps reading throughout. Resumable, and safe to run
    /// twice at once. Once it reports nothing left, drop PII_KEK_PREVIOUS_HEX.
    Rotate {
        /// Data keys per transaction.
        #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(i64).range(1..=100_000))]
        batch: i64,
        #[command(flatten)]
        config: AdminConfig,
    },
}

#[derive(Subcommand)]
pub enum StaffCommand {
    /// Adds a staff member; the password comes from `STAFF_PASSWORD` or a prompt.
    Add {
        #[arg(long)]
        email: String,
        /// support, analyst or admin.
        #[arg(long)]
        role: Role,
        #[command(flatten)]
        config: AdminConfig,
    },
    /// Lists the staff members.
    List {
        #[command(flatten)]
        config: AdminConfig,
    },
    /// Disables a staff member and ends their sessions.
    Disable {
        #[arg(long)]
        email: String,
        #[command(flatten)]
        config: AdminConfig,
    },
    /// Enrols (or replaces) the member's second factor: prints a QR code for an authenticator
    /// app, the secret for typing by hand and ten one-time recovery codes, once; ends the
    /// member's sessions. Support and admin cannot sign in without one.
    Totp {
        #[arg(long)]
        email: String,
        #[command(flatten)]
        config: AdminConfig,
    },
    /// Sets a new password (from `STAFF_PASSWORD` or a prompt) and ends the member's sessions.
    SetPassword {
        #[arg(long)]
        email: String,
        #[command(flatten)]
        config: AdminConfig,
    },
}

#[derive(Subcommand)]
pub enum PersonCommand {
    /// Erases a person: forgets every personal-data subject linked through their attempts and
    /// deletes those attempts' upstream tokens. Give exactly one of the options.
    Erase {
        #[arg(long)]
        phone: Option<String>,
        #[arg(long)]
        document: Option<String>,
        #[arg(long)]
        email: Option<String>,
        /// Do it without asking.
        #[arg(long)]
        yes: bool,
        #[command(flatten)]
        config: AdminConfig,
    },
}

/// `orchestrator keys rotate`.
pub async fn rotate(batch: i64, config: &AdminConfig) -> anyhow::Result<()> {
    let (_db, vault) = open(config).await?;
    let left = vault.left_to_rewrap().await?;
    // Drawn only on a terminal; silent when stderr is piped.
    let progress =
        indicatif::ProgressBar::with_draw_target(Some(left.max(0) as u64), indicatif::ProgressDrawTarget::stderr());
    progress.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} chaves ({per_sec}, falta {eta})")
            .context("progress template")?,
    );
    let mut done = 0u64;
    loop {
        let wrapped = vault.rewrap(batch).await?;
        if wrapped == 0 {
            break;
        }
        done += wrapped;
        progress.set_position(done);
    }
    progress.finish_and_clear();
    println!("{done} data keys wrapped again; {} left under another master key", vault.left_to_rewrap().await?);
    Ok(())
}

async fn open(config: &AdminConfig) -> anyhow::Result<(sqlx::PgPool, Vault)> {
    let db = crate::startup::connect_to(&config.database_url, 2).await?;
    let vault = Vault::new(db.clone(), config.keys.keys(config.sandbox_mode)?);
    Ok((db, vault))
}

/// `STAFF_PASSWORD`, or typed twice at a prompt that does not echo.
fn new_password() -> anyhow::Result<String> {
    if let Ok(password) = std::env::var("STAFF_PASSWORD") {
        return Ok(password);
    }
    let first = rpassword::prompt_password("Senha (12 caracteres ou mais): ").context("reading the password")?;
    let second = rpassword::prompt_password("Repita a senha: ").context("reading the password")?;
    if first != second {
        bail!("the passwords differ");
    }
    Ok(first)
}

/// `orchestrator staff …`.
pub async fn staff(command: StaffCommand) -> anyhow::Result<()> {
    match command {
        StaffCommand::Add { email, role, config } => {
            let password = new_password()?;
            let (db, vault) = open(&config).await?;
            let id = Accounts { db: &db, vault: &vault }.add(&email, role, &password).await?;
            println!("added {role} {} ({id})", PiiKind::Email.normalize(&email));
        }
        StaffCommand::List { config } => {
            let (db, vault) = open(&config).await?;
            for account in (Accounts { db: &db, vault: &vault }).list().await? {
                let state = match account.disabled_at {
                    Some(at) => format!("disabled {}", at.format("%Y-%m-%d %H:%M UTC")),
                    None => "active".into(),
                };
                println!(
                    "{}\t{}\t{}\tsince {}",
                    account.email,
                    account.role,
                    state,
                    account.created_at.format("%Y-%m-%d")
                );
            }
        }
        StaffCommand::Disable { email, config } => {
            let (db, vault) = open(&config).await?;
            if !(Accounts { db: &db, vault: &vault }).disable(&email).await? {
                bail!("no staff member has this e-mail");
            }
            println!("disabled {}", PiiKind::Email.normalize(&email));
        }
        StaffCommand::Totp { email, config } => {
            let (db, vault) = open(&config).await?;
            let Some(found) = (Accounts { db: &db, vault: &vault }).credentials(&email).await? else {
                bail!("no staff member has this e-mail");
            };
            let email = PiiKind::Email.normalize(&email);
            let enrolled = second_factor::enrol(&db, &vault, found.id, &email).await?;
            let store = events::EventStore::new(db.clone());
            audit::record(&store, Some(found.id), audit::SECOND_FACTOR_ENROLLED, serde_json::json!({})).await?;
            println!("{}", second_factor::terminal_qr(&enrolled.url)?);
            println!("Leia o QR code no aplicativo autenticador de {email}, ou digite a chave:");
            println!("secret: {}", enrolled.secret_base32);
            println!("Códigos de recuperação (cada um vale uma vez; guarde-os fora do computador):");
            for code in &enrolled.recovery_codes {
                println!("recovery: {code}");
            }
        }
        StaffCommand::SetPassword { email, config } => {
            let password = new_password()?;
            let (db, vault) = open(&config).await?;
            if !(Accounts { db: &db, vault: &vault }).set_password(&email, &password).await? {
                bail!("no staff member has this e-mail");
            }
            println!("password set for {}", PiiKind::Email.normalize(&email));
        }
    }
    Ok(())
}

/// `orchestrator person erase`: the console's erasure, from the command line.
pub async fn person(command: PersonCommand) -> anyhow::Result<()> {
    let PersonCommand::Erase { phone, document, email, yes, config } = command;
    let (kind, value) = match (phone, document, email) {
        (Some(phone), None, None) => {
            (PiiKind::Phone, crate::support::query::normalize_phone(&phone).context("invalid phone")?)
        }
        (None, Some(document), None) => (PiiKind::CpfCnpj, document),
        (None, None, Some(email)) => (PiiKind::Email, email),
        _ => bail!("give exactly one of --phone, --document, --email"),
    };
    if !yes {
        let answer = rpassword::prompt_password("Erase this person's personal data for good? Type yes: ")?;
        if answer.trim() != "yes" {
            bail!("not confirmed");
        }
    }
    let (db, vault) = open(&config).await?;
    let store = events::EventStore::new(db.clone());
    let named = erase::Named::Person(kind, value);
    let erased = erase::erase_named(&db, &store, &vault, &named, None).await?;
    println!(
        "erased {} subjects linked to {} attempts; {} tokens deleted",
        erased.subjects, erased.attempts, erased.secrets
    );
    // What the erasure met and did not forget: an admin decides on each (docs/support.md).
    for left in &erased.left {
        let why = match left.why {
            erase::plan::Why::NotProved => "not proved by this person",
            erase::plan::Why::Staff => "a staff account's e-mail",
        };
        println!("left: a {} ({why}) in {}", left.kind, left.attempts.join(", "));
    }
    Ok(())
}
