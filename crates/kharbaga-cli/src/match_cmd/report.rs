//! The final report of a match, and its games as records.

use super::spec::PlayerSpec;
use super::tally::{Played, Tally};
use super::MatchArgs;
use crate::args::CliError;
use crate::elo::{elo_text, Verdict};
use kharbaga::{Color, Reason, Record, Rules};
use kharbaga_engine::selfplay::{End, FailureKind};
use std::io::{self, Write};

/// What the report needs besides the tally.
pub(super) struct ReportContext {
    pub(super) openings: usize,
    pub(super) max_plies: Option<u32>,
    pub(super) seconds: f64,
    pub(super) verdict: Option<Verdict>,
}

/// How many games ended in each way.
#[derive(Default)]
struct Endings {
    no_moves: u32,
    repetition: u32,
    no_progress: u32,
    capped: u32,
    illegal: u32,
    crashes: u32,
    timeouts: u32,
}

impl Endings {
    fn count(played: &[Played]) -> Endings {
        let mut e = Endings::default();
        for p in played {
            match &p.end {
                End::Rules(o) => match o.reason {
                    Reason::NoMoves { .. } => e.no_moves += 1,
                    Reason::Repetition => e.repetition += 1,
                    Reason::NoProgress(_) => e.no_progress += 1,
                    // A match never resigns or agrees a draw.
                    Reason::Resignation(_) | Reason::Agreement | Reason::Time(_) => {}
                },
                End::Capped(_) => e.capped += 1,
                End::Forfeit { failure, .. } => match failure.kind {
                    FailureKind::Illegal => e.illegal += 1,
                    FailureKind::Crash => e.crashes += 1,
                    FailureKind::Timeout => e.timeouts += 1,
                },
            }
        }
        e
    }
}

/// Writes the final report.
pub(super) fn report(
    out: &mut impl Write,
    args: &MatchArgs,
    rules: &Rules,
    names: &[String; 2],
    tally: &Tally,
    context: ReportContext,
) -> io::Result<()> {
    let wdl = tally.wdl;
    writeln!(out, "First: {}. Second: {}.", names[0], names[1])?;
    writeln!(
        out,
        "Rules: {rules}. {} openings ({} plies deep), each played with both colours; {} at a time.",
        context.openings, args.opening_plies, args.concurrency
    )?;
    if let Some(cap) = context.max_plies {
        writeln!(out, "Games still going after {cap} plies are called drawn.")?;
    }
    writeln!(
        out,
        "Played {} games in {:.1} s.",
        wdl.games(),
        context.seconds
    )?;
    writeln!(
        out,
        "Result (first player's view): wins {}, draws {}, losses {}",
        wdl.wins, wdl.draws, wdl.losses
    )?;
    if let (Some(score), Some((elo, low, high))) = (wdl.score(), wdl.elo()) {
        writeln!(out, "Score: {:.1}%", 100.0 * score)?;
        match wdl.sweep_bound() {
            Some(bound) => writeln!(
                out,
                "Elo: {} (every game went one way; one-sided 95% bound {})",
                elo_text(elo),
                elo_text(bound)
            )?,
            None => writeln!(
                out,
                "Elo: {} (95% interval {} to {})",
                elo_text(elo),
                elo_text(low),
                elo_text(high)
            )?,
        }
    }
    let p = tally.pairs.0;
    writeln!(
        out,
        "Pairs by the first player's points (0, 1/2, 1, 3/2, 2): {} {} {} {} {}",
        p[0], p[1], p[2], p[3], p[4]
    )?;
    if let Some(sprt) = &args.sprt {
        let (low, high) = sprt.bounds();
        let decision = match context.verdict {
            Some(Verdict::H0) => "H0 accepted (no gain of elo1)",
            Some(Verdict::H1) => "H1 accepted (a gain)",
            None => "no decision yet",
        };
        writeln!(
            out,
            "SPRT {sprt}: LLR {:.2} (bounds {low:.2}, {high:.2}): {decision}",
            tally.pairs.llr(sprt.elo0, sprt.elo1)
        )?;
    }
    let endings = Endings::count(&tally.played);
    writeln!(
        out,
        "Endings: no legal move {}, repetition {}, no progress {}, called drawn at the cap {}, \
         forfeits {} (illegal moves {}, crashes {}, time-outs {})",
        endings.no_moves,
        endings.repetition,
        endings.no_progress,
        endings.capped,
        endings.illegal + endings.crashes + endings.timeouts,
        endings.illegal,
        endings.crashes,
        endings.timeouts
    )?;
    for (i, (times, spec)) in tally
        .times
        .iter()
        .zip([&args.first, &args.second])
        .enumerate()
    {
        let name = ["First", "Second"][i];
        let mean = if times.moves > 0 {
            times.total.as_secs_f64() * 1000.0 / times.moves as f64
        } else {
            0.0
        };
        write!(
            out,
            "{name}: {} moves, {mean:.1} ms on average, longest {:.1} ms",
            times.moves,
            times.longest.as_secs_f64() * 1000.0,
        )?;
        match spec {
            PlayerSpec::Engine(spec) if spec.limits(args.movetime).movetime.is_some() => writeln!(
                out,
                "; {} over its movetime, by at most {:.1} ms",
                times.late,
                times.overrun.as_secs_f64() * 1000.0
            )?,
            _ => writeln!(out, "; no movetime")?,
        }
    }
    for played in &tally.played {
        if let End::Forfeit { loser, failure } = &played.end {
            let who = if (*loser == Color::Black) == played.first_is_black {
                "first"
            } else {
                "second"
            };
            writeln!(
                out,
                "Forfeit in pair {}: the {who} player ({loser}) after {} plies: {}",
                played.pair + 1,
                played.game.moves().len(),
                failure.message
            )?;
        }
    }
    Ok(())
}

/// Every game as a record, in pair order.
pub(super) fn records(played: &[Played], names: &[String; 2]) -> Result<String, CliError> {
    let clean = |text: &str| -> String {
        text.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    };
    let mut text = String::new();
    for (i, p) in played.iter().enumerate() {
        let mut game = p.game.clone();
        let termination = match &p.end {
            End::Rules(_) => None,
            End::Capped(cap) => {
                game.agree_draw();
                Some(format!("adjudicated: drawn after {cap} plies"))
            }
            End::Forfeit { loser, failure } => {
                game.resign(*loser);
                Some(clean(&format!("{loser} forfeits: {}", failure.message)))
            }
        };
        let (black, white) = if p.first_is_black {
            (&names[0], &names[1])
        } else {
            (&names[1], &names[0])
        };
        let round = format!("{}.{}", p.pair + 1, i % 2 + 1);
        let (black, white) = (clean(black), clean(white));
        let mut tags = vec![
            ("Event", "kharbaga match"),
            ("Round", round.as_str()),
            ("Black", black.as_str()),
            ("White", white.as_str()),
        ];
        if let Some(t) = &termination {
            tags.push(("Termination", t.as_str()));
        }
        let record = Record::from_game(&game, &tags)
            .map_err(|e| CliError::Input(format!("cannot write game {}: {e}", i + 1)))?;
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&record.to_pdn());
    }
    Ok(text)
}
