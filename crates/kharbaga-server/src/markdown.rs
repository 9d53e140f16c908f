//! Markdown to HTML with `pulldown-cmark` (CommonMark and pipe tables), for the rules page.
//!
//! The documents are the project's own, built into the binary, but the output is kept safe
//! all the same: raw HTML in a document is shown as text, never passed through, and a link
//! or image whose address has a scheme other than `http`, `https` or `mailto` (say
//! `javascript:`) points nowhere. Headings get GitHub's anchors (`## Majority rule` is
//! `#majority-rule`), and tables are wrapped in `<div class="table">` so that a wide one
//! scrolls on a phone.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

/// The anchor of a heading, as GitHub makes it: lower case, spaces to `-`, other
/// punctuation dropped.
fn slug(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            'A'..='Z' => Some(c.to_ascii_lowercase()),
            'a'..='z' | '0'..='9' | '-' | '_' => Some(c),
            ' ' => Some('-'),
            _ => None,
        })
        .collect()
}

/// Whether a link's address may be followed: relative, an anchor, or `http`, `https` or
/// `mailto`.
fn is_safe_url(url: &str) -> bool {
    let scheme_end = url.find(':');
    let path_start = url.find(['/', '?', '#']);
    match (scheme_end, path_start) {
        (None, _) => true,
        (Some(colon), Some(path)) if path < colon => true,
        (Some(colon), _) => {
            let scheme = url[..colon].to_ascii_lowercase();
            matches!(scheme.as_str(), "http" | "https" | "mailto")
        }
    }
}

/// Converts Markdown to an HTML fragment.
pub(crate) fn to_html(markdown: &str) -> String {
    let parser = Parser::new_ext(markdown, Options::ENABLE_TABLES);
    let mut events: Vec<Event> = Vec::new();
    // The events of the heading being read, whose anchor is known only at its end.
    let mut heading: Option<Vec<Event>> = None;
    for event in parser {
        let mut event = match event {
            // Raw HTML is shown, not obeyed.
            Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
            other => other,
        };
        if let Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) = &mut event {
            if !is_safe_url(dest_url) {
                *dest_url = CowStr::Borrowed("#");
            }
        }
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(vec![event]),
            Event::End(TagEnd::Heading(_)) => {
                let mut parts = heading.take().unwrap_or_default();
                let text: String = parts
                    .iter()
                    .filter_map(|e| match e {
                        Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                        _ => None,
                    })
                    .collect();
                if let Some(Event::Start(Tag::Heading { id, .. })) = parts.first_mut() {
                    *id = Some(CowStr::from(slug(&text)));
                }
                events.extend(parts);
                events.push(event);
            }
            Event::Start(Tag::Table(_)) => {
                events.push(Event::Html(CowStr::Borrowed("<div class=\"table\">")));
                events.push(event);
            }
            Event::End(TagEnd::Table) => {
                events.push(event);
                events.push(Event::Html(CowStr::Borrowed("</div>\n")));
            }
            _ => match &mut heading {
                Some(parts) => parts.push(event),
                None => events.push(event),
            },
        }
    }
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks() {
        let md = "# Title here\n\nSome *text* and `a<b`.\nMore.\n\n```\n9  W---W\n```\n\n- one\n  two\n- three\n\n| a | b |\n|---|---|\n| `x` | **y** |\n";
        let html = to_html(md);
        assert_eq!(
            html,
            "<h1 id=\"title-here\">Title here</h1>\n\
             <p>Some <em>text</em> and <code>a&lt;b</code>.\nMore.</p>\n\
             <pre><code>9  W---W\n</code></pre>\n\
             <ul>\n<li>one\ntwo</li>\n<li>three</li>\n</ul>\n\
             <div class=\"table\"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>\n\
             <tr><td><code>x</code></td><td><strong>y</strong></td></tr>\n</tbody></table>\n</div>\n"
        );
    }

    #[test]
    fn links_and_anchors() {
        assert_eq!(
            to_html("see [Notation](#notation)."),
            "<p>see <a href=\"#notation\">Notation</a>.</p>\n"
        );
        assert_eq!(slug("Men: plain moves"), "men-plain-moves");
        assert_eq!(
            to_html("## The `pos` line"),
            "<h2 id=\"the-pos-line\">The <code>pos</code> line</h2>\n"
        );
        // A lone star is text, not emphasis.
        assert_eq!(to_html("3 * 4"), "<p>3 * 4</p>\n");
    }

    #[test]
    fn raw_html_and_script_links_are_not_obeyed() {
        let html = to_html(
            "<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> and \
             [a](javascript:alert(1)) [b](JavaScript:x) [c](https://example.org/x:y) \
             [d](docs/a:b) [e](mailto:a@example.org) ![i](data:text/html,x)",
        );
        assert!(!html.contains("<script"), "{html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(!html.contains("<img src=x"), "{html}");
        assert!(!html.to_lowercase().contains("javascript:"), "{html}");
        assert!(html.contains("<a href=\"#\">a</a>"), "{html}");
        assert!(html.contains("<a href=\"#\">b</a>"), "{html}");
        assert!(html.contains("href=\"https://example.org/x:y\""), "{html}");
        assert!(html.contains("href=\"docs/a:b\""), "{html}");
        assert!(html.contains("href=\"mailto:a@example.org\""), "{html}");
        assert!(html.contains("<img src=\"#\""), "{html}");
    }

    #[test]
    fn the_rules_page_keeps_every_diagram_and_heading() {
        let md = include_str!("../../../docs/rules.md");
        let html = to_html(md);
        let fences = md.lines().filter(|l| l.trim().starts_with("```")).count();
        assert_eq!(html.matches("<pre>").count() * 2, fences);
        let headings = md.lines().filter(|l| l.starts_with('#')).count();
        assert_eq!(
            html.matches("<h").count() - html.matches("<hr").count(),
            headings
        );
        assert!(html.contains("id=\"notation\""));
        assert!(html.contains("<a href=\"#notation\">"));
        assert!(html.contains("<div class=\"table\"><table>"));
    }
}
