//! The handlers of games: the server's meta data, creating, reading, moving, taking back
//! and the record.

use super::checks::{
    authorize, check_level, check_not_over, check_not_thinking, check_ply, player_of, seat,
};
use super::clocks;
use super::errors::ApiError;
use super::extract::{Body, ClientIp, GameId, Object};
use super::ids::{new_game_id, new_token, now, now_ms, roll_die, sha256_hex};
use super::state::GameState;
use super::AppState;
use crate::store::{End, GameRow, Player};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kharbaga::{Color, Game, Move, Point, Position, Record, Rules, OPTION_KEYS};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Serialize)]
struct RuleSetJson {
    name: &'static str,
    options: BTreeMap<&'static str, String>,
}

#[derive(Serialize)]
struct OptionKeyJson {
    key: &'static str,
    values: &'static str,
}

#[derive(Serialize)]
pub(super) struct Meta {
    rule_sets: Vec<RuleSetJson>,
    option_keys: Vec<OptionKeyJson>,
    levels: [u8; 2],
    default_engine_time_ms: u128,
    max_engine_time_ms: u128,
}

pub(super) async fn meta(State(app): State<Arc<AppState>>) -> Json<Meta> {
    Json(Meta {
        rule_sets: kharbaga::RULE_SET_NAMES
            .iter()
            .map(|&name| RuleSetJson {
                name,
                options: Rules::named(name)
                    .expect("a known name")
                    .options()
                    .into_iter()
                    .collect(),
            })
            .collect(),
        option_keys: OPTION_KEYS
            .iter()
            .map(|&(key, values)| OptionKeyJson { key, values })
            .collect(),
        levels: [1, 10],
        default_engine_time_ms: app.config.default_engine_time.as_millis(),
        max_engine_time_ms: app.config.max_engine_time.as_millis(),
    })
}

/// Who makes the first move of a game from the start position.
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum First {
    Black,
    White,
    /// Each side rolls a die until the numbers differ; the higher starts.
    Roll,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct CreateRequest {
    /// A rules string: a set name with optional `,key=value` overrides.
    rules: Option<String>,
    /// Options set on top of `rules`.
    #[serde(default)]
    options: BTreeMap<String, String>,
    /// A position string to start from instead of the start position.
    position: Option<String>,
    /// A game record (PDN) to continue: its rules, start position and moves.
    record: Option<String>,
    black: Option<Object<Player>>,
    white: Option<Object<Player>>,
    first: Option<First>,
    /// Clocks `MIN+INC`, in a game against a person elsewhere.
    clock: Option<String>,
}

#[derive(Serialize)]
pub(super) struct Created {
    id: String,
    url: String,
    token: String,
    /// The invitation's secret, in a game against a person elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<String>,
    /// The invitation link's address: whoever opens it first takes the other seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    invite_url: Option<String>,
    state: GameState,
}

/// Checks who plays: a person elsewhere plays against the creator (a human side), with
/// clocks or without; clocks are only for such games.
fn check_seating(players: [Player; 2], clock: Option<&str>) -> Result<(), ApiError> {
    for p in players {
        if let Player::Engine { level } = p {
            check_level(level)?;
        }
    }
    let person = players.contains(&Player::Person);
    if person && !players.contains(&Player::Human) {
        return Err(ApiError::bad_request(
            "a person elsewhere plays against the game's creator: the other side must be {\"kind\": \"human\"}",
        ));
    }
    if clock.is_some() && !person {
        return Err(ApiError::bad_request(
            "clocks are kept in games against a person elsewhere ({\"kind\": \"person\"})",
        ));
    }
    Ok(())
}

pub(super) async fn create(
    State(app): State<Arc<AppState>>,
    ClientIp(client): ClientIp,
    Body(req): Body<CreateRequest>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let players = [&req.black, &req.white].map(|p| p.as_ref().map_or(Player::Human, |o| o.0));
    check_seating(players, req.clock.as_deref())?;
    let clocks = match &req.clock {
        Some(text) => Some(clocks::fresh(
            text.parse()
                .map_err(|e| ApiError::bad_request(format!("clock: {e}")))?,
        )),
        None => None,
    };
    let mut rolls = Vec::new();
    let game = match (&req.record, &req.position, req.first) {
        (Some(text), None, None) => {
            if req.rules.is_some() || !req.options.is_empty() {
                return Err(ApiError::bad_request(
                    "a record names its own rules: do not give rules or options with it",
                ));
            }
            Record::parse(text)
                .map_err(|e| ApiError::bad_request(format!("record: {e}")))?
                .game()
                .clone()
        }
        (Some(_), _, _) => {
            return Err(ApiError::bad_request(
                "a record gives the start position and who moves: do not give position or first with it",
            ))
        }
        (None, Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "give either a position (which says who is to move) or first, not both",
            ))
        }
        (None, position, first) => {
            let mut rules: Rules = req
                .rules
                .as_deref()
                .unwrap_or("standard")
                .parse()
                .map_err(|e| ApiError::bad_request(format!("rules: {e}")))?;
            for (key, value) in &req.options {
                rules
                    .set_option(key, value)
                    .map_err(|e| ApiError::bad_request(format!("options: {e}")))?;
            }
            let start = match position {
                Some(text) => Position::from_fen(text.trim())
                    .map_err(|e| ApiError::bad_request(e.to_string()))?,
                None => {
                    let first = match first.unwrap_or(First::Black) {
                        First::Black => Color::Black,
                        First::White => Color::White,
                        First::Roll => loop {
                            let (b, w) = (roll_die()?, roll_die()?);
                            rolls.push((b, w));
                            if b != w {
                                break if b > w { Color::Black } else { Color::White };
                            }
                        },
                    };
                    if first == Color::White {
                        Position::start().swap_turn()
                    } else {
                        Position::start()
                    }
                }
            };
            Game::from_position(rules, start)
        }
    };
    let token = new_token()?;
    let invite = match players.contains(&Player::Person) {
        true => Some(new_token()?),
        false => None,
    };
    let time = now();
    let mut row = GameRow {
        players,
        rolls,
        clocks,
        invite_sha256: invite.as_deref().map(sha256_hex),
        created: time,
        updated: time,
        ..GameRow::new(
            new_game_id()?,
            sha256_hex(&token),
            game.rules().to_string(),
            game.start().to_fen(),
        )
    };
    app.count_new_game(client)?;
    row.moves = game.moves().iter().map(Move::to_string).collect();
    if let Some(o) = game.outcome() {
        row.end = Some(End::Rules(o.result_str().to_string()));
    }
    let stored = row.clone();
    app.db(move |s| s.insert(&stored)).await?;
    let state = app.state(&row, &game).await;
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id: row.id.clone(),
            url: state.url.clone(),
            token,
            invite_url: invite
                .as_ref()
                .map(|code| format!("{}#join={code}", state.url)),
            invite,
            state,
        }),
    ))
}

