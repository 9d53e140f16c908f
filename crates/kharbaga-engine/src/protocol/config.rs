//! What a session starts with, and the bounds of a sandboxed one.

use crate::{Limits, Options};
use kharbaga_tablebase::tablebase::Tablebase;
use std::sync::Arc;

/// How a session starts.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The endgame tables before any `set-param name=tables` (`kharbaga engine`: those of
    /// the default table directory of the standard rules, when it exists).
    pub tables: Option<Arc<Tablebase>>,
    /// Bounds on what the commands may ask for; `None` (the protocol as documented) for a
    /// real session.
    pub sandbox: Option<Sandbox>,
}

/// Bounds for a session fed commands from a test or a fuzzer: every search is small
/// whatever `level` says, the engine's table and threads are small whatever `set-param`
/// says (the parameters still show the values set), and no file is opened
/// (`set-param name=tables` with a directory is refused).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// The most nodes of a search.
    pub nodes: u64,
    /// The largest transposition table, in MiB.
    pub hash_mib: usize,
    /// The most search threads.
    pub threads: usize,
}

impl Sandbox {
    /// `limits` within the bounds.
    pub(super) fn limits(&self, limits: Limits) -> Limits {
        Limits {
            nodes: Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes))),
            ..limits
        }
    }

    /// `options` within the bounds.
    pub(super) fn options(&self, options: Options) -> Options {
        Options {
            hash_mib: options.hash_mib.min(self.hash_mib),
            threads: options.threads.min(self.threads),
            ..options
        }
    }
}
