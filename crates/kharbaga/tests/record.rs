//! Game records: writing, reading, round trips, errors with their places, robustness.

use kharbaga::{
    parse_many, Color, Game, GameResult, MoveError, PlayError, Position, Reason, Record,
    RecordError, RecordErrorKind, Rules, TagError,
};

/// Plays moves written in notation; returns the game.
fn game_from(rules: Rules, fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::from_position(rules, Position::from_fen(fen).unwrap());
    for mv in moves {
        game.play_str(mv).unwrap();
    }
    game
}

/// The legal moves of the game's current position, sorted, in notation.
fn legal(game: &Game) -> Vec<String> {
    let mut names: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    names.sort();
    names
}

/// A parse that must fail: its line, column and kind.
fn error(text: &str) -> (usize, usize, RecordErrorKind) {
    let e = Record::parse(text).unwrap_err();
    (e.line, e.column, e.kind)
}

/// The 24 plies of `tests/data/records/club-game.pdn`: White wins because the last black man
/// is shut in.
const CLUB_GAME: [&str; 24] = [
    "e3-e5",
    "e7xe3",
    "e1xe5",
    "c5xe3xe7",
    "c3-d4",
    "a5xc3xe5",
    "g5xc5",
    "c7xc3xe1",
    "f2-e3",
    "e1xe5",
    "g1-f2",
    "e5-d4",
    "h4-g5",
    "d4xg1",
    "i1xe1",
    "f6xh4xf2",
    "e1xg3",
    "e7-e5",
    "i3-h4",
    "i7xi3xe3xg5xi3xg1",
    "a3-a5",
    "a7xa3",
    "a1xa5xc7",
    "g1xa1xc3",
];

/// The study of `tests/data/records/mullah-endgame.pdn`, White to move first.
const STUDY_FEN: &str = "W:BKa1,c3,e3,Kg3,d4:WKi9,a7,e7,g7,b8,h8";

