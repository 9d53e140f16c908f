//! The page's own character in a real browser (driven as in `tests/webdriver`): the player
//! bar of the side to move lit, with the status line in sight on a 1366 x 768 laptop and a
//! 390 x 844 phone; bead colours, board theme and the Mullah's mark chosen and remembered
//! after a reload; the page in Arabic (right to left) and in French, chosen from the
//! browser's language or by hand and remembered, the rules page too; "My games" and the
//! warning before leaving an unfinished game; the analysis of a finished game, step by step,
//! with the endgame tables' value.
//! Screenshots of these screens at both sizes are written to `target/screenshots/`.

mod common;
mod webdriver;

use common::{fresh_dir, test_config, TestServer, TestTables};
use fantoccini::Client;
use serde_json::{json, Value};
use webdriver::{
    click_id, click_point, count, engine_game, load_position, shot, start_driver, text_of,
    wait_for, wait_moves, with_browser, with_browser_using,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_speaks_and_looks() {
    let tables = TestTables::build(2).await;
    let server = TestServer::start_with(kharbaga_server::Config {
        tables: Some(tables.tables.clone()),
        ..test_config(fresh_dir("browser-page"))
    })
    .await;
    let driver = start_driver().await;
    let base = server.base.clone();
    with_browser(&driver, |c| async move {
        player_bars(&c, &base).await;
        looks(&c).await;
        arabic(&c, &base).await;
        same_texts_in_every_language(&c).await;
    })
    .await;
    let base = server.base.clone();
    with_browser_using(
        &driver,
        &["--lang=fr-FR", "--accept-lang=fr-FR,fr"],
        |c| async move {
            french_games_and_analysis(&c, &base).await;
        },
    )
    .await;
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap()
}

/// The side of the lit player bar, and how many are lit.
async fn lit_bar(c: &Client) -> (u64, Value) {
    let v = js(
        c,
        "const lit = document.querySelectorAll('.player-bar.active');
         return [lit.length, lit.length ? lit[0].dataset.color : null];",
    )
    .await;
    (v[0].as_u64().unwrap(), v[1].clone())
}

/// Checks that the player bars and the status line are all inside the window.
async fn status_in_sight(c: &Client, what: &str) {
    let v = js(
        c,
        "const h = window.innerHeight;
         const bottom = (id) => document.getElementById(id).getBoundingClientRect().bottom;
         return {h, status: bottom('status'), top: bottom('player-top'), bar: bottom('player-bottom'),
                 scrolled: window.scrollY};",
    )
    .await;
    let h = v["h"].as_f64().unwrap();
    assert_eq!(v["scrolled"], 0, "{what}: {v}");
    for part in ["status", "top", "bar"] {
        assert!(
            v[part].as_f64().unwrap() <= h,
            "{what}: {part} is below the window: {v}"
        );
    }
}

async fn player_bars(c: &Client, base: &str) {
    engine_game(c, base, None).await;
    // Black (the player, at the bottom) to move: its bar alone is lit and says so.
    assert_eq!(lit_bar(c).await, (1, json!("black")));
    let bottom = js(
        c,
        "const b = document.getElementById('player-bottom');
         return [b.classList.contains('active'), b.querySelector('.turn-tag').textContent,
                 b.querySelector('.player-name').textContent,
                 document.getElementById('player-top').querySelector('.player-name').textContent,
                 b.querySelector('.clock').dataset.color];",
    )
    .await;
    assert_eq!(
        bottom,
        json!([true, "to move", "You", "Engine, level 1", "black"])
    );
    // After the engine's answer, ours again.
    click_point(c, "d4").await;
    click_point(c, "e5").await;
    wait_moves(c, 2).await;
    assert_eq!(lit_bar(c).await, (1, json!("black")));
    // The window's title says so too, for a page in another tab.
    assert_eq!(
        js(c, "return document.title").await,
        "\u{25cf} Your move \u{2014} Kharbaga"
    );
    // Back in the game's past nothing is lit.
    click_id(c, "nav-prev").await;
    assert_eq!(lit_bar(c).await.0, 0);
    assert_eq!(js(c, "return document.title").await, "Kharbaga");
    click_id(c, "nav-last").await;

    c.set_window_size(1366, 768).await.unwrap();
    status_in_sight(c, "1366 x 768").await;
    shot(c, "turn-desktop.png").await;
    c.set_window_size(390, 844).await.unwrap();
    status_in_sight(c, "390 x 844").await;
    shot(c, "turn-phone.png").await;
    c.set_window_size(1366, 768).await.unwrap();

    // Two players at one screen: after Black's capture White's bar (at the top) is lit.
    load_position(c, "B:Be3,c1:Wd4,b6,i9").await;
    assert_eq!(lit_bar(c).await, (1, json!("black")));
    click_point(c, "e3").await;
    click_point(c, "c5").await;
    wait_moves(c, 1).await;
    let top = js(
        c,
        "const b = document.getElementById('player-top');
         return [b.classList.contains('active'), b.dataset.color,
                 b.querySelector('.player-name').textContent, b.querySelector('.turn-tag').textContent]",
    )
    .await;
    assert_eq!(top, json!([true, "white", "White", "to move"]));
    assert_eq!(lit_bar(c).await.0, 1);
}

/// Picks a choice in the look dialog (opened if it is not), as a click does.
async fn choose_look(c: &Client, name: &str, value: &str) {
    c.execute(
        "if (!document.getElementById('dlg-look').open) document.getElementById('btn-look').click();
         document.querySelector(`#form-look input[name='${arguments[0]}'][value='${arguments[1]}']`).click();",
        vec![json!(name), json!(value)],
    )
    .await
    .unwrap();
}

async fn board_look(c: &Client) -> Value {
    js(
        c,
        "const b = document.getElementById('board');
         return {beads: b.dataset.beads, theme: document.documentElement.dataset.theme,
                 black: b.querySelector('#g-black stop').getAttribute('stop-color'),
                 white: b.querySelector('#g-white stop').getAttribute('stop-color'),
                 letters: b.querySelectorAll('text.mark-letter.mark-black').length,
                 crowns: b.querySelectorAll('polygon.crown-black').length};",
    )
    .await
}

async fn looks(c: &Client) {
    // A Black Mullah on a1.
    load_position(c, "B:BKa1:Wd4,g5").await;
    let v = board_look(c).await;
    assert_eq!(v["beads"], "black white");
    assert_eq!(
        (v["letters"].clone(), v["crowns"].clone()),
        (json!(0), json!(1))
    );
    // Red beads for Black, the zellige board, the letter M.
    choose_look(c, "beads-black", "red").await;
    choose_look(c, "theme", "zellige").await;
    choose_look(c, "mark", "letter").await;
    let v = board_look(c).await;
    assert_eq!(v["beads"], "red white");
    assert_eq!(v["black"], "#e8796c");
    assert_eq!(v["theme"], "zellige");
    assert_eq!(
        (v["letters"].clone(), v["crowns"].clone()),
        (json!(1), json!(0))
    );
    // White cannot take the red beads Black has.
    let taken = js(
        c,
        "return document.querySelector(\"#form-look input[name='beads-white'][value='red']\").disabled",
    )
    .await;
    assert_eq!(taken, true);
    shot(c, "look-dialog-desktop.png").await;
    click_id(c, "look-done").await;
    shot(c, "look-board-desktop.png").await;

    // Remembered after a reload.
    c.refresh().await.unwrap();
    wait_moves(c, 0).await;
    let v = board_look(c).await;
    assert_eq!(v["beads"], "red white");
    assert_eq!(v["black"], "#e8796c");
    assert_eq!(v["theme"], "zellige");
    assert_eq!(v["letters"], 1, "the Mullah keeps its M");
    // The chip of Black's bar is red too.
    let chip = js(
        c,
        "return getComputedStyle(document.querySelector('#player-bottom .chip')).backgroundImage",
    )
    .await;
    assert!(
        chip.as_str().unwrap().contains("rgb(232, 121, 108)"),
        "{chip}"
    );
    c.set_window_size(390, 844).await.unwrap();
    shot(c, "look-board-phone.png").await;
    c.set_window_size(1366, 768).await.unwrap();

    // The crown again, on the night board with amber and blue beads.
    choose_look(c, "mark", "crown").await;
    choose_look(c, "theme", "night").await;
    choose_look(c, "beads-black", "amber").await;
    choose_look(c, "beads-white", "blue").await;
    click_id(c, "look-done").await;
    let v = board_look(c).await;
    assert_eq!(v["beads"], "amber blue");
    assert_eq!(
        (v["letters"].clone(), v["crowns"].clone()),
        (json!(0), json!(1))
    );
    shot(c, "look-night-desktop.png").await;
}

/// Picks a language in the page's menu, as the player does.
async fn choose_language(c: &Client, lang: &str) {
    c.execute(
        "const s = document.getElementById('lang'); s.value = arguments[0];
         s.dispatchEvent(new Event('change'));",
        vec![json!(lang)],
    )
    .await
    .unwrap();
}

async fn arabic(c: &Client, base: &str) {
    engine_game(c, base, None).await;
    assert_eq!(js(c, "return document.documentElement.lang").await, "en");
    choose_language(c, "ar").await;
    let v = js(
        c,
        "return [document.documentElement.lang, document.documentElement.dir,
                 document.getElementById('btn-new').textContent,
                 document.getElementById('link-rules').getAttribute('href'),
                 getComputedStyle(document.querySelector('.layout')).direction];",
    )
    .await;
    assert_eq!(v, json!(["ar", "rtl", "مباراة جديدة", "/rules/ar", "rtl"]));
    let status = text_of(c, "status").await;
    assert!(status.contains("الدور على الأسود"), "{status}");
    let bar = js(
        c,
        "return document.querySelector('#player-bottom .turn-tag').textContent",
    )
    .await;
    assert_eq!(bar, "دوره في اللعب");
    shot(c, "arabic-desktop.png").await;
    c.set_window_size(390, 844).await.unwrap();
    status_in_sight(c, "390 x 844, Arabic").await;
    shot(c, "arabic-phone.png").await;
    c.set_window_size(1366, 768).await.unwrap();

    // Remembered after a reload.
    c.refresh().await.unwrap();
    wait_moves(c, 0).await;
    let v = js(
        c,
        "return [document.documentElement.dir, document.getElementById('lang').value]",
    )
    .await;
    assert_eq!(v, json!(["rtl", "ar"]));

    // The board's look and My games, in Arabic.
    click_id(c, "btn-look").await;
    let legend = js(
        c,
        "return document.querySelector('#form-look legend').textContent",
    )
    .await;
    assert_eq!(legend, "الرقعة");
    shot(c, "arabic-look-desktop.png").await;
    click_id(c, "look-done").await;
    click_id(c, "btn-games").await;
    let state = wait_for(
        c,
        "my games in Arabic",
        "const s = document.querySelector('#games-list tbody tr .state');
         return s ? s.textContent : null",
        |v| v.is_string(),
    )
    .await;
    assert!(state.as_str().unwrap().starts_with("دورك"), "{state}");
    c.set_window_size(390, 844).await.unwrap();
    shot(c, "arabic-my-games-phone.png").await;
    c.set_window_size(1366, 768).await.unwrap();
    click_id(c, "games-close").await;

    // The new-game dialog in Arabic: the rule set and its options explained.
    click_id(c, "btn-new").await;
    c.execute(
        "document.getElementById('more').open = true;
         const s = document.getElementById('ruleset'); s.value = 'dagaz';
         s.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .unwrap();
    let about = text_of(c, "ruleset-about").await;
    assert!(about.contains("Dagaz") && about.contains("الملّا"), "{about}");
    let majority = js(
        c,
        "return document.getElementById('opt-majority-about').textContent",
    )
    .await;
    assert!(majority.as_str().unwrap().starts_with("نعم:"), "{majority}");
    shot(c, "arabic-new-game-desktop.png").await;
    click_id(c, "new-cancel").await;

    // The rules page in Arabic, right to left.
    c.goto(&format!("{base}/rules/ar")).await.unwrap();
    let v = js(
        c,
        "return [document.documentElement.dir, document.querySelector('h1').textContent]",
    )
    .await;
    assert_eq!(v, json!(["rtl", "قواعد الخربقة"]));
    shot(c, "arabic-rules-desktop.png").await;
    c.set_window_size(390, 844).await.unwrap();
    shot(c, "arabic-rules-phone.png").await;
    c.set_window_size(1366, 768).await.unwrap();

    // Back to English by hand.
    c.goto(&format!("{base}/")).await.unwrap();
    wait_moves(c, 0).await;
    choose_language(c, "en").await;
    let v = js(
        c,
        "return [document.documentElement.dir, document.getElementById('btn-new').textContent]",
    )
    .await;
    assert_eq!(v, json!(["ltr", "New game"]));
}

/// Every language has the texts English has, each of the same kind.
async fn same_texts_in_every_language(c: &Client) {
    let v = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             Promise.all(['en', 'fr', 'ar'].map((l) => import(`/assets/js/i18n/${l}.js`)))
               .then(([en, fr, ar]) => {
                 const shape = (t) => Object.keys(t.default).sort()
                   .map((k) => k + ':' + (typeof t.default[k] === 'object' ? 'plural' : 'text'));
                 done([shape(en), shape(fr), shape(ar)]);
               }, (e) => done(String(e)));",
            vec![],
        )
        .await
        .unwrap();
    let en = &v[0];
    assert!(en.as_array().is_some_and(|a| a.len() > 100), "{v}");
    assert_eq!(&v[1], en, "French has other texts than English");
    assert_eq!(&v[2], en, "Arabic has other texts than English");
}

