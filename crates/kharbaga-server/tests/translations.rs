//! The page's texts: every key the scripts and index.html ask for is in the English table
//! (`assets/js/i18n/en.js`), and so is the explanation of every rule option, of each of its
//! values and of every named rule set the rules crate has. (That French and Arabic have the
//! same keys as English is checked in the browser, by `tests/browser_page.rs`.)

use kharbaga::{OPTION_KEYS, RULE_SET_NAMES};
use std::collections::BTreeSet;
use std::path::Path;

fn assets() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

/// The keys of a table: the quoted names at the start of its lines (`  'nav.new': ...`).
fn table_keys(file: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start().strip_prefix('\'')?;
            let (key, rest) = l.split_once('\'')?;
            rest.starts_with(':').then(|| key.to_string())
        })
        .collect()
}

/// The keys in `text` after each `marker` up to the closing `quote`.
fn keys_after(text: &str, marker: &str, quote: char, out: &mut BTreeSet<String>) {
    for part in text.split(marker).skip(1) {
        if let Some((key, _)) = part.split_once(quote) {
            out.insert(key.to_string());
        }
    }
}

#[test]
fn every_text_the_page_asks_for_is_in_the_english_table() {
    let en = table_keys(&assets().join("js/i18n/en.js"));
    assert!(en.len() > 100, "{} keys", en.len());
    let mut used = BTreeSet::new();
    let html = std::fs::read_to_string(assets().join("index.html")).unwrap();
    for attr in [
        "data-i18n=\"",
        "data-i18n-title=\"",
        "data-i18n-label=\"",
        "data-i18n-placeholder=\"",
    ] {
        keys_after(&html, attr, '"', &mut used);
    }
    let mut scripts = 0;
    for entry in std::fs::read_dir(assets().join("js")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "js") {
            let text = std::fs::read_to_string(&path).unwrap();
            keys_after(&text, " t('", '\'', &mut used);
            keys_after(&text, "(t('", '\'', &mut used);
            scripts += 1;
        }
    }
    assert!(
        scripts > 10 && used.len() > 80,
        "{scripts} scripts, {used:?}"
    );
    // The keys made from names: the rule sets, the options and their values.
    for name in RULE_SET_NAMES {
        used.insert(format!("ruleset.{name}"));
    }
    for (key, values) in OPTION_KEYS {
        used.insert(format!("option.{key}"));
        used.insert(format!("option.{key}.about"));
        for v in values.split('|').filter(|v| *v != "N" && *v != "off") {
            used.insert(format!("value.{v}"));
        }
    }
    let missing: Vec<_> = used.difference(&en).collect();
    assert!(missing.is_empty(), "not in en.js: {missing:?}");
}
