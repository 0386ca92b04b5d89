//! Many rows of consecutive streams in one call (K1, K2): each stream's rows,
//! concatenated, equal the scrub of the stream's text, however its rows split it.

use proptest::prelude::*;
use scrubline_core::scrub::arrow_rows;
use scrubline_core::{scrub, RuleSet, Scrubber};

const GHP: &str = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5";

/// One stream's text and where its rows are cut (byte offsets, unsorted, may repeat).
fn stream() -> impl Strategy<Value = (Vec<u8>, Vec<usize>)> {
    (
        proptest::collection::vec(
            prop_oneof![
                Just(GHP.as_bytes().to_vec()),
                Just(b"password=\"hunter22\"".to_vec()),
                Just(b"AKIAQ3ZP7XK2M5RT9WLA".to_vec()),
                Just(b"-----BEGIN PRIVATE KEY-----\nMIIEowIBAAKCAQEA".to_vec()),
                proptest::collection::vec(any::<u8>(), 0..12),
                "[gph_AKI\\-Q~ ]{0,8}".prop_map(String::into_bytes),
            ],
            0..8,
        )
        .prop_map(|parts| parts.concat()),
        proptest::collection::vec(any::<proptest::sample::Index>(), 0..5),
    )
        .prop_map(|(text, cuts)| {
            let mut at: Vec<usize> = cuts.iter().map(|i| i.index(text.len() + 1)).collect();
            at.sort_unstable();
            (text, at)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn k1_k2_rows_of_streams_equal_each_streams_scrub(
        streams in proptest::collection::vec(stream(), 1..5),
        wide in any::<bool>(),
    ) {
        // Packed as Arrow packs a string column: one data buffer, row offsets.
        let (mut data, mut offsets, mut ends) = (Vec::new(), vec![0i64], Vec::new());
        for (text, cuts) in &streams {
            let mut from = 0;
            for &cut in cuts.iter().chain([&text.len()]) {
                data.extend_from_slice(&text[from..cut]);
                offsets.push(data.len() as i64);
                ends.push(false);
                from = cut;
            }
            *ends.last_mut().unwrap() = true;
        }
        let packed: Vec<u8> = if wide {
            offsets.iter().flat_map(|o| o.to_le_bytes()).collect()
        } else {
            offsets.iter().flat_map(|&o| (o as i32).to_le_bytes()).collect()
        };
        let rows = arrow_rows(&data, &packed, if wide { 8 } else { 4 }).unwrap();
        prop_assert_eq!(rows.len(), ends.len());
        let set = RuleSet::builtin();
        let mut s = Scrubber::new(set.clone());
        let out = s.feed_rows(rows.into_iter().zip(ends.iter().copied()));
        prop_assert_eq!(out.offsets.len(), ends.len() + 1);
        let mut row = 0;
        for (text, cuts) in &streams {
            let n = cuts.len() + 1;
            let (from, to) = (out.offsets[row] as usize, out.offsets[row + n] as usize);
            prop_assert_eq!(&out.data[from..to], &scrub(&set, text)[..]);
            // The redactions of its rows add up to those of the stream scrubbed alone.
            let mut alone = Scrubber::new(set.clone());
            let mut sink = Vec::new();
            alone.feed(text, &mut sink);
            alone.flush(&mut sink);
            let counted: i64 = out.redactions[row..row + n].iter().sum();
            prop_assert_eq!(counted as u64, alone.redactions());
            row += n;
        }
        prop_assert_eq!(s.held(), 0);
    }
}
