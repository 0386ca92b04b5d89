//! The run boundary fed arbitrary trace lines (docs/projection.md).
//!
//! Input: a control byte (bits 0-1: schema version 4/5/6/8; bit 2: a turn-token limit
//! of `(ctl >> 3) * 64`), then the trace, split on `\n`. Oracles (in `drive`): no panic;
//! every published line and the result are JSON objects with `type` and
//! `schema_version`; an error is `Error::Trace` naming the bad line; after it, `finish`
//! writes exactly one result line, last; records are numbered without a gap; the
//! published assistant text is the result's `assistant_text` (R5); the borrowed path
//! for text deltas, the general path and `admit_block` agree (`check_paths`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use scrubline_fuzz::{check_paths, drive};

fuzz_target!(|data: &[u8]| {
    let Some((&ctl, trace)) = data.split_first() else {
        return;
    };
    let version = [4, 5, 6, 8][(ctl & 3) as usize];
    let max = (ctl & 4 != 0).then_some((ctl >> 3) as u64 * 64);
    drive(trace.split(|&c| c == b'\n'), version, max);
    let lines: Vec<&[u8]> = trace.split(|&c| c == b'\n').collect();
    check_paths(&lines, version);
});
