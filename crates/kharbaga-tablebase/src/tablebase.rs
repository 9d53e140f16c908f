//! Probing: a directory of table files opened lazily, one slice at a time on its first
//! probe, with the value of any position of the slices it holds and of each of its moves.

use crate::build::{open_checked, BuildError};
use crate::files::{slice_of_file, EXTENSION};
use crate::format::TableFile;
use crate::frame::mover_frame;
use crate::index::SliceIndex;
use crate::slice::SliceId;
use crate::value::{Value, Wdl};
use kharbaga::{Color, Move, Position, Rules};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Why a position could not be probed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// The directory has no table of the position's slice.
    MissingSlice(SliceId),
    /// The opponent of the side to move has no piece: no table holds such a position (the
    /// game ended before it).
    NoOpponent,
    /// The slice's file cannot be used (corrupt, truncated, foreign): the message says why.
    Unusable(SliceId, String),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::MissingSlice(s) => {
                write!(f, "no table for slice {s} (file {s}.{EXTENSION} not found)")
            }
            ProbeError::NoOpponent => {
                f.write_str("the side not to move has no piece: the game is over")
            }
            ProbeError::Unusable(s, why) => {
                write!(f, "the table of slice {s} cannot be used: {why}")
            }
        }
    }
}

impl std::error::Error for ProbeError {}

/// Why a table directory could not be opened.
#[derive(Debug)]
pub struct OpenError {
    /// The directory.
    pub dir: PathBuf,
    /// What went wrong.
    pub error: std::io::Error,
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read the table directory {}: {}",
            self.dir.display(),
            self.error
        )
    }
}

impl std::error::Error for OpenError {}

/// A slice's index and its open file.
type Table = (SliceIndex, TableFile);

/// Where a probe finds its answer: a table and a place in it, or a value needing no table.
enum Located<'a> {
    Place(&'a Table, u64),
    Known(Value),
}

/// Win, draw or loss at a place of a table, from its WDL section.
fn wdl_at(t: &Table, place: u64) -> Result<Wdl, ProbeError> {
    let w =
        t.1.wdl(place)
            .map_err(|e| ProbeError::Unusable(t.0.slice(), e.to_string()))?;
    Ok(match w {
        1 => Wdl::Win,
        2 => Wdl::Loss,
        _ => Wdl::Draw,
    })
}

struct Slot {
    path: PathBuf,
    table: OnceLock<Result<Table, String>>,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("dir", &self.dir)
            .field("rules", &self.rules.to_string())
            .field("slices", &self.slots.len())
            .finish()
    }
}

/// The tables of one rule set in one directory.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("kharbaga-doc-{}", std::process::id()));
/// use kharbaga::{Position, Rules};
/// use kharbaga_tablebase::build::{build, BuildOptions};
/// use kharbaga_tablebase::tablebase::Tablebase;
/// use kharbaga_tablebase::value::Value;
/// let rules = Rules::standard();
/// build(&BuildOptions::new(rules, 2, dir.clone()), &|_| {}, &mut |_| {}).unwrap();
/// let tb = Tablebase::open(&dir, rules).unwrap();
/// // A Mullah on e5 takes the man on c3 at once: a win in 1.
/// let pos = Position::from_fen("B:BKe5:Wc3").unwrap();
/// assert_eq!(tb.probe(&pos).unwrap(), Value::Win(1));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub struct Tablebase {
    rules: Rules,
    dir: PathBuf,
    slots: HashMap<SliceId, Slot>,
    max_pieces: u32,
    complete_pieces: u32,
}

