//! `eval` against brute-force game-tree searches on small positions, and on heaps of any size.

use nimsieve::engine::{EngineKind, resumable::Storage};
use nimsieve::eval::{
    self, Change, Evaluation, Method, Options, Outcome, PositionEvaluation, TableOptions,
    evaluate_sum,
};
use nimsieve::game::{Game, Moves, Play};
use nimsieve::progress::Progress;
use proptest::prelude::*;
use std::collections::HashMap;

/// The reference engine's values of `spec` below n.
fn reference(spec: &str, n: u64) -> Vec<u64> {
    let game = Game::parse(spec).unwrap();
    let table = EngineKind::Reference
        .grundy(&game, n, false, Storage::default(), &Progress::hidden())
        .unwrap();
    table.iter().map(u64::from).collect()
}

/// A move of a sum: (heap, objects left, the split, the heaps after).
type Child = (usize, u64, Option<[u64; 2]>, Vec<u64>);

/// A position of several heaps of one game, searched move by move.
struct SumSearch {
    moves: Moves,
    misere: bool,
    memo: HashMap<Vec<u64>, bool>,
}

impl SumSearch {
    fn new(game: &Game, bound: u64) -> SumSearch {
        SumSearch {
            moves: game.moves(bound),
            misere: game.play == Play::Misere,
            memo: HashMap::new(),
        }
    }

    /// Every position one move away: (heap, to, split, the heaps after).
    fn children(&self, heaps: &[u64]) -> Vec<Child> {
        let mut out = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            let (mut one, mut two) = (Vec::new(), Vec::new());
            self.moves.options(h, &mut one);
            self.moves.splits(h, &mut two);
            for to in one {
                let mut after = heaps.to_vec();
                after[i] = to;
                out.push((i, to, None, after));
            }
            for (a, b) in two {
                let mut after = heaps.to_vec();
                after[i] = a;
                after.push(b);
                out.push((i, a + b, Some([a, b]), after));
            }
        }
        out
    }

    /// True when the player to move loses.
    fn is_p(&mut self, heaps: &[u64]) -> bool {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&p) = self.memo.get(&key) {
            return p;
        }
        let children = self.children(&key);
        let p = match children.is_empty() {
            // No move: the player to move loses in normal play and wins in misère play.
            true => !self.misere,
            false => !children.iter().any(|(.., after)| self.is_p(after)),
        };
        self.memo.insert(key, p);
        p
    }
}

/// Checks eval's outcome and winning moves of `heaps` against the search.
fn check_sum(spec: &str, heaps: &[u64]) -> Result<(), TestCaseError> {
    let game = Game::parse(spec).unwrap();
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let mut search = SumSearch::new(&game, largest + 1);
    let e = evaluate_sum(&game, heaps, &TableOptions::in_memory()).unwrap();
    prop_assert_eq!(
        e.outcome == Outcome::P,
        search.is_p(heaps),
        "{} {:?}",
        spec,
        heaps
    );
    let mut want: Vec<(usize, u64, Option<[u64; 2]>)> = search
        .children(heaps)
        .into_iter()
        .filter(|(.., after)| search.is_p(after))
        .map(|(i, to, split, _)| (i, to, split))
        .collect();
    want.sort_unstable();
    want.dedup();
    let got: Vec<(usize, u64, Option<[u64; 2]>)> = e
        .winning_moves
        .iter()
        .map(|m| (m.heap, m.to, m.split.as_deref().map(|s| [s[0], s[1]])))
        .collect();
    prop_assert_eq!(got, want, "{} {:?}", spec, heaps);
    prop_assert!(e.all_winning_moves);
    Ok(())
}

