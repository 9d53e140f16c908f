//! The handlers of games between people: taking the seat of an invitation, resigning, draw
//! offers, aborting before the second move, and the rematch.

use super::checks::{check_not_over, seat};
use super::clocks;
use super::errors::ApiError;
use super::extract::{Body, ClientIp, GameId};
use super::ids::{new_game_id, new_token, now, now_ms, sha256_hex};
use super::state::GameState;
use super::{AppState, GameLock};
use crate::store::{End, GameRow, Player};
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use kharbaga::{Color, Game};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A body with nothing in it (`{}` or empty).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct NoFields {}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct JoinRequest {
    /// The invitation's secret, from the invitation link.
    invite: Option<String>,
}

#[derive(Serialize)]
pub(super) struct Joined {
    /// The new player's own secret token.
    token: String,
    /// The side the new player plays.
    side: &'static str,
    state: GameState,
}

fn no_person(what: &str) -> ApiError {
    ApiError::conflict(
        "not_against_a_person",
        format!("{what} is for games against a person elsewhere, and this is not one"),
    )
}

fn waiting() -> ApiError {
    ApiError::conflict(
        "waiting",
        "nobody has taken the other seat yet: send the invitation link (or abort the game)",
    )
}

/// `POST /api/games/<id>/join`: the first to bring the invitation takes the other seat.
pub(super) async fn join(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    Body(req): Body<JoinRequest>,
) -> Result<Json<Joined>, ApiError> {
    let lock = app.lock_game(&id).await?;
    let (mut row, game) = app.load_locked(&lock).await?;
    let Some(side) = row.person_side() else {
        return Err(no_person("an invitation"));
    };
    if row.guest_sha256.is_some() {
        return Err(ApiError::conflict(
            "seat_taken",
            "someone has already taken the other seat of this game: you can watch it",
        ));
    }
    let invite = req
        .invite
        .ok_or_else(|| ApiError::bad_request("give the invitation's secret as \"invite\""))?;
    if row.invite_sha256.as_deref() != Some(sha256_hex(invite.trim()).as_str()) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "this is not the invitation of this game",
        ));
    }
    check_not_over(&row, &game)?;
    let token = new_token()?;
    row.guest_sha256 = Some(sha256_hex(&token));
    let state = app.commit(&mut row, &game).await?;
    Ok(Json(Joined {
        token,
        side: side.name(),
        state,
    }))
}

/// A player's request to end the game or offer to: the game locked and read as it is now,
/// not over, with the side the request's token plays. Taken from the request (the game of
/// the address, the token, an empty body) by the handlers below.
pub(super) struct Acting {
    app: Arc<AppState>,
    _lock: GameLock,
    row: GameRow,
    game: Game,
    side: Color,
}

impl FromRequest<Arc<AppState>> for Acting {
    type Rejection = ApiError;

    async fn from_request(req: Request, app: &Arc<AppState>) -> Result<Acting, ApiError> {
        let (mut parts, body) = req.into_parts();
        let GameId(id) = GameId::from_request_parts(&mut parts, app).await?;
        let headers = parts.headers.clone();
        let Body(NoFields {}) = Body::from_request(Request::from_parts(parts, body), app).await?;
        let lock = app.lock_game(&id).await?;
        let (row, game) = app.load_locked(&lock).await?;
        let seat = seat(&row, &headers)?;
        check_not_over(&row, &game)?;
        let side = seat.side(&row).unwrap_or_else(|| {
            // The owner of a game without a person elsewhere plays its one human side, or
            // both: then the side to move.
            let humans: Vec<Color> = [Color::Black, Color::White]
                .into_iter()
                .filter(|c| row.players[c.index()] == Player::Human)
                .collect();
            match humans[..] {
                [one] => one,
                _ => game.position().turn(),
            }
        });
        Ok(Acting {
            app: Arc::clone(app),
            _lock: lock,
            row,
            game,
            side,
        })
    }
}

impl Acting {
    /// Checks that both seats are taken, in a game against a person elsewhere if `what`
    /// (a draw offer) is only for such games.
    fn seated(self, what: Option<&str>) -> Result<Acting, ApiError> {
        match (self.row.person_side(), what) {
            (None, Some(what)) => Err(no_person(what)),
            (Some(_), _) if self.row.guest_sha256.is_none() => Err(waiting()),
            _ => Ok(self),
        }
    }

    /// Stores and sends the changed game.
    async fn commit(mut self) -> Result<Json<GameState>, ApiError> {
        Ok(Json(self.app.commit(&mut self.row, &self.game).await?))
    }

    /// Ends the game: stops the clocks, forgets a draw offer, stores and sends the state.
    async fn end(mut self, end: End) -> Result<Json<GameState>, ApiError> {
        clocks::stop(&mut self.row.clocks, self.game.position().turn(), now_ms());
        match end {
            End::Resigned(side) => self.game.resign(side),
            End::Agreed => self.game.agree_draw(),
            _ => {}
        }
        self.row.end = Some(end);
        self.row.draw_offer = None;
        self.commit().await
    }

