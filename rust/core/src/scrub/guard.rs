//! The placeholder guard for context-tier rules: a value after `password=` is not a secret
//! when it is a reference to one (`${VAR}`, `os.environ[…]`), a template slot
//! (`<your-key>`, `{{ secret }}`), a mask, a type name, a well-known example value
//! (`user:pass`, `postgres:postgres`), a sentence of prose, or code (`WIN32_ERROR`,
//! `password_bytes`).
//!
//! The guard sees only the value, never the key or the rest of the match, and the same
//! checks apply to every context rule. Checks of one rule's values (`Authorization:
//! Basic` whose base64 must decode to `user:password`) are that rule's validator, in its
//! family's file.

use super::prefilter::has_at_folded;

/// Values that are words of code or documentation, never credentials (compared ASCII
/// case-insensitively).
const STOPWORDS: &[&str] = &[
    "str",
    "string",
    "int",
    "bool",
    "boolean",
    "none",
    "null",
    "nil",
    "true",
    "false",
    "undefined",
    "required",
    "optional",
    "any",
    "text",
    "bytes",
    "secret",
    "secretstr",
    "password",
    "passwd",
    "token",
    "redacted",
    "hidden",
    "masked",
    "placeholder",
    "example",
    "your_password",
    "your-password",
    "yourpassword",
    "your_token",
    "<redacted>",
    "value",
    "env",
    "self",
    "this",
    "input",
    "prompt",
    "getpass",
    "object",
    // Well-known example and default values: `curl -u user:pass`, `foo:bar`,
    // `postgres://postgres:postgres@…`, `root:root`, `password=changeme`. Their value is
    // public, so leaving them visible discloses nothing.
    "pass",
    "foo",
    "bar",
    "baz",
    "postgres",
    "root",
    "changeme",
    "changeit",
    // gsutil ACL roles: `gsutil acl ch -u user@example.com:READ` (FULL_CONTROL is also an
    // upper-case constant, below).
    "read",
    "write",
    "owner",
    "full_control",
];

/// Words that make an identifier code when it contains one as a part: a value such as
/// `password_bytes`, `proposed_password` or `newToken` names a variable holding the secret.
const KEY_WORDS: &[&str] = &["password", "passwd", "pwd", "secret", "token"];

/// Function words of English: a sentence contains some, a random passphrase rarely does.
const FUNCTION_WORDS: &[&str] = &[
    "a", "an", "the", "to", "of", "for", "in", "on", "at", "by", "with", "from", "into", "is",
    "are", "be", "was", "will", "can", "should", "must", "your", "you", "this", "that", "and",
    "or", "not", "if", "it", "as", "when", "which",
];

/// Prefixes that mark a reference to a secret held elsewhere.
const REFERENCE_PREFIXES: &[&str] = &[
    "$",
    "<",
    "{{",
    "{%",
    "%(",
    "%{",
    "#{",
    "os.environ",
    "os.getenv",
    "process.env",
    "env(",
    "env.",
    "env[",
    "getenv(",
    "&lt;",
    "[",
    "secrets.",
    "vault:",
    "self.",
    "this.",
    "config.",
    "settings.",
    "args.",
    "opts.",
    "options.",
    "params.",
    "import.meta.env",
];

/// Words that make a hyphenated lower-case value an example (`a-fake-api-key`).
const EXAMPLE_WORDS: &[&str] = &[
    "fake",
    "dummy",
    "example",
    "sample",
    "placeholder",
    "test",
    "demo",
    "mock",
    "your",
    "my",
];

/// Whether one of [`KEY_WORDS`] occurs in `value`, ASCII case ignored: compared only
/// where a byte is one a key word starts with (in either case), in one pass.
fn holds_key_word(value: &[u8]) -> bool {
    const FIRST: [bool; 256] = {
        let mut first = [false; 256];
        let mut i = 0;
        while i < KEY_WORDS.len() {
            let b = KEY_WORDS[i].as_bytes()[0];
            first[b as usize] = true;
            first[b.to_ascii_uppercase() as usize] = true;
            i += 1;
        }
        first
    };
    (0..value.len()).any(|i| {
        FIRST[usize::from(value[i])]
            && KEY_WORDS
                .iter()
                .any(|w| has_at_folded(value, i, w.as_bytes()))
    })
}

