//! The security headers of every answer (issue 16, item 8): a Content-Security-Policy that runs
//! no inline script but the web build's own (allowed by its SHA-256, read from `index.html` at
//! start), frames only the configured chatbot and the portal's own documents, and lets no site
//! frame the portal but the portal's own PDFs, which `/links` embeds (issue 29);
//! `X-Content-Type-Options`, `Referrer-Policy`, `Permissions-Policy`; HSTS when the request
//! came over https (behind a proxy: `X-Forwarded-Proto: https`).

use std::path::Path;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use sha2::{Digest, Sha256};

/// The headers every answer carries, built once.
#[derive(Debug, Clone)]
pub struct SecurityHeaders {
    csp: HeaderValue,
    /// The policy of the portal's own PDFs: framed by the portal's pages only.
    pdf_csp: HeaderValue,
}

/// Where the PDFs `/links?q=` embeds are served (`web/public/docs/`).
const DOCUMENTS_PREFIX: &str = "/docs/";

/// Whether `path` is one of the portal's own PDFs, the only answers a portal page may frame.
fn is_own_pdf(path: &str) -> bool {
    path.starts_with(DOCUMENTS_PREFIX) && path.ends_with(".pdf") && !path.contains("..")
}

/// `'sha256-…'` of every inline `<script>` (one without `src`) of an HTML page.
pub fn inline_script_hashes(html: &str) -> Vec<String> {
    let mut hashes = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find("<script") {
        let after = &rest[open..];
        let Some(tag_end) = after.find('>') else { break };
        let tag = &after[..tag_end];
        let body = &after[tag_end + 1..];
        let Some(close) = body.find("</script>") else { break };
        if !tag.contains("src=") {
            hashes.push(format!("'sha256-{}'", B64.encode(Sha256::digest(&body.as_bytes()[..close]))));
        }
        rest = &body[close..];
    }
    hashes
}

/// The origin (`scheme://host[:port]`) of a URL, for a CSP source.
fn origin(url: &str) -> Option<String> {
    let url = reqwest::Url::parse(url).ok()?;
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{}://{host}:{port}", url.scheme()),
        None => format!("{}://{host}", url.scheme()),
    })
}

impl SecurityHeaders {
    /// The policy for the build in `web_dist`, framing `chatbot_url`'s origin and showing the
    /// chatbot's avatar from `avatar_url`'s.
    pub fn new(web_dist: &Path, chatbot_url: &str, avatar_url: &str) -> Self {
        let index = std::fs::read_to_string(web_dist.join("index.html")).unwrap_or_default();
        let scripts = inline_script_hashes(&index).join(" ");
        let frames = origin(chatbot_url).unwrap_or_else(|| "'none'".into());
        let images = origin(avatar_url).unwrap_or_default();
        // 'self' in frame-src: `/links` embeds our PDFs, and a page reached by a client-side
        // navigation keeps the policy of the page the visitor first loaded.
        let csp = format!(
            "default-src 'self'; script-src 'self' {scripts}; style-src 'self' 'unsafe-inline'; img-src 'self' data: {images}; \
             font-src 'self'; connect-src 'self'; frame-src 'self' {frames}; frame-ancestors 'none'; base-uri 'self'; \
             form-action 'self'; object-src 'none'"
        );
        let csp = HeaderValue::from_str(&csp.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or(HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'; object-src 'none'"));
        // No object-src here: the browser's PDF viewer is the document's own plugin.
        let pdf_csp =
            HeaderValue::from_static("default-src 'none'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'");
        Self { csp, pdf_csp }
    }
}

/// Adds the headers to every answer (a handler's own, such as the installer's, are kept).
pub async fn add(State(headers): State<Arc<SecurityHeaders>>, request: Request, next: Next) -> Response {
    let https = request.uri().scheme_str() == Some("https")
        || request
            .headers()
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|p| p.eq_ignore_ascii_case("https"));
    let csp = if is_own_pdf(request.uri().path()) { &headers.pdf_csp } else { &headers.csp };
    let mut response = next.run(request).await;
    let out = response.headers_mut();
    out.entry(header::CONTENT_SECURITY_POLICY).or_insert(csp.clone());
    out.entry(header::X_CONTENT_TYPE_OPTIONS).or_insert(HeaderValue::from_static("nosniff"));
    out.entry(header::REFERRER_POLICY).or_insert(HeaderValue::from_static("strict-origin-when-cross-origin"));
    out.entry("permissions-policy")
        .or_insert(HeaderValue::from_static("camera=(), microphone=(), geolocation=(), payment=(), usb=()"));
    if https {
        out.entry(header::STRICT_TRANSPORT_SECURITY)
            .or_insert(HeaderValue::from_static("max-age=31536000; includeSubDomains"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_inline_scripts_are_hashed() {
        let html = r#"<head><script>window.a=1</script><script type="module" src="/static/x.js"></script></head>"#;
        let hashes = inline_script_hashes(html);
        assert_eq!(hashes, vec![format!("'sha256-{}'", B64.encode(Sha256::digest(b"window.a=1")))]);
        assert!(inline_script_hashes("<p>no scripts</p>").is_empty());
    }

    #[test]
    fn the_policy_frames_the_chatbot_only_and_runs_the_builds_own_script() {
        let dist = tempfile::tempdir().expect("dist");
        std::fs::write(dist.path().join("index.html"), "<script>preload()</script>").expect("index");
        let headers = SecurityHeaders::new(
            dist.path(),
            "http://127.0.0.1:8090/chatbot/?p=hero",
            "https://cdn.example/avatar.svg",
        );
        let csp = headers.csp.to_str().expect("ascii");
        assert!(csp.contains("frame-src 'self' http://127.0.0.1:8090;"), "{csp}");
        assert!(csp.contains("img-src 'self' data: https://cdn.example;"), "{csp}");
        assert!(
            csp.contains(&format!("script-src 'self' 'sha256-{}';", B64.encode(Sha256::digest(b"preload()")))),
            "{csp}"
        );
        assert!(csp.contains("frame-ancestors 'none'") && !csp.contains("unsafe-eval"), "{csp}");
        let pdf = headers.pdf_csp.to_str().expect("ascii");
        assert!(pdf.contains("frame-ancestors 'self'") && pdf.contains("default-src 'none'"), "{pdf}");
    }

    #[test]
    fn only_the_portals_own_pdfs_may_be_framed() {
        assert!(is_own_pdf("/docs/nc-exa.pdf"));
        for path in ["/", "/links", "/docs/", "/docs/x.html", "/docs/../index.html.pdf", "/api/x.pdf"] {
            assert!(!is_own_pdf(path), "{path}");
        }
    }
}
