//! Playing games between players: the [`Player`] trait, an engine player, balanced
//! openings, single games and matches (both colours from every opening), for strength
//! measurement, the `match` command and the tuner's data.

use crate::{Engine, Limits, Options, Score};
use kharbaga::{Color, Game, Move, Position, Rules};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Something that chooses moves.
pub trait Player {
    /// A short name for reports.
    fn name(&self) -> String;
    /// The move to play in `game` (`None` only when there is no legal move).
    fn choose(&mut self, game: &Game) -> Option<Move>;
    /// Forgets what it learned in the previous game.
    fn new_game(&mut self) {}
}

/// The engine with fixed search limits per move.
pub struct EnginePlayer {
    /// The engine.
    pub engine: Engine,
    /// The limits of every search.
    pub limits: Limits,
    /// The score of the last search (from the mover's view).
    pub last_score: Option<Score>,
    name: String,
}

impl EnginePlayer {
    /// An engine player with these options and limits.
    pub fn new(options: Options, limits: Limits) -> EnginePlayer {
        let name = format!("engine(level {})", options.level);
        EnginePlayer {
            engine: Engine::new(options),
            limits,
            last_score: None,
            name,
        }
    }

    /// Renames the player (for reports).
    pub fn named(mut self, name: &str) -> EnginePlayer {
        self.name = name.to_string();
        self
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &Game) -> Option<Move> {
        let stop = AtomicBool::new(false);
        let report = self.engine.search(game, &self.limits, &stop, &mut |_| {});
        self.last_score = Some(report.score);
        report.best
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }
}

/// A finished (or adjudicated) game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The game, from its opening position.
    pub game: Game,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Whether the game was stopped at the ply cap and called a draw.
    pub capped: bool,
}

/// Plays `game` on to its end with `black` and `white` to move, or calls it a draw after
/// `max_plies` more plies.
pub fn play_game(
    mut game: Game,
    black: &mut dyn Player,
    white: &mut dyn Player,
    max_plies: usize,
) -> GameResult {
    for _ in 0..max_plies {
        if let Some(outcome) = game.outcome() {
            return GameResult {
                game,
                winner: outcome.winner,
                capped: false,
            };
        }
        let player: &mut dyn Player = match game.position().turn() {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let mv = player
            .choose(&game)
            .expect("a player always has a move while the game is on");
        game.play(&mv).expect("players play legal moves");
    }
    let outcome = game.outcome();
    GameResult {
        winner: outcome.and_then(|o| o.winner),
        capped: outcome.is_none(),
        game,
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

/// The score of a match from the first player's view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    /// Games the first player won.
    pub wins: u32,
    /// Games it drew.
    pub draws: u32,
    /// Games it lost.
    pub losses: u32,
}

impl MatchScore {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's score fraction, `0.0..=1.0` (a draw counts half).
    pub fn fraction(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    /// The Elo difference the fraction suggests (clamped at +-800), with the half-width of
    /// a 95% confidence interval from the trinomial variance.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        let elo_of = |p: f64| -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
        let p = self.fraction();
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let var = (self.wins as f64 * (1.0 - p).powi(2)
            + self.draws as f64 * (0.5 - p).powi(2)
            + self.losses as f64 * p.powi(2))
            / n;
        let se = (var / n).sqrt();
        let elo = elo_of(p).clamp(-800.0, 800.0);
        let hi = elo_of((p + 1.96 * se).min(0.999));
        let lo = elo_of((p - 1.96 * se).max(0.001));
        (elo, (hi - lo) / 2.0)
    }
}

impl std::fmt::Display for MatchScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (elo, margin) = self.elo();
        write!(
            f,
            "+{} ={} -{} ({:.1}%, {:+.0} +- {:.0} Elo, {} games)",
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.fraction(),
            elo,
            margin,
            self.games()
        )
    }
}

/// Makes a fresh player (one per worker thread).
pub type PlayerFactory<'a> = &'a (dyn Fn() -> Box<dyn Player> + Sync);

