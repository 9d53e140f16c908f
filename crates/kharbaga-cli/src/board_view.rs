//! Drawing a position as a text board: every line of the board (the orthogonal lines between
//! grid points and both diagonals of every cell), coordinates on all four edges, the pieces,
//! and marks for a move (its points in brackets, the points it captured as `×`).
//!
//! The layout is a canvas of 35 x 17 characters: the point at doubled coordinates `(x, y)`
//! sits at column `1 + 4x` and row `2 (8 - y)`, so a cell is 8 columns by 4 rows (roughly
//! square in a terminal), the column on each side of a point is free for a mark, and each
//! half-diagonal is one character halfway between its two points. The lines are taken from
//! the library's own list of edges, so the drawing cannot disagree with the move generator.
//!
//! ```text
//!    a   b   c   d   e   f   g   h   i
//! 5  w───────w──────[·]──────b───────b  5
//!    │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │
//! 4  │   b   │   b   │   ×   │   b   │  4
//! ```

use kharbaga::board::edges;
use kharbaga::{Bitboard, Color, Move, Point, Position};
use std::fmt::Write as _;

/// Canvas width: columns 0..=34 (points at 1, 5, ..., 33, each with a free column each side).
const WIDTH: usize = 35;
/// Canvas height: rows 0..=16 (points on the even rows, rank 9 at the top).
const HEIGHT: usize = 17;

/// The canvas column of a point.
fn column(p: Point) -> usize {
    1 + 4 * usize::from(p.x())
}

/// The canvas row of a point.
fn row(p: Point) -> usize {
    2 * usize::from(8 - p.y())
}

/// What a character on the canvas shows, which decides its colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ink {
    /// Blank space.
    Blank,
    /// A line of the board or an empty point.
    Line,
    /// A piece of this colour.
    Piece(Color),
    /// The brackets around a marked point.
    Mark,
    /// A captured piece's point.
    Captured,
}

impl Ink {
    /// The ANSI SGR parameters of this ink (`None`: the terminal's default).
    fn sgr(self) -> Option<&'static str> {
        match self {
            Ink::Blank => None,
            Ink::Line => Some("90"),
            Ink::Piece(Color::Black) => Some("1;31"),
            Ink::Piece(Color::White) => Some("1;36"),
            Ink::Mark => Some("1;33"),
            Ink::Captured => Some("33"),
        }
    }
}

/// Points to mark on a drawing.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Points drawn in brackets (a move's start and landing points).
    pub highlight: Bitboard,
    /// Points drawn as `×` when empty (the pieces a move captured).
    pub captured: Bitboard,
}

impl Marks {
    /// The marks of a move that has been played: its start and landing points, and the
    /// points of the pieces it captured.
    pub fn of_move(mv: &Move) -> Marks {
        Marks {
            highlight: mv.points().collect(),
            captured: mv.captured(),
        }
    }
}

/// How to draw boards.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// Colour the pieces, lines and marks with ANSI escape sequences.
    pub color: bool,
}

impl BoardView {
    /// The board with its pieces and marks, one line per text row, each ending in a newline.
    ///
    /// Men are `b` and `w`, Mullahs `B` and `W`, an empty point `·`.
    pub fn render(&self, pos: &Position, marks: &Marks) -> String {
        let mut canvas = [[(' ', Ink::Blank); WIDTH]; HEIGHT];
        for (p, q) in edges() {
            let (c0, r0, c1, r1) = (column(p), row(p), column(q), row(q));
            if r0 == r1 {
                for cell in &mut canvas[r0][c0.min(c1) + 1..c0.max(c1)] {
                    *cell = ('─', Ink::Line);
                }
            } else if c0 == c1 {
                for line in &mut canvas[r0.min(r1) + 1..r0.max(r1)] {
                    line[c0] = ('│', Ink::Line);
                }
            } else {
                // One step right and one row-pair up or down: rising or falling to the right.
                let rising = (c1 > c0) == (r1 < r0);
                let ch = if rising { '╱' } else { '╲' };
                canvas[(r0 + r1) / 2][(c0 + c1) / 2] = (ch, Ink::Line);
            }
        }
        for p in Point::all() {
            let (c, r) = (column(p), row(p));
            canvas[r][c] = match pos.piece_at(p) {
                Some(piece) => (
                    piece_char(piece.color, piece.mullah),
                    Ink::Piece(piece.color),
                ),
                None if marks.captured.contains(p) => ('×', Ink::Captured),
                None => ('·', Ink::Line),
            };
            if marks.highlight.contains(p) {
                canvas[r][c - 1] = ('[', Ink::Mark);
                canvas[r][c + 1] = (']', Ink::Mark);
            }
        }
        let mut out = String::new();
        out.push_str(&self.files_row());
        for (r, cells) in canvas.iter().enumerate() {
            let rank = if r % 2 == 0 {
                char::from(b'9' - (r / 2) as u8)
            } else {
                ' '
            };
            out.push(rank);
            out.push(' ');
            if rank == ' ' {
                let end = cells
                    .iter()
                    .rposition(|(ch, _)| *ch != ' ')
                    .map_or(0, |i| i + 1);
                self.paint(&mut out, &cells[..end]);
            } else {
                self.paint(&mut out, cells);
                out.push(' ');
                out.push(rank);
            }
            out.push('\n');
        }
        out.push_str(&self.files_row());
        out
    }

