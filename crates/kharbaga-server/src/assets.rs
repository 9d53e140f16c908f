//! The page, its script and style, and the rules page, all embedded in the binary.

use crate::markdown;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use axum::Router;
use std::sync::OnceLock;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const LIVE_JS: &str = include_str!("../assets/live.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");
const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");
const RULES_MD: &str = include_str!("../../../docs/rules.md");

/// The routes of the page and its files.
pub(crate) fn router() -> Router {
    Router::new()
        .route("/", get(index))
        .route("/game/{id}", get(index))
        .route("/rules", get(rules))
        .route("/assets/app.js", get(app_js))
        .route("/assets/live.js", get(live_js))
        .route("/assets/style.css", get(style_css))
        .route("/favicon.svg", get(favicon))
}

async fn index() -> Html<&'static str> {
    Html(INDEX_HTML)
}

async fn app_js() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        APP_JS,
    )
}

async fn live_js() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        LIVE_JS,
    )
}

async fn style_css() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        STYLE_CSS,
    )
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