/// [`STOPWORDS`] by length, each list compared only with values of its length (a
/// value longer than the longest is none of them).
static STOPWORDS_BY_LEN: std::sync::LazyLock<Vec<Vec<&'static [u8]>>> =
    std::sync::LazyLock::new(|| {
        let longest = STOPWORDS.iter().map(|w| w.len()).max().unwrap_or(0);
        let mut by_len = vec![Vec::new(); longest + 1];
        for w in STOPWORDS {
            by_len[w.len()].push(w.as_bytes());
        }
        by_len
    });

/// Whether `word` (lower-case) occurs in `value`, ASCII case ignored: compared where
/// its first letter does (`memchr2`), without a lowercased copy or a searcher's setup
/// (values are short; a `memmem` search of one cost ~25 ns).
fn holds_folded(value: &[u8], word: &[u8]) -> bool {
    let first = word[0];
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), value)
        .any(|i| has_at_folded(value, i, word))
}

/// True when a match of any rule (token or context) is filler, not key material: one
/// repeated byte makes up half of it or more (`ghp_xxxx…`, `api_key=0000…`), or it
/// is a short key (64 bytes at most) carrying the `EXAMPLE` marker of vendors'
/// documented example keys (`AKIAIOSFODNN7EXAMPLE`). Random key material has neither.
///
/// A run of half the value or more covers its middle byte (either middle byte of an
/// even length), so only the runs through those are measured: a private key's 1,700
/// bytes are not walked.
pub fn is_filler(value: &[u8]) -> bool {
    let n = value.len();
    let through = |m: usize| {
        let b = value[m];
        let left = value[..m].iter().rev().take_while(|&&x| x == b).count();
        let right = value[m..].iter().take_while(|&&x| x == b).count();
        left + right
    };
    let longest = match n {
        0 => 0,
        _ if n % 2 == 1 => through(n / 2),
        _ => through(n / 2 - 1).max(through(n / 2)),
    };
    (longest >= 4 && longest * 2 >= n)
        || (n <= 64 && memchr::memchr_iter(b'E', value).any(|i| value[i..].starts_with(b"EXAMPLE")))
}

/// True when `value`, the redactable part of a context-rule match, is not a secret.
/// `after` is the byte that follows the whole match, when there is one.
///
/// Trivial values are a decision: a value of fewer than 4 bytes that is all digits or
/// all letters (`password = "123"`, `pwd: abc`) or an identifier of the shape
/// `letters-digits` (`token=spu-1234`, a ticket or SKU) is left visible; a short mixed
/// value (`http://a:b4c@host`) is still redacted. Such values disclose nothing an attacker could not guess, and in agent
/// output they are far more often examples, IDs and test fixtures than credentials.
pub fn is_placeholder(value: &[u8], after: Option<u8>) -> bool {
    let trivial = value.len() < 4
        && (value.iter().all(u8::is_ascii_digit) || value.iter().all(u8::is_ascii_alphabetic));
    if value.is_empty() || trivial || is_ticket_id(value) || is_example_phrase(value) {
        return true;
    }
    // A call, an index or a member access: `get_password()`, `Optional[str]`.
    if matches!(after, Some(b'(' | b'[' | b'.')) {
        return true;
    }
    if is_listed(value) {
        return true;
    }
    // Masks and fillers: `********`, `xxxxxxxx`, `...`, `<<>>`.
    if value
        .iter()
        .all(|&b| matches!(b, b'*' | b'x' | b'X' | b'.' | b'-' | b'#' | b'?'))
    {
        return true;
    }
    // Code (`config.db.password`, `WIN32_ERROR`, `password_bytes`) and prose.
    is_dotted_identifier(value)
        || is_upper_constant(value)
        || names_the_secret(value)
        || is_prose(value)
}

/// A stopword, a reference to a secret held elsewhere (by its prefix), or a value
/// that says it was redacted; compared ASCII case-insensitively with the lists
/// (lower-case), without a lowercased copy: every credential a context rule matches
/// is asked this.
fn is_listed(value: &[u8]) -> bool {
    let first = value.first().map(u8::to_ascii_lowercase);
    (STOPWORDS_BY_LEN.get(value.len()))
        .is_some_and(|words| words.iter().any(|w| value.eq_ignore_ascii_case(w)))
        || REFERENCE_PREFIXES.iter().any(|p| {
            let p = p.as_bytes();
            Some(p[0]) == first && has_at_folded(value, 0, p)
        })
        || holds_folded(value, b"redacted")
}

