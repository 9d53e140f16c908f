//! Texel tuning of the evaluation weights on self-play games.
//!
//! 1. Data: games of the engine against itself at a small fixed depth from random openings
//!    (a few random plies from the start); every position of a game where the search
//!    may stand pat (with compulsory capture: the side to move has no capture) is
//!    labelled with the game's result; a game still going at `--max-plies` counts as drawn,
//!    or, with `--adjudicate D`, is decided by a depth-D search of its last position (a
//!    side at least `--margin` centi-men ahead, or with a forced win, wins).
//! 2. Fit: the evaluation is linear in its features (`kharbaga_engine::eval::features`),
//!    tapered by the phase, so the weights are fitted by logistic regression of the result
//!    on the evaluation, `P(win) = 1 / (1 + 10^(-K eval / 400))`, with K fitted first for
//!    the current weights and then held, by full-batch Adam on the mean squared error.
//!    The fit starts from, and is pulled towards, the rule set's current weights.
//! 3. Output: `src/weights/NAME.rs` for a named rule set, or the file given by `--out`.
//!
//! ```text
//! cargo run --release -p kharbaga-engine --example tune -- \
//!     [--games 2000] [--depth 4] [--random-plies 8] [--max-plies 300] [--seed 1] \
//!     [--workers 2] [--rules standard] [--data /tmp/kharbaga-tune.txt] [--reuse] \
//!     [--adjudicate 0] [--margin 150] \
//!     [--epochs 3000] [--lambda 1e-4] [--out crates/kharbaga-engine/src/weights/standard.rs]
//! ```

use kharbaga::{Color, Game, Position, Rules};
use kharbaga_engine::eval::{feature_name, features, Features, NUM_FEATURES, PHASE_MAX};
use kharbaga_engine::selfplay::{play_game, random_openings, End, EnginePlayer};
use kharbaga_engine::{Limits, Options, Score};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

struct Settings {
    games: usize,
    depth: u32,
    random_plies: usize,
    max_plies: u32,
    /// The depth of the search that decides a capped game (0: capped games are drawn).
    adjudicate: u32,
    /// The lead, in centi-men, that wins a capped game.
    margin: i32,
    seed: u64,
    workers: usize,
    rules: Rules,
    data: String,
    reuse: bool,
    epochs: usize,
    lambda: f64,
    out: Option<String>,
}

fn settings() -> Settings {
    let mut s = Settings {
        games: 2000,
        depth: 4,
        random_plies: 8,
        max_plies: 300,
        adjudicate: 0,
        margin: 150,
        seed: 1,
        workers: 2,
        rules: Rules::standard(),
        data: "/tmp/kharbaga-tune.txt".into(),
        reuse: false,
        epochs: 3000,
        lambda: 1e-4,
        out: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--games" => s.games = value().parse().expect("--games N"),
            "--depth" => s.depth = value().parse().expect("--depth N"),
            "--random-plies" => s.random_plies = value().parse().expect("--random-plies N"),
            "--max-plies" => s.max_plies = value().parse().expect("--max-plies N"),
            "--adjudicate" => s.adjudicate = value().parse().expect("--adjudicate DEPTH"),
            "--margin" => s.margin = value().parse().expect("--margin CENTI-MEN"),
            "--seed" => s.seed = value().parse().expect("--seed N"),
            "--workers" => s.workers = value().parse().expect("--workers N"),
            "--rules" => s.rules = value().parse().unwrap_or_else(|e| panic!("{e}")),
            "--data" => s.data = value(),
            "--reuse" => s.reuse = true,
            "--epochs" => s.epochs = value().parse().expect("--epochs N"),
            "--out" => s.out = Some(value()),
            "--lambda" => s.lambda = value().parse().expect("--lambda X"),
            other => panic!("unknown argument {other}"),
        }
    }
    s
}

/// How the self-play games ended.
#[derive(Default)]
struct Tally {
    games: usize,
    black: usize,
    white: usize,
    draws: usize,
    /// Games still going at `--max-plies` (drawn, or decided by `--adjudicate`).
    capped: usize,
    /// Capped games that `--adjudicate` gave to one side.
    adjudicated: usize,
    plies: usize,
}

impl Tally {
    fn add(&mut self, game: &Game, end: &End, winner: Option<Color>) {
        self.games += 1;
        self.plies += game.moves().len();
        match (end, winner) {
            (End::Capped(_), winner) => {
                self.capped += 1;
                self.adjudicated += usize::from(winner.is_some());
            }
            (_, Some(Color::Black)) => self.black += 1,
            (_, Some(Color::White)) => self.white += 1,
            (_, None) => self.draws += 1,
        }
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games: Black won {}, White won {}, drawn {}, capped {} ({} adjudicated); {:.1} plies a game",
            self.games,
            self.black,
            self.white,
            self.draws,
            self.capped,
            self.adjudicated,
            self.plies as f64 / self.games.max(1) as f64
        )
    }
}

