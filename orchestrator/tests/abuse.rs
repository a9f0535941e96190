//! Issue 17: the abuse limits through the public API, with the runner sending codes through
//! the sandbox. Each test counts what reached the sandbox's SMS inbox, not only what the API
//! answered.

mod common;
#[path = "common/sends.rs"]
mod sends;

use std::time::Duration;

use common::flows::{Visitor, World};
use orchestrator::abuse::rules;
use orchestrator::config::ServeConfig;
use serde_json::{json, Value};
use sqlx::PgPool;

const SEED: u64 = 17;

/// Not one of the sandbox's scenario phones: limited even in sandbox mode.
const PHONE: &str = "(11) 97777-1234";
const MSISDN: &str = "5511977771234";

async fn world(db: PgPool, configure: impl FnOnce(&mut ServeConfig)) -> World {
    World::serving_configured(db, SEED, configure).await
}

impl World {
    /// A standard activation on its send-code panel.
    async fn activation(&self) -> Visitor {
        let visitor = self.started("activation", json!({ "type": "start", "variant": "standard" })).await;
        self.wait(&visitor, Duration::from_secs(30), |view| view["panel"] == "send_code" && view["busy"] == false)
            .await;
        visitor
    }

    /// A command as a script sends it: with a header of its choosing instead of a solved proof.
    async fn command_with_proof(&self, visitor: &Visitor, command: Value, proof: Option<&str>) -> (u16, Value) {
        let mut request = self
            .http
            .post(self.app.url(&format!("/api/attempts/{}/commands", visitor.id)))
            .header("cookie", &visitor.cookie)
            .header("idempotency-key", uuid::Uuid::new_v4().to_string());
        if let Some(proof) = proof {
            request = request.header("x-altcha", proof);
        }
        let response = request.json(&command).send().await.expect("command");
        (response.status().as_u16(), response.json().await.expect("json"))
    }
}

