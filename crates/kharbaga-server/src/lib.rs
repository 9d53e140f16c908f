//! The Kharbaga web server: a JSON API over the rules and the engine, games stored in
//! SQLite, and the browser page embedded in the binary.
//!
//! [`run`] is the blocking entry point of `kharbaga serve`; [`serve_on`] serves on a listener
//! the caller has bound (tests bind port 0); [`app`] builds the router alone.
//!
//! The API is documented in `docs/api.md`.

#![warn(missing_docs)]

mod api;
mod assets;
mod connections;
mod engine;
mod logging;
mod markdown;
mod security;
mod store;
mod tables;

use kharbaga_engine::book::Book;
use kharbaga_tablebase::tablebase::Tablebase;
pub use logging::init_logging;
use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (`127.0.0.1` by default: only this machine).
    pub host: String,
    /// The TCP port (8080 by default; 0 picks a free one).
    pub port: u16,
    /// The folder of the game database `games.sqlite3`, created if missing
    /// ([`default_data_dir`] by default).
    pub data_dir: PathBuf,
    /// At most this many engine searches run at once; further requests wait their turn.
    pub max_engine_searches: usize,
    /// At most this many requests wait for a search to start; further ones are refused
    /// (503 with `Retry-After`) until the queue shortens.
    pub max_waiting_searches: usize,
    /// The longest an engine may think about one move or one hint; longer requests are cut
    /// to this.
    pub max_engine_time: Duration,
    /// How long the engine thinks about a move when the request does not say.
    pub default_engine_time: Duration,
    /// The engine's transposition table size per search, in MiB.
    pub engine_hash_mib: usize,
    /// The largest request body accepted, in bytes (larger ones get 413).
    pub max_body_bytes: usize,
    /// The longest a client may take to send a request's headers (the connection is then
    /// closed; this also closes idle keep-alive connections), and again its body (408).
    pub read_timeout: Duration,
    /// At most this many games created per minute by one client address (429 beyond); 0
    /// for no limit.
    pub max_games_per_minute: u32,
    /// The host names the server answers to besides `localhost` (and its subdomains) and IP
    /// addresses: the names of a public deployment. Requests for other names get 421, which
    /// keeps DNS rebinding pages away from a server on 127.0.0.1. `*` allows every name.
    pub allowed_hosts: Vec<String>,
    /// Endgame tables (none by default): the engine probes them at level 10, and the game
    /// state shows their values, in games whose rules have the tables' moves (the same
    /// [`kharbaga_tablebase::files::rules_key`]).
    pub tables: Option<Arc<Tablebase>>,
    /// The opening book the engine plays from (none by default; `kharbaga serve` gives
    /// the built-in one unless `--no-book`).
    pub book: Option<Arc<Book>>,
    /// Unfinished games nobody has changed for this long are deleted (looked for at the
    /// start and every hour); `None` keeps them for ever. 30 days by default.
    pub abandon_after: Option<Duration>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: "127.0.0.1".to_string(),
            port: 8080,
            data_dir: default_data_dir(),
            max_engine_searches: 2,
            max_waiting_searches: 16,
            max_engine_time: Duration::from_secs(10),
            default_engine_time: Duration::from_secs(1),
            engine_hash_mib: 16,
            max_body_bytes: 64 * 1024,
            read_timeout: Duration::from_secs(10),
            max_games_per_minute: 30,
            allowed_hosts: Vec::new(),
            tables: None,
            book: None,
            abandon_after: Some(Duration::from_secs(30 * 86_400)),
        }
    }
}

