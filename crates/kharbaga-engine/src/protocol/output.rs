//! Where a session writes its answers.

use super::line::quote;
use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

/// A session's output, shared by the command loop and the search thread: each line is
/// written whole and flushed at once, so lines of the two never mix. A failed write is
/// ignored (a reader that went away ends the session through its input).
#[derive(Clone)]
pub(super) struct Output(Arc<Mutex<dyn Write + Send>>);

impl Output {
    /// Output to `writer`.
    pub(super) fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(writer)))
    }

    /// Writes one line.
    pub(super) fn send(&self, line: &str) {
        let mut out = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = out
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| out.flush());
    }

    /// Reports a problem with the `error` answer.
    pub(super) fn error(&self, message: &str) {
        self.send(&format!("error message={}", quote(message)));
    }
}