/// Plays the self-play games and writes `FEN result` lines (result for Black: 1, 0.5, 0).
fn generate(s: &Settings) {
    let openings = random_openings(&s.rules, s.random_plies, s.games, s.seed);
    let next = AtomicUsize::new(0);
    let out = Mutex::new((
        std::io::BufWriter::new(
            std::fs::File::create(&s.data).expect("cannot create the data file"),
        ),
        Tally::default(),
    ));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..s.workers {
            scope.spawn(|| {
                let limits = Limits {
                    depth: Some(s.depth),
                    ..Limits::default()
                };
                let options = Options {
                    hash_mib: 8,
                    ..Options::default()
                };
                let mut black = EnginePlayer::new(options.clone(), limits.clone());
                let mut white = EnginePlayer::new(options, limits);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= openings.len() {
                        break;
                    }
                    let (game, end) = play_game(
                        &openings[i],
                        [&mut black, &mut white],
                        Some(s.max_plies),
                        &mut |_, _| {},
                    );
                    let winner = match end {
                        End::Capped(_) if s.adjudicate > 0 => adjudicate(&mut black, &game, s),
                        _ => end.winner(),
                    };
                    let label = match winner {
                        Some(Color::Black) => "1",
                        Some(Color::White) => "0",
                        None => "0.5",
                    };
                    let lines = quiet_positions(&game)
                        .map(|p| format!("{} {label}\n", p.to_fen()))
                        .collect::<String>();
                    let mut out = out.lock().unwrap();
                    out.0.write_all(lines.as_bytes()).expect("write");
                    out.1.add(&game, &end, winner);
                    if out.1.games % 200 == 0 {
                        eprintln!("{}, {:.0} s", out.1, started.elapsed().as_secs_f64());
                    }
                }
            });
        }
    });
    eprintln!("{}", out.into_inner().unwrap().1);
}

/// The tuner's arguments as given, but for where the weights were written: what rebuilds
/// them (each with a space before it).
fn command_args() -> String {
    let mut args = std::env::args().skip(1);
    let mut kept = String::new();
    while let Some(arg) = args.next() {
        if arg == "--out" {
            args.next();
        } else {
            kept.push(' ');
            kept.push_str(&arg);
        }
    }
    kept
}

/// The winner of a capped `game` by a depth-`--adjudicate` search of its last position:
/// the side to move if it is at least `--margin` ahead or wins by force, its opponent if
/// behind by as much or lost by force, else nobody.
fn adjudicate(player: &mut EnginePlayer, game: &Game, s: &Settings) -> Option<Color> {
    let limits = Limits {
        depth: Some(s.adjudicate),
        ..Limits::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let report = player.engine.search(game, &limits, &stop, &mut |_| {});
    let mover = game.position().turn();
    match report.score {
        Score::WinIn(_) | Score::TableWin(_) => Some(mover),
        Score::LossIn(_) | Score::TableLoss(_) => Some(!mover),
        Score::Centi(c) if c >= s.margin => Some(mover),
        Score::Centi(c) if c <= -s.margin => Some(!mover),
        Score::Centi(_) | Score::TableDraw => None,
    }
}

/// The positions of a game worth learning from, out of the random opening: those the
/// search evaluates, where it may stand pat (see `qsearch.rs`): with compulsory capture the
/// quiet ones (no capture for the side to move), with optional capture all, so that the
/// weight of a piece left to be taken is learnt too. Blocked positions are lost, not
/// evaluated.
fn quiet_positions(game: &Game) -> impl Iterator<Item = Position> + '_ {
    let rules = *game.rules();
    game.positions()
        .iter()
        .skip(4)
        .filter(move |p| {
            !(p.is_blocked(&rules) || rules.capture_compulsory && p.has_capture(&rules))
        })
        .copied()
}

struct Sample {
    features: Features,
    /// The result from the side to move's view.
    result: f64,
}

fn load(s: &Settings) -> Vec<Sample> {
    let text = std::fs::read_to_string(&s.data).expect("cannot read the data file");
    text.lines()
        .filter_map(|line| {
            let (fen, result) = line.rsplit_once(' ')?;
            let pos = Position::from_fen(fen).ok()?;
            let black: f64 = result.parse().ok()?;
            let result = if pos.turn() == Color::Black {
                black
            } else {
                1.0 - black
            };
            Some(Sample {
                features: features(&pos, &s.rules),
                result,
            })
        })
        .collect()
}

