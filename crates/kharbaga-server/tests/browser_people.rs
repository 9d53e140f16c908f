//! Two people playing each other in real browsers (driven as in `tests/webdriver`): an
//! invitation link taken by the first to open it (a second opener watches), moves and a
//! draw offer seen live by the opponent and a watcher, the clocks counting down and a flag,
//! a draw by agreement, a rematch with the colours swapped, a resignation, an abort.
//! Screenshots of the new screens, at desktop and phone sizes, are written to
//! `target/screenshots/`.

mod common;
mod webdriver;

use common::TestServer;
use fantoccini::Client;
use serde_json::{json, Value};
use webdriver::{
    click_id, click_point, start_driver, text_of, wait_for, wait_moves, with_browsers,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_play_each_other_through_an_invitation() {
    let server = TestServer::start("browser-people").await;
    let driver = start_driver().await;
    let base = server.base.clone();
    with_browsers(&driver, 3, |c| async move {
        let (alice, bob, watcher) = (&c[0], &c[1], &c[2]);
        invitation_draw_and_rematch(alice, bob, watcher, &base).await;
        flag_and_abort(alice, bob, &base).await;
    })
    .await;
}

/// Saves a screenshot at desktop (1280x900) and phone (390x844) sizes in
/// `target/screenshots/<name>-desktop.png` and `-phone.png`.
async fn screenshots(c: &Client, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target folder")
        .join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    for (size, w, h) in [("desktop", 1280, 900), ("phone", 390, 844)] {
        c.set_window_size(w, h).await.unwrap();
        // Let the page lay itself out at the new size.
        wait_for(c, "the new size", "return window.innerWidth", |v| {
            v.as_u64().is_some_and(|x| x <= u64::from(w))
        })
        .await;
        let png = c.screenshot().await.unwrap();
        let path = dir.join(format!("{name}-{size}.png"));
        std::fs::write(&path, png).unwrap();
        println!("screenshot: {}", path.display());
    }
    c.set_window_size(1280, 900).await.unwrap();
}

/// Creates a game against a person elsewhere from the new-game dialog, Black first, with
/// `clock` (a value of the clock list, or another added to it); returns the invitation link.
async fn invite(c: &Client, base: &str, colour: &str, clock: &str) -> String {
    c.goto(&format!("{base}/")).await.unwrap();
    wait_for(c, "the page", "return ui.meta !== null", |v| v == true).await;
    c.execute(
        "if (!document.getElementById('dlg-new').open) document.getElementById('btn-new').click();
         document.querySelector('input[name=opponent][value=remote]').checked = true;
         document.querySelector('input[name=colour][value=' + arguments[0] + ']').checked = true;
         const list = document.getElementById('clock');
         if (![...list.options].some(o => o.value === arguments[1])) list.add(new Option(arguments[1], arguments[1]));
         list.value = arguments[1];
         document.querySelector('input[name=first][value=' + (arguments[0] === 'black' ? 'me' : 'other') + ']').checked = true;
         document.getElementById('form-new').dispatchEvent(new Event('input'));",
        vec![json!(colour), json!(clock)],
    )
    .await
    .unwrap();
    let shown = c
        .execute(
            "const shown = (sel) => document.querySelector(sel).offsetParent !== null;
             return shown('.remote-only') && shown('.colour-box') && !shown('#level')",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        shown, true,
        "the clocks and the colour are asked for, not the level"
    );
    if clock == "5+3" {
        screenshots(c, "people-new-game").await;
    }
    click_id(c, "new-start").await;
    let link = wait_for(
        c,
        "the invitation link",
        "const box = document.getElementById('invite');
         return box.hidden ? null : document.getElementById('invite-link').value",
        |v| v.is_string(),
    )
    .await;
    let link = link.as_str().unwrap().to_string();
    assert!(
        link.starts_with(&format!("{base}/game/")) && link.contains("#join="),
        "{link}"
    );
    link
}

/// What the clock of `color` shows.
async fn clock(c: &Client, color: &str) -> String {
    let v = c
        .execute(
            "return document.querySelector('.player-bar .clock[data-color=' + arguments[0] + ']').textContent",
            vec![json!(color)],
        )
        .await
        .unwrap();
    v.as_str().unwrap().to_string()
}

/// Waits until the page's game has this status.
async fn wait_status(c: &Client, status: &str) -> Value {
    wait_for(
        c,
        &format!("status {status}"),
        "return ui.game && !ui.busy ? ui.game : null",
        |v| v["status"] == status,
    )
    .await
}

/// Waits until the status line says `words`.
async fn wait_says(c: &Client, words: &str) -> String {
    let v = wait_for(
        c,
        &format!("the status line to say '{words}'"),
        "return document.getElementById('status').textContent",
        |v| v.as_str().is_some_and(|t| t.contains(words)),
    )
    .await;
    v.as_str().unwrap().to_string()
}

/// Waits until the button with this id shows, then clicks it.
async fn click_when_shown(c: &Client, id: &str) {
    wait_for(
        c,
        &format!("the button #{id}"),
        &format!("const b = document.getElementById('{id}'); return !b.hidden && !b.disabled"),
        |v| v == true,
    )
    .await;
    click_id(c, id).await;
}

async fn invitation_draw_and_rematch(alice: &Client, bob: &Client, watcher: &Client, base: &str) {
    let link = invite(alice, base, "black", "5+3").await;
    assert!(text_of(alice, "people-note")
        .await
        .contains("Send this link"));
    screenshots(alice, "people-invitation").await;
    click_id(alice, "btn-copy-invite").await;
    let said = wait_for(
        alice,
        "the copy's toast",
        "return document.getElementById('toast').textContent",
        |v| {
            v.as_str()
                .is_some_and(|t| t.contains("copied") || t.contains("by hand"))
        },
    )
    .await;
    println!("copy: {said}");

    // Bob opens the link first: White is his, with a token of his own.
    bob.goto(&link).await.unwrap();
    let state = wait_status(bob, "playing").await;
    assert_eq!(state["person"]["joined"], true);
    let seat = bob
        .execute("return [ui.side, !!ui.token, location.hash]", vec![])
        .await
        .unwrap();
    assert_eq!(
        seat,
        json!(["white", true, ""]),
        "the secret leaves the address bar"
    );
    wait_status(alice, "playing").await;
    let invite_shown = alice
        .execute(
            "return document.getElementById('invite').offsetParent !== null",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(invite_shown, false, "the link goes once the seat is taken");
    // The watcher opens it too, later: the seat is taken, he watches.
    watcher.goto(&link).await.unwrap();
    wait_for(
        watcher,
        "the refusal",
        "return document.getElementById('toast').textContent",
        |v| v.as_str().is_some_and(|t| t.contains("already taken")),
    )
    .await;
    wait_moves(watcher, 0).await;
    assert_eq!(
        watcher.execute("return ui.token", vec![]).await.unwrap(),
        Value::Null
    );
    assert!(text_of(watcher, "status").await.starts_with("Watching"));

    // Moves, seen live by the opponent and the watcher. Bob cannot move Black's pieces.
    click_point(bob, "d4").await;
    let sel = bob.execute("return ui.sel", vec![]).await.unwrap();
    assert_eq!(
        sel,
        Value::Null,
        "White's player does not pick up a black man"
    );
    click_point(alice, "d4").await;
    click_point(alice, "e5").await;
    assert_eq!(wait_moves(bob, 1).await, ["d4-e5"]);
    assert_eq!(wait_moves(watcher, 1).await, ["d4-e5"]);
    click_point(bob, "f6").await;
    click_point(bob, "d4").await;
    assert_eq!(wait_moves(alice, 2).await, ["d4-e5", "f6xd4"]);
    assert_eq!(wait_moves(watcher, 2).await, ["d4-e5", "f6xd4"]);

    // From the second move on, Black's clock runs, on every page.
    for c in [alice, bob, watcher] {
        let first = wait_for(
            c,
            "Black's clock running",
            "const b = document.querySelector('.player-bar .clock[data-color=black]');
             return b.classList.contains('running') ? b.textContent : null",
            |v| v.is_string(),
        )
        .await;
        wait_for(
            c,
            "Black's clock to go down",
            "return document.querySelector('.player-bar .clock[data-color=black]').textContent",
            |v| v.is_string() && *v != first,
        )
        .await;
    }
    assert_eq!(clock(alice, "white").await, "5:00");
    screenshots(watcher, "people-watcher").await;

    // Bob offers a draw; Alice sees it live and accepts.
    click_when_shown(bob, "btn-draw").await;
    wait_for(
        alice,
        "the offer",
        "return document.getElementById('people-note').textContent",
        |v| v.as_str().is_some_and(|t| t.contains("offers a draw")),
    )
    .await;
    screenshots(alice, "people-draw-offer").await;
    click_when_shown(alice, "btn-accept").await;
    for c in [alice, bob, watcher] {
        wait_says(c, "Draw by agreement").await;
    }
    screenshots(bob, "people-draw").await;

    // The rematch: the colours swapped, both seated.
    click_when_shown(alice, "btn-rematch").await;
    let rematch = wait_for(
        alice,
        "the rematch",
        "return ui.game && ui.game.rematch_of ? [ui.game.id, ui.side] : null",
        |v| v.is_array(),
    )
    .await;
    assert_eq!(rematch[1], "white");
    click_when_shown(bob, "btn-to-rematch").await;
    let seat = wait_for(
        bob,
        "Bob in the rematch",
        "return ui.game && ui.game.rematch_of ? [ui.game.id, ui.side] : null",
        |v| v.is_array(),
    )
    .await;
    assert_eq!(seat, json!([rematch[0], "black"]));
    // Black moves first: Bob now. Then he resigns (two clicks).
    click_point(bob, "d4").await;
    click_point(bob, "e5").await;
    assert_eq!(wait_moves(alice, 1).await, ["d4-e5"]);
    click_when_shown(bob, "btn-resign").await;
    assert_eq!(text_of(bob, "btn-resign").await, "Click again to resign");
    click_id(bob, "btn-resign").await;
    let said = wait_says(alice, "Black resigned").await;
    assert!(said.contains("White wins"), "{said}");
    screenshots(alice, "people-resigned").await;
}

async fn flag_and_abort(alice: &Client, bob: &Client, base: &str) {
    // 1.2 s each: the first two moves are not timed, then Black's clock runs out.
    let link = invite(alice, base, "black", "0.02+0").await;
    bob.goto(&link).await.unwrap();
    wait_status(bob, "playing").await;
    wait_status(alice, "playing").await;
    click_point(alice, "d4").await;
    click_point(alice, "e5").await;
    wait_moves(bob, 1).await;
    click_point(bob, "f6").await;
    click_point(bob, "d4").await;
    for c in [alice, bob] {
        let said = wait_says(c, "ran out of time").await;
        assert!(said.contains("White wins: Black ran out of time"), "{said}");
        assert_eq!(clock(c, "black").await, "0:00.0");
    }
    screenshots(bob, "people-flag").await;

    // Called off after one move: no result.
    let link = invite(alice, base, "white", "").await;
    bob.goto(&link).await.unwrap();
    wait_status(bob, "playing").await;
    let side = bob.execute("return ui.side", vec![]).await.unwrap();
    assert_eq!(side, "black");
    click_point(bob, "d4").await;
    click_point(bob, "e5").await;
    wait_moves(alice, 1).await;
    click_when_shown(alice, "btn-abort").await;
    for c in [alice, bob] {
        wait_status(c, "aborted").await;
        wait_says(c, "Aborted").await;
    }
    let clocks = alice
        .execute(
            "return document.querySelectorAll('.player-bar .clock:not([hidden])').length",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(clocks, 0, "a game without clocks shows none");
}
