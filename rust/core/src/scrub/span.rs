//! Where a rule's `secret…` group lies in a match already made, found by small DFAs
//! where the match leaves one answer, before the bounded backtracker is asked.
//!
//! The backtracker finds the group on the highest-priority path through the pattern,
//! a few nanoseconds for each pair of NFA state and byte it visits: 0.5-1.8 µs for
//! an `Authorization: Bearer …` or `API_KEY=…` match, a fifth of the time a dense
//! stream takes. Priority only matters where paths disagree. For each secret group,
//! the pattern is cut around it into what comes before it, its body and what comes
//! after it (`before`, `body`, `after`), and the match is read by their DFAs (every
//! match end reported, no priority): each place `before` ends, each place `body` run
//! from there ends, and whether `after` then ends exactly at the match's end. When
//! every such split of every group puts the secret at the same bytes, and every path
//! through the pattern passes through a secret group, the highest-priority path puts
//! it there too: that is the answer. Otherwise (two places it could start, a group
//! the pattern may repeat, a look-around the cuts would change) the backtracker
//! decides, as it did alone.

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::{primitives::StateID, start, syntax};
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{Hir, HirKind};

/// The DFAs of one secret group's cut (see the module's text).
#[derive(Debug)]
struct Cut {
    before: Part,
    body: Part,
    /// `None` when only the empty string follows the group: it ends where the match does.
    after: Option<Part>,
}

/// One part's DFA: anchored, every match end reported.
#[derive(Debug)]
struct Part {
    dfa: dense::DFA<Vec<u32>>,
    start: StateID,
}

/// The most memory one part's DFA may take, built or building: a part past it (a
/// counted repetition of hundreds, read with every end reported) has no splits, and
/// its rule goes to the backtracker.
const PART_MAX: usize = 512 << 10;

/// The most places the `before` parts may end, and the most the `body` parts may
/// end after them, in one match, all groups together, before the backtracker is
/// asked instead (`[ \t]{0,32}` ends at each blank; a body of a class run at each of
/// its bytes, each then tried by `after`, which mostly dies at its first byte).
const STARTS: usize = 64;
const ENDS: usize = 4096;

impl Part {
    fn new(hir: &Hir) -> Option<Part> {
        Part::many(std::slice::from_ref(hir))
    }

    /// One DFA of several parts, pattern `i` being `hirs[i]`.
    fn many(hirs: &[Hir]) -> Option<Part> {
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().which_captures(WhichCaptures::None))
            .build_many_from_hir(hirs)
            .ok()?;
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .start_kind(StartKind::Anchored)
                    .match_kind(MatchKind::All)
                    .dfa_size_limit(Some(PART_MAX))
                    .determinize_size_limit(Some(PART_MAX)),
            )
            .build_from_nfa(&nfa)
            .ok()?;
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .ok()?;
        Some(Part { dfa, start })
    }

    /// Calls `f` with each `i` at which the part matches `text[from..i]`, in order,
    /// while it returns true; false when it returned false.
    fn ends(&self, text: &[u8], from: usize, mut f: impl FnMut(usize) -> bool) -> bool {
        let dfa = &self.dfa;
        let mut state = self.start;
        for (i, &b) in text.iter().enumerate().skip(from) {
            state = dfa.next_state(state, b);
            if dfa.is_special_state(state) {
                if dfa.is_dead_state(state) || dfa.is_quit_state(state) {
                    return true;
                }
                // Matches are reported one byte late: this one ended before `b`.
                if dfa.is_match_state(state) && !f(i) {
                    return false;
                }
            }
        }
        !dfa.is_match_state(dfa.next_eoi_state(state)) || f(text.len())
    }

    /// As [`Part::ends`] from the text's start, for a DFA of several parts: `f(j, i)`
    /// for each part `j` that matches `text[..i]`.
    fn ends_of_each(&self, text: &[u8], mut f: impl FnMut(usize, usize) -> bool) -> bool {
        let dfa = &self.dfa;
        let mut each = |state: StateID, i: usize| {
            (0..dfa.match_len(state)).all(|k| f(dfa.match_pattern(state, k).as_usize(), i))
        };
        let mut state = self.start;
        for (i, &b) in text.iter().enumerate() {
            state = dfa.next_state(state, b);
            if dfa.is_special_state(state) {
                if dfa.is_dead_state(state) || dfa.is_quit_state(state) {
                    return true;
                }
                if dfa.is_match_state(state) && !each(state, i) {
                    return false;
                }
            }
        }
        let eoi = dfa.next_eoi_state(state);
        !dfa.is_match_state(eoi) || each(eoi, text.len())
    }

    /// Whether the part matches `text[from..]`, all of it.
    fn matches_rest(&self, text: &[u8], from: usize) -> bool {
        let dfa = &self.dfa;
        let mut state = self.start;
        for &b in &text[from..] {
            state = dfa.next_state(state, b);
            if dfa.is_dead_state(state) || dfa.is_quit_state(state) {
                return false;
            }
        }
        dfa.is_match_state(dfa.next_eoi_state(state))
    }
}

