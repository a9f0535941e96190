//! Issue 26: an erasure reaches only the person. Attempts are made through the public API with
//! the sandbox upstreams and a runner in the background, then erased as `orchestrator person
//! erase` does (`support::erase::erase_named`, the console's route calls the same).

mod common;

use std::time::Duration;

use common::flows::{Visitor, World};
use events::pii::{Keys, Opened, PiiKind, Vault};
use events::EventStore;
use orchestrator::staff::accounts::Accounts;
use orchestrator::staff::Role;
use orchestrator::support::erase::{self, plan::Left, plan::Why, Named};
use serde_json::{json, Value};
use sqlx::PgPool;

const LIMIT: Duration = Duration::from_secs(45);
const VICTIM: &str = "(11) 91000-0001";
const VICTIM_MSISDN: &str = "5511910000001";
const ATTACKER: &str = "(21) 98765-4321";

fn vault(db: &PgPool) -> Vault {
    Vault::new(db.clone(), Keys::insecure_dev())
}

/// `orchestrator person erase --phone <national digits>`.
async fn erase_phone(db: &PgPool, national: &str) -> erase::Erased {
    let named = Named::Person(PiiKind::Phone, format!("55{national}"));
    erase::erase_named(db, &EventStore::new(db.clone()), &vault(db), &named, None).await.expect("erased")
}

/// The sealed `field` of the stream's first `event_type`, opened.
async fn opened(db: &PgPool, stream: &str, event_type: &str, nth: i64, field: &str) -> Opened {
    let payload: Value = sqlx::query_scalar(
        "SELECT payload FROM events WHERE stream_id = $1 AND event_type = $2 ORDER BY version OFFSET $3 LIMIT 1",
    )
    .bind(stream)
    .bind(event_type)
    .bind(nth)
    .fetch_one(db)
    .await
    .expect("event");
    vault(db).open(&payload[field]).await.expect("opens")
}

async fn secrets(db: &PgPool, stream: &str) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM attempt_secrets WHERE stream_id = $1")
        .bind(stream)
        .fetch_one(db)
        .await
        .expect("secrets")
}

fn has(attempt: &Value, event_type: &str) -> bool {
    World::types(attempt).iter().any(|t| t == event_type)
}

/// The victim downloads with their own phone and confirms the SMS code.
async fn victims_download(world: &World) -> Visitor {
    let (status, visitor, body) =
        world.open("download", json!({ "type": "start", "os": "win_pc", "browser": "Chrome" })).await;
    assert_eq!(status, 201, "{body}");
    let visitor = visitor.expect("visitor");
    let (status, reply) = world.command(&visitor, json!({ "type": "submit_phone", "phone": VICTIM })).await;
    assert_eq!(status, 200, "{reply}");
    world.wait(&visitor, LIMIT, |v| v["panel"] == "code_entry" && v["busy"] == false).await;
    let code = world.sms_code(VICTIM_MSISDN).await;
    let (status, reply) = world.command(&visitor, json!({ "type": "submit_code", "code": code })).await;
    assert_eq!(status, 200, "{reply}");
    world.wait(&visitor, LIMIT, |v| v["busy"] == false && v["panel"] != "code_entry").await;
    assert!(has(&world.attempt(&visitor).await, "code.confirmed"));
    visitor
}

/// The attacker starts a cloud activation with their own phone, goes back ("Voltar") and types
/// the victim's.
async fn attackers_cloud(world: &World) -> Visitor {
    let (status, visitor, body) =
        world.open("cloud", json!({ "type": "start", "phone": ATTACKER, "serial": "PSN-0001" })).await;
    assert_eq!(status, 201, "{body}");
    let visitor = visitor.expect("visitor");
    world.wait(&visitor, LIMIT, |v| v["panel"] == "code" && v["loading"] == false).await;
    let (status, reply) = world.command(&visitor, json!({ "type": "back" })).await;
    assert_eq!((status, reply["view"]["panel"].as_str()), (200, Some("details")), "{reply}");
    let (status, reply) =
        world.command(&visitor, json!({ "type": "submit_details", "phone": VICTIM, "serial": "PSN-0001" })).await;
    assert_eq!(status, 200, "{reply}");
    world.wait(&visitor, LIMIT, |v| v["loading"] == false).await;
    visitor
}

