//! A small Markdown-to-HTML converter, enough for `docs/rules.md`: headings, paragraphs,
//! fenced code blocks, pipe tables, bullet lists, and inline code, bold, emphasis and links.

/// Escapes text for HTML.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// The anchor of a heading, as GitHub makes it: lower case, spaces to `-`, other
/// punctuation dropped.
pub(crate) fn slug(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            'A'..='Z' => Some(c.to_ascii_lowercase()),
            'a'..='z' | '0'..='9' | '-' | '_' => Some(c),
            ' ' => Some('-'),
            _ => None,
        })
        .collect()
}

/// Inline markup: `code`, **bold**, *emphasis*, [text](url).
fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        let closed = |marker: &str, from: &str| from.find(marker).filter(|&i| i > 0);
        if c == '`' {
            if let Some(end) = closed("`", after) {
                out.push_str(&format!("<code>{}</code>", escape(&after[..end])));
                rest = &after[end + 1..];
                continue;
            }
        } else if rest.starts_with("**") {
            if let Some(end) = closed("**", &rest[2..]) {
                out.push_str(&format!("<strong>{}</strong>", inline(&rest[2..2 + end])));
                rest = &rest[4 + end..];
                continue;
            }
        } else if c == '*' {
            if let Some(end) = closed("*", after) {
                out.push_str(&format!("<em>{}</em>", inline(&after[..end])));
                rest = &after[end + 1..];
                continue;
            }
        } else if c == '[' {
            if let Some(close) = after.find("](") {
                if let Some(end) = after[close + 2..].find(')') {
                    let label = &after[..close];
                    let url = &after[close + 2..close + 2 + end];
                    out.push_str(&format!(
                        "<a href=\"{}\">{}</a>",
                        escape(url),
                        inline(label)
                    ));
                    rest = &after[close + 3 + end..];
                    continue;
                }
            }
        }
        out.push_str(&escape(&c.to_string()));
        rest = after;
    }
    out
}

fn table_cells(line: &str) -> Vec<&str> {
    let trimmed = line.trim().trim_start_matches('|').trim_end_matches('|');
    trimmed.split('|').map(str::trim).collect()
}

/// Converts Markdown to an HTML fragment.
pub(crate) fn to_html(markdown: &str) -> String {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut out = String::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, out: &mut String| {
        if !paragraph.is_empty() {
            out.push_str(&format!("<p>{}</p>\n", inline(&paragraph.join(" "))));
            paragraph.clear();
        }
    };
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            flush(&mut paragraph, &mut out);
            let mut body = Vec::new();
            i += 1;
            while i < lines.len() && !lines[i].trim().starts_with("```") {
                body.push(lines[i]);
                i += 1;
            }
            out.push_str(&format!("<pre>{}</pre>\n", escape(&body.join("\n"))));
        } else if let Some(level) =
            (1..=6).find(|&n| trimmed.starts_with(&"#".repeat(n)) && trimmed[n..].starts_with(' '))
        {
            flush(&mut paragraph, &mut out);
            let text = trimmed[level..].trim();
            out.push_str(&format!(
                "<h{level} id=\"{}\">{}</h{level}>\n",
                slug(text),
                inline(text)
            ));
        } else if trimmed.starts_with('|') {
            flush(&mut paragraph, &mut out);
            let mut rows = Vec::new();
            while i < lines.len() && lines[i].trim().starts_with('|') {
                rows.push(table_cells(lines[i]));
                i += 1;
            }
            i -= 1;
            out.push_str("<div class=\"table\"><table>\n");
            let is_rule = |row: &Vec<&str>| {
                row.iter()
                    .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':')))
            };
            let head = rows.len() > 1 && is_rule(&rows[1]);
            for (n, row) in rows.iter().enumerate() {
                if head && n == 1 {
                    continue;
                }
                let tag = if head && n == 0 { "th" } else { "td" };
                out.push_str("<tr>");
                for cell in row {
                    out.push_str(&format!("<{tag}>{}</{tag}>", inline(cell)));
                }
                out.push_str("</tr>\n");
            }
            out.push_str("</table></div>\n");
        } else if trimmed.starts_with("- ") {
            flush(&mut paragraph, &mut out);
            out.push_str("<ul>\n");
            while i < lines.len() && lines[i].trim_start().starts_with("- ") {
                let mut item = vec![lines[i].trim_start()[2..].trim()];
                i += 1;
                // Continuation lines are indented.
                while i < lines.len()
                    && lines[i].starts_with("  ")
                    && !lines[i].trim_start().starts_with("- ")
                    && !lines[i].trim().is_empty()
                {
                    item.push(lines[i].trim());
                    i += 1;
                }
                out.push_str(&format!("<li>{}</li>\n", inline(&item.join(" "))));
            }
            i -= 1;
            out.push_str("</ul>\n");
        } else if trimmed.is_empty() {
            flush(&mut paragraph, &mut out);
        } else {
            paragraph.push(trimmed);
        }
        i += 1;
    }
    flush(&mut paragraph, &mut out);
    out
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
             <p>Some <em>text</em> and <code>a&lt;b</code>. More.</p>\n\
             <pre>9  W---W</pre>\n\
             <ul>\n<li>one two</li>\n<li>three</li>\n</ul>\n\
             <div class=\"table\"><table>\n<tr><th>a</th><th>b</th></tr>\n\
             <tr><td><code>x</code></td><td><strong>y</strong></td></tr>\n</table></div>\n"
        );
    }

    #[test]
    fn links_and_anchors() {
        assert_eq!(
            inline("see [Notation](#notation)."),
            "see <a href=\"#notation\">Notation</a>."
        );
        assert_eq!(slug("Men: plain moves"), "men-plain-moves");
        // A lone star is text, not emphasis.
        assert_eq!(inline("3 * 4"), "3 * 4");
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
    }
}
