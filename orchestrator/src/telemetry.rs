//! Tracing set-up: human-readable logs by default, JSON with `LOG_FORMAT=json`.

use tracing_subscriber::{fmt, EnvFilter};

use crate::config::LogFormat;

pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    // try_init: tests may call this more than once in one process.
    let _ = match format {
        LogFormat::Json => fmt().with_env_filter(filter).json().try_init(),
        LogFormat::Text => fmt().with_env_filter(filter).try_init(),
    };
}
