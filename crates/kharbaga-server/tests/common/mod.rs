//! A server in this process on an ephemeral port of 127.0.0.1, over a fresh data folder;
//! small endgame tables built in a temporary folder.

pub mod client;
pub mod events;

use kharbaga::Rules;
use kharbaga_server::{serve_on, Config};
use kharbaga_tablebase::build::{build, BuildOptions};
use kharbaga_tablebase::tablebase::Tablebase;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A running test server; its data folder is removed when dropped.
pub struct TestServer {
    /// `http://127.0.0.1:PORT`
    pub base: String,
    pub data_dir: PathBuf,
    task: tokio::task::JoinHandle<()>,
    keep_dir: bool,
}

/// A fresh, empty data folder.
pub fn fresh_dir(label: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "kharbaga-{label}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub fn test_config(data_dir: PathBuf) -> Config {
    Config {
        data_dir,
        max_engine_searches: 2,
        max_engine_time: Duration::from_secs(2),
        default_engine_time: Duration::from_millis(100),
        engine_hash_mib: 4,
        max_body_bytes: 16 * 1024,
        // Tests create games quickly; the cap has a test of its own.
        max_games_per_minute: 0,
        ..Config::default()
    }
}

impl TestServer {
    #[allow(dead_code)] // each test file compiles this module; not all of them use it
    pub async fn start(label: &str) -> TestServer {
        TestServer::start_with(test_config(fresh_dir(label))).await
    }

    pub async fn start_with(config: Config) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let data_dir = config.data_dir.clone();
        let task = tokio::spawn(async move {
            serve_on(listener, config).await.expect("the server runs");
        });
        TestServer {
            base,
            data_dir,
            task,
            keep_dir: false,
        }
    }

    /// Stops the server but keeps its data folder (to start another server on it).
    #[allow(dead_code)] // each test file compiles this module; not all of them restart
    pub async fn stop_keeping_data(mut self) -> PathBuf {
        self.keep_dir = true;
        self.task.abort();
        let _ = (&mut self.task).await;
        self.data_dir.clone()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
        if !self.keep_dir {
            let _ = std::fs::remove_dir_all(&self.data_dir);
        }
    }
}

/// Standard endgame tables in a fresh folder, removed when dropped.
#[allow(dead_code)] // each test file compiles this module; not all of them use tables
pub struct TestTables {
    pub tables: Arc<Tablebase>,
    dir: PathBuf,
}

#[allow(dead_code)]
impl TestTables {
    /// Builds the tables of up to `max_pieces` pieces (2: at once; 3: half a minute in a
    /// debug build).
    pub async fn build(max_pieces: u32) -> TestTables {
        let dir = fresh_dir("tables");
        let opts = BuildOptions::new(Rules::standard(), max_pieces, dir.clone());
        let tables = tokio::task::spawn_blocking(move || {
            build(&opts, &|_| {}, &mut |_| {}).expect("the tables build");
            Tablebase::open(&opts.dir, Rules::standard()).expect("the tables open")
        })
        .await
        .unwrap();
        TestTables {
            tables: Arc::new(tables),
            dir,
        }
    }
}

impl Drop for TestTables {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
