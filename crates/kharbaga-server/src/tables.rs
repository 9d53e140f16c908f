//! The endgame tables the server was given, for the games they apply to: those whose rules
//! have the tables' moves (the same rules key; the draw rules may differ).

use kharbaga::Rules;
use kharbaga_tablebase::files::rules_key;
use kharbaga_tablebase::tablebase::Tablebase;
use std::sync::Arc;

/// The server's tables, if any, with their rules key.
pub(crate) struct Tables {
    tables: Option<(Arc<Tablebase>, String)>,
}

impl Tables {
    pub fn new(tables: Option<Arc<Tablebase>>) -> Tables {
        Tables {
            tables: tables.map(|tb| {
                let key = rules_key(tb.rules());
                (tb, key)
            }),
        }
    }

    /// The tables, if a game under `rules` may use them.
    pub fn for_rules(&self, rules: &Rules) -> Option<Arc<Tablebase>> {
        self.tables
            .as_ref()
            .filter(|(_, key)| *key == rules_key(rules))
            .map(|(tb, _)| Arc::clone(tb))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_apply_to_games_with_their_moves_only() {
        let dir = std::env::temp_dir().join(format!(
            "kharbaga-server-empty-tables-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let tb = Arc::new(Tablebase::open(&dir, Rules::standard()).unwrap());
        let tables = Tables::new(Some(tb));
        let with = |text: &str| tables.for_rules(&text.parse().unwrap()).is_some();
        assert!(with("standard"));
        assert!(
            with("standard,no-progress=off"),
            "the draw rules do not matter"
        );
        assert!(!with("standard,removal=immediate"));
        assert!(!with("ludii"));
        assert!(Tables::new(None).for_rules(&Rules::standard()).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
