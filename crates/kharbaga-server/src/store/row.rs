//! A stored game as the server uses it, and how its parts are written in the database.

use kharbaga::{Color, TimeControl};

/// Who plays one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub(crate) enum Player {
    /// A person at the browser that created the game (the owner's token plays it).
    Human,
    /// A person elsewhere, who takes the seat through the invitation link and gets a token
    /// of their own.
    Person,
    /// The engine at a playing level 1-10.
    Engine {
        /// The playing level.
        level: u8,
    },
}

impl Player {
    pub(super) fn to_db(self) -> String {
        match self {
            Player::Human => "human".to_string(),
            Player::Person => "person".to_string(),
            Player::Engine { level } => format!("engine:{level}"),
        }
    }

    pub(super) fn from_db(text: &str) -> Option<Player> {
        match text.split_once(':') {
            None if text == "human" => Some(Player::Human),
            None if text == "person" => Some(Player::Person),
            Some(("engine", level)) => level.parse().ok().map(|level| Player::Engine { level }),
            _ => None,
        }
    }
}

/// The clocks of a game with a time control. A side's clock runs while it is to move, from
/// the second move on (the first move of each side is not timed).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clocks {
    /// The time control.
    pub control: TimeControl,
    /// The time left to Black and White, in milliseconds, when the current turn began.
    pub left_ms: [i64; 2],
    /// When the current turn began (Unix milliseconds), if the clock of the side to move is
    /// running.
    pub turn_started_ms: Option<i64>,
}

/// How a game ended, when it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// By the rules, on the board (the result as a record writes it: `1-0`, `0-1`,
    /// `1/2-1/2`).
    Rules(String),
    /// A player resigned.
    Resigned(Color),
    /// The players agreed a draw.
    Agreed,
    /// A player's clock ran out.
    Flagged(Color),
    /// Called off before the second move: no result.
    Aborted,
}

fn color_from_db(text: &str) -> Option<Color> {
    [Color::Black, Color::White]
        .into_iter()
        .find(|c| c.name() == text)
}

impl End {
    /// The result (`1-0`, `0-1`, `1/2-1/2`, or `aborted`) and the reason (`rules`,
    /// `resignation:black`, `agreement`, `time:white`, `aborted`) as stored.
    pub(super) fn to_db(&self) -> (String, String) {
        let won_against = |loser: Color| match loser {
            Color::Black => "0-1".to_string(),
            Color::White => "1-0".to_string(),
        };
        match self {
            End::Rules(result) => (result.clone(), "rules".to_string()),
            End::Resigned(c) => (won_against(*c), format!("resignation:{}", c.name())),
            End::Agreed => ("1/2-1/2".to_string(), "agreement".to_string()),
            End::Flagged(c) => (won_against(*c), format!("time:{}", c.name())),
            End::Aborted => ("aborted".to_string(), "aborted".to_string()),
        }
    }

    pub(super) fn from_db(result: &str, reason: &str) -> Option<End> {
        match reason.split_once(':') {
            None if reason == "rules" => Some(End::Rules(result.to_string())),
            None if reason == "agreement" => Some(End::Agreed),
            None if reason == "aborted" => Some(End::Aborted),
            Some(("resignation", c)) => color_from_db(c).map(End::Resigned),
            Some(("time", c)) => color_from_db(c).map(End::Flagged),
            _ => None,
        }
    }
}

/// One stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameRow {
    /// The game's id (its address is `/game/<id>`).
    pub id: String,
    /// The SHA-256 of the owner's secret token, in hex.
    pub token_sha256: String,
    /// The rules string (`standard,removal=immediate`).
    pub rules: String,
    /// The start position string.
    pub start: String,
    /// The moves played, in full notation.
    pub moves: Vec<String>,
    /// Who plays Black and White.
    pub players: [Player; 2],
    /// The die rolls that decided who starts (Black's and White's, in turn, until they
    /// differed), if a die was rolled.
    pub rolls: Vec<(u8, u8)>,
    /// Creation time, Unix seconds.
    pub created: i64,
    /// Time of the last change, Unix seconds.
    pub updated: i64,
    /// The SHA-256 of the invitation's secret, in games against a person elsewhere.
    pub invite_sha256: Option<String>,
    /// The SHA-256 of the token of the person who took the seat by the invitation.
    pub guest_sha256: Option<String>,
    /// The clocks, in games with a time control.
    pub clocks: Option<Clocks>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// How the game ended, once it has.
    pub end: Option<End>,
    /// The game this one is the rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game, once asked for.
    pub rematch: Option<String>,
}

impl GameRow {
    /// A new game with nothing but its setup: no invitation, clocks, offer or end.
    pub fn new(id: String, token_sha256: String, rules: String, start: String) -> GameRow {
        GameRow {
            id,
            token_sha256,
            rules,
            start,
            moves: Vec::new(),
            players: [Player::Human; 2],
            rolls: Vec::new(),
            created: 0,
            updated: 0,
            invite_sha256: None,
            guest_sha256: None,
            clocks: None,
            draw_offer: None,
            end: None,
            rematch_of: None,
            rematch: None,
        }
    }

    /// The side played by a person elsewhere, if the game has one.
    pub fn person_side(&self) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|c| self.players[c.index()] == Player::Person)
    }
}

pub(super) fn color_to_db(color: Option<Color>) -> Option<&'static str> {
    color.map(Color::name)
}

pub(super) fn color_option_from_db(text: Option<String>) -> Option<Color> {
    text.as_deref().and_then(color_from_db)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_read_back_what_was_written() {
        for p in [
            Player::Human,
            Player::Person,
            Player::Engine { level: 1 },
            Player::Engine { level: 10 },
        ] {
            assert_eq!(Player::from_db(&p.to_db()), Some(p));
        }
        assert_eq!(Player::from_db("engine:x"), None);
        assert_eq!(Player::from_db("robot"), None);
    }

    #[test]
    fn ends_read_back_what_was_written() {
        for end in [
            End::Rules("1-0".into()),
            End::Resigned(Color::White),
            End::Agreed,
            End::Flagged(Color::Black),
            End::Aborted,
        ] {
            let (result, reason) = end.to_db();
            assert_eq!(End::from_db(&result, &reason), Some(end));
        }
        assert_eq!(End::Flagged(Color::Black).to_db().0, "0-1");
        assert_eq!(End::from_db("1-0", "time:red"), None);
        assert_eq!(End::from_db("1-0", "luck"), None);
    }
}