/// Whether leaving the page now would ask first.
async fn leaving_asks(c: &Client) -> Value {
    js(
        c,
        "const e = new Event('beforeunload', {cancelable: true});
         window.dispatchEvent(e);
         return e.defaultPrevented;",
    )
    .await
}

/// The analysis shown of the position after `ply` moves, once it has come.
async fn analysis_of(c: &Client, ply: u32) -> String {
    let script = format!(
        "const b = document.getElementById('analysis-body');
         return b.dataset.ply === '{ply}' ? b.textContent : null"
    );
    let text = wait_for(
        c,
        &format!("the analysis after {ply} moves"),
        &script,
        |v| v.is_string(),
    )
    .await;
    text.as_str().unwrap().to_string()
}

async fn french_games_and_analysis(c: &Client, base: &str) {
    // The browser speaks French: so does the page.
    let first = engine_game(c, base, None).await;
    let v = js(
        c,
        "return [document.documentElement.lang, document.getElementById('btn-new').textContent]",
    )
    .await;
    assert_eq!(v, json!(["fr", "Nouvelle partie"]));
    click_point(c, "d4").await;
    click_point(c, "e5").await;
    wait_moves(c, 2).await;
    assert_eq!(leaving_asks(c).await, true, "an unfinished game of ours");

    // A second game, won at once: the Mullah takes the last man.
    load_position(c, "B:BKe5:Wc3").await;
    let second = c.current_url().await.unwrap().path().to_string();
    click_point(c, "e5").await;
    click_point(c, "a1").await;
    wait_moves(c, 1).await;
    let status = text_of(c, "status").await;
    assert_eq!(status, "Noir gagne : Blanc n\u{2019}a plus de pions (1-0)");
    assert_eq!(leaving_asks(c).await, false, "a finished game");

    // Its analysis: the final position, then the start with the tables' value.
    click_id(c, "btn-analyse").await;
    let over = analysis_of(c, 1).await;
    assert_eq!(over, "La partie est terminée dans cette position.");
    click_id(c, "nav-first").await;
    let start = analysis_of(c, 0).await;
    assert!(start.contains("Meilleur coup : e5x"), "{start}");
    assert!(
        start.contains("Tables de finales : Noir gagne en 1 demi-coup"),
        "{start}"
    );
    assert_eq!(count(c, "#board .hintline").await, 1, "the best move drawn");
    assert_eq!(
        js(c, "return document.getElementById('evalbar').hidden").await,
        false
    );
    let r#where = text_of(c, "analysis-where").await;
    assert_eq!(r#where, "La position de départ");
    shot(c, "analysis-desktop.png").await;
    c.set_window_size(390, 844).await.unwrap();
    c.execute(
        "document.getElementById('analysis').scrollIntoView({block: 'center'})",
        vec![],
    )
    .await
    .unwrap();
    shot(c, "analysis-phone.png").await;
    c.set_window_size(1366, 768).await.unwrap();
    // Forward again: the analysis already made is shown at once.
    click_id(c, "nav-next").await;
    assert_eq!(
        js(
            c,
            "return document.getElementById('analysis-body').dataset.ply"
        )
        .await,
        "1"
    );
    // The graph holds both positions; a click on it goes to the position under it.
    wait_for(
        c,
        "the graph of both positions",
        "return document.getElementById('analysis-graph').dataset.analysed",
        |v| v == "2",
    )
    .await;
    click_id(c, "nav-first").await;
    click_id(c, "analysis-graph").await;
    assert_eq!(
        js(c, "return ui.view").await,
        1,
        "the middle of a 1-move game"
    );
    // Taken back and won another way: the analysis is of the new final position.
    click_id(c, "btn-undo").await;
    wait_moves(c, 0).await;
    assert_eq!(
        js(c, "return document.getElementById('analysis').hidden").await,
        true
    );
    click_point(c, "e5").await;
    click_point(c, "b2").await;
    assert_eq!(wait_moves(c, 1).await, ["e5xb2"]);
    wait_for(
        c,
        "the analysis of the new final position",
        "const b = document.getElementById('analysis-body');
         return !document.getElementById('analysis').hidden && b.dataset.ply === '1'
           ? b.dataset.position : null",
        |v| v == "W:BKb2:W",
    )
    .await;

    // My games: both, with their state.
    click_id(c, "btn-games").await;
    let rows = wait_for(
        c,
        "my games",
        "const rows = [...document.querySelectorAll('#games-list tbody tr')];
         return rows.length ? rows.map((r) => [r.dataset.id, r.querySelector('.state').textContent]) : null",
        |v| v.as_array().is_some_and(|a| a.len() == 2),
    )
    .await;
    let second_id = second.trim_start_matches("/game/");
    let state_of = |id: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r[0] == id)
            .unwrap_or_else(|| panic!("{id} in {rows}"))[1]
            .clone()
    };
    assert_eq!(state_of(&first), "À vous de jouer");
    assert_eq!(
        state_of(second_id),
        "Noir gagne : Blanc n\u{2019}a plus de pions"
    );
    shot(c, "my-games-desktop.png").await;
    c.set_window_size(390, 844).await.unwrap();
    shot(c, "my-games-phone.png").await;
    c.set_window_size(1366, 768).await.unwrap();
    // Forgetting the finished game takes it off the list and out of this browser.
    c.execute(
        "document.querySelector(`#games-list tr[data-id='${arguments[0]}'] button.forget`).click()",
        vec![json!(second_id)],
    )
    .await
    .unwrap();
    let left = js(
        c,
        "return [document.querySelectorAll('#games-list tbody tr').length,
                 Object.keys(localStorage).filter((k) => k.startsWith('kharbaga:token:')).length]",
    )
    .await;
    assert_eq!(left, json!([1, 1]));
    // Its link opens the first game, ours to play.
    c.execute(
        "document.querySelector(`#games-list tr[data-id='${arguments[0]}'] a`).click()",
        vec![json!(first)],
    )
    .await
    .unwrap();
    assert_eq!(wait_moves(c, 2).await, ["d4-e5", "f6xd4"]);
    assert_eq!(
        c.current_url().await.unwrap().path(),
        format!("/game/{first}")
    );
    assert_eq!(
        js(c, "return document.getElementById('dlg-games').open").await,
        false
    );
    assert_eq!(leaving_asks(c).await, true);

    // A game against a person elsewhere: My games knows which side this browser plays.
    c.execute(
        "document.getElementById('btn-new').click();
         document.querySelector('input[name=opponent][value=remote]').checked = true;
         document.querySelector('input[name=colour][value=white]').checked = true;
         document.getElementById('form-new').dispatchEvent(new Event('input'));",
        vec![],
    )
    .await
    .unwrap();
    click_id(c, "new-start").await;
    let third = wait_for(c, "the invitation", "return location.pathname", |v| {
        v.as_str()
            .is_some_and(|p| p.starts_with("/game/") && p != format!("/game/{first}"))
    })
    .await;
    let third = third.as_str().unwrap().trim_start_matches("/game/");
    click_id(c, "btn-games").await;
    let script = format!(
        "const r = document.querySelector(\"#games-list tr[data-id='{third}']\");
         return r ? [...r.cells].slice(1, 4).map((td) => td.textContent) : null"
    );
    let row = wait_for(c, "the invitation in my games", &script, |v| v.is_array()).await;
    assert_eq!(
        row,
        json!([
            "Vous (Blanc) contre une personne ailleurs",
            "0",
            "En attente du joueur invité"
        ])
    );
}