pub(super) async fn get_game(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
) -> Result<Json<GameState>, ApiError> {
    let (row, game) = app.read(&id).await?;
    Ok(Json(app.state(&row, &game).await))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveRequest {
    /// The move in notation (`e3-e5`, `e3xc5xa7`, or the short `e3xa7`).
    #[serde(rename = "move")]
    notation: Option<String>,
    /// The move as its points: the start, then every landing point.
    path: Option<Vec<String>>,
    /// The number of moves the client believes have been played.
    ply: Option<usize>,
}

/// Finds the legal move whose start and landing points are exactly `points`.
fn move_by_path(game: &Game, points: &[String]) -> Result<Move, ApiError> {
    let parsed: Vec<Point> = points
        .iter()
        .enumerate()
        .map(|(i, name)| {
            name.trim()
                .parse::<Point>()
                .map_err(|e| ApiError::bad_request(format!("path[{i}]: {e}")))
        })
        .collect::<Result<_, _>>()?;
    if parsed.len() < 2 {
        return Err(ApiError::bad_request(
            "a path needs the start and at least one landing point",
        ));
    }
    let pos = game.position();
    let found = pos
        .legal_moves_all_paths(game.rules())
        .into_iter()
        .find(|m| m.points().eq(parsed.iter().copied()));
    found.ok_or_else(|| {
        let text = points.join("-");
        let from_here: Vec<String> = game
            .legal_moves()
            .iter()
            .filter(|m| m.from() == parsed[0])
            .map(Move::to_string)
            .collect();
        let hint = if from_here.is_empty() {
            format!("no legal move starts on {}", parsed[0])
        } else {
            format!("legal from {}: {}", parsed[0], from_here.join(" "))
        };
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
            format!("{text} is not a legal move here; {hint}"),
        )
    })
}

