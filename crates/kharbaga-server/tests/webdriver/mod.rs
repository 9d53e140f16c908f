//! Driving the page in a real browser: headless Chromium over WebDriver (chromedriver),
//! installed by `scripts/install-browser-deps.sh`; clicks and drags on board points, waits,
//! and screenshots in `target/tmp`.

// Each browser test file compiles this module; not all of them use all of it.
#![allow(dead_code)]

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::future::Future;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver, stopped when dropped.
pub struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub async fn start_driver() -> Driver {
    for path in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            std::path::Path::new(path).exists(),
            "{path} is missing: run scripts/install-browser-deps.sh"
        );
    }
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    driver
}

pub async fn browser(driver: &Driver, profile: &std::path::Path) -> Client {
    browser_with(driver, profile, &[]).await
}

/// A browser with more command-line switches (`--lang=fr` for its languages).
pub async fn browser_with(driver: &Driver, profile: &std::path::Path, extra: &[&str]) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(extra.iter().map(|s| s.to_string()))
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {"binary": CHROMIUM, "args": args}
    });
    let serde_json::Value::Object(caps) = caps else {
        unreachable!()
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a browser session")
}

/// Runs `script` until it returns something `done` accepts, or fails after 20 s.
pub async fn wait_for(
    c: &Client,
    what: &str,
    script: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let v = c.execute(script, vec![]).await.unwrap_or(Value::Null);
        if done(&v) {
            return v;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}; last: {v}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub const MOVES_JS: &str =
    "return [...document.querySelectorAll('#moves td.mv')].map(td => td.textContent)";

pub async fn moves_shown(c: &Client) -> Vec<String> {
    let v = c.execute(MOVES_JS, vec![]).await.unwrap();
    serde_json::from_value(v).unwrap()
}

/// Waits until the move list shows `n` moves and nothing is pending.
pub async fn wait_moves(c: &Client, n: usize) -> Vec<String> {
    let script = format!(
        "return (typeof ui !== 'undefined' && ui.game && !ui.busy && !ui.game.thinking) ? {} : null",
        MOVES_JS.trim_start_matches("return ")
    );
    let v = wait_for(c, &format!("{n} moves"), &script, |v| {
        v.as_array().is_some_and(|a| a.len() == n)
    })
    .await;
    serde_json::from_value(v).unwrap()
}

/// The viewport coordinates of a board point.
pub async fn point_xy(c: &Client, point: &str) -> (i64, i64) {
    let v = c
        .execute(
            "const [x, y] = toScreen(arguments[0]);
             const svg = document.getElementById('board');
             const pt = svg.createSVGPoint(); pt.x = x; pt.y = y;
             const p = pt.matrixTransform(svg.getScreenCTM());
             return [Math.round(p.x), Math.round(p.y)];",
            vec![json!(point)],
        )
        .await
        .unwrap();
    (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
}

pub async fn click_point(c: &Client, point: &str) {
    let (x, y) = point_xy(c, point).await;
    let mouse = MouseActions::new("mouse".to_string())
        .then(PointerAction::MoveTo {
            duration: None,
            x: x as f64,
            y: y as f64,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(mouse).await.unwrap();
}

pub async fn drag(c: &Client, from: &str, to: &str) {
    let (x0, y0) = point_xy(c, from).await;
    let (x1, y1) = point_xy(c, to).await;
    let mut mouse = MouseActions::new("mouse".to_string())
        .then(PointerAction::MoveTo {
            duration: None,
            x: x0 as f64,
            y: y0 as f64,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        });
    for i in 1..=5 {
        mouse = mouse.then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(30)),
            x: (x0 + (x1 - x0) * i / 5) as f64,
            y: (y0 + (y1 - y0) * i / 5) as f64,
        });
    }
    let mouse = mouse.then(PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    });
    c.perform_actions(mouse).await.unwrap();
}

/// Clicks the element with this id.
pub async fn click_id(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("#{id}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click #{id}: {e}"));
}

/// The text of the element with this id.
pub async fn text_of(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("#{id}: {e}"))
        .text()
        .await
        .unwrap_or_else(|e| panic!("text of #{id}: {e}"))
}