/// One game of a match, as reported to the callback.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// The index of the opening.
    pub opening: usize,
    /// Whether the first player had Black.
    pub first_is_black: bool,
    /// The result.
    pub result: GameResult,
}

/// Plays every opening twice, the first player taking Black then White, over `workers`
/// threads; returns the score from the first player's view. `on_game` sees each game as
/// it ends (in completion order).
pub fn run_match(
    openings: &[Game],
    first: PlayerFactory<'_>,
    second: PlayerFactory<'_>,
    max_plies: usize,
    workers: usize,
    on_game: &mut (dyn FnMut(&MatchGame, &MatchScore) + Send),
) -> MatchScore {
    let next = AtomicUsize::new(0);
    let state = Mutex::new((MatchScore::default(), on_game));
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| {
                let mut a = first();
                let mut b = second();
                loop {
                    let job = next.fetch_add(1, Ordering::Relaxed);
                    if job >= openings.len() * 2 {
                        break;
                    }
                    let (opening, first_is_black) = (job / 2, job % 2 == 0);
                    a.new_game();
                    b.new_game();
                    let game = openings[opening].clone();
                    let result = if first_is_black {
                        play_game(game, a.as_mut(), b.as_mut(), max_plies)
                    } else {
                        play_game(game, b.as_mut(), a.as_mut(), max_plies)
                    };
                    let first_color = if first_is_black {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let mut guard = state.lock().expect("no worker panics");
                    let (score, callback) = &mut *guard;
                    match result.winner {
                        Some(c) if c == first_color => score.wins += 1,
                        Some(_) => score.losses += 1,
                        None => score.draws += 1,
                    }
                    let snapshot = *score;
                    callback(
                        &MatchGame {
                            opening,
                            first_is_black,
                            result,
                        },
                        &snapshot,
                    );
                }
            });
        }
    });
    state.into_inner().expect("no worker panics").0
}

/// Makes a player from a text specification:
///
/// - `random[:SEED]`, `greedy[:SEED]`: the baseline players;
/// - `engine[:KEY=VALUE,...]`: the engine, with keys `level` (1-10), `depth`, `nodes`,
///   `movetime` (ms per move), `threads`, `hash` (MiB), the search switches `threat`
///   (plies), `lmr`, `lmrfrom` (first reduced move), `lmrextra`, `aspiration`, `forced`, `ttcut`, `history` (0 or 1), `zero` (a
///   feature index whose weights are set to 0; repeatable) and `weights` (a file as read by
///   [`crate::eval::Weights::parse`]).
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
            let mut weights = crate::eval::Weights::default();
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
                    "threat" => params.threat_plies = num()? as u32,
                    "lmr" => params.lmr = num()? != 0,
                    "lmrfrom" => params.lmr_from = num()? as usize,
                    "lmrextra" => params.lmr_extra = num()? != 0,
                    "aspiration" => params.aspiration = num()? != 0,
                    "forced" => params.forced_extension = num()? != 0,
                    "ttcut" => params.tt_cutoffs = num()? != 0,
                    "history" => params.history = num()? != 0,
                    "zero" => {
                        let f = num()? as usize;
                        if f >= crate::eval::NUM_FEATURES {
                            return Err(format!("zero: no feature {f}"));
                        }
                        weights.0[f] = [0, 0];
                    }
                    "weights" => {
                        let text = std::fs::read_to_string(value)
                            .map_err(|e| format!("weights: cannot read {value}: {e}"))?;
                        weights = crate::eval::Weights::parse(&text)
                            .map_err(|e| format!("weights: {value}: {e}"))?;
                    }
                    _ => return Err(format!("unknown engine setting '{key}'")),
                }
            }
            let mut player = EnginePlayer::new(options, limits).named(spec);
            player.engine.set_params(params);
            player.engine.set_weights(weights);
            Ok(Box::new(player))
        }
        _ => Err(format!(
            "unknown player '{kind}' (expected random, greedy or engine)"
        )),
    }
}
