//! Visitors of the three flows driven through the attempt API of `orchestrator serve` child
//! processes, against the sandbox, and the checks made after a run. Shared by the kill -9 test
//! (`tests/serve_process.rs`) and the soak (`examples/soak.rs`, which includes this file with
//! `#[path]`); docs/reliability.md has the figures.
//!
//! A visitor behaves as a browser does when the server is unreachable for a while: it asks
//! again. Each command carries one `Idempotency-Key` on every try, so a command whose answer was
//! lost (the server killed mid-request) acts once. Nothing here panics: a visitor that cannot go
//! on is an `Err`, counted by the caller.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use sandbox::scenarios;
use serde_json::{json, Value};
use sqlx::PgPool;

include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/common/proved.rs"));

/// The six variants of the security activation.
pub const VARIANTS: [&str; 6] = ["standard", "insurance", "partner_portal", "broadband", "telecom", "carrier"];

/// A CPF with valid check digits that the sandbox authorizes (docs/sandbox.md).
const CPF: &str = "529.982.247-25";

/// What one visitor does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Journey {
    /// A security activation in one of [`VARIANTS`].
    Activation(&'static str),
    /// The desktop download after SMS for a phone of the sandbox's desktop blocks: in block 1
    /// the user has one partner, in block 2 two and the visitor chooses.
    Download(u8),
    /// The cloud serial activation.
    Cloud,
}

impl Journey {
    /// The `i`-th visitor's journey: of every twelve, one activation per variant, three
    /// downloads (alternating the two scenario phones) and three cloud activations.
    pub fn of(i: usize) -> Self {
        match i % 12 {
            v @ 0..=5 => Self::Activation(VARIANTS[v]),
            6 | 8 | 10 => Self::Download(if (i / 12 + i % 12 / 2).is_multiple_of(2) { 1 } else { 2 }),
            _ => Self::Cloud,
        }
    }

    pub fn flow(self) -> &'static str {
        match self {
            Self::Activation(_) => "activation",
            Self::Download(_) => "download",
            Self::Cloud => "cloud",
        }
    }

    pub fn label(self) -> String {
        match self {
            Self::Activation(variant) => format!("activation/{variant}"),
            Self::Download(1) => "download/one partner".into(),
            Self::Download(_) => "download/two partners".into(),
            Self::Cloud => "cloud".into(),
        }
    }

    /// The panel a visitor reaches when nothing went wrong.
    pub fn normal_end(self) -> &'static str {
        match self {
            Self::Activation("carrier") => "product_list",
            Self::Activation(_) => "redirect_store",
            Self::Download(_) => "download_done",
            Self::Cloud => "success",
        }
    }

    /// Whether the normal end subscribes something upstream (a serial, a plan hash, a cloud
    /// serial): the ones `/admin/subscriptions` lists.
    pub fn subscribes(self) -> bool {
        matches!(self, Self::Activation(v) if v != "carrier") || self == Self::Cloud
    }

    /// The view's flag that is true while a step runs.
    fn busy_flag(self) -> &'static str {
        match self {
            Self::Cloud => "loading",
            _ => "busy",
        }
    }

    fn code_panel(self) -> &'static str {
        match self {
            Self::Activation(_) => "code_validation",
            Self::Download(_) => "code_entry",
            Self::Cloud => "code",
        }
    }

    /// The visitor's phone, 11 digits, its own: none of the sandbox's scenario phones for
    /// activations and cloud activations, a phone of the scenario's block for downloads (the
    /// inbox tells a phone's codes apart only by time, so visitors cannot share one).
    fn national(self, i: usize) -> String {
        match self {
            Self::Download(1) => {
                format!("{}{:04}", scenarios::DESKTOP_ONE_PARTNER_BLOCK, i % scenarios::DESKTOP_BLOCK_SIZE)
            }
            Self::Download(_) => {
                format!("{}{:04}", scenarios::DESKTOP_TWO_PARTNERS_BLOCK, i % scenarios::DESKTOP_BLOCK_SIZE)
            }
            // Spread over area codes and number blocks (7-digit prefixes), as a partner's
            // campaign to its subscribers is: one block would be a burst to one prefix.
            _ => {
                format!("{}98{:03}{:04}", AREAS[i % AREAS.len()], (i / AREAS.len()) % 1_000, i / (AREAS.len() * 1_000))
            }
        }
    }
}

/// Area codes of the generated activation and cloud phones (none of the sandbox's scenarios).
const AREAS: [usize; 8] = [11, 21, 31, 41, 51, 61, 71, 81];

/// `11987654321` as a visitor types it: `(11) 98765-4321`.
fn masked(national: &str) -> String {
    format!("({}) {}-{}", &national[..2], &national[2..7], &national[7..])
}

/// Where a visitor's journey ended.
#[derive(Debug, Clone)]
pub struct Finish {
    pub journey: Journey,
    /// The attempt the visitor ended on.
    pub id: String,
    pub panel: String,
    /// The message the page shows, if any.
    pub problem: Option<String>,
}