/// `spu-1234`, `JIRA-1234`: up to 8 letters, a hyphen, up to 6 digits.
fn is_ticket_id(value: &[u8]) -> bool {
    let Some(dash) = value.iter().position(|&b| b == b'-') else {
        return false;
    };
    let (letters, digits) = (&value[..dash], &value[dash + 1..]);
    (1..=8).contains(&letters.len())
        && (1..=6).contains(&digits.len())
        && letters.iter().all(u8::is_ascii_alphabetic)
        && digits.iter().all(u8::is_ascii_digit)
}

/// `a-fake-api-key`, `my_dummy_token`: lower-case words joined by `-` or `_`, one of
/// them a word that marks an example.
fn is_example_phrase(value: &[u8]) -> bool {
    value
        .iter()
        .all(|&b| b.is_ascii_lowercase() || b == b'-' || b == b'_')
        && value
            .split(|&b| b == b'-' || b == b'_')
            .any(|w| EXAMPLE_WORDS.iter().any(|e| w == e.as_bytes()))
}

/// `WIN32_ERROR`, `MSV1_0_PROTOCOL_MESSAGE_TYPE`, `FULL_CONTROL`: an upper-case identifier
/// with underscores whose parts include at least two words (a part that starts with two
/// letters and has a vowel). Random upper-case key material rarely has underscores, and
/// where it has, its groups are seldom words (`X7KQ_9PLM`, `XKQP_ZRTW_QWER9` do not pass).
fn is_upper_constant(value: &[u8]) -> bool {
    if !value.first().is_some_and(u8::is_ascii_uppercase)
        || !value.contains(&b'_')
        || !value
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    {
        return false;
    }
    let words = value
        .split(|&b| b == b'_')
        .filter(|p| {
            p.len() >= 2
                && p[..2].iter().all(u8::is_ascii_uppercase)
                && p.iter().any(|b| b"AEIOUY".contains(b))
        })
        .count();
    words >= 2
}

/// `password_bytes`, `proposed_password`, `newToken`, `DB_PASSWORD`: an identifier of two
/// or more parts (split at `_` and at camel-case humps) one of which is a key word. A
/// part of digits only (`password_123`, `Secret_2024`) makes it a value, not a name, and
/// so does a digit glued to the key word (`Password123`).
fn names_the_secret(value: &[u8]) -> bool {
    if !value
        .iter()
        .all(|&b| b.is_ascii_alphanumeric() || b == b'_')
        || value.first().is_some_and(u8::is_ascii_digit)
    {
        return false;
    }
    // A part that is a key word is a place that spells one: most key material has
    // none, and is not split into its dozens of parts.
    if !holds_key_word(value) {
        return false;
    }
    let (mut parts, mut named) = (0, false);
    let all_parts = identifier_parts(value, |p| {
        parts += 1;
        named |= KEY_WORDS
            .iter()
            .any(|w| p.eq_ignore_ascii_case(w.as_bytes()));
        !p.iter().all(u8::is_ascii_digit)
    });
    all_parts && parts >= 2 && named
}

/// Calls `f` with each part of an identifier, in order, while it returns true (false
/// when it returned false): split at `_`, before an upper-case letter that follows a
/// lower-case letter or a digit (`newToken`), and before the last capital of an
/// acronym that starts a word (`HTTPPassword`). Digits stay with the part they follow.
/// No list is built: a random token of mixed case is dozens of parts.
fn identifier_parts<'a>(value: &'a [u8], mut f: impl FnMut(&'a [u8]) -> bool) -> bool {
    for chunk in value.split(|&b| b == b'_') {
        let mut start = 0;
        for i in 1..chunk.len() {
            let (prev, cur) = (chunk[i - 1], chunk[i]);
            let next_lower = chunk.get(i + 1).is_some_and(u8::is_ascii_lowercase);
            let hump = cur.is_ascii_uppercase()
                && (prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase() && next_lower));
            if hump {
                if !f(&chunk[start..i]) {
                    return false;
                }
                start = i;
            }
        }
        if start < chunk.len() && !f(&chunk[start..]) {
            return false;
        }
    }
    true
}