#[sqlx::test(migrations = "../migrations")]
async fn erasing_the_attackers_phone_leaves_the_victims_own_attempt_whole(db: PgPool) {
    let world = World::serving(db.clone(), 11).await;
    let victim = victims_download(&world).await;
    let attacker = attackers_cloud(&world).await;
    let victims_secrets = secrets(&db, &victim.id).await;
    assert!(victims_secrets > 0, "the confirmed download keeps its user token");

    let erased = erase_phone(&db, "21987654321").await;

    assert_eq!(erased.subjects, 1, "{erased:?}");
    assert_eq!(erased.attempts, 1, "{erased:?}");
    assert_eq!(erased.secrets, 0, "{erased:?}");
    assert_eq!(erased.left, [Left { kind: "phone", why: Why::NotProved, attempts: vec![attacker.id.clone()] }]);
    // The attacker's phone is erased from their attempt; the victim's, typed there, is not theirs.
    assert_eq!(opened(&db, &attacker.id, "details.submitted", 0, "phone").await, Opened::Erased);
    assert_eq!(opened(&db, &attacker.id, "details.submitted", 1, "phone").await, Opened::Clear(VICTIM_MSISDN.into()));
    // The victim's own attempt keeps its personal data and its token.
    assert_eq!(opened(&db, &victim.id, "phone.submitted", 0, "phone").await, Opened::Clear(VICTIM_MSISDN.into()));
    assert_eq!(secrets(&db, &victim.id).await, victims_secrets);
    let theirs = vault(&db).streams_for(PiiKind::Phone, VICTIM_MSISDN).await.expect("streams");
    assert_eq!(theirs, [victim.id.clone(), attacker.id.clone()]);
    assert!(vault(&db).streams_for(PiiKind::Phone, "5521987654321").await.expect("streams").is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn erasing_the_victims_phone_reaches_their_confirmed_attempt_and_not_the_attackers_own(db: PgPool) {
    let world = World::serving(db.clone(), 11).await;
    let victim = victims_download(&world).await;
    let attacker = attackers_cloud(&world).await;

    let erased = erase_phone(&db, "11910000001").await;

    assert_eq!((erased.subjects, erased.attempts), (1, 2), "{erased:?}");
    assert!(erased.secrets > 0, "the victim's download loses its tokens");
    assert_eq!(secrets(&db, &victim.id).await, 0);
    assert_eq!(erased.left, [Left { kind: "phone", why: Why::NotProved, attempts: vec![attacker.id.clone()] }]);
    assert_eq!(opened(&db, &victim.id, "phone.submitted", 0, "phone").await, Opened::Erased);
    assert_eq!(opened(&db, &attacker.id, "details.submitted", 1, "phone").await, Opened::Erased);
    assert_eq!(opened(&db, &attacker.id, "details.submitted", 0, "phone").await, Opened::Clear("5521987654321".into()));
}

/// A visitor who types a staff member's e-mail makes a visitor subject of their own: erasing
/// that visitor, even by that e-mail, never reaches the staff account. An account added before
/// staff e-mails had their own namespace is protected too, and moved to it at its next sign-in.
#[sqlx::test(migrations = "../migrations")]
async fn a_visitors_erasure_never_reaches_a_staff_account(db: PgPool) {
    const STAFF: &str = "ana.suporte@exa.com.br";
    const PHONE: &str = "(11) 98765-4321";
    common::staff::add(&db, "ana.suporte@exa.com.br", Role::Support).await;
    let v = vault(&db);
    let accounts = Accounts { db: &db, vault: &v };
    let staff_subject = v.find_subject(PiiKind::StaffEmail, STAFF).await.expect("find").expect("staff subject");
    assert_eq!(v.find_subject(PiiKind::Email, STAFF).await.expect("find"), None, "not in the visitors' namespace");

    let world = World::serving(db.clone(), 11).await;
    let telecom = |email: &'static str| {
        let world = &world;
        async move {
            let (status, visitor, body) =
                world.open("activation", json!({ "type": "start", "variant": "telecom" })).await;
            assert_eq!(status, 201, "{body}");
            let visitor = visitor.expect("visitor");
            let (status, reply) =
                world.command(&visitor, json!({ "type": "submit_email", "phone": PHONE, "email": email })).await;
            assert_eq!(status, 200, "{reply}");
            world.wait(&visitor, LIMIT, |v| v["busy"] == false).await;
            visitor
        }
    };
    let typed = telecom(STAFF).await;
    let visitors = v.find_subject(PiiKind::Email, STAFF).await.expect("find").expect("a visitor subject");
    assert_ne!(visitors, staff_subject);

    let erased =
        erase::erase_named(&db, &EventStore::new(db.clone()), &v, &Named::Person(PiiKind::Email, STAFF.into()), None)
            .await
            .expect("erased");
    assert_eq!((erased.subjects, erased.attempts), (1, 1), "{erased:?}");
    assert_eq!(opened(&db, &typed.id, "email.submitted", 0, "email").await, Opened::Erased);
    assert!(accounts.credentials(STAFF).await.expect("credentials").is_some(), "the staff sign-in still works");

    // An account from before the namespace: its look-up is under the visitors' kind.
    assert!(v.move_lookup(staff_subject, PiiKind::StaffEmail, PiiKind::Email, STAFF).await.expect("moved back"));
    let legacy = telecom(STAFF).await;
    let linked: i64 =
        sqlx::query_scalar("SELECT count(*) FROM pii_stream_links WHERE subject_id = $1 AND stream_id = $2")
            .bind(staff_subject)
            .bind(&legacy.id)
            .fetch_one(&db)
            .await
            .expect("links");
    assert_eq!(linked, 1, "the visitor's typing linked the staff subject");
    let erased =
        erase::erase_named(&db, &EventStore::new(db.clone()), &v, &Named::Person(PiiKind::Email, STAFF.into()), None)
            .await
            .expect("erased");
    assert_eq!(erased.subjects, 0, "{erased:?}");
    assert_eq!(erased.left, [Left { kind: "email", why: Why::Staff, attempts: vec![] }]);
    let found = accounts.credentials(STAFF).await.expect("credentials").expect("still an account");
    assert!(!found.disabled);
    assert_eq!(
        v.find_subject(PiiKind::StaffEmail, STAFF).await.expect("find"),
        Some(staff_subject),
        "moved at sign-in"
    );
    assert_eq!(v.find_subject(PiiKind::Email, STAFF).await.expect("find"), None);
}

/// Issue 26: a cloud serial is sealed under the key of the phone typed beside it. Support finds
/// the attempt by it (by a keyed tag, not a match on the events' text) until the person is
/// erased; then it neither opens nor finds their attempt, and no event ever held it in clear.
#[sqlx::test(migrations = "../migrations")]
async fn after_the_persons_erasure_their_serial_opens_nothing_and_finds_no_attempt(db: PgPool) {
    const SERIAL: &str = "PSN-SEAL-0001";
    common::staff::add(&db, "ana.suporte@exa.com.br", Role::Support).await;
    let world = World::serving(db.clone(), 11).await;
    let (status, visitor, body) =
        world.open("cloud", json!({ "type": "start", "phone": VICTIM, "serial": SERIAL })).await;
    assert_eq!(status, 201, "{body}");
    let visitor = visitor.expect("visitor");
    world.wait(&visitor, LIMIT, |v| v["panel"] == "code" && v["loading"] == false).await;
    let code = world.sms_code(VICTIM_MSISDN).await;
    let (status, reply) = world.command(&visitor, json!({ "type": "submit_code", "code": code })).await;
    assert_eq!(status, 200, "{reply}");
    let attempt = world.wait(&visitor, LIMIT, |v| v["panel"] == "success").await;
    assert_eq!(attempt["view"]["serial"], SERIAL, "its visitor still reads it");
    assert_eq!(world.events_containing(SERIAL).await, 0, "sealed in the events");
    assert_eq!(opened(&db, &visitor.id, "details.submitted", 0, "serial").await, Opened::Clear(SERIAL.into()));
    let staff = common::console::sign_in(&world.app, "ana.suporte@exa.com.br").await;
    let search = |serial: &'static str| {
        let (world, staff) = (&world, &staff);
        async move {
            let (status, body) = common::console::post(
                &world.app,
                staff,
                "/api/support/attempts/search",
                json!({ "serial": serial }),
                true,
            )
            .await;
            assert_eq!(status, 200, "{body}");
            body["attempts"].as_array().expect("attempts").iter().map(|a| a["id"].clone()).collect::<Vec<_>>()
        }
    };
    assert_eq!(search(SERIAL).await, [json!(visitor.id)]);
    assert_eq!(search("psn-seal-0001").await, [json!(visitor.id)], "typed in small letters");

    let erased = erase_phone(&db, "11910000001").await;

    // Two keys: the phone's, and the attempt's own, which sealed the serial.
    assert_eq!((erased.subjects, erased.attempts), (2, 1), "{erased:?}");
    assert_eq!(opened(&db, &visitor.id, "details.submitted", 0, "serial").await, Opened::Erased);
    assert!(search(SERIAL).await.is_empty(), "the serial links none of the person's attempts");
    let tags: i64 = sqlx::query_scalar("SELECT count(*) FROM pii_value_tags").fetch_one(&db).await.expect("tags");
    assert_eq!(tags, 0);
    assert_eq!(world.events_containing(SERIAL).await, 0);
    let looked_up: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE event_type = 'staff.looked_up' AND payload->>'kind' = 'serial'",
    )
    .fetch_one(&db)
    .await
    .expect("audit");
    assert_eq!(looked_up, 3, "every look-up by serial is audited");
    // By the attempts it found, never by a hash of the serial that would outlive the erasure.
    let hashed: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE event_type = 'staff.looked_up' AND payload->>'kind' = 'serial' \
         AND (payload ? 'hash' OR NOT payload ? 'attempts')",
    )
    .fetch_one(&db)
    .await
    .expect("audit");
    assert_eq!(hashed, 0);
}
