//! Personal data: sealed payload fields, keyed look-ups and crypto-shredding.

mod common;

use common::event;
use events::pii::{KeyRef, Keys, Opened, PiiKind, Sealed, Vault};
use events::{EventStore, ExpectedVersion, StoreError, StreamId};
use serde_json::json;
use sqlx::PgPool;

const PHONE: &str = "(11) 98765-4321";

async fn raw_payload_count_containing(pool: &PgPool, needle: &str) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM events WHERE payload::text LIKE '%' || $1 || '%'")
        .bind(needle)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn forgetting_a_subject_erases_them_from_history(pool: PgPool) {
    let store = EventStore::new(pool.clone());
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let stream = StreamId::new("activation").unwrap();

    let subject = vault.subject_for(PiiKind::Phone, PHONE).await.unwrap();
    assert_eq!(vault.subject_for(PiiKind::Phone, "11987654321").await.unwrap(), subject);
    let sealed = vault.seal(subject, PiiKind::Phone, PHONE).await.unwrap();
    store
        .append(
            &stream,
            ExpectedVersion::NoStream,
            vec![event("PhoneSubmitted", json!({"phone": sealed.to_value(), "variant": "vivo"}))],
        )
        .await
        .unwrap();
    vault.link_stream(subject, &stream).await.unwrap();

    // Neither the formatted nor the normalized phone is stored in clear.
    assert_eq!(raw_payload_count_containing(&pool, PHONE).await, 0);
    assert_eq!(raw_payload_count_containing(&pool, "987654321").await, 0);
    assert_eq!(raw_payload_count_containing(&pool, "$pii").await, 1);

    let mut payload = store.read_stream(&stream).await.unwrap().remove(0).payload;
    assert_eq!(vault.open(&payload["phone"]).await.unwrap(), Opened::Clear(PHONE.into()));
    vault.reveal_payload(&mut payload).await.unwrap();
    assert_eq!(payload, json!({"phone": PHONE, "variant": "vivo"}));
    assert_eq!(vault.streams_for(PiiKind::Phone, "11 98765 4321").await.unwrap(), vec![stream.to_string()]);

    assert!(vault.forget(subject).await.unwrap());
    assert!(!vault.forget(subject).await.unwrap());

    // The event still loads; the field reads as erased; the look-up finds nothing.
    let events = store.read_stream(&stream).await.unwrap();
    assert_eq!(events.len(), 1);
    let mut payload = events[0].payload.clone();
    assert_eq!(vault.open(&payload["phone"]).await.unwrap(), Opened::Erased);
    vault.reveal_payload(&mut payload).await.unwrap();
    assert_eq!(payload, json!({"phone": {"$erased": true}, "variant": "vivo"}));
    assert!(vault.streams_for(PiiKind::Phone, PHONE).await.unwrap().is_empty());
    assert_eq!(vault.find_subject(PiiKind::Phone, PHONE).await.unwrap(), None);
    let rows: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM pii_subjects) + (SELECT count(*) FROM pii_lookup) \
         + (SELECT count(*) FROM pii_stream_links)",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(rows, 0);
    assert!(matches!(
        vault.seal(subject, PiiKind::Phone, PHONE).await.unwrap_err(),
        StoreError::UnknownSubject(s) if s == subject
    ));

    // The same phone later is a new person with a new key; the old history stays erased.
    let again = vault.subject_for(PiiKind::Phone, PHONE).await.unwrap();
    assert_ne!(again, subject);
    assert_eq!(vault.open(&events[0].payload["phone"]).await.unwrap(), Opened::Erased);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_history_is_revealed_in_one_go_each_payload_as_alone_and_the_unwanted_kinds_stay_sealed(pool: PgPool) {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let ana = vault.subject_for(PiiKind::Phone, PHONE).await.unwrap();
    let bia = vault.subject_for(PiiKind::Email, "bia@exemplo.com").await.unwrap();
    let phone = vault.seal(ana, PiiKind::Phone, PHONE).await.unwrap().to_value();
    let email = vault.seal(bia, PiiKind::Email, "bia@exemplo.com").await.unwrap().to_value();
    let document = vault.seal(bia, PiiKind::CpfCnpj, "12345678909").await.unwrap().to_value();
    vault.forget(ana).await.unwrap();
    let mut history =
        vec![json!({"phone": phone.clone()}), json!({"n": 1}), json!({"email": email, "document": document.clone()})];

    // The owner's view: every kind but the document, as the visitor's page asks.
    vault.reveal_payloads_where(history.iter_mut(), |kind| kind != PiiKind::CpfCnpj).await.unwrap();

    assert_eq!(
        history,
        vec![
            json!({"phone": {"$erased": true}}),
            json!({"n": 1}),
            json!({"email": "bia@exemplo.com", "document": document}),
        ]
    );
    // One payload at a time gives the same.
    let mut alone = json!({"phone": phone});
    vault.reveal_payload_where(&mut alone, |kind| kind != PiiKind::CpfCnpj).await.unwrap();
    assert_eq!(alone, history[0]);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_person_sealed_into_two_attempts_is_one_subject_linked_to_both(pool: PgPool) {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let (first, second) = (StreamId::new("download").unwrap(), StreamId::new("activation").unwrap());

    let mut tx = pool.begin().await.unwrap();
    let (link, sealed) = vault.seal_for_person_in(&mut tx, &first, PiiKind::Phone, "11987654321").await.unwrap();
    tx.commit().await.unwrap();
    let mut tx = pool.begin().await.unwrap();
    let (again, _) = vault.seal_for_person_in(&mut tx, &second, PiiKind::Phone, "11987654321").await.unwrap();
    tx.commit().await.unwrap();

    assert_eq!(vault.open(&sealed.to_value()).await.unwrap(), Opened::Clear("11987654321".into()));
    assert_eq!(again.subject, link.subject, "the same person");
    assert_ne!(again.link_id, link.link_id, "a link per attempt");
    let mut found = vault.streams_for(PiiKind::Phone, "(11) 98765-4321").await.unwrap();
    found.sort();
    let mut expected = vec![first.to_string(), second.to_string()];
    expected.sort();
    assert_eq!(found, expected);
    let subjects: i64 = sqlx::query_scalar("SELECT count(*) FROM pii_subjects").fetch_one(&pool).await.unwrap();
    assert_eq!(subjects, 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn two_attempts_sealing_a_new_person_at_once_share_one_subject_and_leave_no_orphan(pool: PgPool) {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let (first, second) = (StreamId::new("cloud").unwrap(), StreamId::new("cloud").unwrap());
    let mut one = pool.begin().await.unwrap();
    let (link_one, _) = vault.seal_for_person_in(&mut one, &first, PiiKind::Email, "ana@exemplo.com").await.unwrap();

    // The second creator of the same person waits on the first's look-up row.
    let racing = {
        let (pool, vault) = (pool.clone(), vault.clone());
        tokio::spawn(async move {
            let mut two = pool.begin().await.unwrap();
            let (link, _) =
                vault.seal_for_person_in(&mut two, &second, PiiKind::Email, "Ana@Exemplo.com").await.unwrap();
            two.commit().await.unwrap();
            link
        })
    };
    // Until it does: its look-up insert is queued behind the first transaction's row lock.
    let waited = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            let waiting: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            )
            .fetch_one(&pool)
            .await
            .unwrap();
            if waiting > 0 {
                break;
            }
            tokio::task::yield_now().await;
        }
    })
    .await;
    assert!(waited.is_ok(), "the second creator never queued behind the first");
    one.commit().await.unwrap();
    let link_two = racing.await.unwrap();

    assert_eq!(link_two.subject, link_one.subject);
    let subjects: i64 = sqlx::query_scalar("SELECT count(*) FROM pii_subjects").fetch_one(&pool).await.unwrap();
    assert_eq!(subjects, 1, "the loser's subject was removed");
}

