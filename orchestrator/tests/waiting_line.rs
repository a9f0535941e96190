//! Issue 30: past capacity, refused visitors wait in one line across replicas, first come,
//! first in, and each try tells them how many are ahead. Two portals on one database play two
//! replicas; each has one runner slot, which the test fills and frees to shut and open its door.

mod common;

use std::sync::Arc;
use std::time::Duration;

use orchestrator::admission::line::LineView;
use orchestrator::admission::pass::{now_ms, PassKey};
use orchestrator::admission::{InFlight, Line, Load};
use serde_json::Value;
use sqlx::PgPool;

struct Replica {
    app: common::TestApp,
    load: Arc<Load>,
    line: Arc<Line>,
    /// The key every replica signs the tickets' passes with.
    passes: PassKey,
}

impl Replica {
    /// A portal whose door reads only its one slot, with `configure` on its admission settings.
    async fn start(db: PgPool, configure: impl FnOnce(&mut orchestrator::config::AdmissionConfig)) -> Self {
        let mut parts = None;
        let app = common::spawn_app_admitting_with(
            db,
            |admission| {
                admission.admission_signals = "slots".into();
                configure(admission);
            },
            |state| {
                let passes = PassKey::new(state.vault.signing_key(orchestrator::admission::pass::SECRET_PURPOSE));
                parts = Some((state.admission.load.clone(), state.admission.line.clone(), passes));
            },
        )
        .await;
        let (load, line, passes) = parts.expect("the app's admission");
        load.add_slots(1);
        Self { app, load, line, passes }
    }

    /// Its one slot busy until the guard is dropped: the door shuts.
    fn fill(&self) -> InFlight {
        self.load.step_started()
    }

