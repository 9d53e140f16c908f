//! The JSON API (documented in `docs/api.md`).

use crate::engine::{EnginePool, SearchError};
use crate::store::{GameRow, Player, Store};
use crate::Config;
use axum::extract::{DefaultBodyLimit, FromRequest, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use kharbaga::{Color, Game, Move, Outcome, Point, Position, Reason, Record, Rules, OPTION_KEYS};
use kharbaga_engine::{Report, Score};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::OwnedMutexGuard;

/// The request header that carries a game's secret token.
pub(crate) const TOKEN_HEADER: &str = "x-kharbaga-token";

/// The letters of game ids (no 0/o, 1/l): 32 of them, so 5 bits each.
const ID_ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";
const ID_LEN: usize = 10;

/// The shortest engine time a request may ask for.
const MIN_ENGINE_TIME: Duration = Duration::from_millis(10);

/// What every handler shares.
pub(crate) struct AppState {
    config: Config,
    store: Arc<Store>,
    engines: EnginePool,
    /// One lock per game being changed, so that changes to a game happen one at a time.
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// The games whose engine is thinking.
    thinking: Mutex<HashSet<String>>,
}

impl AppState {
    pub fn new(config: Config, store: Store) -> AppState {
        AppState {
            engines: EnginePool::new(config.max_engine_searches, config.engine_hash_mib),
            config,
            store: Arc::new(store),
            locks: Mutex::new(HashMap::new()),
            thinking: Mutex::new(HashSet::new()),
        }
    }

    /// Waits for the right to change game `id`.
    async fn lock_game(&self, id: &str) -> OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            if locks.len() > 1024 {
                // Forget the locks nobody holds or waits for.
                locks.retain(|_, l| Arc::strong_count(l) > 1);
            }
            Arc::clone(locks.entry(id.to_string()).or_default())
        };
        lock.lock_owned().await
    }

    fn is_thinking(&self, id: &str) -> bool {
        self.thinking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(id)
    }

    /// Runs a database call on the blocking pool.
    async fn db<T: Send + 'static>(
        &self,
        call: impl FnOnce(&Store) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let store = Arc::clone(&self.store);
        match tokio::task::spawn_blocking(move || call(&store)).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(ApiError::internal(format!("database error: {e}"))),
            Err(e) => Err(ApiError::internal(format!("database call failed: {e}"))),
        }
    }

    /// Reads and replays a game.
    async fn load(&self, id: &str) -> Result<(GameRow, Game), ApiError> {
        if !is_game_id(id) {
            return Err(no_such_game(id));
        }
        let key = id.to_string();
        let row = self
            .db(move |s| s.load(&key))
            .await?
            .ok_or_else(|| no_such_game(id))?;
        let game = replay(&row)
            .map_err(|e| ApiError::internal(format!("stored game {id} cannot be replayed: {e}")))?;
        Ok((row, game))
    }

    async fn save_moves(&self, row: &mut GameRow, game: &Game) -> Result<(), ApiError> {
        row.moves = game.moves().iter().map(Move::to_string).collect();
        row.updated = now();
        let (id, moves, updated) = (row.id.clone(), row.moves.clone(), row.updated);
        self.db(move |s| s.set_moves(&id, &moves, updated)).await
    }

    fn movetime(&self, requested_ms: Option<u64>) -> Result<Duration, ApiError> {
        let time = match requested_ms {
            None => self.config.default_engine_time,
            Some(ms) => Duration::from_millis(ms),
        };
        if time < MIN_ENGINE_TIME {
            return Err(ApiError::bad_request(format!(
                "movetime_ms must be at least {}",
                MIN_ENGINE_TIME.as_millis()
            )));
        }
        Ok(time.min(self.config.max_engine_time))
    }

    fn state(&self, row: &GameRow, game: &Game) -> GameState {
        GameState::new(row, game, self.is_thinking(&row.id))
    }
}

/// Marks a game as thinking while alive.
struct ThinkingMark {
    app: Arc<AppState>,
    id: String,
}

impl ThinkingMark {
    fn new(app: &Arc<AppState>, id: &str) -> ThinkingMark {
        app.thinking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string());
        ThinkingMark {
            app: Arc::clone(app),
            id: id.to_string(),
        }
    }
}

impl Drop for ThinkingMark {
    fn drop(&mut self) {
        self.app
            .thinking
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

/// The API's routes.
pub(crate) fn router(app: Arc<AppState>) -> Router {
    Router::new()
        .route("/api/meta", get(meta))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/moves", post(make_move))
        .route("/api/games/{id}/engine", post(engine_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/record", get(record))
        .layer(DefaultBodyLimit::max(app.config.max_body_bytes))
        .with_state(app)
}

// ---------------------------------------------------------------------------------------
// Errors

/// An error answer: a status and `{"error": message, "code": code}`.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body<'a> {
            error: &'a str,
            code: &'a str,
        }
        let body = Body {
            error: &self.message,
            code: self.code,
        };
        (self.status, Json(body)).into_response()
    }
}

fn no_such_game(id: &str) -> ApiError {
    let shown: String = id.chars().take(40).collect();
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        format!("there is no game '{shown}'"),
    )
}

