//! Reading a proof file: comments, the claim and rules comments, and one line per position,
//! kept compactly (the position as the key of a map to its line number and move text).

use super::error::{Malformed, ProofError};
use super::Claim;
use kharbaga::{MoveText, Position, Rules};
use std::io::BufRead;

pub(super) use kharbaga::{PositionKey as Key, PositionMap as PosMap};

/// One position line: where it is and what it says.
struct NodeLine {
    /// The line number (1-based).
    line: u32,
    /// Where its move text starts in [`Proof::texts`].
    text: u32,
    /// The length of its move text; 0 for `all`.
    len: u16,
}

/// A proof file as read: its claim, its root, and its position lines.
pub(super) struct Proof {
    /// What the proof claims.
    pub claim: Claim,
    /// The position of the first line.
    pub root: Position,
    nodes: Vec<NodeLine>,
    index: PosMap<u32>,
    /// The move texts of all lines, one after the other.
    texts: String,
}

/// The comments the checker reads: `# rules: R` and `# claim: C`.
struct Comments<'a> {
    rules: &'a Rules,
    rules_line: Option<u64>,
    claim: Option<(Claim, u64)>,
}

impl Comments<'_> {
    /// Reads one comment line (the text after `#`).
    fn read(&mut self, body: &str, line: u64) -> Result<(), ProofError> {
        let body = body.trim();
        let bad = |problem| Err(ProofError::malformed(line, problem));
        if let Some(text) = body.strip_prefix("rules:") {
            let text = text.trim();
            if let Some(first_line) = self.rules_line {
                return bad(Malformed::RepeatedComment {
                    key: "rules",
                    first_line,
                });
            }
            self.rules_line = Some(line);
            let file: Rules = match text.parse() {
                Ok(r) => r,
                Err(error) => {
                    return bad(Malformed::BadRules {
                        text: text.to_string(),
                        error,
                    })
                }
            };
            if file != *self.rules {
                return bad(Malformed::RulesMismatch {
                    file,
                    given: *self.rules,
                });
            }
        } else if let Some(text) = body.strip_prefix("claim:") {
            let text = text.trim();
            if let Some((_, first_line)) = self.claim {
                return bad(Malformed::RepeatedComment {
                    key: "claim",
                    first_line,
                });
            }
            match text.parse() {
                Ok(c) => self.claim = Some((c, line)),
                Err(_) => {
                    return bad(Malformed::BadClaim {
                        text: text.to_string(),
                    })
                }
            }
        }
        Ok(())
    }
}

impl Proof {
    /// Reads a proof file; `rules` are those of the check (a `# rules:` comment must name
    /// the same).
    pub fn read<R: BufRead>(mut input: R, rules: &Rules) -> Result<Proof, ProofError> {
        let mut comments = Comments {
            rules,
            rules_line: None,
            claim: None,
        };
        let mut proof = Proof {
            claim: Claim::Win,
            root: Position::start(),
            nodes: Vec::new(),
            index: PosMap::default(),
            texts: String::new(),
        };
        let mut buf = Vec::new();
        let mut line: u64 = 0;
        loop {
            buf.clear();
            let n = input
                .read_until(b'\n', &mut buf)
                .map_err(|error| ProofError::Read {
                    path: None,
                    line: Some(line + 1),
                    error,
                })?;
            if n == 0 {
                break;
            }
            line += 1;
            let text = std::str::from_utf8(&buf)
                .map_err(|_| ProofError::malformed(line, Malformed::NotUtf8))?
                .trim();
            if text.is_empty() {
                continue;
            }
            if let Some(body) = text.strip_prefix('#') {
                comments.read(body, line)?;
                continue;
            }
            proof.add_line(text, line)?;
        }
        if proof.nodes.is_empty() {
            return Err(ProofError::malformed(0, Malformed::NoRoot));
        }
        if let Some((claim, _)) = comments.claim {
            proof.claim = claim;
        }
        Ok(proof)
    }

    /// Reads one position line.
    fn add_line(&mut self, text: &str, line: u64) -> Result<(), ProofError> {
        let bad = |problem| Err(ProofError::malformed(line, problem));
        let mut fields = text.split_ascii_whitespace();
        let pos_text = fields.next().expect("the line is not blank");
        let position = match Position::from_fen(pos_text) {
            Ok(p) => p,
            Err(error) => {
                return bad(Malformed::BadPosition {
                    text: pos_text.to_string(),
                    error,
                })
            }
        };
        let Some(mv) = fields.next() else {
            return bad(Malformed::MissingMove);
        };
        if let Some(extra) = fields.next() {
            return bad(Malformed::ExtraField {
                text: extra.to_string(),
            });
        }
        if mv != "all" {
            if let Err(error) = MoveText::parse(mv) {
                return bad(Malformed::BadMove {
                    text: mv.to_string(),
                    error,
                });
            }
        }
        let (Ok(line32), Ok(index), Ok(start), Ok(_), Ok(len)) = (
            u32::try_from(line),
            u32::try_from(self.nodes.len()),
            u32::try_from(self.texts.len()),
            u32::try_from(self.texts.len() + mv.len()),
            u16::try_from(mv.len()),
        ) else {
            return bad(Malformed::TooLarge);
        };
        if let Some(&first) = self.index.get(&Key(position)) {
            return bad(Malformed::Duplicate {
                position,
                first_line: u64::from(self.nodes[first as usize].line),
            });
        }
        let len = if mv == "all" {
            0
        } else {
            self.texts.push_str(mv);
            len
        };
        if self.nodes.is_empty() {
            self.root = position;
        }
        self.index.insert(Key(position), index);
        self.nodes.push(NodeLine {
            line: line32,
            text: start,
            len,
        });
        Ok(())
    }

    /// The number of position lines.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The index of the line of `pos`, if it has one (the root's is 0).
    pub fn find(&self, pos: &Position) -> Option<u32> {
        self.index.get(&Key(*pos)).copied()
    }

    /// The line number of line `index`.
    pub fn line(&self, index: u32) -> u64 {
        u64::from(self.nodes[index as usize].line)
    }

    /// The move text of line `index`, or `None` for `all`.
    pub fn move_text(&self, index: u32) -> Option<&str> {
        let n = &self.nodes[index as usize];
        (n.len > 0).then(|| &self.texts[n.text as usize..n.text as usize + n.len as usize])
    }
}
