//! Whom an erasure forgets, decided on plain data: the links between personal-data subjects and
//! attempts, each marked with whether the attempt proved it (see [`super::proof`]).
//!
//! An attempt is the person's when it proved one of the person's phones (or when the admin named
//! it). Only what an attempt of theirs proved joins the person; the attempt's own key (device
//! names, partner ids) goes with it. Anything else a visitor typed in it (another phone, a
//! CPF/CNPJ, an e-mail) may be someone else's: it is listed for the admin, never forgotten here.
//! A subject a staff account uses is never forgotten by an erasure.

use std::collections::{BTreeMap, BTreeSet};

use events::pii::PiiKind;
use serde::Serialize;
use uuid::Uuid;

/// One subject's link to one attempt stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub subject: Uuid,
    pub stream: String,
    /// The kind the subject is looked up by; `None` for an attempt's own key.
    pub kind: Option<PiiKind>,
    /// Whether this attempt proved the subject (confirmed the SMS code sent to it).
    pub proved: bool,
    /// Whether a staff account uses the subject (its sign-in e-mail).
    pub staff: bool,
}

/// Why a subject the erasure met was not forgotten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// Typed in the person's attempts but never proved theirs: it may be someone else's.
    NotProved,
    /// A staff account's e-mail.
    Staff,
}

/// A subject left for the admin to decide on: its kind and the attempts (of those the erasure
/// touched) that mention it. Named by neither value nor subject id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Left {
    pub kind: &'static str,
    pub why: Why,
    pub attempts: Vec<String>,
}

/// What an erasure does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Subjects whose keys are deleted.
    pub forget: BTreeSet<Uuid>,
    /// The person's attempts: their secrets are deleted too.
    pub attempts: BTreeSet<String>,
    /// Every attempt where something is erased (the person's, and those that only mention a
    /// forgotten subject).
    pub touched: BTreeSet<String>,
    pub left: Vec<Left>,
}