impl Tablebase {
    /// Lists the table files of `dir` (files are opened and checked on first use).
    pub fn open(dir: &Path, rules: Rules) -> Result<Tablebase, OpenError> {
        let err = |error| OpenError {
            dir: dir.to_path_buf(),
            error,
        };
        let mut slots = HashMap::new();
        for entry in std::fs::read_dir(dir).map_err(err)? {
            let path = entry.map_err(err)?.path();
            if let Some(slice) = slice_of_file(&path) {
                slots.insert(
                    slice,
                    Slot {
                        path,
                        table: OnceLock::new(),
                    },
                );
            }
        }
        let max_pieces = slots.keys().map(|s| s.pieces()).max().unwrap_or(0);
        let complete_pieces = complete_pieces(&slots, max_pieces);
        Ok(Tablebase {
            rules,
            dir: dir.to_path_buf(),
            slots,
            max_pieces,
            complete_pieces,
        })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The rules the tables are probed under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The slices that have a file, in name order.
    pub fn slices(&self) -> Vec<SliceId> {
        let mut out: Vec<SliceId> = self.slots.keys().copied().collect();
        out.sort();
        out
    }

    /// The most pieces of any slice with a file (0 when there is none).
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The most pieces `n` such that every slice of `n` pieces or fewer has a file (0 when
    /// not even every slice of 2 pieces has one). A set whose largest slices are still being
    /// built has fewer than [`max_pieces`](Self::max_pieces).
    pub fn complete_pieces(&self) -> u32 {
        self.complete_pieces
    }

    /// What the tables hold, for messages: `up to 5 pieces`; for a set with some of its
    /// largest slices missing, `up to 5 pieces and 40 slices of 6`; with not even every
    /// 2-piece slice, `3 slices of 2`.
    pub fn extent(&self) -> String {
        let complete = self.complete_pieces;
        let beyond: Vec<u32> = self
            .slots
            .keys()
            .map(|s| s.pieces())
            .filter(|&n| n > complete)
            .collect();
        let Some(&least) = beyond.iter().min() else {
            return format!("up to {complete} pieces");
        };
        let of = if least < self.max_pieces {
            format!("{least} to {}", self.max_pieces)
        } else {
            least.to_string()
        };
        let slices = match beyond.len() {
            1 => format!("1 slice of {of}"),
            n => format!("{n} slices of {of}"),
        };
        match complete {
            0 => slices,
            _ => format!("up to {complete} pieces and {slices}"),
        }
    }

    /// Whether the position's slice has a file (it may still fail to open).
    pub fn covers(&self, pos: &Position) -> bool {
        pos.occupied().count() <= self.max_pieces
            && SliceId::of(pos).is_some_and(|s| self.slots.contains_key(&s))
    }

    fn table(&self, slice: SliceId) -> Result<&Table, ProbeError> {
        let slot = self
            .slots
            .get(&slice)
            .ok_or(ProbeError::MissingSlice(slice))?;
        slot.table
            .get_or_init(|| {
                open_checked(&slot.path, &self.rules, slice)
                    .map(|f| (SliceIndex::new(slice), f))
                    .map_err(|e: BuildError| e.to_string())
            })
            .as_ref()
            .map_err(|why| ProbeError::Unusable(slice, why.clone()))
    }

    /// The table and place of a position, or its value when no table is needed.
    fn locate(&self, pos: &Position) -> Result<Located<'_>, ProbeError> {
        let mf = mover_frame(pos);
        if mf.pieces(Color::Black).is_empty() {
            return Ok(Located::Known(Value::Loss(0)));
        }
        let slice = SliceId::of(&mf).ok_or(ProbeError::NoOpponent)?;
        let t = self.table(slice)?;
        let place = t.0.index(&mf);
        Ok(Located::Place(t, place))
    }

    /// The exact value of a position for the side to move.
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        match self.locate(pos)? {
            Located::Known(v) => Ok(v),
            Located::Place(t, place) => {
                let code =
                    t.1.code(place)
                        .map_err(|e| ProbeError::Unusable(t.0.slice(), e.to_string()))?;
                Ok(Value::from_code(code))
            }
        }
    }

    /// Win, draw or loss for the side to move, from the small, fast part of the file.
    pub fn probe_wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        match self.locate(pos)? {
            Located::Known(v) => Ok(v.wdl()),
            Located::Place(t, place) => wdl_at(t, place),
        }
    }

    /// [`Tablebase::probe_wdl`] with an upper bound on the distance of a decisive value in
    /// plies: the longest distance stored in the position's slice (the exact distance where
    /// no table is needed). It reads only the small, fast part of the file, where
    /// [`Tablebase::probe`] decompresses a block of the exact distances.
    pub fn probe_wdl_bounded(&self, pos: &Position) -> Result<(Wdl, u32), ProbeError> {
        match self.locate(pos)? {
            Located::Known(v) => Ok((v.wdl(), u32::from(v.plies().unwrap_or(0)))),
            Located::Place(t, place) => {
                Ok((wdl_at(t, place)?, u32::from(t.1.header().max_distance)))
            }
        }
    }

    /// [`Tablebase::probe_wdl`], but only where no decisive value of the position's slice
    /// is longer than `plies` (Ok(None) otherwise): a search that has `plies` left before a
    /// no-progress draw can trust such a value whatever the line.
    pub fn probe_wdl_within(&self, pos: &Position, plies: u32) -> Result<Option<Wdl>, ProbeError> {
        match self.locate(pos)? {
            Located::Known(v) => Ok(Some(v.wdl())),
            Located::Place(t, _) if u32::from(t.1.header().max_distance) > plies => Ok(None),
            Located::Place(..) => self.probe_wdl(pos).map(Some),
        }
    }

    /// Every legal move with its value for the side to move (a move into a loss in `d` is
    /// a win in `d + 1`), best first: the fastest win, then draws, then the slowest loss;
    /// equal values in move order.
    pub fn moves(&self, pos: &Position) -> Result<Vec<(Move, Value)>, ProbeError> {
        let mut out = Vec::new();
        for mv in pos.legal_moves(&self.rules) {
            let v = self.probe(&pos.play(&mv))?.parent();
            out.push((mv, v));
        }
        out.sort_by(|a, b| b.1.preference().cmp(&a.1.preference()).then(a.0.cmp(&b.0)));
        Ok(out)
    }
}

