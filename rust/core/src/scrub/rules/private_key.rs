//! Private keys (PEM, PuTTY): private-key-pem, putty-private-key.

use super::{base64_decode, Family, RuleDef, Tier, Vector};

// 23 (GCP service-account JSON) is covered here: its "private_key" is a \n-escaped PEM.
// After the BEGIN line come either armour headers (encrypted PKCS#1, PGP) or a base64
// run of 16+ bytes; then the rest of the block through its END line (the body class
// stops it at bytes no key contains) or, for a block cut short (`head`, truncated
// output), the base64 lines that follow, lines apart as `line_gap!` allows.
/// Between two lines of a PEM body: real or `\n`-escaped line breaks (or blanks), and
/// in source code a string break as well (`\n" +` newline `"`): a key built by
/// concatenating string literals.
macro_rules! line_gap {
    () => {
        concat!(
            r#"(?:(?:[ \t]*(?:\r?\n|(?:\\+r)?\\+n)|[ \t])+(?:"#,
            string_break!(),
            r#")?|"#,
            string_break!(),
            ")"
        )
    };
}

/// One string literal ending and the next starting: `"` (`+`) (newline) (`+`) `"`.
macro_rules! string_break {
    () => {
        r#"["'][ \t]*\+?[ \t]*\r?\n?[ \t]*\+?[ \t]*["']"#
    };
}

pub const PRIVATE_KEY_PEM: RuleDef = RuleDef {
    id: "private-key-pem",
    tier: Tier::Token,
    description: "PEM private key block (RSA, EC, DSA, OpenSSH, PKCS#8, PGP), real or \\n-escaped newlines or concatenated string literals, whole or truncated",
    keywords: &["-----BEGIN"],
    pattern: concat!(
        r#"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----"#,
        r#"(?:(?:(?:[ \t]*(?:\r?\n|(?:\\+r)?\\+n))+[ \t]*(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset):[^\r\n\\]*)+"#,
        "|", line_gap!(), r#"[ \t]*[A-Za-z0-9+/=]{16})"#,
        r#"(?:[A-Za-z0-9+/=\s\\:,.@"'()_-]*?-----END[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----"#,
        r#"|[A-Za-z0-9+/=]*(?:"#, line_gap!(), r#"[ \t]*[A-Za-z0-9+/=]{16,})*)"#,
    ),
    before: None,
    left_guard: "",
    right_guard: "",
    max_len: 16384,
    overflow: r"[A-Za-z0-9+/=\\\r\n]",
    validator: None,
    yields_to: None,
};

pub const PUTTY_PRIVATE_KEY: RuleDef = RuleDef {
    id: "putty-private-key",
    tier: Tier::Token,
    description: "PuTTY private key file (PuTTY-User-Key-File-2/3), whole or truncated",
    keywords: &["PuTTY-User-Key-File-"],
    pattern: r#"PuTTY-User-Key-File-[1-3]:[^\r\n\\]*(?:[A-Za-z0-9+/=\s\\:,.@"()_-]*?Private-MAC:[ \t]*[0-9A-Fa-f]+|(?:(?:\r?\n|(?:\\+r)?\\+n)(?:[A-Za-z][A-Za-z0-9-]*:[^\r\n\\]*|[A-Za-z0-9+/=]+))+)"#,
    before: None,
    left_guard: "",
    right_guard: "",
    max_len: 16384,
    overflow: r"[A-Za-z0-9+/=\\\r\n]",
    validator: None,
    yields_to: None,
};

/// base64 of `-----BEGIN`; what follows must decode to a private key's BEGIN line.
pub const PRIVATE_KEY_PEM_BASE64: RuleDef = RuleDef::token(
    "private-key-pem-base64",
    "base64 of a PEM private key (LS0tLS1CRUdJTi…, as in Kubernetes secrets and CI variables), one line or wrapped",
    &["LS0tLS1CRUdJTi"],
    r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}(?:(?:\r?\n|\\n)[A-Za-z0-9+/]{4,})*={0,2}",
    65536,
)
.left_guard("[A-Za-z0-9+/]")
.right_guard("")
.overflow(r"[A-Za-z0-9+/=\r\n]")
.validator(begins_a_private_key);