/// How many elements match the CSS selector.
pub async fn count(c: &Client, selector: &str) -> u64 {
    c.execute(
        "return document.querySelectorAll(arguments[0]).length",
        vec![json!(selector)],
    )
    .await
    .unwrap()
    .as_u64()
    .unwrap()
}

/// Saves a screenshot as `target/screenshots/<name>` (the screens to look at).
pub async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target folder")
        .join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, png).unwrap();
    println!("screenshot: {}", path.display());
}

pub async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    std::fs::write(&path, png).unwrap();
    println!("screenshot: {}", path.display());
}

/// Opens the page and starts a game against the engine at level 1, Black (the player)
/// first, from `position` if given; returns the game's id.
pub async fn engine_game(c: &Client, base: &str, position: Option<&str>) -> String {
    c.goto(&format!("{base}/")).await.unwrap();
    wait_for(c, "the page", "return ui.meta !== null", |v| v == true).await;
    let before = c.current_url().await.unwrap().path().to_string();
    c.execute(
        "if (!document.getElementById('dlg-new').open) document.getElementById('btn-new').click();
         document.querySelector('input[name=opponent][value=engine]').checked = true;
         document.getElementById('level').value = '1';
         document.querySelector('input[name=colour][value=black]').checked = true;
         document.querySelector('input[name=first][value=me]').checked = true;
         document.getElementById('source').value = arguments[0] || '';
         document.getElementById('form-new').dispatchEvent(new Event('input'));",
        vec![json!(position)],
    )
    .await
    .unwrap();
    click_id(c, "new-start").await;
    let path = wait_for(c, "the new game", "return location.pathname", |v| {
        v.as_str()
            .is_some_and(|p| p.starts_with("/game/") && p != before)
    })
    .await;
    wait_moves(c, 0).await;
    path.as_str()
        .unwrap()
        .trim_start_matches("/game/")
        .to_string()
}

/// Starts a two-person game from a position through the Load dialog.
pub async fn load_position(c: &Client, position: &str) {
    let before = c.current_url().await.unwrap().path().to_string();
    click_id(c, "btn-load").await;
    c.execute(
        "document.querySelector('input[name=opponent][value=person]').checked = true;
         document.getElementById('source').value = arguments[0];
         document.getElementById('form-new').dispatchEvent(new Event('input'));",
        vec![json!(position)],
    )
    .await
    .unwrap();
    click_id(c, "new-start").await;
    wait_for(c, "the new game", "return location.pathname", |v| {
        v.as_str().is_some_and(|p| p != before)
    })
    .await;
    wait_moves(c, 0).await;
}

/// Runs `steps` with a browser of a fresh profile, and closes the browser (and removes the
/// profile) even when a step fails.
pub async fn with_browser<F, Fut>(driver: &Driver, steps: F)
where
    F: FnOnce(Client) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    with_browsers(driver, 1, |mut clients| steps(clients.remove(0))).await;
}

/// Runs `steps` with `n` browsers, each with its own profile (so its own `localStorage`:
/// one does not own the games of another), closing them all even when a step fails.
pub async fn with_browsers<F, Fut>(driver: &Driver, n: usize, steps: F)
where
    F: FnOnce(Vec<Client>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    with_browsers_using(driver, n, &[], steps).await;
}

/// Runs `steps` with a browser started with more switches (see [`browser_with`]).
pub async fn with_browser_using<F, Fut>(driver: &Driver, extra: &[&str], steps: F)
where
    F: FnOnce(Client) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    with_browsers_using(driver, 1, extra, |mut clients| steps(clients.remove(0))).await;
}

async fn with_browsers_using<F, Fut>(driver: &Driver, n: usize, extra: &[&str], steps: F)
where
    F: FnOnce(Vec<Client>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let mut profiles = Vec::new();
    let mut clients = Vec::new();
    for _ in 0..n {
        let profile = super::common::fresh_dir("chromium-profile");
        clients.push(browser_with(driver, &profile, extra).await);
        profiles.push(profile);
    }
    let result = tokio::spawn(steps(clients.clone())).await;
    for c in clients {
        c.close().await.ok();
    }
    for p in profiles {
        let _ = std::fs::remove_dir_all(p);
    }
    if let Err(e) = result {
        std::panic::resume_unwind(e.into_panic());
    }
}
