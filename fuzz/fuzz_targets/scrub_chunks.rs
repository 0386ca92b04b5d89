//! The scrubber fed arbitrary bytes in arbitrary chunkings (D2, D3, D6).
//!
//! Input: `ctl`, then `(ctl & 7) + 1` chunk-size bytes, then two bytes of plant
//! position, then the text. Oracles: no panic; streamed == whole (and a scrubber reused
//! after `flush` agrees); with `ctl & 8`, a GitHub PAT planted between spaces at the
//! chosen position never shows its first 12 bytes in the output.
#![no_main]

use libfuzzer_sys::fuzz_target;
use scrubline_core::RuleSet;
use scrubline_fuzz::{check_split_invariance, contains, plant, NEEDLE};

/// A chunk size from one byte: 0 (an empty feed, then one byte), 1..15 mostly, a few
/// hundred, or past the scrubber's 64 KiB slice.
fn chunk_size(b: u8) -> usize {
    match b {
        0..=0x7f => (b % 16) as usize,
        0x80..=0xef => (b as usize - 0x80) * 8 + 16,
        _ => 65_536 + (b as usize - 0xf0),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&ctl, rest)) = data.split_first() else {
        return;
    };
    let n = (ctl & 7) as usize + 1;
    if rest.len() < n + 2 {
        return;
    }
    let (sizes, rest) = rest.split_at(n);
    let (at, text) = rest.split_at(2);
    let sizes: Vec<usize> = sizes.iter().map(|&b| chunk_size(b)).collect();
    let set = RuleSet::builtin();
    check_split_invariance(&set, text, &sizes);
    if ctl & 8 != 0 {
        let at = u16::from_le_bytes([at[0], at[1]]) as usize % (text.len() + 1);
        let planted = plant(text, at);
        let out = check_split_invariance(&set, &planted, &sizes);
        // The output is input bytes and replacements; a needle not in the text can only
        // come from the planted token.
        if !contains(text, NEEDLE) && contains(&out, NEEDLE) {
            panic!(
                "planted token leaked\n text {:?}\n out  {:?}",
                String::from_utf8_lossy(&planted),
                String::from_utf8_lossy(&out)
            );
        }
    }
});
