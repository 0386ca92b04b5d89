//! JSON at the boundary's hot path: a string writer that copies clean runs eight bytes at a
//! time, an object writer that emits fields in a shape's order, and a borrowed parser for
//! the flat objects most trace lines are.
//!
//! Both are exact or silent. `write_str` and `write_value` produce the same bytes as
//! `serde_json::to_writer` (compact); `parse_flat` returns what `serde_json` would parse,
//! or `None` when the line is anything else (then the caller takes the general path,
//! which names any error). Tests hold them to `serde_json` on arbitrary input.

use std::borrow::Cow;
use std::io::Write;

use serde_json::Value;

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that JSON must escape (`"`, `\`, below 0x20). The
/// lowest set bit is exact; bits above it may be false (a borrow), so only the first
/// flagged byte is used.
#[inline]
fn special_mask(x: u64) -> u64 {
    let q = x ^ (LO * u64::from(b'"'));
    let b = x ^ (LO * u64::from(b'\\'));
    ((x.wrapping_sub(LO * 0x20) & !x) | (q.wrapping_sub(LO) & !q) | (b.wrapping_sub(LO) & !b)) & HI
}

#[inline]
fn is_special(c: u8) -> bool {
    c < 0x20 || c == b'"' || c == b'\\'
}

/// The index of the first byte at or after `i` that JSON must escape, or `s.len()`.
#[inline]
fn next_special(s: &[u8], mut i: usize) -> usize {
    while i + 8 <= s.len() {
        let word = u64::from_le_bytes(s[i..i + 8].try_into().expect("eight bytes"));
        let m = special_mask(word);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let n = s.len();
    if i == n {
        return n;
    }
    if n < 8 {
        while i < n && !is_special(s[i]) {
            i += 1;
        }
        return i;
    }
    // The last eight bytes, overlapping what was seen: the seen bytes are replaced by a
    // byte that needs no escape, so no borrow from them can flag an unseen one.
    let seen = 8 * (8 - (n - i)) as u32;
    let low = (1u64 << seen) - 1;
    let word = u64::from_le_bytes(s[n - 8..].try_into().expect("eight bytes"));
    let m = special_mask((word & !low) | ((LO * u64::from(b'A')) & low));
    if m == 0 {
        n
    } else {
        n - 8 + (m.trailing_zeros() / 8) as usize
    }
}

/// Append the decimal digits of `v` (what `write!(out, "{v}")` writes, without `fmt`).
pub(crate) fn write_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[at..]);
}

/// Append `s` as a JSON string, escaped exactly as `serde_json` escapes it.
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    let mut start = 0;
    loop {
        let i = next_special(b, start);
        out.extend_from_slice(&b[start..i]);
        let Some(&c) = b.get(i) else { break };
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(c >> 4)],
                    HEX[usize::from(c & 0xf)],
                ]);
            }
        }
        start = i + 1;
    }
    out.push(b'"');
}

/// Append `v` as compact JSON, byte-identical to `serde_json::to_writer`.
pub(crate) fn write_value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        // With `arbitrary_precision`, a number is written as the text it was read from.
        Value::Number(n) => write!(out, "{n}").expect("write into memory"),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(out, item);
            }
            out.push(b']');
        }
        Value::Object(m) => {
            out.push(b'{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str(out, k);
                out.push(b':');
                write_value(out, item);
            }
            out.push(b'}');
        }
    }
}
/// Writes one JSON object field by field, in the order the shape publishes them.
pub(crate) struct ObjWriter<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> ObjWriter<'a> {
    pub(crate) fn new(out: &'a mut Vec<u8>) -> ObjWriter<'a> {
        out.push(b'{');
        ObjWriter { out, first: true }
    }

    fn key(&mut self, k: &str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        write_str(self.out, k);
        self.out.push(b':');
    }

    pub(crate) fn value(&mut self, k: &str, v: &Value) -> &mut Self {
        self.key(k);
        write_value(self.out, v);
        self
    }

    /// Write a field; returns where its value's JSON lies in the output.
    pub(crate) fn value_at(&mut self, k: &str, v: &Value) -> std::ops::Range<usize> {
        self.key(k);
        let start = self.out.len();
        write_value(self.out, v);
        start..self.out.len()
    }

    pub(crate) fn str(&mut self, k: &str, v: &str) -> &mut Self {
        self.key(k);
        write_str(self.out, v);
        self
    }

    /// Write a string field; returns where its value's JSON lies in the output.
    pub(crate) fn str_at(&mut self, k: &str, v: &str) -> std::ops::Range<usize> {
        self.key(k);
        let start = self.out.len();
        write_str(self.out, v);
        start..self.out.len()
    }

    pub(crate) fn uint(&mut self, k: &str, v: u64) -> &mut Self {
        self.key(k);
        write_u64(self.out, v);
        self
    }

    pub(crate) fn raw(&mut self, k: &str, json: &[u8]) -> &mut Self {
        self.key(k);
        self.out.extend_from_slice(json);
        self
    }

    pub(crate) fn end(&mut self) {
        self.out.push(b'}');
    }
}

/// A flat object's fields in order: `(key, value)`, both unescaped.
pub(crate) type Flat<'a> = Vec<(Cow<'a, str>, Cow<'a, str>)>;

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    // The four bytes JSON calls whitespace (and `serde_json` skips).
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let digits = b.get(i..i + 4)?;
    let mut v = 0;
    for &d in digits {
        v = v * 16 + char::from(d).to_digit(16)?;
    }
    Some(v)
}

/// The string whose opening quote is at `i - 1`: its text and the index after its
/// closing quote. `None` for anything `serde_json` would refuse, and for nothing else
/// that matters here (a refusal only sends the line down the general path).
fn string(s: &str, mut i: usize) -> Option<(Cow<'_, str>, usize)> {
    let b = s.as_bytes();
    let start = i;
    let mut owned: Option<String> = None;
    loop {
        let j = next_special(b, i);
        let c = *b.get(j)?;
        if c < 0x20 {
            return None; // a raw control character: not JSON
        }
        if c == b'"' {
            let text = match owned {
                None => Cow::Borrowed(&s[start..j]),
                Some(mut o) => {
                    o.push_str(&s[i..j]);
                    Cow::Owned(o)
                }
            };
            return Some((text, j + 1));
        }
        // A backslash: what it stands for.
        // At most the rest of the line: one allocation, no regrowth.
        let o = owned.get_or_insert_with(|| String::with_capacity(s.len() - start));
        o.push_str(&s[i..j]);
        let e = *b.get(j + 1)?;
        i = j + 2;
        match e {
            b'"' => o.push('"'),
            b'\\' => o.push('\\'),
            b'/' => o.push('/'),
            b'b' => o.push('\u{8}'),
            b'f' => o.push('\u{c}'),
            b'n' => o.push('\n'),
            b'r' => o.push('\r'),
            b't' => o.push('\t'),
            b'u' => {
                let hi = hex4(b, i)?;
                i += 4;
                let code = match hi {
                    0xD800..=0xDBFF => {
                        if b.get(i..i + 2)? != b"\\u" {
                            return None;
                        }
                        let lo = hex4(b, i + 2)?;
                        if !(0xDC00..=0xDFFF).contains(&lo) {
                            return None;
                        }
                        i += 6;
                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                    }
                    0xDC00..=0xDFFF => return None,
                    _ => hi,
                };
                o.push(char::from_u32(code)?);
            }
            _ => return None,
        }
    }
}

/// Parse `s` when it is one JSON object whose values are all strings, with no key twice.
/// `None` otherwise: nested values, numbers, duplicates, and anything malformed go to the
/// general path.
pub(crate) fn parse_flat(s: &str) -> Option<Flat<'_>> {
    let b = s.as_bytes();
    let mut i = skip_ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    let mut fields: Flat = Vec::with_capacity(4);
    i = skip_ws(b, i + 1);
    loop {
        if b.get(i) != Some(&b'"') {
            return None; // includes `{}`: no fields, no type, the general path says so
        }
        let (key, after) = string(s, i + 1)?;
        i = skip_ws(b, after);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(b, i + 1);
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let (value, after) = string(s, i + 1)?;
        if fields.iter().any(|(k, _)| *k == key) {
            return None;
        }
        fields.push((key, value));
        i = skip_ws(b, after);
        match b.get(i) {
            Some(b',') => i = skip_ws(b, i + 1),
            Some(b'}') => break,
            _ => return None,
        }
    }
    (skip_ws(b, i + 1) == b.len()).then_some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn serde_str(s: &str) -> Vec<u8> {
        serde_json::to_vec(s).unwrap()
    }

    #[test]
    fn escapes_like_serde_at_every_position() {
        for c in (0u8..0x80).chain([0xc3]) {
            for pad in 0..17 {
                let mut s = "a".repeat(pad);
                if c < 0x80 {
                    s.push(char::from(c));
                } else {
                    s.push('\u{e9}');
                }
                s.push_str("tail text!");
                let mut out = Vec::new();
                write_str(&mut out, &s);
                assert_eq!(out, serde_str(&s), "byte {c:#x} after {pad}");
            }
        }
    }

    #[test]
    fn integers_as_fmt_writes_them() {
        for v in [0, 1, 9, 10, 99, 100, 12345, u64::MAX - 1, u64::MAX] {
            let mut out = Vec::new();
            write_u64(&mut out, v);
            assert_eq!(out, v.to_string().as_bytes());
        }
    }

    #[test]
    fn parses_flat_objects_and_refuses_the_rest() {
        let ok = parse_flat(r#" {"type":"a", "text" : "x\ny\u00e9\ud83d\ude00\/"} "#).unwrap();
        assert_eq!(ok[1].1, "x\ny\u{e9}\u{1F600}/");
        assert!(matches!(ok[0].1, Cow::Borrowed("a")));
        for bad in [
            r#"{}"#,
            r#"{"a":1}"#,
            r#"{"a":"b","a":"c"}"#,
            r#"{"a":"b"} x"#,
            r#"{"a":"b",}"#,
            r#"{"a":"\ud800"}"#,
            r#"{"a":"\udc00"}"#,
            r#"{"a":"\x"}"#,
            "{\"a\":\"\t\"}",
            r#"{"a":"b""#,
            r#"["a"]"#,
        ] {
            assert!(parse_flat(bad).is_none(), "{bad}");
        }
    }

    fn arb_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            any::<String>().prop_map(Value::String),
            "[\"\\\\\\x00-\\x1f a-z\u{e9}]{0,40}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec(("[a-z\"\\\\\n]{0,6}", inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// The first byte to escape, found a word at a time, is the first one a plain
        /// scan finds, from any start (the seen bytes never flag an unseen one).
        #[test]
        fn next_special_is_the_first_special_byte(
            s in proptest::collection::vec(
                proptest::sample::select(vec![b' ', b'!', b'A', b'"', b'\\', 0, 0x1f, 0x0a, 0x80, 0xff]),
                0..40,
            ),
            from in 0usize..40,
        ) {
            let from = from.min(s.len());
            let plain = (from..s.len()).find(|&i| is_special(s[i])).unwrap_or(s.len());
            prop_assert_eq!(next_special(&s, from), plain);
        }

        /// The writer is byte-identical to serde_json for any value.
        #[test]
        fn write_value_is_serde(v in arb_value()) {
            let mut out = Vec::new();
            write_value(&mut out, &v);
            prop_assert_eq!(out, serde_json::to_vec(&v).unwrap());
        }

        /// A parsed flat object is what serde_json reads; a refusal is either not JSON,
        /// or not a flat all-string object without duplicates.
        #[test]
        fn parse_flat_agrees_with_serde(
            fields in proptest::collection::vec(("[a-c\"\\\\]{0,3}", any::<String>()), 0..4),
            ws in "[ \t\r\n]{0,2}",
            mangle in proptest::option::of((0usize..400, "[\"\\\\{}:,u0-9a-fA-FdD \\x00-\\x1f]{1,3}")),
            escape_all in any::<bool>(),
        ) {
            let mut line = format!("{ws}{{");
            for (i, (k, v)) in fields.iter().enumerate() {
                if i > 0 { line.push(','); }
                line.push_str(&String::from_utf8(serde_str(k)).unwrap());
                line.push_str(&ws);
                line.push(':');
                let v = if escape_all {
                    let mut e = String::from("\"");
                    for u in v.encode_utf16() { e.push_str(&format!("\\u{u:04X}")); }
                    e.push('"');
                    e
                } else {
                    String::from_utf8(serde_str(v)).unwrap()
                };
                line.push_str(&v);
            }
            line.push('}');
            line.push_str(&ws);
            if let Some((at, junk)) = &mangle {
                let mut at = *at % (line.len() + 1);
                while !line.is_char_boundary(at) { at -= 1; }
                line.insert_str(at, junk);
            }
            let ours = parse_flat(&line);
            let theirs: Result<serde_json::Map<String, Value>, _> = serde_json::from_str(&line);
            match ours {
                Some(f) => {
                    let m = theirs.expect("serde accepts what parse_flat accepts");
                    prop_assert_eq!(m.len(), f.len());
                    for ((k, v), (mk, mv)) in f.iter().zip(m.iter()) {
                        prop_assert_eq!(k.as_ref(), mk.as_str());
                        prop_assert_eq!(Some(v.as_ref()), mv.as_str());
                    }
                }
                None => {
                    // Refusing valid input only costs the general path; but an
                    // unmangled flat object without a duplicate key must be taken.
                    let mut keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
                    keys.sort_unstable();
                    keys.dedup();
                    let dup = keys.len() < fields.len();
                    prop_assert!(
                        theirs.is_err() || fields.is_empty() || dup || mangle.is_some(),
                        "refused a flat object serde reads: {:?}", line
                    );
                }
            }
        }
    }
}
