//! `kharbaga solve --frontier K` and `kharbaga solve --combine FILES`: the work of a solve
//! split into positions that can be solved anywhere, and their results put together.
//!
//! The frontier is printed as a header line `# frontier: ROOT plies K` and one position per
//! line. Combining reads any mix of such a frontier file (for the root and K), outputs of
//! `kharbaga solve` (their `result:` lines) and proof files (their root and claim), works
//! the root's value out, lists the frontier positions its proof rests on (`leaf:` lines)
//! and, with `--proof`, writes that proof (for a draw, each side's strategy): the tree's
//! lines, then the lines of the parts' proofs under its leaves, keeping only the lines a
//! checker's walk from the root reaches (a position in several parts' proofs has the first
//! part's line, and the lines under it in the others are left out).

use super::{color_name, result_line};
use crate::args::CliError;
use kharbaga::{Color, Move, Position, PositionKey, PositionMap, Rules};
use kharbaga_solver::extract::{Claim, Line};
use kharbaga_solver::frontier::Tree;
use kharbaga_solver::proof_file::{create, read_text, side_path, write_header, write_lines};
use kharbaga_solver::solve::Verdict;
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Wdl;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Prints the frontier of `root` at `plies`.
pub fn print_frontier(
    out: &mut impl Write,
    root: &Position,
    rules: &Rules,
    tables: Option<&Tablebase>,
    plies: u32,
) -> Result<(), CliError> {
    let frontier = Tree::new(rules, tables, plies).frontier(root);
    writeln!(out, "# frontier: {} plies {plies}", root.to_fen())?;
    for pos in &frontier {
        writeln!(out, "{}", pos.to_fen())?;
    }
    Ok(())
}

/// A proof file read for combining: its claim and its lines with their positions.
struct PartProof {
    claim: Claim,
    lines: Vec<(Position, String)>,
}

/// What the combine files say.
#[derive(Default)]
struct Parts {
    root: Option<(Position, u32)>,
    results: HashMap<Position, Wdl>,
    /// The proofs by root and prover (a win proof preferred to a hold strategy).
    proofs: HashMap<(Position, Color), PartProof>,
}

fn bad(path: &Path, line: usize, what: impl std::fmt::Display) -> CliError {
    CliError::Input(format!("{}: line {line}: {what}", path.display()))
}

fn position(path: &Path, line: usize, text: &str) -> Result<Position, CliError> {
    Position::from_fen(text).map_err(|e| bad(path, line, format!("bad position {text:?}: {e}")))
}

fn wdl(path: &Path, line: usize, text: &str) -> Result<Option<Wdl>, CliError> {
    match text {
        "win" => Ok(Some(Wdl::Win)),
        "draw" => Ok(Some(Wdl::Draw)),
        "loss" => Ok(Some(Wdl::Loss)),
        "unknown" => Ok(None),
        _ => Err(bad(path, line, format!("bad value {text:?}"))),
    }
}

