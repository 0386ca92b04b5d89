//! Helpers shared by the integration tests.

use std::sync::Arc;

use scrubline_core::{RuleSet, Scrubber};

/// Feed `text` to a fresh scrubber in chunks of the given sizes (cycled), then flush;
/// return everything it wrote.
pub fn feed_in_chunks(set: &Arc<RuleSet>, text: &[u8], sizes: &[usize]) -> Vec<u8> {
    let mut s = Scrubber::new(Arc::clone(set));
    let mut out = Vec::new();
    let mut rest = text;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let n = size.clamp(1, rest.len());
        s.feed(&rest[..n], &mut out);
        rest = &rest[n..];
    }
    s.flush(&mut out);
    out
}
