//! The built-in credential rules. Each provider or family has its own file in this
//! directory: its rules (plain data), any validator, and its positive and negative
//! vectors. [`FAMILIES`] below is the one place that fixes their priority order.
//!
//! How a rule matches (the engine in `stream.rs` relies on exactly this):
//! - the prefilter finds an occurrence of one of the rule's `keywords` (ASCII
//!   case-insensitive);
//! - the match starts at the keyword, or, for rules with `before`, at the start of the
//!   run of `before.class` bytes that ends at the keyword (its length must lie in
//!   `before.min..=before.max`);
//! - `pattern` is run anchored at that start (bytes, no Unicode classes, no look-around)
//!   and the *last* match end it reports before it can no longer match is taken, provided
//!   the byte after that end is not in `right_guard` (or the stream ended there);
//! - a match may not start right after a byte in `left_guard`;
//! - only the span of the first participating group whose name starts with `secret` is
//!   replaced, or the whole match when the pattern has no such group;
//! - a match still growing after `max_len` bytes is redacted up to there, and the bytes
//!   that follow are swallowed while they are in `overflow` (never released).
//!
//! Classes (`left_guard`, `right_guard`, `overflow`, `before.class`) are regex bracket
//! expressions such as `[A-Za-z0-9_]`; the empty string means "no class".

/// How a rule decides: the three tiers of the contract (D4), plus user rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tier {
    /// Prefixed or fixed-format tokens, redacted unconditionally.
    Token,
    /// A generic value made a secret by a nearby keyword; checked against placeholders.
    Context,
    /// A literal secret registered at run time, or one of its encodings.
    Literal,
    /// A rule from the user's rules file.
    Custom,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Token => "token",
            Tier::Context => "context",
            Tier::Literal => "literal",
            Tier::Custom => "custom",
        }
    }
}

/// Bytes of a match that precede its keyword (for formats whose literal is not a prefix).
#[derive(Clone, Copy, Debug)]
pub struct Before {
    pub class: &'static str,
    pub min: usize,
    pub max: usize,
}

/// A check of a match's value that a regular expression cannot make (a checksum, a
/// decoding); a match whose value fails it is not redacted by its rule.
pub type Validator = fn(&[u8]) -> bool;

/// A built-in rule, as written in its family's file.
#[derive(Clone, Copy, Debug)]
pub struct RuleDef {
    pub id: &'static str,
    pub tier: Tier,
    pub description: &'static str,
    pub keywords: &'static [&'static str],
    pub pattern: &'static str,
    pub before: Option<Before>,
    pub left_guard: &'static str,
    pub right_guard: &'static str,
    pub max_len: usize,
    pub overflow: &'static str,
    pub validator: Option<Validator>,
    /// A rule this one defers to: it must come earlier in the priority order, so that it
    /// wins a tie (same start, same length). Checked by a test.
    pub yields_to: Option<&'static RuleDef>,
}

/// Word characters: the usual guard on both sides of a fixed-format token.
pub const W: &str = "[A-Za-z0-9_]";

impl RuleDef {
    /// A prefixed token: keyword at the start, guarded by word characters on both sides.
    pub const fn token(
        id: &'static str,
        description: &'static str,
        keywords: &'static [&'static str],
        pattern: &'static str,
        max_len: usize,
    ) -> RuleDef {
        RuleDef {
            id,
            tier: Tier::Token,
            description,
            keywords,
            pattern,
            before: None,
            left_guard: W,
            right_guard: W,
            max_len,
            overflow: "",
            validator: None,
            yields_to: None,
        }
    }

    /// A keyword-anchored generic value: the pattern starts at the keyword and puts the
    /// value in a `secret…` group, so the key stays visible; no guards by default.
    pub const fn context(
        id: &'static str,
        description: &'static str,
        keywords: &'static [&'static str],
        pattern: &'static str,
        max_len: usize,
    ) -> RuleDef {
        RuleDef {
            id,
            tier: Tier::Context,
            description,
            keywords,
            pattern,
            before: None,
            left_guard: "",
            right_guard: "",
            max_len,
            overflow: "",
            validator: None,
            yields_to: None,
        }
    }

    /// The same rule with another right guard ("" for none).
    pub const fn right_guard(self, class: &'static str) -> RuleDef {
        RuleDef {
            right_guard: class,
            ..self
        }
    }

    /// The same rule with another left guard ("" for none).
    pub const fn left_guard(self, class: &'static str) -> RuleDef {
        RuleDef {
            left_guard: class,
            ..self
        }
    }

    /// The same rule with an overflow class (for open-ended values capped by `max_len`).
    pub const fn overflow(self, class: &'static str) -> RuleDef {
        RuleDef {
            overflow: class,
            ..self
        }
    }

    /// The same rule with a validator of its value.
    pub const fn validator(self, check: Validator) -> RuleDef {
        RuleDef {
            validator: Some(check),
            ..self
        }
    }

    /// The same rule deferring to `other`, which must come earlier in the order.
    pub const fn yields_to(self, other: &'static RuleDef) -> RuleDef {
        RuleDef {
            yields_to: Some(other),
            ..self
        }
    }

    /// The same rule matching from a run of `class` bytes before the keyword.
    pub const fn before(self, class: &'static str, min: usize, max: usize) -> RuleDef {
        RuleDef {
            before: Some(Before { class, min, max }),
            ..self
        }
    }
}

