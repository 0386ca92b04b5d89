//! Exit codes: what a scrubline command tells the process that started it (R6). One
//! table, used by the result the boundary writes and exported to the Python front ends.

/// The exit code of each way a command can end, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ExitCode {
    /// The run ended `done` or `drained`; an operation succeeded.
    Ok = 0,
    /// The run failed; a retry may help.
    Failed = 1,
    /// The answer did not match `--json-schema`; change the prompt.
    SchemaMismatch = 2,
    /// The run stopped at a limit.
    Limit = 3,
    /// A bad command line or configuration; nothing was read or stored.
    Usage = 64,
    /// Bad input data: a malformed trace line, a rejected cursor, tag or run id.
    BadInput = 65,
    /// An input file named on the command line does not exist or cannot be read.
    NoInput = 66,
    /// Cancelled by SIGINT.
    Interrupted = 130,
    /// Cancelled by SIGTERM.
    Terminated = 143,
}

impl ExitCode {
    /// Every exit code with its name, as the front ends import them.
    pub const ALL: [(&'static str, ExitCode); 9] = [
        ("ok", ExitCode::Ok),
        ("failed", ExitCode::Failed),
        ("schema_mismatch", ExitCode::SchemaMismatch),
        ("limit", ExitCode::Limit),
        ("usage", ExitCode::Usage),
        ("bad_input", ExitCode::BadInput),
        ("no_input", ExitCode::NoInput),
        ("interrupted", ExitCode::Interrupted),
        ("terminated", ExitCode::Terminated),
    ];

    /// The exit code a run's outcome implies when nothing more specific is known (a
    /// cancelled run says which signal ended it).
    pub fn for_outcome(outcome: &str) -> ExitCode {
        match outcome {
            "done" | "drained" => ExitCode::Ok,
            "limit" => ExitCode::Limit,
            _ => ExitCode::Failed,
        }
    }

    pub fn code(self) -> i64 {
        self as i64
    }
}

#[cfg(test)]
mod tests {
    use super::ExitCode;

    #[test]
    fn outcomes_map_to_the_documented_codes() {
        assert_eq!(ExitCode::for_outcome("done").code(), 0);
        assert_eq!(ExitCode::for_outcome("drained").code(), 0);
        assert_eq!(ExitCode::for_outcome("limit").code(), 3);
        assert_eq!(ExitCode::for_outcome("failed").code(), 1);
        assert_eq!(ExitCode::for_outcome("cancelled").code(), 1);
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<_> = ExitCode::ALL.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ExitCode::ALL.len());
    }
}