impl Finish {
    pub fn normal(&self) -> bool {
        self.panel == self.journey.normal_end() && self.problem.is_none()
    }

    pub fn describe(&self) -> String {
        match &self.problem {
            Some(problem) => format!("{}: {} ({problem})", self.journey.label(), self.panel),
            None => format!("{}: {}", self.journey.label(), self.panel),
        }
    }
}

/// Where a visitor goes and comes from: a server's address, and the client (with its own source
/// address, see [`Driver::from_addresses`]) the visitor's browser reaches it with. Displays as
/// the server's address.
struct Origin {
    base: String,
    http: reqwest::Client,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.base)
    }
}

/// Visitors against the servers at `bases` (visitor `i` uses `origins[i % len]`: every server,
/// from each of the driver's source addresses).
pub struct Driver {
    /// For the sandbox's inbox and the partner's pages.
    http: reqwest::Client,
    origins: Vec<Origin>,
    sandbox: String,
    /// How long one stage (a command and the steps it starts) may take before the visitor
    /// gives up on the attempt as stuck; also how long the server may stay unreachable.
    patience: Duration,
    /// Each answered start and command: `<flow>.<command type>` and the request's time (the
    /// load benchmark's latencies, `examples/load.rs`).
    timings: std::sync::Mutex<Vec<(String, Duration)>>,
    /// Starts answered 503 (past capacity, issue 30), each waited out like the page does.
    refused: std::sync::atomic::AtomicUsize,
    /// Every 5xx answer to a start, a command or a look at the attempt, by status: a database
    /// failover may cost 503s (waited out), never a 500 (`examples/failover_visitors.rs`).
    server_errors: std::sync::Mutex<std::collections::BTreeMap<u16, usize>>,
}

/// Whether a start lost to the network is sent again (the page's retry) or given up at once
/// (a return from the partner, whose code and state are spent by the first).
#[derive(Clone, Copy)]
enum Resend {
    UntilAnswered,
    Once,
}

/// The start's answer: admitted, or refused at the door with the wait it asked for.
enum Door {
    Admitted(String, Value),
    /// Refused at the door: the wait asked, and the waiting line's ticket (its cookie) if given.
    Wait(Duration, Option<String>),
}

const SESSION_COOKIE: &str = "__Host-exa_session=";
const LINE_COOKIE: &str = "__Host-exa_line=";

/// The `name=value` of the cookie an answer sets whose value starts with `prefix`.
fn set_cookie(answer: &reqwest::Response, prefix: &str) -> Option<String> {
    answer
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .find(|pair| pair.starts_with(prefix))
        .map(str::to_string)
}

/// Text of the error of a visitor who gave up waiting in line (never admitted).
pub const GAVE_UP_IN_LINE: &str = "gave up waiting in line";

/// One visitor's attempt: its id and the browser's cookie.
struct Attempt<'a> {
    driver: &'a Driver,
    base: &'a Origin,
    journey: Journey,
    id: String,
    cookie: String,
    /// The attempt's version in the newest answer: a frame older than it is from before the
    /// last command.
    version: std::sync::atomic::AtomicI64,
    /// The attempt's event stream, kept open between commands as the page keeps it.
    stream: tokio::sync::Mutex<Option<Follow>>,
}

/// An open event stream and the part of a frame read so far.
struct Follow {
    answer: reqwest::Response,
    buffer: Vec<u8>,
}

/// The `k`-th loopback source address a crowd's visitors come from: 127.0.1.1 on, 250 a block.
pub fn source_address(k: usize) -> std::net::IpAddr {
    std::net::IpAddr::from([127, 0, 1 + (k / 250 % 254) as u8, 1 + (k % 250) as u8])
}

impl Driver {
    pub fn new(bases: Vec<String>, sandbox: &str, patience: Duration) -> anyhow::Result<Self> {
        Self::from_addresses(bases, 0, sandbox, patience)
    }

    /// [`Driver::new`] with visitors spread over `sources` loopback addresses (127.0.1.1 on),
    /// as a crowd comes from many: the portal's limits per address (event streams, places in
    /// line) then see what they would see in production, not one address with every visitor.
    /// 0: every visitor from the system's choice, 127.0.0.1.
    pub fn from_addresses(
        bases: Vec<String>,
        sources: usize,
        sandbox: &str,
        patience: Duration,
    ) -> anyhow::Result<Self> {
        anyhow::ensure!(sources <= 250 * 254, "{sources} source addresses: 63,500 at most");
        // No redirects: the partner OAuth answer's Location carries the code.
        let client = |source: Option<std::net::IpAddr>| {
            reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(Duration::from_secs(30))
                .local_address(source)
                .build()
        };
        let sources: Vec<Option<std::net::IpAddr>> = match sources {
            0 => vec![None],
            n => (0..n).map(|k| Some(source_address(k))).collect(),
        };
        let mut origins = Vec::new();
        for source in sources {
            let http = client(source)?;
            origins.extend(bases.iter().map(|base| Origin { base: base.clone(), http: http.clone() }));
        }
        anyhow::ensure!(!origins.is_empty(), "no server to visit");
        Ok(Self {
            http: client(None)?,
            origins,
            sandbox: sandbox.trim_end_matches('/').to_string(),
            patience,
            timings: std::sync::Mutex::default(),
            refused: std::sync::atomic::AtomicUsize::new(0),
            server_errors: std::sync::Mutex::default(),
        })
    }

