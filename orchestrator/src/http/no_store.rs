//! `Cache-Control: no-store` on every `/api/` answer: attempt views carry personal data, the
//! staff routes a console's, and no shared cache, back button or disk cache is to keep them.
//! The web app's pages and assets keep their own caching (`static_files`).

use axum::extract::Request;
use axum::http::header::CACHE_CONTROL;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

/// Whether `path` is the API's.
pub fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

pub async fn no_store(request: Request, next: Next) -> Response {
    let api = is_api(request.uri().path());
    let mut response = next.run(request).await;
    if api {
        response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_api_is_no_store() {
        for path in ["/api", "/api/attempts", "/api/staff/session"] {
            assert!(is_api(path), "{path}");
        }
        for path in ["/", "/apis", "/api-docs", "/static/app.js", "/healthz"] {
            assert!(!is_api(path), "{path}");
        }
    }
}
