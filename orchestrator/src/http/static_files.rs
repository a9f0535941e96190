//! Serves the web build: hashed files with a long cache, the SPA's routes fall back to
//! index.html, and every other path gets index.html with HTTP 404 (the app renders its
//! "page not found" screen inside the site's layout, and crawlers see a real 404).

use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::{header, HeaderValue, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::http::state::AppState;

/// Vite writes content-hashed files under `static/`; their names change with their content.
/// The build also writes a `.gz` beside each text file (web/scripts/precompress.mjs), sent to
/// browsers that accept gzip.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Everything else (index.html, robots.txt, PDFs) must be revalidated so a deploy shows at once.
const REVALIDATE: &str = "no-cache";

/// The client's route table (web/src/App.tsx; the spec's section 2), exact paths.
const SPA_ROUTES: &[&str] = &[
    "/",
    "/contato",
    "/faq",
    "/seguranca",
    "/seguranca/brisanet",
    "/cloud",
    "/gestao",
    "/chat",
    "/links",
    "/assets/termos-de-uso.htm",
    "/assets/politica-de-privacidade.htm",
    "/assets/termos-de-uso-e-privacidade.pdf",
    "/termos",
    "/atendimento",
    "/cloud/positivo",
    "/cliente/hero",
    "/seguranca/ativar",
    "/seguranca/ativarbradescoseguros",
    "/seguranca/ativarsumicity",
    "/seguranca/ativarbrisanet",
    "/seguranca/ativaragility",
    "/seguranca/tim",
    "/suporte",
    "/suporte/entrar",
    "/analise",
];

/// Routes with one parameter segment after the prefix (`/av-desktop/download/{os}`); the app
/// itself redirects an unknown `os`.
const SPA_PARAM_ROUTES: &[&str] = &["/av-desktop/download/", "/suporte/tentativas/"];

/// Whether the client app has a screen for `path` (a trailing slash is ignored, as the
/// client's router does).
pub fn is_client_route(path: &str) -> bool {
    let path = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    let path = if path.is_empty() { "/" } else { path };
    SPA_ROUTES.contains(&path)
        || SPA_PARAM_ROUTES
            .iter()
            .any(|prefix| path.strip_prefix(prefix).is_some_and(|param| !param.is_empty() && !param.contains('/')))
}

pub fn router(dist: &Path) -> Router<AppState> {
    let index = dist.join("index.html");
    let hashed = Router::new()
        .nest_service("/static", ServeDir::new(dist.join("static")).precompressed_gzip())
        .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE)));
    let spa = tower::service_fn(move |request: Request<Body>| spa_page(index.clone(), request));
    let rest = Router::new()
        .fallback_service(ServeDir::new(dist).precompressed_gzip().fallback(spa))
        .layer(SetResponseHeaderLayer::if_not_present(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE)));
    hashed.merge(rest)
}

/// index.html for a path with no file: 200 on the client's routes, 404 elsewhere.
async fn spa_page(index: PathBuf, mut request: Request<Body>) -> Result<Response, std::convert::Infallible> {
    let known = is_client_route(request.uri().path());
    if !known {
        // A 404 is never a "not modified": always send the page.
        request.headers_mut().remove(header::IF_MODIFIED_SINCE);
        request.headers_mut().remove(header::IF_NONE_MATCH);
    }
    let mut response = match ServeFile::new(index).precompressed_gzip().oneshot(request).await {
        Ok(response) => response.into_response(),
        Err(never) => match never {},
    };
    if !known && response.status().is_success() {
        *response.status_mut() = StatusCode::NOT_FOUND;
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_route_table_and_its_parameter() {
        for path in [
            "/",
            "/contato",
            "/contato/",
            "/links",
            "/assets/termos-de-uso.htm",
            "/av-desktop/download/win_pc",
            "/av-desktop/download/linux",
            "/seguranca/tim",
        ] {
            assert!(is_client_route(path), "{path}");
        }
        for path in [
            "/nada",
            "/av-desktop/download/",
            "/av-desktop/download/mac/x",
            "/seguranca/ativar/extra",
            "/assets/outro.htm",
        ] {
            assert!(!is_client_route(path), "{path}");
        }
    }

    /// Every literal `path="…"` of the client's router is a known route here.
    #[test]
    fn every_route_of_the_web_app_is_known() {
        let app = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/App.tsx")).expect("App.tsx");
        let paths: Vec<&str> = app.split("path=\"").skip(1).filter_map(|rest| rest.split('"').next()).collect();
        assert!(paths.len() > 15, "{paths:?}");
        for path in paths.into_iter().filter(|p| *p != "*") {
            let concrete = path.replace(":os", "win_pc");
            assert!(is_client_route(&concrete), "{path} is in App.tsx but not in SPA_ROUTES");
        }
    }
}
