//! Corpora for the benchmarks: agent-like output (source code, test logs, prose, JSON
//! tool output, base64 blobs), clean or with credentials planted at a fixed spacing.
//! Deterministic (a fixed-seed xorshift), so every run measures the same bytes.

/// Fake but format-correct credentials of several families, one per planted slot.
pub const PLANTED: &[&str] = &[
    "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
    "AKIAQ3ZP7XK2M5RT9WLA",
    "xoxb-2614539803-3817653278-aBcDeFgHiJkLmNoPqRsTuVwX",
    "sk-ant-api03-aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234AA",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "npm_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
    "glpat-aB3dE5gH7jK9mN1pQ3sT",
];

const CODE: &str = r#"def load_config(path: str) -> dict:
    """Read the service configuration and apply defaults."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    data.setdefault("timeout", 30)
    for key, value in data.items():
        logger.debug("config %s=%r", key, value)
    return data

"#;
const LOG: &str = "tests/test_api.py::test_create_user PASSED                        [ 42%]\n\
tests/test_api.py::test_delete_user FAILED                        [ 43%]\n\
E   AssertionError: expected status 204, got 500 (request id 7f3a9c2e)\n\
2026-11-30T04:46:06.123Z INFO  worker-3 processed batch 1842 in 12.4ms\n";
const PROSE: &str = "I looked at the failing test and the stack trace points to the \
session middleware: the cookie is parsed before the request body is read, so the \
handler sees an empty form. I will move the parsing step after the body is loaded \
and add a regression test that posts a form with a large attachment.\n";
const JSON: &str = "{\"type\":\"tool_result\",\"tool\":\"bash\",\"exit_code\":0,\
\"output\":\"total 48\\ndrwxr-xr-x  6 dev dev 4096 Nov 30 04:46 .\\n-rw-r--r--  1 dev dev 1204 README.md\\n\",\
\"duration_ms\":38}\n";

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn base64_blob(rng: &mut Rng, len: usize) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(len + 1);
    for i in 0..len {
        s.push(A[(rng.next() % 64) as usize] as char);
        if i % 76 == 75 {
            s.push('\n');
        }
    }
    s.push('\n');
    s
}

/// About `size` bytes of agent-like output; with `every = Some(n)`, one credential from
/// [`PLANTED`] after roughly every `n` bytes. Returns the text and the number planted.
pub fn corpus(size: usize, every: Option<usize>) -> (Vec<u8>, usize) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = String::with_capacity(size + 4096);
    let mut planted = 0;
    let mut next_plant = every.unwrap_or(usize::MAX);
    while out.len() < size {
        match rng.next() % 5 {
            0 => out.push_str(CODE),
            1 => out.push_str(LOG),
            2 => out.push_str(PROSE),
            3 => out.push_str(JSON),
            _ => out.push_str(&base64_blob(&mut rng, 300)),
        }
        if out.len() >= next_plant {
            out.push_str("export TOKEN_VALUE=");
            out.push_str(PLANTED[planted % PLANTED.len()]);
            out.push('\n');
            planted += 1;
            next_plant += every.unwrap_or(usize::MAX);
        }
    }
    (out.into_bytes(), planted)
}