// Conventions used by the patterns of every family file.
// - Sources of a shape (a family's `source`): the provider's documentation where it
//   publishes one, else the public rule sets that agree on it: GL gitleaks, TH
//   TruffleHog, NP Nosey Parker, DS detect-secrets, MS microsoft/security-utilities, GR
//   gitlab-runner.
// - Fixed-length tokens use the exact length and a right guard, so a token one character
//   too long is left alone; open-ended ones use `+`/`{n,}`, `max_len` and `overflow`.
// - Under leftmost-first, an alternation lists its longer alternative first when both
//   share a prefix (otherwise the shorter one would end the match early).
// - Context rules put the value in `secret…` groups: `KEY`, then `(?:\\?["'])?` (the closing
//   quote of a JSON or JSON-in-JSON key), then one of
//     `=value` with no spaces (env and CLI style): any value of 4+ (8+) word-ish bytes;
//     a spaced `=`, `:`, `:=`, `=>` and a quoted value ("…", '…', \"…\"); the match takes
//     the closing quote and any `,)}` after it, so the right guard below never sees them;
//     the same and an unquoted value, which must contain a digit (or, for passwords, a
//     symbol) and start with a letter or digit, so type annotations, `None` and bare or
//     dotted identifiers (`password: str`, `token: u32`, `self.password = password`) fail;
//     `>value<` (XML elements such as Maven's `<password>…</password>`).
//   Unquoted values stop at whitespace, quotes, backticks and `,;<>(){}[]&\`; the right
//   guard `[(\[<,)}]` rejects a value that is really a call, an index, a generic type, a
//   keyword argument (`password=password,`) or a struct-literal field.

/// One provider or family of credentials: its rules and their vectors.
#[derive(Clone, Copy, Debug)]
pub struct Family {
    pub name: &'static str,
    /// Where the shapes come from (see the conventions above).
    pub source: &'static str,
    /// Its rules, in priority order within the family.
    pub rules: &'static [RuleDef],
    pub vectors: &'static [Vector],
}

/// A test vector of a rule: scrubbing `text` with the built-in rules gives `expect`
/// (equal to `text` for a negative vector). Shared with the Python tests through
/// tests/fixtures/rules/vectors.jsonl, which a cargo test keeps in sync.
#[derive(Clone, Copy, Debug)]
pub struct Vector {
    pub rule: &'static RuleDef,
    pub text: &'static str,
    pub expect: &'static str,
}

impl Vector {
    /// A positive vector: `expect` is `text` with the secret replaced.
    pub const fn hit(rule: &'static RuleDef, text: &'static str, expect: &'static str) -> Vector {
        Vector { rule, text, expect }
    }

    /// A negative vector: `text` comes out unchanged.
    pub const fn miss(rule: &'static RuleDef, text: &'static str) -> Vector {
        Vector {
            rule,
            text,
            expect: text,
        }
    }
}

