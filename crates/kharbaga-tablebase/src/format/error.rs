//! Why a table file cannot be opened or probed.

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::FORMAT_VERSION;

/// Why a table file cannot be opened or probed. Every variant names the file.
#[derive(Debug)]
pub enum FormatError {
    /// The file cannot be opened, read or mapped.
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The file does not start with the table magic bytes.
    NotATable {
        /// The file.
        path: PathBuf,
    },
    /// The file is a table of a format version this code does not read.
    Version {
        /// The file.
        path: PathBuf,
        /// The version found in the file.
        found: u32,
    },
    /// The file is shorter than its header says.
    Truncated {
        /// The file.
        path: PathBuf,
        /// The length the file should have, in bytes.
        expected: u64,
        /// The length it has.
        actual: u64,
    },
    /// A checksum does not match the file's contents.
    Checksum {
        /// The file.
        path: PathBuf,
        /// Which checksum: `"header"` or `"file"`.
        what: &'static str,
        /// The checksum stored in the file.
        stored: u32,
        /// The checksum of the contents.
        computed: u32,
    },
    /// The file is inconsistent in some other way.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A probe asked for an index the table does not have.
    OutOfRange {
        /// The file.
        path: PathBuf,
        /// The index asked for.
        index: u64,
        /// The number of positions in the table.
        positions: u64,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Io { path, source } => {
                write!(f, "{}: cannot read table file: {source}", path.display())
            }
            FormatError::NotATable { path } => write!(
                f,
                "{}: not a Kharbaga table file (bad magic bytes)",
                path.display()
            ),
            FormatError::Version { path, found } => write!(
                f,
                "{}: table file format version {found} is not supported (this program reads \
                 version {FORMAT_VERSION})",
                path.display()
            ),
            FormatError::Truncated {
                path,
                expected,
                actual,
            } => write!(
                f,
                "{}: table file is truncated: {actual} bytes, expected {expected}",
                path.display()
            ),
            FormatError::Checksum {
                path,
                what,
                stored,
                computed,
            } => write!(
                f,
                "{}: table file is corrupt: {what} checksum is {computed:08x}, stored \
                 {stored:08x}",
                path.display()
            ),
            FormatError::Corrupt { path, reason } => {
                write!(f, "{}: table file is corrupt: {reason}", path.display())
            }
            FormatError::OutOfRange {
                path,
                index,
                positions,
            } => write!(
                f,
                "{}: index {index} is out of range (the table has {positions} positions)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FormatError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
