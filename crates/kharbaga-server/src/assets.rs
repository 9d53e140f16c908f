//! The page, its script modules and style, and the rules page in English, French and
//! Arabic, all embedded in the binary.

use crate::api::not_found;
use crate::markdown;
use axum::extract::Path;
use axum::http::{header, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::sync::OnceLock;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const FAVICON_SVG: &str = include_str!("../assets/favicon.svg");

const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// The page's script modules and style, by their path under `/assets/`: the path, its
/// content type and the file.
const FILES: &[(&str, &str, &str)] = &[
    ("style.css", CSS, include_str!("../assets/style.css")),
    ("people.css", CSS, include_str!("../assets/people.css")),
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
    ("js/players.js", JS, include_str!("../assets/js/players.js")),
    ("js/look.js", JS, include_str!("../assets/js/look.js")),
    ("js/mygames.js", JS, include_str!("../assets/js/mygames.js")),
    (
        "js/analysis.js",
        JS,
        include_str!("../assets/js/analysis.js"),
    ),
    ("js/i18n.js", JS, include_str!("../assets/js/i18n.js")),
    ("js/i18n/en.js", JS, include_str!("../assets/js/i18n/en.js")),
    ("js/i18n/fr.js", JS, include_str!("../assets/js/i18n/fr.js")),
    ("js/i18n/ar.js", JS, include_str!("../assets/js/i18n/ar.js")),
    ("js/people.js", JS, include_str!("../assets/js/people.js")),
];

/// The routes of the page and its files.
pub(crate) fn router() -> Router {
    let mut router = Router::new()
        .route("/", get(index))
        .route("/game/{id}", get(index))
        .route("/rules", get(rules))
        .route("/rules/{lang}", get(rules_in))
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

/// A translation of the rules page: its language code, its direction, the page's title, the
/// link back to the board, and the rules in Markdown.
struct RulesPage {
    lang: &'static str,
    dir: &'static str,
    title: &'static str,
    back: &'static str,
    markdown: &'static str,
}

/// The rules page in English (`/rules`), French (`/rules/fr`) and Arabic (`/rules/ar`).
const RULES: [RulesPage; 3] = [
    RulesPage {
        lang: "en",
        dir: "ltr",
        title: "Kharbaga rules",
        back: "Back to the board",
        markdown: include_str!("../../../docs/rules.md"),
    },
    RulesPage {
        lang: "fr",
        dir: "ltr",
        title: "R\u{e8}gles de la kharbaga",
        back: "Retour au plateau",
        markdown: include_str!("../../../docs/rules.fr.md"),
    },
    RulesPage {
        lang: "ar",
        dir: "rtl",
        title: "\u{642}\u{648}\u{627}\u{639}\u{62f} \u{627}\u{644}\u{62e}\u{631}\u{628}\u{642}\u{629}",
        back: "\u{627}\u{644}\u{639}\u{648}\u{62f}\u{629} \u{625}\u{644}\u{649} \u{627}\u{644}\u{631}\u{642}\u{639}\u{629}",
        markdown: include_str!("../../../docs/rules.ar.md"),
    },
];

/// The names of the languages, each in itself, for the links between the translations.
const LANGUAGE_NAMES: [(&str, &str); 3] = [
    ("en", "English"),
    ("fr", "Fran\u{e7}ais"),
    ("ar", "\u{627}\u{644}\u{639}\u{631}\u{628}\u{64a}\u{629}"),
];

/// The address of the rules page in language `lang`.
fn rules_path(lang: &str) -> String {
    if lang == "en" {
        "/rules".to_string()
    } else {
        format!("/rules/{lang}")
    }
}

/// The rules page of one language as HTML. Code (point names, notation, position strings)
/// is always set left to right.
fn rules_html(page: &RulesPage) -> String {
    let others: String = LANGUAGE_NAMES
        .iter()
        .filter(|(lang, _)| *lang != page.lang)
        .map(|(lang, name)| {
            format!(
                "<a href=\"{}\" lang=\"{lang}\" hreflang=\"{lang}\">{name}</a>",
                rules_path(lang)
            )
        })
        .collect();
    format!(
        "<!doctype html>\n<html lang=\"{lang}\" dir=\"{dir}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"icon\" href=\"/favicon.svg\">\
         <link rel=\"stylesheet\" href=\"/assets/style.css\"></head>\
         <body class=\"rules-page\"><header class=\"top\"><a class=\"brand\" href=\"/\">Kharbaga</a>\
         <nav>{others}<a href=\"/\" id=\"back\">{back}</a></nav></header>\
         <main class=\"rules\">{body}</main></body></html>\n",
        lang = page.lang,
        dir = page.dir,
        title = page.title,
        back = page.back,
        body = markdown::to_html(page.markdown),
    )
}

/// The rules page in language `lang`, made once.
fn rules_page(lang: &str) -> Option<&'static str> {
    static PAGES: OnceLock<Vec<String>> = OnceLock::new();
    let pages = PAGES.get_or_init(|| RULES.iter().map(rules_html).collect());
    let i = RULES.iter().position(|p| p.lang == lang)?;
    Some(&pages[i])
}

async fn rules() -> Html<&'static str> {
    Html(rules_page("en").expect("the English rules"))
}

async fn rules_in(Path(lang): Path<String>, uri: Uri) -> Response {
    match rules_page(&lang) {
        Some(page) if lang != "en" => Html(page).into_response(),
        _ => not_found(uri).await,
    }
}
