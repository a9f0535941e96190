//! The chatbot orchestrator's page for the portal's embedded frame (`?p=hero`): a small
//! self-contained chat in Portuguese with a few canned answers, and its avatar.

use axum::extract::Query;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

use super::html::page;
use super::intercept::tracked;
use super::state::SandboxState;
use super::urls::CHATBOT;

/// The only bot the portal embeds.
pub const BOT: &str = "hero";

pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    let chat = || tracked(state, "chatbot.page", get(chat_page));
    Router::new()
        .route(CHATBOT, chat())
        .route(&format!("{CHATBOT}/"), chat())
        .route(&format!("{CHATBOT}/avatar.svg"), tracked(state, "chatbot.avatar", get(avatar)))
}

#[derive(Deserialize)]
struct BotQuery {
    p: Option<String>,
}

async fn chat_page(Query(query): Query<BotQuery>) -> Response {
    if query.p.as_deref() != Some(BOT) {
        let body = "<h1>Assistente não encontrado</h1>\n<p>Use <code>?p=hero</code>.</p>";
        return (StatusCode::NOT_FOUND, page("Assistente não encontrado", "", body)).into_response();
    }
    Html(CHAT_PAGE.replace("{AVATAR}", &format!("{CHATBOT}/avatar.svg"))).into_response()
}

async fn avatar() -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "public, max-age=3600")], AVATAR_SVG)
        .into_response()
}

const AVATAR_SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\" viewBox=\"0 0 64 64\" \
role=\"img\" aria-label=\"Assistente EXA\"><circle cx=\"32\" cy=\"32\" r=\"32\" fill=\"#5b2ee0\"/>\
<rect x=\"16\" y=\"20\" width=\"32\" height=\"24\" rx=\"8\" fill=\"#fff\"/>\
<circle cx=\"26\" cy=\"32\" r=\"3\" fill=\"#5b2ee0\"/><circle cx=\"38\" cy=\"32\" r=\"3\" fill=\"#5b2ee0\"/>\
<rect x=\"30\" y=\"12\" width=\"4\" height=\"8\" rx=\"2\" fill=\"#fff\"/></svg>";

/// Self-contained: no external script, style or font, so the frame works offline.
const CHAT_PAGE: &str = r#"<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Assistente EXA</title>
<style>
  body { margin: 0; font-family: system-ui, sans-serif; display: flex; flex-direction: column; height: 100vh; color: #1d1d1f; }
  header { display: flex; align-items: center; gap: .5rem; padding: .75rem; background: #5b2ee0; color: #fff; }
  header img { width: 32px; height: 32px; }
  #log { flex: 1; overflow-y: auto; padding: .75rem; display: flex; flex-direction: column; gap: .5rem; }
  .msg { max-width: 85%; padding: .5rem .75rem; border-radius: 12px; line-height: 1.4; }
  .bot { background: #efeafd; align-self: flex-start; }
  .me { background: #5b2ee0; color: #fff; align-self: flex-end; }
  form { display: flex; gap: .5rem; padding: .75rem; border-top: 1px solid #ddd; }
  input { flex: 1; font: inherit; padding: .5rem; min-height: 24px; }
  button { font: inherit; padding: .5rem 1rem; border: 0; border-radius: 8px; background: #5b2ee0; color: #fff; min-height: 24px; }
</style>
</head>
<body>
<header><img src="{AVATAR}" alt=""><strong>Assistente EXA</strong></header>
<main id="log" aria-live="polite">
  <div class="msg bot">Olá! Eu sou o assistente virtual da EXA. Como posso ajudar?</div>
  <div class="msg bot">Você pode perguntar sobre ativação, código por SMS, antivírus para computador ou EXA Cloud.</div>
</main>
<form id="chat">
  <label for="text" hidden>Sua mensagem</label>
  <input id="text" autocomplete="off" placeholder="Digite sua mensagem" required>
  <button type="submit">Enviar</button>
</form>
<script>
  const answers = [
    [/c[oó]digo|sms/i, "O código chega por SMS e vale por 15 minutos (5 minutos no EXA Cloud). Se não chegou ou expirou, use 'Reenviar código'."],
    [/ativ/i, "Para ativar o EXA Segurança, informe seu celular e o código da licença na página de ativação. Depois digite o código recebido por SMS."],
    [/antiv[ií]rus|computador|windows|mac|download/i, "O antivírus para computador é baixado em /av-desktop/download/win_pc (Windows) ou /av-desktop/download/mac, após confirmar seu celular por SMS."],
    [/cloud|nuvem|s[eé]rie/i, "Para ativar o EXA Cloud, informe o número de série que está na etiqueta do computador e confirme o código enviado por SMS."],
    [/ol[aá]|oi|bom dia|boa tarde|boa noite/i, "Olá! Em que posso ajudar?"],
  ];
  const fallback = "Não entendi. Você pode falar com nosso atendimento pela página de Contato.";
  const log = document.getElementById("log");
  const input = document.getElementById("text");
  function say(text, who) {
    const div = document.createElement("div");
    div.className = "msg " + who;
    div.textContent = text;
    log.appendChild(div);
    log.scrollTop = log.scrollHeight;
  }
  document.getElementById("chat").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    say(text, "me");
    input.value = "";
    const hit = answers.find(([pattern]) => pattern.test(text));
    setTimeout(() => say(hit ? hit[1] : fallback, "bot"), 300);
  });
</script>
</body>
</html>
"#;