/// The plan for the `named` subjects (a person named by a value) and the `attempt` an admin
/// named, over `links` (every link of the attempts concerned). `staff_named` are the named
/// subjects a staff account uses.
pub fn resolve(named: &BTreeSet<Uuid>, staff_named: &BTreeSet<Uuid>, attempt: Option<&str>, links: &[Link]) -> Plan {
    let staff: BTreeSet<Uuid> =
        links.iter().filter(|l| l.staff).map(|l| l.subject).chain(staff_named.iter().copied()).collect();
    let mut people: BTreeSet<Uuid> = named.difference(&staff).copied().collect();
    let mut attempts: BTreeSet<String> = attempt.map(str::to_string).into_iter().collect();
    loop {
        let mut changed = false;
        for link in links.iter().filter(|l| l.proved) {
            if people.contains(&link.subject) {
                changed |= attempts.insert(link.stream.clone());
            }
            if attempts.contains(&link.stream) && !staff.contains(&link.subject) {
                changed |= people.insert(link.subject);
            }
        }
        if !changed {
            break;
        }
    }
    let own = links.iter().filter(|l| l.kind.is_none() && attempts.contains(&l.stream) && !staff.contains(&l.subject));
    let forget: BTreeSet<Uuid> = people.into_iter().chain(own.map(|l| l.subject)).collect();
    let touched: BTreeSet<String> = links
        .iter()
        .filter(|l| forget.contains(&l.subject))
        .map(|l| l.stream.clone())
        .chain(attempts.iter().cloned())
        .collect();
    let mut left: BTreeMap<Uuid, Left> = BTreeMap::new();
    for link in links.iter().filter(|l| touched.contains(&l.stream) && !forget.contains(&l.subject)) {
        let Some(kind) = link.kind else { continue };
        let why = if staff.contains(&link.subject) { Why::Staff } else { Why::NotProved };
        let entry = left.entry(link.subject).or_insert_with(|| Left { kind: kind.as_str(), why, attempts: Vec::new() });
        entry.attempts.push(link.stream.clone());
    }
    for subject in named.intersection(&staff) {
        left.entry(*subject).or_insert(Left { kind: PiiKind::Email.as_str(), why: Why::Staff, attempts: Vec::new() });
    }
    let mut left: Vec<Left> = left.into_values().collect();
    left.iter_mut().for_each(|l| l.attempts.sort());
    left.sort_by(|a, b| (a.why, a.kind, &a.attempts).cmp(&(b.why, b.kind, &b.attempts)));
    Plan { forget, attempts, touched, left }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(subject: Uuid, stream: &str, kind: Option<PiiKind>, proved: bool) -> Link {
        Link { subject, stream: stream.into(), kind, proved, staff: false }
    }

    fn set<T: Ord + Clone>(items: &[T]) -> BTreeSet<T> {
        items.iter().cloned().collect()
    }

    /// Issue 26's attack: the attacker typed their phone A, went back, typed the victim's V;
    /// the victim proved V in a download of their own.
    #[test]
    fn erasing_the_attackers_phone_forgets_it_alone_and_lists_the_victims() {
        let (a, v) = (Uuid::new_v4(), Uuid::new_v4());
        let links = [
            link(a, "cloud-attacker", Some(PiiKind::Phone), false),
            link(v, "cloud-attacker", Some(PiiKind::Phone), false),
            link(v, "download-victim", Some(PiiKind::Phone), true),
        ];
        let plan = resolve(&set(&[a]), &BTreeSet::new(), None, &links);
        assert_eq!(plan.forget, set(&[a]));
        assert_eq!(plan.attempts, BTreeSet::new());
        assert_eq!(plan.touched, set(&["cloud-attacker".to_string()]));
        assert_eq!(plan.left, [Left { kind: "phone", why: Why::NotProved, attempts: vec!["cloud-attacker".into()] }]);
    }

    #[test]
    fn what_the_persons_attempts_proved_joins_them_and_their_attempts_own_keys_go_too() {
        let (phone, second, document, device, other_device) =
            (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        let links = [
            link(phone, "download-1", Some(PiiKind::Phone), true),
            link(device, "download-1", None, false),
            link(second, "download-1", Some(PiiKind::Phone), true),
            link(second, "activation-2", Some(PiiKind::Phone), true),
            link(document, "activation-2", Some(PiiKind::CpfCnpj), false),
            link(phone, "cloud-3", Some(PiiKind::Phone), false),
            link(other_device, "cloud-3", None, false),
        ];
        let plan = resolve(&set(&[phone]), &BTreeSet::new(), None, &links);
        assert_eq!(plan.forget, set(&[phone, second, device]));
        assert_eq!(plan.attempts, set(&["activation-2".to_string(), "download-1".to_string()]));
        assert_eq!(plan.touched, set(&["activation-2".to_string(), "cloud-3".to_string(), "download-1".to_string()]));
        assert_eq!(plan.left, [Left { kind: "cpf_cnpj", why: Why::NotProved, attempts: vec!["activation-2".into()] }]);
    }

    #[test]
    fn a_named_attempt_is_the_persons_and_what_it_did_not_prove_is_listed() {
        let (phone, device) = (Uuid::new_v4(), Uuid::new_v4());
        let links = [link(phone, "download-1", Some(PiiKind::Phone), false), link(device, "download-1", None, false)];
        let plan = resolve(&BTreeSet::new(), &BTreeSet::new(), Some("download-1"), &links);
        assert_eq!(plan.forget, set(&[device]));
        assert_eq!(plan.attempts, set(&["download-1".to_string()]));
        assert_eq!(plan.left, [Left { kind: "phone", why: Why::NotProved, attempts: vec!["download-1".into()] }]);
    }

    #[test]
    fn a_staff_members_e_mail_is_never_forgotten() {
        let (phone, staff_email) = (Uuid::new_v4(), Uuid::new_v4());
        let mut typed = link(staff_email, "activation-1", Some(PiiKind::Email), true);
        typed.staff = true;
        let links = [link(phone, "activation-1", Some(PiiKind::Phone), true), typed];
        let plan = resolve(&set(&[phone]), &BTreeSet::new(), None, &links);
        assert_eq!(plan.forget, set(&[phone]));
        assert_eq!(plan.left, [Left { kind: "email", why: Why::Staff, attempts: vec!["activation-1".into()] }]);

        let named = resolve(&set(&[staff_email]), &set(&[staff_email]), None, &[]);
        assert_eq!(named.forget, BTreeSet::new());
        assert_eq!(named.left, [Left { kind: "email", why: Why::Staff, attempts: vec![] }]);
    }
}