/// One-heap games of every kind, with the modifiers eval takes.
const SUM_GAMES: &[&str] = &[
    "nim",
    "nim+leave1",
    "nim+misere",
    "bachet:3",
    "bachet:2+leave1",
    "allbut:2,3",
    "allbut:1+leave1",
    "powers-of-2",
    "squares",
    "squares+leave1",
    "cubes",
    "triangular",
    "fibonacci",
    "primes",
    "pim",
    "pim+leave1",
    "sub:2,5,7",
    "aliquot",
    "aliquot+leave1",
    "proper-divisors",
    "divisors",
    "divisors+leave1",
    "to-divisor",
    "to-divisor+leave1",
    "even-if-not-all",
    "even-if-not-all+leave1",
    "half",
    "half+leave1",
    "kayles",
    "dawsons-kayles",
    "lasker",
    "grundys-game",
    "octal:0.00404+unequal",
    "octal:4.37",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn sums_equal_a_game_tree_search(game in 0..SUM_GAMES.len(), heaps in prop::collection::vec(0u64..13, 1..4)) {
        check_sum(SUM_GAMES[game], &heaps)?;
    }

    #[test]
    fn random_codes_equal_a_game_tree_search(
        digits in prop::collection::vec(0u8..8, 1..4),
        four in any::<bool>(),
        unequal in any::<bool>(),
        heaps in prop::collection::vec(0u64..11, 1..3),
    ) {
        prop_assume!(*digits.last().unwrap() != 0 || four);
        let code: String = digits.iter().map(|d| (b'0' + d) as char).collect();
        let spec = format!("octal:{}.{code}{}", if four { 4 } else { 0 }, if unequal { "+unequal" } else { "" });
        prop_assume!(Game::parse(&spec).is_ok());
        check_sum(&spec, &heaps)?;
    }

    #[test]
    fn random_sets_equal_a_game_tree_search(
        set in prop::collection::btree_set(1u64..9, 1..4),
        heaps in prop::collection::vec(0u64..16, 1..4),
    ) {
        let spec = format!("sub:{}", set.iter().map(u64::to_string).collect::<Vec<_>>().join(","));
        check_sum(&spec, &heaps)?;
    }
}

#[test]
fn closed_forms_equal_the_reference_engine() {
    let specs = [
        "nim",
        "nim+leave1",
        "bachet:4",
        "bachet:4+leave1",
        "pim",
        "pim+leave1",
        "powers-of-2",
        "powers-of-2+leave1",
        "lasker",
        "aliquot",
        "aliquot+leave1",
        "divisors",
        "divisors+leave1",
        "to-divisor",
        "to-divisor+leave1",
        "even-if-not-all",
        "half",
        "half+leave1",
    ];
    for spec in specs {
        let game = Game::parse(spec).unwrap();
        let form = game
            .closed_form()
            .unwrap_or_else(|| panic!("{spec} has a closed form"));
        let want = reference(spec, 3000);
        let got: Vec<u64> = (0..3000).map(|n| form.value(n)).collect();
        assert_eq!(got, want, "{spec}: {}", form.statement());
    }
    for spec in [
        "squares",
        "proper-divisors",
        "even-if-not-all+leave1",
        "kayles",
        "nim+misere",
    ] {
        assert!(Game::parse(spec).unwrap().closed_form().is_none(), "{spec}");
    }
}

/// The JSON of `eval` as the command line prints it.
fn evaluate(spec: &str, args: &[&str]) -> Evaluation {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let options = Options {
        tables: TableOptions::in_memory(),
        last: None,
    };
    eval::evaluate(spec, &args, &options).unwrap()
}

fn sum(spec: &str, args: &[&str]) -> eval::SumEvaluation {
    match evaluate(spec, args) {
        Evaluation::Sum(e) => e,
        other => panic!("{spec}: not a sum: {other:?}"),
    }
}