/// The first 80 base64 characters (60 bytes) hold the whole BEGIN line of every PEM
/// private key label.
fn begins_a_private_key(value: &[u8]) -> bool {
    let head: Vec<u8> = value
        .iter()
        .copied()
        .filter(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
        .take(80)
        .collect();
    base64_decode(&head[..head.len() / 4 * 4])
        .is_some_and(|d| memchr::memmem::find(&d, b"PRIVATE KEY").is_some())
}

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Private keys (PEM, PuTTY)",
    source: "GL, DS, NP, TH",
    rules: &[PRIVATE_KEY_PEM, PUTTY_PRIVATE_KEY, PRIVATE_KEY_PEM_BASE64],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PRIVATE_KEY_PEM,
        "String key = \"-----BEGIN PRIVATE KEY-----\\n\" +\n    \"MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\\n\" +\n    \"MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\\n\" +\n    \"-----END PRIVATE KEY-----\";\nreturn key;",
        "String key = \"[REDACTED:private-key-pem]\";\nreturn key;",
    ),
    Vector::hit(
        &PRIVATE_KEY_PEM,
        "KEY = (\n    '-----BEGIN EC PRIVATE KEY-----'\n    'MHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCCqGSM49'\n    'AwEHoUQDQgAEPR3tU2Fta9ktY+6P9G0cWO+0kETA6SFs38GecTyudlHz6xvCdz8q'\n)\n",
        "KEY = (\n    '[REDACTED:private-key-pem]'\n)\n",
    ),
    Vector::miss(
        &PRIVATE_KEY_PEM,
        "if line == \"-----BEGIN PRIVATE KEY-----\" + \"\\n\":",
    ),
    Vector::hit(
        &PRIVATE_KEY_PEM,
        "$ cat ~/.ssh/id_rsa\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEADwt6DJm2EUfCt0Sr8vuZTawK7tzoZv/g8PHk+RsozxXLYDAO\nbHZ/zvwspZkF6ukFtpLg/VFO9I8ob9W2M0R6GEH8agmiSgv43beIDhivmCgtpXT+\nqcC5rB3KbLvqvVLTWtqp/aA4yFQyGrRcyw6buioFgm9lan2CsF6Z4y7g1znxx9sO\n2XSI4MVYjo4F46XoHan7coA33OmZdGvrTNscrSib8eriyy00taOyrrK6UjzFdaGQ\nrvrPXiD9+5gQg2MT5ZzJvHbM02+PoQoteFAd4nOlph3HWADqs2wLUJwHiVUkX028\nNXGBxKDVFrsrKZPuZI06VsiKEaENuNP57qJcSYq0x4heFe3SvL0qmjRrrFNYmh+M\nWaM8Kl82eFhqoH2HlhnA==\n-----END RSA PRIVATE KEY-----\n$ ",
        "$ cat ~/.ssh/id_rsa\n[REDACTED:private-key-pem]\n$ ",
    ),
    Vector::hit(
        &PRIVATE_KEY_PEM,
        "{\"type\": \"service_account\", \"project_id\": \"demo-123\", \"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC47BXPWh2ONHXLNKti859iIu9XQQjpe1x\\nHovG1U0vWT8wL80HOc83HEHJ0Ku8ZD0SfRypkYohZhqz8QaoW/A6J/fzXjANuVeh\\nc0sSpxEQXNA9N4IVSpoM0VhqOO4tENWjifwGW1ZVg5IscEmJGooN8Yf1/pPk1FBz\\nGc3WvHXW8xfqj0HJYEgGaxKTZDssEkyZZz5LCUI3aXLnYVLSctIOBbTneUNe4YGt\\nKbEKnaHdOK7zc48TT41kMdMQdf9GmFcwzzYCvUte2zaqXiQuzujjE+Zqb34jvGf0\\nIrCFQhFaOqW2W2IpXl/D==\\n-----END PRIVATE KEY-----\\n\", \"client_email\": \"svc@demo-123.iam.gserviceaccount.com\"}",
        "{\"type\": \"service_account\", \"project_id\": \"demo-123\", \"private_key\": \"[REDACTED:private-key-pem]\\n\", \"client_email\": \"svc@demo-123.iam.gserviceaccount.com\"}",
    ),
    Vector::hit(
        &PRIVATE_KEY_PEM,
        "$ head -4 ~/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nC19IiDmLtuaWYxBNTRh8+YXsaJRQXvsxu9ZM0OGnkrpyrUxySUPnQkGotUcIod+9GoPWWB\nCeeitlQBzHJtfxSwjk5p8JsSgOsvW84G8BdmF4yj3yU+gy6o8Z++jaif5aX//Kc27ja9gu\nQLeD/L0WTjnSFHnnQ2svRmR2OCi9PSHW2inqhu/FG9KNKrbuH5cLPXnqnTxjoht6hHU90x\n$ ls",
        "$ head -4 ~/.ssh/id_ed25519\n[REDACTED:private-key-pem]\n$ ls",
    ),
    Vector::hit(
        &PRIVATE_KEY_PEM,
        "exported:\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBF7JhTxMcbq3SwoyLCRjNTVKBlPmNuJbBa6XijXtPDwPV/yozdkR+ouqhGXO\nR+Typ171mxBFr5e0oXqf87r7oAECgJRbpvR3NVR+ZBf4RRc0DFl4LB8rPtR6nfEM\nukrgvQxP3brEfv+52Lvs6EwKoHCcisx2OQlH7RfwkZ3HPLV7UPVlfIG0RDP4ypX+\nxerkbpaog6WZ6zdF42wu/y/TjcYoYxERjhPlTdfTZ+UZKnHNlXfaFS8CVqCEfSWD\n9FYHjTQmW2qbOM+q8nGg==\n=feE5\n-----END PGP PRIVATE KEY BLOCK-----\n",
        "exported:\n[REDACTED:private-key-pem]\n",
    ),
    Vector::miss(&PRIVATE_KEY_PEM, "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAErxr7bFqLpxqSV6sNy6TUnmCpXrpUkdjeaPRuP3C3\n-----END PUBLIC KEY-----"),
    Vector::miss(&PRIVATE_KEY_PEM, "Check that the file starts with `-----BEGIN OPENSSH PRIVATE KEY-----`."),
    Vector::hit(
        &PRIVATE_KEY_PEM,
        "$ cat legacy.key\n-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,B8A1417CE690D5E7CAE26E19E8FB719B\n\n0U2jK9BGfV/3rVA2nUzA0JYPFuprou8Uz24Us3AUS0W63PHCkbDk5MlGuY1kktJe\nzeV0wwoIDtVx5cbWXWiVSqgOZHkXZlZUm29sSmSj1+m27/yS0HBrTyqIYC+2SEqf\nDaQGM0Du0n2F1slBrS/a9Ye2PD5Of41H0LCPe0UUNIBWL8Ga0AjAgfh7VON3JoTa\nJ5wybxumnhU+yCMtRVZY==\n-----END RSA PRIVATE KEY-----\n",
        "$ cat legacy.key\n[REDACTED:private-key-pem]\n",
    ),
    Vector::miss(&PRIVATE_KEY_PEM, "_PKCS1_MARKER = (\"-----BEGIN RSA PRIVATE KEY-----\", \"-----END RSA PRIVATE KEY-----\")"),
    Vector::hit(
        &PUTTY_PRIVATE_KEY,
        "$ cat deploy.ppk\nPuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20240611\nPublic-Lines: 2\nyB33nG4a72ImgL/NsPh6fxZhbAkW9w4yXvlvZ+E1CwPEpeNV00LTHZevy7PxYMzf\npVBQ7zmitsLv\nPrivate-Lines: 1\n/CfUbQ54wvOOjbkZqATa74eNsH5IVZumtaea6JiwXUDT\nPrivate-MAC: 126aabfb78c7d3bb52487882d7b25c89090980caa26def1cf83806899b5471cb\n$ ",
        "$ cat deploy.ppk\n[REDACTED:putty-private-key]\n$ ",
    ),
    Vector::hit(
        &PUTTY_PRIVATE_KEY,
        "{\"path\": \"keys/ci.ppk\", \"content\": \"PuTTY-User-Key-File-2: ssh-rsa\\nEncryption: none\\nComment: imported-openssh-key\\nPublic-Lines: 1\\np6aJRMgz9Fqt+jgFlaTzEo3ICPxsAy59bbimAUztqLu2+Mn2yhUKohfe1zW8\\nPrivate-Lines: 1\\nd0RbmJdOSUx/6sMyxoBkKn+/l+N/t1GKCpvgPsBXm5YR8FjPE2cOxECUY329\\nPrivate-MAC: f7c9d32920cff83908b5f4ce3d50d8cb855b57cf\"}",
        "{\"path\": \"keys/ci.ppk\", \"content\": \"[REDACTED:putty-private-key]\"}",
    ),
    Vector::miss(&PUTTY_PRIVATE_KEY, "PuTTYgen saves keys as PuTTY-User-Key-File-4 files"),
    Vector::miss(&PUTTY_PRIVATE_KEY, "Use puttygen to convert the PPK file."),
    Vector::hit(
        &PRIVATE_KEY_PEM_BASE64,
        "  ssh-privatekey: LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEUgS0VZLS0tLS0KMXFkWFdQSngvZDh1dDhwZHFzeFJwdkVENWhKUmFPdlJUWVpQTnZTK0k0azlHdnZLOUprbVczNzhEL0NuNTExQ0ZVQldrTgpoQm0yYmQyQUcyK0IyVEZ1MmFXbytDN1ZMb3RkZHhnN3FBQ1BWc09uQTY2Y0tJRlRteHJyanRqVm1kNHhJMHp2eTRacjltCm9FSFpoTlgyeEdxYy9mUTdadnFzUDNDQ1QvbktFQkpNaHc1azYyck9qbHFuRkNyYVAvYzBZc0hoNDdsZnQ2ek5ISUEzM04KYkVJM3A4NWNSYkdJRVY0NWdPK1YvUnJ3bElNNWRjSmpXcHdJcXVscHdJS2FrOTluZUVDN0M2SllNaXpuRjZ5dFRCVVJhSAp5eDQ5d1FPbUNiNWs1cGJTMlNkNkNSU0gyRDZvcU03OStPMzZqS2t2KzBHaFRuclUvRDRKMS9wbUhkTloxSU5VOXo0bWdZCi0tLS0tRU5EIE9QRU5TU0ggUFJJVkFURSBLRVktLS0tLQo=\ntype: Opaque",
        "  ssh-privatekey: [REDACTED:private-key-pem-base64]\ntype: Opaque",
    ),
    Vector::hit(
        &PRIVATE_KEY_PEM_BASE64,
        "DEPLOY_KEY_B64=LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpha2UvQlNEdjJpRmV1UzBIT2tKOUMxaG5z\nU1NJSXBlVXhUMHVSY20wRUE2R2s4aHRqK3dmMGdacGM1UklwR3VLCjBRK1llNlVhbW5hYmZJb0dD\nbzE2d0VuNFhSMmF5VmNMQ3JSOVFDcmZMbW5jc0lHdjQ0TGdzL2dyTjhHb1Z4UjcKY0k2TTM4Y1Zu\nOGhvY3VpVFFmbmd1aXg4UGxDUkFPVDA1bktmZU9MdkhOaC9aT0NCUks2aUlUNlkyWVRJaWNwRApp\nWW1mYjlhdGRzYUFOTitiV3ljME4zOEdLUCtGYUZWZjA2RXM4ZTlGaHN0UEFqemxQS01GQ2FreXhp\nK2pVbG9RCi0tLS0tRU5EIFJTQSBQUklWQVRFIEtFWS0tLS0tCg==\n",
        "DEPLOY_KEY_B64=[REDACTED:private-key-pem-base64]\n",
    ),
    Vector::miss(&PRIVATE_KEY_PEM_BASE64, "ca.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCmNmeDBPbGpnTmRqQ1lwYzF2WU1KcVZJdkxRS3Q0Q1NUNExCWldtNmk2WDg5cXloeHJyaGJ1YVl1VjhHRXBBajAKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo="),
];