    /// What the symbols of [`BoardView::render`] mean, as one line.
    pub fn legend(&self) -> String {
        let mut line = String::new();
        for (text, ink) in [
            ("b", Ink::Piece(Color::Black)),
            (" w", Ink::Piece(Color::White)),
            (" men   ", Ink::Blank),
            ("B", Ink::Piece(Color::Black)),
            (" W", Ink::Piece(Color::White)),
            (" Mullahs   ", Ink::Blank),
            ("[ ]", Ink::Mark),
            (" last move   ", Ink::Blank),
            ("×", Ink::Captured),
            (" captured", Ink::Blank),
        ] {
            self.paint_str(&mut line, text, ink);
        }
        line
    }

    /// The row of file letters above and below the board.
    fn files_row(&self) -> String {
        let mut row = String::from("  ");
        for x in 0..9u8 {
            let col = 1 + 4 * usize::from(x);
            while row.len() < col + 2 {
                row.push(' ');
            }
            row.push(char::from(b'a' + x));
        }
        row.push('\n');
        row
    }

    /// Appends canvas cells, with colour changes where the ink changes.
    fn paint(&self, out: &mut String, cells: &[(char, Ink)]) {
        if !self.color {
            out.extend(cells.iter().map(|(ch, _)| ch));
            return;
        }
        let mut current = Ink::Blank;
        for &(ch, ink) in cells {
            // Spaces need no colour; keeping the current one avoids needless escapes.
            if ink != current && ch != ' ' {
                out.push_str("\x1b[0m");
                if let Some(sgr) = ink.sgr() {
                    let _ = write!(out, "\x1b[{sgr}m");
                }
                current = ink;
            }
            out.push(ch);
        }
        if current != Ink::Blank {
            out.push_str("\x1b[0m");
        }
    }

    /// Appends a string in one ink.
    fn paint_str(&self, out: &mut String, text: &str, ink: Ink) {
        let cells: Vec<(char, Ink)> = text.chars().map(|ch| (ch, ink)).collect();
        self.paint(out, &cells);
    }
}

/// The letter of a piece: `b`/`w` for men, `B`/`W` for Mullahs.
pub fn piece_char(color: Color, mullah: bool) -> char {
    let letter = color.letter();
    if mullah {
        letter
    } else {
        letter.to_ascii_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain() -> BoardView {
        BoardView { color: false }
    }

    #[test]
    fn start_position_is_drawn_with_every_line() {
        // (The leading newline keeps the first row's indentation; it is sliced off.)
        // Written by hand from the layout: grid rows carry the orthogonal lines, the rows
        // between carry the file lines and one half-diagonal per half cell; centres have no
        // orthogonal line through them.
        let expected = &"
   a   b   c   d   e   f   g   h   i
9  w───────w───────w───────w───────w  9
   │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │
8  │   w   │   w   │   w   │   w   │  8
   │ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │
7  w───────w───────w───────w───────w  7
   │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │
6  │   w   │   w   │   w   │   w   │  6
   │ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │
5  w───────w───────·───────b───────b  5
   │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │
4  │   b   │   b   │   b   │   b   │  4
   │ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │
3  b───────b───────b───────b───────b  3
   │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │ ╲   ╱ │
2  │   b   │   b   │   b   │   b   │  2
   │ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │ ╱   ╲ │
1  b───────b───────b───────b───────b  1
   a   b   c   d   e   f   g   h   i
"[1..];
        assert_eq!(
            plain().render(&Position::start(), &Marks::default()),
            expected
        );
    }

    #[test]
    fn a_played_capture_is_marked() {
        // Black's man c3 took d4 (landing on e5) and f6 (landing on g7), then Black's other
        // man was promoted: a Mullah on i9. White has a Mullah on a1.
        let before = Position::from_fen("B:Bc3,Ki9:Wd4,f6,Ka1").unwrap();
        let rules = kharbaga::Rules::standard();
        let mv = before.parse_move(&rules, "c3xe5xg7").unwrap();
        let after = before.play(&mv);
        let text = plain().render(&after, &Marks::of_move(&mv));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "9  ·───────·───────·───────·───────B  9");
        assert_eq!(lines[5], "7  ·───────·───────·──────[b]──────·  7");
        assert_eq!(lines[7], "6  │   ·   │   ·   │   ×   │   ·   │  6");
        assert_eq!(lines[9], "5  ·───────·──────[·]──────·───────·  5");
        assert_eq!(lines[11], "4  │   ·   │   ×   │   ·   │   ·   │  4");
        assert_eq!(lines[13], "3  ·──────[·]──────·───────·───────·  3");
        assert_eq!(lines[17], "1  W───────·───────·───────·───────·  1");
    }

    #[test]
    fn colour_only_adds_escapes() {
        let colored = BoardView { color: true }.render(&Position::start(), &Marks::default());
        assert!(colored.contains("\x1b[1;31mb"), "black men are coloured");
        assert!(colored.contains("\x1b[1;36mw"), "white men are coloured");
        let stripped = strip_ansi(&colored);
        assert_eq!(
            stripped,
            plain().render(&Position::start(), &Marks::default())
        );
        assert_eq!(
            strip_ansi(&BoardView { color: true }.legend()),
            plain().legend()
        );
    }

    fn strip_ansi(s: &str) -> String {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }
}
