//! Argument values of the protocol's commands: numbers within a range and times.

use std::time::Duration;

/// A whole number from `low` to `high`.
pub(super) fn number<T>(name: &str, value: &str, low: T, high: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    value
        .parse::<T>()
        .ok()
        .filter(|v| *v >= low && *v <= high)
        .ok_or_else(|| format!("{name} must be a whole number from {low} to {high}, not '{value}'"))
}

/// A time in seconds (a real number from 0 to a million).
pub(super) fn seconds(name: &str, value: &str) -> Result<Duration, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|s| (0.0..=1e6).contains(s))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{name} must be a time in seconds, not '{value}'"))
}