/// The answer to an unknown address: JSON under `/api/`, a short page elsewhere.
pub(crate) async fn not_found(uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such API endpoint: {}", uri.path()),
        )
        .into_response()
    } else {
        (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            "<!doctype html><title>Not found</title><p>Nothing here. <a href=\"/\">Play Kharbaga</a>.</p>",
        )
            .into_response()
    }
}

/// The answer to a known address with the wrong method.
pub(crate) async fn method_not_allowed(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{} does not take this method", uri.path()),
    )
}

/// A JSON request body; an empty body reads as the default value. Errors are JSON too.
struct Body<T>(T);

impl<S: Send + Sync, T: DeserializeOwned + Default> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Body<T>, ApiError> {
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|e| {
                let code = if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    "too_large"
                } else {
                    "bad_request"
                };
                ApiError::new(e.status(), code, e.body_text())
            })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Body(T::default()));
        }
        serde_json::from_slice(&bytes)
            .map(Body)
            .map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
    }
}

/// The game id of the address; a malformed one is a JSON error too.
struct GameId(String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<GameId, ApiError> {
        Path::<String>::from_request_parts(parts, state)
            .await
            .map(|Path(id)| GameId(id))
            .map_err(|e| ApiError::new(e.status(), "bad_request", e.body_text()))
    }
}

// ---------------------------------------------------------------------------------------
// Game state as sent to the client

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

/// Everything the page needs to show a game.
#[derive(Serialize)]
pub(crate) struct GameState {
    id: String,
    url: String,
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
    thinking: bool,
    created: i64,
    updated: i64,
}

fn names(points: impl IntoIterator<Item = Point>) -> Vec<String> {
    points.into_iter().map(|p| p.to_string()).collect()
}

impl GameState {
    fn new(row: &GameRow, game: &Game, thinking: bool) -> GameState {
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
            thinking,
            created: row.created,
            updated: row.updated,
        }
    }
}

/// Replays a stored game.
fn replay(row: &GameRow) -> Result<Game, String> {
    let rules: Rules = row.rules.parse().map_err(|e| format!("{e}"))?;
    let start = Position::from_fen(&row.start).map_err(|e| e.to_string())?;
    let mut game = Game::from_position(rules, start);
    for mv in &row.moves {
        game.play_str(mv).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

// ---------------------------------------------------------------------------------------
// Helpers

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(|e| ApiError::internal(format!("no random numbers: {e}")))?;
    Ok(buf)
}

fn new_game_id() -> Result<String, ApiError> {
    let bytes = random_bytes::<ID_LEN>()?;
    Ok(bytes
        .iter()
        .map(|b| ID_ALPHABET[(b & 31) as usize] as char)
        .collect())
}

fn is_game_id(id: &str) -> bool {
    id.len() == ID_LEN && id.bytes().all(|b| ID_ALPHABET.contains(&b))
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A fair die: 1 to 6.
fn roll_die() -> Result<u8, ApiError> {
    loop {
        let [b] = random_bytes::<1>()?;
        // 252 = 42 * 6: reject the top four values so each face is equally likely.
        if b < 252 {
            return Ok(b % 6 + 1);
        }
    }
}

/// Checks that the request carries the game's token.
fn authorize(row: &GameRow, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(token) = headers.get(TOKEN_HEADER) else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            format!("this needs the game's token in the {TOKEN_HEADER} header (anyone may watch, only its creator may play)"),
        ));
    };
    let ok = token
        .to_str()
        .is_ok_and(|t| sha256_hex(t.trim()) == row.token_sha256);
    if ok {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "the token is not this game's",
        ))
    }
}

/// Checks the client's idea of the number of moves played, if it sent one.
fn check_ply(game: &Game, ply: Option<usize>) -> Result<(), ApiError> {
    match ply {
        Some(p) if p != game.moves().len() => Err(ApiError::conflict(
            "stale",
            format!(
                "the game has {} moves, not {p}: reload it",
                game.moves().len()
            ),
        )),
        _ => Ok(()),
    }
}

fn check_not_over(game: &Game) -> Result<(), ApiError> {
    match game.outcome() {
        Some(o) => Err(ApiError::conflict(
            "game_over",
            format!("the game is over: {o}"),
        )),
        None => Ok(()),
    }
}

fn check_not_thinking(app: &AppState, id: &str) -> Result<(), ApiError> {
    if app.is_thinking(id) {
        Err(ApiError::conflict(
            "thinking",
            "the engine is thinking in this game; wait for its move",
        ))
    } else {
        Ok(())
    }
}

