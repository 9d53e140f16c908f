//! Verification of stored tables: every value re-derived from the stored values of its
//! successors (found with the rules library's move generation, not with the generator's
//! unmoves or counters), and the fast win/draw/loss part of each file checked against the
//! full values at every 61st place.

use crate::build::{open_checked, BuildError};
use crate::files::{slice_of_file, table_path};
use crate::frame::child_setup;
use crate::index::SliceIndex;
use crate::memory::MemoryTables;
use crate::slice::SliceId;
use crate::stats::SliceStats;
use crate::value::{Value, BROKEN};
use kharbaga::{Move, Position, Rules};
use rayon::prelude::*;
use std::path::Path;
use std::sync::Mutex;

/// The outcome of verifying one slice.
#[derive(Clone, Debug)]
pub struct SliceCheck {
    /// The slice.
    pub slice: SliceId,
    /// Its counts.
    pub stats: SliceStats,
    /// Places whose stored value differs from the one their successors give (at most 10
    /// kept, as `position: stored, derived`), and how many there were.
    pub mismatches: (u64, Vec<String>),
    /// Places checked.
    pub checked: u64,
}

impl SliceCheck {
    /// Whether every value agreed.
    pub fn ok(&self) -> bool {
        self.mismatches.0 == 0
    }
}

/// The slices that have a file in `dir`, in dependency order.
pub fn slices_in(dir: &Path) -> std::io::Result<Vec<SliceId>> {
    let mut out: Vec<SliceId> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .filter_map(|e| slice_of_file(&e.path()))
        .collect();
    out.sort_by_key(|s| (s.pieces(), s.men(), s.pair(), *s));
    Ok(out)
}

/// Verifies every table in `dir` (or only the pairs of the slices in `only`, when it is not
/// empty), one pair at a time, calling `each` after every slice. A missing dependency, a
/// slice of `only` with no file, or an unreadable file is an error; wrong values are
/// reported in the checks.
pub fn verify_dir(
    dir: &Path,
    rules: &Rules,
    only: &[SliceId],
    each: &mut dyn FnMut(&SliceCheck),
) -> Result<Vec<SliceCheck>, BuildError> {
    let slices = slices_in(dir).map_err(|e| BuildError::Io(dir.to_path_buf(), e))?;
    if let Some(&s) = only.iter().find(|s| !slices.contains(s)) {
        return Err(BuildError::MissingDependency(s, table_path(dir, s)));
    }
    let mut memory = MemoryTables::new();
    let mut out = Vec::new();
    let mut pairs: Vec<SliceId> = slices.iter().map(|s| s.pair()).collect();
    pairs.dedup();
    pairs.retain(|p| only.is_empty() || only.iter().any(|s| s.pair() == *p));
    for pair in pairs {
        let members: Vec<SliceId> = slices
            .iter()
            .copied()
            .filter(|s| s.pair() == pair)
            .collect();
        let mut want: Vec<SliceId> = members.clone();
        for d in pair.dependencies() {
            want.push(d);
            want.push(d.flip());
        }
        want.sort();
        want.dedup();
        let held: Vec<SliceId> = memory.slices().collect();
        for s in held {
            if !want.contains(&s) {
                memory.remove(s);
            }
        }
        for &s in &want {
            if memory.contains(s) {
                continue;
            }
            let path = table_path(dir, s);
            if !path.exists() {
                return Err(BuildError::MissingDependency(s, path));
            }
            let file = open_checked(&path, rules, s)?;
            memory.insert(s, file.decode_all().map_err(BuildError::Format)?);
            if members.contains(&s) {
                check_wdl(&file, &path, &memory, s)?;
            }
        }
        for &s in &members {
            let check = verify_slice(rules, s, &memory);
            each(&check);
            out.push(check);
        }
    }
    Ok(out)
}

/// The win/draw/loss section must agree with the full values (at every 61st place, and the
/// first and last).
fn check_wdl(
    file: &crate::format::TableFile,
    path: &Path,
    memory: &MemoryTables,
    s: SliceId,
) -> Result<(), BuildError> {
    let t = memory.get(s).expect("just loaded");
    let n = t.codes.len() as u64;
    let places = (0..n).step_by(61).chain(n.checked_sub(1));
    for i in places {
        // Broken places hold whatever compressed best, in either part.
        if t.index.position(i).is_none() {
            continue;
        }
        let code = t.codes[i as usize];
        let w = file.wdl(i).map_err(BuildError::Format)?;
        let expected = match Value::from_code(code) {
            Value::Draw => 0,
            Value::Win(_) => 1,
            Value::Loss(_) => 2,
        };
        if w != expected {
            return Err(BuildError::Format(crate::format::FormatError::Corrupt {
                path: path.to_path_buf(),
                reason: format!(
                    "place {i}: the win/draw/loss part says {w}, the values {expected}"
                ),
            }));
        }
    }
    Ok(())
}