#[sqlx::test(migrations = "../migrations")]
async fn only_the_forgotten_person_is_erased(pool: PgPool) {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let ana = vault.subject_for(PiiKind::Email, "Ana@Exemplo.com").await.unwrap();
    let bia = vault.subject_for(PiiKind::CpfCnpj, "123.456.789-09").await.unwrap();
    assert_ne!(ana, bia);
    let mut payload = json!({
        "contacts": [
            vault.seal(ana, PiiKind::Email, "ana@exemplo.com").await.unwrap().to_value(),
            {"doc": vault.seal(bia, PiiKind::CpfCnpj, "12345678909").await.unwrap().to_value()}
        ],
        "n": 2
    });
    vault.forget(ana).await.unwrap();
    vault.reveal_payload(&mut payload).await.unwrap();
    assert_eq!(payload, json!({"contacts": [{"$erased": true}, {"doc": "12345678909"}], "n": 2}));
    assert_eq!(vault.find_subject(PiiKind::CpfCnpj, "12345678909").await.unwrap(), Some(bia));
    // Kinds are separate look-up spaces.
    assert_eq!(vault.find_subject(PiiKind::Phone, "12345678909").await.unwrap(), None);
}

#[sqlx::test(migrations = "../migrations")]
async fn tampered_or_moved_ciphertexts_do_not_open(pool: PgPool) {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let a = vault.subject_for(PiiKind::Phone, "11911112222").await.unwrap();
    let b = vault.subject_for(PiiKind::Phone, "11933334444").await.unwrap();
    let sealed = vault.seal(a, PiiKind::Phone, "11911112222").await.unwrap().to_value();

    // Same ciphertext claimed for another subject or kind: authentication fails.
    let mut moved = sealed.clone();
    moved["$pii"]["subject"] = json!(b);
    assert!(matches!(vault.open(&moved).await.unwrap_err(), StoreError::Crypto(_)));
    let mut rekind = sealed.clone();
    rekind["$pii"]["kind"] = json!("email");
    assert!(matches!(vault.open(&rekind).await.unwrap_err(), StoreError::Crypto(_)));
    assert!(matches!(vault.open(&json!("11911112222")).await.unwrap_err(), StoreError::Crypto(_)));

    // A vault with another master key cannot unwrap the data keys.
    let other = Vault::new(pool, Keys::generate());
    assert!(matches!(other.open(&sealed).await.unwrap_err(), StoreError::Crypto(_)));
    // ...and its look-up hashes differ, so it finds nobody.
    assert_eq!(other.find_subject(PiiKind::Phone, "11911112222").await.unwrap(), None);

    // Round trip through Sealed parsing.
    let parsed = Sealed::from_value(&sealed).unwrap();
    assert_eq!((parsed.key, parsed.kind), (KeyRef::Subject(a), PiiKind::Phone));
    assert_eq!(vault.open(&sealed).await.unwrap(), Opened::Clear("11911112222".into()));
}

