//! The SMS inbox: every code the sandbox "sent", newest first, as JSON (`/sms?to=`) or as a
//! small Portuguese page (`/sms`) that the portal's footer links to in sandbox mode.

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use super::br_ids;
use super::html::{escape, page};
use super::records::inbox::Sms;
use super::state::SandboxState;
use super::urls;

pub fn routes() -> Router<SandboxState> {
    Router::new().route(urls::SMS_INBOX, get(inbox))
}

#[derive(Deserialize)]
struct InboxQuery {
    to: Option<String>,
}

async fn inbox(State(state): State<SandboxState>, Query(query): Query<InboxQuery>) -> Response {
    match query.to {
        Some(to) if br_ids::msisdn_national(&to).is_some() => {
            Json(state.with(|w| w.inbox.for_phone(&to))).into_response()
        }
        Some(_) => (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": "to deve ser 55 + DDD + número, por exemplo 5511910000001" })),
        )
            .into_response(),
        None => inbox_page(&state.with(|w| w.inbox.all())).into_response(),
    }
}

fn inbox_page(messages: &[Sms]) -> axum::response::Html<String> {
    let rows: String = messages
        .iter()
        .map(|sms| {
            format!(
                "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n",
                escape(&display_phone(&sms.to)),
                escape(&sms.code),
                escape(&sms.text),
                sms.sent_at.format("%d/%m/%Y %H:%M:%S UTC"),
            )
        })
        .collect();
    let listing = if messages.is_empty() {
        "<p>Nenhuma mensagem enviada ainda. Peça um código no portal e ele aparece aqui.</p>".to_string()
    } else {
        format!(
            "<table>\n<thead><tr><th>Para</th><th>Código</th><th>Mensagem</th><th>Enviada em</th></tr></thead>\n\
             <tbody>\n{rows}</tbody>\n</table>"
        )
    };
    page(
        "Caixa de SMS do sandbox",
        // Refreshes itself so a code requested in another tab shows up without a click.
        "<meta http-equiv=\"refresh\" content=\"3\">",
        &format!(
            "<h1>Caixa de SMS do sandbox</h1>\n<p>Códigos que o ambiente de testes enviaria por SMS, \
             do mais recente ao mais antigo. Nenhuma mensagem real é enviada.</p>\n{listing}"
        ),
    )
}

/// `5511910000001` as `+55 (11) 91000-0001`.
fn display_phone(msisdn: &str) -> String {
    match br_ids::msisdn_national(msisdn) {
        Some(n) => format!("+55 ({}) {}-{}", &n[..2], &n[2..7], &n[7..]),
        None => msisdn.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phones_display_with_the_mask() {
        assert_eq!(display_phone("5511910000001"), "+55 (11) 91000-0001");
    }
}
