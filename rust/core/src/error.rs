//! The one error type of the core. Each variant says where the problem is; the binding
//! maps variants onto the Python `ScrublineError` hierarchy.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A rule (built-in or custom) is invalid: which rule, and why.
    Rule { id: String, reason: String },
    /// A literal secret was refused (too short, empty).
    Literal { reason: String },
    /// A replacement template or another option is invalid.
    Config { reason: String },
    /// A runtime trace line was refused: which line (1-based), and why.
    Trace { line: u64, reason: String },
    /// A scrubber snapshot was refused (corrupt, truncated, newer format, other rules).
    Snapshot { reason: String },
}

impl Error {
    pub(crate) fn rule(id: &str, reason: impl Into<String>) -> Error {
        Error::Rule {
            id: id.to_string(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Rule { id, reason } => write!(f, "rule {id:?}: {reason}"),
            Error::Literal { reason } => write!(f, "literal secret: {reason}"),
            Error::Config { reason } => write!(f, "configuration: {reason}"),
            Error::Trace { line, reason } => write!(f, "trace line {line}: {reason}"),
            Error::Snapshot { reason } => write!(f, "scrubber snapshot refused: {reason}"),
        }
    }
}

impl std::error::Error for Error {}
