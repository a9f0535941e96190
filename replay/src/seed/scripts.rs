//! What synthetic visitors do: a mix of the three flows and six variants, each attempt walked
//! step by step with a chance to leave at every panel and a chance of each refusal the
//! upstreams give. Pure: a seeded random source in, the attempt's events out.

use chrono::{DateTime, Duration, Utc};
use events::flows::activation::ActivationFlow;
use events::flows::cloud::CloudFlow;
use events::flows::download::DownloadFlow;
use rand::rngs::StdRng;
use rand::Rng;
use serde_json::{json, Value};

use super::journey::{Journey, JourneyError, SeedEvent};

/// One synthetic attempt.
#[derive(Debug, Clone)]
pub struct SeedAttempt {
    pub flow: &'static str,
    pub events: Vec<SeedEvent>,
    /// Coarse browser facts for the metadata (as the API records them).
    pub client: Value,
}

/// The visitor behind an attempt: who they are across attempts (phone, CPF, e-mail) is
/// drawn from a pool, so a phone has several attempts as real ones do.
#[derive(Debug, Clone)]
pub struct Visitor {
    pub phone: String,
    pub cpf: String,
    pub email: String,
}

const DDDS: [u32; 10] = [11, 21, 31, 41, 51, 61, 71, 81, 85, 91];

/// The `k`-th person of the pool (the same `k` is the same person in every run).
pub fn visitor(k: u64) -> Visitor {
    let number = (k.wrapping_mul(2_654_435_761) % 100_000_000) as u32;
    let ddd = DDDS[(k % DDDS.len() as u64) as usize];
    let phone = format!("({ddd}) 9{:04}-{:04}", number / 10_000, number % 10_000);
    Visitor { phone, cpf: cpf(k), email: format!("cliente{k}@exemplo.com.br") }
}

/// A valid CPF (with its two check digits) made from `k`.
pub fn cpf(k: u64) -> String {
    let base: Vec<u32> = format!("{:09}", (k.wrapping_mul(7_919) + 100_000_000) % 1_000_000_000)
        .chars()
        .filter_map(|c| c.to_digit(10))
        .collect();
    let check = |digits: &[u32]| {
        let n = digits.len() as u32 + 1;
        let sum: u32 = digits.iter().enumerate().map(|(i, d)| d * (n - i as u32)).sum();
        let r = (sum * 10) % 11;
        if r == 10 {
            0
        } else {
            r
        }
    };
    let mut digits = base.clone();
    digits.push(check(&digits));
    digits.push(check(&digits));
    digits.iter().map(|d| char::from_digit(*d, 10).unwrap_or('0')).collect()
}

/// Seconds a visitor takes on a panel, and milliseconds an upstream call takes.
fn think(rng: &mut StdRng) -> Duration {
    Duration::seconds(rng.gen_range(4..90))
}

fn call(rng: &mut StdRng) -> Duration {
    Duration::milliseconds(rng.gen_range(150..2_500))
}

fn chance(rng: &mut StdRng, p: f64) -> bool {
    rng.gen_bool(p)
}

const BROWSERS: [(&str, &str, &str, f64); 5] = [
    ("Chrome", "Android", "mobile", 0.46),
    ("Safari", "iPhone", "mobile", 0.22),
    ("Chrome", "Windows 10", "desktop", 0.20),
    ("Edge", "Windows 10", "desktop", 0.07),
    ("Safari", "Mac OSX", "desktop", 0.05),
];

fn client(rng: &mut StdRng) -> Value {
    let mut roll: f64 = rng.gen();
    for (browser, os, platform, share) in BROWSERS {
        if roll < share {
            return json!({ "browser": browser, "os": os, "platform": platform });
        }
        roll -= share;
    }
    json!({ "browser": "Chrome", "os": "Android", "platform": "mobile" })
}

/// One attempt started at `at` by `who`: the flow and variant drawn from the mix.
pub fn attempt(rng: &mut StdRng, at: DateTime<Utc>, who: &Visitor) -> Result<SeedAttempt, JourneyError> {
    let client = client(rng);
    let roll: f64 = rng.gen();
    let (flow, events) = if roll < 0.55 {
        let variants = ["standard", "insurance", "partner_portal", "broadband", "telecom", "carrier"];
        let weights = [0.30, 0.10, 0.05, 0.15, 0.10, 0.30];
        let mut pick: f64 = rng.gen();
        let mut variant = variants[0];
        for (v, w) in variants.iter().zip(weights) {
            variant = v;
            if pick < w {
                break;
            }
            pick -= w;
        }
        ("activation", activation(rng, at, who, variant)?)
    } else if roll < 0.80 {
        ("download", download(rng, at, who, &client)?)
    } else {
        ("cloud", cloud(rng, at, who)?)
    };
    Ok(SeedAttempt { flow, events, client })
}

