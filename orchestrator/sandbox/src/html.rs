//! The few HTML pages the sandbox serves share one escape and one frame.

use axum::response::Html;

pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A complete page in Portuguese; `head_extra` and `body` are already escaped HTML.
pub fn page(title: &str, head_extra: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html>\n<html lang=\"pt-BR\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"robots\" content=\"noindex\">\n<title>{title}</title>\n{head_extra}\n\
         <style>body{{font-family:system-ui,sans-serif;margin:0 auto;max-width:52rem;padding:1rem;color:#1d1d1f}}\
         table{{border-collapse:collapse;width:100%}}th,td{{border-bottom:1px solid #ddd;padding:.5rem;text-align:left}}\
         code{{font-size:1.1em}}button,a.button{{font:inherit;padding:.6rem 1rem;border-radius:8px;border:0;\
         background:#5b2ee0;color:#fff;cursor:pointer;text-decoration:none;display:inline-block;margin:.25rem 0}}\
         .secondary{{background:#e6e0fa;color:#2b1a6b}}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n",
        title = escape(title),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(escape(r#"<a href="x">&'"#), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    }
}
