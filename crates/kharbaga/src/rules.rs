//! Rule options and the named rule sets.

use crate::board::Direction;
use crate::color::Color;
use std::fmt;
use std::str::FromStr;

use Direction::*;
/// Every direction: men capturing backwards too, and Mullahs.
pub(crate) const ALL_WAYS: [Direction; 8] = Direction::ALL;
/// Black men: forward and sideways.
pub(crate) const BLACK_NOT_BACK: [Direction; 5] = [N, NE, E, W, NW];
/// White men: forward and sideways.
pub(crate) const WHITE_NOT_BACK: [Direction; 5] = [S, SE, E, W, SW];
const BLACK_FORWARD: [Direction; 3] = [N, NE, NW];
const WHITE_FORWARD: [Direction; 3] = [S, SE, SW];

/// When captured pieces leave the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Removal {
    /// Captured pieces stay on the board as blockers until the move ends; none can be jumped
    /// twice.
    Delayed,
    /// Each captured piece is removed as soon as it is jumped.
    Immediate,
}

/// What happens to a man that lands on the far rank in the middle of a capture sequence.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BackRank {
    /// It goes on capturing as a man and is promoted only if the move ends there.
    Continue,
    /// It is promoted at once and the move ends there.
    Promote,
}

/// Every rule option of the specification, each settable on its own.
///
/// ```
/// use kharbaga::Rules;
/// let rules: Rules = "standard,removal=immediate".parse().unwrap();
/// assert!(!rules.delayed_removal());
/// assert_eq!(rules.to_string(), "standard,removal=immediate");
/// assert_eq!("ludii".parse::<Rules>().unwrap(), Rules::ludii());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Men may step left or right along a rank line.
    pub men_step_sideways: bool,
    /// Men may capture backwards (otherwise only forwards and sideways).
    pub men_capture_backwards: bool,
    /// A player who can capture must capture.
    pub capture_compulsory: bool,
    /// A capture goes on while the capturing piece can capture again (otherwise one hop).
    pub capture_chains: bool,
    /// Only the capture sequences that take the most pieces are legal.
    pub majority: bool,
    /// When captured pieces leave the board.
    pub removal: Removal,
    /// A man reaching the far rank mid-capture continues as a man, or is promoted and stops.
    pub back_rank: BackRank,
    /// A Mullah may turn back along the line of its previous capture leg (meaningful only
    /// with immediate removal).
    pub mullah_turn_back: bool,
    /// The third occurrence of a position (same side to move) is a draw.
    pub threefold_repetition: bool,
    /// Plies in a row without a capture or a man move after which the game is drawn.
    pub no_progress_limit: Option<u32>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}

/// The names of the rule sets, in the order they are documented.
pub const RULE_SET_NAMES: [&str; 4] = ["standard", "sideways", "ludii", "dagaz"];

/// The option keys accepted by [`Rules::set_option`], with the values each takes.
pub const OPTION_KEYS: [(&str, &str); 10] = [
    ("sideways", "yes|no"),
    ("backwards", "yes|no"),
    ("compulsory", "yes|no"),
    ("chains", "yes|no"),
    ("majority", "yes|no"),
    ("removal", "delayed|immediate"),
    ("back-rank", "continue|promote"),
    ("turn-back", "yes|no"),
    ("repetition", "yes|no"),
    ("no-progress", "N|off"),
];

impl Rules {
    /// The default rules: the second rule text and the published descriptions.
    pub const fn standard() -> Rules {
        Rules {
            men_step_sideways: false,
            men_capture_backwards: true,
            capture_compulsory: true,
            capture_chains: true,
            majority: true,
            removal: Removal::Delayed,
            back_rank: BackRank::Continue,
            mullah_turn_back: true,
            threefold_repetition: true,
            no_progress_limit: Some(100),
        }
    }

    /// The first rule text taken literally: men step sideways, never capture backwards, no
    /// majority rule.
    pub const fn sideways() -> Rules {
        Rules {
            men_step_sideways: true,
            men_capture_backwards: false,
            majority: false,
            ..Rules::standard()
        }
    }

    /// The Ludii program: one hop per capture, captures optional, no draw rules.
    pub const fn ludii() -> Rules {
        Rules {
            capture_compulsory: false,
            capture_chains: false,
            majority: false,
            threefold_repetition: false,
            no_progress_limit: None,
            ..Rules::standard()
        }
    }

    /// The Dagaz program: sideways steps, immediate removal, promote-and-stop, no turning
    /// back, no draw rules.
    pub const fn dagaz() -> Rules {
        Rules {
            men_step_sideways: true,
            removal: Removal::Immediate,
            back_rank: BackRank::Promote,
            mullah_turn_back: false,
            threefold_repetition: false,
            no_progress_limit: None,
            ..Rules::standard()
        }
    }