/// `Password used to generate key`, `the password for the admin user`: four or more words
/// (three spaces or more) of letters, more than half of them lower-case, at least one of
/// them an English function word. A passphrase of random words has no function word
/// (`correct horse battery staple`) or is not mostly lower-case (`Correct Horse Battery
/// Staple`), and a digit or a symbol other than `'` and `-` inside a word makes the value
/// a password, not prose. Left alone: a lower-case passphrase that happens to contain a
/// function word (`correct horse to battery`).
fn is_prose(value: &[u8]) -> bool {
    if value.iter().filter(|&&b| b == b' ').count() < 3 {
        return false;
    }
    let mut words = 0;
    let mut lower = 0;
    let mut function = false;
    for word in value.split(|&b| b == b' ').filter(|w| !w.is_empty()) {
        // Trailing punctuation of a sentence or a clause.
        let word = match word.iter().rposition(|b| !b".,;:!?".contains(b)) {
            Some(last) => &word[..=last],
            None => return false,
        };
        let letters = word
            .iter()
            .enumerate()
            .all(|(i, &b)| b.is_ascii_alphabetic() || (i > 0 && matches!(b, b'\'' | b'-')));
        if !letters || !word.last().is_some_and(u8::is_ascii_alphabetic) {
            return false;
        }
        words += 1;
        function |= FUNCTION_WORDS
            .iter()
            .any(|w| word.eq_ignore_ascii_case(w.as_bytes()));
        if word.iter().all(|b| !b.is_ascii_uppercase()) {
            lower += 1;
        } else if !word[1..].iter().all(|b| !b.is_ascii_uppercase())
            && !word.iter().all(|b| !b.is_ascii_lowercase())
        {
            // Neither `Capitalised` nor an `ACRONYM`: mixed case is key material.
            return false;
        }
    }
    words >= 4 && lower * 2 > words && function
}

