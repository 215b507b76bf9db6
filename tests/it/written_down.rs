//! Rules written down — CGSuite's take-and-break codes (`tb:`), a digit over a set
//! (`SET@DIGIT`), unions (`A|B`) — against a plain mex written here from the definition: the
//! test builds each rule as data, writes its spec, and enumerates every option of every heap
//! itself. The examples, random codes with braces, `+` and modifiers, both engines
//! that take them; codes of catalogued games give their tables; bad specs one line each.

use crate::support::command;
use crate::support::provenance::table_bytes;

use command::{assert_error, nimsieve};
use nimsieve::engine::resumable::Storage;
use nimsieve::engine::{EngineKind, choose};
use nimsieve::game::Game;
use nimsieve::progress::Progress;
use proptest::prelude::*;

/// A digit as the test writes it: the heap counts it allows (ascending), `+` to allow every
/// count from the last listed on, and the constraint of its splits.
#[derive(Debug, Clone)]
struct TestDigit {
    counts: Vec<u64>,
    more: bool,
    mark: &'static str,
}

impl TestDigit {
    fn new(counts: &[u64], more: bool, mark: &'static str) -> TestDigit {
        TestDigit {
            counts: counts.to_vec(),
            more,
            mark,
        }
    }

    fn zero() -> TestDigit {
        TestDigit::new(&[], false, "")
    }

    /// A character when it can be one, else a brace list.
    fn text(&self) -> String {
        if self.counts.is_empty() {
            return "0".into();
        }
        let bits: u64 = self.counts.iter().map(|k| 1 << k).sum();
        if !self.more && bits < 36 {
            let c = char::from_digit(bits as u32, 36)
                .unwrap()
                .to_ascii_uppercase();
            return format!("{c}{}", self.mark);
        }
        let list: Vec<String> = self.counts.iter().map(u64::to_string).collect();
        let more = if self.more { "+" } else { "" };
        format!("{{{}{more}}}{}", list.join(","), self.mark)
    }

    fn allows(&self, k: u64) -> bool {
        self.counts.contains(&k) || (self.more && self.counts.last().is_some_and(|&l| k >= l))
    }

    /// Every way to leave r objects: no heap, one heap, or k ≥ 2 heaps that meet the mark.
    fn leavings(&self, r: u64) -> Vec<Vec<u64>> {
        let mut all = Vec::new();
        for k in 0..=r {
            if !self.allows(k) {
                continue;
            }
            for parts in multisets(r, k, 1) {
                let unequal = parts.windows(2).all(|w| w[0] != w[1]);
                let equal = parts.windows(2).all(|w| w[0] == w[1]);
                let keep = k < 2
                    || match self.mark {
                        "!" => unequal,
                        "?" => !equal,
                        "=" => equal,
                        _ => true,
                    };
                if keep {
                    all.push(parts);
                }
            }
        }
        all
    }
}

/// Every ascending list of k parts of at least `min` summing to r.
fn multisets(r: u64, k: u64, min: u64) -> Vec<Vec<u64>> {
    match k {
        0 if r == 0 => vec![vec![]],
        0 => vec![],
        1 if r >= min => vec![vec![r]],
        1 => vec![],
        _ => (min..=r / k)
            .flat_map(|a| {
                multisets(r - a, k - 1, a).into_iter().map(move |mut rest| {
                    rest.insert(0, a);
                    rest
                })
            })
            .collect(),
    }
}

/// A rule as the test builds it: removals with their digits.
enum TestRule {
    /// d0, d1, … and a repeating tail.
    Code(Vec<TestDigit>, Vec<TestDigit>),
    /// The elements of a set (below the heaps tested) with one digit.
    Set(String, Vec<u64>, TestDigit),
}

impl TestRule {
    fn spec(&self) -> String {
        match self {
            TestRule::Code(listed, tail) => {
                let word = |d: &[TestDigit]| d.iter().map(TestDigit::text).collect::<String>();
                let after = match (listed.len(), tail.is_empty()) {
                    (1, true) => "0".to_string(),
                    _ if tail.is_empty() => word(&listed[1..]),
                    _ => format!("{}[{}]", word(&listed[1..]), word(tail)),
                };
                format!("tb:{}.{after}", listed[0].text())
            }
            TestRule::Set(name, _, digit) => format!("{name}@{}", digit.text()),
        }
    }

