//! What the tests that run the `kharbaga` binary as a process share.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `kharbaga` with `args`, with no endgame tables in the default place.
#[allow(dead_code)] // each test file compiles this module; the load test starts a server
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kharbaga"))
        .args(args)
        .env("XDG_DATA_HOME", "/nonexistent/kharbaga-tests")
        .output()
        .expect("kharbaga runs")
}

/// A fresh temporary directory for one test of the file `prefix`.
pub fn temp_dir(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kharbaga-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
