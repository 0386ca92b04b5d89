//! scrubline-core: the engine behind the `scrubline` Python package.
//!
//! [`scrub`] holds the streaming credential scrubber (rules, prefilter, stream state);
//! [`project`] the run boundary: trace lines in, redacted records and the published,
//! versioned JSONL shape out.
//! The crate is pure Rust; the PyO3 binding lives in `rust/py` and only converts.

pub mod adapt;
pub mod error;
pub mod exit;
pub mod project;
pub mod scrub;

pub use error::Error;
pub use exit::ExitCode;
pub use project::{project, project_run, Boundary, BoundaryConfig, Finish, SchemaVersion, Step};
pub use scrub::{scrub, scrub_cow, RuleInfo, RuleSet, RuleSpec, Scrubber, Tier};
