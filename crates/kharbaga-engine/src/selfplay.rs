//! Playing games between players: the [`Player`] trait, an engine player, player
//! specifications, balanced and random openings and the game loop, for the `match`
//! command and the tuner's data.

use crate::{Engine, Limits, Options, Score};
use kharbaga::{Color, Game, Move, Outcome, Position, Rules};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Why a player lost a game without the rules deciding it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// It chose a move that is not legal (or not readable).
    Illegal,
    /// It failed: the engine panicked or found no move, a program ended or said `error`.
    Crash,
    /// It did not answer in time.
    Timeout,
}

/// A player's failure: its kind and what happened.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The kind.
    pub kind: FailureKind,
    /// What happened, for reports.
    pub message: String,
}

impl Failure {
    /// A failure of this kind.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
        }
    }
}

/// Something that chooses moves: the engine, a baseline player, an external program.
pub trait Player {
    /// The move to play in `game`, which is not over.
    fn choose(&mut self, game: &Game) -> Result<Move, Failure>;
    /// Gets ready for a new game (forgets what it learned in the previous one).
    fn new_game(&mut self) -> Result<(), Failure> {
        Ok(())
    }
}

/// The engine with fixed search limits per move.
pub struct EnginePlayer {
    /// The engine.
    pub engine: Engine,
    /// The limits of every search.
    pub limits: Limits,
}

impl EnginePlayer {
    /// An engine player with these options and limits.
    pub fn new(options: Options, limits: Limits) -> EnginePlayer {
        EnginePlayer {
            engine: Engine::new(options),
            limits,
        }
    }
}

impl Player for EnginePlayer {
    fn choose(&mut self, game: &Game) -> Result<Move, Failure> {
        let stop = AtomicBool::new(false);
        let report = self.engine.search(game, &self.limits, &stop, &mut |_| {});
        report
            .best
            .ok_or_else(|| Failure::new(FailureKind::Crash, "the engine found no move"))
    }

    fn new_game(&mut self) -> Result<(), Failure> {
        self.engine.new_game();
        Ok(())
    }
}

/// How a game ended.
#[derive(Clone, Debug)]
pub enum End {
    /// By the rules.
    Rules(Outcome),
    /// Called a draw at the ply cap.
    Capped(u32),
    /// The loser forfeited: it failed, or chose an illegal move.
    Forfeit {
        /// The side that forfeited.
        loser: Color,
        /// What went wrong.
        failure: Failure,
    },
}

impl End {
    /// The winner, `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self {
            End::Rules(outcome) => outcome.winner,
            End::Capped(_) => None,
            End::Forfeit { loser, .. } => Some(!*loser),
        }
    }
}

/// Plays `opening` on to its end with `players[0]` as Black and `players[1]` as White;
/// checks every move, and calls the game drawn after `max_plies` plies in all (if set).
/// `on_move` gets the side and the time of every move asked for.
pub fn play_game(
    opening: &Game,
    players: [&mut dyn Player; 2],
    max_plies: Option<u32>,
    on_move: &mut dyn FnMut(Color, Duration),
) -> (Game, End) {
    let mut game = opening.clone();
    for color in [Color::Black, Color::White] {
        if let Err(failure) = players[color.index()].new_game() {
            let end = End::Forfeit {
                loser: color,
                failure,
            };
            return (game, end);
        }
    }
    loop {
        if let Some(outcome) = game.outcome() {
            return (game, End::Rules(outcome));
        }
        if let Some(cap) = max_plies {
            if game.moves().len() >= cap as usize {
                return (game, End::Capped(cap));
            }
        }
        let side = game.position().turn();
        let asked = Instant::now();
        let choice = players[side.index()].choose(&game);
        on_move(side, asked.elapsed());
        let failure = match choice {
            Ok(mv) => match game.play(&mv) {
                Ok(()) => continue,
                Err(e) => Failure::new(FailureKind::Illegal, format!("{mv}: {e}")),
            },
            Err(failure) => failure,
        };
        let end = End::Forfeit {
            loser: side,
            failure,
        };
        return (game, end);
    }
}

