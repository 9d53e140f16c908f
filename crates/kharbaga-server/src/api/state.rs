//! The game state as sent to the client.

use super::clocks::ClocksJson;
use super::tables::TablesJson;
use crate::store::{End, GameRow, Player};
use kharbaga::{Color, Game, Move, Outcome, Point, Position, Reason, Rules};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
struct PieceJson {
    point: String,
    color: &'static str,
    mullah: bool,
}

#[derive(Serialize)]
struct HistoryMove {
    /// 1-based ply number.
    ply: usize,
    color: &'static str,
    #[serde(rename = "move")]
    notation: String,
    from: String,
    path: Vec<String>,
    captured: Vec<String>,
    /// Whether a man became a Mullah.
    promotion: bool,
    /// The position after the move.
    position: String,
}

#[derive(Serialize)]
struct LegalMove {
    #[serde(rename = "move")]
    notation: String,
    from: String,
    to: String,
    path: Vec<String>,
    captured: Vec<String>,
    /// Every landing-point sequence that makes this move (several when capture paths
    /// differ but start, end and captured set agree).
    paths: Vec<Vec<String>>,
}

#[derive(Serialize)]
struct OutcomeJson {
    winner: Option<&'static str>,
    reason: &'static str,
    result: &'static str,
    text: String,
}

impl From<Outcome> for OutcomeJson {
    fn from(o: Outcome) -> OutcomeJson {
        OutcomeJson {
            winner: o.winner.map(Color::name),
            reason: match o.reason {
                Reason::NoMoves { .. } => "no-moves",
                Reason::Repetition => "repetition",
                Reason::NoProgress(_) => "no-progress",
                Reason::Resignation(_) => "resignation",
                Reason::Agreement => "agreement",
                Reason::Time(_) => "time",
            },
            result: o.result_str(),
            text: o.to_string(),
        }
    }
}

#[derive(Serialize)]
struct Players {
    black: Player,
    white: Player,
}

#[derive(Serialize)]
struct Roll {
    black: u8,
    white: u8,
}

/// The seat of a person elsewhere, in a game against one.
#[derive(Serialize)]
struct SeatJson {
    /// The side the person plays.
    side: &'static str,
    /// Whether someone has taken it by the invitation.
    joined: bool,
}

/// Everything the page needs to show a game.
#[derive(Serialize)]
pub(crate) struct GameState {
    pub(super) id: String,
    pub(super) url: String,
    rules: String,
    rule_options: BTreeMap<&'static str, String>,
    players: Players,
    rolls: Vec<Roll>,
    start: String,
    position: String,
    turn: &'static str,
    ply: usize,
    board: Vec<PieceJson>,
    history: Vec<HistoryMove>,
    legal: Vec<LegalMove>,
    must_capture: bool,
    quiet_plies: u32,
    outcome: Option<OutcomeJson>,
    /// `waiting` (for a person to take the seat), `playing`, `over` or `aborted`.
    status: &'static str,
    /// The seat of a person elsewhere, in a game against one.
    person: Option<SeatJson>,
    /// The clocks, in a game with a time control.
    clock: Option<ClocksJson>,
    /// The side whose draw offer stands.
    draw_offer: Option<&'static str>,
    /// The game this one is the rematch of, and this game's rematch.
    rematch_of: Option<String>,
    rematch: Option<String>,
    /// The endgame tables' values of the current position, when tables cover it.
    tables: Option<TablesJson>,
    thinking: bool,
    created: i64,
    updated: i64,
}

fn names(points: impl IntoIterator<Item = Point>) -> Vec<String> {
    points.into_iter().map(|p| p.to_string()).collect()
}

impl GameState {
    pub(super) fn new(
        row: &GameRow,
        game: &Game,
        thinking: bool,
        tables: Option<TablesJson>,
    ) -> GameState {
        let pos = game.position();
        let rules = game.rules();
        let legal = game.legal_moves();
        let all_paths = if legal.is_empty() {
            Vec::new()
        } else {
            pos.legal_moves_all_paths(rules)
        };
        let history = game
            .moves()
            .iter()
            .zip(game.positions().windows(2))
            .enumerate()
            .map(|(i, (mv, pair))| HistoryMove {
                ply: i + 1,
                color: pair[0].turn().name(),
                notation: mv.to_string(),
                from: mv.from().to_string(),
                path: names(mv.path().iter().copied()),
                captured: names(mv.captured()),
                promotion: pair[0].is_promotion(mv),
                position: pair[1].to_fen(),
            })
            .collect();
        let legal_json = legal
            .iter()
            .map(|mv| LegalMove {
                notation: mv.to_string(),
                from: mv.from().to_string(),
                to: mv.to().to_string(),
                path: names(mv.path().iter().copied()),
                captured: names(mv.captured()),
                paths: all_paths
                    .iter()
                    .filter(|m| m.same_effect(mv))
                    .map(|m| names(m.path().iter().copied()))
                    .collect(),
            })
            .collect();
        GameState {
            id: row.id.clone(),
            url: format!("/game/{}", row.id),
            rules: rules.to_string(),
            rule_options: rules.options().into_iter().collect(),
            players: Players {
                black: row.players[0],
                white: row.players[1],
            },
            rolls: row
                .rolls
                .iter()
                .map(|&(black, white)| Roll { black, white })
                .collect(),
            start: game.start().to_fen(),
            position: pos.to_fen(),
            turn: pos.turn().name(),
            ply: game.moves().len(),
            board: Point::all()
                .filter_map(|p| {
                    pos.piece_at(p).map(|piece| PieceJson {
                        point: p.to_string(),
                        color: piece.color.name(),
                        mullah: piece.mullah,
                    })
                })
                .collect(),
            history,
            must_capture: rules.capture_compulsory
                && !legal.is_empty()
                && legal.iter().all(Move::is_capture),
            legal: legal_json,
            quiet_plies: game.quiet_plies(),
            outcome: game.outcome().map(OutcomeJson::from),
            status: match (&row.end, game.outcome()) {
                (Some(End::Aborted), _) => "aborted",
                (_, Some(_)) => "over",
                _ if row.person_side().is_some() && row.guest_sha256.is_none() => "waiting",
                _ => "playing",
            },
            person: row.person_side().map(|side| SeatJson {
                side: side.name(),
                joined: row.guest_sha256.is_some(),
            }),
            clock: row.clocks.as_ref().map(|c| ClocksJson::new(c, game)),
            draw_offer: row.draw_offer.map(Color::name),
            rematch_of: row.rematch_of.clone(),
            rematch: row.rematch.clone(),
            tables,
            thinking,
            created: row.created,
            updated: row.updated,
        }
    }
}

/// Replays a stored game.
pub(super) fn replay(row: &GameRow) -> Result<Game, String> {
    let rules: Rules = row.rules.parse().map_err(|e| format!("{e}"))?;
    let start = Position::from_fen(&row.start).map_err(|e| e.to_string())?;
    let mut game = Game::from_position(rules, start);
    for mv in &row.moves {
        game.play_str(mv).map_err(|e| e.to_string())?;
    }
    match row.end {
        Some(End::Resigned(side)) => game.resign(side),
        Some(End::Agreed) => game.agree_draw(),
        Some(End::Flagged(side)) => game.flag(side),
        Some(End::Rules(_) | End::Aborted) | None => {}
    }
    Ok(game)
}
