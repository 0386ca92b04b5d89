//! Many texts of consecutive streams in one call, in Arrow's string layout (one data
//! buffer, row offsets): what a batch engine such as Spark hands over, without an object
//! per row. Row `i`'s output is what became safe to emit once it was fed; where a stream
//! ends after row `i`, the stream's held-back tail joins row `i`'s output.

use super::Scrubber;
use crate::Error;

/// Rows in Arrow's large-string layout: row `i` is `data[offsets[i]..offsets[i + 1]]`,
/// with the redactions completed while it was fed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Rows {
    pub data: Vec<u8>,
    pub offsets: Vec<i64>,
    pub redactions: Vec<i64>,
}

/// The rows of an Arrow string array's buffers: `offsets` holds `n + 1` little-endian
/// integers of `width` bytes (4 for `string`, 8 for `large_string`), rebased so the first
/// row starts at `data[0]`. Offsets that fall outside `data` or go backwards are refused.
pub fn arrow_rows<'a>(
    data: &'a [u8],
    offsets: &[u8],
    width: usize,
) -> Result<Vec<&'a [u8]>, Error> {
    let bad = |reason: String| Error::Config { reason };
    if width != 4 && width != 8 {
        return Err(bad(format!(
            "row offsets are 4 or 8 bytes wide, not {width}"
        )));
    }
    if !offsets.len().is_multiple_of(width) || offsets.len() < width {
        return Err(bad(format!(
            "row offsets: {} bytes is not a whole number (one or more) of {width}-byte offsets",
            offsets.len()
        )));
    }
    let at = |c: &[u8]| -> i64 {
        match c.len() {
            4 => i64::from(i32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            _ => i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]),
        }
    };
    let offsets: Vec<i64> = offsets.chunks_exact(width).map(at).collect();
    let first = offsets[0];
    let mut rows = Vec::with_capacity(offsets.len() - 1);
    for (i, pair) in offsets.windows(2).enumerate() {
        let (from, to) = (pair[0] - first, pair[1] - first);
        if from < 0 || to < from || to as u64 > data.len() as u64 {
            return Err(bad(format!(
                "row {i}: offsets {}..{} do not lie within the {} bytes of text",
                pair[0],
                pair[1],
                data.len()
            )));
        }
        rows.push(&data[from as usize..to as usize]);
    }
    Ok(rows)
}

impl Scrubber {
    /// Feed `rows` in order; `(text, ends)`: where `ends`, the stream ends after that row
    /// (its tail is flushed into the row's output) and the next row starts a new stream.
    /// The concatenated output of a stream's rows equals `scrub` of its concatenated
    /// input (D2), however the rows split it.
    pub fn feed_rows<'a>(&mut self, rows: impl IntoIterator<Item = (&'a [u8], bool)>) -> Rows {
        let mut out = Rows {
            offsets: vec![0],
            ..Rows::default()
        };
        for (text, ends) in rows {
            let before = self.redactions();
            self.feed(text, &mut out.data);
            if ends {
                self.flush(&mut out.data);
            }
            out.offsets.push(out.data.len() as i64);
            out.redactions.push((self.redactions() - before) as i64);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{scrub, RuleSet};

    const GHP: &str = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5";

    fn offsets4(o: &[i32]) -> Vec<u8> {
        o.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    #[test]
    fn rows_of_two_streams_equal_their_whole_scrubs() {
        let a = format!("key {GHP} end");
        let b = format!("other {GHP}");
        let (a1, a2) = a.split_at(10);
        let (b1, b2) = b.split_at(20);
        let rows = [(a1, false), (a2, true), (b1, false), (b2, true)];
        let mut s = Scrubber::new(RuleSet::builtin());
        let out = s.feed_rows(rows.iter().map(|&(t, e)| (t.as_bytes(), e)));
        let row = |i: usize| &out.data[out.offsets[i] as usize..out.offsets[i + 1] as usize];
        let set = RuleSet::builtin();
        assert_eq!([row(0), row(1)].concat(), scrub(&set, a.as_bytes()));
        assert_eq!([row(2), row(3)].concat(), scrub(&set, b.as_bytes()));
        assert_eq!(row(0), b"key ");
        assert_eq!(out.redactions, [0, 1, 0, 1]);
        assert_eq!(s.held(), 0);
    }

    #[test]
    fn arrow_offsets_are_read_and_rebased() {
        let data = b"abcdef";
        let rows = arrow_rows(&data[2..], &offsets4(&[2, 3, 3, 6]), 4).unwrap();
        assert_eq!(rows, [&b"c"[..], b"", b"def"]);
        let wide: Vec<u8> = [0i64, 6].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(arrow_rows(data, &wide, 8).unwrap(), [&data[..]]);
        assert_eq!(
            arrow_rows(data, &offsets4(&[0]), 4).unwrap(),
            Vec::<&[u8]>::new()
        );
    }

    #[test]
    fn bad_offsets_are_refused() {
        let data = b"abc";
        for (offsets, width) in [
            (offsets4(&[0, 4]), 4),
            (offsets4(&[2, 1]), 4),
            (offsets4(&[0, 1])[..7].to_vec(), 4),
            (Vec::new(), 4),
            (offsets4(&[0, 1]), 2),
        ] {
            assert!(matches!(
                arrow_rows(data, &offsets, width),
                Err(Error::Config { .. })
            ));
        }
    }
}