fn refused_by(answer: &(u16, Value), status: u16, rule: rules::Rule, message: &str) {
    assert_eq!(
        (answer.0, answer.1["rule"].as_str(), answer.1["message"].as_str()),
        (status, Some(rule.name()), Some(message)),
        "{answer:?}"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_phone_gets_five_codes_in_ten_minutes_across_flows_attempts_and_voltar(db: PgPool) {
    let h = world(db, |_| {}).await;
    // 1: a desktop download.
    let download = h.download().await;
    assert_eq!(h.command(&download, json!({ "type": "submit_phone", "phone": PHONE })).await.0, 200);
    // 2: an activation.
    let activation = h.activation().await;
    let submit = json!({ "type": "submit_phone", "phone": PHONE, "licence": "EXA-ABUSE-1" });
    assert_eq!(h.command(&activation, submit).await.0, 200);
    // 3: a cloud activation's start, then 4 and 5: "Voltar" and the same details again.
    let cloud = h.started("cloud", json!({ "type": "start", "phone": PHONE, "serial": "PSN-ABUSE-1" })).await;
    for _ in 0..2 {
        h.settled_on(&cloud, "code").await;
        assert_eq!(h.command(&cloud, json!({ "type": "back" })).await.0, 200);
        let details = json!({ "type": "submit_details", "phone": PHONE, "serial": "PSN-ABUSE-1" });
        assert_eq!(h.command(&cloud, details).await.0, 200);
    }
    h.settled_on(&cloud, "code").await;
    // 6: "Voltar" once more, and any flow, is refused before an upstream call.
    assert_eq!(h.command(&cloud, json!({ "type": "back" })).await.0, 200);
    let again = h.command(&cloud, json!({ "type": "submit_details", "phone": PHONE, "serial": "PSN-ABUSE-1" })).await;
    refused_by(&again, 429, rules::Rule::SmsPerPhone10Min, orchestrator::texts::SMS_PER_PHONE);
    let another = h.download().await;
    let refused = h.command(&another, json!({ "type": "submit_phone", "phone": "11977771234" })).await;
    refused_by(&refused, 429, rules::Rule::SmsPerPhone10Min, orchestrator::texts::SMS_PER_PHONE);

    assert_eq!(h.codes_sent(MSISDN).await, 5, "five codes reached the phone");
    let recorded = h.refusals(&another).await;
    assert_eq!((recorded.len(), recorded[0]["rule"].as_str()), (1, Some("sms_per_phone_10min")), "{recorded:?}");
    assert!(recorded[0]["retry_after_secs"].as_u64().is_some_and(|s| s > 0 && s <= 600), "{recorded:?}");
    let text = serde_json::to_string(&recorded).expect("json");
    assert!(!text.contains("97777"), "the refusal names no phone: {text}");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_day_limit_holds_once_the_ten_minute_window_has_passed(db: PgPool) {
    let h = world(db, |_| {}).await;
    // Eight codes sent to the phone over the last hours (as the counter records them), two now.
    let vault = events::pii::Vault::new(h.db.clone(), events::pii::Keys::insecure_dev());
    let key = vault.tag("abuse:phone", &events::flow::national_digits(PHONE));
    for rule in ["sms_per_phone_10min", "sms_per_phone_day"] {
        sqlx::query("INSERT INTO abuse_hits (rule, key, at) SELECT $1, $2, now() - make_interval(hours => n) FROM generate_series(1, 8) n")
            .bind(rule)
            .bind(&key)
            .execute(&h.db)
            .await
            .expect("earlier sends");
    }
    for _ in 0..2 {
        let visitor = h.download().await;
        assert_eq!(h.command(&visitor, json!({ "type": "submit_phone", "phone": PHONE })).await.0, 200);
    }
    let visitor = h.download().await;
    let refused = h.command(&visitor, json!({ "type": "submit_phone", "phone": PHONE })).await;
    refused_by(&refused, 429, rules::Rule::SmsPerPhoneDay, orchestrator::texts::SMS_PER_DAY);
    assert_eq!(h.codes_sent(MSISDN).await, 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn two_replicas_share_one_count(db: PgPool) {
    let h = world(db.clone(), |_| {}).await;
    let (replica, _) = common::spawn_app_configured(db, &h.sandbox.base_url(), |_| {}).await;
    // Ten visitors, alternating between the replicas, all at once.
    let mut sends = Vec::new();
    for i in 0..10 {
        let visitor = h.download().await;
        let base = if i % 2 == 0 { h.app.url("") } else { replica.url("") };
        let proof = common::solved_proof(&h.http, &base).await;
        let request = h
            .http
            .post(format!("{base}/api/attempts/{}/commands", visitor.id))
            .header("cookie", visitor.cookie.clone())
            .header("x-altcha", proof)
            .json(&json!({ "type": "submit_phone", "phone": PHONE }));
        sends.push(tokio::spawn(async move { request.send().await.expect("send").status().as_u16() }));
    }
    let mut statuses = Vec::new();
    for send in sends {
        statuses.push(send.await.expect("task"));
    }
    statuses.sort();
    assert_eq!(statuses, [200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    assert_eq!(h.codes_sent(MSISDN).await, 5);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_code_send_without_a_valid_unused_proof_of_work_is_refused(db: PgPool) {
    let h = world(db, |_| {}).await;
    let visitor = h.download().await;
    let submit = json!({ "type": "submit_phone", "phone": PHONE });
    let missing = h.command_with_proof(&visitor, submit.clone(), None).await;
    refused_by(&missing, 403, rules::Rule::ProofOfWork, orchestrator::texts::PROOF_MISSING);
    let forged = h.command_with_proof(&visitor, submit.clone(), Some("eyJjaGFsbGVuZ2UiOnt9fQ==")).await;
    refused_by(&forged, 403, rules::Rule::ProofOfWork, orchestrator::texts::PROOF_MISSING);
    let proof = h.app.proof().await;
    assert_eq!(h.command_with_proof(&visitor, submit, Some(&proof)).await.0, 200);
    // The same solution again, on another attempt: spent.
    let other = h.download().await;
    let replayed =
        h.command_with_proof(&other, json!({ "type": "submit_phone", "phone": "(11) 97777-9999" }), Some(&proof)).await;
    refused_by(&replayed, 403, rules::Rule::ProofOfWork, orchestrator::texts::PROOF_MISSING);
    assert_eq!(h.refusals(&visitor).await.len(), 2, "both refusals are in the attempt");
    assert_eq!(h.codes_sent(MSISDN).await, 1);
    assert_eq!(h.codes_sent("5511977779999").await, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_sandbox_scenario_phones_are_exempt_in_sandbox_mode_only(db: PgPool) {
    let scenario = "(11) 91000-0001";
    let h = world(db.clone(), |_| {}).await;
    for _ in 0..7 {
        let visitor = h.download().await;
        assert_eq!(h.command(&visitor, json!({ "type": "submit_phone", "phone": scenario })).await.0, 200);
    }
    assert_eq!(h.codes_sent("5511910000001").await, 7);

    let (production, _) = common::spawn_app_configured(db, &h.sandbox.base_url(), |config| {
        config.site.sandbox_mode = false;
        // Outside sandbox mode the keys must be set (the same as the other server's here).
        let (kek, hmac) = events::pii::Keys::insecure_dev().to_hex();
        config.keys.pii_kek_hex = Some(secrecy::SecretString::from(kek));
        config.keys.pii_hmac_hex = Some(secrecy::SecretString::from(hmac));
        // One address runs this test: the per-address start limit would be production's 20.
        config.abuse.starts_per_ip_10min = Some(0);
    })
    .await;
    // Outside sandbox mode the same phone is limited like any other.
    let send = || async {
        let start = json!({ "flow": "download", "command": { "type": "start", "os": "win_pc", "browser": "Chrome" } });
        let response = h.http.post(production.url("/api/attempts")).json(&start).send().await.expect("start");
        let cookie =
            response.headers()["set-cookie"].to_str().expect("cookie").split(';').next().expect("cookie").to_string();
        let id = response.json::<Value>().await.expect("json")["id"].as_str().expect("id").to_string();
        let refused = h
            .http
            .post(production.url(&format!("/api/attempts/{id}/commands")))
            .header("cookie", cookie)
            .header("x-altcha", production.proof().await)
            .json(&json!({ "type": "submit_phone", "phone": scenario }))
            .send()
            .await
            .expect("command");
        (refused.status().as_u16(), refused.json::<Value>().await.expect("json"))
    };
    for _ in 0..5 {
        assert_eq!(send().await.0, 200);
    }
    refused_by(&send().await, 429, rules::Rule::SmsPerPhone10Min, orchestrator::texts::SMS_PER_PHONE);
}

#[sqlx::test(migrations = "../migrations")]
async fn attempt_starts_are_limited_per_client_address_behind_a_trusted_proxy(db: PgPool) {
    let h = world(db, |config| {
        config.abuse.starts_per_ip_10min = Some(3);
        config.abuse.trusted_proxies = "127.0.0.0/8".parse().expect("trusted proxies");
    })
    .await;
    let start = json!({ "flow": "download", "command": { "type": "start", "os": "win_pc", "browser": "Chrome" } });
    let from = |address: &str| {
        h.http
            .post(h.app.url("/api/attempts"))
            .header("x-forwarded-for", format!("6.6.6.6, {address}"))
            .json(&start)
            .send()
    };
    for _ in 0..3 {
        assert_eq!(from("198.51.100.7").await.expect("start").status().as_u16(), 201);
    }
    let refused = from("198.51.100.7").await.expect("start");
    assert!(refused.headers().contains_key("retry-after"));
    let answer = (refused.status().as_u16(), refused.json::<Value>().await.expect("json"));
    refused_by(&answer, 429, rules::Rule::StartsPerIp, orchestrator::texts::STARTS_PER_IP);
    // Another client behind the same proxy (a forged left-hand entry changes nothing).
    assert_eq!(from("198.51.100.8").await.expect("start").status().as_u16(), 201);
    // Issue 26: a refused start is counted, not recorded as an event.
    let recorded: i64 = sqlx::query_scalar("SELECT count(*) FROM events WHERE event_type = 'abuse.limited'")
        .fetch_one(&h.db)
        .await
        .expect("refused starts");
    assert_eq!(recorded, 0, "no event for the refused start");
    let metrics = h.http.get(h.app.admin_url("/metrics")).send().await.expect("metrics").text().await.expect("text");
    assert!(metrics.contains("exa_refused_starts_total{flow=\"download\",rule=\"starts_per_ip\"} 1"), "{metrics}");
}

/// Issue 26: `TRUSTED_PROXY_HOPS` believed `X-Forwarded-For` from any peer, so a client that
/// reached the portal without the proxy chose its own address with each request. The header is
/// now read only from a peer in `TRUSTED_PROXIES`.
#[sqlx::test(migrations = "../migrations")]
async fn a_forwarded_for_from_an_untrusted_peer_is_ignored(db: PgPool) {
    let h = world(db, |config| {
        config.abuse.starts_per_ip_10min = Some(2);
        // The proxies are elsewhere: this test's loopback peer is not one of them.
        config.abuse.trusted_proxies = "10.0.0.0/8, 2001:db8:ffff::/48".parse().expect("trusted proxies");
    })
    .await;
    let start = json!({ "flow": "download", "command": { "type": "start", "os": "win_pc", "browser": "Chrome" } });
    let from = |address: &str| {
        h.http.post(h.app.url("/api/attempts")).header("x-forwarded-for", address.to_string()).json(&start).send()
    };
    assert_eq!(from("198.51.100.1").await.expect("start").status().as_u16(), 201);
    assert_eq!(from("198.51.100.2").await.expect("start").status().as_u16(), 201);
    let refused = from("198.51.100.3").await.expect("start");
    let answer = (refused.status().as_u16(), refused.json::<Value>().await.expect("json"));
    refused_by(&answer, 429, rules::Rule::StartsPerIp, orchestrator::texts::STARTS_PER_IP);
}

/// Issue 26: an IPv6 client holds a whole /64 and took a fresh start quota with each of its
/// addresses. Per-address limits now count a /64 as one address.
#[sqlx::test(migrations = "../migrations")]
async fn an_ipv6_client_cannot_escape_the_start_limit_by_changing_address_within_its_64(db: PgPool) {
    let h = world(db, |config| {
        config.abuse.starts_per_ip_10min = Some(3);
        config.abuse.trusted_proxies = "127.0.0.0/8".parse().expect("trusted proxies");
    })
    .await;
    let start = json!({ "flow": "download", "command": { "type": "start", "os": "win_pc", "browser": "Chrome" } });
    let from = |address: &str| {
        h.http.post(h.app.url("/api/attempts")).header("x-forwarded-for", address.to_string()).json(&start).send()
    };
    for address in ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:3"] {
        assert_eq!(from(address).await.expect("start").status().as_u16(), 201, "{address}");
    }
    let refused = from("2001:db8:1:2::4").await.expect("start");
    let answer = (refused.status().as_u16(), refused.json::<Value>().await.expect("json"));
    refused_by(&answer, 429, rules::Rule::StartsPerIp, orchestrator::texts::STARTS_PER_IP);
    assert_eq!(from("2001:db8:1:3::1").await.expect("start").status().as_u16(), 201, "another /64");
}

#[sqlx::test(migrations = "../migrations")]
async fn partner_log_ins_are_limited_per_email(db: PgPool) {
    let h = world(db, |config| config.abuse.partner_logins_per_email_hour = 2).await;
    let log_in =
        |phone: &'static str| json!({ "type": "submit_email", "phone": phone, "email": "Alguem@Exemplo.com " });
    for phone in ["(11) 97777-0001", "(11) 97777-0002"] {
        let visitor = h.started("activation", json!({ "type": "start", "variant": "telecom" })).await;
        h.wait(&visitor, Duration::from_secs(30), |view| view["panel"] == "email" && view["busy"] == false).await;
        assert_eq!(h.command(&visitor, log_in(phone)).await.0, 200);
    }
    let visitor = h.started("activation", json!({ "type": "start", "variant": "telecom" })).await;
    h.wait(&visitor, Duration::from_secs(30), |view| view["panel"] == "email" && view["busy"] == false).await;
    let refused = h
        .command(&visitor, json!({ "type": "submit_email", "phone": "(11) 97777-0003", "email": "alguem@exemplo.com" }))
        .await;
    refused_by(&refused, 429, rules::Rule::PartnerLoginsPerEmail, orchestrator::texts::PARTNER_LOGINS);
    h.idle().await;
    let logins = h.calls("hero.login").await.len();
    assert_eq!(logins, 2, "the partner was asked twice");
}

/// Issue 30: the portal-wide ceiling is a rate; reaching it refuses the send with a short
/// `Retry-After` and opens no breaker (a partner's campaign is not an attack).
#[sqlx::test(migrations = "../migrations")]
async fn the_portal_wide_ceiling_refuses_past_its_rate_without_opening_a_breaker(db: PgPool) {
    let h = world(db, |config| config.abuse.sms_per_minute = 3).await;
    for area in ["11", "21", "31"] {
        let visitor = h.download().await;
        let phone = format!("({area}) 97777-1000");
        assert_eq!(h.command(&visitor, json!({ "type": "submit_phone", "phone": phone })).await.0, 200);
    }
    let visitor = h.download().await;
    let full = h.command(&visitor, json!({ "type": "submit_phone", "phone": "(41) 97777-1000" })).await;
    refused_by(&full, 429, rules::Rule::SmsPerMinute, orchestrator::texts::SMS_BUSY);
    let metrics = h.http.get(h.app.admin_url("/metrics")).send().await.expect("metrics").text().await.expect("text");
    assert!(metrics.contains("exa_sms_breaker_trips_total 0"), "{metrics}");
    assert!(metrics.contains("exa_abuse_refusals_total{rule=\"sms_per_minute\"} 1"), "{metrics}");
}

/// Issue 30: a burst of codes to one number prefix looks like pumping: past the prefix's limit
/// its breaker opens for the cool-down, and numbers of other prefixes still get their codes.
#[sqlx::test(migrations = "../migrations")]
async fn a_burst_to_one_prefix_opens_its_breaker_and_other_prefixes_go_on(db: PgPool) {
    let h = world(db, |config| {
        config.abuse.sms_per_prefix_minute = 3;
        config.abuse.sms_breaker_cooldown_secs = 300;
    })
    .await;
    let world = &h;
    let send = |phone: &'static str| async move {
        let visitor = world.download().await;
        world.command(&visitor, json!({ "type": "submit_phone", "phone": phone })).await
    };
    for phone in ["(11) 97777-1000", "(11) 97777-2000", "(11) 97777-3000"] {
        assert_eq!(send(phone).await.0, 200, "{phone}");
    }
    refused_by(&send("(11) 97777-4000").await, 429, rules::Rule::SmsPerPrefix, orchestrator::texts::SMS_PAUSED);
    refused_by(&send("(11) 97777-5000").await, 429, rules::Rule::SmsBreaker, orchestrator::texts::SMS_PAUSED);
    // Another prefix of the same area code, and another area code, go on.
    assert_eq!(send("(11) 97778-1000").await.0, 200);
    assert_eq!(send("(21) 97777-1000").await.0, 200);
    assert_eq!(h.codes_sent("5511977774000").await + h.codes_sent("5511977775000").await, 0);
    assert_eq!(h.codes_sent("5521977771000").await, 1);
    let metrics = h.http.get(h.app.admin_url("/metrics")).send().await.expect("metrics").text().await.expect("text");
    assert!(metrics.contains("exa_sms_breaker_trips_total 1"), "{metrics}");
    assert!(metrics.contains("exa_abuse_refusals_total{rule=\"sms_breaker\"} 1"), "{metrics}");
}

/// The attack script of issue 17: a fraudster pumps SMS through every flow, first as a plain
/// script, then doing the proof of work for every request, with one premium number and then
/// with many at once. What reaches the sandbox's inbox is at most what the limits allow.
#[sqlx::test(migrations = "../migrations")]
async fn an_sms_pumping_script_gets_no_more_than_the_limits_through_every_flow(db: PgPool) {
    const CEILING: u32 = 12;
    let h = world(db, |config| config.abuse.sms_per_prefix_minute = CEILING).await;
    let victim = "(11) 96666-0000";
    let sends = |phone: &str| {
        [
            ("download", json!({ "type": "submit_phone", "phone": phone })),
            ("activation", json!({ "type": "submit_phone", "phone": phone, "licence": "EXA-PUMP" })),
            ("cloud", json!({ "type": "start", "phone": phone, "serial": "PSN-PUMP" })),
        ]
    };
    let mut report = Vec::new();

    // 1. A plain script: no proof of work. Nothing is sent.
    let mut through = 0;
    for _ in 0..5 {
        for (flow, command) in sends(victim) {
            let status = if flow == "cloud" {
                let start = json!({ "flow": "cloud", "command": command });
                h.http.post(h.app.url("/api/attempts")).json(&start).send().await.expect("start").status().as_u16()
            } else {
                let visitor = if flow == "download" { h.download().await } else { h.activation().await };
                h.command_with_proof(&visitor, command, None).await.0
            };
            through += usize::from(status < 300);
        }
    }
    report.push(("sem prova de trabalho", 15, through, h.codes_sent("5511966660000").await));
    assert_eq!((through, h.codes_sent("5511966660000").await), (0, 0));

    // 2. Doing the work every time, one number, every flow and "Voltar", four rounds.
    let prefix_began = std::time::Instant::now();
    let mut through = 0;
    for _ in 0..4 {
        for (flow, command) in sends(victim) {
            let status = if flow == "cloud" {
                let (status, visitor, _) = h.open("cloud", command.clone()).await;
                if let Some(visitor) = visitor.filter(|_| status == 201) {
                    through += 1;
                    h.settled_on(&visitor, "code").await;
                    h.command(&visitor, json!({ "type": "back" })).await;
                    let again = json!({ "type": "submit_details", "phone": victim, "serial": "PSN-PUMP" });
                    through += usize::from(h.command(&visitor, again).await.0 == 200);
                }
                continue;
            } else {
                let visitor = if flow == "download" { h.download().await } else { h.activation().await };
                h.command(&visitor, command).await.0
            };
            through += usize::from(status == 200);
        }
    }
    let sent = h.codes_sent("5511966660000").await;
    report.push(("um número, com prova", 16, through, sent));
    assert_eq!((through, sent), (5, 5), "the per-phone limit");

    // 3. Many numbers of one prefix at once: the prefix's limit opens its breaker.
    let numbers: Vec<String> = (0..20).map(|i| format!("(11) 96666-{:04}", 100 + i)).collect();
    let mut through = 0;
    for number in &numbers {
        let visitor = h.download().await;
        through += usize::from(h.command(&visitor, json!({ "type": "submit_phone", "phone": number })).await.0 == 200);
    }
    let mut sent = 0;
    for number in &numbers {
        sent += h.codes_sent(&format!("55{}", events::flow::national_digits(number))).await;
    }
    report.push(("vinte números", 20, through, sent));
    // The prefix's limit is a rate (GCRA): CEILING at once, then one place every 60 s / CEILING.
    let refilled = (prefix_began.elapsed().as_secs_f64() / (60.0 / f64::from(CEILING))).floor() as usize;
    assert!(
        (CEILING as usize - 5..=CEILING as usize - 5 + refilled).contains(&through),
        "the prefix let {through} through; its rate allows {} plus {refilled} refilled",
        CEILING - 5
    );
    assert_eq!(sent, through);
    let metrics = h.http.get(h.app.admin_url("/metrics")).send().await.expect("metrics").text().await.expect("text");
    assert!(metrics.contains("exa_sms_breaker_trips_total 1"), "{metrics}");

    for (phase, tries, accepted, delivered) in report {
        eprintln!("{phase:>24}: {tries:>2} tentativas, {accepted:>2} aceitas, {delivered:>2} SMS entregues");
    }
}

/// Issue 24: the per-phone limit concerns the phone the code goes to. A resend carrying a decoy
/// `phone` used to be charged to the decoy while the code went to the attempt's phone (8 codes
/// reached one phone whose limit was 5); now the decoy is refused before anything is decided,
/// and a resend counts against the attempt's phone whatever its body says.
#[sqlx::test(migrations = "../migrations")]
async fn a_resend_with_a_decoy_phone_is_refused_and_resends_count_against_the_attempts_phone(db: PgPool) {
    let h = world(db, |config| config.abuse.sms_per_phone_10min = 1).await;
    let cloud = h.started("cloud", json!({ "type": "start", "phone": PHONE, "serial": "PSN-DECOY-1" })).await;
    h.settled_on(&cloud, "code").await;
    let events_before = h.attempt(&cloud).await["events"].as_array().map_or(0, Vec::len);

    let decoy = "(21) 96666-0000";
    let (status, refused) = h.command(&cloud, json!({ "type": "resend", "phone": decoy })).await;
    assert_eq!((status, refused["message"].as_str()), (422, Some(events::flow::MALFORMED_COMMAND)), "{refused}");
    assert_eq!(h.attempt(&cloud).await["events"].as_array().map_or(0, Vec::len), events_before, "nothing was written");

    let plain = h.command(&cloud, json!({ "type": "resend" })).await;
    refused_by(&plain, 429, rules::Rule::SmsPerPhone10Min, orchestrator::texts::SMS_PER_PHONE);

    assert_eq!(h.codes_sent(MSISDN).await, 1, "the attempt's phone got its one code");
    assert_eq!(h.codes_sent("5521966660000").await, 0);
    let vault = events::pii::Vault::new(h.db.clone(), events::pii::Keys::insecure_dev());
    let decoy_hits: i64 = sqlx::query_scalar("SELECT count(*) FROM abuse_hits WHERE key = $1")
        .bind(vault.tag("abuse:phone", &events::flow::national_digits(decoy)))
        .fetch_one(&h.db)
        .await
        .expect("decoy count");
    assert_eq!(decoy_hits, 0, "the decoy was charged nothing");
}

/// Issue 24: a send's places in its prefix and in the portal-wide ceiling are taken in one
/// statement, both or neither: a send the ceiling refuses leaves the prefix's places as they were.
#[sqlx::test(migrations = "../migrations")]
async fn a_send_the_ceiling_refuses_takes_no_place_in_its_prefix(db: PgPool) {
    use orchestrator::abuse::rate::{take_all, Rate, Shared};
    use orchestrator::abuse::rules::Rule;
    let minute = Duration::from_secs(60);
    let prefix = Rate::per(2, minute);
    let ceiling = Shared { rule: Rule::SmsPerMinute, key: b"all", rate: Rate::per(1, minute) };
    let take = |key: &'static [u8]| {
        let db = db.clone();
        async move {
            let mut conn = db.acquire().await.expect("a connection");
            take_all(&mut conn, &[(Rule::SmsPerPrefix, key, prefix)], ceiling).await.expect("take")
        }
    };
    let tat = |key: &'static [u8]| {
        let db = db.clone();
        async move {
            sqlx::query_scalar::<_, chrono::DateTime<chrono::Utc>>(
                "SELECT tat FROM abuse_rates WHERE rule = 'sms_per_prefix' AND key = $1",
            )
            .bind(key)
            .fetch_one(&db)
            .await
            .expect("the prefix's row")
        }
    };

    assert_eq!(take(b"5511").await, None, "the first send takes both");
    let prefix_after_one = tat(b"5511").await;
    let refused = take(b"5521").await;
    assert!(matches!(refused, Some((1, wait)) if wait > Duration::from_secs(50)), "the ceiling is full: {refused:?}");
    assert!(tat(b"5521").await <= chrono::Utc::now(), "the refused send's prefix keeps every place free");
    let refused = take(b"5511").await;
    assert!(matches!(refused, Some((1, _))), "{refused:?}");
    assert_eq!(tat(b"5511").await, prefix_after_one, "and a prefix that had one taken, only that one");
}

/// Issue 24 and 30: a send takes its place in the ceiling inside its command's transaction,
/// which keeps the place's row locked until it commits. Sends whose commands have not committed
/// yet take places in different shards without waiting for one another, and the shards
/// together let through exactly the ceiling.
#[sqlx::test(migrations = "../migrations")]
async fn sends_in_open_transactions_share_the_ceiling_without_waiting_for_one_another(db: PgPool) {
    use orchestrator::abuse::rate::{prepare, take_all, Rate, Shared};
    use orchestrator::abuse::rules::Rule;
    let minute = Duration::from_secs(60);
    let ceiling = Shared { rule: Rule::SmsPerMinute, key: b"all", rate: Rate::per(3, minute) };
    prepare(&db, ceiling).await.expect("the shards, as the portal writes them when it starts");

    let mut open = Vec::new();
    for send in 1..=3 {
        let mut tx = db.begin().await.expect("begin");
        // A send that waited for another's lock would fail here at once, not hang.
        sqlx::query("SET LOCAL lock_timeout = '1ms'").execute(&mut *tx).await.expect("lock time-out");
        let taken = take_all(&mut tx, &[], ceiling).await;
        assert!(matches!(taken, Ok(None)), "send {send} takes a place while the others are open: {taken:?}");
        open.push(tx);
    }
    for tx in open {
        tx.commit().await.expect("commit");
    }
    let mut conn = db.acquire().await.expect("a connection");
    let refused = take_all(&mut conn, &[], ceiling).await.expect("take");
    assert!(matches!(refused, Some((0, wait)) if wait > Duration::from_secs(50)), "the fourth is refused: {refused:?}");
    let shards: Vec<(Vec<u8>, bool)> =
        sqlx::query_as("SELECT key, tat > now() FROM abuse_rates WHERE rule = 'sms_per_minute' ORDER BY key")
            .fetch_all(&db)
            .await
            .expect("the shards");
    assert_eq!(shards, [(b"all:0".to_vec(), true), (b"all:1".to_vec(), true), (b"all:2".to_vec(), true)]);
}

/// A refused command rolls its writes back, and with them the place it took: a send the
/// ceiling had room for but another limit refused later leaves the shard free.
#[sqlx::test(migrations = "../migrations")]
async fn a_place_taken_by_a_command_that_rolls_back_is_free_again(db: PgPool) {
    use orchestrator::abuse::rate::{prepare, take_all, Rate, Shared};
    use orchestrator::abuse::rules::Rule;
    let ceiling = Shared { rule: Rule::SmsPerMinute, key: b"all", rate: Rate::per(1, Duration::from_secs(60)) };
    prepare(&db, ceiling).await.expect("the shards");
    let mut tx = db.begin().await.expect("begin");
    assert_eq!(take_all(&mut tx, &[], ceiling).await.expect("take"), None);
    tx.rollback().await.expect("roll back");
    let mut conn = db.acquire().await.expect("a connection");
    assert_eq!(take_all(&mut conn, &[], ceiling).await.expect("take"), None, "the place is there again");
}