/// Every position `plies` plies from the start under `rules` (distinct positions, in a
/// fixed order) that a short search does not find lost for either side: the evaluation
/// stays within `margin` centi-men. Each is a game to continue from.
pub fn balanced_openings(rules: &Rules, plies: usize, margin: i32) -> Vec<Game> {
    let mut frontier = vec![Game::new(*rules)];
    for _ in 0..plies {
        let mut next = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for game in &frontier {
            for mv in game.legal_moves() {
                let mut g = game.clone();
                g.play(&mv).expect("legal");
                if seen.insert(g.position().hash()) {
                    next.push(g);
                }
            }
        }
        frontier = next;
    }
    let mut engine = Engine::new(Options {
        hash_mib: 4,
        ..Options::default()
    });
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    frontier
        .into_iter()
        .filter(|g| {
            g.outcome().is_none() && {
                let r = engine.search(g, &limits, &stop, &mut |_| {});
                matches!(r.score, Score::Centi(c) if c.abs() <= margin)
            }
        })
        .collect()
}

/// Random openings: `count` games after `plies` random legal moves from the start (those
/// that end early are skipped), for varied self-play.
pub fn random_openings(rules: &Rules, plies: usize, count: usize, seed: u64) -> Vec<Game> {
    let mut rng = crate::rng::Rng::new(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 20 {
        tries += 1;
        let mut game = Game::from_position(*rules, Position::start());
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(&moves[rng.below(moves.len())]).expect("legal");
        }
        if game.outcome().is_none() {
            out.push(game);
        }
    }
    out
}