pub(super) async fn make_move(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: HeaderMap,
    Body(req): Body<MoveRequest>,
) -> Result<Json<GameState>, ApiError> {
    check_not_thinking(&app, &id)?;
    let lock = app.lock_game(&id).await?;
    let (mut row, mut game) = app.load_locked(&lock).await?;
    let seat = seat(&row, &headers)?;
    check_not_thinking(&app, &id)?;
    check_ply(&game, req.ply)?;
    check_not_over(&row, &game)?;
    let turn = game.position().turn();
    if let Player::Engine { .. } = player_of(&row, turn) {
        return Err(ApiError::conflict(
            "engine_turn",
            format!("{turn} is played by the engine: ask it to move"),
        ));
    }
    if let Some(own) = seat.side(&row) {
        if own != turn {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong_side",
                format!("it is {turn}'s move, and this token plays {own}"),
            ));
        }
        if row.guest_sha256.is_none() {
            return Err(ApiError::conflict(
                "waiting",
                "nobody has taken the other seat yet: send the invitation link",
            ));
        }
    }
    let mv = match (&req.notation, &req.path) {
        (Some(text), None) => game
            .position()
            .parse_move(game.rules(), text)
            .map_err(|e| {
                let code = match e {
                    kharbaga::MoveError::Syntax { .. } => "bad_move",
                    kharbaga::MoveError::Illegal { .. } => "illegal_move",
                    kharbaga::MoveError::Ambiguous { .. } => "ambiguous_move",
                };
                let status = if code == "bad_move" {
                    StatusCode::BAD_REQUEST
                } else {
                    StatusCode::UNPROCESSABLE_ENTITY
                };
                ApiError::new(status, code, e.to_string())
            })?,
        (None, Some(points)) => move_by_path(&game, points)?,
        _ => {
            return Err(ApiError::bad_request(
                "give the move either as \"move\" (notation) or as \"path\" (a list of points)",
            ))
        }
    };
    game.play(&mv)
        .map_err(|e| ApiError::internal(format!("a legal move was refused: {e}")))?;
    // A draw offer lapses when its side moves.
    if row.draw_offer == Some(turn) {
        row.draw_offer = None;
    }
    if let Some(c) = &mut row.clocks {
        clocks::after_move(c, turn, &game, now_ms());
    }
    Ok(Json(app.commit(&mut row, &game).await?))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct UndoRequest {
    /// How many moves to take back (1 by default).
    count: Option<usize>,
    /// The number of moves the client believes have been played.
    ply: Option<usize>,
}

pub(super) async fn undo(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: HeaderMap,
    Body(req): Body<UndoRequest>,
) -> Result<Json<GameState>, ApiError> {
    check_not_thinking(&app, &id)?;
    let lock = app.lock_game(&id).await?;
    let (mut row, mut game) = app.load_locked(&lock).await?;
    authorize(&row, &headers)?;
    if row.person_side().is_some() {
        return Err(ApiError::conflict(
            "no_takebacks",
            "moves are not taken back in a game against a person elsewhere",
        ));
    }
    check_ply(&game, req.ply)?;
    let count = req.count.unwrap_or(1);
    let played = game.moves().len();
    if count == 0 || count > played {
        return Err(ApiError::bad_request(format!(
            "cannot take back {count} moves: {played} have been played"
        )));
    }
    if row.end == Some(End::Aborted) {
        return Err(ApiError::conflict("game_over", "the game was aborted"));
    }
    for _ in 0..count {
        game.undo();
    }
    // Taking back a move takes back a resignation or an agreed draw too, as on a board.
    if matches!(row.end, Some(End::Resigned(_) | End::Agreed)) {
        row.end = None;
    }
    Ok(Json(app.commit(&mut row, &game).await?))
}

/// The date `YYYY.MM.DD` (UTC) of a Unix time, as records write it.
fn record_date(unix: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = unix.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

fn player_name(p: Player) -> String {
    match p {
        Player::Human | Player::Person => "Human".to_string(),
        Player::Engine { level } => format!("Kharbaga engine, level {level}"),
    }
}

pub(super) async fn record(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let (row, game) = app.read(&id).await?;
    let date = record_date(row.created);
    let (black, white) = (player_name(row.players[0]), player_name(row.players[1]));
    let url = format!("/game/{}", row.id);
    let tags = [
        ("Event", "Kharbaga game"),
        ("Site", url.as_str()),
        ("Date", date.as_str()),
        ("Black", black.as_str()),
        ("White", white.as_str()),
    ];
    let record = Record::from_game(&game, &tags)
        .map_err(|e| ApiError::internal(format!("cannot write the record: {e}")))?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"kharbaga-{}.pdn\"", row.id),
            ),
        ],
        record.to_pdn(),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_dates() {
        assert_eq!(record_date(0), "1970.01.01");
        // 2000-02-29 12:00 UTC = 951 825 600 s; 2024-12-31 23:59:59 = 1 735 689 599 s.
        assert_eq!(record_date(951_825_600), "2000.02.29");
        assert_eq!(record_date(1_735_689_599), "2024.12.31");
        assert_eq!(record_date(1_735_689_600), "2025.01.01");
    }
}
