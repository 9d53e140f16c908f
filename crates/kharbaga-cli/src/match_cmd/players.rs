//! The players in a match's seats: made from their settings, in this process or as an
//! external program.

use super::external::External;
use super::spec::PlayerSpec;
use kharbaga::{Game, Move, Rules};
use kharbaga_engine::selfplay::{player_from_spec, Failure, FailureKind, Player};
use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

/// A player in this process: the engine or a baseline player, made from the engine
/// library's player specification.
struct Internal {
    pub(super) spec: String,
    pub(super) player: Box<dyn Player>,
}

impl Internal {
    pub(super) fn new(spec: String) -> Result<Internal, String> {
        Ok(Internal {
            player: player_from_spec(&spec)?,
            spec,
        })
    }
}

impl Player for Internal {
    fn new_game(&mut self) -> Result<(), Failure> {
        self.player.new_game()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Failure> {
        match panic::catch_unwind(AssertUnwindSafe(|| self.player.choose(game))) {
            Ok(choice) => choice,
            Err(_) => {
                // The player may be left inconsistent: start afresh for the next game.
                if let Ok(fresh) = player_from_spec(&self.spec) {
                    self.player = fresh;
                }
                Err(Failure::new(FailureKind::Crash, "the engine panicked"))
            }
        }
    }
}

/// A player with the time it may take for a move, if limited by time.
pub(super) struct Seat {
    pub(super) player: Box<dyn Player>,
    pub(super) budget: Option<Duration>,
}

/// Makes a player from its settings (`seed` for its random choices).
pub(super) fn contestant(
    spec: &PlayerSpec,
    command: Option<&str>,
    rules: Rules,
    movetime: u64,
    seed: u64,
) -> Result<Seat, String> {
    let internal = |spec: String, budget| -> Result<Seat, String> {
        Ok(Seat {
            player: Box::new(Internal::new(spec)?),
            budget,
        })
    };
    match (spec, command) {
        (PlayerSpec::Random, None) => internal(format!("random:{seed}"), None),
        (PlayerSpec::Greedy, None) => internal(format!("greedy:{seed}"), None),
        (PlayerSpec::Engine(spec), None) => internal(
            spec.engine_spec(movetime, &rules),
            spec.limits(movetime).movetime,
        ),
        (PlayerSpec::Engine(spec), Some(_))
            if !spec.experiments.is_empty() || spec.tables.is_some() =>
        {
            Err(format!(
                "{} are settings of this program's engine, not of an external one",
                spec.experiments
                    .iter()
                    .map(String::as_str)
                    .chain(spec.tables.as_ref().map(|_| "tables"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
        (PlayerSpec::Engine(spec), Some(command)) => {
            let mut external = External {
                command: command.to_string(),
                spec: spec.clone(),
                limits: spec.limits(movetime),
                rules,
                running: None,
            };
            external
                .start()
                .map_err(|f| format!("'{command}': {}", f.message))?;
            Ok(Seat {
                budget: external.limits.movetime,
                player: Box::new(external),
            })
        }
        (baseline, Some(_)) => Err(format!(
            "'{baseline}' is a built-in player: an external program needs engine settings"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_external_program_takes_engine_settings_only() {
        let PlayerSpec::Engine(spec) = "lmr=0,level=9,history=1".parse().unwrap() else {
            panic!("an engine");
        };
        assert!(Internal::new(spec.engine_spec(100, &Rules::standard())).is_ok());
        let e = contestant(
            &PlayerSpec::Engine(spec),
            Some("other-engine"),
            Rules::standard(),
            100,
            1,
        )
        .err()
        .unwrap();
        assert!(
            e.contains("lmr=0, history=1 are settings of this program's engine"),
            "{e}"
        );
        let e = contestant(
            &PlayerSpec::Greedy,
            Some("other-engine"),
            Rules::standard(),
            100,
            1,
        )
        .err()
        .unwrap();
        assert!(e.contains("'greedy' is a built-in player"), "{e}");
    }
}
