//! The players of a match as given on the command line: a baseline player or engine
//! settings, read from KEY=VALUE,...

use kharbaga::Rules;
use kharbaga_engine::{Limits, Options};
use std::fmt;
use std::time::Duration;

/// A player as configured on the command line.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum PlayerSpec {
    Random,
    Greedy,
    Engine(EngineSpec),
}

/// Engine settings from `KEY=VALUE,...`.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct EngineSpec {
    pub(super) text: String,
    pub(super) level: Option<u8>,
    pub(super) movetime: Option<u64>,
    pub(super) depth: Option<u32>,
    pub(super) nodes: Option<u64>,
    pub(super) hash: Option<usize>,
    pub(super) threads: Option<usize>,
    /// Settings for experiments, passed on to the engine's own player specification.
    pub(super) experiments: Vec<String>,
    /// The endgame tables' directory.
    pub(super) tables: Option<String>,
    /// Whether to play from the opening book (`None`: not said; an engine in this process
    /// then plays without it, an external program as it does by default).
    pub(super) book: Option<bool>,
}

/// The engine's settings for experiments (see `kharbaga_engine::selfplay::player_from_spec`).
const EXPERIMENT_KEYS: [&str; 7] = [
    "lmr",
    "aspiration",
    "forced",
    "ttcut",
    "history",
    "zero",
    "weights",
];

impl std::str::FromStr for PlayerSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        match text.trim() {
            "random" => return Ok(PlayerSpec::Random),
            "greedy" => return Ok(PlayerSpec::Greedy),
            "" => return Err("a player is random, greedy or KEY=VALUE,...".to_string()),
            _ => {}
        }
        let mut spec = EngineSpec {
            text: text.trim().to_string(),
            ..EngineSpec::default()
        };
        for part in text.split(',') {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                format!("'{part}' is not KEY=VALUE (a player is random, greedy or KEY=VALUE,...)")
            })?;
            let (key, value) = (key.trim(), value.trim());
            fn read<T: std::str::FromStr + PartialOrd + fmt::Display>(
                key: &str,
                value: &str,
                low: T,
                high: T,
            ) -> Result<T, String> {
                value
                    .parse::<T>()
                    .ok()
                    .filter(|v| *v >= low && *v <= high)
                    .ok_or_else(|| {
                        format!("{key} must be a whole number from {low} to {high}, not '{value}'")
                    })
            }
            match key {
                "level" => spec.level = Some(read(key, value, 1, 10)?),
                "movetime" => spec.movetime = Some(read(key, value, 1, 3_600_000)?),
                "depth" => spec.depth = Some(read(key, value, 1, 127)?),
                "nodes" => spec.nodes = Some(read(key, value, 1, u64::MAX)?),
                "hash" => spec.hash = Some(read(key, value, 1, 65_536)?),
                "threads" => spec.threads = Some(read(key, value, 1, 256)?),
                "tables" => spec.tables = Some(value.to_string()),
                "book" => {
                    spec.book = Some(match value {
                        "yes" => true,
                        "no" => false,
                        _ => return Err(format!("book must be yes or no, not '{value}'")),
                    })
                }
                _ if EXPERIMENT_KEYS.contains(&key) => {
                    spec.experiments.push(format!("{key}={value}"))
                }
                _ => {
                    return Err(format!(
                    "unknown engine setting '{key}' (level, movetime, depth, nodes, hash, threads, \
                     tables, book, or for experiments {})",
                    EXPERIMENT_KEYS.join(", ")
                ))
                }
            }
        }
        Ok(PlayerSpec::Engine(spec))
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Engine(spec) => f.write_str(&spec.text),
        }
    }
}