#[test]
fn heaps_of_any_size_reduce_through_the_period() {
    // sub:1,3,4 has period 7 from 0; Kayles period 12 from 72 (preperiod 71).
    let small = reference("sub:1,3,4", 14);
    let kayles = reference("kayles", 100);
    for h in [
        1_000_000_000_000u64,
        1_000_000_000_000_000_000,
        u64::MAX - 1,
        u64::MAX,
    ] {
        let e = sum("sub:1,3,4", &[&h.to_string(), "5"]);
        assert_eq!(e.values[0], small[(h % 7) as usize], "sub:1,3,4 at {h}");
        assert_eq!(e.heaps[0].method, Method::Period);
        assert_eq!(e.heaps[1].method, Method::Table);
        assert!(e.all_winning_moves, "three options a heap");
        let e = sum("kayles", &[&h.to_string()]);
        assert_eq!(
            e.values[0],
            kayles[(72 + (h - 72) % 12) as usize],
            "kayles at {h}"
        );
        for m in &e.winning_moves {
            let [a, b] = m.split.as_deref().map_or([m.to, 0], |s| [s[0], s[1]]);
            let value = |x: u64| {
                if x < 100 {
                    kayles[x as usize]
                } else {
                    kayles[(72 + (x - 72) % 12) as usize]
                }
            };
            assert_eq!(value(a) ^ value(b), 0, "{m:?}");
        }
    }
}

#[test]
fn closed_forms_answer_heaps_of_any_size() {
    let h = 1_000_000_000_000_000_000u64;
    let e = sum("nim", &[&h.to_string(), "5"]);
    assert_eq!(e.values, [h, 5]);
    assert_eq!(e.heaps[0].method, Method::ClosedForm);
    // Nim's one winning move in a heap of 10^18, found without listing its options.
    let moves: Vec<(usize, u64)> = e.winning_moves.iter().map(|m| (m.heap, m.to)).collect();
    assert_eq!(moves, [(0, 5)]);
    assert!(e.all_winning_moves);
    for (spec, value) in [
        ("pim", h % 4),
        ("bachet:3", h % 4),
        ("powers-of-2", h % 3),
        ("aliquot", 18),
        ("divisors", 19),
        ("to-divisor", 36),
        ("lasker", h - 1),
        ("half", h / 2),
    ] {
        let e = sum(spec, &[&h.to_string()]);
        assert_eq!(e.values, [value], "{spec}");
        assert_eq!(e.heaps[0].method, Method::ClosedForm, "{spec}");
    }
    // Lasker's Nim: values 10^18 − 1 and 4; the move to the one heap of value 4 (3) is found
    // without listing the heap's options, its 5·10^17 splits only in part.
    let e = sum("lasker", &[&h.to_string(), "3"]);
    assert_eq!(e.values, [h - 1, 4]);
    assert!(
        e.winning_moves
            .iter()
            .any(|m| (m.heap, m.to, m.split.clone()) == (0, 3, None))
    );
    assert!(!e.all_winning_moves);
}

#[test]
fn partial_lists_say_so() {
    // pim: 10^12 has about 3.6·10^10 options; those with the fewest objects removed win too.
    let e = sum("pim", &["1000000000000", "7"]);
    assert!(!e.all_winning_moves);
    assert!(!e.winning_moves.is_empty());
    for m in &e.winning_moves {
        let value = m.to % 4;
        let other = if m.heap == 0 {
            7 % 4
        } else {
            1_000_000_000_000u64 % 4
        };
        assert_eq!(value ^ other, 0, "{m:?}");
    }
}