mod adafruit;
mod age;
mod airtable;
mod algolia;
mod alibaba;
mod anthropic;
mod apify;
mod artifactory;
mod atlassian;
mod aws;
mod azure;
mod bitbucket;
mod braintree;
mod brevo;
mod buildkite;
mod cerebras;
mod circleci;
mod cli_password;
mod clojars;
mod cloudflare;
mod connection_string;
mod consul;
mod contentful;
mod databricks;
mod datadog;
mod deepl;
mod defined_networking;
mod dependency_track;
mod digitalocean;
mod discord;
mod docker;
mod doppler;
mod duffel;
mod dynatrace;
mod e2b;
mod easypost;
mod elasticsearch;
mod elevenlabs;
mod figma;
mod firebase;
mod flutterwave;
mod flyio;
mod frameio;
mod generic_secret;
mod github;
mod gitlab;
mod google;
mod grafana;
mod groq;
mod harness;
mod heroku;
mod http_auth;
mod hubspot;
mod huggingface;
mod infracost;
mod inngest;
mod intercom;
mod intra42;
mod jina;
mod jwt;
mod jwt_variant;
mod klaviyo;
mod langfuse;
mod langsmith;
mod launchdarkly;
mod linear;
mod mailchimp;
mod mailgun;
mod mapbox;
mod maxmind;
mod meraki;
mod midtrans;
mod mistral;
mod msteams;
mod neon;
mod netlify;
mod netrc;
mod newrelic;
mod nomad;
mod notion;
mod npm;
mod nuget;
mod nvidia;
mod octopus;
mod okta;
mod onepassword;
mod onepassword_secret_key;
mod openai;
mod openrouter;
mod openshift;
mod openstack;
mod opsgenie;
mod paddle;
mod pagerduty;
mod password;
mod password_hash;
mod perplexity;
mod pinecone;
mod pivotal_tracker;
mod planetscale;
mod posthog;
mod postman;
mod postmark;
mod powerplatform;
mod prefect;
mod private_key;
mod pulumi;
mod pypi;
mod rapidapi;
mod razorpay;
mod readme;
mod render;
mod replicate;
mod riot;
mod robinhood;
mod rootly;
mod rubygems;
mod salesforce;
mod scaleway;
mod scalingo;
mod sendgrid;
mod sentry;
mod shippo;
mod shopify;
mod slack;
mod sourcegraph;
mod splunk;
mod square;
mod stripe;
mod supabase;
mod tailscale;
mod tavily;
mod teamcity;
mod telegram;
mod telegram_bare;
mod tencent;
mod terraform;
mod trufflehog;
mod twilio;
mod twitch;
mod twitter;
mod typeform;
mod typesense;
mod ubidots;
mod url_credentials;
mod vault;
mod virustotal;
mod xai;
mod yandex;
mod zapier;
mod zoho;

