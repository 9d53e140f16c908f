//! The batch mode several commands share: one answer line for each input line.

use crate::args::CliError;
use std::io::{self, BufRead, BufReader, Write};

/// Answers each line of `input` with `answer(line)` on `out`; a line that is not UTF-8 or
/// that `answer` refuses goes to `refused(line number, reason, out)`, which writes its own
/// answer line, and the batch goes on. Output is flushed before each read that could block,
/// so a caller may wait for each answer. Bad input is reported by the exit status at the end
/// ([`CliError::Reported`]).
pub fn answer_lines<W: Write>(
    input: impl io::Read,
    out: &mut W,
    mut answer: impl FnMut(&str) -> Result<String, String>,
    mut refused: impl FnMut(usize, &str, &mut W) -> io::Result<()>,
) -> Result<(), CliError> {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    let mut bad = false;
    for number in 1.. {
        if input.buffer().is_empty() {
            out.flush()?;
        }
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let answered = std::str::from_utf8(&line)
            .map_err(|_| "not valid UTF-8".to_string())
            .and_then(&mut answer);
        match answered {
            Ok(text) => writeln!(out, "{text}")?,
            Err(e) => {
                bad = true;
                refused(number, &e, out)?;
            }
        }
    }
    out.flush()?;
    if bad {
        Err(CliError::Reported)
    } else {
        Ok(())
    }
}