    /// Waits until this replica's sampler has seen the line as `seen` says.
    async fn sees(&self, what: &str, seen: impl Fn(&LineView) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !seen(&self.line.view()) {
            assert!(tokio::time::Instant::now() < deadline, "the sampler never saw {what}: {:?}", self.line.view());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A visitor's browser: the line's cookie, kept from one try to the next.
#[derive(Default)]
struct Visitor {
    ticket: Option<String>,
}

struct Answer {
    status: u16,
    retry_after: Option<String>,
    body: Value,
}

impl Visitor {
    async fn start(&mut self, at: &Replica) -> Answer {
        let mut request = at.app.client.post(at.app.url("/api/attempts")).json(&serde_json::json!({
            "flow": "download", "command": { "type": "start", "os": "win_pc", "browser": "Chrome" }
        }));
        if let Some(ticket) = &self.ticket {
            request = request.header("cookie", ticket);
        }
        let response = request.send().await.expect("start");
        for set in response.headers().get_all("set-cookie").iter().filter_map(|v| v.to_str().ok()) {
            let pair = set.split(';').next().unwrap_or_default();
            if let Some(value) = pair.strip_prefix("__Host-exa_line=") {
                self.ticket = (!value.is_empty()).then(|| pair.to_string());
            }
        }
        let status = response.status().as_u16();
        let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_string);
        Answer { status, retry_after, body: response.json().await.expect("json") }
    }

    /// The cookie's value: the ticket's token, with its pass when it has one.
    fn cookie(&self) -> &str {
        let ticket = self.ticket.as_deref().expect("a ticket");
        ticket.strip_prefix("__Host-exa_line=").expect("the line's cookie")
    }

    /// The ticket without its pass (a stale pass, or a cookie from before passes): looked up.
    fn drop_pass(&mut self) {
        let token = self.cookie().split('.').next().expect("a token").to_string();
        self.ticket = Some(format!("__Host-exa_line={token}"));
    }

    /// The ticket with a pass for `place` signed by `key`, fresh for another minute (so the
    /// test does not depend on how fast the machine is).
    fn pass_for(&mut self, key: &PassKey, place: i64) {
        let token = self.cookie().split('.').next().expect("a token").to_string();
        self.ticket = Some(format!("__Host-exa_line={}", key.sign(&token, place, now_ms() + 60_000)));
    }

    /// The place its pass names.
    fn place(&self) -> i64 {
        self.cookie().split('.').nth(1).and_then(|p| p.parse().ok()).expect("a pass with its place")
    }
}

/// How many statements the line ran for this replica's starts, from its `/metrics`.
async fn line_statements(at: &Replica) -> u64 {
    let page = at.app.client.get(at.app.admin_url("/metrics")).send().await.expect("metrics");
    let page = page.text().await.expect("text");
    let count = page.lines().find_map(|l| l.strip_prefix("exa_admission_line_statement_duration_seconds_count "));
    count.and_then(|c| c.trim().parse().ok()).expect("the line's statements on the page")
}

async fn tickets_in_line(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM waiting_line").fetch_one(db).await.expect("count the line")
}

#[sqlx::test(migrations = "../migrations")]
async fn two_replicas_share_one_line_first_come_first_in(db: PgPool) {
    let one = Replica::start(db.clone(), |a| a.admission_line_window = 1).await;
    let two = Replica::start(db.clone(), |a| a.admission_line_window = 1).await;
    let busy = [one.fill(), two.fill()];
    let (mut ana, mut bia, mut carol) = (Visitor::default(), Visitor::default(), Visitor::default());

    // Ana comes first, to the first replica: first in line.
    let first = ana.start(&one).await;
    // The line has not moved yet: ADMISSION_RETRY_AFTER_SECS.
    assert_eq!((first.status, first.retry_after.as_deref()), (503, Some("5")), "{}", first.body);
    assert_eq!(first.body["message"], orchestrator::texts::PAST_CAPACITY);
    assert_eq!(first.body["ahead"], 0);
    assert!(ana.ticket.is_some(), "a refused visitor holds a ticket");

    // Bia comes next, to the other replica: Ana is ahead of her.
    two.sees("Ana in line", |line| line.waiting() == 1).await;
    let anas_place = two.line.view().head;
    let second = bia.start(&two).await;
    assert_eq!((second.status, second.body["ahead"].as_u64()), (503, Some(1)), "{}", second.body);

    // Both doors open. Bia tries first, but Ana came first: Bia still waits, one ahead.
    drop(busy);
    let again = bia.start(&two).await;
    assert_eq!((again.status, again.body["ahead"].as_u64()), (503, Some(1)), "{}", again.body);

    // Ana goes in, through the replica she had not asked before; her ticket is done.
    let in_ = ana.start(&two).await;
    assert_eq!(in_.status, 201, "{}", in_.body);
    assert_eq!(ana.ticket, None, "the ticket's cookie is cleared once its holder is in");

    // Then Bia, at the head now, on either replica.
    one.sees("Bia at the head", |line| line.head > anas_place && line.waiting() == 1).await;
    assert_eq!(bia.start(&one).await.status, 201);

    // Nobody waits: a newcomer goes straight in, and the line holds nothing.
    one.sees("an empty line", |line| line.waiting() == 0).await;
    let straight = carol.start(&one).await;
    assert_eq!((straight.status, carol.ticket.as_deref()), (201, None), "{}", straight.body);
    assert_eq!(tickets_in_line(&db).await, 0);
    let metrics = one.app.client.get(one.app.admin_url("/metrics")).send().await.expect("metrics");
    let page = metrics.text().await.expect("text");
    assert!(page.contains("exa_admission_line_waiting 0"), "{page}");
    let page = two.app.client.get(two.app.admin_url("/metrics")).send().await.expect("metrics");
    let page = page.text().await.expect("text");
    assert!(page.contains("exa_admission_refusals_total{signal=\"line\"} 1"), "{page}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_ticket_nobody_carries_any_more_expires_and_the_line_moves_on(db: PgPool) {
    let portal = Replica::start(db.clone(), |a| a.admission_line_window = 1).await;
    let busy = portal.fill();
    let (mut ana, mut bia) = (Visitor::default(), Visitor::default());
    assert_eq!(ana.start(&portal).await.status, 503);
    portal.sees("Ana in line", |line| line.waiting() == 1).await;
    let anas_place = portal.line.view().head;
    assert_eq!(bia.start(&portal).await.body["ahead"], 1);

    // Ana closes the tab. Her ticket's time runs out (set here rather than waited for).
    sqlx::query("UPDATE waiting_line SET expires_at = now() WHERE place = (SELECT min(place) FROM waiting_line)")
        .execute(&db)
        .await
        .expect("Ana's ticket runs out");
    portal.sees("Bia at the head", |line| line.head > anas_place && line.waiting() == 1).await;
    // The sampler purges it (at the latest in the sample after the one that saw the head move).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while tickets_in_line(&db).await != 1 {
        assert!(tokio::time::Instant::now() < deadline, "the expired ticket was never purged");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let head = bia.start(&portal).await;
    assert_eq!((head.status, head.body["ahead"].as_u64()), (503, Some(0)), "the door is still shut: {}", head.body);
    drop(busy);
    let in_ = bia.start(&portal).await;
    assert_eq!(in_.status, 201, "{}", in_.body);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_full_line_gives_no_more_places(db: PgPool) {
    let portal = Replica::start(db.clone(), |a| a.admission_line_max = 2).await;
    let _busy = portal.fill();
    let mut visitors: Vec<Visitor> = (0..3).map(|_| Visitor::default()).collect();
    for (i, visitor) in visitors.iter_mut().take(2).enumerate() {
        assert_eq!(visitor.start(&portal).await.status, 503);
        portal.sees("the new ticket", |line| line.waiting() == i as u64 + 1).await;
    }
    let refused = visitors[2].start(&portal).await;
    assert_eq!((refused.status, refused.retry_after.as_deref()), (503, Some("10")), "{}", refused.body);
    assert_eq!(refused.body["message"], orchestrator::texts::PAST_CAPACITY);
    assert_eq!(refused.body.get("ahead"), None, "no place to tell");
    assert_eq!(visitors[2].ticket, None);
    assert_eq!(tickets_in_line(&db).await, 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_try_renews_its_ticket_only_when_its_end_is_near(db: PgPool) {
    let portal = Replica::start(db.clone(), |_| {}).await;
    let _busy = portal.fill();
    let mut ana = Visitor::default();
    assert_eq!(ana.start(&portal).await.status, 503);
    // The ticket's end (seconds since the epoch) and what was left of it then.
    let end = || async {
        let (end, left): (f64, f64) = sqlx::query_as(
            "SELECT EXTRACT(EPOCH FROM expires_at)::float8, EXTRACT(EPOCH FROM expires_at - now())::float8 FROM waiting_line",
        )
        .fetch_one(&db)
        .await
        .expect("Ana's ticket");
        (end, left)
    };
    let (first, left) = end().await;
    assert!((20.0..=25.0).contains(&left), "a new ticket lives 25 s: {left}");

    // Tried again with most of its time left, looked up (her pass aside): read, not written.
    ana.drop_pass();
    assert_eq!(ana.start(&portal).await.status, 503);
    assert_eq!(end().await.0, first, "renewed while 15 s or more were left");

    // Near its end (5 s left): the try gives it 25 s again.
    sqlx::query("UPDATE waiting_line SET expires_at = now() + interval '5 seconds'")
        .execute(&db)
        .await
        .expect("near its end");
    ana.drop_pass();
    assert_eq!(ana.start(&portal).await.body["ahead"], 0);
    let (_, renewed) = end().await;
    assert!(renewed > 20.0, "not renewed near its end: {renewed} s left");
}

#[sqlx::test(migrations = "../migrations")]
async fn one_client_address_holds_at_most_its_share_of_the_line(db: PgPool) {
    let portal = Replica::start(db.clone(), |a| a.admission_line_max_per_address = 2).await;
    let _busy = portal.fill();
    // Three browsers behind one address (the test's 127.0.0.1) while the door is shut.
    let mut browsers: Vec<Visitor> = (0..3).map(|_| Visitor::default()).collect();
    for browser in browsers.iter_mut().take(2) {
        let answer = browser.start(&portal).await;
        assert_eq!((answer.status, answer.body["ahead"].is_u64()), (503, true), "{}", answer.body);
    }
    let third = browsers[2].start(&portal).await;
    assert_eq!((third.status, third.retry_after.as_deref()), (503, Some("10")), "{}", third.body);
    assert_eq!(third.body["message"], orchestrator::texts::PAST_CAPACITY);
    assert_eq!((third.body.get("ahead"), browsers[2].ticket.as_deref()), (None, None), "no place for a third");
    assert_eq!(tickets_in_line(&db).await, 2);
    // The ones holding a ticket keep their places.
    assert_eq!(browsers[0].start(&portal).await.body["ahead"], 0);

    // The share is the address's: another address, and an unknown one, still get places.
    let share = |address: Option<&'static [u8]>| orchestrator::admission::tickets::Share { address, max: 2 };
    let lifetime = Duration::from_secs(25);
    let join = |token: &'static str, address| {
        let db = db.clone();
        async move { orchestrator::admission::tickets::join(&db, token, lifetime, share(address)).await.expect("join") }
    };
    assert!(join("other-1", Some(b"another address")).await.is_some());
    assert!(join("other-2", Some(b"another address")).await.is_some());
    assert_eq!(join("other-3", Some(b"another address")).await, None, "its share is full too");
    assert!(join("unknown", None).await.is_some(), "an address not known counts against no share");
    // An expired ticket is no longer the address's.
    sqlx::query("UPDATE waiting_line SET expires_at = now() - interval '1 second' WHERE ticket = sha256('other-1')")
        .execute(&db)
        .await
        .expect("expire one");
    assert!(join("other-4", Some(b"another address")).await.is_some());
}

/// The line is soft state (migration 0042): joining it or renewing a ticket writes no WAL and
/// its commit waits for no flush, so a refusal stays fast while admitted commands commit.
#[sqlx::test(migrations = "../migrations")]
async fn the_line_and_its_places_write_no_wal(db: PgPool) {
    let persistence: Vec<(String, String)> = sqlx::query_as(
        "SELECT c.relname::text, c.relpersistence::text FROM pg_class c
          WHERE c.relname IN ('waiting_line', 'waiting_line_place_seq') ORDER BY c.relname",
    )
    .fetch_all(&db)
    .await
    .expect("the line's relations");
    let unlogged = |name: &str| (name.to_string(), "u".to_string());
    assert_eq!(persistence, vec![unlogged("waiting_line"), unlogged("waiting_line_place_seq")]);
}

/// An open door lets new attempts in at its pace, not all at once (admission/pace.rs): paced
/// at one a second, five newcomers at the same moment cannot all go in; the ones held back get
/// a place in line, counted as refused by `pace`. The bound is the bucket's (one entry, then
/// one a second), measured against the time the starts took, so a slow machine loosens the
/// check instead of failing it.
#[sqlx::test(migrations = "../migrations")]
async fn an_open_door_lets_newcomers_in_at_its_pace_and_the_rest_wait_in_line(db: PgPool) {
    let portal = Replica::start(db.clone(), |a| a.admission_pace_max_per_sec = 1).await;
    let mut visitors: Vec<Visitor> = (0..5).map(|_| Visitor::default()).collect();
    let began = std::time::Instant::now();
    let answers = futures::future::join_all(visitors.iter_mut().map(|v| v.start(&portal))).await;
    let took = began.elapsed();

    let went_in = answers.iter().filter(|a| a.status == 201).count();
    let allowed = 1 + took.as_secs() as usize;
    assert!(went_in >= 1, "the first goes in: {:?}", answers.iter().map(|a| a.status).collect::<Vec<_>>());
    assert!(went_in <= allowed, "{went_in} went in within {took:?}: at most {allowed} at one a second");
    let held: Vec<&Answer> = answers.iter().filter(|a| a.status != 201).collect();
    for answer in &held {
        assert_eq!(answer.status, 503, "{}", answer.body);
        assert_eq!(answer.body["message"], orchestrator::texts::PAST_CAPACITY);
        assert!(answer.body["ahead"].is_u64(), "a place in line: {}", answer.body);
    }
    assert_eq!(visitors.iter().filter(|v| v.ticket.is_some()).count(), held.len(), "each held back holds a ticket");
    let page = portal.app.client.get(portal.app.admin_url("/metrics")).send().await.expect("metrics");
    let page = page.text().await.expect("text");
    let counted = format!("exa_admission_refusals_total{{signal=\"pace\"}} {}", held.len());
    assert!(page.contains(&counted), "{counted} in {page}");
    assert!(page.contains("exa_admission_pace_per_second "), "{page}");
}

/// Past capacity every pooled connection is busy with the admitted attempts' work, by design: a
/// refused start still gets its place in line at once, on the line's own connections
/// (`ADMISSION_LINE_CONNECTIONS`). Without them it waits its turn for a pooled connection, and
/// past the line's time-out is refused with no place at all.
#[sqlx::test(migrations = "../migrations")]
async fn a_refusal_gets_its_place_in_line_while_every_pooled_connection_is_busy(db: PgPool) {
    async fn refused_while_the_pool_is_busy(db: &PgPool, line_connections: u32) -> (Answer, Visitor) {
        let options = db.connect_options().as_ref().clone();
        let pool = sqlx::postgres::PgPoolOptions::new().max_connections(2).connect_with(options).await.expect("pool");
        let portal = Replica::start(pool.clone(), |a| a.admission_line_connections = line_connections).await;
        let _slot = portal.fill();
        let busy = [pool.acquire().await.expect("one"), pool.acquire().await.expect("two")];
        let mut visitor = Visitor::default();
        let answer = visitor.start(&portal).await;
        drop(busy);
        (answer, visitor)
    }

    let (answer, visitor) = refused_while_the_pool_is_busy(&db, 2).await;
    assert_eq!(answer.status, 503, "{}", answer.body);
    assert_eq!(answer.body["ahead"], 0, "a place in line: {}", answer.body);
    assert!(visitor.ticket.is_some());
    assert_eq!(tickets_in_line(&db).await, 1);

    let (answer, visitor) = refused_while_the_pool_is_busy(&db, 0).await;
    assert_eq!(answer.status, 503, "{}", answer.body);
    assert!(answer.body["ahead"].is_null(), "no place: the line could not be asked in time: {}", answer.body);
    assert!(visitor.ticket.is_none());
    assert_eq!(tickets_in_line(&db).await, 1);
}

/// Past capacity most refused starts are holders asking again whether it is their turn. A fresh
/// pass in the ticket's cookie (admission/pass.rs) answers them with no statement on the line
/// while their place is not at the door; a pass that was changed is no pass, and the ticket is
/// looked up.
#[sqlx::test(migrations = "../migrations")]
async fn a_fresh_pass_answers_a_holder_without_the_line_and_a_changed_one_is_looked_up(db: PgPool) {
    let portal = Replica::start(db.clone(), |a| a.admission_line_window = 1).await;
    let _busy = portal.fill();
    let (mut ana, mut bia) = (Visitor::default(), Visitor::default());
    assert_eq!(ana.start(&portal).await.body["ahead"], 0);
    portal.sees("Ana in line", |line| line.waiting() == 1).await;
    assert_eq!(bia.start(&portal).await.body["ahead"], 1);
    portal.sees("Bia in line", |line| line.waiting() == 2).await;
    assert_eq!(line_statements(&portal).await, 2, "each joined with one statement");

    // Bia asks again, and again: one ahead, from her pass and the line as the sampler sees it.
    bia.pass_for(&portal.passes, bia.place());
    for _ in 0..3 {
        let again = bia.start(&portal).await;
        assert_eq!((again.status, again.body["ahead"].as_u64()), (503, Some(1)), "{}", again.body);
    }
    assert_eq!(line_statements(&portal).await, 2, "no statement for a fresh pass");

    // Bia's pass, changed to Ana's place: no pass. Her ticket is looked up, and she is still
    // second (her cookie comes back with her own place).
    let (bias_place, anas_place) = (bia.place(), ana.place());
    let forged = bia.cookie().replacen(&format!(".{bias_place}."), &format!(".{anas_place}."), 1);
    bia.ticket = Some(format!("__Host-exa_line={forged}"));
    let looked_up = bia.start(&portal).await;
    assert_eq!((looked_up.status, looked_up.body["ahead"].as_u64()), (503, Some(1)), "{}", looked_up.body);
    assert_eq!(line_statements(&portal).await, 3);
    assert_eq!(bia.place(), bias_place);
    assert_eq!(tickets_in_line(&db).await, 2);
}

/// A holder at the head of the line, with a fresh pass, while the open door's pace lets nobody
/// more in (one a second, taken by the newcomer before her): refused by the pace with no
/// statement on the line. Past the pace's second a token may be back, and then she is looked up
/// and goes in instead.
#[sqlx::test(migrations = "../migrations")]
async fn a_fresh_pass_held_back_by_the_pace_is_answered_without_the_line(db: PgPool) {
    let portal = Replica::start(db.clone(), |a| a.admission_pace_max_per_sec = 1).await;
    let (mut first, mut ana) = (Visitor::default(), Visitor::default());
    let began = std::time::Instant::now();
    assert_eq!(first.start(&portal).await.status, 201, "the pace's one entry");
    let held = ana.start(&portal).await;
    assert_eq!((held.status, held.body["ahead"].as_u64()), (503, Some(0)), "{}", held.body);
    assert_eq!(line_statements(&portal).await, 1, "she joined");

    let again = ana.start(&portal).await;
    // Within the pace's second no token can be back; after it, one is back once a second has
    // passed since the pacer took the first (some time after `began`), so either answer fits.
    let within_the_second = began.elapsed() < Duration::from_secs(1);
    match (again.status, line_statements(&portal).await) {
        (503, statements) => {
            assert_eq!(again.body["ahead"].as_u64(), Some(0), "{}", again.body);
            assert_eq!(statements, 1, "answered from her pass");
        }
        (201, statements) => {
            assert!(!within_the_second, "no token is back within the pace's second: {}", again.body);
            assert_eq!(statements, 2, "looked up, then in");
        }
        (status, _) => panic!("neither held back nor let in: {status} {}", again.body),
    }
}
