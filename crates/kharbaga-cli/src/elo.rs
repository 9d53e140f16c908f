//! Match statistics: the Elo difference a score suggests, its 95% interval, and the
//! sequential probability ratio test (SPRT) for testing a change.
//!
//! Elo is logistic: a player expected to score `p` per game is `-400 log10(1/p - 1)` Elo
//! stronger. The interval treats games as independent trials with three outcomes
//! (trinomial): the score per game has variance `sigma^2 = (W (1-p)^2 + D (1/2-p)^2 +
//! L p^2) / N`, and `p +- 1.96 sqrt(sigma^2 / N)` is turned into Elo.
//!
//! The SPRT counts game pairs (the same opening with both colours), as fishtest does: each
//! pair scores 0, 1/4, 1/2, 3/4 or 1 per game (pentanomial). With `s` the mean and
//! `sigma^2` the variance of the pair scores over `N` pairs, and `s0`, `s1` the scores that
//! `elo0` and `elo1` predict, the log-likelihood ratio is the generalised SPRT
//! approximation (M. Van den Bergh) `LLR = N (s1 - s0) (2 s - s0 - s1) / (2 sigma^2)`. It is
//! compared with the bounds `ln(beta / (1 - alpha))` (accept H0: the change is at most
//! `elo0`) and `ln((1 - beta) / alpha)` (accept H1: at least `elo1`). As in fishtest, a pair
//! score never seen counts 0.001 times so that the variance is never zero.

use std::fmt;

/// The Elo difference of a player expected to score `p` (0 to 1) per game; infinite at 0
/// and 1.
pub fn elo_of_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The score per game that an Elo difference predicts.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Wins, draws and losses of the first player.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score per game, 0 to 1 (a draw is a half); `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// The Elo difference and its 95% interval `(elo, low, high)` from the trinomial
    /// variance; `None` before any game. Bounds past a score of 0 or 1 are infinite.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let p = self.score()?;
        let n = f64::from(self.games());
        let variance = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        let margin = 1.96 * (variance / n).sqrt();
        Some((
            elo_of_score(p),
            elo_of_score(p - margin),
            elo_of_score(p + margin),
        ))
    }

    /// When every game was won (or every game lost) the Elo estimate is infinite; this is
    /// the one-sided 95% bound that remains: a player scoring `q` per game wins `n` games in
    /// a row with chance at most `q^n`, which is 5% at `q = 0.05^(1/n)`. `None` otherwise.
    pub fn sweep_bound(&self) -> Option<f64> {
        let n = f64::from(self.games());
        let q = 0.05f64.powf(1.0 / n);
        if self.games() > 0 && self.wins == self.games() {
            Some(elo_of_score(q))
        } else if self.games() > 0 && self.losses == self.games() {
            Some(-elo_of_score(q))
        } else {
            None
        }
    }
}

/// Game pairs by their total score for the first player: 0, 1/2, 1, 3/2, 2 points in two
/// games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair scoring `half_points` half points (0 to 4) in its two games.
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`); 0 before any pair.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = self
            .0
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { f64::from(c) })
            .collect();
        let n: f64 = counts.iter().sum();
        let value = |i: usize| i as f64 / 4.0;
        let mean = counts
            .iter()
            .enumerate()
            .map(|(i, c)| c * value(i))
            .sum::<f64>()
            / n;
        let variance = counts
            .iter()
            .enumerate()
            .map(|(i, c)| c * (value(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }
}

/// The parameters of an SPRT.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis.
    pub elo0: f64,
    /// The Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What an SPRT concluded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR fell to the lower bound: the change is not `elo1` better (H0).
    H0,
    /// The LLR rose to the upper bound: the change is at least about `elo1` better (H1).
    H1,
}

impl Sprt {
    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict for this LLR, if it crossed a bound.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (low, high) = self.bounds();
        if llr <= low {
            Some(Verdict::H0)
        } else if llr >= high {
            Some(Verdict::H1)
        } else {
            None
        }
    }
}

impl std::str::FromStr for Sprt {
    type Err = String;

    /// Reads `elo0=0,elo1=10,alpha=0.05,beta=0.05` (any order; alpha and beta default to
    /// 0.05).
    fn from_str(text: &str) -> Result<Sprt, String> {
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta) = (0.05, 0.05);
        for part in text.split(',') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not KEY=VALUE"))?;
            let number: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("'{value}' is not a number (in '{part}')"))?;
            match key.trim() {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                other => {
                    return Err(format!(
                        "unknown SPRT parameter '{other}' (elo0, elo1, alpha, beta)"
                    ))
                }
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("the SPRT needs elo0 and elo1, e.g. elo0=0,elo1=10".to_string());
        };
        if elo1 <= elo0 {
            return Err(format!("elo1 ({elo1}) must be above elo0 ({elo0})"));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name} must be between 0 and 0.5, not {p}"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// An Elo figure for people: signed with one decimal, or `+inf` / `-inf`.