/// Every family, in priority order: earlier wins a tie between equally long matches
/// starting at the same byte. Fixed-format tokens come before the generic assignments.
pub static FAMILIES: &[&Family] = &[
    &aws::FAMILY,
    &github::FAMILY,
    &gitlab::FAMILY,
    &slack::FAMILY,
    &discord::FAMILY,
    &msteams::FAMILY,
    &stripe::FAMILY,
    &openai::FAMILY,
    &anthropic::FAMILY,
    &google::FAMILY,
    &private_key::FAMILY,
    &age::FAMILY,
    // TeamCity's tokens start like a JWT (`eyJ0eXAiOiAiVENWMiJ9` is `{"typ": "TCV2"}`).
    &teamcity::FAMILY,
    &jwt::FAMILY,
    // Authorization schemes with a provider's name start where `http-bearer` and
    // `http-basic` start (at `Authorization`): on a tie the provider's rule names it.
    &splunk::FAMILY,
    &opsgenie::FAMILY,
    &elasticsearch::FAMILY,
    &pagerduty::FAMILY,
    &http_auth::FAMILY,
    &url_credentials::FAMILY,
    &netrc::FAMILY,
    &azure::FAMILY,
    &npm::FAMILY,
    &pypi::FAMILY,
    &rubygems::FAMILY,
    &nuget::FAMILY,
    &docker::FAMILY,
    &huggingface::FAMILY,
    &groq::FAMILY,
    &openrouter::FAMILY,
    &xai::FAMILY,
    &replicate::FAMILY,
    &perplexity::FAMILY,
    &langsmith::FAMILY,
    &pinecone::FAMILY,
    &sendgrid::FAMILY,
    &twilio::FAMILY,
    &mailgun::FAMILY,
    &mailchimp::FAMILY,
    &shopify::FAMILY,
    &digitalocean::FAMILY,
    &databricks::FAMILY,
    &heroku::FAMILY,
    &vault::FAMILY,
    &terraform::FAMILY,
    &doppler::FAMILY,
    &onepassword::FAMILY,
    &linear::FAMILY,
    &notion::FAMILY,
    &postman::FAMILY,
    &sentry::FAMILY,
    &grafana::FAMILY,
    &atlassian::FAMILY,
    &tailscale::FAMILY,
    &supabase::FAMILY,
    &netlify::FAMILY,
    &cloudflare::FAMILY,
    &flyio::FAMILY,
    &elevenlabs::FAMILY,
    &pulumi::FAMILY,
    &square::FAMILY,
    &telegram::FAMILY,
    &newrelic::FAMILY,
    &telegram_bare::FAMILY,
    &powerplatform::FAMILY,
    &airtable::FAMILY,
    &sourcegraph::FAMILY,
    &twitch::FAMILY,
    &okta::FAMILY,
    &salesforce::FAMILY,
    &scaleway::FAMILY,
    &shippo::FAMILY,
    &duffel::FAMILY,
    &planetscale::FAMILY,
    &tavily::FAMILY,
    &jina::FAMILY,
    &onepassword_secret_key::FAMILY,
    &dynatrace::FAMILY,
    &apify::FAMILY,
    &rootly::FAMILY,
    &mapbox::FAMILY,
    &contentful::FAMILY,
    &adafruit::FAMILY,
    &figma::FAMILY,
    &frameio::FAMILY,
    &prefect::FAMILY,
    &readme::FAMILY,
    &harness::FAMILY,
    &infracost::FAMILY,
    &buildkite::FAMILY,
    &clojars::FAMILY,
    &easypost::FAMILY,
    &flutterwave::FAMILY,
    &intra42::FAMILY,
    &octopus::FAMILY,
    &openshift::FAMILY,
    &brevo::FAMILY,
    &twitter::FAMILY,
    &typeform::FAMILY,
    &alibaba::FAMILY,
    &tencent::FAMILY,
    &artifactory::FAMILY,
    &bitbucket::FAMILY,
    &hubspot::FAMILY,
    &midtrans::FAMILY,
    &razorpay::FAMILY,
    &render::FAMILY,
    &ubidots::FAMILY,
    &zapier::FAMILY,
    &firebase::FAMILY,
    &cerebras::FAMILY,
    &langfuse::FAMILY,
    &e2b::FAMILY,
    &neon::FAMILY,
    &posthog::FAMILY,
    &circleci::FAMILY,
    &intercom::FAMILY,
    &mistral::FAMILY,
    // Tokens whose keyword shares a signature the prefilter already has (scrubber.md,
    // "a family earns its keyword on the clean path"), then the few that add one.
    &scalingo::FAMILY,
    &defined_networking::FAMILY,
    &riot::FAMILY,
    &nvidia::FAMILY,
    &launchdarkly::FAMILY,
    &braintree::FAMILY,
    &paddle::FAMILY,
    &inngest::FAMILY,
    &robinhood::FAMILY,
    &trufflehog::FAMILY,
    &yandex::FAMILY,
    &maxmind::FAMILY,
    &dependency_track::FAMILY,
    // Values keyed by the header or scheme that carries them.
    &zoho::FAMILY,
    &klaviyo::FAMILY,
    &rapidapi::FAMILY,
    &deepl::FAMILY,
    &datadog::FAMILY,
    &meraki::FAMILY,
    &postmark::FAMILY,
    &virustotal::FAMILY,
    &algolia::FAMILY,
    &pivotal_tracker::FAMILY,
    &typesense::FAMILY,
    &consul::FAMILY,
    &nomad::FAMILY,
    &openstack::FAMILY,
    &jwt_variant::FAMILY,
    &password_hash::FAMILY,
    &cli_password::FAMILY,
    &password::FAMILY,
    &connection_string::FAMILY,
    &generic_secret::FAMILY,
];

/// The built-in rules, in priority order.
pub fn builtin() -> impl Iterator<Item = &'static RuleDef> {
    FAMILIES.iter().flat_map(|f| f.rules.iter())
}

/// Every family's vectors, in priority order.
pub fn vectors() -> impl Iterator<Item = &'static Vector> {
    FAMILIES.iter().flat_map(|f| f.vectors.iter())
}

/// Standard base64 with optional padding; `None` when `value` is not base64. For
/// validators.
pub(crate) fn base64_decode(value: &[u8]) -> Option<Vec<u8>> {
    let body = value
        .strip_suffix(b"==")
        .or_else(|| value.strip_suffix(b"="))
        .unwrap_or(value);
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for &c in body {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{builtin, FAMILIES};

    #[test]
    fn every_deferral_points_at_an_earlier_rule() {
        let order: Vec<&str> = builtin().map(|r| r.id).collect();
        for r in builtin() {
            if let Some(other) = r.yields_to {
                let (me, it) = (
                    order.iter().position(|&i| i == r.id),
                    order.iter().position(|&i| i == other.id),
                );
                assert!(it.is_some() && it < me, "{} yields to {}", r.id, other.id);
            }
        }
    }

    #[test]
    fn ids_are_unique_and_vectors_belong_to_their_family() {
        let mut ids: Vec<&str> = builtin().map(|r| r.id).collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate rule IDs");
        for f in FAMILIES {
            for v in f.vectors {
                assert!(
                    f.rules.iter().any(|r| r.id == v.rule.id),
                    "{}: vector of {}",
                    f.name,
                    v.rule.id
                );
            }
        }
    }
}
