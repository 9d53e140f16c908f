//! The page in a real browser: headless Chromium driven over WebDriver (chromedriver).
//! Install both with `scripts/install-browser-deps.sh`; without them this test fails.
//!
//! It opens the page, starts a game against the engine, plays by clicking and by dragging,
//! sees the engine answer, reloads and finds the game as it was; then enters a two-hop
//! capture by clicking its landing points (the jumped piece shown as a ghost in between);
//! last, a position the endgame tables hold (the server has those of up to 2 pieces) shows
//! their values, and the hint is the tables' move.
//! Screenshots of a desktop and a phone-sized window are written to
//! `target/tmp/kharbaga-desktop.png`, `kharbaga-phone.png`, `kharbaga-result.png` and
//! `kharbaga-tables.png`.

mod common;
mod webdriver;

use common::{fresh_dir, test_config, TestServer, TestTables};
use fantoccini::Client;
use std::time::Duration;
use webdriver::{
    click_id, click_point, count, drag, load_position, moves_shown, screenshot, start_driver,
    text_of, wait_for, wait_moves, with_browser,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_against_the_engine_in_a_browser() {
    let tables = TestTables::build(2).await;
    let server = TestServer::start_with(kharbaga_server::Config {
        tables: Some(tables.tables.clone()),
        ..test_config(fresh_dir("browser"))
    })
    .await;
    let driver = start_driver().await;
    let base = server.base.clone();
    with_browser(&driver, |c| async move { play(&c, &base).await }).await;
}

async fn play(c: &Client, base: &str) {
    // A fresh browser has no game yet: the page offers a new one.
    c.goto(&format!("{base}/")).await.unwrap();
    wait_for(
        c,
        "the new-game dialog",
        "return document.getElementById('dlg-new').open && ui.meta !== null",
        |v| v == true,
    )
    .await;
    // Against the engine at level 1, as Black, Black starts.
    c.execute(
        "document.getElementById('level').value = '1';
         document.querySelector('input[name=colour][value=black]').checked = true;
         document.querySelector('input[name=first][value=me]').checked = true;",
        vec![],
    )
    .await
    .unwrap();
    click_id(c, "new-start").await;
    let url = wait_for(c, "the game's address", "return location.pathname", |v| {
        v.as_str().is_some_and(|p| p.starts_with("/game/"))
    })
    .await;
    let id = url
        .as_str()
        .unwrap()
        .trim_start_matches("/game/")
        .to_string();
    wait_moves(c, 0).await;
    assert_eq!(
        count(c, "#board g.movable").await,
        3,
        "e3, d4 and f4 can move"
    );

    // An illegal click (an empty point, then a White piece) does nothing.
    click_point(c, "e5").await;
    click_point(c, "e7").await;
    assert_eq!(count(c, "#board .sel-ring").await, 0);
    // Click d4, see its one target, click it: d4-e5.
    click_point(c, "d4").await;
    assert_eq!(count(c, "#board .sel-ring").await, 1);
    assert_eq!(count(c, "#board .target").await, 1);
    click_point(c, "e5").await;
    // The engine must answer f6xd4 (its only legal move).
    let shown = wait_moves(c, 2).await;
    assert_eq!(shown, ["d4-e5", "f6xd4"]);
    // Now Black must capture: c3 is marked, and c3xe5 is the only move.
    assert_eq!(count(c, "#board .must-ring").await, 1);
    // Drag and drop c3 to e5.
    drag(c, "c3", "e5").await;
    let shown = wait_moves(c, 4).await;
    assert_eq!(shown, ["d4-e5", "f6xd4", "c3xe5", "a5xc3"]);
    // The last move is drawn.
    assert_eq!(count(c, "#board .lastmove").await, 1);
    let status = text_of(c, "status").await;
    assert!(status.contains("Black to move"), "{status}");
    // A hint: the best move drawn on the board, the line and the evaluation bar.
    click_id(c, "btn-hint").await;
    wait_for(
        c,
        "the hint",
        "return ui.hintFor === ui.game.ply && !ui.busy && !document.getElementById('evalbar').hidden",
        |v| v == true,
    )
    .await;
    let hint = text_of(c, "hint").await;
    assert!(
        hint.contains("Best move:") && hint.contains("Expected line:"),
        "{hint}"
    );
    assert_eq!(count(c, "#board .hintline").await, 1);
    screenshot(c, "kharbaga-desktop.png").await;

    // Reload: the same game, the same moves, still ours to play.
    c.refresh().await.unwrap();
    let shown = wait_moves(c, 4).await;
    assert_eq!(shown, ["d4-e5", "f6xd4", "c3xe5", "a5xc3"]);
    assert_eq!(c.current_url().await.unwrap().path(), format!("/game/{id}"));
    assert_eq!(
        count(c, "#board g.movable").await,
        3,
        "b2, d2 and e5 can capture"
    );

    // Step back through the game and forward again.
    click_id(c, "nav-first").await;
    assert_eq!(
        count(c, "#board g.movable").await,
        0,
        "no moving in the past"
    );
    assert_eq!(count(c, "#board circle.pc-black").await, 20);
    click_id(c, "nav-last").await;
    assert_eq!(count(c, "#board circle.pc-black").await, 18);

    // Take back: a move pair against the engine.
    click_id(c, "btn-undo").await;
    let shown = wait_moves(c, 2).await;
    assert_eq!(shown, ["d4-e5", "f6xd4"]);

    // The phone-sized page.
    c.set_window_size(390, 844).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(c, "kharbaga-phone.png").await;
    c.set_window_size(1280, 900).await.unwrap();

    // A two-person game from a position string: the Mullah on a1 (docs/rules.md) has five
    // captures of two pieces; clicking f6 leaves two continuations, with d4 a ghost.
    click_id(c, "btn-load").await;
    c.execute(
        "document.querySelector('input[name=opponent][value=person]').checked = true;
         document.getElementById('source').value = 'B:BKa1:Wd4,g5';
         document.getElementById('form-new').dispatchEvent(new Event('input'));",
        vec![],
    )
    .await
    .unwrap();
    click_id(c, "new-start").await;
    wait_for(c, "the second game", "return location.pathname", |v| {
        v.as_str().is_some_and(|p| p != format!("/game/{id}"))
    })
    .await;
    wait_moves(c, 0).await;
    let hidden = c.execute("return document.getElementById('tables').hidden", vec![]);
    assert_eq!(hidden.await.unwrap(), true, "3 pieces: not in the tables");
    click_point(c, "a1").await;
    assert_eq!(count(c, "#board .target-capture").await, 3, "e5, f6, g7");
    click_point(c, "f6").await;
    assert_eq!(count(c, "#board .ghost").await, 1, "d4 is a ghost");
    assert_eq!(count(c, "#board .target-capture").await, 2, "h4, i3");
    assert!(moves_shown(c).await.is_empty(), "not played yet");
    click_point(c, "i3").await;
    let shown = wait_moves(c, 1).await;
    assert_eq!(shown, ["a1xf6xi3"]);
    let status = text_of(c, "status").await;
    assert!(
        status.contains("Black wins: White has no pieces left"),
        "{status}"
    );
    assert_eq!(
        count(c, "#board polygon.crown-black").await,
        1,
        "the Mullah wears a crown"
    );
    screenshot(c, "kharbaga-result.png").await;

    // Two pieces, in the tables: the Mullah on e5 takes c3 at once, landing on a1 or b2.
    load_position(c, "B:BKe5:Wc3").await;
    let shown = wait_for(
        c,
        "the table values",
        "const t = document.getElementById('tables');
         return t.hidden ? null : document.getElementById('tables-value').textContent",
        |v| v.is_string(),
    )
    .await;
    assert_eq!(shown, "Endgame tables: Black wins in 1 ply.");
    let moves: Vec<String> = serde_json::from_value(
        c.execute(
            "return [...document.querySelectorAll('#tables-moves li')].map(li => li.textContent)",
            vec![],
        )
        .await
        .unwrap(),
    )
    .unwrap();
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(sorted, ["e5xa1 win 1", "e5xb2 win 1"]);
    click_point(c, "e5").await;
    assert_eq!(count(c, "#tables-moves li.sel").await, 2, "both are e5's");
    click_point(c, "e5").await;
    assert_eq!(count(c, "#tables-moves li.sel").await, 0, "let go");
    // The hint is the tables' move, with their value.
    click_id(c, "btn-hint").await;
    wait_for(
        c,
        "the tables' hint",
        "return ui.hintFor === ui.game.ply && !ui.busy",
        |v| v == true,
    )
    .await;
    let hint = text_of(c, "hint").await;
    assert!(
        hint.contains("From the endgame tables: Black wins in 1 ply"),
        "{hint}"
    );
    assert_eq!(count(c, "#board .hintline").await, 1);
    c.execute(
        "document.getElementById('tables').scrollIntoView({block: 'end'})",
        vec![],
    )
    .await
    .unwrap();
    screenshot(c, "kharbaga-tables.png").await;
    // Played: the game is over and the table values go.
    click_point(c, "e5").await;
    click_point(c, "a1").await;
    wait_moves(c, 1).await;
    assert_eq!(
        c.execute("return document.getElementById('tables').hidden", vec![])
            .await
            .unwrap(),
        true
    );
}