pub fn elo_text(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{elo:+.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_a_score() {
        // 75%: -400 log10(1/0.75 - 1) = 400 log10(3) = 190.849.
        assert!(close(elo_of_score(0.75), 190.849, 1e-3));
        assert_eq!(elo_of_score(0.5), 0.0);
        assert!(close(elo_of_score(0.25), -190.849, 1e-3));
        // 1 / (1 + 10^(-1/2)) = 0.759747 for +200.
        assert!(close(score_of_elo(200.0), 0.759747, 1e-6));
        assert!(close(elo_of_score(score_of_elo(-123.4)), -123.4, 1e-9));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_text(f64::NEG_INFINITY), "-inf");
        assert_eq!(elo_text(190.849), "+190.8");
    }

    #[test]
    fn the_trinomial_interval() {
        // +60 =30 -10: p = 0.75. Variance per game (60 * 0.25^2 + 30 * 0.25^2 + 10 * 0.75^2)
        // / 100 = 0.1125, standard error sqrt(0.1125 / 100) = 0.033541, so p lies in
        // 0.75 +- 0.065740 = [0.684260, 0.815740]: -400 log10(1/p - 1) gives +134.36 and
        // +258.45.
        let wdl = Wdl {
            wins: 60,
            draws: 30,
            losses: 10,
        };
        let (elo, low, high) = wdl.elo().unwrap();
        assert!(close(elo, 190.849, 1e-3));
        assert!(close(low, 134.356, 1e-3), "{low}");
        assert!(close(high, 258.449, 1e-3), "{high}");
        assert_eq!(Wdl::default().elo(), None);
        // All draws: no spread, the interval is the point.
        let draws = Wdl {
            draws: 10,
            ..Wdl::default()
        };
        assert_eq!(draws.elo(), Some((0.0, 0.0, 0.0)));
    }

    #[test]
    fn a_sweep_has_only_a_one_sided_bound() {
        let sweep = Wdl {
            wins: 200,
            ..Wdl::default()
        };
        assert_eq!(sweep.elo().unwrap().0, f64::INFINITY);
        // 0.05^(1/200) = 0.985133, which is +728.5 Elo.
        assert!(close(sweep.sweep_bound().unwrap(), 728.5, 0.1));
        let lost = Wdl {
            losses: 200,
            ..Wdl::default()
        };
        assert!(close(lost.sweep_bound().unwrap(), -728.5, 0.1));
        assert_eq!(
            Wdl {
                wins: 1,
                draws: 1,
                losses: 0
            }
            .sweep_bound(),
            None
        );
    }

    #[test]
    fn the_llr_of_a_worked_example() {
        // Pairs scoring 0, 1/4, 1/2, 3/4, 1 per game: 1, 2, 5, 3, 2 times (13 pairs).
        // Mean 7.25 / 13 = 0.557692; mean of squares 5.0625 / 13 = 0.389423; variance
        // 0.389423 - 0.557692^2 = 0.078402. s0 = 0.5 (0 Elo), s1 = 1 / (1 + 10^-0.025)
        // = 0.514387 (10 Elo). LLR = 13 * 0.014387 * (1.115385 - 1.014387) / (2 * 0.078402)
        // = 0.12047.
        let pairs = Pentanomial([1, 2, 5, 3, 2]);
        assert_eq!(pairs.pairs(), 13);
        assert!(close(pairs.llr(0.0, 10.0), 0.12047, 1e-5));
        // Symmetric results favour neither hypothesis more than the midpoint: with s
        // exactly 0.5 the LLR is N (s1 - s0)(s0 - s1) / (2 sigma^2) < 0.
        assert!(Pentanomial([1, 2, 4, 2, 1]).llr(0.0, 10.0) < 0.0);
        assert_eq!(Pentanomial::default().llr(0.0, 10.0), 0.0);
        let mut p = Pentanomial::default();
        p.add(4);
        p.add(4);
        assert_eq!(p, Pentanomial([0, 0, 0, 0, 2]));
    }

    #[test]
    fn sprt_bounds_and_parsing() {
        let sprt: Sprt = "elo0=0,elo1=10,alpha=0.05,beta=0.05".parse().unwrap();
        // ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = 2.944439.
        let (low, high) = sprt.bounds();
        assert!(close(low, -2.944439, 1e-6) && close(high, 2.944439, 1e-6));
        assert_eq!(sprt.verdict(3.0), Some(Verdict::H1));
        assert_eq!(sprt.verdict(-3.0), Some(Verdict::H0));
        assert_eq!(sprt.verdict(0.5), None);
        assert_eq!("elo1=5,elo0=-5".parse::<Sprt>().unwrap().alpha, 0.05);
        for (bad, why) in [
            ("elo0=0", "needs elo0 and elo1"),
            ("elo0=10,elo1=0", "must be above"),
            ("elo0=0,elo1=10,alpha=0.7", "alpha must be"),
            ("elo0=0,elo1=ten", "'ten' is not a number"),
            ("elo0=0,elo1=10,gamma=1", "unknown SPRT parameter 'gamma'"),
            ("elo0", "not KEY=VALUE"),
        ] {
            let e = bad.parse::<Sprt>().unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