/// A rule's cuts, one per `secret…` group.
#[derive(Debug)]
pub(crate) struct Splits {
    cuts: Vec<Cut>,
    /// The cuts' `before` parts in one DFA (pattern `i` is cut `i`'s) where there are
    /// several: the match is read once for all of them. `secret-assignment` has seven
    /// groups, and each cut's own walk read the key and its separator again.
    befores: Option<Part>,
}

impl Splits {
    /// The cuts of `pattern` around capture groups `groups`, or `None` when the
    /// answer could not be trusted: a look-around (a cut would read it at the wrong
    /// place), a secret group under a repetition that may repeat (the capture keeps
    /// the last pass), a path through no secret group (the whole match is the
    /// answer there), or a part too big to build.
    pub fn new(pattern: &str, groups: &[usize]) -> Option<Splits> {
        let config = syntax::Config::new().unicode(false).utf8(false);
        let hir = syntax::parse_with(pattern, &config).ok()?;
        if !hir.properties().look_set().is_empty()
            || !always(&hir, groups)
            || repeated(&hir, groups, false)
        {
            return None;
        }
        let mut cuts = Vec::with_capacity(groups.len());
        let mut befores = Vec::with_capacity(groups.len());
        for &g in groups {
            let (before, body, after) = around(&hir, g as u32)?;
            let after = Hir::concat(after);
            let empty = after.properties().maximum_len() == Some(0);
            let before = Hir::concat(before);
            cuts.push(Cut {
                before: Part::new(&before)?,
                body: Part::new(&body)?,
                after: if empty {
                    None
                } else {
                    Some(Part::new(&after)?)
                },
            });
            befores.push(before);
        }
        // Built only where it pays: a DFA too big (see `PART_MAX`) leaves each cut
        // to walk its own.
        let befores = (cuts.len() > 1).then(|| Part::many(&befores)).flatten();
        Some(Splits { cuts, befores })
    }

    /// The span of the secret in `text`, a whole match of the pattern (the end of
    /// its highest-priority path), when every split puts it at the same bytes;
    /// `None`: ask the backtracker.
    pub fn span(&self, text: &[u8]) -> Option<(usize, usize)> {
        self.span_by(text, true)
    }

    /// [`Splits::span`]; with `together`, the `before` parts read in one walk where
    /// they can be. The splits are the same either way, asked in another order
    /// (by where `before` ends, not cut by cut): all must agree, and the counts
    /// against [`STARTS`] and [`ENDS`] are of all of them, so the answer is the same.
    fn span_by(&self, text: &[u8], together: bool) -> Option<(usize, usize)> {
        let mut found: Option<(usize, usize)> = None;
        let (mut starts, mut ends) = (0, 0);
        let mut one = |p: usize, q: usize| match found {
            None => {
                found = Some((p, q));
                true
            }
            Some(x) => x == (p, q),
        };
        let mut split = |cut: &Cut, p: usize| {
            starts += 1;
            starts <= STARTS
                && match &cut.after {
                    // The body ends where the match does: one run to the end, not
                    // each of its ends (a token's body ends at every byte).
                    None => !cut.body.matches_rest(text, p) || one(p, text.len()),
                    Some(after) => cut.body.ends(text, p, |q| {
                        ends += 1;
                        ends <= ENDS && (!after.matches_rest(text, q) || one(p, q))
                    }),
                }
        };
        match &self.befores {
            Some(befores) if together => {
                if !befores.ends_of_each(text, |j, p| split(&self.cuts[j], p)) {
                    return None;
                }
            }
            _ => {
                for cut in &self.cuts {
                    if !cut.before.ends(text, 0, |p| split(cut, p)) {
                        return None;
                    }
                }
            }
        }
        found
    }
}