/// The evaluation with real-valued weights `w` (`2 * NUM_FEATURES`: opening, ending).
fn eval(w: &[f64], f: &Features) -> f64 {
    let ph = f.phase as f64 / PHASE_MAX as f64;
    let mut e = 0.0;
    for (i, &v) in f.values.iter().enumerate() {
        if v != 0 {
            e += v as f64 * (w[2 * i] * ph + w[2 * i + 1] * (1.0 - ph));
        }
    }
    e
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| (s.result - sigmoid(k, eval(w, &s.features))).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.01, 10.0);
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn main() {
    let s = settings();
    // A named rule set's weights file, or the one given; checked before the long work.
    let out = s.out.clone().unwrap_or_else(|| {
        let name = s.rules.to_string();
        assert!(
            !name.contains(','),
            "--out FILE is needed for rules with overrides ({name})"
        );
        format!("{}/src/weights/{name}.rs", env!("CARGO_MANIFEST_DIR"))
    });
    if !s.reuse || std::fs::metadata(&s.data).is_err() {
        eprintln!(
            "generating {} games at depth {} ({} random plies) into {}",
            s.games, s.depth, s.random_plies, s.data
        );
        generate(&s);
    }
    let all = load(&s);
    // The last tenth (whole games, as each game's positions are contiguous) validates.
    let split = all.len() * 9 / 10;
    let (samples, validation) = all.split_at(split);
    eprintln!(
        "{} positions ({} for validation)",
        all.len(),
        validation.len()
    );
    let initial = kharbaga_engine::eval::Weights::for_rules(&s.rules);
    let mut w: Vec<f64> = initial
        .table()
        .iter()
        .flat_map(|p| [p[0] as f64, p[1] as f64])
        .collect();
    let w0 = w.clone();
    let k = fit_k(samples, &w);
    eprintln!(
        "K = {k:.4}, error {:.6}, validation {:.6}",
        error(samples, &w, k),
        error(validation, &w, k)
    );
    // Full-batch Adam.
    let n = w.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (lr, b1, b2) = (1.0, 0.9, 0.999);
    let ln10 = std::f64::consts::LN_10;
    for epoch in 1..=s.epochs {
        let mut grad = vec![0.0; n];
        for smp in samples {
            let e = eval(&w, &smp.features);
            let p = sigmoid(k, e);
            // d/dw (r - p)^2 = -2 (r - p) p (1 - p) ln10 K / 400 * de/dw
            let g = -2.0 * (smp.result - p) * p * (1.0 - p) * ln10 * k / 400.0;
            let ph = smp.features.phase as f64 / PHASE_MAX as f64;
            for (i, &val) in smp.features.values.iter().enumerate() {
                if val != 0 {
                    grad[2 * i] += g * val as f64 * ph;
                    grad[2 * i + 1] += g * val as f64 * (1.0 - ph);
                }
            }
        }
        for i in 0..n {
            // L2 pull towards the starting weights (in units of a man) against overfitting.
            let g = grad[i] / samples.len() as f64 + 2.0 * s.lambda * (w[i] - w0[i]) / 1e4;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-8);
        }
        if epoch % 500 == 0 || epoch == s.epochs {
            eprintln!(
                "epoch {epoch}: error {:.6}, validation {:.6}",
                error(samples, &w, k),
                error(validation, &w, k)
            );
        }
    }
    let mut src = format!(
        "//! Evaluation weights for the `{rules}` rules: `[opening, ending]` per feature of\n\
         //! [`crate::eval`], in centi-men.\n\
         //!\n\
         //! Generated by `cargo run --release -p kharbaga-engine --example tune --{args}`\n\
         //! (see README.md).\n\n\
         use crate::eval::NUM_FEATURES;\n\n\
         /// The weights, indexed by feature.\n\
         #[rustfmt::skip]\n\
         pub const WEIGHTS: [[i16; 2]; NUM_FEATURES] = [\n",
        rules = s.rules,
        args = command_args()
    );
    for i in 0..NUM_FEATURES {
        let (a, b) = (w[2 * i].round() as i16, w[2 * i + 1].round() as i16);
        src.push_str(&format!("    [{a}, {b}], // {}\n", feature_name(i)));
    }
    src.push_str("];\n");
    std::fs::write(&out, src).expect("cannot write the weights");
    eprintln!("wrote {out}");
}
