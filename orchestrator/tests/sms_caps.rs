//! Issue 26: what one client may spend on codes, through the public API with the runner
//! sending codes through the sandbox (each test counts what reached the sandbox's SMS inbox):
//! codes per attempt and distinct phones per attempt ("Voltar" and a new phone, the download's
//! restart), per visitor session and per client address; a resend long after the typed send
//! still charged to the phone; anonymous start refusals counted, not appended to the log.

mod common;
#[path = "common/sends.rs"]
mod sends;

use common::flows::{Visitor, World};
use orchestrator::abuse::rules::Rule;
use orchestrator::config::ServeConfig;
use orchestrator::texts::{SMS_PER_ATTEMPT, SMS_PER_PHONE, SMS_PER_SESSION, STARTS_PER_IP};
use serde_json::{json, Value};
use sqlx::PgPool;

const SEED: u64 = 26;

async fn world(db: PgPool, configure: impl FnOnce(&mut ServeConfig)) -> World {
    World::serving_configured(db, SEED, configure).await
}

fn refused_by(answer: &(u16, Value), rule: Rule, message: &str) {
    assert_eq!(
        (answer.0, answer.1["rule"].as_str(), answer.1["message"].as_str()),
        (429, Some(rule.name()), Some(message)),
        "{answer:?}"
    );
}

/// `(11) 9777N-0000` and its MSISDN: numbers outside the sandbox's scenarios, so every limit
/// counts them, and the desktop flow does not find their user.
fn phone(n: u32) -> (String, String) {
    (format!("(11) 9777{n}-0000"), format!("55119777{n}0000"))
}

fn details(phone: &str) -> Value {
    json!({ "type": "submit_details", "phone": phone, "serial": "PSN-CAPS-1" })
}

async fn metrics(h: &World) -> String {
    h.http.get(h.app.admin_url("/metrics")).send().await.expect("metrics").text().await.expect("text")
}

/// A cloud attempt walked back to its details form ("Voltar") once its code was sent.
async fn back_to_details(h: &World, cloud: &Visitor) {
    h.settled_on(cloud, "code").await;
    assert_eq!(h.command(cloud, json!({ "type": "back" })).await.0, 200);
}