    /// The digit of removing j, None when j is not a removal.
    fn digit(&self, j: u64) -> Option<&TestDigit> {
        match self {
            TestRule::Code(listed, tail) => match listed.get(j as usize) {
                Some(d) => Some(d),
                None if tail.is_empty() => None,
                None => Some(&tail[(j as usize - listed.len()) % tail.len()]),
            },
            TestRule::Set(_, elements, digit) => elements.contains(&j).then_some(digit),
        }
    }
}

/// g(0), …, g(n − 1) by the plain mex over every option of the union of `rules`.
fn plain_mex(rules: &[TestRule], n: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for x in 0..n {
        let mut seen = std::collections::BTreeSet::new();
        for rule in rules {
            for j in 0..=x {
                if let Some(digit) = rule.digit(j) {
                    for parts in digit.leavings(x - j) {
                        assert!(j > 0 || parts.len() != 1, "a loopy digit in the test");
                        seen.insert(parts.iter().fold(0, |v, &h| v ^ g[h as usize]));
                    }
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

/// The table of `spec` to n by `engine`, or by the engine chosen.
pub fn values(spec: &str, n: u64, engine: Option<EngineKind>) -> Vec<u32> {
    let game = Game::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let engine = engine.unwrap_or_else(|| choose(&game, n));
    engine
        .grundy(&game, n, false, Storage::default(), &Progress::hidden())
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
        .iter()
        .collect()
}

/// The spec's table by the engine chosen and by the reference engine, against the plain mex.
fn check(rules: &[TestRule], n: u64) {
    let spec: Vec<String> = rules.iter().map(TestRule::spec).collect();
    let spec = spec.join("|");
    let want = plain_mex(rules, n);
    assert_eq!(values(&spec, n, None), want, "{spec}: chosen engine");
    assert_eq!(
        values(&spec, n, Some(EngineKind::Reference)),
        want,
        "{spec}: reference engine"
    );
}

fn d(counts: &[u64], mark: &'static str) -> TestDigit {
    TestDigit::new(counts, false, mark)
}

fn more(counts: &[u64], mark: &'static str) -> TestDigit {
    TestDigit::new(counts, true, mark)
}

fn code(listed: Vec<TestDigit>, tail: Vec<TestDigit>) -> TestRule {
    TestRule::Code(listed, tail)
}

#[test]
fn the_examples_of_cgsuites_grammar_are_their_definitions() {
    let zero = TestDigit::zero;
    let nim = code(vec![zero()], vec![d(&[0, 1], "")]);
    let examples = [
        nim,
        code(vec![zero(), d(&[0, 1, 2], ""), d(&[0, 1, 2], "")], vec![]), // 0.77
        code(vec![d(&[2], "!")], vec![]),                                 // 4!.0
        code(vec![zero()], vec![d(&[0, 1], ""), d(&[0, 1, 2], "")]),      // 0.[37]
        code(vec![d(&[3], "!")], vec![]),                                 // 8!.0
        code(vec![d(&[3], "?")], vec![]),                                 // 8?.0
        code(vec![more(&[2], "")], vec![]),                               // {2+}.0
        code(vec![more(&[2], "!")], vec![]),                              // {2+}!.0
        code(vec![zero()], vec![more(&[0], "=")]),                        // 0.[{0+}=]
        code(vec![zero(), d(&[2, 3], "")], vec![]),                       // 0.{2,3}
        code(
            // 0.300303330[3]
            [0, 3, 0, 0, 3, 0, 3, 3, 3, 0]
                .iter()
                .map(|&b| if b == 3 { d(&[0, 1], "") } else { zero() })
                .collect(),
            vec![d(&[0, 1], "")],
        ),
    ];
    for rule in examples {
        check(&[rule], 40);
    }
}

/// Splits into three or more pairwise unequal heaps come from a knapsack over the parts: its
/// values are the definition's (every partition listed) further out than the examples, into
/// exactly three, three or four, and "three or more" heaps, with removals and other digits
/// beside them.
#[test]
fn unequal_parts_into_three_or_more_are_their_definition_further_out() {
    let zero = TestDigit::zero;
    for rule in [
        code(vec![more(&[2], "!")], vec![]),         // {2+}!.0
        code(vec![d(&[3], "!")], vec![]),            // 8!.0
        code(vec![zero(), d(&[3, 4], "!")], vec![]), // 0.{3,4}!
        code(vec![zero(), more(&[3], "!"), d(&[0, 1, 2], "")], vec![]), // 0.{3+}!7
        code(vec![zero(), d(&[1, 3], "!"), more(&[2], "!")], vec![]), // 0.{1,3}!{2+}!
    ] {
        check(&[rule], 52);
    }
}

#[test]
fn a_digit_over_a_set_and_unions_are_their_definitions() {
    let squares = || {
        TestRule::Set(
            "squares".into(),
            vec![1, 4, 9, 16, 25, 36],
            d(&[0, 1, 2], ""),
        )
    };
    let primes = |digit| {
        TestRule::Set(
            "primes".into(),
            vec![2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37],
            digit,
        )
    };
    check(&[squares()], 40);
    check(
        &[TestRule::Set(
            "sub:1,2,3".into(),
            vec![1, 2, 3],
            d(&[2], "!"),
        )],
        40,
    );
    check(&[primes(d(&[0, 1], ""))], 40);
    check(&[primes(more(&[1], "?"))], 30);
    check(
        &[
            squares(),
            code(
                vec![TestDigit::zero(), TestDigit::zero(), d(&[2, 3], "=")],
                vec![],
            ),
        ],
        40,
    );
    check(
        &[
            TestRule::Set(
                "fibonacci".into(),
                vec![1, 2, 3, 5, 8, 13, 21, 34],
                d(&[0, 1], ""),
            ),
            code(vec![d(&[2], "")], vec![]),
        ],
        40,
    );
}

/// A random digit: a character of up to five heaps, or a brace list with `+`; any mark.
fn a_digit(splits_only: bool) -> impl Strategy<Value = TestDigit> {
    let counts = proptest::collection::btree_set(0u64..5, 0..3);
    (counts, any::<bool>(), 0usize..4).prop_map(move |(counts, more, mark)| {
        let mut counts: Vec<u64> = counts.into_iter().collect();
        if splits_only {
            counts.retain(|&k| k >= 2);
        }
        let more = more && !counts.is_empty();
        TestDigit::new(&counts, more, ["", "!", "?", "="][mark])
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random codes of up to four digits after the point and a tail of up to two, digits of
    /// up to four heaps, braces with `+` and every modifier, against the plain mex.
    #[test]
    fn random_codes_are_their_definitions(
        d0 in a_digit(true),
        listed in proptest::collection::vec(a_digit(false), 0..4),
        tail in proptest::collection::vec(a_digit(false), 0..3),
    ) {
        let mut digits = vec![d0];
        digits.extend(listed);
        let moves = digits.iter().chain(&tail).any(|d| !d.counts.is_empty());
        prop_assume!(moves);
        check(&[code(digits, tail)], 24);
    }
}

/// Misère outcome (true: N) of a position of several heaps, by the plain recursion over every
/// move of every heap: a position without a move is N (the player who cannot move wins).
fn misere_n(
    rules: &[TestRule],
    heaps: Vec<u64>,
    memo: &mut std::collections::HashMap<Vec<u64>, bool>,
) -> bool {
    if let Some(&known) = memo.get(&heaps) {
        return known;
    }
    let mut has_move = false;
    let mut wins = false;
    'search: for (i, &h) in heaps.iter().enumerate() {
        for rule in rules {
            for j in 0..=h {
                let Some(digit) = rule.digit(j) else { continue };
                for parts in digit.leavings(h - j) {
                    has_move = true;
                    let mut next: Vec<u64> = heaps.clone();
                    next.remove(i);
                    next.extend(parts);
                    next.sort_unstable();
                    if !misere_n(rules, next, memo) {
                        wins = true;
                        break 'search;
                    }
                }
            }
        }
    }
    let n = !has_move || wins;
    memo.insert(heaps, n);
    n
}

#[test]
fn misere_tables_of_splitting_rules_are_their_definitions() {
    let zero = TestDigit::zero;
    let rules = [
        code(vec![d(&[3], "!")], vec![]), // 8!.0
        code(vec![zero(), d(&[0, 1, 2], "?"), d(&[0, 1], "")], vec![]), // 0.7?3
        TestRule::Set("sub:1,2".into(), vec![1, 2], d(&[0, 2, 3], "")), // sub:1,2@D
    ];
    for rule in rules {
        let spec = format!("{}+misere", rule.spec());
        let n = 16;
        let mut memo = std::collections::HashMap::new();
        let rules = [rule];
        let want: Vec<u32> = (0..n)
            .map(|h| {
                let heaps = if h == 0 { vec![] } else { vec![h] };
                u32::from(misere_n(&rules, heaps, &mut memo))
            })
            .collect();
        let game = Game::parse(&spec).unwrap();
        assert_eq!(choose(&game, n), EngineKind::MisereQuotient, "{spec}");
        assert_eq!(values(&spec, n, None), want, "{spec}");
    }
}

/// eval lists every winning move, into any number of heaps: the moves the plain enumeration
/// finds whose nim-sum is the target, no more.
#[test]
fn eval_lists_every_winning_move_into_any_number_of_heaps() {
    use nimsieve::eval::{TableOptions, evaluate_sum};
    let zero = TestDigit::zero;
    let cases = [
        (code(vec![d(&[4], "")], vec![]), vec![13, 5]), // {4}.0: split into four heaps
        (code(vec![more(&[2], "!")], vec![]), vec![20]), // {2+}!.0
        (code(vec![zero(), more(&[1], "?")], vec![]), vec![17, 3, 9]),
    ];
    for (rule, heaps) in cases {
        let spec = rule.spec();
        let g = plain_mex(std::slice::from_ref(&rule), 30);
        let nim_sum = heaps.iter().fold(0, |v, &h| v ^ g[h as usize]);
        let mut want = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            let target = g[h as usize] ^ nim_sum;
            for j in 0..=h {
                let Some(digit) = rule.digit(j) else { continue };
                for parts in digit.leavings(h - j) {
                    if parts.iter().fold(0, |v, &p| v ^ g[p as usize]) == target {
                        want.push((i, parts));
                    }
                }
            }
        }
        let game = Game::parse(&spec).unwrap();
        let e = evaluate_sum(&game, &heaps, &TableOptions::in_memory()).unwrap();
        assert!(e.all_winning_moves, "{spec}");
        let mut got: Vec<(usize, Vec<u64>)> = e
            .winning_moves
            .iter()
            .map(|m| (m.heap, m.split.clone().unwrap_or_else(|| vec![m.to])))
            .map(|(i, parts)| (i, parts.into_iter().filter(|&p| p > 0).collect()))
            .collect();
        got.sort();
        want.sort();
        assert!(
            !want.is_empty() || nim_sum == 0,
            "{spec}: a position with moves"
        );
        assert_eq!(got, want, "{spec} {heaps:?}");
    }
}

#[test]
fn codes_of_catalogued_games_give_their_tables_on_their_engines() {
    for (written, catalogued) in [
        ("tb:0.77", "kayles"),
        ("tb:0.07", "dawsons-kayles"),
        ("tb:4!.0", "grundys-game"),
        ("tb:4.[3]", "lasker"),
        ("tb:0.[3]", "nim"),
        ("tb:0.333", "sub:1,2,3"),
        ("tb:0.8", "hex:0.8"),
        ("squares@3", "squares"),
        ("primes@3", "primes"),
        ("sub:1,2|sub:4", "sub:1,2,4"),
        ("kayles|tb:0.007", "octal:0.777"),
        ("tb:0.77+leave1", "octal:0.66"),
    ] {
        let (a, b) = (
            Game::parse(written).unwrap(),
            Game::parse(catalogued).unwrap(),
        );
        assert_eq!(a.rule, b.rule, "{written}");
        assert_eq!(choose(&a, 1000), choose(&b, 1000), "{written}");
        assert_eq!(
            values(written, 300, None),
            values(catalogued, 300, None),
            "{written}"
        );
    }
    for written in ["tb:0.[37]", "tb:8!.0", "squares@7", "squares|tb:4.0"] {
        let game = Game::parse(written).unwrap();
        assert_eq!(choose(&game, 1000), EngineKind::General, "{written}");
    }
}

#[test]
fn tables_of_a_code_and_its_catalogued_game_are_the_same_files() {
    let dir = tempfile::tempdir().unwrap();
    for (spec, folder) in [("tb:0.77", "a"), ("kayles", "b")] {
        let out = nimsieve(dir.path())
            .args([
                "grundy",
                spec,
                "-n",
                "5000",
                "-f",
                "csv,npy,bfile,bin",
                "-q",
                "-o",
            ])
            .arg(format!("{folder}/"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for ext in ["csv", "npy", "txt"] {
        let a = table_bytes(&dir.path().join(format!("a/tb_0.77-5000.{ext}")));
        let b = table_bytes(&dir.path().join(format!("b/kayles-5000.{ext}")));
        assert!(a == b, "{ext} files differ");
    }
    // The packed binary names its game in its header; its values are the same.
    let out = nimsieve(dir.path())
        .args(["compare", "a/tb_0.77-5000.bin", "b/kayles-5000.bin"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn periods_of_finite_codes_are_proven_and_specs_are_written_the_shortest_way() {
    let dir = tempfile::tempdir().unwrap();
    // 0.{2,3}: remove one, split the rest into two or three heaps.
    let json = command::stdout_of(
        dir.path(),
        &[
            "grundy",
            "tb:0.{2,3}",
            "-n",
            "2000",
            "-f",
            "json",
            "-o",
            "-",
        ],
    );
    assert!(json.contains("\"game\": \"tb:0.C\""), "{json}");
    let game = Game::parse("tb:0.{2,3}").unwrap();
    assert!(game.period_criterion().is_some());
    // A repeating tail or a `!` of three heaps: no criterion, no proven period.
    for spec in ["tb:0.[37]", "tb:8!.0", "tb:{2+}.0"] {
        assert!(
            Game::parse(spec).unwrap().period_criterion().is_none(),
            "{spec}"
        );
    }
    assert_eq!(
        Game::parse("tb:{0+}=.0|squares@2")
            .unwrap_err()
            .to_string()
            .lines()
            .count(),
        1
    );
    // Misère play of a code that is an octal code is the octal code's, through its quotient.
    assert_eq!(
        Game::parse("tb:0.77+misere").unwrap().rule,
        Game::parse("kayles+misere").unwrap().rule
    );
}

#[test]
fn bad_codes_are_one_line_that_says_how_to_write_them() {
    for (spec, want) in [
        ("tb:0.{2,3", "not closed"),
        ("tb:0.7#", "'#' is not a digit"),
        ("tb:14.0", "digits left of d0"),
        ("tb:2.0", "repeat forever"),
        ("tb:0.000", "allows no move"),
        ("tb:0.{18446744073709551616}", "too many"),
        ("tb:0.[37", "in brackets at the end"),
        ("tb:0.77+unequal", "write '!' after a digit"),
        ("tb:0.77+fast", "unknown modifier '+fast'"),
        ("tb:0.7|", "empty"),
        ("squares@", "a digit is missing"),
        ("squares@0", "allows no move"),
        ("squares@77", "not one digit"),
        ("divisors@7", "not a subtraction set"),
        ("squares@7@7", "two '@'"),
        ("wythoff|nim", "a game of several heaps"),
        ("moore:2|nim", "a game of several heaps"),
        ("tb:0.77+misere|squares", "modifiers"),
    ] {
        assert_error(&["grundy", spec, "-n", "10"], 2, want);
    }
    // Splits into three or more unequal heaps cost n² unions: refused past 2^20 positions.
    assert_error(
        &["grundy", "tb:{2+}!.0", "-n", "2^20+1"],
        2,
        "-n 1048577 is too many positions for a rule that splits into three or more pairwise unequal heaps",
    );
}
