//! Time controls: the time each side starts with and the time added after each move, as
//! written `MIN+INC` (`5+3`: five minutes, three seconds a move).

use std::fmt;
use std::time::Duration;

/// A time control: the time each side starts with and the time added after each move.
///
/// ```
/// use kharbaga::TimeControl;
/// use std::time::Duration;
/// let tc: TimeControl = "5+3".parse().unwrap();
/// assert_eq!(tc.base, Duration::from_secs(300));
/// assert_eq!(tc.increment, Duration::from_secs(3));
/// assert_eq!(tc.to_string(), "5+3");
/// assert!("0+5".parse::<TimeControl>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The time on each clock at the start.
    pub base: Duration,
    /// The time added to a clock after each of its side's moves.
    pub increment: Duration,
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// Reads `MIN+INC` (minutes and seconds, whole or decimal) or `MIN`: the minutes above 0
    /// and at most 600, the seconds at most 3600.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let (minutes, seconds) = text.split_once('+').unwrap_or((text, "0"));
        let read = |part: &str, what: &str, max: f64| {
            part.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| (0.0..=max).contains(v))
                .ok_or_else(|| {
                    format!("'{text}' is not MIN+INC: {what} must be a number from 0 to {max}")
                })
        };
        let base = read(minutes, "the minutes", 600.0)?;
        let increment = read(seconds, "the seconds of increment", 3600.0)?;
        if base == 0.0 {
            return Err(format!(
                "'{text}' gives no time: the minutes must be above 0"
            ));
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(base * 60.0),
            increment: Duration::from_secs_f64(increment),
        })
    }
}

impl fmt::Display for TimeControl {
    /// Writes `MIN+INC`, reading back as the same control (to the millisecond).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minutes = self.base.as_millis() as f64 / 60_000.0;
        let seconds = self.increment.as_millis() as f64 / 1000.0;
        write!(f, "{minutes}+{seconds}")
    }
}

/// A clock reading, e.g. `4:05.3` (minutes, seconds and tenths).
///
/// ```
/// use std::time::Duration;
/// assert_eq!(kharbaga::clock_text(Duration::from_millis(245_350)), "4:05.3");
/// ```
pub fn clock_text(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_read_and_write_back() {
        for text in ["5+3", "10+0", "0.5+0", "0.02+0.5", "600+3600"] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.to_string().parse::<TimeControl>(), Ok(tc), "{text}");
        }
        assert_eq!("10".parse::<TimeControl>().unwrap().to_string(), "10+0");
        assert_eq!(
            "0.5+1.5".parse::<TimeControl>().unwrap(),
            TimeControl {
                base: Duration::from_secs(30),
                increment: Duration::from_millis(1500)
            }
        );
    }

    #[test]
    fn bad_controls_are_refused_with_the_reason() {
        for (text, words) in [
            ("0+3", "no time"),
            ("x+3", "the minutes"),
            ("5+y", "the seconds"),
            ("601+0", "the minutes"),
            ("5+-1", "the seconds"),
        ] {
            let e = text.parse::<TimeControl>().unwrap_err();
            assert!(e.contains(words), "{text}: {e}");
        }
    }
}