    /// Starts refused at the door since the last call.
    pub fn take_refused(&self) -> usize {
        self.refused.swap(0, std::sync::atomic::Ordering::Relaxed)
    }

    /// The 5xx answers received so far, by status.
    pub fn server_errors(&self) -> std::collections::BTreeMap<u16, usize> {
        self.server_errors.lock().map(|errors| errors.clone()).unwrap_or_default()
    }

    fn answered(&self, status: u16) {
        if (500..=599).contains(&status) {
            if let Ok(mut errors) = self.server_errors.lock() {
                *errors.entry(status).or_default() += 1;
            }
        }
    }

    /// The requests' times recorded since the last call.
    pub fn take_timings(&self) -> Vec<(String, Duration)> {
        self.timings.lock().map(|mut t| std::mem::take(&mut *t)).unwrap_or_default()
    }

    fn timed(&self, flow: &str, command: &Value, took: Duration) {
        self.timed_as(&format!("{flow}.{}", command["type"].as_str().unwrap_or("?")), took);
    }

    fn timed_as(&self, name: &str, took: Duration) {
        if let Ok(mut timings) = self.timings.lock() {
            timings.push((name.to_string(), took));
        }
    }

    /// Visitor `i` from the first page to where the journey ends.
    pub async fn run(&self, i: usize) -> anyhow::Result<Finish> {
        let journey = Journey::of(i);
        let base = &self.origins[i % self.origins.len()];
        let result = match journey {
            Journey::Activation(variant) => self.activation(base, journey, variant, i).await,
            Journey::Download(_) => self.download(base, journey, i).await,
            Journey::Cloud => self.cloud(base, journey, i).await,
        };
        result.with_context(|| format!("visitor {i} ({})", journey.label()))
    }

    async fn activation(
        &self,
        base: &Origin,
        journey: Journey,
        variant: &'static str,
        i: usize,
    ) -> anyhow::Result<Finish> {
        let national = journey.national(i);
        let phone = masked(&national);
        let attempt = match variant {
            "broadband" => self.back_from_partner_login(base, journey).await?,
            "partner_portal" => {
                let start = json!({ "type": "start", "variant": variant, "licenca": format!("PTL-{i:06}") });
                self.start(base, journey, start).await?
            }
            _ => self.start(base, journey, json!({ "type": "start", "variant": variant })).await?,
        };
        let form = if variant == "telecom" { "email" } else { "send_code" };
        let view = attempt.settle().await?;
        if !at(&view, form) {
            return Ok(attempt.finish(&view));
        }
        let submit = match variant {
            "telecom" => json!({ "type": "submit_email", "phone": phone, "email": format!("cliente{i}@exemplo.test") }),
            "carrier" => json!({ "type": "submit_phone", "phone": phone, "cpf_cnpj": CPF }),
            "broadband" | "partner_portal" => json!({ "type": "submit_phone", "phone": phone }),
            _ => json!({ "type": "submit_phone", "phone": phone, "licence": format!("EXA-{i:06}") }),
        };
        attempt.command(submit).await?;
        let view = attempt.settle().await?;
        if !at(&view, journey.code_panel()) {
            return Ok(attempt.finish(&view));
        }
        let codes = self.codes(&national).await?;
        let view = attempt
            .enter_code(&codes, |code| json!({ "type": "submit_code", "pincode": code, "terms_accepted": true }))
            .await?;
        // The page's last act: the store redirect, or a product of the list.
        let last = match variant {
            "carrier" => json!({ "type": "choose_product", "product": "seguranca", "platform": "android" }),
            _ => json!({ "type": "record_store_redirect", "platform": "android" }),
        };
        if at(&view, journey.normal_end()) {
            attempt.command(last).await?;
        }
        Ok(attempt.finish(&view))
    }