/// Whether every path through `hir` passes through one of the capture groups `groups`.
fn always(hir: &Hir, groups: &[usize]) -> bool {
    match hir.kind() {
        HirKind::Capture(c) => groups.contains(&(c.index as usize)) || always(&c.sub, groups),
        HirKind::Concat(xs) => xs.iter().any(|x| always(x, groups)),
        HirKind::Alternation(xs) => xs.iter().all(|x| always(x, groups)),
        HirKind::Repetition(r) => r.min >= 1 && always(&r.sub, groups),
        _ => false,
    }
}

/// Whether one of `groups` lies under a repetition that may repeat (`under`: the
/// caller's is one).
fn repeated(hir: &Hir, groups: &[usize], under: bool) -> bool {
    match hir.kind() {
        HirKind::Capture(c) => {
            (under && groups.contains(&(c.index as usize))) || repeated(&c.sub, groups, under)
        }
        HirKind::Concat(xs) | HirKind::Alternation(xs) => {
            xs.iter().any(|x| repeated(x, groups, under))
        }
        HirKind::Repetition(r) => repeated(&r.sub, groups, under || r.max != Some(1)),
        _ => false,
    }
}

/// What comes before capture group `g` on a path through it, its body, and what
/// comes after it; `None` when `hir` does not hold it.
fn around(hir: &Hir, g: u32) -> Option<(Vec<Hir>, Hir, Vec<Hir>)> {
    match hir.kind() {
        HirKind::Capture(c) if c.index == g => Some((Vec::new(), (*c.sub).clone(), Vec::new())),
        HirKind::Capture(c) => around(&c.sub, g),
        // A repetition that holds the group takes it once (`repeated` is false).
        HirKind::Repetition(r) => around(&r.sub, g),
        HirKind::Alternation(xs) => xs.iter().find_map(|x| around(x, g)),
        HirKind::Concat(xs) => xs.iter().enumerate().find_map(|(i, x)| {
            let (inner_before, body, inner_after) = around(x, g)?;
            let mut before = xs[..i].to_vec();
            before.extend(inner_before);
            let mut after = inner_after;
            after.extend(xs[i + 1..].iter().cloned());
            Some((before, body, after))
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every built-in rule's pattern with two `secret…` groups or more, and their
    /// indexes (as the rule set numbers them).
    fn multi_group_patterns() -> Vec<(&'static str, &'static str, Vec<usize>)> {
        (crate::scrub::rules::builtin())
            .filter_map(|def| {
                let re = regex::bytes::Regex::new(def.pattern).ok()?;
                let groups: Vec<usize> = (re.capture_names().enumerate())
                    .filter(|(_, n)| n.is_some_and(|n| n.starts_with("secret")))
                    .map(|(i, _)| i)
                    .collect();
                (groups.len() > 1).then_some((def.id, def.pattern, groups))
            })
            .collect()
    }

    /// The cuts of a rule with several groups are read in one walk, the assignments'
    /// among them, unless their DFA would be too big (a command line's flags, each
    /// `[^\s]{0,128}` up to eight times, are read cut by cut); one group's, alone.
    #[test]
    fn several_cuts_are_read_in_one_walk() {
        let together: Vec<(&str, bool)> = (multi_group_patterns().into_iter())
            .filter_map(|(id, pattern, groups)| Some((id, Splits::new(pattern, &groups)?)))
            .map(|(id, splits)| (id, splits.befores.is_some()))
            .collect();
        assert!(together.iter().filter(|t| t.1).count() >= 2, "{together:?}");
        assert!(
            together.contains(&("secret-assignment", true)),
            "{together:?}"
        );
        let one = Splits::new(r"k=(?P<secret>[a-z]+)", &[1]).unwrap();
        assert!(one.befores.is_none());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// The `before` parts read in one walk split the text as each read on its
        /// own: the same answer, on text built as a key, separators, a value, and
        /// more pieces of either, and on each whole match in it.
        #[test]
        fn one_walk_answers_as_the_cuts_one_by_one(
            rule in any::<prop::sample::Index>(),
            key in prop::sample::select(KEYS),
            seps in prop::collection::vec(prop::sample::select(SEPARATORS), 0..3),
            value in value(),
            rest in prop::collection::vec(prop_oneof![
                prop::sample::select(KEYS).prop_map(String::from),
                prop::sample::select(SEPARATORS).prop_map(String::from),
                value(),
            ], 0..4),
        ) {
            let (_, splits, anchored) = rule.get(&BUILT);
            let text = [key.to_string(), seps.concat(), value, rest.concat()].concat();
            let text = text.as_bytes();
            prop_assert_eq!(splits.span_by(text, true), splits.span_by(text, false));
            // Whole matches from each place one starts, as the scrubber asks.
            for start in 0..text.len() {
                if let Some(m) = anchored.find(&text[start..]) {
                    let whole = &text[start..start + m.end()];
                    prop_assert_eq!(
                        splits.span_by(whole, true),
                        splits.span_by(whole, false),
                        "{:?}", String::from_utf8_lossy(whole)
                    );
                }
            }
        }
    }

    /// Every key, separator and value of the lists below, one of each and with a
    /// second separator, read by every rule with several groups: one walk answers
    /// as the cuts one by one, on the text and on each whole match in it.
    #[test]
    fn one_walk_answers_as_the_cuts_one_by_one_on_every_assignment() {
        let values = [
            "abcd1234efgh",
            "12345678",
            "abcdefgh",
            "aB3_x/9+=Qz",
            "x",
            "a1b2",
        ];
        let (mut asked, mut answered) = (0, 0);
        for (id, splits, anchored) in BUILT.iter() {
            for key in KEYS {
                for sep in SEPARATORS.iter().chain([&""]) {
                    for second in ["", " ", "\"", "="] {
                        for value in values {
                            let text = [key, sep, second, value].concat();
                            let text = text.as_bytes();
                            for start in 0..text.len() {
                                let whole = match anchored.find(&text[start..]) {
                                    Some(m) => &text[start..start + m.end()],
                                    None if start == 0 => text,
                                    None => continue,
                                };
                                let together = splits.span_by(whole, true);
                                assert_eq!(
                                    together,
                                    splits.span_by(whole, false),
                                    "{id}: {:?}",
                                    String::from_utf8_lossy(whole)
                                );
                                asked += 1;
                                answered += usize::from(together.is_some());
                            }
                        }
                    }
                }
            }
        }
        // Hundreds of them are whole matches the splits answer (824 of 45,082).
        assert!(answered >= 400, "{answered} of {asked}");
    }

    /// Each of [`multi_group_patterns`] and [`OVERLAPPING`] (its id empty), its
    /// splits and the pattern anchored at the text's start: built once.
    static BUILT: std::sync::LazyLock<Vec<(&str, Splits, regex::bytes::Regex)>> =
        std::sync::LazyLock::new(|| {
            let mut patterns = multi_group_patterns();
            patterns.push(("", OVERLAPPING, vec![1, 2, 3]));
            (patterns.into_iter())
                .map(|(id, pattern, groups)| {
                    let splits = Splits::new(pattern, &groups).unwrap();
                    let anchored = format!(r"\A(?:{pattern})");
                    (id, splits, regex::bytes::Regex::new(&anchored).unwrap())
                })
                .collect()
        });

    /// Keys of the rules with several groups, in the cases they are written.
    const KEYS: &[&str] = &[
        "secret",
        "token",
        "API_KEY",
        "api-key",
        "access_key",
        "Token",
        "password",
        "PASSWD",
        "pwd",
        "bot",
        "postgres://u:",
        "--password",
        "--token",
    ];

    /// What comes between a key and its value.
    const SEPARATORS: &[&str] = &[
        "=", ":", " ", "\t", "\"", "'", "`", "\\\"", ">", "</", "=>", ":=", "string ", "_key",
        ".value", "\n", "@",
    ];

    /// A value: a token's bytes, letters and digits, digits.
    fn value() -> impl Strategy<Value = String> {
        prop_oneof!["[a-zA-Z0-9_+/=.-]{1,24}", "[a-z0-9]{4,16}", "[0-9]{4,8}"]
    }

    /// Keys whose cuts' `before` parts end together where one body alone goes on.
    const OVERLAPPING: &str = r"(?i:token|secret)(?:=(?P<s1>[a-z]{4,})|[=:] ?(?P<s2>[0-9]{4,})|[:=][ \t]*(?P<s3>[a-z0-9+/=]{8,}))";

    /// The span of the first participating group of `groups`, as the regex crate
    /// captures it, on a whole match from the text's start.
    fn captured(pattern: &str, groups: &[usize], text: &[u8]) -> Option<(usize, usize)> {
        let re = regex::bytes::RegexBuilder::new(&format!("(?-u)\\A(?:{pattern})"))
            .unicode(false)
            .build()
            .unwrap();
        let caps = re.captures(text)?;
        assert_eq!(
            caps.get(0).unwrap().end(),
            text.len(),
            "{pattern}: not a whole match"
        );
        let m = groups.iter().find_map(|&g| caps.get(g))?;
        Some((m.start(), m.end()))
    }

    /// A pattern, its secret groups, a whole match and the secret's span in it.
    type Case = (&'static str, &'static [usize], &'static str, (usize, usize));

    /// Patterns whose matches leave the secret one place are answered, as the regex
    /// crate captures it; where paths disagree (the group's length, a path through
    /// no group, a group a repetition takes more than once) the backtracker is asked.
    #[test]
    fn splits_answer_only_where_every_path_agrees() {
        let answered: &[Case] = &[
            // `after` decides where the body ends: at the quote before `"x`.
            (r#"k=(?P<secret>[a-z"]+)"x"#, &[1], r#"k=ab"c"x"#, (2, 6)),
            // Two groups, one place: the first participating one.
            (
                r"k(?:=(?P<s1>[a-z0-9]+)|[ =]+(?P<s2>[a-z0-9]+))",
                &[1, 2],
                "k=ab12",
                (2, 6),
            ),
            // Both cuts' `before` end after `=`; only the second body goes on.
            (
                r"k(?:=(?P<s1>[a-z]+)|[=:](?P<s2>[0-9]+))",
                &[1, 2],
                "k=123",
                (2, 5),
            ),
            (
                r"auth: +(?P<secret>[a-z]{3,}[0-9])",
                &[1],
                "auth:   abcd7",
                (8, 13),
            ),
        ];
        for &(pattern, groups, text, span) in answered {
            let splits = Splits::new(pattern, groups).expect(pattern);
            assert_eq!(
                captured(pattern, groups, text.as_bytes()),
                Some(span),
                "{pattern}"
            );
            assert_eq!(
                splits.span(text.as_bytes()),
                Some(span),
                "{pattern} on {text:?}"
            );
        }
        // The group's length is the greedy choice: `a+` takes all three.
        let (pattern, text) = (r"k(?P<secret>a+)a*b", b"kaaab");
        assert_eq!(captured(pattern, &[1], text), Some((1, 4)));
        assert_eq!(Splits::new(pattern, &[1]).unwrap().span(text), None);
        // No splits for a pattern a path of which passes through no secret group
        // (here the first one, taken), or one that repeats the group.
        for pattern in [
            r"k(?:bc|(?P<secret>bc))",
            r"k(?:(?P<secret>a)b)+c",
            r"\bk(?P<secret>a)",
        ] {
            assert!(Splits::new(pattern, &[1]).is_none(), "{pattern}");
        }
        assert_eq!(captured(r"k(?:bc|(?P<secret>bc))", &[1], b"kbc"), None);
    }
}
