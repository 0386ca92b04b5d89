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
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().which_captures(WhichCaptures::None))
            .build_from_hir(hir)
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
        for &g in groups {
            let (before, body, after) = around(&hir, g as u32)?;
            let after = Hir::concat(after);
            let empty = after.properties().maximum_len() == Some(0);
            cuts.push(Cut {
                before: Part::new(&Hir::concat(before))?,
                body: Part::new(&body)?,
                after: if empty {
                    None
                } else {
                    Some(Part::new(&after)?)
                },
            });
        }
        Some(Splits { cuts })
    }

    /// The span of the secret in `text`, a whole match of the pattern (the end of
    /// its highest-priority path), when every split puts it at the same bytes;
    /// `None`: ask the backtracker.
    pub fn span(&self, text: &[u8]) -> Option<(usize, usize)> {
        let mut found: Option<(usize, usize)> = None;
        let (mut starts, mut ends) = (0, 0);
        let mut one = |p: usize, q: usize| match found {
            None => {
                found = Some((p, q));
                true
            }
            Some(x) => x == (p, q),
        };
        for cut in &self.cuts {
            let agreed = cut.before.ends(text, 0, |p| {
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
            });
            if !agreed {
                return None;
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
