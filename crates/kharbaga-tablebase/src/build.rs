//! Building tables to files: every slice pair of a plan in dependency order, resumable (a
//! pair whose files exist and open cleanly is not built again), within a memory budget, on
//! a given number of threads, with progress reports.

use crate::files::{rules_key, table_path};
use crate::format::{write_table, FormatError, TableFile, TableHeader};
use crate::gen::{generate_pair, GenerateError, Phase};
use crate::index::{SliceIndex, INDEX_SCHEME};
use crate::memory::MemoryTables;
use crate::slice::SliceId;
use crate::stats::SliceStats;
use crate::value::BROKEN;
use kharbaga::Rules;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The rules.
    pub rules: Rules,
    /// Every slice of at most this many pieces (ignored when `slice` is set).
    pub max_pieces: u32,
    /// Only this slice's pair (its dependencies must be built already).
    pub slice: Option<SliceId>,
    /// The directory of the table files.
    pub dir: PathBuf,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// The most memory the tables in memory may take, in bytes (None: no limit).
    pub memory_budget: Option<u64>,
}

impl BuildOptions {
    /// Every slice of at most `max_pieces` pieces into `dir`, on every core, without a
    /// memory limit.
    pub fn new(rules: Rules, max_pieces: u32, dir: PathBuf) -> BuildOptions {
        BuildOptions {
            rules,
            max_pieces,
            slice: None,
            dir,
            threads: 0,
            memory_budget: None,
        }
    }
}

/// What happened to one pair.
#[derive(Clone, Debug)]
pub struct PairReport {
    /// The pair (its smaller slice).
    pub pair: SliceId,
    /// Whether it was built now (false: its files were there already).
    pub built: bool,
    /// The time it took.
    pub elapsed: Duration,
    /// Places in the pair's tables.
    pub places: u64,
    /// Bytes of its files.
    pub file_bytes: u64,
    /// The statistics of each slice of the pair.
    pub stats: Vec<(SliceId, SliceStats)>,
}

/// Progress of a build, for a progress bar.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The pair being built.
    pub pair: SliceId,
    /// The pass.
    pub phase: Phase,
    /// Places of the whole plan already done (pairs finished, plus this pass's share).
    pub done: u64,
    /// Places of the whole plan.
    pub total: u64,
    /// Time since the build started.
    pub elapsed: Duration,
}