/// The default data folder: `$XDG_DATA_HOME/kharbaga`, else `~/.local/share/kharbaga`, else
/// `./kharbaga-data` when neither variable is set.
pub fn default_data_dir() -> PathBuf {
    let from_env = |name: &str| {
        std::env::var_os(name)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    if let Some(xdg) = from_env("XDG_DATA_HOME") {
        xdg.join("kharbaga")
    } else if let Some(home) = from_env("HOME") {
        home.join(".local/share/kharbaga")
    } else {
        PathBuf::from("kharbaga-data")
    }
}

/// Why the server could not start or stopped with an error.
#[derive(Debug)]
pub enum Error {
    /// The data folder could not be created.
    DataDir {
        /// The folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The game database could not be opened or prepared.
    Database {
        /// The database file.
        path: PathBuf,
        /// The cause.
        source: rusqlite::Error,
    },
    /// The address could not be listened on.
    Bind {
        /// The address as configured (`host:port`).
        address: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The server failed while running (or the runtime could not be built).
    Serve(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::DataDir { path, source } => {
                write!(
                    f,
                    "cannot create the data folder {}: {source}",
                    path.display()
                )
            }
            Error::Database { path, source } => {
                write!(
                    f,
                    "cannot open the game database {}: {source}",
                    path.display()
                )
            }
            Error::Bind { address, source } => write!(f, "cannot listen on {address}: {source}"),
            Error::Serve(e) => write!(f, "server error: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::DataDir { source, .. } | Error::Bind { source, .. } => Some(source),
            Error::Database { source, .. } => Some(source),
            Error::Serve(e) => Some(e),
        }
    }
}

/// Runs the server until Ctrl-C: builds its own runtime, listens on `host:port`, and prints
/// the address to open (`Kharbaga is at http://127.0.0.1:8080/`).
pub fn run(config: Config) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(Error::Serve)?;
    runtime.block_on(async {
        let address = format!("{}:{}", config.host, config.port);
        let listener = tokio::net::TcpListener::bind(&address)
            .await
            .map_err(|source| Error::Bind { address, source })?;
        let local = listener.local_addr().map_err(Error::Serve)?;
        println!("Kharbaga is at {}", page_url(local));
        println!("Games are kept in {}", config.data_dir.display());
        if let Some(tb) = &config.tables {
            println!(
                "Endgame tables of {} from {} ({} files)",
                kharbaga_tablebase::files::rules_key(tb.rules()),
                tb.dir().display(),
                tb.slices().len()
            );
        }
        serve_until(listener, config, async {
            // If Ctrl-C cannot be watched, serve until killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
    })
}

/// The address to open in a browser for a server listening on `addr`.
pub fn page_url(addr: SocketAddr) -> String {
    match addr {
        SocketAddr::V4(_) => format!("http://{addr}/"),
        SocketAddr::V6(a) => format!("http://[{}]:{}/", a.ip(), a.port()),
    }
}

/// Serves on a listener the caller has bound, forever (for tests and embedding; `host` and
/// `port` of `config` are ignored).
pub async fn serve_on(listener: tokio::net::TcpListener, config: Config) -> Result<(), Error> {
    serve_until(listener, config, std::future::pending()).await
}

async fn serve_until(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), Error> {
    let read_timeout = config.read_timeout;
    let (router, state) = build(config)?;
    // The clocks that were running when the server stopped run on: their flags fall.
    tokio::spawn(api::watch_stored_clocks(Arc::clone(&state)));
    let sweeping = tokio::spawn(api::sweep_abandoned(state));
    connections::serve(listener, router, read_timeout, shutdown).await;
    sweeping.abort();
    Ok(())
}

/// The whole application as a router: the page, the rules page and the API, over the game
/// database in `config.data_dir` (created if missing).
pub fn app(config: Config) -> Result<axum::Router, Error> {
    build(config).map(|(router, _)| router)
}

/// The router and the state its handlers share.
fn build(config: Config) -> Result<(axum::Router, Arc<api::AppState>), Error> {
    std::fs::create_dir_all(&config.data_dir).map_err(|source| Error::DataDir {
        path: config.data_dir.clone(),
        source,
    })?;
    let path = config.data_dir.join("games.sqlite3");
    let store = store::Store::open(&path).map_err(|source| Error::Database { path, source })?;
    let hosts = Arc::new(security::HostPolicy::new(&config.allowed_hosts));
    let state = Arc::new(api::AppState::new(config, store));
    let router = api::router(Arc::clone(&state))
        .merge(assets::router())
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(hosts, security::guard));
    Ok((logging::log_requests(router), state))
}
