//! Serves the web build: hashed files with a long cache; the public pages prerendered at build
//! time (`dist/prerendered/`, docs/site.md) as their own HTML; the SPA's other routes fall back
//! to index.html, and every other path gets index.html with HTTP 404 (the app renders its
//! "page not found" screen inside the site's layout, and crawlers see a real 404).

use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::{header, HeaderValue, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// Where the build keeps the prerendered pages: `index.html` for `/`, `<route>.html` otherwise.
const PRERENDERED: &str = "prerendered";

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

pub fn router<S: Clone + Send + Sync + 'static>(dist: &Path) -> Router<S> {
    let index = dist.join("index.html");
    let hashed = Router::new()
        .nest_service("/static", ServeDir::new(dist.join("static")).precompressed_gzip())
        .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE)));
    let dist = dist.to_path_buf();
    let pages = tower::service_fn(move |request: Request<Body>| page(dist.clone(), index.clone(), request));
    let rest = Router::new()
        .fallback_service(pages)
        .layer(SetResponseHeaderLayer::if_not_present(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE)));
    hashed.merge(rest)
}

/// A public page's prerendered HTML when the build has it; else the file at the path; else
/// index.html ([`spa_page`]). The prerendered files have one address each: their route.
async fn page(dist: PathBuf, index: PathBuf, request: Request<Body>) -> Result<Response, std::convert::Infallible> {
    let path = request.uri().path();
    let answer = if path.trim_start_matches('/').split('/').next() == Some(PRERENDERED) {
        return spa_page(index, request).await;
    } else if let Some(file) = prerendered(&dist, path) {
        ServeFile::new(file).precompressed_gzip().oneshot(request).await
    } else {
        let spa = tower::service_fn(move |request: Request<Body>| spa_page(index.clone(), request));
        ServeDir::new(dist).precompressed_gzip().fallback(spa).oneshot(request).await
    };
    match answer {
        Ok(response) => Ok(response.into_response()),
        Err(never) => match never {},
    }
}

/// The prerendered page of `path`, if `path` is one of the client's fixed routes (never a
/// parameter: nothing a visitor types becomes a file name) and the build prerendered it.
fn prerendered(dist: &Path, path: &str) -> Option<PathBuf> {
    let route = if path.len() > 1 { path.trim_end_matches('/') } else { path };
    if !SPA_ROUTES.contains(&route) {
        return None;
    }
    let file = match route {
        "/" => dist.join(PRERENDERED).join("index.html"),
        route => dist.join(format!("{PRERENDERED}{route}.html")),
    };
    file.is_file().then_some(file)
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

    /// The build's prerendered pages answer their routes (a trailing slash too); the flows
    /// keep the shell; the prerendered files have no address of their own.
    #[tokio::test]
    async fn a_prerendered_page_answers_its_route() {
        let dist = tempfile::tempdir().expect("dist");
        std::fs::write(dist.path().join("index.html"), "shell").expect("shell");
        std::fs::create_dir_all(dist.path().join("prerendered/seguranca")).expect("dir");
        std::fs::write(dist.path().join("prerendered/index.html"), "home").expect("home");
        std::fs::write(dist.path().join("prerendered/faq.html"), "faq").expect("faq");
        std::fs::write(dist.path().join("prerendered/seguranca.html"), "seguranca").expect("seguranca");
        let app: Router = router(dist.path());
        let get = |path: &'static str| {
            let app = app.clone();
            async move {
                let response =
                    app.oneshot(Request::get(path).body(Body::empty()).expect("request")).await.expect("answer");
                let status = response.status();
                let body = axum::body::to_bytes(response.into_body(), 1 << 20).await.expect("body");
                (status, String::from_utf8_lossy(&body).into_owned())
            }
        };
        assert_eq!(get("/").await, (StatusCode::OK, "home".into()));
        assert_eq!(get("/faq").await, (StatusCode::OK, "faq".into()));
        assert_eq!(get("/faq/").await, (StatusCode::OK, "faq".into()));
        assert_eq!(get("/seguranca").await, (StatusCode::OK, "seguranca".into()));
        assert_eq!(get("/seguranca/ativar").await, (StatusCode::OK, "shell".into()));
        assert_eq!(get("/contato").await, (StatusCode::OK, "shell".into()), "not prerendered in this build");
        assert_eq!(get("/prerendered/faq.html").await, (StatusCode::NOT_FOUND, "shell".into()));
        assert_eq!(get("/nada").await, (StatusCode::NOT_FOUND, "shell".into()));
    }

    /// Every literal path of the client's router (`path="…"` in App.tsx, `path: '…'` in the
    /// table of flows it routes from) is a known route here.
    #[test]
    fn every_route_of_the_web_app_is_known() {
        let read = |file: &str| {
            std::fs::read_to_string(format!("{}/../web/src/{file}", env!("CARGO_MANIFEST_DIR"))).expect(file)
        };
        let (app, flows) = (read("App.tsx"), read("lib/flows.ts"));
        let literal = |text: &'static str, open: &'static str, close: char| {
            text.split(open).skip(1).filter_map(move |rest| rest.split(close).next())
        };
        let app: &'static str = app.leak();
        let flows: &'static str = flows.leak();
        let paths: Vec<&str> = literal(app, "path=\"", '"').chain(literal(flows, "path: '", '\'')).collect();
        assert!(paths.len() > 25, "{paths:?}");
        assert!(paths.contains(&"/seguranca/tim") && paths.contains(&"/cloud/positivo"), "{paths:?}");
        for path in paths.into_iter().filter(|p| *p != "*") {
            let concrete = path.replace(":os", "win_pc");
            assert!(is_client_route(&concrete), "{path} is in the web app's routes but not in SPA_ROUTES");
        }
    }
}