    /// The named rule set, if the name is one of [`RULE_SET_NAMES`].
    pub fn named(name: &str) -> Option<Rules> {
        match name {
            "standard" => Some(Rules::standard()),
            "sideways" => Some(Rules::sideways()),
            "ludii" => Some(Rules::ludii()),
            "dagaz" => Some(Rules::dagaz()),
            _ => None,
        }
    }

    /// The directions a man of `color` may step in: forward (straight forward only from a
    /// grid point, since a centre has no orthogonal lines), and sideways if allowed.
    pub fn man_step_directions(&self, color: Color) -> &'static [Direction] {
        match (self.men_step_sideways, color) {
            (false, Color::Black) => &BLACK_FORWARD,
            (false, Color::White) => &WHITE_FORWARD,
            (true, Color::Black) => &BLACK_NOT_BACK,
            (true, Color::White) => &WHITE_NOT_BACK,
        }
    }

    /// The directions a man of `color` may capture in: all eight, or all but the backward
    /// ones.
    pub fn man_capture_directions(&self, color: Color) -> &'static [Direction] {
        match (self.men_capture_backwards, color) {
            (true, _) => &ALL_WAYS,
            (false, Color::Black) => &BLACK_NOT_BACK,
            (false, Color::White) => &WHITE_NOT_BACK,
        }
    }

    /// Whether captured pieces stay on the board until the move ends.
    #[inline]
    pub fn delayed_removal(&self) -> bool {
        self.removal == Removal::Delayed
    }

    /// Sets one option from its key and value as written in `--rule KEY=VALUE` (see
    /// [`OPTION_KEYS`]).
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let bad = || RulesError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected: OPTION_KEYS
                .iter()
                .find(|(k, _)| *k == key)
                .map_or("", |(_, v)| v),
        };
        let yes_no = || match value {
            "yes" | "on" | "true" => Ok(true),
            "no" | "off" | "false" => Ok(false),
            _ => Err(bad()),
        };
        match key {
            "sideways" => self.men_step_sideways = yes_no()?,
            "backwards" => self.men_capture_backwards = yes_no()?,
            "compulsory" => self.capture_compulsory = yes_no()?,
            "chains" => self.capture_chains = yes_no()?,
            "majority" => self.majority = yes_no()?,
            "turn-back" => self.mullah_turn_back = yes_no()?,
            "repetition" => self.threefold_repetition = yes_no()?,
            "removal" => {
                self.removal = match value {
                    "delayed" => Removal::Delayed,
                    "immediate" => Removal::Immediate,
                    _ => return Err(bad()),
                }
            }
            "back-rank" => {
                self.back_rank = match value {
                    "continue" => BackRank::Continue,
                    "promote" => BackRank::Promote,
                    _ => return Err(bad()),
                }
            }
            "no-progress" => {
                self.no_progress_limit = match value {
                    "off" | "no" => None,
                    n => match n.parse::<u32>() {
                        Ok(n) if n > 0 => Some(n),
                        _ => return Err(bad()),
                    },
                }
            }
            _ => return Err(RulesError::UnknownOption(key.to_string())),
        }
        Ok(())
    }

    /// Sets one option from `KEY=VALUE`.
    pub fn set_option_str(&mut self, assignment: &str) -> Result<(), RulesError> {
        let (key, value) = assignment
            .split_once('=')
            .ok_or_else(|| RulesError::NotAnAssignment(assignment.to_string()))?;
        self.set_option(key.trim(), value.trim())
    }

    /// Every option as `(key, value)`, in the order of [`OPTION_KEYS`].
    pub fn options(&self) -> [(&'static str, String); 10] {
        let yn = |b: bool| if b { "yes" } else { "no" }.to_string();
        [
            ("sideways", yn(self.men_step_sideways)),
            ("backwards", yn(self.men_capture_backwards)),
            ("compulsory", yn(self.capture_compulsory)),
            ("chains", yn(self.capture_chains)),
            ("majority", yn(self.majority)),
            (
                "removal",
                match self.removal {
                    Removal::Delayed => "delayed",
                    Removal::Immediate => "immediate",
                }
                .to_string(),
            ),
            (
                "back-rank",
                match self.back_rank {
                    BackRank::Continue => "continue",
                    BackRank::Promote => "promote",
                }
                .to_string(),
            ),
            ("turn-back", yn(self.mullah_turn_back)),
            ("repetition", yn(self.threefold_repetition)),
            (
                "no-progress",
                self.no_progress_limit
                    .map_or("off".to_string(), |n| n.to_string()),
            ),
        ]
    }

    /// The options in which `self` differs from `base`.
    fn differences(&self, base: &Rules) -> Vec<(&'static str, String)> {
        let theirs = base.options();
        self.options()
            .into_iter()
            .zip(theirs)
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, _)| a)
            .collect()
    }

    /// The name of the named rule set nearest to these rules: the one they differ from in
    /// the fewest options, ties going to the first in [`RULE_SET_NAMES`] (so to `standard`).
    pub fn nearest_named(&self) -> &'static str {
        self.nearest().0
    }

    /// The nearest named rule set and the options in which `self` differs from it.
    fn nearest(&self) -> (&'static str, Vec<(&'static str, String)>) {
        RULE_SET_NAMES
            .iter()
            .map(|n| (*n, self.differences(&Rules::named(n).expect("known name"))))
            .min_by_key(|(_, d)| d.len())
            .expect("four names")
    }
}