#[sqlx::test(migrations = "../migrations")]
async fn concurrent_first_sightings_share_one_subject(pool: PgPool) {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let vault = vault.clone();
            tokio::spawn(async move { vault.subject_for(PiiKind::Phone, "21999990000").await.unwrap() })
        })
        .collect();
    let mut ids = Vec::new();
    for t in tasks {
        ids.push(t.await.unwrap());
    }
    ids.dedup();
    assert_eq!(ids.len(), 1);
    let subjects: i64 = sqlx::query_scalar("SELECT count(*) FROM pii_subjects").fetch_one(&pool).await.unwrap();
    assert_eq!(subjects, 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn links_list_every_stream_of_a_person(pool: PgPool) {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let s = vault.subject_for(PiiKind::Phone, PHONE).await.unwrap();
    let (x, y) = (StreamId::new("activation").unwrap(), StreamId::new("cloud").unwrap());
    let mut tx = pool.begin().await.unwrap();
    vault.link_stream_in_tx(&mut tx, s, &x).await.unwrap();
    tx.commit().await.unwrap();
    vault.link_stream(s, &y).await.unwrap();
    vault.link_stream(s, &x).await.unwrap(); // idempotent
    let mut found = vault.streams_for(PiiKind::Phone, PHONE).await.unwrap();
    found.sort();
    let mut expected = vec![x.to_string(), y.to_string()];
    expected.sort();
    assert_eq!(found, expected);
    assert!(vault.streams_for(PiiKind::Phone, "11900000000").await.unwrap().is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn linked_fields_name_a_different_id_in_each_stream_and_nothing_after_erasure(pool: PgPool) {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let person = vault.subject_for(PiiKind::Phone, PHONE).await.unwrap();
    let (x, y) = (StreamId::new("activation").unwrap(), StreamId::new("cloud").unwrap());
    let (in_x, in_y) = (vault.link_stream(person, &x).await.unwrap(), vault.link_stream(person, &y).await.unwrap());
    assert_eq!(vault.link_stream(person, &x).await.unwrap(), in_x, "one link per stream");
    let sealed_x = vault.seal_linked(in_x, PiiKind::Phone, "11987654321").await.unwrap();
    let sealed_y = vault.seal_linked(in_y, PiiKind::Phone, "11987654321").await.unwrap();

    // The two attempts' fields share no identifier, and neither names the person.
    let (ref_x, ref_y) = (sealed_x.to_value()["$pii"]["link"].clone(), sealed_y.to_value()["$pii"]["link"].clone());
    assert_ne!(ref_x, ref_y);
    for sealed in [&sealed_x, &sealed_y] {
        assert!(!sealed.to_value().to_string().contains(&person.to_string()));
    }
    assert_eq!(vault.open(&sealed_x.to_value()).await.unwrap(), Opened::Clear("11987654321".into()));
    let mut payload = json!({"a": sealed_x.to_value(), "b": [sealed_y.to_value()]});
    vault.reveal_payload(&mut payload).await.unwrap();
    assert_eq!(payload, json!({"a": "11987654321", "b": ["11987654321"]}));

    assert!(vault.forget(person).await.unwrap());
    assert_eq!(vault.open(&sealed_y.to_value()).await.unwrap(), Opened::Erased);
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM pii_stream_links").fetch_one(&pool).await.unwrap();
    assert_eq!(left, 0, "the links, and with them the only tie between the two ids, are gone");
}

/// A master key rotation: with the old key still configured as previous, everything opens all
/// along; `rewrap` moves every data key under the new one (in batches, resumable); then the
/// new key alone opens everything and the old one nothing. Look-ups keep working (the HMAC
/// key is not rotated).
#[sqlx::test(migrations = "../migrations")]
async fn a_rotated_master_key_opens_everything_during_and_after_the_rotation(pool: PgPool) {
    let old = Keys::generate();
    let (old_kek, hmac) = old.to_hex();
    let before = Vault::new(pool.clone(), old.clone());
    let mut sealed = Vec::new();
    for i in 0..25 {
        let phone = format!("119{i:08}");
        let subject = before.subject_for(PiiKind::Phone, &phone).await.unwrap();
        sealed.push((phone.clone(), before.seal(subject, PiiKind::Phone, &phone).await.unwrap().to_value()));
    }
    let secret = events::pii::SecretBox::from_keys(&old).seal("cloud-1", "token", "sbx-token").unwrap();

    let new = Keys::generate();
    let (new_kek, _) = new.to_hex();
    let rotating =
        Vault::new(pool.clone(), Keys::from_hex(&new_kek, &hmac).unwrap().with_previous(&[old_kek.as_str()]).unwrap());
    assert_eq!(rotating.left_to_rewrap().await.unwrap(), 25);
    assert_eq!(rotating.rewrap(10).await.unwrap(), 10, "one batch");
    // Half-way: old and new wraps side by side, every field opens.
    for (phone, value) in &sealed {
        assert_eq!(rotating.open(value).await.unwrap(), Opened::Clear(phone.clone()));
    }
    while rotating.rewrap(10).await.unwrap() > 0 {}
    assert_eq!(rotating.left_to_rewrap().await.unwrap(), 0);
    let secrets = events::pii::SecretBox::from_keys(
        &Keys::from_hex(&new_kek, &hmac).unwrap().with_previous(&[old_kek.as_str()]).unwrap(),
    );
    assert_eq!(
        secrets.open("cloud-1", "token", &secret).unwrap(),
        "sbx-token",
        "secrets sealed before open during the rotation"
    );

    let after = Vault::new(pool.clone(), Keys::from_hex(&new_kek, &hmac).unwrap());
    for (phone, value) in &sealed {
        assert_eq!(after.open(value).await.unwrap(), Opened::Clear(phone.clone()));
        assert!(after.find_subject(PiiKind::Phone, phone).await.unwrap().is_some());
    }
    // A process started with the old key alone (`before` itself keeps the data keys it
    // unwrapped for a while, and a data key does not change in a rotation: only its wrapping).
    let old_alone = Vault::new(pool.clone(), old);
    assert!(
        matches!(old_alone.open(&sealed[0].1).await.unwrap_err(), StoreError::Crypto(_)),
        "the old key alone opens nothing now"
    );
    let ids: Vec<Option<String>> =
        sqlx::query_scalar("SELECT DISTINCT kek_id FROM pii_subjects").fetch_all(&pool).await.unwrap();
    assert_eq!(ids, vec![Some(after_kek_id(&new_kek, &hmac))]);
}

fn after_kek_id(kek: &str, hmac: &str) -> String {
    Keys::from_hex(kek, hmac).unwrap().kek_id()
}

/// Issue 24: the attempt's own subject is found or created, linked and its key read in one
/// statement; every value of the attempt shares it, and each attempt has its own.
#[sqlx::test(migrations = "../migrations")]
async fn an_attempts_own_values_share_one_subject_of_their_own(pool: PgPool) {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let (first, second) = (StreamId::new("activation").unwrap(), StreamId::new("activation").unwrap());
    let mut tx = pool.begin().await.unwrap();
    let (link, key) = vault.attempt_key_in(&mut tx, &first).await.unwrap();
    let (again, same_key) = vault.attempt_key_in(&mut tx, &first).await.unwrap();
    let (other, _) = vault.attempt_key_in(&mut tx, &second).await.unwrap();
    let sealed = events::pii::seal_with(link, &key, PiiKind::DeviceName, "Celular da Ana").unwrap();
    tx.commit().await.unwrap();

    assert_eq!((again, same_key), (link, key), "found again, with the key it was created with");
    assert_ne!(other.subject, link.subject, "another attempt, another subject");
    assert_eq!(vault.open(&sealed.to_value()).await.unwrap(), Opened::Clear("Celular da Ana".into()));
    let subjects: i64 = sqlx::query_scalar("SELECT count(*) FROM pii_subjects").fetch_one(&pool).await.unwrap();
    assert_eq!(subjects, 2);
}

/// The attempt's page, its stream and its steps open what a command has just sealed: the vault
/// keeps the key it found or made while sealing, as it keeps one it read, for at most
/// `KEPT_FOR` (issue 30; docs/security.md, "How far an erasure reaches"). Another process's
/// erasure, here a bare delete, is seen by a vault that kept nothing.
#[sqlx::test(migrations = "../migrations")]
async fn a_key_made_while_sealing_is_kept_like_one_read(pool: PgPool) {
    let vault = Vault::new(pool.clone(), Keys::insecure_dev());
    let (download, activation) = (StreamId::new("download").unwrap(), StreamId::new("activation").unwrap());
    let mut tx = pool.begin().await.unwrap();
    let (person, phone) = vault.seal_for_person_in(&mut tx, &download, PiiKind::Phone, "11987654321").await.unwrap();
    let (own, key) = vault.attempt_key_in(&mut tx, &activation).await.unwrap();
    tx.commit().await.unwrap();
    let device = events::pii::seal_with(own, &key, PiiKind::DeviceName, "Celular da Ana").unwrap().to_value();

    // Erased elsewhere: the keys are gone from the database, this vault was not told.
    sqlx::query("DELETE FROM pii_subjects WHERE subject_id = ANY($1)")
        .bind(vec![person.subject, own.subject])
        .execute(&pool)
        .await
        .unwrap();

    assert_eq!(vault.open(&phone.to_value()).await.unwrap(), Opened::Clear("11987654321".into()));
    assert_eq!(vault.open(&device).await.unwrap(), Opened::Clear("Celular da Ana".into()));
    let elsewhere = Vault::new(pool.clone(), Keys::insecure_dev());
    assert_eq!(elsewhere.open(&phone.to_value()).await.unwrap(), Opened::Erased);
    assert_eq!(elsewhere.open(&device).await.unwrap(), Opened::Erased);
}