    /// The broadband partner's page: the landing attempt prepares the partner login, the
    /// visitor approves at the partner (the sandbox's OAuth page) and comes back, in the same
    /// browser, with `?code=&state=`, which opens the attempt the rest of the journey uses.
    /// A return whose start got no answer (the server went away mid-request, a failover) may
    /// have opened an attempt that spends the code and state, so sending it again would be a
    /// replayed return: the visitor signs in with the partner again, as after the page's error.
    /// So they do after that error itself: a server killed between the partner's answer to the
    /// code's exchange and keeping its token leaves a code the partner will not exchange twice
    /// (RFC 6749, 4.1.2), and the page offers the partner's log-in again.
    async fn back_from_partner_login<'a>(&'a self, base: &'a Origin, journey: Journey) -> anyhow::Result<Attempt<'a>> {
        let mut tries = 0;
        loop {
            tries += 1;
            match self.partner_login_once(base, journey).await {
                // No answer to the return: sign in with the partner again.
                Err(_) if tries < 3 => {}
                Ok(attempt) if tries < 3 && at_panel(&attempt.settle().await?, "partner_login") => {}
                done => return done,
            }
        }
    }

    async fn partner_login_once<'a>(&'a self, base: &'a Origin, journey: Journey) -> anyhow::Result<Attempt<'a>> {
        let return_url = format!("{base}/seguranca/ativarbrisanet");
        let landing = self
            .start(base, journey, json!({ "type": "start", "variant": "broadband", "return_url": return_url }))
            .await?;
        let view = landing.settle().await?;
        let login = view["partner_login_url"]
            .as_str()
            .with_context(|| format!("{}: no partner login at {view}", landing.id))?;
        let mut approve = reqwest::Url::parse(login)?;
        approve.set_path(&approve.path().replace("/authorize", "/approve"));
        approve.query_pairs_mut().append_pair("customer", "com-cobertura");
        let back = self
            .again(|| async {
                let answer = self.http.get(approve.clone()).send().await?;
                let location = answer.headers().get("location").and_then(|l| l.to_str().ok()).context("no redirect")?;
                let back = reqwest::Url::parse(location)?;
                let param = |name: &str| back.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
                Ok((
                    param("code").context("no code in the redirect")?,
                    param("state").context("no state in the redirect")?,
                ))
            })
            .await?;
        let (code, state) = back;
        let command = json!({ "type": "start", "variant": "broadband", "code": code, "state": state });
        self.start_in(Some(&landing.cookie), base, journey, command, Resend::Once).await
    }

    async fn download(&self, base: &Origin, journey: Journey, i: usize) -> anyhow::Result<Finish> {
        let national = journey.national(i);
        let attempt =
            self.start(base, journey, json!({ "type": "start", "os": "win_pc", "browser": "Chrome" })).await?;
        let view = attempt.settle().await?;
        if !at(&view, "phone_entry") {
            return Ok(attempt.finish(&view));
        }
        attempt.command(json!({ "type": "submit_phone", "phone": masked(&national) })).await?;
        let view = attempt.settle().await?;
        if !at(&view, journey.code_panel()) {
            return Ok(attempt.finish(&view));
        }
        let codes = self.codes(&national).await?;
        let mut view = attempt.enter_code(&codes, |code| json!({ "type": "submit_code", "code": code })).await?;
        if at(&view, "partner_choice") {
            let partner = view["partners"][0]["id"].as_str().context("no partner to choose")?.to_string();
            attempt.command(json!({ "type": "choose_partner", "partner_id": partner })).await?;
            view = attempt.settle().await?;
        }
        Ok(attempt.finish(&view))
    }

    async fn cloud(&self, base: &Origin, journey: Journey, i: usize) -> anyhow::Result<Finish> {
        let national = journey.national(i);
        let start = json!({ "type": "start", "phone": masked(&national), "serial": format!("PSN-{i:06}") });
        let attempt = self.start(base, journey, start).await?;
        let view = attempt.settle().await?;
        if !at(&view, journey.code_panel()) {
            return Ok(attempt.finish(&view));
        }
        let codes = self.codes(&national).await?;
        let view = attempt.enter_code(&codes, |code| json!({ "type": "submit_code", "code": code })).await?;
        Ok(attempt.finish(&view))
    }

    /// `POST /api/attempts`. Asked again while the server does not answer; a start whose
    /// answer was lost leaves an attempt nobody drives (the start has no idempotency key).
    async fn start<'a>(&'a self, base: &'a Origin, journey: Journey, command: Value) -> anyhow::Result<Attempt<'a>> {
        self.start_in(None, base, journey, command, Resend::UntilAnswered).await
    }

