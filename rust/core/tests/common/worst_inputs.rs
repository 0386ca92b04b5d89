//! The adversarial inputs of `tests/worst.rs`, each a unit repeated (or a head and a
//! body repeated after it): the tests state their bounds, and the `worst` example of
//! `scrubline-bench` (`TESTS=1`) measures the same inputs beside clean text.

/// Prefix storms and near-misses: none of them is a credential.
pub const PREFIX_STORMS: [&str; 8] = [
    "ghp_",
    "sk-",
    "xoxb-",
    "AKIA",
    "Q~",
    "-us",
    "://a:",
    "sk-ant-api03-",
];

/// Storms made only of a token's own characters, and what each scrubs to: one token
/// that outgrows its rule.
pub const TOKEN_STORMS: [(&str, &str); 2] = [
    ("glpat-", "[REDACTED:gitlab-pat]"),
    ("eyJ", "[REDACTED:jwt]"),
];

/// `eyJ-` 2,000 times then `!`: each `eyJ` a JWT candidate alive to the `!`.
pub fn overlapping_long_candidates() -> String {
    let mut unit = "eyJ-".repeat(2000);
    unit.push('!');
    unit
}

/// npm tokens one character short and one long (they are exactly 36 after the prefix).
pub const NEAR_MISS_TOKENS: [&str; 2] = [
    "npm_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM ",
    "npm_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5x ",
];

/// Tokens of 130 to 250 bytes, each run into its next copy.
pub const LONG_TOKENS_RUN_TOGETHER: [&str; 3] = [
    "AWS_BEARER_TOKEN_BEDROCK=ABSKfKUNdLw+9fZlH/j4DseUWTAolp3OvGZpseAa9LgkmcinCrPqejuYCd8NBt+2dml8fU9sRCPTipT0tbebVuIZqo560YNJ/W/k0ejaSTH3qUi+9oyX516wDVmZbIrMxF16Axc8=",
    "JIRA_API=ATATT3VzexiUlQsJvz3J29zHeR8oMSTt-5mkw20U7hHQJEpVcXlewpyHbs9Udem_otCJ5q08clPiiS96hkUN3N_8TEIMqeBP3nei-C7mkmHiRXLHy0VZ5zceD1_EFRlCOK1fE55tvDqlIhloQ9s6_DM9-C4o3TSWJZ7NTiIxg-D3kcLHOTQLMS8U=4AD8ED6",
    "CF_ORIGIN_CA=v1.0-41be5eae7ea8b1f0fff2b340-3b48a6e5538e97221380bc0b8097cc9048c3d962e60ee6c0c3feda6b4e70ab15fbbfadc4d5a7d34f962e611b2d10d43292267905228e61ea96b4026788d4fc0efb6f401b0364d9d1c3",
];

/// Tokens of 70 to 110 bytes, each run into its next copy, with a hit or three a copy.
pub const REPEATING_TOKENS_RUN_TOGETHER: [&str; 3] = [
    "sk-or-v1-BCNSMSPIPHLQUJRZKNGWJEHOWMJANUSJDJHDTGIXBREJZEYOQMTVCEXTEZRJXTVC",
    "sk-ant-api03-vTZZAQ2nbj0DcuEgEjuShTtGpVnd5ueDxbkahZcyBWNdvkYAh2Wl2MWRle7BykIr3nUOQnJYVVUbY7UzvFnyY7Ctk4fyAA",
    "pcsk_FQnpjy_VexrkbfDGPxTWsl0fbS4t4okZ9soPsyagY2d0CuGcY8iri8HYjkorID6kyGPqj",
];

/// Keys printed back to back with their names, the next name run into each one.
pub const KEYS_RUN_INTO_NAMES: [&str; 2] = [
    "MAILCHIMP_KEY=a8c78fb9b8e81f6b858abf27d74cbd7c-us21",
    "TWILIO_API_KEY_SID=SK4ea30621e3581f3e9c5bb6f6ae72e04b",
];

/// Candidates that never resolve: a head, a body repeated after it, and what the
/// whole scrubs to.
pub const NEVER_RESOLVING: [(&str, &str, &str); 3] = [
    (
        "-----BEGIN PRIVATE KEY-----\n",
        "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123456789+/",
        "[REDACTED:private-key-pem]",
    ),
    ("password=", "a", "password=[REDACTED:password-assignment]"),
    (
        "Authorization: Bearer ",
        "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123456789",
        "Authorization: Bearer [REDACTED:http-bearer]",
    ),
];

/// The units of the storms that do not repeat (see [`varied_storm`]).
pub const VARIED_STORMS: [&str; 5] = ["sk-", "token", "ghp_", "AZDO", "eyJ"];

/// Keywords of rules that spell them one way only (AWS's `AKIA`, GitHub's `ghp_`,
/// Slack's `xoxb-`), each written in the other case: storms of them (see
/// [`varied_storm`]) hold no hit at all, as the prefilter finds those keywords as
/// written.
pub const WRONG_CASE_STORMS: [&str; 3] = ["akia", "GHP_", "XOXB-"];

