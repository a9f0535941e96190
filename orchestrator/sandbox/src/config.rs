//! What the sandbox needs to start: its seed.

/// Seed used when `SANDBOX_SEED` is not set.
pub const DEFAULT_SEED: u64 = 1;

/// What the sandbox needs to start. The same seed gives the same codes, ids and tokens for the
/// same sequence of calls.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct SandboxConfig {
    /// Seed of the sandbox's codes, ids and tokens.
    #[arg(long, env = "SANDBOX_SEED", default_value_t = DEFAULT_SEED)]
    pub seed: u64,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        Self { seed: DEFAULT_SEED }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        config: SandboxConfig,
    }

    #[test]
    fn seed_parses_or_is_refused() {
        use clap::Parser;
        let parsed = |args: &[&str]| Cli::try_parse_from(args).map(|cli| cli.config.seed).ok();
        assert_eq!(parsed(&["sandbox", "--seed", "42"]), Some(42));
        assert_eq!(parsed(&["sandbox", "--seed", "quarenta"]), None);
        assert_eq!(SandboxConfig::default().seed, DEFAULT_SEED);
    }
}