#[sqlx::test(migrations = "../migrations")]
async fn one_cloud_attempt_sends_codes_to_three_phones_at_most_through_voltar(db: PgPool) {
    let h = world(db, |_| {}).await;
    let cloud = h.started("cloud", json!({ "type": "start", "phone": phone(1).0, "serial": "PSN-CAPS-1" })).await;
    for n in [2, 3] {
        back_to_details(&h, &cloud).await;
        assert_eq!(h.command(&cloud, details(&phone(n).0)).await.0, 200, "phone {n}");
    }
    back_to_details(&h, &cloud).await;

    // A fourth number in the same attempt: refused before any upstream call.
    let fourth = h.command(&cloud, details(&phone(4).0)).await;
    refused_by(&fourth, Rule::SmsPhonesPerAttempt, SMS_PER_ATTEMPT);
    // A number the attempt already sent to is not a new phone.
    assert_eq!(h.command(&cloud, details(&phone(1).0)).await.0, 200);

    let sent = [h.codes_sent(&phone(1).1).await, h.codes_sent(&phone(2).1).await, h.codes_sent(&phone(3).1).await];
    assert_eq!((sent, h.codes_sent(&phone(4).1).await), ([2, 1, 1], 0));
    let recorded = h.refusals(&cloud).await;
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert_eq!(recorded[0]["rule"], "sms_phones_per_attempt");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_downloads_restart_sends_codes_to_three_phones_at_most(db: PgPool) {
    let h = world(db, |_| {}).await;
    let download = h.download().await;
    for n in [1, 2, 3] {
        let (typed, msisdn) = phone(n);
        assert_eq!(h.command(&download, json!({ "type": "submit_phone", "phone": typed })).await.0, 200, "{n}");
        h.settled_on(&download, "code_entry").await;
        let code = h.sms_code(&msisdn).await;
        assert_eq!(h.command(&download, json!({ "type": "submit_code", "code": code })).await.0, 200);
        // Not a scenario phone: the desktop flow finds no user, and offers to start again.
        h.settled_on(&download, "user_not_found").await;
        assert_eq!(h.command(&download, json!({ "type": "restart" })).await.0, 200);
        h.settled_on(&download, "phone_entry").await;
    }
    let fourth = h.command(&download, json!({ "type": "submit_phone", "phone": phone(4).0 })).await;
    refused_by(&fourth, Rule::SmsPhonesPerAttempt, SMS_PER_ATTEMPT);
    assert_eq!(h.codes_sent(&phone(4).1).await, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn one_attempt_sends_a_limited_number_of_codes_even_to_one_phone(db: PgPool) {
    let h = world(db, |config| {
        config.abuse.sms_per_attempt_day = 3;
        config.abuse.sms_per_phone_10min = 100;
        config.abuse.sms_per_phone_day = 100;
    })
    .await;
    let (typed, msisdn) = phone(1);
    let cloud = h.started("cloud", json!({ "type": "start", "phone": typed, "serial": "PSN-CAPS-1" })).await;
    for _ in 0..2 {
        back_to_details(&h, &cloud).await;
        assert_eq!(h.command(&cloud, details(&typed)).await.0, 200);
    }
    back_to_details(&h, &cloud).await;
    refused_by(&h.command(&cloud, details(&typed)).await, Rule::SmsPerAttempt, SMS_PER_ATTEMPT);
    assert_eq!(h.codes_sent(&msisdn).await, 3);
}

#[sqlx::test(migrations = "../migrations")]
async fn one_browser_session_sends_a_limited_number_of_codes_across_its_attempts(db: PgPool) {
    let h = world(db, |config| config.abuse.sms_per_session_hour = 3).await;
    let first = h.download().await;
    let start = json!({ "type": "start", "os": "win_pc", "browser": "Chrome" });
    let mut attempts = vec![first];
    for _ in 0..3 {
        let (status, visitor, body) = h.open_in(Some(&attempts[0].cookie), "download", start.clone()).await;
        assert_eq!(status, 201, "{body}");
        attempts.push(visitor.expect("same browser"));
    }
    assert!(attempts.iter().all(|a| a.cookie == attempts[0].cookie), "one session");
    for (n, attempt) in (1..).zip(&attempts[..3]) {
        assert_eq!(h.command(attempt, json!({ "type": "submit_phone", "phone": phone(n).0 })).await.0, 200);
    }
    let fourth = h.command(&attempts[3], json!({ "type": "submit_phone", "phone": phone(4).0 })).await;
    refused_by(&fourth, Rule::SmsPerSession, SMS_PER_SESSION);
    // Another browser is not charged for this one.
    let other = h.download().await;
    assert_eq!(h.command(&other, json!({ "type": "submit_phone", "phone": phone(4).0 })).await.0, 200);
    assert_eq!(h.codes_sent(&phone(4).1).await, 1);
}

/// A client behind the portal's proxy, by the address the proxy appends.
struct Client<'w> {
    h: &'w World,
    address: &'static str,
}

impl Client<'_> {
    /// A new download attempt (no cookie: a new session each time) and its first code.
    async fn send(&self, phone: &str) -> (u16, Value) {
        let start = json!({ "flow": "download", "command": { "type": "start", "os": "win_pc", "browser": "Chrome" } });
        let response = self
            .h
            .http
            .post(self.h.app.url("/api/attempts"))
            .header("x-forwarded-for", self.address)
            .json(&start)
            .send()
            .await
            .expect("start");
        assert_eq!(response.status().as_u16(), 201);
        let cookie = response.headers()["set-cookie"].to_str().expect("cookie").split(';').next().expect("cookie");
        let cookie = cookie.to_string();
        let id = response.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string();
        let response = self
            .h
            .http
            .post(self.h.app.url(&format!("/api/attempts/{id}/commands")))
            .header("x-forwarded-for", self.address)
            .header("cookie", cookie)
            .header("x-altcha", self.h.app.proof().await)
            .json(&json!({ "type": "submit_phone", "phone": phone }))
            .send()
            .await
            .expect("command");
        (response.status().as_u16(), response.json().await.expect("json"))
    }
}

/// Twelve area codes, one number in each: no prefix's burst limit is reached.
const SCRIPT_AREAS: [u32; 12] = [11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24];

/// The measure: a script sending codes to number after number tripped the portal-wide
/// limit and stopped every visitor's SMS. Its own caps now stop it first: here the portal sends
/// 8 codes a minute, one address 5 an hour; the script gets its 5, the other visitors theirs.
#[sqlx::test(migrations = "../migrations")]
async fn a_script_from_one_address_is_stopped_by_its_own_cap_before_the_portal_wide_ceiling(db: PgPool) {
    let h = world(db, |config| {
        config.abuse.sms_per_minute = 8;
        config.abuse.sms_per_ip_hour = Some(5);
        config.abuse.trusted_proxies = "127.0.0.0/8".parse().expect("trusted proxies");
    })
    .await;
    let script = Client { h: &h, address: "198.51.100.66" };
    let mut answers = Vec::new();
    for area in SCRIPT_AREAS {
        let (status, body) = script.send(&format!("({area}) 96000-1234")).await;
        answers.push((status, body["rule"].as_str().map(str::to_string)));
    }
    let through = answers.iter().filter(|(status, _)| *status == 200).count();
    let own_cap = answers.iter().filter(|(_, rule)| rule.as_deref() == Some("sms_per_ip")).count();
    assert_eq!((through, own_cap), (5, 7), "{answers:?}");
    let refused = script.send("(27) 96000-1234").await;
    refused_by(&refused, Rule::SmsPerIp, STARTS_PER_IP);

    for (address, area) in [("198.51.100.1", 31), ("198.51.100.2", 41), ("2001:db8:7::1", 51)] {
        let visitor = Client { h: &h, address };
        let answer = visitor.send(&format!("({area}) 96000-1234")).await;
        assert_eq!(answer.0, 200, "{address}: {answer:?}");
    }
    let mut delivered = 0;
    for area in SCRIPT_AREAS.into_iter().chain([27, 31, 41, 51]) {
        delivered += h.codes_sent(&format!("55{area}960001234")).await;
    }
    assert_eq!(delivered, 8, "five for the script, three for the others");
    assert!(metrics(&h).await.contains("exa_abuse_refusals_total{rule=\"sms_per_minute\"} 0"));
}

/// `abuse_attempt_phones` was purged a day after the typed send, so a later "Reenviar código"
/// was charged to the attempt, not to the phone it went to.
#[sqlx::test(migrations = "../migrations")]
async fn a_resend_a_day_after_the_typed_send_is_still_charged_to_the_phone(db: PgPool) {
    let h = world(db, |config| config.abuse.sms_per_phone_10min = 1).await;
    let (typed, msisdn) = phone(1);
    let cloud = h.started("cloud", json!({ "type": "start", "phone": typed, "serial": "PSN-CAPS-1" })).await;
    h.settled_on(&cloud, "code").await;
    // A day and an hour pass (as the limits' tables see it), and the periodic purge runs.
    sqlx::query("UPDATE abuse_hits SET at = at - interval '25 hours'").execute(&h.db).await.expect("hits");
    sqlx::query("UPDATE abuse_attempt_phones SET typed_at = typed_at - interval '25 hours'")
        .execute(&h.db)
        .await
        .expect("phones");
    orchestrator::abuse::gate::purge(&h.db).await.expect("purge");

    // The phone gets its one code of these ten minutes from another attempt.
    let download = h.download().await;
    assert_eq!(h.command(&download, json!({ "type": "submit_phone", "phone": typed })).await.0, 200);
    // The old attempt's resend goes to the same phone: refused by the phone's limit.
    let resend = h.command(&cloud, json!({ "type": "resend" })).await;
    refused_by(&resend, Rule::SmsPerPhone10Min, SMS_PER_PHONE);
    assert_eq!(h.codes_sent(&msisdn).await, 2);
}

async fn event_rows(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(db).await.expect("events")
}

/// 100 starts refused for a missing proof of work added 100 rows to the append-only log.
#[sqlx::test(migrations = "../migrations")]
async fn a_hundred_refused_starts_add_no_row_to_the_event_log_and_are_counted(db: PgPool) {
    let h = world(db, |_| {}).await;
    let before = event_rows(&h.db).await;
    let start = json!({ "flow": "cloud", "command": { "type": "start", "phone": phone(1).0, "serial": "PSN-CAPS-1" } });
    for _ in 0..100 {
        // A script's start with no proof of work.
        let response = h.http.post(h.app.url("/api/attempts")).json(&start).send().await.expect("start");
        assert_eq!(response.status().as_u16(), 403);
    }
    assert_eq!(event_rows(&h.db).await - before, 0, "no row for a refused start");
    let attempts: i64 = sqlx::query_scalar("SELECT count(*) FROM attempts").fetch_one(&h.db).await.expect("attempts");
    assert_eq!(attempts, 0);
    let page = metrics(&h).await;
    assert!(page.contains("exa_refused_starts_total{flow=\"cloud\",rule=\"proof_of_work\"} 100"), "{page}");
    assert!(page.contains("exa_abuse_refusals_total{rule=\"proof_of_work\"} 100"), "{page}");
    assert_eq!(h.codes_sent(&phone(1).1).await, 0);
}
