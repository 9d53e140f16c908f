//! The proof checker: reads a proof file (`docs/proof-format.md`) and replays it from its
//! root with the rules library alone, and with the endgame tables for table leaves.
//!
//! It shares no code with the search. A proof is a set of lines, one per position: the
//! prover's move where the prover is to move, `all` where the opponent is; the checker
//! follows every line of play from the root and checks that each position reached is
//! covered (rules 1 to 6 of the format).
//!
//! Proofs can have millions of lines and transpositions, so no line of play is walked on its
//! own:
//!
//! - a `win` proof is walked once, depth first, over its positions; a position met again on
//!   the current line is a cycle (an error), and each position keeps the highest no-progress
//!   count it may be entered with, so that the no-progress conditions are checked exactly
//!   for the worst line reaching it;
//! - a `hold` proof is walked over (position, no-progress count) states; a position is
//!   walked again only when it is reached with a smaller count than before (a smaller count
//!   never makes a hold easier).
//!
//! ```
//! use kharbaga::{Color, Rules};
//! use kharbaga_solver::check::{check_proof, Claim};
//! // Black c3-d4; whichever way White's man steps, it is taken.
//! let proof = "\
//! B:Bc3,e3:Wd6 c3-d4
//! W:Bd4,e3:Wd6 all
//! B:Bd4,e3:Wc5 d4xb6
//! B:Bd4,e3:We5 e3xe7
//! ";
//! let verified = check_proof(proof.as_bytes(), &Rules::standard(), None).unwrap();
//! assert_eq!((verified.prover, verified.claim), (Color::Black, Claim::Win));
//! assert_eq!(verified.longest, 3);
//! ```

mod error;
mod failure;
mod file;
mod hold;
mod walk;
mod win;

pub use error::{Malformed, ProofError};
pub use failure::{Failure, Step};

use flate2::read::MultiGzDecoder;
use kharbaga::{Color, Position, Rules};
use kharbaga_tablebase::tablebase::Tablebase;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::str::FromStr;

/// What a proof claims for its prover.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// The prover wins against every defence (`# claim: win`, the default).
    Win,
    /// The prover holds at least a draw (`# claim: hold`).
    Hold,
}

impl fmt::Display for Claim {
    /// `win` or `hold`, as the `# claim:` comment writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Claim::Win => "win",
            Claim::Hold => "hold",
        })
    }
}

impl FromStr for Claim {
    type Err = String;

    /// Reads `win` or `hold`.
    fn from_str(s: &str) -> Result<Claim, String> {
        match s {
            "win" => Ok(Claim::Win),
            "hold" => Ok(Claim::Hold),
            _ => Err(format!("'{s}' is not a claim (expected win or hold)")),
        }
    }
}

/// What a proof that holds proved, with the size of the check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The rules it was checked under.
    pub rules: Rules,
    /// The root: the position of the first line.
    pub root: Position,
    /// The side that plays the lines with a move.
    pub prover: Color,
    /// What was proved.
    pub claim: Claim,
    /// The position lines of the file.
    pub lines: u64,
    /// The distinct positions the check reached: those of the lines it followed and the
    /// leaves (game ends, table leaves, and in a hold proof the no-progress draws).
    pub positions: u64,
    /// The longest line of play, in plies, through the lines of the file (to a game end or a
    /// leaf). In a hold proof a line that comes back to a position on it is counted up to
    /// there (where lines go round cycles, this is the longest the walk met, a lower bound).
    pub longest: u32,
    /// The lines no line of play reached.
    pub unused: u64,
}

impl fmt::Display for Verified {
    /// `standard, Black wins from B:... (12 lines, 40 positions, longest line 9 plies)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.claim {
            Claim::Win => "wins",
            Claim::Hold => "holds at least a draw",
        };
        let s = |n: u64| if n == 1 { "" } else { "s" };
        write!(
            f,
            "{}, {} {what} from {} ({} line{}",
            self.rules,
            self.prover,
            self.root,
            self.lines,
            s(self.lines)
        )?;
        if self.unused > 0 {
            write!(f, " of which {} unused", self.unused)?;
        }
        write!(
            f,
            ", {} position{}, longest line {} pl{})",
            self.positions,
            s(self.positions),
            self.longest,
            if self.longest == 1 { "y" } else { "ies" }
        )
    }
}

/// Checks a proof read from `input` under `rules`, with `tables` (if any) for table leaves.
///
/// Returns what the proof proved, or the first error found: [`ProofError::Malformed`] for
/// a file that is not a proof file (or whose `# rules:` comment names other rules),
/// [`ProofError::Fails`] for a proof that does not hold.
pub fn check_proof<R: BufRead>(
    input: R,
    rules: &Rules,
    tables: Option<&Tablebase>,
) -> Result<Verified, ProofError> {
    let proof = file::Proof::read(input, rules)?;
    let mut walker = walk::Walker::new(&proof, rules, tables);
    let stats = match proof.claim {
        Claim::Win => win::walk(&mut walker)?,
        Claim::Hold => hold::walk(&mut walker)?,
    };
    let lines = proof.len() as u64;
    Ok(Verified {
        rules: *rules,
        root: proof.root,
        prover: walker.prover,
        claim: proof.claim,
        lines,
        positions: stats.line_nodes + walker.leaf_count(),
        longest: stats.longest,
        unused: lines - stats.line_nodes,
    })
}

/// Checks the proof file at `path` ([`check_proof`]); a name ending in `.gz` is read
/// through gzip.
pub fn check_file(
    path: &Path,
    rules: &Rules,
    tables: Option<&Tablebase>,
) -> Result<Verified, ProofError> {
    let file = File::open(path).map_err(|error| ProofError::Read {
        path: Some(path.to_path_buf()),
        line: None,
        error,
    })?;
    let gzip = path.extension().is_some_and(|e| e == "gz");
    let result = if gzip {
        check_proof(BufReader::new(MultiGzDecoder::new(file)), rules, tables)
    } else {
        check_proof(BufReader::new(file), rules, tables)
    };
    result.map_err(|e| match e {
        ProofError::Read { line, error, .. } => ProofError::Read {
            path: Some(path.to_path_buf()),
            line,
            error,
        },
        e => e,
    })
}