/// `config.db.password`, `settings.DB_PASSWORD`: two or more parts, each a lower-case
/// or an upper-case identifier. Mixed-case parts look like token material, not code.
fn is_dotted_identifier(value: &[u8]) -> bool {
    let mut parts = 0;
    for part in value.split(|&b| b == b'.') {
        let Some((&first, _)) = part.split_first() else {
            return false;
        };
        let lower = part
            .iter()
            .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        let upper = part
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
        if first.is_ascii_digit() || !(lower || upper) {
            return false;
        }
        parts += 1;
    }
    parts >= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`is_listed`] as it was written first: a lowercased copy compared with the
    /// lists, and a `memmem` search.
    fn listed_reference(value: &[u8]) -> bool {
        let lower = value.to_ascii_lowercase();
        STOPWORDS.iter().any(|w| lower == w.as_bytes())
            || REFERENCE_PREFIXES
                .iter()
                .any(|p| lower.starts_with(p.as_bytes()))
            || memchr::memmem::find(&lower, b"redacted").is_some()
    }

    /// Values built of the lists' words, key words and markers in any case, and
    /// random bytes of the classes the checks read.
    fn values() -> impl Strategy<Value = Vec<u8>> {
        let words: Vec<&'static str> =
            (STOPWORDS.iter().chain(REFERENCE_PREFIXES).chain(KEY_WORDS))
                .copied()
                .chain(["redacted", "REDACTED", "EXAMPLE", "example", "ReDaCtEd"])
                .collect();
        let piece = prop_oneof![
            (prop::sample::select(words), any::<u32>()).prop_map(|(w, flips)| {
                (w.bytes().enumerate())
                    .map(|(i, b)| {
                        if flips >> (i % 32) & 1 == 1 {
                            b.to_ascii_uppercase()
                        } else {
                            b
                        }
                    })
                    .collect::<Vec<u8>>()
            }),
            "[a-zA-Z0-9_.$<{ -]{1,6}".prop_map(String::into_bytes),
        ];
        prop::collection::vec(piece, 1..5).prop_map(|v| v.concat())
    }

    /// The longest run of one byte, counted byte by byte.
    fn longest_run(value: &[u8]) -> usize {
        let (mut longest, mut run) = (0, 0);
        for (i, &b) in value.iter().enumerate() {
            run = if i > 0 && value[i - 1] == b {
                run + 1
            } else {
                1
            };
            longest = longest.max(run);
        }
        longest
    }

    proptest! {
        /// The lists are asked as they were with a lowercased copy and `memmem`.
        #[test]
        fn listed_values_are_those_of_the_lowercased_copy(value in values()) {
            prop_assert_eq!(is_listed(&value), listed_reference(&value), "{:?}", String::from_utf8_lossy(&value));
        }

        /// Measuring the runs through the middle finds every run of half the value.
        #[test]
        fn filler_is_a_run_of_half_the_value(
            runs in prop::collection::vec((b'a'..b'd', 1usize..10), 0..5)
        ) {
            let value: Vec<u8> = runs.iter().flat_map(|&(b, n)| std::iter::repeat_n(b, n)).collect();
            let v = &value[..];
            let longest = longest_run(v);
            prop_assert_eq!(is_filler(v), longest >= 4 && longest * 2 >= v.len());
        }

        /// The parts' callback sees the parts a list would hold, and a name is two or
        /// more of them with a key word and no part of digits only.
        #[test]
        fn names_are_judged_by_their_parts(value in "[a-cA-C0-9_]{0,6}(?:token|Token|TOKEN|pwd|PassWord|passwd|SECRET)?[a-cA-C0-9_]{0,6}") {
            let v = value.as_bytes();
            let mut parts: Vec<&[u8]> = Vec::new();
            let whole = identifier_parts(v, |p| {
                parts.push(p);
                true
            });
            prop_assert!(whole);
            prop_assert_eq!(parts.concat(), v.iter().copied().filter(|&b| b != b'_').collect::<Vec<u8>>());
            let named = !v.first().is_some_and(u8::is_ascii_digit)
                && parts.len() >= 2
                && !parts.iter().any(|p| p.iter().all(u8::is_ascii_digit))
                && parts.iter().any(|p| KEY_WORDS.iter().any(|w| p.eq_ignore_ascii_case(w.as_bytes())));
            prop_assert_eq!(names_the_secret(v), named);
        }
    }

    #[test]
    fn filler_and_documented_examples() {
        for v in [
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "00000000000000000000",
            "AKIAIOSFODNN7EXAMPLE",
        ] {
            assert!(is_filler(v.as_bytes()), "{v}");
        }
        for v in [
            "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
            "hunter22",
            "AAAAB3NzaC1yc2EAAAADAQABAAABAQC7",
        ] {
            assert!(!is_filler(v.as_bytes()), "{v}");
        }
    }

    #[test]
    fn references_and_masks_are_placeholders() {
        for v in [
            "${DB_PASSWORD}",
            "$PASSWORD",
            "<your-api-key>",
            "{{ secrets.token }}",
            "os.environ[\"DB_PASSWORD\"]",
            "process.env.TOKEN",
            "********",
            "xxxxxxxx",
            "str",
            "None",
            "config.db.password",
            "settings.DB_PASSWORD",
            "[REDACTED:github-pat]",
            // Example values and gsutil roles.
            "pass",
            "foo",
            "postgres",
            "root",
            "READ",
            "FULL_CONTROL",
            // Upper-case constants.
            "WIN32_ERROR",
            "MSV1_0_PROTOCOL_MESSAGE_TYPE",
            "DB_PASSWORD",
            // Names of the secret.
            "password_bytes",
            "proposed_password",
            "newPassword",
            "HTTPPassword",
            "new_token_value1",
            "_secret_key",
            // Prose.
            "Password used to generate key",
            "the password of the admin user, see the wiki.",
            "Password for the AWS account",
            // Trivial values, ticket IDs, example phrases, templates.
            "123",
            "spu-1234",
            "JIRA-42",
            "a-fake-api-key",
            "my_dummy_token",
            "&lt;password&gt;",
            "[PASSWORD]",
        ] {
            assert!(is_placeholder(v.as_bytes(), None), "{v}");
        }
        assert!(is_placeholder(b"get_password", Some(b'(')));
    }

    #[test]
    fn real_values_are_not_placeholders() {
        for v in [
            "hunter22",
            "s3cr3t-P@ss",
            "Tr0ub4dor&3",
            "correct.horse9.battery!",
            // Near misses of the example values.
            "pass1234",
            "rootroot",
            "READ98GXSbgR",
            // Upper-case key material with underscores: its groups are not words.
            "X7KQ_9PLM_2ZR4",
            "XKQP_ZRTW_QWER9",
            "4BYNNT_5EOTSP_6398",
            // A key word with digits is a value, not a name.
            "Password123",
            "password_9309",
            "Secret_2024",
            "my_secret_2",
            "MyPassword1",
            // Passphrases: no function word, Title Case, a digit or a symbol.
            "correct horse battery staple",
            "Correct Horse Battery Staple",
            "my dog is named Rex2019",
            "to be or not 2 be",
            "Tr0ub4dor & 3 more words",
            "CORRECT HORSE BATTERY STAPLE",
        ] {
            assert!(!is_placeholder(v.as_bytes(), None), "{v}");
        }
    }
}
