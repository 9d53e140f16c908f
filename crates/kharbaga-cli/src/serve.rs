//! `kharbaga serve`: the web server with the browser page.

use crate::args::{BookSwitch, CliError, TablesDir};
use clap::Args;
use kharbaga::Rules;
use std::path::PathBuf;
use std::time::Duration;

/// Serve the browser page: play in a browser, against the engine or a person
///
/// Starts the web server (the page is built into the program) and prints the address to
/// open; Ctrl-C stops it. Play against a person at the same screen, the engine, or a person
/// elsewhere by an invitation link (with clocks if you like). Games are
/// stored in SQLite in the data folder, written on every move, and survive restarts; each
/// game has its own address. With endgame tables, the page shows the value of each position
/// they hold and of its moves, and the engine plays them at level 10 (hints too). The JSON
/// API is described in docs/api.md.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on (127.0.0.1: this machine only; 0.0.0.0 to expose it)
    #[arg(long, default_value = "127.0.0.1")]
    host: String,

    /// The port
    #[arg(long, default_value_t = 8080)]
    port: u16,

    /// The data folder (default: $XDG_DATA_HOME/kharbaga or ~/.local/share/kharbaga)
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,

    /// At most this many engine searches at once; the others wait
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    engine_searches: u32,

    /// At most this many requests wait for an engine search to start; more get 503 (busy)
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(0..=10_000))]
    search_queue: u32,

    /// At most this many games created a minute by one client address (an IPv6 client by
    /// its /64 network); more get 429. 0: no limit
    #[arg(long, value_name = "N", default_value_t = 30)]
    games_per_minute: u32,

    /// A host name the server answers to (repeatable), for a public deployment: by default
    /// only localhost names and IP addresses are answered, which keeps pages of other sites
    /// from reaching the server through DNS rebinding. `*` answers every name
    #[arg(long = "allowed-host", value_name = "NAME")]
    allowed_hosts: Vec<String>,

    /// The longest an engine move may think, in milliseconds
    #[arg(long, value_name = "MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(10..=600_000))]
    max_engine_time: u64,

    /// The longest a client may take to send a request's headers, and again its body, in
    /// seconds; slower connections are closed (idle keep-alive connections too)
    #[arg(long, value_name = "SECONDS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    read_timeout: u64,

    /// Delete the unfinished games nobody has moved in for this many days (0: keep them)
    #[arg(long, value_name = "DAYS", default_value_t = 30,
          value_parser = clap::value_parser!(u32).range(0..=36_500))]
    abandon_after: u32,

    /// What to log on standard error: a level (error, warn, info, debug, trace) or tracing
    /// directives such as kharbaga_server=debug,info (default: RUST_LOG, else info); one
    /// line per request, errors with their cause
    #[arg(long, value_name = "FILTER")]
    log: Option<String>,

    /// The endgame tables' directory (default: ~/.local/share/kharbaga/tables/RULES of
    /// --tables-rules, when it exists); used in the games whose rules have their moves
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,

    #[command(flatten)]
    book: BookSwitch,

    /// The rules of the tables: a rule set, optionally with ,OPTION=VALUE overrides
    #[arg(long, value_name = "RULES", default_value = "standard")]
    tables_rules: Rules,
}

/// Runs the server until it is stopped.
pub fn run(args: &ServeArgs) -> Result<(), CliError> {
    kharbaga_server::init_logging(args.log.as_deref()).map_err(CliError::Input)?;
    let tables = TablesDir {
        tables: args.tables.clone(),
    }
    .open(&args.tables_rules)?;
    let defaults = kharbaga_server::Config::default();
    let config = kharbaga_server::Config {
        host: args.host.clone(),
        port: args.port,
        data_dir: args.data.clone().unwrap_or(defaults.data_dir.clone()),
        max_engine_searches: args.engine_searches as usize,
        max_waiting_searches: args.search_queue as usize,
        max_games_per_minute: args.games_per_minute,
        allowed_hosts: args.allowed_hosts.clone(),
        max_engine_time: Duration::from_millis(args.max_engine_time),
        read_timeout: Duration::from_secs(args.read_timeout),
        tables,
        book: args.book.book(),
        abandon_after: (args.abandon_after > 0)
            .then(|| Duration::from_secs(u64::from(args.abandon_after) * 86_400)),
        ..defaults
    };
    // A failure here is the machine's (address in use, unwritable folder), not bad input.
    kharbaga_server::run(config).map_err(|e| CliError::Io(std::io::Error::other(e.to_string())))
}