/// Runs `script` and keeps what it produced even when the visitor stopped early (`Ok(None)`
/// from a step means they left or were refused there).
macro_rules! walk {
    ($journey:ident, $body:block) => {{
        let result: Result<Option<()>, JourneyError> = (|| $body)();
        result?;
        Ok($journey.into_events())
    }};
}

fn activation(
    rng: &mut StdRng,
    at: DateTime<Utc>,
    who: &Visitor,
    variant: &str,
) -> Result<Vec<SeedEvent>, JourneyError> {
    let mut j = Journey::<ActivationFlow>::starting_at(at);
    let licence = format!("LIC-{:08}", rng.gen_range(0..100_000_000u32));
    let platform = if chance(rng, 0.6) { "android" } else { "ios" };
    walk!(j, {
        match variant {
            "partner_portal" => {
                j.command(Duration::zero(), json!({"type": "start", "variant": variant, "licenca": licence}))?
            }
            "broadband" => j.command(
                Duration::zero(),
                json!({"type": "start", "variant": variant, "code": format!("oauth{}", rng.gen::<u32>())}),
            )?,
            _ => j.command(Duration::zero(), json!({"type": "start", "variant": variant}))?,
        };
        if variant == "broadband" {
            if chance(rng, 0.08) {
                j.step(call(rng), json!({"type": "customer.not_found", "data": {"status": 404}}))?;
                return Ok(None);
            }
            j.step(call(rng), json!({"type": "customer.found", "data": {}}))?;
        }
        if chance(rng, 0.18) {
            return Ok(None); // left the form untouched
        }
        match variant {
            "telecom" => {
                j.command(think(rng), json!({"type": "submit_email", "phone": who.phone, "email": who.email}))?;
                if chance(rng, 0.15) {
                    j.step(call(rng), json!({"type": "partner.login_refused", "data": {"status": 404}}))?;
                    return Ok(None);
                }
                j.step(call(rng), json!({"type": "partner.logged_in", "data": {}}))?;
                j.step(call(rng), json!({"type": "partner.plan_found", "data": {"plan_id": "plano-familia"}}))?;
            }
            "carrier" => {
                j.command(think(rng), json!({"type": "submit_phone", "phone": who.phone, "cpf_cnpj": who.cpf}))?;
                j.step(call(rng), json!({"type": "carrier.token_obtained", "data": {}}))?;
                if chance(rng, 0.12) {
                    j.step(call(rng), json!({"type": "document.refused", "data": {"status": 403}}))?;
                    return Ok(None);
                }
                j.step(call(rng), json!({"type": "document.authorized", "data": {"kind": "cpf"}}))?;
            }
            "broadband" => {
                j.command(think(rng), json!({"type": "submit_phone", "phone": who.phone}))?;
            }
            _ => {
                let typed = if variant == "partner_portal" { Value::Null } else { json!(licence) };
                j.command(think(rng), json!({"type": "submit_phone", "phone": who.phone, "licence": typed}))?;
            }
        }
        if chance(rng, 0.03) {
            j.step(call(rng), json!({"type": "code.send_failed", "data": {"status": 500}}))?;
            return Ok(None);
        }
        j.step(call(rng), json!({"type": "code.sent", "data": {"resend": false}}))?;
        if chance(rng, 0.20) {
            return Ok(None); // the SMS never got typed in
        }
        j.command(think(rng), json!({"type": "submit_code", "pincode": "123456", "terms_accepted": true}))?;
        if chance(rng, 0.10) {
            let reason = if chance(rng, 0.5) { ("wrong", 400) } else { ("expired", 403) };
            j.step(call(rng), json!({"type": "code.rejected", "data": {"reason": reason.0, "status": reason.1}}))?;
            if chance(rng, 0.6) {
                return Ok(None);
            }
            j.command(think(rng), json!({"type": "submit_code", "pincode": "654321", "terms_accepted": true}))?;
        }
        j.step(call(rng), json!({"type": "code.validated", "data": {}}))?;
        match variant {
            "carrier" => {
                j.step(call(rng), json!({"type": "authorization.granted", "data": {}}))?;
                j.step(call(rng), json!({"type": "identity.verified", "data": {}}))?;
                j.step(call(rng), json!({"type": "packs.fetched", "data": {"items": ["FS", "CL"], "products": {"seguranca": true, "cloud": true, "gestao": false}}}))?;
                if chance(rng, 0.25) {
                    return Ok(None);
                }
                j.command(think(rng), json!({"type": "choose_product", "product": "seguranca", "platform": platform}))?;
            }
            _ => {
                if variant != "broadband" && variant != "telecom" && chance(rng, 0.07) {
                    j.step(call(rng), json!({"type": "serial.not_found", "data": {"status": 404}}))?;
                    return Ok(None);
                }
                j.step(call(rng), json!({"type": "subscription.created", "data": {}}))?;
                j.command(Duration::seconds(3), json!({"type": "record_store_redirect", "platform": platform}))?;
            }
        }
        Ok(Some(()))
    })
}

