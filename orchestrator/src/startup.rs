//! Builds the application from configuration and runs it until shutdown.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use events::pii::{Keys, Vault};
use events::EventStore;
use secrecy::ExposeSecret;
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::attempts::notifier::Notifier;
use crate::config::ServeConfig;
use crate::flows::{registry, FlowSettings, Registry};
use crate::http::state::{AppState, SiteConfig};
use crate::runner::{Runner, RunnerConfig, StepDeps};
use crate::shutdown::stopped;
use crate::upstream::Upstreams;

/// The SQL migrations of `migrations/`, embedded at build time.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

pub async fn connect(config: &ServeConfig) -> anyhow::Result<PgPool> {
    let acquire = std::time::Duration::from_millis(config.admission.database_acquire_timeout_ms);
    connect_with(&config.database_url, config.database_max_connections, acquire).await
}

/// Connects to `url` and applies the migrations (the command-line tools use this too).
pub async fn connect_to(url: &secrecy::SecretString, max_connections: u32) -> anyhow::Result<PgPool> {
    connect_with(url, max_connections, std::time::Duration::from_secs(10)).await
}

/// As [`connect_to`], a request waiting at most `acquire` for a connection (then it is
/// answered 503, `ApiError`'s mapping).
pub async fn connect_with(
    url: &secrecy::SecretString,
    max_connections: u32,
    acquire: std::time::Duration,
) -> anyhow::Result<PgPool> {
    let pool = PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(acquire)
        .connect(url.expose_secret())
        .await
        .context("connecting to PostgreSQL (DATABASE_URL)")?;
    MIGRATOR.run(&pool).await.context("applying migrations")?;
    Ok(pool)
}

/// The standby's pool when `DATABASE_READ_URL` is set (an empty value is unset). No migration runs there (a standby is
/// read-only; it has the primary's schema); a request waits for a connection as on the primary.
async fn connect_reads(config: &ServeConfig) -> anyhow::Result<Option<PgPool>> {
    let Some(url) = config.database_read_url.as_ref().filter(|u| !u.expose_secret().trim().is_empty()) else {
        return Ok(None);
    };
    let pool = PgPoolOptions::new()
        .max_connections(config.database_max_connections)
        .acquire_timeout(std::time::Duration::from_millis(config.admission.database_acquire_timeout_ms))
        .connect(url.expose_secret())
        .await
        .context("connecting to the standby (DATABASE_READ_URL)")?;
    Ok(Some(pool))
}

/// What `build` assembles the application from, besides the database.
pub struct Parts {
    pub keys: Keys,
    pub upstreams: Upstreams,
    pub site: SiteConfig,
    pub flows: FlowSettings,
    pub abuse: crate::config::AbuseConfig,
    pub server: crate::http::server::ServerLimits,
    pub admission: crate::admission::Admission,
    /// The standby's pool, when reads go there (`DATABASE_READ_URL`).
    pub read_db: Option<PgPool>,
    /// Days the funnel page holds in memory (`FUNNEL_MEMORY_DAYS`).
    pub funnel_memory_days: u32,
}

impl Parts {
    pub fn from_config(config: &ServeConfig) -> anyhow::Result<Self> {
        Ok(Self {
            keys: config.keys.keys(config.site.sandbox_mode)?,
            upstreams: Upstreams::from_config(&config.upstreams),
            site: crate::http::state::SiteConfig::of(config),
            flows: FlowSettings { partners: config.partners.clone(), download: config.download.clone() },
            abuse: config.abuse.clone(),
            server: crate::http::server::ServerLimits::of(&config.server),
            admission: crate::admission::Admission::from_config(&config.admission)?,
            read_db: None,
            funnel_memory_days: config.funnel_memory_days,
        })
    }
}

/// Everything the server and its runners share.
pub struct App {
    pub state: AppState,
    pub registry_steps: Vec<Arc<dyn crate::runner::StepFlow>>,
}

/// Assembles the application; its background tasks (change notifications) end when `stop`
/// turns true.
pub fn build(db: PgPool, parts: Parts, stop: watch::Receiver<bool>) -> anyhow::Result<App> {
    let Parts { keys, upstreams, site, flows: settings, abuse, server, mut admission, read_db, funnel_memory_days } =
        parts;
    admission.connect_line(&db);
    let store = EventStore::new(db.clone());
    let vault = Vault::new(db.clone(), keys);
    admission.sign_passes_with(vault.signing_key(crate::admission::pass::SECRET_PURPOSE));
    let reads = crate::reads::Reads::on(read_db.unwrap_or_else(|| db.clone()), &vault);
    let http = reqwest::Client::builder().timeout(upstreams.timeout).build().context("building the HTTP client")?;
    let deps = StepDeps { db: db.clone(), vault: vault.clone(), http, upstreams: Arc::new(upstreams) };
    let Registry { flows, steps } = registry(&deps, &settings);
    crate::admission::sampler::spawn(db.clone(), &admission, stop.clone());
    let notifier = Notifier::spawn(&store, stop);
    let abuse = Arc::new(crate::abuse::AbuseGuard::new(&abuse, site.sandbox, &vault));
    let streams = crate::attempts::streams::OpenStreams::new(server.streams).with_clients(server.stream_clients);
    let metrics = Arc::new(crate::metrics::Metrics::new());
    metrics.abuse_rules(crate::abuse::rules::Rule::ALL.map(crate::abuse::rules::Rule::name));
    metrics.admission.thresholds(&admission.thresholds);
    admission.line_statements = metrics.admission.line_statements.clone();
    let state = AppState {
        db,
        store,
        vault,
        flows: Arc::new(flows),
        notifier,
        site: Arc::new(site),
        abuse,
        server,
        streams,
        downloads: crate::attempts::streams::OpenStreams::new(crate::http::api::installer::DOWNLOAD_CAPS),
        support_streams: crate::attempts::streams::OpenStreams::new(crate::http::api::support::STREAM_CAPS),
        metrics,
        admission: Arc::new(admission),
        reads,
        owners: Arc::default(),
        funnels: crate::analytics::held::HeldFunnels::new(funnel_memory_days),
        histories: Arc::default(),
        handoff: Arc::default(),
    };
    Ok(App { state, registry_steps: steps })
}

