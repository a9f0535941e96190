//! `replay export`: the funnel facts as CSV, one row per attempt and step reached, for DuckDB,
//! ClickHouse or pandas. Never personal data: flow, variant, partner, brand, os, platform, the
//! step, when it was reached and, on the attempt's last row, the refusal the visitor read.

use std::io::Write;

use chrono::Duration;
use events::funnel::Funnel;

use crate::funnel::Finished;

pub const HEADER: &str = "attempt,flow,variant,partner,brand,os,platform,day,step_index,step,reached_at,refusal";

fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The rows of one finished attempt.
pub fn write_rows(out: &mut impl Write, funnel: &Funnel, attempt: &Finished) -> std::io::Result<()> {
    let last = attempt.reached.len().saturating_sub(1);
    for (i, ms) in attempt.reached.iter().enumerate() {
        let at = attempt.started + Duration::milliseconds(*ms);
        let refusal = if i == last { attempt.refusal.as_deref().unwrap_or("") } else { "" };
        let f = &attempt.facts;
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{}",
            field(&attempt.attempt),
            funnel.flow,
            field(&f.variant),
            field(&f.partner),
            field(&f.brand),
            field(&f.os),
            field(&f.platform),
            f.day,
            i,
            funnel.steps[i].key,
            at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            field(refusal)
        )?;
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::funnel::Facts;
    use chrono::{NaiveDate, TimeZone, Utc};

    /// A cloud attempt that reached its second step 1.5 s after the first and was refused there.
    pub(crate) fn cloud_attempt_refused_at_the_code(refusal: &str) -> Finished {
        Finished {
            attempt: "cloud-1".into(),
            started: Utc.with_ymd_and_hms(2026, 11, 2, 13, 0, 0).single().expect("time"),
            facts: Facts {
                variant: "—".into(),
                brand: "—".into(),
                partner: "—".into(),
                os: "Android".into(),
                platform: "mobile".into(),
                day: NaiveDate::from_ymd_opt(2026, 11, 2).expect("day"),
            },
            reached: vec![0, 1_500],
            refusal: Some(refusal.into()),
        }
    }

    #[test]
    fn one_row_per_step_reached_and_the_refusal_on_the_last() {
        let funnel = events::funnel::funnel("cloud", None).expect("cloud");
        let attempt =
            cloud_attempt_refused_at_the_code("Código incorreto, verifique a mensagem enviada e tente novamente!");
        let mut out = Vec::new();
        write_rows(&mut out, &funnel, &attempt).expect("writes");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(
            text,
            "cloud-1,cloud,—,—,—,Android,mobile,2026-11-02,0,details_submitted,2026-11-02T13:00:00.000Z,\n\
             cloud-1,cloud,—,—,—,Android,mobile,2026-11-02,1,phone_checked,2026-11-02T13:00:01.500Z,\"Código incorreto, verifique a mensagem enviada e tente novamente!\"\n"
        );
    }
}
