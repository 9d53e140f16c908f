//! The `level` command: the limits of the next searches.

use super::line::Line;
use super::values::{number, seconds};
use crate::Limits;

/// The limits a `level` line sets (all of them: unset ones do not apply).
pub(super) fn read_limits(line: &Line) -> Result<Limits, String> {
    let mut limits = Limits::default();
    for (name, value) in &line.args {
        let value = value.as_deref().unwrap_or("");
        match name.as_str() {
            "depth" => limits.depth = Some(number(name, value, 1, 127)?),
            "nodes" => limits.nodes = Some(number(name, value, 1, u64::MAX)?),
            "move-time" => limits.movetime = Some(seconds(name, value)?),
            "time" => limits.clock = Some(seconds(name, value)?),
            "inc" => limits.increment = seconds(name, value)?,
            // The engine plans its time as if many moves remained, which is safe for any
            // number of moves to the next time control.
            "moves" => {
                number::<u32>(name, value, 1, u32::MAX)?;
            }
            // No limit: the search runs until `stop`.
            "infinite" => {}
            // Unknown arguments are ignored, as the protocol asks.
            _ => {}
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn level(text: &str) -> Result<Limits, String> {
        read_limits(&Line::parse(text).unwrap().unwrap())
    }

    #[test]
    fn level_sets_every_limit_anew() {
        let limits = level("level depth=5 move-time=0.25 nodes=1000").unwrap();
        assert_eq!(limits.depth, Some(5));
        assert_eq!(limits.nodes, Some(1000));
        assert_eq!(limits.movetime, Some(Duration::from_millis(250)));
        let limits = level("level time=60 inc=0.5 moves=20").unwrap();
        assert_eq!(limits.depth, None);
        assert_eq!(limits.clock, Some(Duration::from_secs(60)));
        assert_eq!(limits.increment, Duration::from_millis(500));
        let limits = level("level infinite").unwrap();
        assert!(limits.clock.is_none() && limits.movetime.is_none());
        let e = level("level depth=0").unwrap_err();
        assert!(
            e.contains("depth must be a whole number from 1 to 127"),
            "{e}"
        );
        let e = level("level move-time=-1").unwrap_err();
        assert!(e.contains("move-time must be a time in seconds"), "{e}");
        let e = level("level moves=0").unwrap_err();
        assert!(e.contains("moves must be a whole number from 1"), "{e}");
    }
}
