//! The engine's answers to a search: `info` and `done` lines, and scores as they write them.

use super::line::quote;
use super::moves::moves_text;
use crate::{Info, Report, Score};

/// A score as the protocol writes it: men with two decimals, `win-in-N` / `loss-in-N`, or
/// from the endgame tables `tb-win-N`, `tb-win`, `tb-draw`, `tb-loss-N`, `tb-loss`.
pub fn score_value(score: Score) -> String {
    match score {
        Score::Centi(c) => format!(
            "{}{}.{:02}",
            if c < 0 { "-" } else { "" },
            c.abs() / 100,
            c.abs() % 100
        ),
        Score::WinIn(n) => format!("win-in-{n}"),
        Score::LossIn(n) => format!("loss-in-{n}"),
        Score::TableWin(Some(n)) => format!("tb-win-{n}"),
        Score::TableWin(None) => "tb-win".to_string(),
        Score::TableDraw => "tb-draw".to_string(),
        Score::TableLoss(Some(n)) => format!("tb-loss-{n}"),
        Score::TableLoss(None) => "tb-loss".to_string(),
    }
}

/// The `info` line of a search report; `multipv` adds the line's index.
pub(super) fn info_line(info: &Info, multipv: bool) -> String {
    let secs = info.time.as_secs_f64();
    let mnps = if secs > 0.0 {
        info.nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    let mut line = format!("info depth={} seldepth={}", info.depth, info.seldepth);
    if multipv {
        line.push_str(&format!(" multipv={}", info.multipv));
    }
    line.push_str(&format!(
        " score={} nodes={} time={secs:.3} nps={mnps:.2} pv={}",
        score_value(info.score),
        info.nodes,
        quote(&moves_text(&info.pv))
    ));
    line
}

/// The `done` line of a finished search.
pub(super) fn done_line(report: &Report) -> String {
    let mut line = match report.best {
        Some(mv) => format!("done move={mv}"),
        // The session never searches a position without a legal move.
        None => "done".to_string(),
    };
    if let Some(ponder) = report.ponder {
        line.push_str(&format!(" ponder={ponder}"));
    }
    if report.book {
        line.push_str(" book=yes");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_men_or_plies() {
        assert_eq!(score_value(Score::Centi(35)), "0.35");
        assert_eq!(score_value(Score::Centi(-105)), "-1.05");
        assert_eq!(score_value(Score::Centi(-5)), "-0.05");
        assert_eq!(score_value(Score::WinIn(3)), "win-in-3");
        assert_eq!(score_value(Score::LossIn(2)), "loss-in-2");
        assert_eq!(score_value(Score::TableWin(Some(17))), "tb-win-17");
        assert_eq!(score_value(Score::TableDraw), "tb-draw");
    }
}
