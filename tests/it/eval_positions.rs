//! `eval` of the games whose positions are not sums of heaps (Moore's Nim_k, turning turtles,
//! Fibonacci Nim, Wythoff's game, …) against brute-force game-tree searches, and the texts'
//! examples.

use crate::support::evaluate;
use evaluate::evaluate;
use nimsieve::eval::{
    self, Change, Evaluation, Options, Outcome, PositionEvaluation, TableOptions, evaluate_sum,
};
use nimsieve::game::Game;
use proptest::prelude::*;
use std::collections::HashMap;

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
