//! Literal secrets registered at run time, and the encoded forms they are also matched in
//! (the GitHub runner's encoders, reduced to what agent output really shows: base64 at the
//! three alignments and base64url, URL encoding, JSON string escaping).

use crate::Error;

/// Shortest literal (and shortest encoded form) that is matched; shorter values would
/// redact ordinary text (the GitHub Actions `a` → `tr***nsforming` failure).
pub const MIN_LITERAL_LEN: usize = 8;

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Every form of `secret` the scrubber looks for: the value itself first, then its
/// encodings, deduplicated, each at least [`MIN_LITERAL_LEN`] bytes.
pub fn forms(secret: &[u8]) -> Result<Vec<Vec<u8>>, Error> {
    if secret.len() < MIN_LITERAL_LEN {
        return Err(Error::Literal {
            reason: format!(
                "a literal secret must be at least {MIN_LITERAL_LEN} bytes, got {}",
                secret.len()
            ),
        });
    }
    let mut out: Vec<Vec<u8>> = vec![secret.to_vec()];
    for offset in 0..3 {
        let b64 = base64_core(secret, offset);
        let url: Vec<u8> = b64
            .iter()
            .map(|&c| match c {
                b'+' => b'-',
                b'/' => b'_',
                c => c,
            })
            .collect();
        out.push(b64);
        out.push(url);
    }
    out.push(url_encode(secret));
    out.push(json_escape(secret));
    let mut seen = std::collections::HashSet::new();
    out.retain(|f| f.len() >= MIN_LITERAL_LEN && seen.insert(f.clone()));
    Ok(out)
}

/// The base64 characters that depend only on `secret` when it is encoded after `offset`
/// unknown bytes: those whose six bits lie wholly inside the secret's bits.
fn base64_core(secret: &[u8], offset: usize) -> Vec<u8> {
    let mut bytes = vec![0u8; offset];
    bytes.extend_from_slice(secret);
    let first_bit = 8 * offset;
    let end_bit = 8 * bytes.len();
    let mut out = Vec::with_capacity(bytes.len() * 4 / 3 + 1);
    let mut bit = 0;
    while bit + 6 <= end_bit {
        if bit >= first_bit {
            let mut v = 0u8;
            for k in 0..6 {
                let b = bit + k;
                v = (v << 1) | ((bytes[b / 8] >> (7 - b % 8)) & 1);
            }
            out.push(B64[v as usize]);
        }
        bit += 6;
    }
    out
}

fn url_encode(secret: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(secret.len() * 3);
    for &b in secret {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b);
        } else {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        }
    }
    out
}

fn json_escape(secret: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(secret.len() + 8);
    for &b in secret {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0..=0x1f => out.extend_from_slice(format!("\\u{b:04x}").as_bytes()),
            _ => out.push(b),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn std_b64(data: &[u8]) -> String {
        let mut s = String::new();
        for chunk in data.chunks(3) {
            let n = chunk.len();
            let v = (u32::from(chunk[0]) << 16)
                | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
                | u32::from(*chunk.get(2).unwrap_or(&0));
            for k in 0..=n {
                s.push(B64[((v >> (18 - 6 * k)) & 63) as usize] as char);
            }
        }
        s
    }

    #[test]
    fn short_literal_is_refused() {
        assert!(matches!(forms(b"1234567"), Err(Error::Literal { .. })));
        assert!(forms(b"12345678").is_ok());
    }

    #[test]
    fn base64_core_appears_in_every_alignment() {
        let secret = b"hunter2-correct-horse";
        let all = forms(secret).unwrap();
        for prefix in [&b""[..], b"u", b"us", b"usr", b"user:"] {
            let mut whole = prefix.to_vec();
            whole.extend_from_slice(secret);
            whole.extend_from_slice(b"@host");
            let encoded = std_b64(&whole);
            assert!(
                all.iter()
                    .any(|f| encoded.as_bytes().windows(f.len()).any(|w| w == f)),
                "no form found in base64 of {prefix:?}+secret: {encoded}"
            );
        }
    }

    #[test]
    fn url_and_json_forms() {
        let all = forms(b"p@ss\"w/rd\n12").unwrap();
        assert!(all.contains(&b"p%40ss%22w%2Frd%0A12".to_vec()));
        assert!(all.contains(&b"p@ss\\\"w/rd\\n12".to_vec()));
    }
}
