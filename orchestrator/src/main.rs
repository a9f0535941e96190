use clap::{Parser, Subcommand};
use orchestrator::config::{LogFormat, ServeConfig};
use orchestrator::operator::{self, KeysCommand, PersonCommand, StaffCommand};

// mimalloc instead of glibc's malloc: at capacity the portal spent a seventh of its CPU in
// glibc's malloc and free (docs/throughput.md, "Where the time goes at capacity").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The EXA portal's orchestrator.
#[derive(Parser)]
#[command(name = "orchestrator", version)]
struct Cli {
    /// How logs are written (the level comes from `RUST_LOG`).
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    log_format: LogFormat,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the portal: HTTP API, the web app and the step runner.
    Serve(ServeConfig),
    /// Apply the database migrations and exit.
    Migrate(ServeConfig),
    /// Support console staff accounts (docs/support.md).
    Staff {
        #[command(subcommand)]
        command: StaffCommand,
    },
    /// A person's personal data (LGPD requests that arrive by mail).
    Person {
        #[command(subcommand)]
        command: PersonCommand,
    },
    /// The personal-data keys (docs/security.md).
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    orchestrator::telemetry::init(cli.log_format);
    match cli.command {
        Command::Serve(config) => orchestrator::startup::run(config).await,
        Command::Migrate(config) => orchestrator::startup::connect(&config).await.map(|_| ()),
        Command::Staff { command } => operator::staff(command).await,
        Command::Person { command } => operator::person(command).await,
        Command::Keys { command: KeysCommand::Rotate { batch, config } } => operator::rotate(batch, &config).await,
    }
}
