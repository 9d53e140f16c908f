//! The page's live side in a real browser (driven as in `tests/webdriver`): a second browser
//! watching a game sees its moves as they are made; the engine's move survives a network
//! error (tried again, then a message and a button to ask again); the clicks that finish a
//! capture the page has already sent do not select the piece that moved.
//! Screenshots of the message and of the watcher's page are written to
//! `target/tmp/kharbaga-engine-trouble.png` and `kharbaga-watcher.png`.

mod common;
mod webdriver;

use common::TestServer;
use fantoccini::Client;
use serde_json::Value;
use webdriver::{
    click_id, click_point, count, drag, engine_game, screenshot, start_driver, text_of, wait_for,
    wait_moves, with_browser, with_browsers,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_lives() {
    let server = TestServer::start("browser-live").await;
    let driver = start_driver().await;
    let base = server.base.clone();
    with_browser(&driver, |c| async move {
        engine_trouble(&c, &base).await;
        capture_clicks(&c, &base).await;
    })
    .await;
    let base = server.base.clone();
    with_browsers(&driver, 2, |clients| async move {
        watching(&clients[0], &clients[1], &base).await;
    })
    .await;
}

/// Whether the engine-trouble box shows, and its text and button.
async fn trouble(c: &Client) -> Value {
    c.execute(
        "const box = document.getElementById('engine-trouble');
         const button = document.getElementById('btn-engine-retry');
         return {shown: !box.hidden, text: box.textContent, button: !box.hidden && !button.hidden};",
        vec![],
    )
    .await
    .unwrap()
}

async fn engine_trouble(c: &Client, base: &str) {
    engine_game(c, base, None).await;
    // The engine's requests fail as they do when the network goes (fetch rejects with a
    // TypeError) while window.failEngine > 0.
    c.execute(
        "window.engineCalls = 0;
         window.failEngine = 1;
         const real = window.fetch;
         window.fetch = (url, options) => {
           if (String(url).endsWith('/engine')) {
             window.engineCalls++;
             if (window.failEngine > 0) {
               window.failEngine--;
               return Promise.reject(new TypeError('Failed to fetch'));
             }
           }
           return real(url, options);
         };",
        vec![],
    )
    .await
    .unwrap();
    // One failure: the page tries again by itself.
    click_point(c, "d4").await;
    click_point(c, "e5").await;
    assert_eq!(wait_moves(c, 2).await, ["d4-e5", "f6xd4"]);
    let calls = c
        .execute("return window.engineCalls", vec![])
        .await
        .unwrap();
    assert_eq!(calls, 2, "the engine was asked again");
    assert_eq!(trouble(c).await["shown"], false);

    // Every request fails: after its tries the page says so and offers a button.
    c.execute("window.failEngine = 100", vec![]).await.unwrap();
    drag(c, "c3", "e5").await;
    let shown = wait_for(
        c,
        "the engine-trouble message",
        "const box = document.getElementById('engine-trouble');
         return box.hidden || ui.busy ? null : box.textContent",
        |v| v.is_string(),
    )
    .await;
    let text = shown.as_str().unwrap();
    assert!(
        text.contains("server") && !text.starts_with("Failed to fetch"),
        "{text}"
    );
    let t = trouble(c).await;
    assert_eq!(t["button"], true, "{t}");
    c.execute(
        "document.getElementById('engine-trouble').scrollIntoView({block: 'end'})",
        vec![],
    )
    .await
    .unwrap();
    screenshot(c, "kharbaga-engine-trouble.png").await;
    let status = text_of(c, "status").await;
    assert!(!status.contains("thinking"), "not stuck thinking: {status}");
    assert_eq!(
        wait_moves(c, 3).await,
        ["d4-e5", "f6xd4", "c3xe5"],
        "the player's move stays"
    );
    // The network is back: the button asks the engine again.
    c.execute("window.failEngine = 0", vec![]).await.unwrap();
    click_id(c, "btn-engine-retry").await;
    assert_eq!(wait_moves(c, 4).await, ["d4-e5", "f6xd4", "c3xe5", "a5xc3"]);
    assert_eq!(trouble(c).await["shown"], false);
}

async fn capture_clicks(c: &Client, base: &str) {
    // e3xc5xa7 is Black's only move (docs/rules.md): the page sends it at the click on c5.
    // White's man on i9 then steps to h8 or i7, and Black's man on a7 may move.
    engine_game(c, base, Some("B:Be3,c1:Wd4,b6,i9")).await;
    click_point(c, "e3").await;
    click_point(c, "c5").await;
    let shown = wait_moves(c, 2).await;
    assert_eq!(shown[0], "e3xc5xa7");
    // The player goes on to click the capture's last point, where the piece now stands.
    click_point(c, "a7").await;
    assert_eq!(
        count(c, "#board .sel-ring").await,
        0,
        "finishing the sent capture selects nothing"
    );
    // A click after that is a click again: a7 is selected.
    click_point(c, "a7").await;
    assert_eq!(count(c, "#board .sel-ring").await, 1);
    assert!(count(c, "#board .target").await >= 1);
}

async fn watching(owner: &Client, watcher: &Client, base: &str) {
    let id = engine_game(owner, base, None).await;
    watcher.goto(&format!("{base}/game/{id}")).await.unwrap();
    wait_moves(watcher, 0).await;
    let status = text_of(watcher, "status").await;
    assert!(status.starts_with("Watching"), "{status}");
    // The owner moves and the engine answers: the watcher sees both, without reloading.
    click_point(owner, "d4").await;
    click_point(owner, "e5").await;
    assert_eq!(wait_moves(owner, 2).await, ["d4-e5", "f6xd4"]);
    assert_eq!(wait_moves(watcher, 2).await, ["d4-e5", "f6xd4"]);
    drag(owner, "c3", "e5").await;
    assert_eq!(wait_moves(owner, 4).await.len(), 4);
    assert_eq!(
        wait_moves(watcher, 4).await,
        ["d4-e5", "f6xd4", "c3xe5", "a5xc3"]
    );
    assert_eq!(count(watcher, "#board .lastmove").await, 1);
    screenshot(watcher, "kharbaga-watcher.png").await;
    // A take-back too.
    click_id(owner, "btn-undo").await;
    assert_eq!(wait_moves(watcher, 2).await, ["d4-e5", "f6xd4"]);
    // The watcher cannot move.
    assert_eq!(count(watcher, "#board g.movable").await, 0);
}
