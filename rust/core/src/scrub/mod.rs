//! The streaming credential scrubber: rules (`rules`), their compiled form and the
//! keyword prefilter (`ruleset`), the stream state (`stream`), literal secrets and their
//! encodings (`literal`), the placeholder guard of context rules (`guard`), the
//! stream state as bytes for another process (`snapshot`), many rows of
//! consecutive streams in one call (`rows`), how far an overflow swallows
//! (`swallow`), questions asked less often while they answer no (`backoff`), the
//! byte permutes of the sieve (`vbmi`, the crate's one `unsafe`) and a storm's drop
//! where there is no sieve (`storm_drop`).

mod backoff;
mod guard;
mod literal;
mod opening;
mod prefilter;
mod rows;
pub mod rules;
mod ruleset;
mod sieve;
mod snapshot;
mod span;
mod storm_drop;
mod stream;
mod swallow;
#[cfg(target_arch = "x86_64")]
mod vbmi;

pub use literal::MIN_LITERAL_LEN;
pub use rows::{arrow_rows, Rows};
pub use rules::Tier;
pub use ruleset::{RuleInfo, RuleSet, RuleSpec, DEFAULT_REPLACEMENT, LITERAL_RULE_ID};
pub use snapshot::{SNAPSHOT_FORMAT_VERSION, SNAPSHOT_MAGIC};
pub use stream::{scrub, scrub_cow, Scrubber};