#[test]
fn values_from_a_table_file() {
    let dir = tempfile::tempdir().unwrap();
    assert_cmd::Command::cargo_bin("nimsieve")
        .unwrap()
        .args([
            "grundy", "squares", "-n", "5000", "-f", "npy,json", "-q", "-o",
        ])
        .arg(format!("{}/", dir.path().display()))
        .assert()
        .success();
    let tables = TableOptions {
        file: Some(dir.path().join("squares-5000.npy")),
        ..TableOptions::in_memory()
    };
    let game = Game::parse("squares").unwrap();
    let from_file = evaluate_sum(&game, &[4999, 1234], &tables).unwrap();
    let computed = evaluate_sum(&game, &[4999, 1234], &TableOptions::in_memory()).unwrap();
    assert_eq!(from_file, computed);
    let beyond = evaluate_sum(&game, &[5000], &tables)
        .unwrap_err()
        .to_string();
    assert!(beyond.contains("covers heaps below 5000"), "{beyond}");
    let other = evaluate_sum(&Game::parse("cubes").unwrap(), &[5], &tables).unwrap_err();
    assert!(
        other.to_string().contains("the table is of squares"),
        "{other}"
    );
}

#[test]
fn tables_too_long_are_refused_before_they_start() {
    let game = Game::parse("squares").unwrap();
    let e = evaluate_sum(&game, &[1_000_000_000_000], &TableOptions::in_memory()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("TiB of disk") && text.contains("2^32"),
        "{text}"
    );
    assert!(!text.contains("nimsieve grundy"), "{text}");
    // 3.7 GiB of disk: fits where the output folder has that much free.
    let e = evaluate_sum(&game, &[1_000_000_000], &TableOptions::in_memory()).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("hours"), "{text}");
    assert!(
        text.contains("nimsieve grundy squares -n 1000000001"),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------------
// Games that are not sums of one-heap games.

fn position(spec: &str, args: &[&str]) -> PositionEvaluation {
    match evaluate(spec, args) {
        Evaluation::Position(e) => e,
        other => panic!("{spec}: not a position game: {other:?}"),
    }
}

/// A game tree searched with memo: `children` lists each move as (changes, position after).
fn tree_is_p<K: Clone + Eq + std::hash::Hash>(
    state: &K,
    children: &dyn Fn(&K) -> Vec<K>,
    memo: &mut HashMap<K, bool>,
) -> bool {
    if let Some(&p) = memo.get(state) {
        return p;
    }
    let p = !children(state).iter().any(|c| tree_is_p(c, children, memo));
    memo.insert(state.clone(), p);
    p
}

/// The positions after each winning move listed by eval, applied to `position`.
fn applied(e: &PositionEvaluation) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = e
        .winning_moves
        .iter()
        .map(|m| {
            let mut after = e.position.clone();
            for &Change { index, from, to } in &m.changes {
                assert_eq!(after[index], from, "{m:?}");
                after[index] = to;
            }
            after
        })
        .collect();
    out.sort();
    out
}

