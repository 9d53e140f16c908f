//! The line syntax of the engine protocol (`kharbaga engine`, modelled on the Hub protocol
//! of the Scan draughts engine; see docs/protocol.md): a command word and arguments
//! `name=value`, `name="a quoted value"` or a bare flag. Reading a line is kept apart from
//! the command loop so that it can be tested and fuzzed alone.

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
