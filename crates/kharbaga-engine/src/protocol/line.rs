//! The line syntax of the engine protocol: a command word and arguments `name=value`,
//! `name="a quoted value"` or a bare flag. Reading a line is kept apart from the command
//! loop so that it can be tested and fuzzed alone.

/// One protocol line: a command word and its arguments, each a name with an optional value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The command word.
    pub command: String,
    /// The arguments in order: `name=value` has a value, a flag like `infinite` has none.
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// Reads a line: `<command> <name>=<value> <flag> <name>="a quoted value" ...`. `None` for
    /// a blank line.
    pub fn parse(text: &str) -> Result<Option<Line>, String> {
        let mut rest = text.trim_start();
        let word = |s: &str| s.find(char::is_whitespace).unwrap_or(s.len());
        if rest.is_empty() {
            return Ok(None);
        }
        let end = word(rest);
        let command = rest[..end].to_string();
        rest = rest[end..].trim_start();
        let mut args = Vec::new();
        while !rest.is_empty() {
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '=')
                .unwrap_or(rest.len());
            let name = rest[..end].to_string();
            if name.is_empty() {
                return Err(format!("an argument without a name at '{rest}'"));
            }
            rest = &rest[end..];
            let value = match rest.strip_prefix('=') {
                None => None,
                Some(after) => {
                    if let Some(quoted) = after.strip_prefix('"') {
                        let close = quoted
                            .find('"')
                            .ok_or_else(|| format!("the value of '{name}' has no closing quote"))?;
                        rest = &quoted[close + 1..];
                        Some(quoted[..close].to_string())
                    } else {
                        let end = word(after);
                        rest = &after[end..];
                        Some(after[..end].to_string())
                    }
                }
            };
            args.push((name, value));
            rest = rest.trim_start();
        }
        Ok(Some(Line { command, args }))
    }

    /// The value of argument `name` (the first one so named); a flag's value is `""`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }
}

/// An argument value as written on a line: in double quotes when it is empty or holds a
/// space, `=` or `"` (a double quote inside becomes a single quote: the protocol has no
/// escapes).
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains(|c: char| c.is_whitespace() || c == '=' || c == '"') {
        format!("\"{}\"", value.replace('"', "'"))
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &Line) -> Vec<(&str, Option<&str>)> {
        line.args
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_deref()))
            .collect()
    }

    #[test]
    fn lines_are_read_with_flags_values_and_quotes() {
        let line = Line::parse("  pos pos=W:Bc3:Wd4 moves=\"d4xb2 \" start  x= ")
            .unwrap()
            .unwrap();
        assert_eq!(line.command, "pos");
        assert_eq!(
            args(&line),
            [
                ("pos", Some("W:Bc3:Wd4")),
                ("moves", Some("d4xb2 ")),
                ("start", None),
                ("x", Some("")),
            ]
        );
        assert_eq!(line.get("start"), Some(""));
        assert_eq!(line.get("moves"), Some("d4xb2 "));
        assert_eq!(line.get("nothing"), None);
        let line = Line::parse("set-param name=rules value=\"standard,removal=immediate\"")
            .unwrap()
            .unwrap();
        assert_eq!(line.get("value"), Some("standard,removal=immediate"));
        assert_eq!(Line::parse("   ").unwrap(), None);
        let e = Line::parse("pos moves=\"d4-e5").unwrap_err();
        assert!(e.contains("'moves' has no closing quote"), "{e}");
        let e = Line::parse("level =3").unwrap_err();
        assert!(e.contains("without a name"), "{e}");
    }

    #[test]
    fn values_are_quoted_when_needed() {
        assert_eq!(quote("d4-e5"), "d4-e5");
        assert_eq!(quote("d4-e5 f6xd4"), "\"d4-e5 f6xd4\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("a=b"), "\"a=b\"");
        assert_eq!(quote("say \"hi\""), "\"say 'hi'\"");
        // What quote writes, parse reads back.
        for value in ["x", "a b", "", "standard,removal=immediate"] {
            let line = Line::parse(&format!("c v={}", quote(value)))
                .unwrap()
                .unwrap();
            assert_eq!(line.get("v"), Some(value));
        }
    }
}