impl Progress {
    /// The expected time left, from the rate so far.
    pub fn remaining(&self) -> Option<Duration> {
        if self.done == 0 {
            return None;
        }
        let rate = self.elapsed.as_secs_f64() / self.done as f64;
        Some(Duration::from_secs_f64(
            rate * (self.total.saturating_sub(self.done)) as f64,
        ))
    }
}

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// A table file could not be written or read.
    Io(PathBuf, std::io::Error),
    /// A table file is corrupt or foreign.
    Format(FormatError),
    /// A table file belongs to other rules or another slice.
    Foreign {
        /// The file.
        path: PathBuf,
        /// What it says it is.
        found: String,
        /// What was expected.
        expected: String,
    },
    /// The generator failed.
    Generate(GenerateError),
    /// A dependency of `--slice` has no file yet.
    MissingDependency(SliceId, PathBuf),
    /// The pair does not fit the memory budget.
    Memory {
        /// The pair.
        pair: SliceId,
        /// Bytes it needs.
        needed: u64,
        /// The budget.
        budget: u64,
    },
    /// The thread pool could not be made.
    Threads(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            BuildError::Format(e) => write!(f, "{e}"),
            BuildError::Foreign {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: the file holds {found}, expected {expected}",
                path.display()
            ),
            BuildError::Generate(e) => write!(f, "{e}"),
            BuildError::MissingDependency(s, p) => write!(
                f,
                "slice {s} must be built first (no table at {})",
                p.display()
            ),
            BuildError::Memory {
                pair,
                needed,
                budget,
            } => write!(
                f,
                "slice pair {pair} needs {} MiB, over the memory budget of {} MiB",
                needed >> 20,
                budget >> 20
            ),
            BuildError::Threads(e) => write!(f, "cannot start the worker threads: {e}"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Bytes the generator works in per place (a 16-bit value and an 8-bit counter).
const WORK_BYTES_PER_PLACE: u64 = 3;

/// Opens a table file and checks that it is the slice's, under these rules.
pub fn open_checked(path: &Path, rules: &Rules, slice: SliceId) -> Result<TableFile, BuildError> {
    let file = TableFile::open(path).map_err(BuildError::Format)?;
    let h = file.header();
    let expected = format!("slice {slice} under {}", rules_key(rules));
    let found = format!("slice {} under {}", h.slice, h.rules);
    if h.rules != rules_key(rules) || h.slice != slice.to_string() || h.index_scheme != INDEX_SCHEME
    {
        return Err(BuildError::Foreign {
            path: path.to_path_buf(),
            found,
            expected,
        });
    }
    if h.positions != SliceIndex::new(slice).len() {
        return Err(BuildError::Foreign {
            path: path.to_path_buf(),
            found: format!("{found} with {} places", h.positions),
            expected,
        });
    }
    Ok(file)
}

/// The slices of a pair.
fn members(pair: SliceId) -> Vec<SliceId> {
    if pair.flip() == pair {
        vec![pair]
    } else {
        vec![pair, pair.flip()]
    }
}

/// Places of a pair's tables.
pub fn pair_places(pair: SliceId) -> u64 {
    members(pair)
        .iter()
        .map(|s| SliceIndex::new(*s).len())
        .sum()
}

/// Builds the tables of `opts`, calling `progress` as it goes and `done` after each pair.
pub fn build(
    opts: &BuildOptions,
    progress: &(dyn Fn(&Progress) + Sync),
    done: &mut dyn FnMut(&PairReport),
) -> Result<Vec<PairReport>, BuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| BuildError::Threads(e.to_string()))?;
    std::fs::create_dir_all(&opts.dir).map_err(|e| BuildError::Io(opts.dir.clone(), e))?;
    let plan = match opts.slice {
        Some(s) => vec![s.pair()],
        None => SliceId::plan(opts.max_pieces),
    };
    let total: u64 = plan.iter().map(|p| pair_places(*p)).sum();
    let start = Instant::now();
    let mut finished: u64 = 0;
    let mut memory = MemoryTables::new();
    let mut reports = Vec::new();
    for (i, &pair) in plan.iter().enumerate() {
        let t0 = Instant::now();
        let places = pair_places(pair);
        if let Some(report) = existing(opts, pair, t0)? {
            finished += places;
            done(&report);
            reports.push(report);
            continue;
        }
        // Keep only what this pair and the later ones read.
        let needed: Vec<SliceId> = plan[i..]
            .iter()
            .flat_map(|p| p.dependencies())
            .flat_map(members)
            .collect();
        let held: Vec<SliceId> = memory.slices().collect();
        for s in held {
            if !needed.contains(&s) {
                memory.remove(s);
            }
        }
        let deps: Vec<SliceId> = pair.dependencies().into_iter().flat_map(members).collect();
        for &d in &deps {
            if !memory.contains(d) {
                let path = table_path(&opts.dir, d);
                if !path.exists() {
                    return Err(BuildError::MissingDependency(d, path));
                }
                let file = open_checked(&path, &opts.rules, d)?;
                let codes = file.decode_all().map_err(BuildError::Format)?;
                memory.insert(d, codes);
            }
        }
        if let Some(budget) = opts.memory_budget {
            let needed = places * WORK_BYTES_PER_PLACE + places * 2;
            // Drop tables later pairs want but this one does not, before giving up.
            let held: Vec<SliceId> = memory.slices().collect();
            for s in held {
                if memory.bytes() + needed > budget && !deps.contains(&s) {
                    memory.remove(s);
                }
            }
            if memory.bytes() + needed > budget {
                return Err(BuildError::Memory {
                    pair,
                    needed: memory.bytes() + needed,
                    budget,
                });
            }
        }
        let base = finished;
        let report_pass = |phase: Phase, d: u64, _t: u64| {
            // The seed is about half of a pair's work, the passes the other half.
            let share = match phase {
                Phase::Seed => d / 2,
                Phase::Iterate(_) => places / 2,
            };
            progress(&Progress {
                pair,
                phase,
                done: base + share,
                total,
                elapsed: start.elapsed(),
            });
        };
        let generated = pool
            .install(|| generate_pair(&opts.rules, pair, &memory, &report_pass))
            .map_err(BuildError::Generate)?;
        let mut report = PairReport {
            pair,
            built: true,
            elapsed: Duration::ZERO,
            places,
            file_bytes: 0,
            stats: Vec::new(),
        };
        for g in generated {
            let index = SliceIndex::new(g.slice);
            let stats = pool.install(|| SliceStats::count(&index, &g.codes));
            let path = table_path(&opts.dir, g.slice);
            let header = TableHeader {
                rules: rules_key(&opts.rules),
                slice: g.slice.to_string(),
                index_scheme: INDEX_SCHEME,
                positions: index.len(),
                max_distance: stats.longest_win.max(stats.longest_loss),
            };
            let written = pool
                .install(|| write_table(&path, &header, &g.codes))
                .map_err(|e| BuildError::Io(path.clone(), e))?;
            // Read it back: a file that does not give the codes back is never left behind.
            let back = open_checked(&path, &opts.rules, g.slice)?
                .decode_all()
                .map_err(BuildError::Format)?;
            // Broken places read back as whatever compressed best.
            let same = back.len() == g.codes.len()
                && back
                    .iter()
                    .zip(&g.codes)
                    .all(|(b, c)| *c == BROKEN || b == c);
            if !same {
                let _ = std::fs::remove_file(&path);
                return Err(BuildError::Format(FormatError::Corrupt {
                    path,
                    reason: "the written table does not read back".to_string(),
                }));
            }
            report.file_bytes += written.bytes;
            report.stats.push((g.slice, stats));
            memory.insert(g.slice, g.codes);
        }
        report.elapsed = t0.elapsed();
        finished += places;
        done(&report);
        reports.push(report);
    }
    Ok(reports)
}

/// The report of a pair whose files exist and open cleanly, if they do.
fn existing(
    opts: &BuildOptions,
    pair: SliceId,
    t0: Instant,
) -> Result<Option<PairReport>, BuildError> {
    let mut file_bytes = 0;
    for s in members(pair) {
        let path = table_path(&opts.dir, s);
        if !path.exists() {
            return Ok(None);
        }
        match open_checked(&path, &opts.rules, s) {
            Ok(f) => file_bytes += f.file_len(),
            // A damaged file is built again; a foreign one is an error.
            Err(BuildError::Format(_)) => return Ok(None),
            Err(e) => return Err(e),
        }
    }
    Ok(Some(PairReport {
        pair,
        built: false,
        elapsed: t0.elapsed(),
        places: pair_places(pair),
        file_bytes,
        stats: Vec::new(),
    }))
}
