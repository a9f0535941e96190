//! A look-up's results as CSV (issue 27): one row per attempt summary, nothing personal (the
//! summaries hold none; the search key is not repeated), cells that a spreadsheet would read as
//! a formula neutralized (OWASP's CSV injection advice), RFC 4180 quoting, `\r\n` lines.

use super::summary::Summary;

pub const HEADER: [&str; 12] = [
    "id",
    "fluxo",
    "variante",
    "inicio_utc",
    "atualizado_utc",
    "ultima_etapa",
    "resultado",
    "mensagem",
    "etapa_do_resultado",
    "minutos_parada",
    "duracao_ms",
    "repeticoes",
];

/// Most rows an export holds (a person has a handful of attempts; this bounds a serial's).
pub const MAX_ROWS: usize = 10_000;

/// One cell: a leading `=`, `+`, `-`, `@`, tab or carriage return gets a `'` before it; a cell
/// with a comma, quote or line break is quoted, its quotes doubled.
pub fn cell(text: &str) -> String {
    let guarded = match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_string(),
    };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

fn row(cells: &[String]) -> String {
    let mut line = cells.iter().map(|c| cell(c)).collect::<Vec<_>>().join(",");
    line.push_str("\r\n");
    line
}

/// The CSV of `summaries`, header first.
pub fn to_csv(summaries: &[Summary]) -> String {
    let mut out = row(&HEADER.map(str::to_string));
    for s in summaries.iter().take(MAX_ROWS) {
        let time = |t: chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        out.push_str(&row(&[
            s.id.clone(),
            s.flow.clone(),
            s.variant.clone().unwrap_or_default(),
            time(s.started_at),
            time(s.updated_at),
            s.last_step.clone().unwrap_or_default(),
            s.outcome.kind.to_string(),
            s.outcome.message.clone().unwrap_or_default(),
            s.outcome.step.clone().unwrap_or_default(),
            s.outcome.minutes.map(|m| m.to_string()).unwrap_or_default(),
            s.duration_ms.to_string(),
            s.retries.to_string(),
        ]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::summary::Outcome;

    #[test]
    fn formulas_are_neutralized_and_separators_quoted() {
        assert_eq!(cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(cell("-1"), "'-1");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(cell("Ops, esse serial"), "\"Ops, esse serial\"");
        assert_eq!(cell("send_code"), "send_code");
        assert_eq!(cell(""), "");
    }

    #[test]
    fn one_row_per_attempt_after_the_header() {
        let at = |s: &str| s.parse::<chrono::DateTime<chrono::Utc>>().expect("time");
        let summary = Summary {
            id: "cloud-1".into(),
            flow: "cloud".into(),
            variant: None,
            started_at: at("2026-11-26T12:00:00Z"),
            updated_at: at("2026-11-26T12:03:00.250Z"),
            last_step: Some("validate_code".into()),
            outcome: Outcome {
                kind: "refused",
                message: Some("Código incorreto, verifique a mensagem enviada e tente novamente!".into()),
                step: None,
                minutes: None,
            },
            duration_ms: 180_250,
            retries: 2,
        };
        let csv = to_csv(&[summary]);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines[0], HEADER.join(","));
        assert_eq!(
            lines[1],
            "cloud-1,cloud,,2026-11-26T12:00:00Z,2026-11-26T12:03:00Z,validate_code,refused,\
             \"Código incorreto, verifique a mensagem enviada e tente novamente!\",,,180250,2"
        );
        assert_eq!(lines[2], "", "the last line ends too");
    }
}
