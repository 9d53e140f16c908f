//! The static evaluation: a linear function of features of the position, each weight
//! tapered between an opening value and an ending value by the number of pieces left.
//!
//! Features are counted from the side to move's point of view (its count minus the
//! opponent's), so one set of weights serves both colours. The same code either sums
//! weights (the search) or records the feature vector (the Texel tuner), through [`Sink`].

use kharbaga::board::{run_until, shift, Direction, JUMP_MASKS};
use kharbaga::{Bitboard, Color, Position, Rules};

/// Men on each point, seen from their own side (index 0 is its own a1 corner, 40 the far
/// corner): 41 features, which also carry the material value of a man.
pub const F_MAN_PST: usize = 0;
/// Mullahs.
pub const F_MULLAH: usize = 41;
/// Always 1: the value of having the move.
pub const F_TEMPO: usize = 42;
/// Having a Mullah when the opponent has none.
pub const F_SOLE_MULLAH: usize = 43;
/// Men that no enemy man can stop: nothing of the enemy stands in the cone ahead of
/// them (counted for both sides, as a difference).
pub const F_FREE_PATH: usize = 44;
/// Pieces of the opponent that the side to move could take with one hop, counted only
/// where capturing is optional (with compulsory capture the evaluation sees only quiet
/// positions, where it is 0).
pub const F_THREATENED_THEM: usize = 45;
/// The number of features.
pub const NUM_FEATURES: usize = 46;

/// Names of the features, for the tuner's output.
pub fn feature_name(f: usize) -> String {
    match f {
        F_MAN_PST..=40 => format!("man on {}", relative_point_name(f)),
        F_MULLAH => "mullah".into(),
        F_TEMPO => "tempo".into(),
        F_SOLE_MULLAH => "sole mullah".into(),
        F_FREE_PATH => "free path".into(),
        F_THREATENED_THEM => "threatened (opponent)".into(),
        _ => format!("feature {f}"),
    }
}

fn relative_point_name(i: usize) -> String {
    kharbaga::Point::new(i as u8).map_or_else(String::new, |p| p.to_string())
}

/// The phase scale: the phase is the number of pieces on the board, at most this.
pub const PHASE_MAX: i32 = 40;

/// Receives features as the evaluation walks the position.
pub trait Sink {
    /// Adds `value` occurrences of `feature`.
    fn add(&mut self, feature: usize, value: i32);
}

/// A set of weights: `[opening, ending]` per feature. The tuned ones are in
/// [`crate::weights`] ([`Weights::for_rules`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    table: [[i16; 2]; NUM_FEATURES],
    /// Each feature's pair in one word, the opening weight plus the ending weight times
    /// 2^32: one multiply-add sums both, exactly, while each sum stays within 32 bits
    /// (at most 41 features of 20 pieces times 2^15).
    packed: [i64; NUM_FEATURES],
}

const fn pack(w: [i16; 2]) -> i64 {
    w[0] as i64 + ((w[1] as i64) << 32)
}

impl Weights {
    /// Weights from their `[opening, ending]` pairs.
    pub const fn new(table: [[i16; 2]; NUM_FEATURES]) -> Weights {
        let mut packed = [0; NUM_FEATURES];
        let mut f = 0;
        while f < NUM_FEATURES {
            packed[f] = pack(table[f]);
            f += 1;
        }
        Weights { table, packed }
    }

    /// The `[opening, ending]` pair of each feature.
    pub fn table(&self) -> &[[i16; 2]; NUM_FEATURES] {
        &self.table
    }

    /// Sets the pair of one feature.
    pub fn set(&mut self, feature: usize, pair: [i16; 2]) {
        self.table[feature] = pair;
        self.packed[feature] = pack(pair);
    }

    /// Reads weights written as one `opening ending` pair per line (anything after `//`
    /// is a comment), one line per feature in order; lines that start with neither a
    /// number nor `[` are skipped, so the generated `weights.rs` itself can be read.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut w = [[0i16; 2]; NUM_FEATURES];
        let mut n = 0;
        for (line_no, line) in text.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("").trim();
            if !line.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '[') {
                continue;
            }
            if n >= NUM_FEATURES {
                return Err(format!(
                    "line {}: more than {NUM_FEATURES} weights",
                    line_no + 1
                ));
            }
            let nums: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']')
                .filter(|s| !s.is_empty())
                .collect();
            if nums.len() != 2 {
                return Err(format!(
                    "line {}: expected two numbers, found '{line}'",
                    line_no + 1
                ));
            }
            for k in 0..2 {
                w[n][k] = nums[k]
                    .parse()
                    .map_err(|_| format!("line {}: '{}' is not a number", line_no + 1, nums[k]))?;
            }
            n += 1;
        }
        if n != NUM_FEATURES {
            return Err(format!("found {n} weights, expected {NUM_FEATURES}"));
        }
        Ok(Weights::new(w))
    }
}

/// Sums the weights, opening and ending at once (see [`Weights`]'s packing).
struct Sum<'w> {
    weights: &'w Weights,
    packed: i64,
}