    /// [`Driver::start`] in the browser session of `cookie`.
    async fn start_in<'a>(
        &'a self,
        cookie: Option<&str>,
        base: &'a Origin,
        journey: Journey,
        command: Value,
        resend: Resend,
    ) -> anyhow::Result<Attempt<'a>> {
        let body = json!({ "flow": journey.flow(), "command": command });
        let arrived = Instant::now();
        // Past capacity the start is answered 503: the visitor waits in line as the page does
        // (the server's `Retry-After` plus up to half of it at random) and gives up after the
        // driver's patience.
        // The waiting line's ticket, kept from one try to the next as the browser keeps its cookie.
        let mut ticket: Option<String> = None;
        let (cookie, reply) = loop {
            let ticket_now = ticket.clone();
            let send = || async {
                let mut request = base.http.post(format!("{base}/api/attempts"));
                let cookies: Vec<&str> = cookie.into_iter().chain(ticket_now.as_deref()).collect();
                if !cookies.is_empty() {
                    request = request.header("cookie", cookies.join("; "));
                }
                if sends_code(journey.flow(), &command) {
                    request = request.header("x-altcha", self.proof(base).await?);
                }
                let sent = Instant::now();
                let answer = request.json(&body).send().await?;
                self.answered(answer.status().as_u16());
                if answer.status().as_u16() == 503 {
                    let after = answer
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.parse::<u64>().ok())
                        .unwrap_or(5);
                    self.timed_as("start refused (503)", sent.elapsed());
                    let line = set_cookie(&answer, LINE_COOKIE);
                    return Ok(Door::Wait(Duration::from_secs(after.max(1)), line));
                }
                if answer.status().as_u16() != 201 {
                    bail!("start answered {}", answer.status());
                }
                self.timed(journey.flow(), &command, sent.elapsed());
                let cookie = set_cookie(&answer, SESSION_COOKIE).context("no cookie")?;
                Ok(Door::Admitted(cookie, answer.json::<Value>().await?))
            };
            let door = match resend {
                Resend::UntilAnswered => self.again(&send).await?,
                Resend::Once => send().await?,
            };
            match door {
                Door::Admitted(cookie, reply) => break (cookie, reply),
                Door::Wait(after, line) => {
                    if line.is_some() {
                        ticket = line;
                    }
                    self.refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if arrived.elapsed() + after > self.patience {
                        bail!("{GAVE_UP_IN_LINE} after {:.1} s", arrived.elapsed().as_secs_f64());
                    }
                    let jitter = rand::random::<f64>() / 2.0;
                    tokio::time::sleep(after.mul_f64(1.0 + jitter)).await;
                }
            }
        };
        self.timed_as("arrival → admission", arrived.elapsed());
        let id = reply["id"].as_str().context("no attempt id")?.to_string();
        let version = std::sync::atomic::AtomicI64::new(reply["version"].as_i64().unwrap_or(0));
        Ok(Attempt { driver: self, base, journey, id, cookie, version, stream: tokio::sync::Mutex::new(None) })
    }

    /// A solved proof of work, as the browser sends with every command that sends a code.
    async fn proof(&self, base: &Origin) -> anyhow::Result<String> {
        let answer = base.http.get(format!("{base}/api/altcha/challenge")).send().await?;
        self.answered(answer.status().as_u16());
        let challenge: altcha::Challenge = answer.error_for_status()?.json().await?;
        orchestrator::abuse::proof::solve(&challenge).context("unsolvable challenge")
    }

    /// The codes the sandbox sent to the phone, newest first.
    async fn codes(&self, national: &str) -> anyhow::Result<Vec<String>> {
        let url = format!("{}/sms?to=55{national}", self.sandbox);
        self.again(|| async {
            let inbox: Value = self.http.get(&url).send().await?.error_for_status()?.json().await?;
            let mut codes: Vec<String> =
                inbox.as_array().into_iter().flatten().filter_map(|m| m["code"].as_str().map(str::to_string)).collect();
            let mut seen = HashSet::new();
            codes.retain(|c| seen.insert(c.clone()));
            if codes.is_empty() {
                bail!("no code in the inbox of {national}");
            }
            Ok(codes)
        })
        .await
    }

    /// `work` until it succeeds, for [`Driver::patience`] at most; the last error otherwise.
    async fn again<T, F, Fut>(&self, work: F) -> anyhow::Result<T>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = anyhow::Result<T>>,
    {
        let deadline = Instant::now() + self.patience;
        loop {
            match work().await {
                Ok(value) => return Ok(value),
                Err(error) if Instant::now() >= deadline => return Err(error),
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        }
    }
}

