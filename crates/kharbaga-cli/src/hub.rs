//! `kharbaga engine`: the engine behind a line protocol on standard input and output,
//! modelled on the Hub protocol (version 2) of the Scan draughts engine. The protocol is
//! specified in docs/protocol.md; its command loop is `kharbaga_engine::protocol::Session`,
//! run here on standard input and output.

use crate::args::{CliError, TablesDir};
use kharbaga::Rules;
use kharbaga_engine::protocol::{Config, Session};
use std::io::{self, BufRead};

/// Talk to the engine through the Hub protocol on standard input and output
///
/// A line protocol for programs (graphical interfaces, match runners), modelled on the Hub
/// protocol of the Scan draughts engine: `hub` (identification and parameters), `set-param`,
/// `init`, `new-game`, `pos`, `level`, `go think|ponder|analyze`, `ponder-hit`, `stop`,
/// `ping`, `quit`. Positions are position strings, moves are in our notation. See
/// docs/protocol.md for the exact commands and answers.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Example session (> to the engine, < from it):
  > hub
  < id name=kharbaga version=0.1.0 author=\"the Kharbaga project\"
  < param name=rules value=standard type=string
  < ...
  < wait
  > init
  < ready
  > pos start moves=\"d4-e5 f6xd4\"
  > level move-time=1
  > go think
  < info depth=1 seldepth=3 score=0.12 nodes=40 time=0.000 nps=0.40 pv=\"c3xe5\"
  < ...
  < done move=c3xe5 ponder=d6xf4
  > quit")]
pub struct HubArgs {}

/// Runs the command: answers lines until `quit` or the end of input (an unreadable input
/// counts as its end).
pub fn run(_args: &HubArgs) -> Result<(), CliError> {
    let config = Config {
        // The default table directory of the rules, when it exists; `set-param
        // name=tables` chooses another (or none, with an empty value).
        tables: TablesDir { tables: None }
            .open(&Rules::standard())
            .ok()
            .flatten(),
        sandbox: None,
    };
    let lines = io::stdin()
        .lock()
        .split(b'\n')
        .map_while(Result::ok)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    Session::new(config, io::stdout()).run(lines);
    Ok(())
}