impl fmt::Display for Rules {
    /// The shortest description: a rule set name, then `,key=value` for each option that
    /// differs from it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, diffs) = self.nearest();
        f.write_str(name)?;
        for (k, v) in diffs {
            write!(f, ",{k}={v}")?;
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Reads a rule set name optionally followed by `,key=value` overrides.
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let mut parts = s.split(',');
        let name = parts.next().unwrap_or("").trim();
        let mut rules =
            Rules::named(name).ok_or_else(|| RulesError::UnknownRuleSet(name.to_string()))?;
        for part in parts {
            rules.set_option_str(part.trim())?;
        }
        Ok(rules)
    }
}

/// Why a rule set or option could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// The name is not one of [`RULE_SET_NAMES`].
    UnknownRuleSet(String),
    /// The key is not one of [`OPTION_KEYS`].
    UnknownOption(String),
    /// The value is not one the option takes.
    BadValue {
        /// The option key.
        key: String,
        /// The value given.
        value: String,
        /// The values the option takes.
        expected: &'static str,
    },
    /// Not of the form `key=value`.
    NotAnAssignment(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownRuleSet(n) => write!(
                f,
                "unknown rule set '{n}' (known: {})",
                RULE_SET_NAMES.join(", ")
            ),
            RulesError::UnknownOption(k) => write!(
                f,
                "unknown rule option '{k}' (known: {})",
                OPTION_KEYS.map(|(k, _)| k).join(", ")
            ),
            RulesError::BadValue {
                key,
                value,
                expected,
            } => write!(
                f,
                "rule option {key} cannot be '{value}' (expected {expected})"
            ),
            RulesError::NotAnAssignment(s) => {
                write!(
                    f,
                    "'{s}' is not a rule option setting (expected OPTION=VALUE)"
                )
            }
        }
    }
}

impl std::error::Error for RulesError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_sets_follow_the_spec_table() {
        let s = Rules::sideways();
        assert!(s.men_step_sideways && !s.men_capture_backwards && !s.majority);
        assert!(s.capture_compulsory && s.capture_chains && s.delayed_removal());
        let l = Rules::ludii();
        assert!(!l.capture_compulsory && !l.capture_chains && !l.majority);
        assert!(!l.threefold_repetition && l.no_progress_limit.is_none());
        let d = Rules::dagaz();
        assert!(d.men_step_sideways && d.men_capture_backwards && d.majority);
        assert_eq!(d.removal, Removal::Immediate);
        assert_eq!(d.back_rank, BackRank::Promote);
        assert!(!d.mullah_turn_back && !d.threefold_repetition);
    }

    #[test]
    fn display_round_trips() {
        for name in RULE_SET_NAMES {
            let r = Rules::named(name).unwrap();
            assert_eq!(r.to_string(), name);
        }
        let mut r = Rules::standard();
        r.set_option("no-progress", "off").unwrap();
        r.set_option("back-rank", "promote").unwrap();
        let s = r.to_string();
        assert_eq!(s, "standard,back-rank=promote,no-progress=off");
        assert_eq!(s.parse::<Rules>().unwrap(), r);
    }

    #[test]
    fn nearest_named_set_differs_least_and_ties_go_to_standard() {
        for name in RULE_SET_NAMES {
            assert_eq!(Rules::named(name).unwrap().nearest_named(), name);
        }
        let near = |s: &str| s.parse::<Rules>().unwrap().nearest_named();
        // One option from ludii, four from standard.
        assert_eq!(near("ludii,compulsory=yes"), "ludii");
        // Two options from sideways (majority, removal), three from standard.
        assert_eq!(
            near("standard,sideways=yes,backwards=no,removal=immediate"),
            "sideways"
        );
        // Three options from standard and three from dagaz.
        assert_eq!(
            near("standard,sideways=yes,removal=immediate,back-rank=promote"),
            "standard"
        );
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(
            "standrd".parse::<Rules>(),
            Err(RulesError::UnknownRuleSet("standrd".into()))
        );
        let e = "standard,majority=maybe".parse::<Rules>().unwrap_err();
        assert!(e.to_string().contains("majority"), "{e}");
        assert!(e.to_string().contains("yes|no"), "{e}");
        assert!(matches!(
            "standard,colour=red".parse::<Rules>(),
            Err(RulesError::UnknownOption(_))
        ));
        assert!(matches!(
            "standard,majority".parse::<Rules>(),
            Err(RulesError::NotAnAssignment(_))
        ));
        assert!("standard,no-progress=0".parse::<Rules>().is_err());
    }
}