/// Words no keyword holds, each of whose four bytes a bucket of a Teddy pass admits
/// by its nibbles at that place (found by the prefilter's layout for the built-in
/// keywords on a CPU without AVX-512): Teddy flags every copy and verifies it in vain,
/// reporting nothing, so blocks of them are found by a sample of their places and
/// walked (see scrubber.md, "What an attacker can still choose"). And `AISA`, which
/// both of the sieve's sets of buckets flag (found by `Sieve::look_alike_of_both` for
/// the built-in keywords): a flag at every copy, where the sieve reads.
pub const LOOK_ALIKE_STORMS: [&str; 4] = ["daaa", "hava", "cas-", "AISA"];

/// A storm that does not repeat: `unit`, then one byte of a seeded pseudo-random
/// sequence of `aZ09_-.:= `, again and again, to at least `size` bytes (a repeating
/// storm's hits are counted a period at a time; these are read hit by hit).
pub fn varied_storm(unit: &str, size: usize) -> Vec<u8> {
    varied_storm_by(unit, size, 1)
}

/// The units of storms with two bytes between copies (see [`varied_storm_by`]): the
/// next step of an attacker whose storms with one are read by stretches of copies.
pub const TWO_BETWEEN_STORMS: [&str; 4] = ["sk-", "ghp_", "AZDO", "hava"];

/// Storms whose copies lie further apart, and how many bytes of the sequence stand
/// between them (see [`varied_storm_by`]): a copy in 12 to 131 bytes. A dense part was
/// read as a storm only where its gates dropped a hit every 16 bytes, so the first four
/// were walked hit by hit (`AZDO` eight bytes apart at ~160-250 MB/s); the next two
/// hold too few hits for a dense block, and each copy was a stop of Teddy and a
/// candidate of the stream (`sk-` 80 bytes apart at ~280-400 MB/s). `daaa`, a
/// look-alike (see [`LOOK_ALIKE_STORMS`]), eight bytes apart: without the sieve, its
/// blocks were sampled under the walk's threshold half the time and Teddy verified
/// every copy in vain (~370-400 MB/s); walked whole, with no stretch of copies to
/// skip, ~470-530 while a block in five still went back to Teddy, ~630-680 once a
/// walked block stays walked.
pub const SPREAD_STORMS: [(&str, usize); 7] = [
    ("ghp_", 8),
    ("AZDO", 8),
    ("sk-", 40),
    ("AZDO", 40),
    ("sk-", 80),
    ("eyJ", 128),
    ("daaa", 8),
];

/// [`varied_storm`] with `between` bytes of the sequence after each copy.
pub fn varied_storm_by(unit: &str, size: usize, between: usize) -> Vec<u8> {
    varied_storm_of(unit, size, between, b"aZ09_-.:= ")
}

/// Keywords whose rules read a bounded run of word bytes after them before a byte they
/// need (`quoted-key-value` reads `token[A-Za-z0-9_.-]{0,32}`, then a quote), in storms
/// with an alphanumeric byte after each copy (see [`word_storm`]): each copy's run
/// goes on past the bound, through the next copies. Read a candidate a hit, each
/// reading 38 bytes to die, `token` so ran at ~6 MB/s.
pub const WORD_STORMS: [&str; 3] = ["token", "password", "secret"];

/// A storm of `unit` and one byte of a seeded pseudo-random sequence of `aZ09` after
/// each copy, to at least `size` bytes.
pub fn word_storm(unit: &str, size: usize) -> Vec<u8> {
    varied_storm_of(unit, size, 1, b"aZ09")
}

/// `unit`, then `between` bytes of a seeded pseudo-random sequence of `alphabet`,
/// again and again, to at least `size` bytes.
pub fn varied_storm_of(unit: &str, size: usize, between: usize, alphabet: &[u8]) -> Vec<u8> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut text = Vec::with_capacity(size + unit.len() + between);
    while text.len() < size {
        text.extend_from_slice(unit.as_bytes());
        for _ in 0..between {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            text.push(alphabet[(x % alphabet.len() as u64) as usize]);
        }
    }
    text
}

/// Runs of 150 to 250 lowercase `a` (the Twitter keyword is 21 `A`s: found ignoring
/// case, a hit at every byte), each ended by a seeded pseudo-random byte, to at least
/// `size` bytes: no period, and every byte a flag of a sieve that folds case.
pub fn runs_of_a(size: usize) -> Vec<u8> {
    let mut x = 0x510E_527F_ADE6_82D1u64;
    let mut text = Vec::with_capacity(size + 256);
    while text.len() < size {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        text.extend(std::iter::repeat_n(b'a', 150 + (x % 101) as usize));
        text.push(b"bcdefgh0123456789 "[(x >> 8) as usize % 18]);
    }
    text
}