fn moore_children(k: u64) -> impl Fn(&Vec<u64>) -> Vec<Vec<u64>> {
    move |heaps: &Vec<u64>| {
        // Every y ≤ heaps with 1..=k heaps lowered.
        let mut out = Vec::new();
        let mut y = vec![0u64; heaps.len()];
        loop {
            let changed = y.iter().zip(heaps).filter(|(a, b)| a != b).count() as u64;
            if (1..=k).contains(&changed) {
                out.push(y.clone());
            }
            let Some(i) = (0..y.len()).find(|&i| y[i] < heaps[i]) else {
                break;
            };
            y[i] += 1;
            y[..i].iter_mut().for_each(|a| *a = 0);
        }
        out
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn moore_equals_a_game_tree_search(k in 1u64..4, heaps in prop::collection::vec(0u64..6, 1..4)) {
        let children = moore_children(k);
        let mut memo = HashMap::new();
        let e = position(&format!("moore:{k}"), &heaps.iter().map(u64::to_string).collect::<Vec<_>>().iter().map(String::as_str).collect::<Vec<_>>());
        prop_assert_eq!(e.outcome == Outcome::P, tree_is_p(&heaps, &children, &mut memo));
        let mut want: Vec<Vec<u64>> = children(&heaps).into_iter().filter(|c| tree_is_p(c, &children, &mut memo)).collect();
        want.sort();
        prop_assert_eq!(e.winning_move_count, Some(want.len() as u64));
        prop_assert_eq!(applied(&e), want);
    }

    #[test]
    fn moores_construction_wins_from_large_positions(k in 1u64..5, heaps in prop::collection::vec(0u64..1 << 40, 2..7)) {
        let p = nimsieve::eval::moore_is_p(k, &heaps);
        let e = position(&format!("moore:{k}"), &heaps.iter().map(u64::to_string).collect::<Vec<_>>().iter().map(String::as_str).collect::<Vec<_>>());
        prop_assert_eq!(e.outcome == Outcome::P, p);
        if !p {
            let m = &e.winning_moves[0];
            prop_assert!((1..=k as usize).contains(&m.changes.len()));
            prop_assert!(m.changes.iter().all(|c| c.to < c.from));
            prop_assert!(nimsieve::eval::moore_is_p(k, &applied(&e)[0]));
        }
    }

    #[test]
    fn staircase_equals_a_game_tree_search(coins in prop::collection::vec(0u64..4, 1..5)) {
        let children = |c: &Vec<u64>| {
            let mut out = Vec::new();
            for i in 0..c.len() {
                for x in 1..=c[i] {
                    let mut after = c.clone();
                    after[i] -= x;
                    if i > 0 { after[i - 1] += x; }
                    out.push(after);
                }
            }
            out
        };
        let mut memo = HashMap::new();
        let e = position("staircase", &coins.iter().map(u64::to_string).collect::<Vec<_>>().iter().map(String::as_str).collect::<Vec<_>>());
        prop_assert_eq!(e.outcome == Outcome::P, tree_is_p(&coins, &children, &mut memo));
        let mut want: Vec<Vec<u64>> = children(&coins).into_iter().filter(|c| tree_is_p(c, &children, &mut memo)).collect();
        want.sort();
        prop_assert_eq!(applied(&e), want);
    }

    #[test]
    fn nimble_equals_a_game_tree_search(squares in prop::collection::vec(0u64..7, 1..4)) {
        let children = |q: &Vec<u64>| {
            let mut out = Vec::new();
            for i in 0..q.len() {
                for to in 0..q[i] {
                    let mut after = q.clone();
                    after[i] = to;
                    out.push(after);
                }
            }
            out
        };
        let mut memo = HashMap::new();
        let e = position("nimble", &squares.iter().map(u64::to_string).collect::<Vec<_>>().iter().map(String::as_str).collect::<Vec<_>>());
        prop_assert_eq!(e.outcome == Outcome::P, tree_is_p(&squares, &children, &mut memo));
        let mut want: Vec<Vec<u64>> = children(&squares).into_iter().filter(|c| tree_is_p(c, &children, &mut memo)).collect();
        want.sort();
        prop_assert_eq!(applied(&e), want);
    }

    #[test]
    fn fibonacci_nim_equals_a_game_tree_search(n in 0u64..90, last in prop::option::of(1u64..50)) {
        // State (heap, most that may be taken).
        let children = |&(n, limit): &(u64, u64)| (1..=limit.min(n)).map(|x| (n - x, (2 * x).min(n - x))).collect::<Vec<_>>();
        let limit = match last { None => n.saturating_sub(1), Some(m) => (2 * m).min(n) };
        let mut memo = HashMap::new();
        let args = vec![n.to_string()];
        let options = Options { tables: TableOptions::in_memory(), last };
        let Evaluation::Position(e) = eval::evaluate("fibonacci-nim", &args, &options).unwrap() else { panic!() };
        prop_assert_eq!(e.outcome == Outcome::P, tree_is_p(&(n, limit), &children, &mut memo));
        let want: Vec<u64> = (1..=limit.min(n)).filter(|&x| tree_is_p(&(n - x, (2 * x).min(n - x)), &children, &mut memo)).map(|x| n - x).collect();
        let got: Vec<u64> = applied(&e).into_iter().map(|p| p[0]).rev().collect();
        prop_assert_eq!(got, want);
    }
}

#[test]
fn turning_turtles_equals_a_game_tree_search() {
    let children = |c: &Vec<u64>| {
        let mut out = Vec::new();
        for n in 0..c.len() {
            if c[n] == 1 {
                let mut after = c.clone();
                after[n] = 0;
                out.push(after.clone());
                for m in 0..n {
                    let mut also = after.clone();
                    also[m] = 1 - also[m];
                    out.push(also);
                }
            }
        }
        out
    };
    let mut memo = HashMap::new();
    for len in 1..=7 {
        for bits in 0..1u32 << len {
            let coins: Vec<u64> = (0..len).map(|i| u64::from(bits >> i & 1)).collect();
            let row: String = coins
                .iter()
                .map(|&c| if c == 1 { 'H' } else { 'T' })
                .collect();
            let e = position("turning-turtles", &[&row]);
            assert_eq!(e.position, coins);
            assert_eq!(
                e.outcome == Outcome::P,
                tree_is_p(&coins, &children, &mut memo),
                "{row}"
            );
            let mut want: Vec<Vec<u64>> = children(&coins)
                .into_iter()
                .filter(|c| tree_is_p(c, &children, &mut memo))
                .collect();
            want.sort();
            assert_eq!(applied(&e), want, "{row}");
        }
    }
}

#[test]
fn texts_examples() {
    // GAMES.md §6: Moore's Nim_1 is Nim: 15-8-3-1 → 10-8-3-1.
    let e = position("moore:1", &["15", "8", "3", "1"]);
    assert_eq!(applied(&e), [vec![10, 8, 3, 1]]);
    // Nim_3: columns 8 4 2 1 have 1, 1, 2, 4 ones; no single heap fixes them mod 4.
    let e = position("moore:3", &["15", "8", "3", "1"]);
    assert_eq!(e.outcome, Outcome::N);
    assert!(
        applied(&e)
            .iter()
            .all(|after| nimsieve::eval::moore_is_p(3, after))
    );
    assert_eq!(e.winning_move_count, Some(applied(&e).len() as u64));
    // Fibonacci Nim from 100 = 89 + 8 + 3: take 3.
    let e = position("fibonacci-nim", &["100"]);
    assert!(
        e.winning_moves
            .iter()
            .any(|m| m.says.starts_with("take 3 "))
    );
    assert_eq!(position("fibonacci-nim", &["89"]).outcome, Outcome::P);
    // Staircase 3 1 4 1: odd steps 3 and 4, nim-sum 7.
    let e = position("staircase", &["3", "1", "4", "1"]);
    assert_eq!(
        (e.nim_heaps.clone().unwrap(), e.value),
        (vec![3, 4], Some(7))
    );
    // Northcott: rows 1,6 3,4 2,9 have gaps 4 0 6.
    let e = position("northcott", &["1,6", "3,4", "2,9"]);
    assert_eq!(e.position, [4, 0, 6]);
    assert_eq!(applied(&e), [vec![4, 0, 4]]);
    // Poker Nim: Nim's moves, and additions to nim-sum 0.
    let e = position("poker-nim", &["1", "2", "4"]);
    assert_eq!(applied(&e), [vec![1, 2, 3], vec![1, 5, 4], vec![6, 2, 4]]);
}

#[test]
fn bad_positions_name_the_problem() {
    let options = Options {
        tables: TableOptions::in_memory(),
        last: None,
    };
    let err = |spec: &str, args: &[&str]| {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        eval::evaluate(spec, &args, &options)
            .unwrap_err()
            .to_string()
    };
    assert!(err("moore:0", &["1"]).contains("from 1"));
    assert!(err("moore", &["1"]).contains("needs K"));
    assert!(err("staircase:2", &["1"]).contains("takes no arguments"));
    assert!(err("turning-turtles", &["THX"]).contains("'X' is not a coin"));
    assert!(err("northcott", &["3"]).contains("W,B"));
    assert!(err("northcott", &["3,3"]).contains("different squares"));
    assert!(err("fibonacci-nim", &["3", "4"]).contains("one heap"));
    let with_last = Options {
        tables: TableOptions::in_memory(),
        last: Some(2),
    };
    let args = vec!["5".to_string()];
    let e = eval::evaluate("nim", &args, &with_last).unwrap_err();
    assert!(e.to_string().contains("fibonacci-nim only"));
}

#[test]
fn moore_answers_many_heaps_and_any_k_at_once() {
    // 65 heaps of 3: 4^65 smaller positions, past u128; one winning move by the construction.
    let heaps = ["3"; 65];
    let e = position("moore:3", &heaps);
    assert_eq!(e.outcome, Outcome::N);
    assert_eq!(e.winning_move_count, None);
    assert!(nimsieve::eval::moore_is_p(3, &applied(&e)[0]));
    // K = 2^64 − 1: column sums are 0 mod 2^64 only when 0, so emptying every heap wins.
    let k = u64::MAX.to_string();
    let e = position(&format!("moore:{k}"), &["100000000", "3"]);
    assert_eq!(e.outcome, Outcome::N);
    assert!(
        e.method.ends_with("0 mod 18446744073709551616"),
        "{}",
        e.method
    );
    assert_eq!(applied(&e), [vec![0, 0]]);
    assert_eq!(
        position(&format!("moore:{k}"), &["0", "0"]).outcome,
        Outcome::P
    );
}

#[test]
fn values_past_2_64_are_refused() {
    // g(2^64 − 1) = 2^64 in Lasker's Nim; one below, the formula holds.
    let game = Game::parse("lasker").unwrap();
    let tables = TableOptions::in_memory();
    let e = evaluate_sum(&game, &[u64::MAX, 3], &tables).unwrap_err();
    assert!(
        e.to_string()
            .contains("give heaps up to 18446744073709551614"),
        "{e}"
    );
    let e = evaluate_sum(&game, &[u64::MAX - 1], &tables).unwrap();
    assert_eq!(e.values, [u64::MAX - 1]);
}

#[test]
fn wythoff_equals_a_game_tree_search() {
    let children = |p: &Vec<u64>| {
        let (a, b) = (p[0], p[1]);
        let mut out = Vec::new();
        out.extend((0..a).map(|x| vec![x, b]));
        out.extend((0..b).map(|y| vec![a, y]));
        out.extend((1..=a.min(b)).map(|d| vec![a - d, b - d]));
        out
    };
    // G by the definition, for the values.
    let n = 14usize;
    let mut g = vec![vec![0u64; n]; n];
    for a in 0..n {
        for b in 0..n {
            let seen: Vec<u64> = children(&vec![a as u64, b as u64])
                .iter()
                .map(|c| g[c[0] as usize][c[1] as usize])
                .collect();
            g[a][b] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
    }
    let mut memo = HashMap::new();
    for a in 0..n as u64 {
        for b in 0..n as u64 {
            let e = position("wythoff", &[&a.to_string(), &b.to_string()]);
            let start = vec![a, b];
            assert_eq!(
                e.outcome == Outcome::P,
                tree_is_p(&start, &children, &mut memo)
            );
            assert_eq!(e.value, Some(g[a as usize][b as usize]), "G({a}, {b})");
            let mut want: Vec<Vec<u64>> = children(&start)
                .into_iter()
                .filter(|c| tree_is_p(c, &children, &mut memo))
                .collect();
            want.sort();
            want.dedup();
            assert_eq!(applied(&e), want, "({a}, {b})");
        }
    }
    // Any size: the outcome and the moves stay exact; the value is left out.
    let e = position("wythoff", &["1000000000000", "3"]);
    assert_eq!(e.value, None);
    assert_eq!(applied(&e), [vec![5, 3]]);
}