/// Starts `workers` runners over every flow's steps, each with `concurrency` steps in flight; they stop when `stop` turns true. A runner
/// whose loop panics (a step's own panic is caught and counted inside it) is started again.
pub fn spawn_runners(
    app: &App,
    workers: usize,
    concurrency: usize,
    lease: std::time::Duration,
    stop: watch::Receiver<bool>,
) -> Vec<JoinHandle<()>> {
    (0..workers)
        .map(|worker| {
            let (db, store, flows) = (app.state.db.clone(), app.state.store.clone(), app.registry_steps.clone());
            // The first runner takes the steps this process's commands plan due at once.
            let handoff = (worker == 0).then(|| app.state.handoff.clone());
            let (metrics, histories) = (app.state.metrics.clone(), app.state.histories.clone());
            let load = app.state.admission.load.clone();
            load.add_slots(concurrency);
            let stop = stop.clone();
            tokio::spawn(async move {
                let config = RunnerConfig { lease, concurrency, ..RunnerConfig::default() };
                loop {
                    let mut runner = Runner::new(db.clone(), store.clone(), config.clone())
                        .with_metrics(metrics.clone())
                        .with_load(load.clone())
                        .with_histories(histories.clone());
                    if let Some(handoff) = &handoff {
                        runner = runner.with_handoff(handoff.clone());
                    }
                    let runner = flows.iter().fold(runner, |runner, flow| runner.with_flow(flow.clone()));
                    let stopping = stopped(stop.clone());
                    match tokio::spawn(runner.run_until(stopping)).await {
                        Ok(Ok(())) => break,
                        Ok(Err(error)) => tracing::error!(%error, "step runner stopped with an error; restarting"),
                        Err(error) => tracing::error!(%error, "step runner panicked; restarting"),
                    }
                    if *stop.borrow() {
                        break;
                    }
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            })
        })
        .collect()
}

/// Deletes expired attempt secrets, day-old idempotency keys and abuse counts every minute until `stop` turns
/// true.
pub fn spawn_secret_purge(db: PgPool, stop: watch::Receiver<bool>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let until = stopped(stop);
        tokio::pin!(until);
        loop {
            tokio::select! {
                () = &mut until => break,
                () = tokio::time::sleep(std::time::Duration::from_secs(60)) => {}
            }
            if let Err(error) = crate::write_path::secrets::purge_expired(&db).await {
                tracing::warn!(%error, "purging expired secrets failed");
            }
            if let Err(error) = crate::flows::activation::partner_login::purge_expired(&db).await {
                tracing::warn!(%error, "purging expired OAuth states failed");
            }
            if let Err(error) = crate::attempts::service::purge_old_keys(&db).await {
                tracing::warn!(%error, "purging old idempotency keys failed");
            }
            if let Err(error) = crate::abuse::gate::purge(&db).await {
                tracing::warn!(%error, "purging old abuse counts failed");
            }
        }
    })
}

/// Serves on an already bound listener (tests bind port 0) until `shutdown` resolves.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    web_dist: &Path,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let limits = state.server;
    let app = crate::http::app(state, web_dist);
    crate::http::server::run(listener, app, limits, shutdown).await.context("serving HTTP")
}

/// How long in-flight requests get to finish once a stop was asked for; the process then exits
/// even if some connection is still open.
pub const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