fn download(
    rng: &mut StdRng,
    at: DateTime<Utc>,
    who: &Visitor,
    client: &Value,
) -> Result<Vec<SeedEvent>, JourneyError> {
    let mut j = Journey::<DownloadFlow>::starting_at(at);
    let os = if client["os"] == "Mac OSX" { "mac" } else { "win_pc" };
    let browser = client["browser"].as_str().unwrap_or("Chrome").to_string();
    walk!(j, {
        j.command(Duration::zero(), json!({"type": "start", "os": os, "browser": browser}))?;
        if chance(rng, 0.15) {
            return Ok(None);
        }
        j.command(think(rng), json!({"type": "submit_phone", "phone": who.phone}))?;
        if chance(rng, 0.03) {
            j.step(call(rng), json!({"type": "code.send_failed", "data": {"reason": "SMS_PROVIDER_DOWN"}}))?;
            return Ok(None);
        }
        j.step(call(rng), json!({"type": "code.sent", "data": {}}))?;
        if chance(rng, 0.18) {
            return Ok(None);
        }
        j.command(think(rng), json!({"type": "submit_code", "code": "123456"}))?;
        if chance(rng, 0.08) {
            j.step(call(rng), json!({"type": "code.rejected", "data": {"reason": "INVALID_CODE"}}))?;
            return Ok(None);
        }
        j.step(call(rng), json!({"type": "code.confirmed", "data": {}}))?;
        if chance(rng, 0.10) {
            j.step(call(rng), json!({"type": "user.not_found", "data": {}}))?;
            return Ok(None);
        }
        j.step(call(rng), json!({"type": "user.found", "data": {}}))?;
        let partner = |id: &str, name: &str| json!({"id": id, "name": name, "logotype": "", "has_subscription": true});
        if chance(rng, 0.3) {
            j.step(call(rng), json!({"type": "partners.listed", "data": {"partners": [partner("tim", "TIM"), partner("vivo", "Vivo")]}}))?;
            if chance(rng, 0.1) {
                return Ok(None);
            }
            j.command(think(rng), json!({"type": "choose_partner", "partner_id": "tim"}))?;
        } else {
            j.step(call(rng), json!({"type": "partners.listed", "data": {"partners": [partner("tim", "TIM")]}}))?;
        }
        let roll: f64 = rng.gen();
        if roll < 0.06 {
            j.step(call(rng), json!({"type": "plan.without_antivirus", "data": {}}))?;
        } else if roll < 0.14 {
            j.step(call(rng), json!({"type": "licences.full", "data": {}}))?;
            let device = json!({"id": "device-1", "device_name": {"$pii_clear": {"kind": "device_name", "value": "Notebook da sala"}}, "os_type": "windows", "os_version": "11", "country": "BR"});
            j.step(call(rng), json!({"type": "devices.listed", "data": {"devices": [device]}}))?;
        } else {
            j.step(call(rng), json!({"type": "download.granted", "data": {}}))?;
            // Most browsers take the installer whole; some close the tab first.
            if chance(rng, 0.88) {
                j.fact(Duration::seconds(rng.gen_range(5..90)), json!({"type": "installer.served", "data": {}}))?;
            }
        }
        Ok(Some(()))
    })
}

