//! The placeholder guard for context-tier rules: a value after `password=` is not a secret
//! when it is a reference to one (`${VAR}`, `os.environ[…]`), a template slot
//! (`<your-key>`, `{{ secret }}`), a mask, a type name, or code.

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

/// True when `value`, the redactable part of a context-rule match, is not a secret.
/// `after` is the byte that follows the whole match, when there is one.
pub fn is_placeholder(value: &[u8], after: Option<u8>) -> bool {
    if value.is_empty() {
        return true;
    }
    // A call, an index or a member access: `get_password()`, `Optional[str]`.
    if matches!(after, Some(b'(' | b'[' | b'.')) {
        return true;
    }
    let lower = value.to_ascii_lowercase();
    if STOPWORDS.iter().any(|w| lower == w.as_bytes()) {
        return true;
    }
    if REFERENCE_PREFIXES
        .iter()
        .any(|p| lower.starts_with(p.as_bytes()))
    {
        return true;
    }
    if memchr::memmem::find(&lower, b"redacted").is_some() {
        return true;
    }
    // Masks and fillers: `********`, `xxxxxxxx`, `...`, `<<>>`.
    if value
        .iter()
        .all(|&b| matches!(b, b'*' | b'x' | b'X' | b'.' | b'-' | b'#' | b'?'))
    {
        return true;
    }
    // A dotted path of identifiers (`config.db.password`) is a reference in code.
    is_dotted_identifier(value)
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
    use super::is_placeholder;

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
        ] {
            assert!(!is_placeholder(v.as_bytes(), None), "{v}");
        }
    }
}
