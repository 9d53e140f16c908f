//! Tag names, their writing order and the checks on their values.

use super::error::TagError;

/// The tags with a fixed place, in the order they are written; any other tag follows them
/// in the order it was given.
pub(super) const ORDER: [&str; 10] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "Black",
    "White",
    "Result",
    "Rules",
    "FEN",
    "Termination",
];

/// The tags written from the record's result and game rather than stored.
pub(super) const DERIVED: [&str; 3] = ["Result", "Rules", "FEN"];

/// A known tag name in its usual spelling, or the name as given.
pub(super) fn canonical_name(name: &str) -> String {
    ORDER
        .iter()
        .find(|known| known.eq_ignore_ascii_case(name))
        .map_or(name, |known| *known)
        .to_string()
}

/// Where a tag is written: its place in [`ORDER`], others after those.
pub(super) fn tag_rank(name: &str) -> usize {
    ORDER
        .iter()
        .position(|known| *known == name)
        .unwrap_or(ORDER.len())
}

/// Checks a tag's name and value, and that it is not a `duplicate` of one given before.
pub(super) fn check_tag(name: &str, value: &str, duplicate: bool) -> Result<(), TagError> {
    let mut chars = name.chars();
    let good_name = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !good_name {
        return Err(TagError::BadName(name.to_string()));
    }
    if value.chars().any(char::is_control) {
        return Err(TagError::ControlCharacter(name.to_string()));
    }
    if name == "Date" && !is_date(value) {
        return Err(TagError::BadDate(value.to_string()));
    }
    if duplicate {
        return Err(TagError::Duplicate(name.to_string()));
    }
    Ok(())
}

/// Whether `value` is `YYYY.MM.DD`, each part all digits or all `?`, with a month 01-12
/// and a day 01-31.
fn is_date(value: &str) -> bool {
    let parts: Vec<&str> = value.split('.').collect();
    let [year, month, day] = parts[..] else {
        return false;
    };
    let part = |s: &str, len: usize, max: u32| {
        s.len() == len
            && (s.bytes().all(|b| b == b'?')
                || (s.bytes().all(|b| b.is_ascii_digit())
                    && s.parse::<u32>().is_ok_and(|n| (1..=max).contains(&n))))
    };
    part(year, 4, 9999) && part(month, 2, 12) && part(day, 2, 31)
}
