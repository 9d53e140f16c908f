//! Random game ids, tokens and die rolls, token hashes, and the time.

use super::errors::ApiError;
use sha2::{Digest, Sha256};
use std::time::{SystemTime, UNIX_EPOCH};

/// The letters of game ids (no 0/o, 1/l): 32 of them, so 5 bits each.
const ID_ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";
const ID_LEN: usize = 10;

pub(super) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The time in Unix milliseconds.
pub(super) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

pub(super) fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(|e| ApiError::internal(format!("no random numbers: {e}")))?;
    Ok(buf)
}

pub(super) fn new_game_id() -> Result<String, ApiError> {
    let bytes = random_bytes::<ID_LEN>()?;
    Ok(bytes
        .iter()
        .map(|b| ID_ALPHABET[(b & 31) as usize] as char)
        .collect())
}

/// A new secret token: 16 random bytes in hex.
pub(super) fn new_token() -> Result<String, ApiError> {
    Ok(random_bytes::<16>()?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

pub(super) fn is_game_id(id: &str) -> bool {
    id.len() == ID_LEN && id.bytes().all(|b| ID_ALPHABET.contains(&b))
}

pub(super) fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A fair die: 1 to 6.
pub(super) fn roll_die() -> Result<u8, ApiError> {
    loop {
        let [b] = random_bytes::<1>()?;
        // 252 = 42 * 6: reject the top four values so each face is equally likely.
        if b < 252 {
            return Ok(b % 6 + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