    /// The opponent's standing draw offer, or an error that there is none.
    fn offer_to(&self) -> Result<(), ApiError> {
        match self.row.draw_offer {
            Some(side) if side != self.side => Ok(()),
            _ => Err(ApiError::conflict(
                "no_offer",
                format!("{} has no draw offer to answer", self.side),
            )),
        }
    }
}

/// `POST /api/games/<id>/resign`: the side of the request's token resigns.
pub(super) async fn resign(acting: Acting) -> Result<Json<GameState>, ApiError> {
    let acting = acting.seated(None)?;
    let side = acting.side;
    acting.end(End::Resigned(side)).await
}

const DRAW_OFFER: Option<&str> = Some("a draw offer");

/// `POST /api/games/<id>/draw/offer`: offers a draw (accepts the other side's standing
/// offer).
pub(super) async fn offer_draw(acting: Acting) -> Result<Json<GameState>, ApiError> {
    let mut acting = acting.seated(DRAW_OFFER)?;
    match acting.row.draw_offer {
        Some(side) if side == acting.side => Err(ApiError::conflict(
            "already_offered",
            format!("{side} has offered a draw already: the offer stands until answered or until {side} moves"),
        )),
        Some(_) => acting.end(End::Agreed).await,
        None => {
            acting.row.draw_offer = Some(acting.side);
            acting.commit().await
        }
    }
}

/// `POST /api/games/<id>/draw/accept`: accepts the opponent's draw offer.
pub(super) async fn accept_draw(acting: Acting) -> Result<Json<GameState>, ApiError> {
    let acting = acting.seated(DRAW_OFFER)?;
    acting.offer_to()?;
    acting.end(End::Agreed).await
}

/// `POST /api/games/<id>/draw/decline`: declines the opponent's draw offer.
pub(super) async fn decline_draw(acting: Acting) -> Result<Json<GameState>, ApiError> {
    let mut acting = acting.seated(DRAW_OFFER)?;
    acting.offer_to()?;
    acting.row.draw_offer = None;
    acting.commit().await
}

/// `POST /api/games/<id>/abort`: calls the game off before its second move, without a
/// result.
pub(super) async fn abort(acting: Acting) -> Result<Json<GameState>, ApiError> {
    let played = acting.game.moves().len();
    if played >= 2 {
        return Err(ApiError::conflict(
            "too_late",
            format!("a game can be aborted only before its second move, and {played} moves have been played: resign instead"),
        ));
    }
    acting.end(End::Aborted).await
}

#[derive(Serialize)]
pub(super) struct Rematch {
    id: String,
    url: String,
    state: GameState,
}

/// `POST /api/games/<id>/rematch`: the game again with the colours swapped, once it is over;
/// both players keep their tokens. Asked again, it answers the same rematch.
pub(super) async fn rematch(
    State(app): State<Arc<AppState>>,
    GameId(id): GameId,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    Body(NoFields {}): Body<NoFields>,
) -> Result<(StatusCode, Json<Rematch>), ApiError> {
    let lock = app.lock_game(&id).await?;
    let (mut row, game) = app.load_locked(&lock).await?;
    seat(&row, &headers)?;
    if row.person_side().is_none() {
        return Err(no_person("a rematch"));
    }
    if row.guest_sha256.is_none() {
        return Err(waiting());
    }
    if row.end.is_none() && game.outcome().is_none() {
        return Err(ApiError::conflict(
            "not_over",
            "the game goes on: a rematch is for after it",
        ));
    }
    if let Some(again) = &row.rematch {
        let (new_row, new_game) = app.read(again).await?;
        let state = app.state(&new_row, &new_game).await;
        return Ok((
            StatusCode::OK,
            Json(Rematch {
                id: new_row.id,
                url: state.url.clone(),
                state,
            }),
        ));
    }
    // A new game: it counts against the cap as one created directly does.
    app.count_new_game(client)?;
    let time = now();
    let new_row = GameRow {
        players: [row.players[1], row.players[0]],
        guest_sha256: row.guest_sha256.clone(),
        clocks: row.clocks.map(|c| clocks::fresh(c.control)),
        rematch_of: Some(row.id.clone()),
        created: time,
        updated: time,
        ..GameRow::new(
            new_game_id()?,
            row.token_sha256.clone(),
            row.rules.clone(),
            row.start.clone(),
        )
    };
    let stored = new_row.clone();
    app.db(move |s| s.insert(&stored)).await?;
    let new_game = Game::from_position(*game.rules(), *game.start());
    row.rematch = Some(new_row.id.clone());
    app.commit(&mut row, &game).await?;
    let state = app.state(&new_row, &new_game).await;
    Ok((
        StatusCode::CREATED,
        Json(Rematch {
            id: new_row.id,
            url: state.url.clone(),
            state,
        }),
    ))
}