pub async fn run(config: ServeConfig) -> anyhow::Result<()> {
    check_config(&config)?;
    let db = connect(&config).await?;
    check_transaction_ids(&db).await?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut parts = Parts::from_config(&config)?;
    parts.read_db = connect_reads(&config).await?;
    let app = build(db, parts, stop_rx.clone())?;
    app.state.abuse.prepare(&app.state.db).await.context("writing the SMS ceiling's shards")?;
    let lease = std::time::Duration::from_secs(config.runner_lease_secs);
    let mut background = spawn_runners(&app, config.runner_workers, config.runner_concurrency, lease, stop_rx.clone());
    background.push(spawn_secret_purge(app.state.db.clone(), stop_rx.clone()));
    if config.funnel_projection {
        background.push(crate::analytics::projector::spawn(
            app.state.store.clone(),
            app.state.vault.clone(),
            stop_rx.clone(),
        ));
    }
    // Load the funnel page's days now, not on the first analyst's question.
    let (funnels, reads) = (app.state.funnels.clone(), app.state.reads.db.clone());
    tokio::spawn(async move {
        if let Err(error) = funnels.catch_up(&reads).await {
            tracing::warn!(%error, "funnel page: the recent days could not be loaded; the first question will try again");
        }
    });
    if let Some(admin) = config.admin_bind_addr {
        let listener = TcpListener::bind(admin).await.with_context(|| format!("binding the admin port {admin}"))?;
        tracing::info!("metrics on http://{}/metrics", listener.local_addr()?);
        let (state, stop) = (app.state.clone(), stop_rx.clone());
        background.push(tokio::spawn(async move {
            if let Err(error) = crate::http::admin::serve(listener, state, stopped(stop)).await {
                tracing::error!(%error, "the admin port stopped");
            }
        }));
    }
    let listener =
        TcpListener::bind(config.bind_addr).await.with_context(|| format!("binding {}", config.bind_addr))?;
    let addr = listener.local_addr()?;
    tracing::info!("portal listening on http://{addr} (health: http://{addr}/healthz)");
    // One signal stops everything at once: the listener stops accepting, event streams end,
    // runners finish their step, the purge and notifier loops stop.
    let stop_all = async move {
        crate::shutdown::signal().await;
        let _ = stop_tx.send(true);
    };
    let server = serve(listener, app.state.clone(), &config.web_dist, stop_all);
    let deadline = async {
        stopped(stop_rx.clone()).await;
        tokio::time::sleep(SHUTDOWN_GRACE).await;
    };
    tokio::select! {
        served = server => served?,
        () = deadline => tracing::warn!("connections still open {} s after the stop; exiting", SHUTDOWN_GRACE.as_secs()),
    }
    let finished = futures::future::join_all(background);
    if tokio::time::timeout(SHUTDOWN_GRACE, finished).await.is_err() {
        tracing::warn!("background tasks still running {} s after the stop; exiting", SHUTDOWN_GRACE.as_secs());
    }
    Ok(())
}

/// Refuses settings that cannot work: every runner and the notifier listen on a connection of
/// their own, but each runner's steps and each request need pooled ones. Outside sandbox mode it
/// also refuses the sandbox's public secrets and any upstream that is the sandbox, this machine
/// or plain http (`config::production_problems`), one line per setting.
pub fn check_config(config: &ServeConfig) -> anyhow::Result<()> {
    if config.abuse.retired_trusted_proxy_hops.is_some() {
        anyhow::bail!(
            "TRUSTED_PROXY_HOPS is retired: list the networks of the proxies in front of the portal in TRUSTED_PROXIES \
             (CIDRs, comma-separated, e.g. 10.0.0.0/8) and unset TRUSTED_PROXY_HOPS (README)"
        );
    }
    let problems = crate::config::production_problems(config);
    if !problems.is_empty() {
        anyhow::bail!(
            "refusing to start outside sandbox mode (SANDBOX_MODE is not true); fix these settings (README):\n{}",
            problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n")
        );
    }
    let needed = u32::try_from(config.runner_workers).unwrap_or(u32::MAX).saturating_add(2);
    if config.database_max_connections < needed {
        anyhow::bail!(
            "DATABASE_MAX_CONNECTIONS={} is too small for RUNNER_WORKERS={}: each runner holds a pooled connection \
             while its step runs and requests need at least two more; set DATABASE_MAX_CONNECTIONS to {} or more",
            config.database_max_connections,
            config.runner_workers,
            needed
        );
    }
    Ok(())
}

/// The gap-free global read (docs/event-store.md) orders events by the id of the transaction
/// that wrote them and reads only below the oldest running one. After a logical dump and restore
/// the cluster's transaction-id counter starts low again, below the ids the restored events
/// carry, and the read stalls or skips events. Refuses to start then.
pub async fn check_transaction_ids(db: &PgPool) -> anyhow::Result<()> {
    let (highest, current): (Option<String>, String) = sqlx::query_as(
        "SELECT (SELECT tx_id::text FROM events ORDER BY tx_id DESC LIMIT 1),
                    pg_snapshot_xmax(pg_current_snapshot())::text",
    )
    .fetch_one(db)
    .await
    .context("reading transaction ids")?;
    let parse = |text: &str| text.parse::<u64>().context("a transaction id that is not a number");
    if let Some(highest) = highest {
        let (highest, current) = (parse(&highest)?, parse(&current)?);
        if highest >= current {
            anyhow::bail!(
                "the events table holds transaction id {highest}, at or above this cluster's next one ({current}): the \
                 database was restored from a logical dump into a new cluster, and the global read would stall or \
                 skip events. Restore with a physical backup (pg_basebackup), or advance the counter past {highest} \
                 before starting (docs/event-store.md, \"Restoring a dump\")"
            );
        }
    }
    Ok(())
}
