//! Serves the web build: hashed files with a long cache, every other path falls back to the SPA.

use std::path::Path;

use axum::http::{header, HeaderValue};
use axum::Router;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::state::AppState;

/// Vite writes content-hashed files under `static/`; their names change with their content.
/// The build also writes a `.gz` beside each text file (web/scripts/precompress.mjs), sent to
/// browsers that accept gzip.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Everything else (index.html, robots.txt, PDFs) must be revalidated so a deploy shows at once.
const REVALIDATE: &str = "no-cache";

pub fn router(dist: &Path) -> Router<AppState> {
    let index = dist.join("index.html");
    let hashed = Router::new()
        .nest_service("/static", ServeDir::new(dist.join("static")).precompressed_gzip())
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static(IMMUTABLE),
        ));
    let rest = Router::new()
        .fallback_service(
            ServeDir::new(dist)
                .precompressed_gzip()
                .fallback(ServeFile::new(index).precompressed_gzip()),
        )
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static(REVALIDATE),
        ));
    hashed.merge(rest)
}
