//! scrubline-core: the engine behind the `scrubline` Python package.
//!
//! [`scrub`] holds the streaming credential scrubber (rules, prefilter, stream state).
//! The crate is pure Rust; the PyO3 binding lives in `rust/py` and only converts.

pub mod error;
pub mod scrub;

pub use error::Error;
pub use scrub::{scrub, RuleInfo, RuleSet, RuleSpec, Scrubber, Tier};
