//! Desktop antivirus download, the I/O half: the upstream client (phone auth, document
//! database, antivirus API v1), the runner steps and the installer route. The pure half is
//! `events::flows::download`; decisions the spec left open are in `docs/download-flow.md`.

pub mod client;
pub mod steps;

pub use client::{CallError, DesktopClient};
pub use steps::DownloadSteps;
