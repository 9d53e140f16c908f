//! `kharbaga solve --frontier K` and `kharbaga solve --combine FILES`: the work of a solve
//! split into positions that can be solved anywhere, and their results put together.
//!
//! The frontier is printed as a header line `# frontier: ROOT plies K` and one position per
//! line. Combining reads any mix of such a frontier file (for the root and K), outputs of
//! `kharbaga solve` (their `result:` lines) and proof files (their root and claim), works
//! the root's value out and, with `--proof`, writes its proof (for a draw, each side's
//! strategy): the tree's lines, then the lines of the parts' proofs it needs.

use super::{color_name, result_line};
use crate::args::CliError;
use kharbaga::{Color, Position, Rules};
use kharbaga_solver::extract::{Claim, Line};
use kharbaga_solver::frontier::Tree;
use kharbaga_solver::proof_file::{create, read_text, side_path, write_lines};
use kharbaga_solver::solve::Verdict;
use kharbaga_tablebase::tablebase::Tablebase;
use kharbaga_tablebase::value::Wdl;
use std::collections::{HashMap, HashSet};
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
        writeln!(
            out,
            "tables: {} (up to {} pieces)",
            tb.dir().display(),
            tb.max_pieces()
        )?;
    }
    let range = tree.value(&root, &parts.results);
    let mover = color_name(root.turn());
    let verdict = match range.value() {
        Some(Wdl::Win) => {
            writeln!(out, "{mover} to move wins")?;
            let (lines, _) = tree
                .proof(&root, &parts.results, root.turn(), Claim::Win)
                .map_err(unproven)?;
            Verdict::Win(lines[0].1.expect("the winner's line has a move"))
        }
        Some(Wdl::Loss) => {
            writeln!(out, "{mover} to move loses")?;
            Verdict::Loss
        }
        Some(Wdl::Draw) => {
            writeln!(out, "a draw: neither side can force a win")?;
            Verdict::Draw
        }
        None => {
            writeln!(
                out,
                "unknown: the root is {} or better and {} or worse",
                range.lo, range.hi
            )?;
            // The parts still worth solving: a driver stops the others.
            let needed = tree.needed(&root, &parts.results);
            writeln!(
                out,
                "still needed: {} of the {} unsolved frontier positions",
                needed.len(),
                frontier.len() - known
            )?;
            for p in frontier.iter().filter(|p| needed.contains(p)) {
                writeln!(out, "needed: {}", p.to_fen())?;
            }
            Verdict::Unknown
        }
    };
    if let Some(path) = proof {
        let written: Vec<(PathBuf, Color, Claim)> = match &verdict {
            Verdict::Win(_) => vec![(path.to_path_buf(), root.turn(), Claim::Win)],
            Verdict::Loss => vec![(path.to_path_buf(), !root.turn(), Claim::Win)],
            Verdict::Draw => [root.turn(), !root.turn()]
                .into_iter()
                .map(|c| (side_path(path, c), c, Claim::Hold))
                .collect(),
            Verdict::Unknown => Vec::new(),
        };
        for (file, prover, claim) in written {
            let n = write_combined(&file, rules, &tree, &root, &parts, prover, claim)?;
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

fn unproven(pos: Position) -> CliError {
    CliError::Input(format!(
        "the results do not prove the value at {}",
        pos.to_fen()
    ))
}

/// Writes the tree's lines for `claim` of `prover` and the parts' proofs under them (a
/// part's win proof serves a hold as well); returns the number of lines.
fn write_combined(
    path: &Path,
    rules: &Rules,
    tree: &Tree<'_>,
    root: &Position,
    parts: &Parts,
    prover: Color,
    claim: Claim,
) -> Result<usize, CliError> {
    let (lines, leaves) = tree
        .proof(root, &parts.results, prover, claim)
        .map_err(unproven)?;
    let mut out = create(path)?;
    writeln!(out, "# kharbaga proof")?;
    writeln!(out, "# rules: {rules}")?;
    writeln!(out, "# claim: {}", claim.name())?;
    writeln!(out, "# prover: {}", color_name(prover))?;
    write_lines(&mut out, &lines)?;
    let mut written: HashSet<Position> = lines.iter().map(|l: &Line| l.0).collect();
    let mut count = lines.len();
    for leaf in leaves {
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
        for (pos, text) in &part.lines {
            if written.insert(*pos) {
                writeln!(out, "{text}")?;
                count += 1;
            }
        }
    }
    out.flush()?;
    Ok(count)
}