impl Parts {
    fn read(&mut self, path: &Path) -> Result<(), CliError> {
        let text =
            read_text(path).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        if text.starts_with("# kharbaga proof") {
            return self.read_proof(path, &text);
        }
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let fields: Vec<&str> = line.split_whitespace().collect();
            match fields.as_slice() {
                ["#", "frontier:", root, "plies", k] => {
                    let plies = k.parse().map_err(|_| bad(path, n, "bad plies"))?;
                    let root = position(path, n, root)?;
                    if self.root.is_some_and(|r| r != (root, plies)) {
                        return Err(bad(path, n, "a second, different frontier"));
                    }
                    self.root = Some((root, plies));
                }
                ["result:", pos, value, ..] => {
                    let pos = position(path, n, pos)?;
                    if let Some(v) = wdl(path, n, value)? {
                        self.results.insert(pos, v);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn read_proof(&mut self, path: &Path, text: &str) -> Result<(), CliError> {
        let mut lines = Vec::new();
        let mut claim = Claim::Win;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line == "# claim: hold" {
                claim = Claim::Hold;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fen = line.split_whitespace().next().unwrap_or_default();
            lines.push((position(path, i + 1, fen)?, line.to_string()));
        }
        let Some((root, first)) = lines.first().cloned() else {
            return Err(bad(path, 1, "a proof without lines"));
        };
        let prover = if first.ends_with(" all") {
            !root.turn()
        } else {
            root.turn()
        };
        if claim == Claim::Win {
            let value = if prover == root.turn() {
                Wdl::Win
            } else {
                Wdl::Loss
            };
            self.results.insert(root, value);
        } else if self.proofs.contains_key(&(root, !prover)) {
            // Both sides hold: a draw.
            self.results.entry(root).or_insert(Wdl::Draw);
        }
        let better = self
            .proofs
            .get(&(root, prover))
            .map_or(true, |p| p.claim == Claim::Hold);
        if better {
            self.proofs
                .insert((root, prover), PartProof { claim, lines });
        }
        Ok(())
    }
}

/// Combines the `files` and prints the root's value (and writes its proof to `proof`).
pub fn combine(
    out: &mut impl Write,
    files: &[PathBuf],
    rules: &Rules,
    tables: Option<&Tablebase>,
    proof: Option<&Path>,
) -> Result<(), CliError> {
    let mut parts = Parts::default();
    for f in files {
        parts.read(f)?;
    }
    let (root, plies) = parts.root.ok_or_else(|| {
        CliError::Input("no frontier file (# frontier: ROOT plies K) among the files".into())
    })?;
    let tree = Tree::new(rules, tables, plies);
    let frontier = tree.frontier(&root);
    let known = frontier
        .iter()
        .filter(|p| parts.results.contains_key(p))
        .count();
    writeln!(
        out,
        "combining {} at {plies} plies: {known} of {} frontier positions solved",
        root.to_fen(),
        frontier.len()
    )?;
    if let Some(tb) = tables {
        // The driver passes this directory to `verify-proof`, which uses no tables unless
        // told: the combined proof's table leaves come from here.
        writeln!(out, "tables: {} ({})", tb.dir().display(), tb.extent())?;
    }
    let range = tree.value(&root, &parts.results);
    let mover = color_name(root.turn());
    let value = range.value();
    match value {
        Some(Wdl::Win) => writeln!(out, "{mover} to move wins")?,
        Some(Wdl::Loss) => writeln!(out, "{mover} to move loses")?,
        Some(Wdl::Draw) => writeln!(out, "a draw: neither side can force a win")?,
        None => {
            writeln!(
                out,
                "unknown: the root is {} or better and {} or worse",
                range.lo, range.hi
            )?;
            // The parts still worth solving (a driver stops the others), each with the
            // fewest parts that would decide the root through it, the cheaper way and then
            // the other (a driver runs the lowest first).
            let needed = tree.needed(&root, &parts.results);
            let through = tree.fewest_through(&root, &parts.results);
            writeln!(
                out,
                "still needed: {} of the {} unsolved frontier positions (each with the \
                 fewest that would decide the root through it, the cheaper way and the \
                 other, - for none)",
                needed.len(),
                frontier.len() - known
            )?;
            for p in frontier.iter().filter(|p| needed.contains(p)) {
                let count = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
                let fewest = through.get(p);
                let first = count(fewest.map(|f| f.first));
                let other = count(fewest.and_then(|f| f.other));
                writeln!(out, "needed: {} {first} {other}", p.to_fen())?;
            }
        }
    }
    // The proofs of the value: for each, the prover and its claim.
    let claims: Vec<(Color, Claim)> = match value {
        Some(Wdl::Win) => vec![(root.turn(), Claim::Win)],
        Some(Wdl::Loss) => vec![(!root.turn(), Claim::Win)],
        Some(Wdl::Draw) => vec![(root.turn(), Claim::Hold), (!root.turn(), Claim::Hold)],
        None => Vec::new(),
    };
    // Each claim's tree: its lines and the frontier positions it goes on from.
    let proofs = claims
        .iter()
        .map(|&(prover, claim)| tree.proof(&root, &parts.results, prover, claim))
        .collect::<Result<Vec<_>, _>>()
        .map_err(unproven)?;
    let verdict = match value {
        // The win's tree starts at the root, with the winner's move.
        Some(Wdl::Win) => Verdict::Win(proofs[0].0[0].1.expect("the winner's line has a move")),
        Some(Wdl::Loss) => Verdict::Loss,
        Some(Wdl::Draw) => Verdict::Draw,
        None => Verdict::Unknown,
    };
    if !proofs.is_empty() {
        write_leaves(out, &frontier, proofs.iter().flat_map(|(_, leaves)| leaves))?;
    }
    if let Some(path) = proof {
        for (&(prover, claim), (lines, leaves)) in claims.iter().zip(&proofs) {
            let file = match claim {
                Claim::Win => path.to_path_buf(),
                Claim::Hold => side_path(path, prover),
            };
            let n = write_combined(&file, rules, &parts, prover, claim, lines, leaves)?;
            writeln!(
                out,
                "proof: {} ({n} lines, {} for {})",
                file.display(),
                claim.name(),
                color_name(prover)
            )?;
        }
    }
    writeln!(out, "result: {}", result_line(&root, &verdict))?;
    Ok(())
}

/// Prints the frontier positions the value's proofs rest on (`leaves`, those of each
/// proof), in frontier order: `rests on: N of the M frontier positions`, then `leaf:
/// POSITION` for each. A driver that took some parts' values from runs before (with no
/// proof) solves again only those of them listed here.
fn write_leaves<'a>(
    out: &mut impl Write,
    frontier: &[Position],
    leaves: impl Iterator<Item = &'a Position>,
) -> Result<(), CliError> {
    let leaves: std::collections::HashSet<&Position> = leaves.collect();
    writeln!(
        out,
        "rests on: {} of the {} frontier positions",
        leaves.len(),
        frontier.len()
    )?;
    for p in frontier.iter().filter(|p| leaves.contains(p)) {
        writeln!(out, "leaf: {}", p.to_fen())?;
    }
    Ok(())
}

fn unproven(pos: Position) -> CliError {
    CliError::Input(format!(
        "the results do not prove the value at {}",
        pos.to_fen()
    ))
}

/// A candidate line of a combined proof: one of the tree's, or one of a part's (its text).
enum Candidate<'a> {
    Tree(&'a Line),
    Part(&'a (Position, String)),
}

impl Candidate<'_> {
    fn position(&self) -> Position {
        match self {
            Candidate::Tree(line) => line.0,
            Candidate::Part(line) => line.0,
        }
    }

    /// The moves a checker follows from this line: its move, or every legal move for `all`.
    fn moves(&self, rules: &Rules) -> Result<Vec<Move>, CliError> {
        let (pos, text) = match self {
            Candidate::Tree((_, Some(mv))) => return Ok(vec![*mv]),
            Candidate::Tree((pos, None)) => return Ok(pos.legal_moves(rules)),
            Candidate::Part((pos, text)) => (pos, text),
        };
        match text.split_ascii_whitespace().nth(1) {
            Some("all") => Ok(pos.legal_moves(rules)),
            Some(mv) => pos.parse_move(rules, mv).map(|m| vec![m]).map_err(|e| {
                CliError::Input(format!(
                    "a part's proof line for {}: bad move {mv:?}: {e}",
                    pos.to_fen()
                ))
            }),
            None => Err(CliError::Input(format!(
                "a part's proof line for {} has no move",
                pos.to_fen()
            ))),
        }
    }
}

/// Where a candidate line is: its source (0 for the tree, `k + 1` for the part proof of
/// the `k`-th leaf, with [`REACHED`] set once the walk has reached it) and its index there.
type Place = (u32, u32);

/// The bit of a [`Place`]'s source set when the walk has reached the line.
const REACHED: u32 = 1 << 31;

/// Writes the proof of `claim` for `prover`: of the candidate lines, the tree's `lines` and
/// then the lines of the parts' proofs under its `leaves` (a part's win proof serves a hold
/// as well), the first line of a position winning, exactly those a checker's walk from the
/// root reaches. A position in several parts' proofs keeps the first part's line, so the
/// lines under it in the later parts' strategies are left out, as are the lines a part's
/// own proof did not reach. The lines are written in the order they were collected, the
/// root first; returns the number of lines written.
fn write_combined(
    path: &Path,
    rules: &Rules,
    parts: &Parts,
    prover: Color,
    claim: Claim,
    lines: &[Line],
    leaves: &[Position],
) -> Result<usize, CliError> {
    let mut sources: Vec<&PartProof> = Vec::with_capacity(leaves.len());
    for &leaf in leaves {
        let part = parts.proofs.get(&(leaf, prover)).ok_or_else(|| {
            CliError::Input(format!(
                "no proof file for {} at the frontier position {}",
                color_name(prover),
                leaf.to_fen()
            ))
        })?;
        if claim == Claim::Win && part.claim == Claim::Hold {
            return Err(CliError::Input(format!(
                "only a hold strategy for the frontier position {}",
                leaf.to_fen()
            )));
        }
        sources.push(part);
    }
    let too_many = || CliError::Input("too many lines to combine".into());
    let place = |source: usize, i: usize| -> Result<Place, CliError> {
        match (u32::try_from(source), u32::try_from(i)) {
            (Ok(s), Ok(i)) if s < REACHED => Ok((s, i)),
            _ => Err(too_many()),
        }
    };
    let candidate = |(source, i): Place| {
        let (source, i) = ((source & !REACHED) as usize, i as usize);
        if source == 0 {
            Candidate::Tree(&lines[i])
        } else {
            Candidate::Part(&sources[source - 1].lines[i])
        }
    };
    // Each position's candidate line, the first one collected.
    let mut index: PositionMap<Place> = PositionMap::default();
    for (i, line) in lines.iter().enumerate() {
        let at = place(0, i)?;
        index.entry(PositionKey(line.0)).or_insert(at);
    }
    for (k, part) in sources.iter().enumerate() {
        for (i, line) in part.lines.iter().enumerate() {
            let at = place(k + 1, i)?;
            index.entry(PositionKey(line.0)).or_insert(at);
        }
    }
    // The walk from the root: a line leads to the children after its moves; a child with a
    // line is walked once, a child without one (a game end or a table leaf) is a leaf.
    let mut stack: Vec<Place> = Vec::new();
    if let Some(first) = lines.first().and_then(|l| index.get_mut(&PositionKey(l.0))) {
        first.0 |= REACHED;
        stack.push(*first);
    }
    while let Some(at) = stack.pop() {
        let line = candidate(at);
        let pos = line.position();
        for mv in line.moves(rules)? {
            if let Some(child) = index.get_mut(&PositionKey(pos.play(&mv))) {
                if child.0 & REACHED == 0 {
                    child.0 |= REACHED;
                    stack.push(*child);
                }
            }
        }
    }
    let written = |pos: &Position, source: usize, i: usize| {
        index.get(&PositionKey(*pos)) == Some(&(source as u32 | REACHED, i as u32))
    };
    let mut out = create(path)?;
    write_header(&mut out, rules, claim, prover)?;
    let mut count = 0;
    for (i, line) in lines.iter().enumerate() {
        if written(&line.0, 0, i) {
            write_lines(&mut out, std::slice::from_ref(line))?;
            count += 1;
        }
    }
    for (k, part) in sources.iter().enumerate() {
        for (i, (pos, text)) in part.lines.iter().enumerate() {
            if written(pos, k + 1, i) {
                writeln!(out, "{text}")?;
                count += 1;
            }
        }
    }
    out.flush()?;
    Ok(count)
}