#[test]
fn writes_a_short_game_as_constructed_by_hand() {
    let mut game = Game::new(Rules::standard());
    // Only e5 is empty at the start, so every black move goes there.
    assert_eq!(legal(&game), ["d4-e5", "e3-e5", "f4-e5"]);
    game.play_str("d4-e5").unwrap();
    // The man on e5 must be taken; only f6 has the point behind it (d4) empty.
    assert_eq!(legal(&game), ["f6xd4"]);
    game.play_str("f6xd4").unwrap();
    // Black must take d4: c3 jumps it to the emptied e5.
    assert_eq!(legal(&game), ["c3xe5"]);
    game.play_str("c3xe5").unwrap();
    // a5 jumps b4 into the emptied c3.
    assert_eq!(legal(&game), ["a5xc3"]);
    game.play_str("a5xc3").unwrap();
    // c3 can be jumped from b2 (to the empty d4) or from d2 (to the empty b4); and e5 can
    // jump c5 sideways along rank 5 to the emptied a5.
    assert_eq!(legal(&game), ["b2xd4", "d2xb4", "e5xa5"]);
    game.play_str("d2xb4").unwrap();

    // Tags given out of order: the known ones are written in their order, others after.
    let record = Record::from_game(
        &game,
        &[
            ("White", "Sidi"),
            ("Annotator", "Z"),
            ("Date", "2024.05.??"),
            ("Event", "Hand test"),
            ("Black", "Amina"),
        ],
    )
    .unwrap();
    let expected = "\
[Event \"Hand test\"]
[Date \"2024.05.??\"]
[Black \"Amina\"]
[White \"Sidi\"]
[Result \"*\"]
[Rules \"standard\"]
[Annotator \"Z\"]

1. d4-e5 f6xd4 2. c3xe5 a5xc3 3. d2xb4 *
";
    assert_eq!(record.to_pdn(), expected);
    assert_eq!(record.result(), GameResult::Unfinished);
    assert_eq!(record.tag("white"), Some("Sidi"));
    assert_eq!(Record::parse(expected).unwrap(), record);
}

#[test]
fn a_game_from_a_position_with_white_to_move_writes_fen_and_ellipsis() {
    let mut game = game_from(Rules::standard(), STUDY_FEN, &[]);
    // White has no capture (its men are not next to a black piece with the point behind
    // empty, and the Mullah on i9 sees none), so it steps.
    game.play_str("e7-f6").unwrap();
    // The black Mullah takes four: a7 (up the a file to a9), b8 (to c7), g7 along rank 7
    // (e7 is empty now, landing on i7), h8 (to g9). It is the only legal move.
    assert_eq!(legal(&game), ["a1xa9xc7xi7xg9"]);
    game.play_str("a1xg9").unwrap(); // the short form
                                     // The white Mullah takes four: g9 (along rank 9 to c9), c3 (down the c file to c1),
                                     // e3 (up the diagonal to f4), g3 (on to h2).
    game.play_str("i9xc9xc1xf4xh2").unwrap();
    game.play_str("d4-c5").unwrap();
    game.play_str("h2-e5").unwrap();
    // c5 jumps e5 to g5, then f6 to e7: White has nothing left.
    game.play_str("c5xg5xe7").unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));

    let record = Record::from_game(&game, &[("Event", "Study")]).unwrap();
    let expected = "\
[Event \"Study\"]
[Result \"1-0\"]
[Rules \"standard\"]
[FEN \"W:BKa1,c3,e3,Kg3,d4:Wa7,e7,g7,b8,h8,Ki9\"]
[Termination \"Black wins: White has no pieces left\"]

1... e7-f6 2. a1xa9xc7xi7xg9 i9xc9xc1xf4xh2 3. d4-c5 h2-e5 4. c5xg5xe7 1-0
";
    assert_eq!(record.to_pdn(), expected);
    let read = Record::parse(expected).unwrap();
    assert_eq!(read, record);
    assert_eq!(read.game().start().turn(), Color::White);
}

#[test]
fn movetext_wraps_greedily_at_80_columns() {
    let game = game_from(Rules::standard(), "start", &CLUB_GAME);
    let text = Record::from_game(&game, &[]).unwrap().to_pdn();
    let movetext: Vec<&str> = text.split("\n\n").nth(1).unwrap().lines().collect();
    assert!(movetext.len() >= 2, "{text}");
    for (i, line) in movetext.iter().enumerate() {
        assert!(line.chars().count() <= 80, "line too long: {line}");
        assert!(
            !line.ends_with('.'),
            "a move number is parted from its move: {line}"
        );
        if let Some(next) = movetext.get(i + 1) {
            // Greedy: the next line's first move (with its number) would not have fitted.
            let words: Vec<&str> = next.split(' ').collect();
            let unit = if words[0].ends_with('.') {
                format!("{} {}", words[0], words[1])
            } else {
                words[0].to_string()
            };
            assert!(line.len() + 1 + unit.len() > 80, "{line} | {unit}");
        }
    }
    let words: Vec<&str> = movetext.iter().flat_map(|l| l.split(' ')).collect();
    let moves: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !w.ends_with('.') && *w != "0-1")
        .collect();
    assert_eq!(moves, CLUB_GAME);
    assert_eq!(words.last(), Some(&"0-1"));
}

#[test]
fn round_trips_keep_tags_start_moves_result_and_comments() {
    let club = game_from(Rules::standard(), "start", &CLUB_GAME);
    let mut resigned = game_from(Rules::standard(), "start", &["d4-e5", "f6xd4"]);
    resigned.resign(Color::Black);
    let mut agreed = game_from(Rules::ludii(), STUDY_FEN, &["e7-f6"]);
    agreed.agree_draw();
    let immediate: Rules = "standard,removal=immediate".parse().unwrap();
    let cases = [
        Record::from_game(&club, &[("Site", "Atar"), ("Round", "1")]).unwrap(),
        Record::from_game(&resigned, &[]).unwrap(),
        Record::from_game(&agreed, &[("Opening", "Study")]).unwrap(),
        Record::from_game(&Game::new(immediate), &[]).unwrap(),
        Record::from_game(
            &Game::new(Rules::standard()),
            &[
                ("Annotator", "Said \"the fox\" \\ co"),
                (
                    "Site",
                    "Tidjikja, \u{645}\u{648}\u{631}\u{64a}\u{62a}\u{627}\u{646}\u{64a}\u{627}",
                ),
            ],
        )
        .unwrap(),
    ];
    for record in &cases {
        let text = record.to_pdn();
        assert_eq!(&Record::parse(&text).unwrap(), record, "{text}");
    }
    assert_eq!(cases[1].result(), GameResult::WhiteWins);
    assert_eq!(
        cases[1].tag("Termination"),
        Some("White wins: Black resigned")
    );
    assert!(
        cases[1].game().outcome().is_none(),
        "the game holds the board only"
    );
    assert_eq!(cases[2].result(), GameResult::Draw);
    assert_eq!(cases[2].game().rules(), &Rules::ludii());
    assert!(cases[3]
        .to_pdn()
        .contains("[Rules \"standard,removal=immediate\"]\n"));
    assert!(cases[4]
        .to_pdn()
        .contains("[Annotator \"Said \\\"the fox\\\" \\\\ co\"]\n"));

    // Comments are kept, at their place in the moves, with whitespace tidied.
    let text = "{before}  1. d4-e5 {a   forced\n reply} f6xd4 {} *";
    let record = Record::parse(text).unwrap();
    let comments: Vec<(usize, &str)> = record
        .comments()
        .iter()
        .map(|c| (c.ply, c.text.as_str()))
        .collect();
    assert_eq!(comments, [(0, "before"), (1, "a forced reply"), (2, "")]);
    assert!(record
        .to_pdn()
        .ends_with("\n\n{before} 1. d4-e5 {a forced reply} 1... f6xd4 {} *\n"));
    assert_eq!(Record::parse(&record.to_pdn()).unwrap(), record);
}

#[test]
fn mullah_captures_read_in_short_form_or_any_path_are_written_in_full() {
    // A black Mullah on a1 takes d4 up the long diagonal, and must go on to take g5 too
    // (majority rule): from e5 along rank 5 to i5, from f6 down the diagonal to h4 or i3,
    // from g7 down file g to g3 or g1.
    let read = Record::parse("[FEN \"B:BKa1:Wd4,g5\"]\n1. a1xi5 1-0").unwrap();
    assert_eq!(read.game().moves()[0].to_string(), "a1xe5xi5");
    assert!(read.to_pdn().ends_with("\n1. a1xe5xi5 1-0\n"));
    for short in ["a1xh4", "a1xf6xh4"] {
        let text = format!("[FEN \"B:BKa1:Wd4,g5\"]\n1. {short} *");
        // Ends as 1-0: White has no pieces left after the move, so `*` is wrong...
        assert!(matches!(
            Record::parse(&text).unwrap_err().kind,
            RecordErrorKind::WrongResult {
                written: GameResult::Unfinished,
                ..
            }
        ));
        // ...and with the right result it reads the full path.
        let ok = Record::parse(&text.replace('*', "1-0")).unwrap();
        assert_eq!(ok.game().moves()[0].to_string(), "a1xf6xh4");
    }

    // The man on c5 goes round the triangle e3, g5 and back to c5, taking d4, f4, e5; the
    // reverse route is the same move, and the short form c5xc5 names it too.
    for written in ["c5xe3xg5xc5", "c5xg5xe3xc5", "c5xc5"] {
        let text = format!("[FEN \"B:Bc5:Wd4,f4,e5\"]\n\n1. {written} 1-0\n");
        let record = Record::parse(&text).unwrap();
        assert_eq!(record.game().moves()[0].to_string(), "c5xe3xg5xc5");
        assert!(record.to_pdn().ends_with("\n\n1. c5xe3xg5xc5 1-0\n"));
        assert_eq!(Record::parse(&record.to_pdn()).unwrap(), record);
    }
}

#[test]
fn a_win_by_no_moves_gets_its_result_and_termination() {
    let game = game_from(Rules::standard(), "start", &CLUB_GAME);
    // At the end Black has one man, on c7: the points ahead of it (b8, c9, d8) are white,
    // and so are the points behind the pieces next to it (a9 behind b8, e9 behind d8, e5
    // behind d6; c9 is on the edge). Black cannot move and loses.
    let pos = game.position();
    assert_eq!(pos.turn(), Color::Black);
    assert_eq!(pos.pieces(Color::Black).count(), 1);
    assert!(pos.pieces(Color::Black).contains("c7".parse().unwrap()));
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(
        outcome.reason,
        Reason::NoMoves {
            loser: Color::Black,
            no_pieces: false
        }
    );
    let record = Record::from_game(&game, &[]).unwrap();
    assert_eq!(record.result(), GameResult::WhiteWins);
    let text = record.to_pdn();
    assert!(text.starts_with(
        "[Result \"0-1\"]\n[Rules \"standard\"]\n[Termination \"White wins: Black has no legal move\"]\n\n"
    ));
    assert!(text.ends_with(" 0-1\n"));

    // Read without a result anywhere, the result is the board's; with a wrong one it fails.
    let bare = text
        .replace("[Result \"0-1\"]\n", "")
        .replace(" 0-1\n", "\n");
    let read = Record::parse(&bare).unwrap();
    assert_eq!(read.result(), GameResult::WhiteWins);
    assert_eq!(read, record);
    let wrong = text
        .replace(" 0-1\n", " 1-0\n")
        .replace("\"0-1\"", "\"1-0\"");
    let (line, column, kind) = error(&wrong);
    let last = wrong.lines().count();
    assert_eq!(line, last);
    assert_eq!(column, wrong.lines().last().unwrap().len() - 2);
    assert_eq!(
        kind,
        RecordErrorKind::WrongResult {
            written: GameResult::BlackWins,
            outcome
        }
    );
}

#[test]
fn declared_results_on_an_unfinished_board_are_kept() {
    for (token, result) in [
        ("1-0", GameResult::BlackWins),
        ("0-1", GameResult::WhiteWins),
        ("1/2-1/2", GameResult::Draw),
        ("*", GameResult::Unfinished),
        ("2-0", GameResult::BlackWins),
        ("0-2", GameResult::WhiteWins),
        ("1-1", GameResult::Draw),
    ] {
        let record = Record::parse(&format!("1. d4-e5 f6xd4 {token}")).unwrap();
        assert_eq!(record.result(), result);
        assert_eq!(record.tag("Termination"), None);
    }
    // Without a result token the tag decides, and without either the game is unfinished.
    let record = Record::parse("[Result \"1/2-1/2\"]\n1. d4-e5 f6xd4").unwrap();
    assert_eq!(record.result(), GameResult::Draw);
    assert_eq!(
        Record::parse("d4-e5").unwrap().result(),
        GameResult::Unfinished
    );
}

#[test]
fn lenient_reading() {
    // Move numbers may be left out or glued to the move, `N...` may come before any White
    // move, known tag names may be in any case, lines may end in CRLF.
    let texts = [
        "d4-e5 f6xd4 c3xe5 *",
        "1.d4-e5 1...f6xd4 2. c3xe5 *",
        "1. d4-e5 f6xd4\r\n2. c3xe5\r\n*\r\n",
        "[rules \"standard\"]\r\n[EVENT \"x\"]\r\n\r\n1. d4-e5 f6xd4 2. c3xe5 *",
    ];
    for text in texts {
        let record = Record::parse(text).unwrap();
        let moves: Vec<String> = record
            .game()
            .moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(moves, ["d4-e5", "f6xd4", "c3xe5"], "{text}");
    }
    assert_eq!(Record::parse(texts[3]).unwrap().tag("Event"), Some("x"));
    // A byte order mark is skipped, and columns do not count it.
    assert_eq!(
        Record::parse("\u{feff}1. d4-e5 *")
            .unwrap()
            .game()
            .moves()
            .len(),
        1
    );
    assert_eq!(
        (error("\u{feff}1. d4-e7 *").0, error("\u{feff}1. d4-e7 *").1),
        (1, 4)
    );
}

#[test]
fn tag_errors_say_where() {
    use RecordErrorKind::*;
    assert_eq!(
        error("[ \"x\"]"),
        (1, 3, TagSyntax("expected a tag name after '['"))
    );
    assert_eq!(
        error("[Event x]"),
        (
            1,
            8,
            TagSyntax("expected a value in quotes after the tag name")
        )
    );
    assert_eq!(
        error("[Event \"x\"\n1. e3-e5 *"),
        (1, 11, TagSyntax("expected ']' after the tag value"))
    );
    assert_eq!(
        error("[Event \"x\"] [Site \"y\"]"),
        (1, 13, TagSyntax("text after ']' (one tag per line)"))
    );
    assert_eq!(
        error("[Event \"a\\nb\"]"),
        (
            1,
            10,
            TagSyntax("a backslash in a value must be followed by '\"' or '\\'")
        )
    );
    assert_eq!(
        error("[Site \"s\"]\n[Event \"abc]\n1. e3-e5 *"),
        (2, 8, UnterminatedString)
    );
    assert_eq!(
        error("[Event \"x\"]\n\n1. e3-e5 {oops e7xe3 *"),
        (3, 10, UnterminatedComment)
    );
    assert_eq!(
        error("[9x \"y\"]"),
        (1, 2, Tag(TagError::BadName("9x".into())))
    );
    assert_eq!(
        error("[Date \"2024.13.01\"]"),
        (1, 8, Tag(TagError::BadDate("2024.13.01".into())))
    );
    assert_eq!(
        error("[Event \"a\"]\n[event \"b\"]"),
        (2, 1, Tag(TagError::Duplicate("Event".into())))
    );
    assert_eq!(
        error("[Event \"a\tb\"]"),
        (1, 9, Tag(TagError::ControlCharacter("Event".into())))
    );
    let (line, column, kind) = error("[Event \"\u{e9}t\u{e9}\"]\n[Rules \"standrd\"]\n*");
    assert_eq!((line, column), (2, 9));
    assert!(matches!(kind, Rules(_)));
    assert!(
        kind.to_string().contains("unknown rule set 'standrd'"),
        "{kind}"
    );
    // The FEN error points into the value: a2 is not a point.
    let (line, column, kind) = error("[FEN \"B:Ba1,a2:Wa9\"]\n*");
    assert_eq!((line, column), (1, 13));
    let Fen(fen) = &kind else { panic!("{kind:?}") };
    assert_eq!(fen.column, 7);
    assert!(kind.to_string().contains("there is no point a2"), "{kind}");
    assert_eq!(error("[Result \"2-1\"]"), (1, 10, BadResult("2-1".into())));
}

#[test]
fn move_errors_say_where_and_why() {
    use RecordErrorKind::*;
    let e = Record::parse("[Event \"x\"]\n\n1. e3-e7 *").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3, column 4: move 1 (Black): e3-e7 is not legal here: the piece on e3 has no such move; legal: e3-e5"
    );
    let Move {
        number: 1,
        color: Color::Black,
        error: PlayError::Move(MoveError::Illegal { candidates, .. }),
    } = e.kind
    else {
        panic!("{:?}", e.kind)
    };
    assert_eq!(candidates, ["e3-e5"]);

    // A syntax error inside a move points at the bad point name.
    let (line, column, kind) = error("1. d4-e5 f6xz4 *");
    assert_eq!((line, column), (1, 13));
    assert!(matches!(
        kind,
        Move {
            number: 1,
            color: Color::White,
            error: PlayError::Move(MoveError::Syntax { column: 4, .. })
        }
    ));

    // The Mullah on b4 can reach i7 by two routes that take different pieces: over c5 to
    // d6, h2 to i1, i5 to i7; or over c5 to e7, h4 to i3, i5 to i7.
    let (line, column, kind) = error("[FEN \"B:BKb4:Wh2,h4,c5,i5\"]\n\n1. b4xi7 *");
    assert_eq!((line, column), (3, 4));
    let Move {
        error: PlayError::Move(MoveError::Ambiguous { candidates, .. }),
        ..
    } = &kind
    else {
        panic!("{kind:?}")
    };
    assert_eq!(candidates, &["b4xd6xi1xi7", "b4xe7xi3xi7"]);
    assert!(
        kind.to_string().contains("b4xd6xi1xi7 or b4xe7xi3xi7"),
        "{kind}"
    );

    // After c3xe5 White has no pieces: a further move is after the end of the game.
    let (line, column, kind) = error("[FEN \"B:Bc3:Wd4\"]\n1. c3xe5 d4-c3 1-0");
    assert_eq!((line, column), (2, 10));
    let Move {
        number: 1,
        color: Color::White,
        error: PlayError::GameOver(outcome),
    } = kind
    else {
        panic!("{kind:?}")
    };
    assert_eq!(outcome.winner, Some(Color::Black));
}

#[test]
fn move_number_errors() {
    use RecordErrorKind::*;
    let wrong = |written: &str, expected: &str| MoveNumber {
        written: written.into(),
        expected: expected.into(),
    };
    assert_eq!(
        error("1. d4-e5 f6xd4 3. c3xe5 *"),
        (1, 16, wrong("3.", "2."))
    );
    assert_eq!(error("1... d4-e5 *"), (1, 1, wrong("1...", "1.")));
    assert_eq!(
        error("123456789012345678901234567890. d4-e5 *"),
        (1, 1, wrong("123456789012345678901234567890.", "1."))
    );
    // White moves first here: its first move is 1..., and Black's reply is 2.
    assert_eq!(
        error("[FEN \"W:Bc3,e3:Wd4,e7\"]\n2... d4xb2 *"),
        (2, 1, wrong("2...", "1..."))
    );
    assert_eq!(
        error("[FEN \"W:Bc3,e3:Wd4,e7\"]\n1... d4xb2 1. e3-e5 *"),
        (2, 12, wrong("1.", "2."))
    );
}

#[test]
fn result_and_structure_errors() {
    use RecordErrorKind::*;
    assert_eq!(
        error("[Result \"1-0\"]\n\n1. d4-e5 *"),
        (
            3,
            10,
            ResultMismatch {
                tag: GameResult::BlackWins,
                token: GameResult::Unfinished
            }
        )
    );
    // c3xe5 takes White's only piece: the result is 1-0, whatever is written.
    for written in ["0-1", "1/2-1/2", "*"] {
        let (line, column, kind) = error(&format!("[FEN \"B:Bc3:Wd4\"]\n\n1. c3xe5 {written}"));
        assert_eq!((line, column), (3, 10));
        let WrongResult { outcome, .. } = kind else {
            panic!("{kind:?}")
        };
        assert_eq!(outcome.winner, Some(Color::Black));
    }
    let (line, column, kind) = error("[FEN \"B:Bc3:Wd4\"]\n[Result \"0-1\"]\n\n1. c3xe5");
    assert_eq!((line, column), (2, 10));
    assert!(matches!(
        kind,
        WrongResult {
            written: GameResult::WhiteWins,
            ..
        }
    ));
    assert_eq!(
        kind.to_string(),
        "the result 0-1 contradicts the final position: Black wins: White has no pieces left"
    );

    let (line, column, kind) = error("1. d4-e5 (f6xd4) *");
    assert_eq!((line, column), (1, 10));
    assert!(matches!(kind, Unexpected(_)));
    assert_eq!(
        error("1. d4-e5 12x *"),
        (
            1,
            10,
            Unexpected("'12x' is neither a move number nor a result".into())
        )
    );
    assert_eq!(
        error("1. d4-e5\n} *"),
        (2, 1, Unexpected("unexpected '}' in the moves".into()))
    );
    assert_eq!(error(""), (1, 1, NoGame));
    assert_eq!(error("\n  {only a comment}\n"), (3, 1, NoGame));
    assert_eq!(error("1. d4-e5 *\n\n[Event \"b\"]\n*"), (3, 1, SecondGame));
}

#[test]
fn from_game_checks_its_tags() {
    let game = Game::new(Rules::standard());
    let err = |tags: &[(&str, &str)]| Record::from_game(&game, tags).unwrap_err();
    assert_eq!(
        err(&[("Result", "1-0")]),
        TagError::Derived("Result".into())
    );
    assert_eq!(err(&[("fen", "start")]), TagError::Derived("FEN".into()));
    assert_eq!(
        err(&[("Rules", "ludii")]),
        TagError::Derived("Rules".into())
    );
    assert_eq!(
        err(&[("Event", "a"), ("EVENT", "b")]),
        TagError::Duplicate("Event".into())
    );
    assert_eq!(err(&[("1st", "a")]), TagError::BadName("1st".into()));
    assert_eq!(err(&[("", "a")]), TagError::BadName("".into()));
    assert_eq!(err(&[("My Tag", "a")]), TagError::BadName("My Tag".into()));
    assert_eq!(
        err(&[("Event", "two\nlines")]),
        TagError::ControlCharacter("Event".into())
    );
    for date in [
        "2024-05-01",
        "2024.5.01",
        "24.05.01",
        "2024.00.01",
        "2024.05.32",
        "2024.0?.01",
    ] {
        assert_eq!(err(&[("Date", date)]), TagError::BadDate(date.into()));
    }
    for date in ["2024.05.01", "????.??.??", "1952.12.31", "2024.??.??"] {
        assert!(
            Record::from_game(&game, &[("Date", date)]).is_ok(),
            "{date}"
        );
    }
}

#[test]
fn parse_many_reads_games_one_after_the_other() {
    let one = Record::from_game(&game_from(Rules::standard(), "start", &CLUB_GAME), &[]).unwrap();
    let two = Record::from_game(&game_from(Rules::dagaz(), STUDY_FEN, &["e7-f6"]), &[]).unwrap();
    let three = Record::from_game(&Game::new(Rules::sideways()), &[("Event", "empty")]).unwrap();
    let text = format!("{}\n{}\n{}", one.to_pdn(), two.to_pdn(), three.to_pdn());
    assert_eq!(parse_many(&text).unwrap(), [one, two, three]);
    assert_eq!(parse_many("").unwrap(), []);
    assert_eq!(parse_many(" \n{a note}\n").unwrap(), []);
    // Games without tags, ended by their results, and a game whose result is missing ends
    // where the next game's tags begin.
    let games = parse_many("d4-e5 * e3-e5 e7xe3 1/2-1/2\n1. f4-e5\n[Event \"x\"]\n*").unwrap();
    let counts: Vec<usize> = games.iter().map(|r| r.game().moves().len()).collect();
    assert_eq!(counts, [1, 2, 1, 0]);
    // An error in a later game gives its own line.
    let e = parse_many("1. d4-e5 *\n\n1. e3-e5 e7-e5 *").unwrap_err();
    assert_eq!((e.line, e.column), (3, 10));
}

#[test]
fn sample_records_parse() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records/");
    let read = |name: &str| {
        let text = std::fs::read_to_string(format!("{dir}{name}")).unwrap();
        let records = parse_many(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        for record in &records {
            assert_eq!(&Record::parse(&record.to_pdn()).unwrap(), record, "{name}");
        }
        records
    };
    let club = read("club-game.pdn");
    assert_eq!(club.len(), 1);
    assert_eq!(club[0].tag("Black"), Some("Amina"));
    assert_eq!(club[0].result(), GameResult::WhiteWins);
    let moves: Vec<String> = club[0]
        .game()
        .moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(moves, CLUB_GAME);
    assert_eq!(club[0].comments().len(), 2);

    let study = read("mullah-endgame.pdn");
    assert_eq!(study.len(), 1);
    assert_eq!(
        study[0].game().start(),
        &Position::from_fen(STUDY_FEN).unwrap()
    );
    assert_eq!(study[0].game().moves().len(), 6);
    assert_eq!(study[0].game().moves()[1].to_string(), "a1xa9xc7xi7xg9");
    assert_eq!(study[0].result(), GameResult::BlackWins);

    let several = read("several.pdn");
    let summary: Vec<(Option<&str>, Rules, usize, GameResult)> = several
        .iter()
        .map(|r| {
            (
                r.tag("Event"),
                *r.game().rules(),
                r.game().moves().len(),
                r.result(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                Some("Ludii check"),
                Rules::ludii(),
                5,
                GameResult::BlackWins
            ),
            (
                Some("Dagaz check"),
                Rules::dagaz(),
                24,
                GameResult::WhiteWins
            ),
            (
                Some("Resigned"),
                Rules::standard(),
                3,
                GameResult::BlackWins
            ),
            (
                Some("Adjourned"),
                Rules::standard(),
                1,
                GameResult::Unfinished
            ),
        ]
    );
}

/// A tiny xorshift generator, so the mutations are the same on every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Checks that a parse result is sensible: an error inside the text, or records that read
/// back the same from their own text.
fn check_parse(text: &str) {
    match parse_many(text) {
        Ok(records) => {
            for record in records {
                let written = record.to_pdn();
                assert_eq!(
                    Record::parse(&written).as_ref(),
                    Ok(&record),
                    "{text:?}\n{written}"
                );
            }
        }
        Err(RecordError { line, column, kind }) => {
            assert!(
                line >= 1 && line <= text.split('\n').count(),
                "{kind} {text:?}"
            );
            assert!(column >= 1, "{text:?}");
        }
    }
    let _ = Record::parse(text);
}

#[test]
fn mutated_records_never_panic() {
    let base = format!(
        "{}\n{}\n[Annotator \"a \\\"b\\\" \\\\\"]\n[FEN \"{STUDY_FEN}\"]\n\n1... e7-f6 {{x}} 2. a1xg9 i9xh2 *\n",
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records/club-game.pdn")).unwrap(),
        "1. d4-e5 f6xd4 2. c3xe5 1-0\n",
    );
    check_parse(&base);
    let specials: &[&[u8]] = &[
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"",
        b"\\",
        b"\n",
        b"(",
        b"1.",
        b"...",
        b"x",
        b"-",
        b"*",
        b"1-0",
        b"0-1",
        b"e5",
        b"9",
        b" ",
        "\u{e9}".as_bytes(),
        &[0xff],
        &[0xc3],
    ];
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for _ in 0..3000 {
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len() + 1);
            match rng.below(4) {
                0 if at < bytes.len() => {
                    let len = 1 + rng.below(8).min(bytes.len() - at - 1);
                    bytes.drain(at..at + len);
                }
                1 => {
                    let piece = specials[rng.below(specials.len())];
                    bytes.splice(at..at, piece.iter().copied());
                }
                2 if at < bytes.len() => bytes[at] = rng.next() as u8,
                _ => bytes.insert(at, rng.next() as u8),
            }
        }
        check_parse(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn hostile_inputs_give_errors() {
    let deep = |s: &str| s.repeat(20_000);
    for text in [
        deep("{"),
        deep("("),
        deep("["),
        deep("[a \"\\\\"),
        deep("1."),
        format!("{} d4-e5 *", "9".repeat(50_000)),
        format!("1. {} *", "d4-e5x".repeat(10_000)),
        format!("[Event \"{}\"]\n*", "\u{1F600}".repeat(10_000)),
        "\u{feff}\u{200b}1.\u{a0}d4-e5 *".to_string(),
        "\0\0\0".to_string(),
    ] {
        check_parse(&text);
    }
    assert!(Record::parse(&deep("{")).is_err());
    assert!(Record::parse(&deep("(")).is_err());
}
