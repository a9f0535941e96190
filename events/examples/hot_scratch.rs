use chrono::{DateTime, Duration, NaiveDate};
use events::funnel::hot::HotFunnels;
use events::funnel::{funnel, AttemptFacts, Breakdown, Count, Facts, FunnelQuery, Order};
use std::time::Instant;
const STEPS: [&str; 6] =
    ["details.submitted", "phone.checked", "code.sent", "code.validated", "serial.registered", "cloud.activated"];
fn main() {
    let n = 140_000usize;
    let oses = ["android", "ios", "windows", "macos"];
    let mut hot = HotFunnels::new(NaiveDate::from_ymd_opt(2026, 10, 1).unwrap());
    for i in 0..n {
        let steps = 1 + (i * 7919) % 6;
        let mut marks: Vec<(String, i64)> =
            (0..steps).map(|s| (STEPS[s].to_string(), (s as i64) * 1000 + (i as i64 % 977))).collect();
        marks.push(("phone.refused".into(), 5));
        hot.upsert(&AttemptFacts {
            attempt: format!("cloud-{i:032}"),
            flow: "cloud",
            started: DateTime::from_timestamp(1_764_000_000 + i as i64, 0).unwrap(),
            facts: Facts {
                variant: "—".into(),
                brand: "positivo".into(),
                partner: "—".into(),
                os: oses[i % 4].into(),
                platform: "mobile".into(),
                day: NaiveDate::from_ymd_opt(2026, 11, 1 + (i % 28) as u32).unwrap(),
            },
            marks,
            refusal: if steps < 6 { Some("Número de celular não encontrado.".into()) } else { None },
            person: Some(format!("p{}", i * 3 / 5)),
        });
    }
    for (count, bd) in
        [(Count::Attempts, None), (Count::Attempts, Some(Breakdown::Os)), (Count::People, Some(Breakdown::Os))]
    {
        let q = FunnelQuery {
            funnel: funnel("cloud", None).unwrap(),
            from: NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
            to: NaiveDate::from_ymd_opt(2026, 11, 30).unwrap(),
            window: Duration::days(14),
            order: Order::Sequential,
            breakdown: bd,
        };
        for _ in 0..3 {
            let t = Instant::now();
            let a = hot.answer(&q, count);
            let t1 = t.elapsed();
            let t = Instant::now();
            let d = hot.dropped(&q, count, 1, None, 1, 50);
            println!("{:?} {:?}: answer {:?} ({}), dropped {:?} ({})", count, bd, t1, a.attempts, t.elapsed(), d.total);
        }
    }
}