impl Sum<'_> {
    /// The opening and ending sums.
    fn sums(&self) -> (i32, i32) {
        let opening = self.packed as i32;
        let ending = ((self.packed - i64::from(opening)) >> 32) as i32;
        (opening, ending)
    }
}

impl Sink for Sum<'_> {
    #[inline]
    fn add(&mut self, feature: usize, value: i32) {
        self.packed += self.weights.packed[feature] * i64::from(value);
    }
}

/// A dense feature vector (for tuning).
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// The value of each feature.
    pub values: [i32; NUM_FEATURES],
    /// The phase: pieces on the board, `0..=PHASE_MAX`.
    pub phase: i32,
}

impl Sink for Features {
    fn add(&mut self, feature: usize, value: i32) {
        self.values[feature] += value;
    }
}

/// The point index seen from `color`'s side (Black's own view is the board as is; White's
/// is turned by half a turn).
#[inline]
fn relative(color: Color, index: usize) -> usize {
    match color {
        Color::Black => index,
        Color::White => 40 - index,
    }
}

/// The pieces of `!attacker` that `attacker` could take with a single hop, were it its turn.
pub fn single_hop_victims(pos: &Position, rules: &Rules, attacker: Color) -> Bitboard {
    let enemies = pos.pieces(!attacker);
    let empty = pos.empty();
    let men = pos.men(attacker);
    let mut victims = Bitboard::EMPTY;
    for &d in rules.man_capture_directions(attacker) {
        let over = shift(men & JUMP_MASKS[d.index()], d) & enemies;
        victims |= over & shift(empty, d.opposite());
    }
    let occupied = pos.occupied();
    for from in pos.mullahs(attacker) {
        for d in Direction::ALL {
            if let (_, Some(over)) = run_until(from, d, occupied) {
                if enemies.contains(over) && run_until(over, d, occupied).0.any() {
                    victims = victims.with(over);
                }
            }
        }
    }
    victims
}

/// The points ahead of each point for `color`: everything a man there could ever step to.
const fn build_cones(white: bool) -> [u64; 41] {
    let mut cones = [0u64; 41];
    // Walk points from the far side backwards so each cone builds on cones already done.
    let mut k = 0;
    while k < 41 {
        let i = if white { k } else { 40 - k };
        let (x, y) = ((i * 2) % 9, (i * 2) / 9);
        let mut cone = 0u64;
        let dy: i32 = if white { -1 } else { 1 };
        // Forward moves: diagonal from every point, straight from grid points.
        let mut dx = -1i32;
        while dx <= 1 {
            let step_y = if dx == 0 { 2 * dy } else { dy };
            let grid = y % 2 == 0;
            if dx != 0 || grid {
                let nx = x as i32 + dx;
                let ny = y as i32 + step_y;
                if nx >= 0 && nx <= 8 && ny >= 0 && ny <= 8 {
                    let j = ((ny * 9 + nx) / 2) as usize;
                    cone |= (1u64 << j) | cones[j];
                }
            }
            dx += 1;
        }
        cones[i] = cone;
        k += 1;
    }
    cones
}

const CONES: [[u64; 41]; 2] = [build_cones(false), build_cones(true)];

/// Walks the features of `pos` into `sink`, from the side to move's point of view.
pub fn walk<S: Sink>(pos: &Position, rules: &Rules, sink: &mut S) {
    let us = pos.turn();
    let them = !us;
    for (color, sign) in [(us, 1), (them, -1)] {
        let enemy = pos.pieces(!color).0;
        let cones = &CONES[color.index()];
        let mut free = 0;
        for p in pos.men(color) {
            sink.add(F_MAN_PST + relative(color, p.index()), sign);
            free += i32::from(cones[p.index()] & enemy == 0);
        }
        let mullahs = pos.mullahs(color).count() as i32;
        sink.add(F_MULLAH, sign * mullahs);
        if mullahs > 0 && pos.mullahs(!color).is_empty() {
            sink.add(F_SOLE_MULLAH, sign);
        }
        sink.add(F_FREE_PATH, sign * free);
    }
    sink.add(F_TEMPO, 1);
    if !rules.capture_compulsory {
        let victims = single_hop_victims(pos, rules, us).count() as i32;
        sink.add(F_THREATENED_THEM, victims);
    }
}

/// The phase of `pos`: the pieces on the board, capped at [`PHASE_MAX`].
#[inline]
pub fn phase(pos: &Position) -> i32 {
    (pos.occupied().count() as i32).min(PHASE_MAX)
}

/// The feature vector of `pos`.
pub fn features(pos: &Position, rules: &Rules) -> Features {
    let mut f = Features {
        values: [0; NUM_FEATURES],
        phase: phase(pos),
    };
    walk(pos, rules, &mut f);
    f
}