impl Attempt<'_> {
    /// A command, with one idempotency key on every try: asked again when the server does not
    /// answer, answers 5xx or 409 (busy); 422 (refused) is final.
    async fn command(&self, command: Value) -> anyhow::Result<Value> {
        let key = uuid::Uuid::new_v4().to_string();
        let url = format!("{}/api/attempts/{}/commands", self.base, self.id);
        // `Err` is asked again; `Ok(Err(refusal))` is final.
        let answer = self
            .driver
            .again(|| async {
                let mut request =
                    self.base.http.post(&url).header("cookie", &self.cookie).header("idempotency-key", &key);
                // A fresh proof on every try: a try that was not committed did not spend its own.
                if sends_code(self.journey.flow(), &command) {
                    request = request.header("x-altcha", self.driver.proof(self.base).await?);
                }
                let sent = Instant::now();
                let answer = request.json(&command).send().await?;
                let status = answer.status().as_u16();
                self.driver.answered(status);
                let body: Value = answer.json().await.unwrap_or(Value::Null);
                match status {
                    200 => {
                        self.driver.timed(self.journey.flow(), &command, sent.elapsed());
                        if let Some(version) = body["version"].as_i64() {
                            self.version.fetch_max(version, std::sync::atomic::Ordering::Relaxed);
                        }
                        Ok(Ok(body))
                    }
                    409 | 500..=599 => bail!("{} answered {status}: {body}", self.id),
                    _ => Ok(Err(format!("{}: {command} answered {status}: {body}", self.id))),
                }
            })
            .await?;
        answer.map_err(|refusal| anyhow!(refusal))
    }

    async fn view(&self) -> anyhow::Result<Value> {
        let url = format!("{}/api/attempts/{}", self.base, self.id);
        let answer = self.base.http.get(&url).header("cookie", &self.cookie).send().await?;
        self.driver.answered(answer.status().as_u16());
        let body: Value = answer.error_for_status()?.json().await?;
        Ok(body["view"].clone())
    }

    /// The view once no step runs, learnt as the page learns it: from the attempt's event
    /// stream. A stream that breaks (a killed server) or stays quiet for a second gives way
    /// to a look at the attempt, then a new stream; an error if a step still runs after
    /// [`Driver::patience`] (the step runner's budget is a minute a step).
    async fn settle(&self) -> anyhow::Result<Value> {
        let deadline = Instant::now() + self.driver.patience;
        loop {
            if let Ok(Some(view)) = self.follow_until_idle(Duration::from_secs(1)).await {
                return Ok(view);
            }
            let last = match self.view().await {
                Ok(view) if view[self.journey.busy_flag()] == false => return Ok(view),
                Ok(view) => view.to_string(),
                Err(error) => format!("{error:#}"),
            };
            if Instant::now() > deadline {
                bail!("{} stuck at {last}", self.id);
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    /// Reads the attempt's event stream (its first frame is the attempt as it stands, then one
    /// a change), opened on first use and kept open, until a frame at least as new as the last
    /// answer shows no step running; `None` when the stream ends or stays quiet for `quiet`
    /// (it is closed then, and opened again next time).
    async fn follow_until_idle(&self, quiet: Duration) -> anyhow::Result<Option<Value>> {
        let mut open = self.stream.lock().await;
        if open.is_none() {
            let url = format!("{}/api/attempts/{}/stream", self.base, self.id);
            let answer = self.base.http.get(&url).header("cookie", &self.cookie).send().await?;
            self.driver.answered(answer.status().as_u16());
            let answer = answer.error_for_status()?;
            *open = Some(Follow { answer, buffer: Vec::new() });
        }
        let newest = self.version.load(std::sync::atomic::Ordering::Relaxed);
        let found = match open.as_mut() {
            Some(follow) => follow.idle_frame(quiet, newest, self.journey.busy_flag()).await,
            None => Ok(None),
        };
        if !matches!(found, Ok(Some(_))) {
            *open = None;
        }
        found
    }

    /// Types the newest code; a page that says the code is wrong gets the next one (an attempt
    /// started twice, its first answer lost to a killed server, sends a code of its own).
    async fn enter_code(&self, codes: &[String], command: impl Fn(&str) -> Value) -> anyhow::Result<Value> {
        let mut view = Value::Null;
        for code in codes.iter().take(3) {
            self.command(command(code)).await?;
            view = self.settle().await?;
            if !(at_panel(&view, self.journey.code_panel()) && problem(&view).is_some()) {
                break;
            }
        }
        Ok(view)
    }

    fn finish(&self, view: &Value) -> Finish {
        Finish {
            journey: self.journey,
            id: self.id.clone(),
            panel: view["panel"].as_str().unwrap_or("?").to_string(),
            problem: problem(view),
        }
    }
}

impl Follow {
    /// The view of the first frame of version `newest` or later with `busy` false.
    async fn idle_frame(&mut self, quiet: Duration, newest: i64, busy: &str) -> anyhow::Result<Option<Value>> {
        loop {
            while let Some(end) = self.buffer.windows(2).position(|pair| pair == b"\n\n") {
                let frame: Vec<u8> = self.buffer.drain(..end + 2).collect();
                let frame = String::from_utf8(frame)?;
                let data: Vec<&str> = frame
                    .lines()
                    .filter_map(|line| line.strip_prefix("data:"))
                    .map(|d| d.strip_prefix(' ').unwrap_or(d))
                    .collect();
                // A keep-alive is a comment, with no data.
                if data.is_empty() {
                    continue;
                }
                let reply: Value = serde_json::from_str(&data.join("\n"))?;
                if reply["version"].as_i64().unwrap_or(0) >= newest && reply["view"][busy] == false {
                    return Ok(Some(reply["view"].clone()));
                }
            }
            let Ok(chunk) = tokio::time::timeout(quiet, self.answer.chunk()).await else {
                return Ok(None);
            };
            let Some(chunk) = chunk? else {
                return Ok(None);
            };
            self.buffer.extend_from_slice(&chunk);
        }
    }
}

/// The message a page shows: the activation and cloud banner, the download's code error or
/// snackbar.
fn problem(view: &Value) -> Option<String> {
    [&view["error"], &view["code_error"], &view["snackbar"]["message"]]
        .into_iter()
        .find_map(|v| v.as_str())
        .map(str::to_string)
}

fn at_panel(view: &Value, panel: &str) -> bool {
    view["panel"] == panel
}

/// On `panel` with nothing wrong shown.
fn at(view: &Value, panel: &str) -> bool {
    at_panel(view, panel) && problem(view).is_none()
}

/// `orchestrator serve` as a child process, on a port of its own, over `DATABASE_URL` and the
/// sandbox of `env`. Its output goes nowhere unless `SERVE_LOG` names a file (`SERVE_RUST_LOG`
/// sets its filter, `error` by default).
pub struct Server {
    pub child: Child,
    pub base: String,
    port: u16,
    binary: PathBuf,
    env: Vec<(String, String)>,
    _dist: tempfile::TempDir,
}

/// A database of its own, `<prefix>_<pid>`, on the server `server_url` names (through `admin`,
/// a pool on that server): its name and URL. The caller drops it.
pub async fn own_database(admin: &PgPool, server_url: &str, prefix: &str) -> anyhow::Result<(String, String)> {
    let name = format!("{prefix}_{}", std::process::id());
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(admin).await?;
    let (server, _) = server_url.rsplit_once('/').context("DATABASE_URL without a database")?;
    Ok((name.clone(), format!("{server}/{name}")))
}

pub fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The command line of `orchestrator serve` on `port`, its settings from `env`.
pub fn serve_command(binary: &Path, port: u16, dist: &Path, env: &[(String, String)]) -> Command {
    let mut command = Command::new(binary);
    command
        .arg("serve")
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .env("WEB_DIST", dist)
        .env("SANDBOX_MODE", "true")
        // SERVE_RUST_LOG: the servers' log filter when SERVE_LOG keeps their output.
        .env("RUST_LOG", std::env::var("SERVE_RUST_LOG").unwrap_or_else(|_| "error".into()))
        // Hundreds of codes a minute are this load's point, not pumping: lift the portal-wide
        // ceiling (the per-phone limits stay; every visitor has its own or a scenario phone).
        .env("LIMIT_SMS_PER_MINUTE", "1000000")
        // The generated phones are one block of 10,000 numbers: to the prefix breaker that is
        // pumping (issue 30).
        .env("LIMIT_SMS_PER_PREFIX_MINUTE", "1000000")
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let log = std::env::var_os("SERVE_LOG")
        .and_then(|path| std::fs::OpenOptions::new().create(true).append(true).open(path).ok());
    if let Some(log) = log {
        if let Ok(copy) = log.try_clone() {
            command.stdout(copy);
        }
        command.stderr(log);
    }
    command
}

impl Server {
    /// Starts it and waits until `/healthz` answers.
    pub async fn start(binary: &Path, env: &[(&str, &str)]) -> anyhow::Result<Self> {
        let dist = tempfile::tempdir()?;
        std::fs::write(dist.path().join("index.html"), "<!doctype html>")?;
        let env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let port = free_port()?;
        let child = serve_command(binary, port, dist.path(), &env)
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let server = Self {
            child,
            base: format!("http://127.0.0.1:{port}"),
            port,
            binary: binary.to_path_buf(),
            env,
            _dist: dist,
        };
        server.healthy().await?;
        Ok(server)
    }

    async fn healthy(&self) -> anyhow::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(60);
        while reqwest::get(format!("{}/healthz", self.base)).await.map(|r| r.status().is_success()).ok() != Some(true) {
            if Instant::now() > deadline {
                bail!("the server at {} did not come up", self.base);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(())
    }

    /// SIGKILL (what `Child::kill` sends on Unix): no shutdown of any kind, mid-step.
    pub fn kill(&mut self) -> anyhow::Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }

    /// Starts it again, same port and settings (its visitors keep their URLs).
    pub async fn restart(&mut self) -> anyhow::Result<()> {
        self.child = serve_command(&self.binary, self.port, self._dist.path(), &self.env).spawn()?;
        self.healthy().await
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What `/admin/subscriptions` holds: subscriptions, and how many repeat a phone (every
/// visitor has a phone of its own, so a second one is a double subscription).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subscriptions {
    pub total: usize,
    pub doubles: usize,
}

pub async fn subscriptions(sandbox: &str) -> anyhow::Result<Subscriptions> {
    let list: Value = reqwest::get(format!("{sandbox}/admin/subscriptions")).await?.error_for_status()?.json().await?;
    let list = list.as_array().context("subscriptions are a list")?;
    let phones: HashSet<&str> = list.iter().filter_map(|s| s["msisdn"].as_str()).collect();
    Ok(Subscriptions { total: list.len(), doubles: list.len() - phones.len() })
}

/// Steps that ran under more than one idempotency key, from the runner's `step.started` events:
/// `(stream, step, keys)`.
pub async fn steps_with_several_keys(db: &PgPool) -> anyhow::Result<Vec<(String, String, i64)>> {
    Ok(sqlx::query_as(
        "SELECT stream_id, payload->>'step', count(DISTINCT payload->>'idempotency_key') FROM events
         WHERE event_type = 'step.started' GROUP BY 1, 2 HAVING count(DISTINCT payload->>'idempotency_key') > 1",
    )
    .fetch_all(db)
    .await?)
}

/// The same from the sandbox's call log (the last 10,000 calls): a step's calls (keys
/// `<stream>:<step>:<version>`) that arrived under more than one key.
pub async fn upstream_steps_with_several_keys(sandbox: &str) -> anyhow::Result<Vec<String>> {
    let calls: Value = reqwest::get(format!("{sandbox}/admin/calls")).await?.error_for_status()?.json().await?;
    let mut keys: HashMap<String, HashSet<String>> = HashMap::new();
    for key in calls.as_array().into_iter().flatten().filter_map(|c| c["idempotency_key"].as_str()) {
        if let Some((step, _)) = key.rsplit_once(':') {
            keys.entry(step.to_string()).or_default().insert(key.to_string());
        }
    }
    let mut several: Vec<String> = keys.into_iter().filter(|(_, k)| k.len() > 1).map(|(step, _)| step).collect();
    several.sort();
    Ok(several)
}

/// How the runners shared the work, from the steps' events.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tries {
    /// Runners (across every process) that started a try.
    pub runners: i64,
    pub started: i64,
    /// Tries that failed and were retried later.
    pub failed: i64,
    pub gave_up: i64,
    /// A try after claims of its step that never reported: a take-over after a lease expired
    /// (a crash does this; without one it should not happen). A try that died wrote nothing
    /// (its `step.started` goes in with its result), so it shows as a gap in the claim numbers.
    pub taken_over: i64,
    /// A try's report written by another runner than the one that started it: two runners on
    /// one step at once. Never.
    pub crossed: i64,
}

pub async fn tries(db: &PgPool) -> anyhow::Result<Tries> {
    let (runners, started, failed, gave_up, taken_over, crossed): (i64, i64, i64, i64, i64, i64) = sqlx::query_as(
        "WITH steps AS (
             SELECT event_type, payload, metadata->>'actor' AS actor,
                    lag(event_type) OVER w AS previous_type, lag(metadata->>'actor') OVER w AS previous_actor,
                    coalesce((lag(payload->>'claim') OVER s)::int, 0) AS previous_claim
             FROM events WHERE event_type IN ('step.started', 'step.called', 'step.gave_up')
             WINDOW w AS (PARTITION BY stream_id ORDER BY version),
                    s AS (PARTITION BY stream_id, payload->>'step' ORDER BY version))
         SELECT count(DISTINCT actor) FILTER (WHERE event_type = 'step.started'),
                count(*) FILTER (WHERE event_type = 'step.started'),
                count(*) FILTER (WHERE event_type = 'step.called' AND payload ? 'kind'),
                count(*) FILTER (WHERE event_type = 'step.gave_up'),
                count(*) FILTER (WHERE event_type = 'step.started' AND (payload->>'claim')::int > previous_claim + 1),
                count(*) FILTER (WHERE event_type = 'step.called' AND previous_type = 'step.started' AND actor <> previous_actor)
         FROM steps",
    )
    .fetch_one(db)
    .await?;
    Ok(Tries { runners, started, failed, gave_up, taken_over, crossed })
}

/// Steps still due, and those due for longer than `budget` (stuck).
pub async fn due_steps(db: &PgPool, budget: Duration) -> anyhow::Result<(i64, i64)> {
    Ok(sqlx::query_as(
        "SELECT count(*), count(*) FILTER (WHERE due_at < now() - make_interval(secs => $1)) FROM due_steps",
    )
    .bind(budget.as_secs_f64())
    .fetch_one(db)
    .await?)
}

/// Per journey label and per flow: (visitors, normal ends).
pub fn tally(ends: &[(usize, Result<Finish, String>)]) -> Vec<(String, usize, usize)> {
    let mut rows: Vec<(String, usize, usize)> = Vec::new();
    let mut add = |name: String, normal: bool| match rows.iter_mut().find(|r| r.0 == name) {
        Some(row) => {
            row.1 += 1;
            row.2 += usize::from(normal);
        }
        None => rows.push((name, 1, usize::from(normal))),
    };
    for (i, end) in ends {
        let journey = Journey::of(*i);
        let normal = matches!(end, Ok(finish) if finish.normal());
        add(journey.flow().to_string(), normal);
        if journey.label() != journey.flow() {
            add(journey.label(), normal);
        }
    }
    rows.sort();
    rows
}