fn check_level(level: u8) -> Result<u8, ApiError> {
    if (1..=10).contains(&level) {
        Ok(level)
    } else {
        Err(ApiError::bad_request(format!(
            "level {level} is out of range (1 to 10)"
        )))
    }
}

fn player_of(row: &GameRow, color: Color) -> Player {
    row.players[color.index()]
}

// ---------------------------------------------------------------------------------------
// Handlers

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
struct Meta {
    rule_sets: Vec<RuleSetJson>,
    option_keys: Vec<OptionKeyJson>,
    levels: [u8; 2],
    default_engine_time_ms: u128,
    max_engine_time_ms: u128,
}

async fn meta(State(app): State<Arc<AppState>>) -> Json<Meta> {
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
struct CreateRequest {
    /// A rules string: a set name with optional `,key=value` overrides.
    rules: Option<String>,
    /// Options set on top of `rules`.
    #[serde(default)]
    options: BTreeMap<String, String>,
    /// A position string to start from instead of the start position.
    position: Option<String>,
    /// A game record (PDN) to continue: its rules, start position and moves.
    record: Option<String>,
    black: Option<Player>,
    white: Option<Player>,
    first: Option<First>,
}

#[derive(Serialize)]
struct Created {
    id: String,
    url: String,
    token: String,
    state: GameState,
}

async fn create(
    State(app): State<Arc<AppState>>,
    Body(req): Body<CreateRequest>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let players = [
        req.black.unwrap_or(Player::Human),
        req.white.unwrap_or(Player::Human),
    ];
    for p in players {
        if let Player::Engine { level } = p {
            check_level(level)?;
        }
    }
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
    let token: String = random_bytes::<16>()?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let time = now();
    let row = GameRow {
        id: new_game_id()?,
        token_sha256: sha256_hex(&token),
        rules: game.rules().to_string(),
        start: game.start().to_fen(),
        moves: game.moves().iter().map(Move::to_string).collect(),
        players,
        rolls,
        created: time,
        updated: time,
    };
    let stored = row.clone();
    app.db(move |s| s.insert(&stored)).await?;
    let state = app.state(&row, &game);
    Ok((
        StatusCode::CREATED,
        Json(Created {
            id: row.id.clone(),
            url: state.url.clone(),
            token,
            state,
        }),
    ))
}

async fn get_game(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
) -> Result<Json<GameState>, ApiError> {
    let (row, game) = app.load(&id).await?;
    Ok(Json(app.state(&row, &game)))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
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

async fn make_move(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: HeaderMap,
    Body(req): Body<MoveRequest>,
) -> Result<Json<GameState>, ApiError> {
    check_not_thinking(&app, &id)?;
    let _lock = app.lock_game(&id).await;
    let (mut row, mut game) = app.load(&id).await?;
    authorize(&row, &headers)?;
    check_not_thinking(&app, &id)?;
    check_ply(&game, req.ply)?;
    check_not_over(&game)?;
    let turn = game.position().turn();
    if let Player::Engine { .. } = player_of(&row, turn) {
        return Err(ApiError::conflict(
            "engine_turn",
            format!("{turn} is played by the engine: ask it to move"),
        ));
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
    app.save_moves(&mut row, &game).await?;
    Ok(Json(app.state(&row, &game)))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct EngineRequest {
    /// Playing level 1-10 (default: the engine player's level, else 10).
    level: Option<u8>,
    /// Thinking time in milliseconds (default and maximum set by the server).
    movetime_ms: Option<u64>,
    /// The number of moves the client believes have been played.
    ply: Option<usize>,
}

#[derive(Serialize)]
struct ScoreJson {
    /// `centi` (centi-men), `win` or `loss` (in `value` plies).
    kind: &'static str,
    value: i64,
    /// The side whose point of view the score takes (the side to move when searched).
    side: &'static str,
}

#[derive(Serialize)]
struct SearchJson {
    best: Option<String>,
    score: ScoreJson,
    depth: u32,
    nodes: u64,
    pv: Vec<String>,
    time_ms: u128,
}

impl SearchJson {
    fn new(report: &Report, side: Color) -> SearchJson {
        let (kind, value) = match report.score {
            Score::Centi(c) => ("centi", i64::from(c)),
            Score::WinIn(n) => ("win", i64::from(n)),
            Score::LossIn(n) => ("loss", i64::from(n)),
            // From the endgame tables: -1 when the distance is not known.
            Score::TableWin(n) => ("tb-win", n.map_or(-1, i64::from)),
            Score::TableDraw => ("tb-draw", 0),
            Score::TableLoss(n) => ("tb-loss", n.map_or(-1, i64::from)),
        };
        SearchJson {
            best: report.best.map(|m| m.to_string()),
            score: ScoreJson {
                kind,
                value,
                side: side.name(),
            },
            depth: report.depth,
            nodes: report.nodes,
            pv: report.pv.iter().map(Move::to_string).collect(),
            time_ms: report.time.as_millis(),
        }
    }
}

#[derive(Serialize)]
struct EngineMoved {
    state: GameState,
    search: SearchJson,
}

fn search_failed(e: SearchError) -> ApiError {
    ApiError::internal(e.to_string())
}

async fn engine_move(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: HeaderMap,
    Body(req): Body<EngineRequest>,
) -> Result<Json<EngineMoved>, ApiError> {
    let movetime = app.movetime(req.movetime_ms)?;
    if let Some(level) = req.level {
        check_level(level)?;
    }
    check_not_thinking(&app, &id)?;
    let lock = app.lock_game(&id).await;
    let (mut row, mut game) = app.load(&id).await?;
    authorize(&row, &headers)?;
    check_ply(&game, req.ply)?;
    check_not_over(&game)?;
    let side = game.position().turn();
    let level = req.level.unwrap_or(match player_of(&row, side) {
        Player::Engine { level } => level,
        Player::Human => 10,
    });
    let mark = ThinkingMark::new(&app, &id);
    let worker = Arc::clone(&app);
    // The search goes on, and its move is stored, even if the client goes away.
    let task = tokio::spawn(async move {
        let _lock = lock;
        let _mark = mark;
        let report = worker
            .engines
            .search(game.clone(), level, movetime)
            .await
            .map_err(search_failed)?;
        let best = report
            .best
            .ok_or_else(|| ApiError::internal("the engine found no move"))?;
        game.play(&best)
            .map_err(|e| ApiError::internal(format!("the engine's move was refused: {e}")))?;
        worker.save_moves(&mut row, &game).await?;
        Ok::<_, ApiError>((row, game, report))
    });
    let (row, game, report) = task
        .await
        .map_err(|e| ApiError::internal(format!("the engine task failed: {e}")))??;
    Ok(Json(EngineMoved {
        state: app.state(&row, &game),
        search: SearchJson::new(&report, side),
    }))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    /// How many moves to take back (1 by default).
    count: Option<usize>,
    /// The number of moves the client believes have been played.
    ply: Option<usize>,
}

async fn undo(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: HeaderMap,
    Body(req): Body<UndoRequest>,
) -> Result<Json<GameState>, ApiError> {
    check_not_thinking(&app, &id)?;
    let _lock = app.lock_game(&id).await;
    let (mut row, mut game) = app.load(&id).await?;
    authorize(&row, &headers)?;
    check_ply(&game, req.ply)?;
    let count = req.count.unwrap_or(1);
    let played = game.moves().len();
    if count == 0 || count > played {
        return Err(ApiError::bad_request(format!(
            "cannot take back {count} moves: {played} have been played"
        )));
    }
    for _ in 0..count {
        game.undo();
    }
    app.save_moves(&mut row, &game).await?;
    Ok(Json(app.state(&row, &game)))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct HintRequest {
    /// Playing level 1-10 (10 by default).
    level: Option<u8>,
    /// Thinking time in milliseconds (default and maximum set by the server).
    movetime_ms: Option<u64>,
}

#[derive(Serialize)]
struct HintJson {
    ply: usize,
    search: SearchJson,
}

async fn hint(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    headers: HeaderMap,
    Body(req): Body<HintRequest>,
) -> Result<Json<HintJson>, ApiError> {
    let movetime = app.movetime(req.movetime_ms)?;
    let level = check_level(req.level.unwrap_or(10))?;
    let (row, game) = app.load(&id).await?;
    authorize(&row, &headers)?;
    check_not_over(&game)?;
    let side = game.position().turn();
    let ply = game.moves().len();
    let report = app
        .engines
        .search(game, level, movetime)
        .await
        .map_err(search_failed)?;
    Ok(Json(HintJson {
        ply,
        search: SearchJson::new(&report, side),
    }))
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
        Player::Human => "Human".to_string(),
        Player::Engine { level } => format!("Kharbaga engine, level {level}"),
    }
}

async fn record(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let (row, game) = app.load(&id).await?;
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

    #[test]
    fn game_ids() {
        let id = new_game_id().unwrap();
        assert!(is_game_id(&id), "{id}");
        assert!(!is_game_id("abc"));
        assert!(!is_game_id("ABCDEFGHJK"));
        assert!(!is_game_id("abcdefghi0"), "0 is not in the alphabet");
    }

    #[test]
    fn die_rolls_cover_one_to_six() {
        let mut seen = [false; 7];
        for _ in 0..600 {
            seen[roll_die().unwrap() as usize] = true;
        }
        assert_eq!(seen, [false, true, true, true, true, true, true]);
    }
}