/// Blends an opening and an ending value by the phase.
#[inline]
pub fn taper(opening: i32, ending: i32, phase: i32) -> i32 {
    (opening * phase + ending * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The evaluation of `pos` in centi-men from the side to move's point of view.
pub fn evaluate(pos: &Position, rules: &Rules, weights: &Weights) -> i32 {
    let mut sum = Sum { weights, packed: 0 };
    walk(pos, rules, &mut sum);
    let (opening, ending) = sum.sums();
    taper(opening, ending, phase(pos)).clamp(-crate::score::MAX_EVAL, crate::score::MAX_EVAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kharbaga::Point;

    fn pt(s: &str) -> usize {
        s.parse::<Point>().unwrap().index()
    }

    #[test]
    fn the_start_is_balanced_apart_from_the_move() {
        // The start position is symmetric under the half turn that swaps the colours, so
        // every feature cancels except the side to move's own counts.
        let f = features(&Position::start(), &Rules::standard());
        for (i, v) in f.values.iter().enumerate() {
            if i != F_TEMPO {
                assert_eq!(*v, 0, "{}", feature_name(i));
            }
        }
        assert_eq!(f.values[F_TEMPO], 1);
        assert_eq!(f.phase, 40);
    }

    #[test]
    fn colour_symmetry() {
        // The half-turned position with the other side to move evaluates the same.
        let pos = Position::from_fen("B:Bc3,e3,Kd6:Wg7,e5,h8").unwrap();
        let turned = Position::from_fen("W:Bc3,e5,b2:Wg7,e7,Kf4").unwrap();
        let rules = Rules::standard();
        assert_eq!(features(&pos, &rules), features(&turned, &rules));
        let w = Weights::for_rules(&rules);
        assert_eq!(evaluate(&pos, &rules, w), evaluate(&turned, &rules, w));
    }

    #[test]
    fn the_packed_sums_are_the_separate_sums() {
        // The evaluation sums opening and ending weights packed in one word; it must give
        // what the feature vector times each column gives, also with the largest weights
        // (and the most negative) on positions with many pieces of one kind.
        let mut extreme = [[0i16; 2]; NUM_FEATURES];
        for (f, pair) in extreme.iter_mut().enumerate() {
            *pair = if f % 2 == 0 {
                [i16::MAX, i16::MIN]
            } else {
                [i16::MIN, i16::MAX]
            };
        }
        let positions = [
            "B:Ba1,c1,e1,g1,i1,b2,d2,f2,h2,a3,c3,e3,g3,i3,b4,d4,f4,h4,a5,c5:Wi9",
            "W:BKa1,Kc1,Ke1,Kg1,Ki1,Kb2,Kd2,Kf2,Kh2,Ka3,Kc3,Ke3,Kg3,Ki3,Kb4,Kd4,Kf4,Kh4,Ka5,Kc5:Wi9",
            "B:Bc3,e3,Kd6:Wg7,e5,h8",
        ];
        for rules in [Rules::standard(), Rules::ludii()] {
            for table in [*Weights::for_rules(&rules).table(), extreme] {
                let weights = Weights::new(table);
                for fen in positions {
                    let pos = Position::from_fen(fen).unwrap();
                    let f = features(&pos, &rules);
                    let column = |k: usize| -> i32 {
                        f.values
                            .iter()
                            .zip(&table)
                            .map(|(&v, w)| v * i32::from(w[k]))
                            .sum()
                    };
                    let mut sum = Sum {
                        weights: &weights,
                        packed: 0,
                    };
                    walk(&pos, &rules, &mut sum);
                    assert_eq!(sum.sums(), (column(0), column(1)), "{fen}");
                    let expected = taper(column(0), column(1), f.phase)
                        .clamp(-crate::score::MAX_EVAL, crate::score::MAX_EVAL);
                    assert_eq!(evaluate(&pos, &rules, &weights), expected, "{fen}");
                }
            }
        }
    }

    #[test]
    fn weights_parse_back() {
        let weights = Weights::for_rules(&Rules::standard());
        let text: String = weights
            .table()
            .iter()
            .map(|[a, b]| format!("[{a}, {b}], // comment\n"))
            .collect();
        assert_eq!(&Weights::parse(&text).unwrap(), weights);
        let err = Weights::parse("1 2\n3 x\n").unwrap_err();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn threatened_pieces_count_only_where_capture_is_optional() {
        // Black man e3 can hop d4 (to c5) but not f4 (g5 is occupied).
        let pos = Position::from_fen("B:Be3:Wd4,f4,g5").unwrap();
        let d4 = Point::new(pt("d4") as u8).unwrap();
        let standard = Rules::standard();
        assert_eq!(
            single_hop_victims(&pos, &standard, Color::Black),
            Bitboard::from_point(d4)
        );
        assert_eq!(features(&pos, &standard).values[F_THREATENED_THEM], 0);
        let ludii = Rules::named("ludii").unwrap();
        assert!(!ludii.capture_compulsory);
        assert_eq!(features(&pos, &ludii).values[F_THREATENED_THEM], 1);
    }

    #[test]
    fn cones_point_forward() {
        // A black man on e7 can reach d8, e9, f8, and the points beyond d8/f8 (c9, g9).
        let cone = CONES[0][pt("e7")];
        let names: Vec<String> = kharbaga::Bitboard(cone)
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(names, ["d8", "f8", "c9", "e9", "g9"]);
        assert_eq!(CONES[1][pt("e3")].count_ones(), 5);
        assert_eq!(CONES[0][pt("a9")], 0);
    }
}
