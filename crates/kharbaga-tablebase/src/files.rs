//! Where table files live and how they are named: one file per slice, `NAME.kbt` (for
//! example `2m1k-0m1k.kbt`), in a directory per rule set.

use crate::slice::SliceId;
use kharbaga::Rules;
use std::path::{Path, PathBuf};

/// The extension of table files.
pub const EXTENSION: &str = "kbt";

/// The file of a slice in a directory.
pub fn table_path(dir: &Path, slice: SliceId) -> PathBuf {
    dir.join(format!("{slice}.{EXTENSION}"))
}

/// The slice a file name stands for, if it is a table file's name.
pub fn slice_of_file(path: &Path) -> Option<SliceId> {
    if path.extension()? != EXTENSION {
        return None;
    }
    path.file_stem()?.to_str()?.parse().ok()
}

/// The default directory of a rule set's tables: `$XDG_DATA_HOME/kharbaga/tables/RULES`, or
/// `~/.local/share/kharbaga/tables/RULES` (None when neither variable is set).
pub fn default_dir(rules: &Rules) -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").filter(|v| !v.is_empty())?)
            .join(".local")
            .join("share"),
    };
    Some(base.join("kharbaga").join("tables").join(rules_key(rules)))
}

/// The rules a table depends on, as a string: the rule set with every option that changes
/// the moves, and none of the draw rules (the tables count any repetition as a draw, and
/// the no-progress rule is measured apart, see the crate's README).
pub fn rules_key(rules: &Rules) -> String {
    let base = Rules::standard();
    let mut r = *rules;
    r.threefold_repetition = base.threefold_repetition;
    r.no_progress_limit = base.no_progress_limit;
    // Print with the named set closest in its moves: compare option by option.
    let printed = r.to_string();
    let name = printed.split(',').next().unwrap_or("standard");
    match Rules::named(name) {
        Some(named) => {
            let mut named_moves = named;
            named_moves.threefold_repetition = base.threefold_repetition;
            named_moves.no_progress_limit = base.no_progress_limit;
            if named_moves == r {
                name.to_string()
            } else {
                printed
                    .split(',')
                    .filter(|p| !p.starts_with("repetition=") && !p.starts_with("no-progress="))
                    .collect::<Vec<_>>()
                    .join(",")
            }
        }
        None => printed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_keys() {
        let s: SliceId = "2m1k-0m1k".parse().unwrap();
        let p = table_path(Path::new("/t"), s);
        assert_eq!(p, Path::new("/t/2m1k-0m1k.kbt"));
        assert_eq!(slice_of_file(&p), Some(s));
        assert_eq!(slice_of_file(Path::new("/t/2m1k-0m1k.tmp")), None);
        assert_eq!(slice_of_file(Path::new("/t/readme.kbt")), None);
        for name in ["standard", "sideways", "ludii", "dagaz"] {
            assert_eq!(rules_key(&Rules::named(name).unwrap()), name);
        }
        let r: Rules = "standard,no-progress=off".parse().unwrap();
        assert_eq!(rules_key(&r), "standard");
        let r: Rules = "standard,removal=immediate,repetition=no".parse().unwrap();
        assert_eq!(rules_key(&r), "standard,removal=immediate");
    }
}