/// The value a position must have given its successors' stored values (`moves` is a
/// buffer for its legal moves).
pub fn derive(
    rules: &Rules,
    pos: &Position,
    memory: &MemoryTables,
    moves: &mut Vec<Move>,
) -> Option<Value> {
    pos.legal_moves_into(rules, moves);
    if moves.is_empty() {
        return Some(Value::Loss(0));
    }
    let setup = pos.to_setup();
    let mut best: Option<Value> = None;
    for mv in moves.iter() {
        let child = child_setup(&setup, mv);
        let v = Value::from_code(memory.code(&child)?).parent();
        if best.map_or(true, |b| v.preference() > b.preference()) {
            best = Some(v);
        }
    }
    best
}

/// Places verified per rayon task.
const CHUNK: u64 = 1 << 14;

fn verify_slice(rules: &Rules, slice: SliceId, memory: &MemoryTables) -> SliceCheck {
    let t = memory.get(slice).expect("loaded");
    let index: &SliceIndex = &t.index;
    let bad = Mutex::new((0u64, Vec::new()));
    let checked = (0..index.len().div_ceil(CHUNK))
        .into_par_iter()
        .map_init(Vec::new, |moves, c| {
            let mut checked = 0u64;
            index.for_each_position(c * CHUNK, (c + 1) * CHUNK, |i, pos| {
                checked += 1;
                let code = t.codes[i as usize];
                let stored = Value::from_code(code);
                let derived = derive(rules, &pos, memory, moves);
                if code == BROKEN || derived != Some(stored) {
                    let mut b = bad.lock().expect("no panic holds the lock");
                    b.0 += 1;
                    if b.1.len() < 10 {
                        b.1.push(format!(
                            "{}: stored {stored}, successors give {derived:?}",
                            pos.to_fen()
                        ));
                    }
                }
            });
            checked
        })
        .sum();
    SliceCheck {
        slice,
        stats: SliceStats::count(index, &t.codes),
        mismatches: bad.into_inner().expect("no panic holds the lock"),
        checked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::generate_in_memory;

    /// Generated tables verify; one stored value changed (a win one ply longer, a loss made a
    /// draw, a draw made a win) is found, in its slice and nowhere else.
    #[test]
    fn a_changed_value_is_found() {
        let rules = Rules::standard();
        let mut memory = generate_in_memory(&rules, 3).unwrap();
        let slices: Vec<SliceId> = memory.slices().collect();
        for &s in &slices {
            let check = verify_slice(&rules, s, &memory);
            assert!(check.ok(), "{s}: {:?}", check.mismatches);
            assert_eq!(
                check.checked,
                check.stats.positions() - mirrored(&memory, s)
            );
        }
        let slice: SliceId = "1m1k-0m1k".parse().unwrap();
        let codes = &memory.get(slice).unwrap().codes;
        let find = |want: fn(Value) -> bool| {
            let t = memory.get(slice).unwrap();
            (0..codes.len())
                .find(|&i| t.index.position(i as u64).is_some() && want(Value::from_code(codes[i])))
                .unwrap()
        };
        let win = find(|v| matches!(v, Value::Win(_)));
        let loss = find(|v| matches!(v, Value::Loss(_)));
        let draw = find(|v| v == Value::Draw);
        let changes = [
            (win, codes[win] + 2),
            (loss, Value::Draw.code()),
            (draw, Value::Win(1).code()),
        ];
        for (i, changed) in changes {
            let mut codes = memory.get(slice).unwrap().codes.clone();
            let before = codes[i];
            codes[i] = changed;
            memory.insert(slice, codes);
            let check = verify_slice(&rules, slice, &memory);
            assert!(
                check.mismatches.0 >= 1,
                "place {i}: {before} changed unnoticed"
            );
            let mut codes = memory.get(slice).unwrap().codes.clone();
            codes[i] = before;
            memory.insert(slice, codes);
        }
        assert!(verify_slice(&rules, slice, &memory).ok());
    }

    /// Positions a slice's places count twice (a place stands for a position and its
    /// distinct mirror image).
    fn mirrored(memory: &MemoryTables, s: SliceId) -> u64 {
        let t = memory.get(s).unwrap();
        (0..t.codes.len() as u64)
            .filter_map(|i| t.index.position(i))
            .filter(|p| !crate::index::is_mirror_symmetric(p))
            .count() as u64
    }
}