fn cloud(rng: &mut StdRng, at: DateTime<Utc>, who: &Visitor) -> Result<Vec<SeedEvent>, JourneyError> {
    let mut j = Journey::<CloudFlow>::starting_at(at);
    let serial = format!("SN{:010}", rng.gen_range(0..10_000_000_000u64));
    walk!(j, {
        j.command(Duration::zero(), json!({"type": "start", "phone": who.phone, "serial": serial}))?;
        if chance(rng, 0.06) {
            j.step(
                call(rng),
                json!({"type": "phone.refused", "data": {"message": "Número de celular não encontrado."}}),
            )?;
            return Ok(None);
        }
        j.step(call(rng), json!({"type": "phone.checked", "data": {}}))?;
        j.step(
            call(rng),
            json!({"type": "code.sent", "data": {"transaction_id": format!("tx-{}", rng.gen::<u32>())}}),
        )?;
        if chance(rng, 0.2) {
            return Ok(None);
        }
        j.command(think(rng), json!({"type": "submit_code", "code": "123456"}))?;
        if chance(rng, 0.08) {
            j.step(call(rng), json!({"type": "code.rejected", "data": {"message": "Código incorreto, verifique a mensagem enviada e tente novamente!"}}))?;
            return Ok(None);
        }
        j.step(call(rng), json!({"type": "code.validated", "data": {}}))?;
        if chance(rng, 0.07) {
            j.step(call(rng), json!({"type": "serial.rejected", "data": {"message": "Número de série inválido."}}))?;
            return Ok(None);
        }
        j.step(call(rng), json!({"type": "serial.registered", "data": {}}))?;
        j.step(Duration::seconds(5), json!({"type": "custom_token.obtained", "data": {}}))?;
        j.step(call(rng), json!([{"type": "account.signed_in", "data": {}}, {"type": "cloud.activated", "data": {}}]))?;
        Ok(Some(()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use events::flow::{AttemptFlow, Erased, Outcome};
    use events::{Metadata, RecordedEvent};
    use rand::SeedableRng;
    use std::collections::HashMap;

    fn recorded(flow: &str, events: &[SeedEvent]) -> Vec<RecordedEvent> {
        events
            .iter()
            .enumerate()
            .map(|(i, e)| RecordedEvent {
                position: i as i64 + 1,
                stream_id: format!("{flow}-00000000-0000-0000-0000-000000000001"),
                version: i as i64 + 1,
                event_type: e.event_type.clone(),
                schema_version: 1,
                payload: e.payload.clone(),
                metadata: Metadata {
                    correlation_id: uuid::Uuid::nil(),
                    causation_id: None,
                    actor: e.actor.into(),
                    client: None,
                },
                recorded_at: e.at,
                tx_id: 0,
            })
            .collect()
    }

    #[test]
    fn every_flow_ends_every_way_and_every_stream_is_one_the_flow_accepts() {
        let mut rng = StdRng::seed_from_u64(7);
        let at = chrono::TimeZone::with_ymd_and_hms(&Utc, 2026, 11, 1, 12, 0, 0).single().expect("date");
        let flows: HashMap<&str, Box<dyn AttemptFlow>> = HashMap::from([
            ("activation", Box::new(Erased::<ActivationFlow>::default()) as Box<dyn AttemptFlow>),
            ("download", Box::new(Erased::<DownloadFlow>::default())),
            ("cloud", Box::new(Erased::<CloudFlow>::default())),
        ]);
        let mut endings: HashMap<(&str, &str), usize> = HashMap::new();
        for k in 0..3_000 {
            let attempt = attempt(&mut rng, at, &visitor(k % 700)).expect("the flow accepts every command and outcome");
            let history = recorded(attempt.flow, &attempt.events);
            let flow = &flows[attempt.flow];
            assert!(history.iter().all(|e| flow.knows(&e.event_type, &e.payload)), "{:?}", attempt.events);
            assert!(history.windows(2).all(|w| w[0].recorded_at <= w[1].recorded_at));
            let ending = match flow.outcome(&history) {
                Outcome::Completed => "completed",
                Outcome::Refused { .. } => "refused",
                Outcome::Open => "open",
            };
            *endings.entry((attempt.flow, ending)).or_default() += 1;
        }
        for flow in ["activation", "download", "cloud"] {
            for ending in ["completed", "refused", "open"] {
                assert!(endings.get(&(flow, ending)).copied().unwrap_or(0) > 10, "{flow} {ending}: {endings:?}");
            }
        }
    }

    #[test]
    fn the_same_person_is_the_same_phone_and_a_valid_cpf() {
        assert_eq!(visitor(3).phone, visitor(3).phone);
        assert_ne!(visitor(3).phone, visitor(4).phone);
        for k in 0..50 {
            let cpf = cpf(k);
            assert_eq!(cpf.len(), 11);
            assert!(events::flows::activation::CpfCnpj::parse(&cpf).is_ok(), "{cpf}");
        }
    }
}
