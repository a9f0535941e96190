//! The funnel's step table as a terminal table, CSV or JSON: per breakdown value and step,
//! entered, conversion from the previous and the first step, dropped, time to convert
//! (median, p90) and the top refusals with their counts.

use std::fmt::Write as _;

use events::funnel::{Funnel, StepRow};
use serde_json::{json, Value};

use crate::funnel::FunnelResult;

/// How many refusal messages each step lists.
pub const TOP_REFUSALS: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Csv,
    Json,
}

fn rows(funnel: &Funnel, result: &FunnelResult) -> Vec<(String, Vec<StepRow>)> {
    result.tallies().iter().map(|(key, tally)| (key.clone(), tally.rows(funnel, TOP_REFUSALS))).collect()
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn duration(ms: Option<i64>) -> String {
    match ms {
        None => "—".into(),
        Some(ms) if ms < 1_000 => format!("{ms} ms"),
        Some(ms) if ms < 60_000 => format!("{:.1} s", ms as f64 / 1000.0),
        Some(ms) => format!("{:.1} min", ms as f64 / 60_000.0),
    }
}

pub fn render(funnel: &Funnel, result: &FunnelResult, format: Format) -> String {
    match format {
        Format::Table => table(funnel, result),
        Format::Csv => csv(funnel, result),
        Format::Json => json(funnel, result).to_string(),
    }
}

fn table(funnel: &Funnel, result: &FunnelResult) -> String {
    let mut out = String::new();
    let title = match funnel.variant {
        Some(v) => format!("{} / {v}", funnel.flow),
        None => funnel.flow.to_string(),
    };
    if result.tallies().is_empty() {
        let _ = writeln!(out, "Funil {title}: nenhuma tentativa no período.");
        return out;
    }
    for (key, steps) in rows(funnel, result) {
        let _ = writeln!(out, "Funil {title} — {key}");
        let _ = writeln!(
            out,
            "{:<36} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10}",
            "etapa", "entraram", "da ant.", "da 1ª", "saíram", "mediana", "p90"
        );
        for row in &steps {
            let _ = writeln!(
                out,
                "{:<36} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10}",
                row.label,
                row.entered,
                pct(row.from_previous),
                pct(row.from_first),
                row.dropped,
                duration(row.median_ms),
                duration(row.p90_ms)
            );
            for (message, count) in &row.refusals {
                let _ = writeln!(out, "    recusa ({count}): {message}");
            }
        }
        out.push('\n');
    }
    out
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn csv(funnel: &Funnel, result: &FunnelResult) -> String {
    let mut out =
        String::from("breakdown,step,label,entered,from_previous,from_first,dropped,median_ms,p90_ms,top_refusals\n");
    for (key, steps) in rows(funnel, result) {
        for row in steps {
            let refusals: Vec<String> = row.refusals.iter().map(|(m, c)| format!("{c}× {m}")).collect();
            let _ = writeln!(
                out,
                "{},{},{},{},{:.4},{:.4},{},{},{},{}",
                csv_field(&key),
                row.key,
                csv_field(row.label),
                row.entered,
                row.from_previous,
                row.from_first,
                row.dropped,
                row.median_ms.map(|m| m.to_string()).unwrap_or_default(),
                row.p90_ms.map(|m| m.to_string()).unwrap_or_default(),
                csv_field(&refusals.join(" | "))
            );
        }
    }
    out
}

pub fn json(funnel: &Funnel, result: &FunnelResult) -> Value {
    let groups: Vec<Value> = rows(funnel, result)
        .into_iter()
        .map(|(key, steps)| {
            let steps: Vec<Value> = steps
                .iter()
                .map(|r| {
                    json!({
                        "step": r.key, "label": r.label, "entered": r.entered,
                        "from_previous": r.from_previous, "from_first": r.from_first, "dropped": r.dropped,
                        "median_ms": r.median_ms, "p90_ms": r.p90_ms,
                        "refusals": r.refusals.iter().map(|(m, c)| json!({ "message": m, "count": c })).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({ "breakdown": key, "steps": steps })
        })
        .collect();
    json!({ "flow": funnel.flow, "variant": funnel.variant, "events_read": result.events_read, "groups": groups })
}