/// The most pieces `n` with a file for every slice of `n` pieces or fewer (the pairs of
/// [`SliceId::plan`] and their flips), at most `max_pieces`; 0 when some 2-piece slice has
/// none.
fn complete_pieces<T>(slots: &HashMap<SliceId, T>, max_pieces: u32) -> u32 {
    let held = |n: u32| {
        SliceId::plan(n)
            .into_iter()
            .filter(|s| s.pieces() == n)
            .all(|s| slots.contains_key(&s) && slots.contains_key(&s.flip()))
    };
    (2..=max_pieces)
        .take_while(|&n| held(n))
        .last()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slots of every slice of up to `n` pieces.
    fn full(n: u32) -> HashMap<SliceId, ()> {
        SliceId::plan(n)
            .into_iter()
            .flat_map(|s| [(s, ()), (s.flip(), ())])
            .collect()
    }

    fn slice(name: &str) -> SliceId {
        name.parse().unwrap()
    }

    #[test]
    fn a_full_set_is_complete_to_its_largest_slice() {
        assert_eq!(complete_pieces(&full(3), 3), 3);
        assert_eq!(complete_pieces(&full(2), 2), 2);
        assert_eq!(complete_pieces(&HashMap::<SliceId, ()>::new(), 0), 0);
    }

    #[test]
    fn a_missing_slice_or_flip_stops_the_complete_count_below_it() {
        // 3 pieces: 2 men to move against 1 is built with its flip (1 man against 2).
        let mut slots = full(3);
        slots.remove(&slice("1m0k-2m0k"));
        assert_eq!(complete_pieces(&slots, 3), 2);
        // A 4-piece slice on top of the incomplete 3-piece set does not count.
        slots.insert(slice("2m0k-2m0k"), ());
        assert_eq!(complete_pieces(&slots, 4), 2);
        // A 2-piece slice missing: nothing is complete.
        let mut slots = full(3);
        slots.remove(&slice("0m1k-0m1k"));
        assert_eq!(complete_pieces(&slots, 3), 0);
    }

    /// A tablebase whose files are `slots` (never opened).
    fn tablebase(slots: HashMap<SliceId, ()>) -> Tablebase {
        let max_pieces = slots.keys().map(|s| s.pieces()).max().unwrap_or(0);
        Tablebase {
            rules: Rules::standard(),
            dir: PathBuf::new(),
            complete_pieces: complete_pieces(&slots, max_pieces),
            slots: slots
                .into_keys()
                .map(|s| {
                    let path = PathBuf::from(format!("{s}.{EXTENSION}"));
                    let table = OnceLock::new();
                    (s, Slot { path, table })
                })
                .collect(),
            max_pieces,
        }
    }

    #[test]
    fn the_extent_names_the_complete_pieces_and_the_slices_beyond() {
        assert_eq!(tablebase(full(3)).extent(), "up to 3 pieces");
        let mut slots = full(2);
        slots.insert(slice("2m0k-1m0k"), ());
        assert_eq!(
            tablebase(slots.clone()).extent(),
            "up to 2 pieces and 1 slice of 3"
        );
        slots.insert(slice("2m0k-2m0k"), ());
        slots.insert(slice("1m1k-2m0k"), ());
        let tb = tablebase(slots);
        assert_eq!((tb.max_pieces(), tb.complete_pieces()), (4, 2));
        assert_eq!(tb.extent(), "up to 2 pieces and 3 slices of 3 to 4");
        let one = [(slice("0m1k-1m0k"), ())].into_iter().collect();
        assert_eq!(tablebase(one).extent(), "1 slice of 2");
    }
}