impl EngineSpec {
    /// The search limits: the spec's, or `default_movetime` when it gives none.
    pub(super) fn limits(&self, default_movetime: u64) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
            limits.movetime = Some(Duration::from_millis(default_movetime));
        }
        limits
    }

    pub(super) fn options(&self) -> Options {
        let default = Options::default();
        Options {
            hash_mib: self.hash.unwrap_or(DEFAULT_HASH_MIB),
            threads: self.threads.unwrap_or(default.threads),
            level: self.level.unwrap_or(default.level),
            tables: None,
            book: None,
        }
    }

    /// The engine's own player specification of these settings.
    pub(super) fn engine_spec(&self, default_movetime: u64, rules: &Rules) -> String {
        let options = self.options();
        let limits = self.limits(default_movetime);
        let mut items = vec![
            format!("level={}", options.level),
            format!("hash={}", options.hash_mib),
            format!("threads={}", options.threads),
        ];
        if let Some(d) = limits.depth {
            items.push(format!("depth={d}"));
        }
        if let Some(n) = limits.nodes {
            items.push(format!("nodes={n}"));
        }
        if let Some(t) = limits.movetime {
            items.push(format!("movetime={}", t.as_millis()));
        }
        items.extend(self.experiments.iter().cloned());
        if let Some(dir) = &self.tables {
            items.push(format!("tables={dir}"));
            items.push(format!(
                "tables-rules={}",
                rules.to_string().replace(',', "+")
            ));
        }
        if self.book == Some(true) {
            items.push("book=yes".to_string());
        }
        format!("engine:{}", items.join(","))
    }
}

/// The transposition table of the engines in a match, unless their settings say otherwise:
/// enough for a second a move, and light when several games run at once.
const DEFAULT_HASH_MIB: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_read_from_their_settings() {
        assert_eq!("random".parse::<PlayerSpec>(), Ok(PlayerSpec::Random));
        assert_eq!(" greedy".parse::<PlayerSpec>(), Ok(PlayerSpec::Greedy));
        let PlayerSpec::Engine(spec) = "level=7,movetime=250,hash=8".parse().unwrap() else {
            panic!("an engine");
        };
        assert_eq!(
            (spec.level, spec.movetime, spec.hash, spec.depth),
            (Some(7), Some(250), Some(8), None)
        );
        assert_eq!(spec.limits(100).movetime, Some(Duration::from_millis(250)));
        assert_eq!(spec.options().level, 7);
        // Without a limit of its own the engine gets the match's movetime.
        let PlayerSpec::Engine(spec) = "depth=3".parse().unwrap() else {
            panic!("an engine");
        };
        assert_eq!(spec.limits(100).movetime, None);
        let PlayerSpec::Engine(spec) = "level=9".parse().unwrap() else {
            panic!("an engine");
        };
        assert_eq!(spec.limits(100).movetime, Some(Duration::from_millis(100)));
        // Settings for experiments go to the engine's own player specification.
        let PlayerSpec::Engine(spec) = "lmr=0,level=9,history=1".parse().unwrap() else {
            panic!("an engine");
        };
        assert_eq!(spec.experiments, ["lmr=0", "history=1"]);
        assert_eq!(
            spec.engine_spec(100, &Rules::standard()),
            "engine:level=9,hash=16,threads=1,movetime=100,lmr=0,history=1"
        );
        // The book is off unless asked for.
        let PlayerSpec::Engine(spec) = "book=yes,level=9".parse().unwrap() else {
            panic!("an engine");
        };
        assert_eq!(spec.book, Some(true));
        assert_eq!(
            spec.engine_spec(100, &Rules::standard()),
            "engine:level=9,hash=16,threads=1,movetime=100,book=yes"
        );
        assert!(kharbaga_engine::selfplay::player_from_spec(
            &spec.engine_spec(100, &Rules::standard())
        )
        .is_ok());
        for (bad, why) in [
            ("book=maybe", "book must be yes or no, not 'maybe'"),
            ("level=11", "level must be a whole number from 1 to 10"),
            ("speed=3", "unknown engine setting 'speed'"),
            ("fast", "'fast' is not KEY=VALUE"),
            ("", "random, greedy or KEY=VALUE"),
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