/// Makes a player from a text specification:
///
/// - `random[:SEED]`, `greedy[:SEED]`: the baseline players;
/// - `engine[:KEY=VALUE,...]`: the engine, with keys `level` (1-10), `depth`, `nodes`,
///   `movetime` (ms per move), `threads`, `hash` (MiB), the search switches `lmr`,
///   `aspiration`, `forced`, `ttcut`, `history` (0 or 1), `zero` (a feature index whose
///   weights are set to 0; repeatable), `weights` (a file as read by
///   [`crate::eval::Weights::parse`], used under every rule set instead of each rule set's
///   own weights), `tables` (a table directory, with `tables-rules`) and
///   `book` (`yes`: play from the built-in opening book; default `no`).
pub fn player_from_spec(spec: &str) -> Result<Box<dyn Player>, String> {
    let (kind, args) = spec.split_once(':').unwrap_or((spec, ""));
    let seed = || -> Result<u64, String> {
        if args.is_empty() {
            Ok(crate::rng::Rng::from_time().next_u64())
        } else {
            args.parse().map_err(|_| format!("'{args}' is not a seed"))
        }
    };
    match kind {
        "random" => Ok(Box::new(crate::baseline::RandomPlayer::new(seed()?))),
        "greedy" => Ok(Box::new(crate::baseline::GreedyPlayer::new(seed()?))),
        "engine" => {
            let mut options = Options::default();
            let mut limits = Limits::default();
            let mut params = crate::SearchParams::default();
            let mut weights = crate::weights::WeightsChoice::default();
            let mut tables_dir: Option<String> = None;
            let mut tables_rules = kharbaga::Rules::standard();
            for item in args.split(',').filter(|s| !s.is_empty()) {
                let (key, value) = item
                    .split_once('=')
                    .ok_or_else(|| format!("'{item}' is not KEY=VALUE"))?;
                let num = || -> Result<u64, String> {
                    value
                        .parse()
                        .map_err(|_| format!("{key}: '{value}' is not a number"))
                };
                match key {
                    "level" => options.level = num()?.clamp(1, 10) as u8,
                    "depth" => limits.depth = Some(num()? as u32),
                    "nodes" => limits.nodes = Some(num()?),
                    "movetime" => limits.movetime = Some(std::time::Duration::from_millis(num()?)),
                    "threads" => options.threads = num()?.max(1) as usize,
                    "hash" => options.hash_mib = num()?.max(1) as usize,
                    "lmr" => params.lmr = num()? != 0,
                    "aspiration" => params.aspiration = num()? != 0,
                    "forced" => params.forced_extension = num()? != 0,
                    "ttcut" => params.tt_cutoffs = num()? != 0,
                    "history" => params.history = num()? != 0,
                    "zero" => {
                        let f = num()? as usize;
                        if f >= crate::eval::NUM_FEATURES {
                            return Err(format!("zero: no feature {f}"));
                        }
                        weights.zeroed.push(f);
                    }
                    "tables" => tables_dir = Some(value.to_string()),
                    "book" => {
                        options.book = match value {
                            "yes" => Some(std::sync::Arc::new(crate::book::Book::standard())),
                            "no" => None,
                            _ => return Err(format!("book: expected yes or no, not '{value}'")),
                        }
                    }
                    // Rules with overrides are written with `+` for `,` in a spec.
                    "tables-rules" => {
                        tables_rules = value
                            .replace('+', ",")
                            .parse()
                            .map_err(|e| format!("tables-rules: {e}"))?
                    }
                    "weights" => {
                        let text = std::fs::read_to_string(value)
                            .map_err(|e| format!("weights: cannot read {value}: {e}"))?;
                        weights.given = Some(
                            crate::eval::Weights::parse(&text)
                                .map_err(|e| format!("weights: {value}: {e}"))?,
                        );
                    }
                    _ => return Err(format!("unknown engine setting '{key}'")),
                }
            }
            if let Some(dir) = tables_dir {
                let tb = kharbaga_tablebase::tablebase::Tablebase::open(
                    std::path::Path::new(&dir),
                    tables_rules,
                )
                .map_err(|e| format!("tables: {e}"))?;
                options.tables = Some(std::sync::Arc::new(tb));
            }
            let mut player = EnginePlayer::new(options, limits);
            player.engine.set_params(params);
            player.engine.set_weights(weights);
            Ok(Box::new(player))
        }
        _ => Err(format!(
            "unknown player '{kind}' (expected random, greedy or engine)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player that always chooses the same move, for checking forfeits.
    struct Stubborn(Move);

    impl Player for Stubborn {
        fn choose(&mut self, _game: &Game) -> Result<Move, Failure> {
            Ok(self.0)
        }
    }

    #[test]
    fn an_illegal_move_forfeits_the_game() {
        let rules = Rules::standard();
        let opening = Game::new(rules);
        let e3e5 = opening.position().parse_move(&rules, "e3-e5").unwrap();
        // Black plays e3-e5; White answers e3-e5 too, which is not its move.
        let (mut black, mut white) = (Stubborn(e3e5), Stubborn(e3e5));
        let mut asked = Vec::new();
        let (game, end) = play_game(&opening, [&mut black, &mut white], None, &mut |side, _| {
            asked.push(side)
        });
        assert_eq!(game.moves().len(), 1);
        assert_eq!(asked, [Color::Black, Color::White]);
        let End::Forfeit { loser, failure } = &end else {
            panic!("a forfeit: {end:?}");
        };
        assert_eq!((*loser, failure.kind), (Color::White, FailureKind::Illegal));
        assert!(
            failure.message.starts_with("e3-e5: "),
            "{}",
            failure.message
        );
        assert_eq!(end.winner(), Some(Color::Black));
        // The ply cap ends a game as a draw before anyone moves beyond it.
        let (game, end) = play_game(&opening, [&mut black, &mut white], Some(0), &mut |_, _| {});
        assert!(matches!(end, End::Capped(0)) && game.moves().is_empty());
        assert_eq!(end.winner(), None);
    }

    #[test]
    fn engines_play_a_game_to_its_end() {
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let options = Options {
            hash_mib: 1,
            ..Options::default()
        };
        let mut black = EnginePlayer::new(options.clone(), limits.clone());
        let mut white = crate::baseline::RandomPlayer::new(1);
        let (game, end) = play_game(
            &Game::new(Rules::standard()),
            [&mut black, &mut white],
            Some(400),
            &mut |_, _| {},
        );
        // Every move was legal (play_game checks), and the game ended by the rules.
        let End::Rules(outcome) = end else {
            panic!("ended by the rules: {end:?}");
        };
        assert_eq!(game.outcome(), Some(outcome));
    }

    #[test]
    fn an_engine_player_with_book_yes_plays_the_book_move() {
        let book = crate::book::Book::standard();
        let mut with_book = player_from_spec("engine:depth=1,book=yes").unwrap();
        let mut without = player_from_spec("engine:depth=1,book=no").unwrap();
        let mut differ = 0;
        for game in crate::book::book_positions(Rules::standard(), 3) {
            let mut rng = crate::rng::Rng::new(1);
            let Some(expected) = book.choose(&game, 10, &mut rng) else {
                continue;
            };
            assert_eq!(with_book.choose(&game).unwrap(), expected.mv);
            if without.choose(&game).unwrap() != expected.mv {
                differ += 1;
            }
        }
        // The test means something only where a 1-ply search would play another move.
        assert!(differ > 0);
        assert!(player_from_spec("engine:book=maybe")
            .err()
            .unwrap()
            .contains("book: expected yes or no, not 'maybe'"));
    }
}
