//! The page, its script and style, and the rules page, all embedded in the binary.

use crate::markdown;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;
use std::sync::OnceLock;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");
const RULES_MD: &str = include_str!("../../../docs/rules.md");

const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// The page's script modules and style, by their path under `/assets/`: the path, its
/// content type and the file.
const FILES: &[(&str, &str, &str)] = &[
    ("style.css", CSS, include_str!("../assets/style.css")),
    ("js/main.js", JS, include_str!("../assets/js/main.js")),
    ("js/state.js", JS, include_str!("../assets/js/state.js")),
    (
        "js/geometry.js",
        JS,
        include_str!("../assets/js/geometry.js"),
    ),
    ("js/api.js", JS, include_str!("../assets/js/api.js")),
    ("js/sides.js", JS, include_str!("../assets/js/sides.js")),
    ("js/input.js", JS, include_str!("../assets/js/input.js")),
    ("js/scores.js", JS, include_str!("../assets/js/scores.js")),
    ("js/game.js", JS, include_str!("../assets/js/game.js")),
    ("js/board.js", JS, include_str!("../assets/js/board.js")),
    ("js/panel.js", JS, include_str!("../assets/js/panel.js")),
    ("js/toast.js", JS, include_str!("../assets/js/toast.js")),
    ("js/newgame.js", JS, include_str!("../assets/js/newgame.js")),
    ("js/live.js", JS, include_str!("../assets/js/live.js")),
    ("js/engine.js", JS, include_str!("../assets/js/engine.js")),
];

/// The routes of the page and its files.
pub(crate) fn router() -> Router {
    let mut router = Router::new()
        .route("/", get(index))
        .route("/game/{id}", get(index))
        .route("/rules", get(rules))
        .route("/favicon.svg", get(favicon));
    for &(path, content_type, body) in FILES {
        router = router.route(
            &format!("/assets/{path}"),
            get(move || async move { ([(header::CONTENT_TYPE, content_type)], body) }),
        );
    }
    router
}

async fn index() -> Html<&'static str> {
    Html(INDEX_HTML)
}

async fn favicon() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml")], FAVICON_SVG)
}

/// The rules page: `docs/rules.md` as HTML, made once.
async fn rules() -> Html<&'static str> {
    static PAGE: OnceLock<String> = OnceLock::new();
    Html(PAGE.get_or_init(|| {
        format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>Kharbaga rules</title><link rel=\"icon\" href=\"/favicon.svg\">\
             <link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
             <body class=\"rules-page\"><header class=\"top\"><a class=\"brand\" href=\"/\">Kharbaga</a>\
             <nav><a href=\"/\" id=\"back\">Back to the board</a></nav></header>\
             <main class=\"rules\">{}</main></body></html>\n",
            markdown::to_html(RULES_MD)
        )
    }))
}
