//! Every value, P-position list, period and example of the games' catalogue of published
//! values (subtraction, divisor, take-and-break and Wythoff's games, with their conventions).

use nimsieve::engine::reference;
use nimsieve::eval::{HeapMove, Outcome, TableOptions, evaluate_sum};
use nimsieve::game::Game;
use nimsieve::period::{self, Period};
use nimsieve::progress::Progress;

fn values(spec: &str, n: u64) -> Vec<u32> {
    let game = Game::parse(spec).unwrap();
    reference::compute(&game, n, &Progress::hidden())
        .unwrap()
        .iter()
        .collect()
}

fn ppos(spec: &str, n: u64) -> Vec<u64> {
    let game = Game::parse(spec).unwrap();
    reference::compute(&game, n, &Progress::hidden())
        .unwrap()
        .p_positions()
}

fn list(text: &str) -> Vec<u32> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

fn list64(text: &str) -> Vec<u64> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

fn assert_prefix(spec: &str, text: &str) {
    let want = list(text);
    assert_eq!(values(spec, want.len() as u64), want, "{spec}");
}

fn proven_period(spec: &str, n: u64) -> Option<Period> {
    let game = Game::parse(spec).unwrap();
    let m = game.finite_set_max().unwrap();
    period::find(&values(spec, n), m, m + game.min_target())
}

#[test]
fn nim_values_are_heap_sizes() {
    let v = values("nim", 1000);
    assert!(v.iter().enumerate().all(|(x, &g)| g as usize == x));
}

#[test]
fn finite_subtraction_sets() {
    assert_prefix("sub:1,3,4", "0 1 0 1 2 3 2 0 1 0 1 2 3 2");
    assert_prefix("sub:2,3", "0 0 1 1 2 0 0 1 1 2");
    assert_prefix("sub:3,5,8", "0 0 0 1 1 1 2 2 2 3 3 0");
    let p = ppos("sub:1,3,4", 1000);
    assert!(p.iter().all(|x| x % 7 == 0 || x % 7 == 2) && p.len() == 2 * 1000 / 7 + 1);
    let p = ppos("sub:2,3", 1000);
    assert!(p.iter().all(|x| x % 5 <= 1) && p.len() == 400);
    let p = ppos("sub:3,5,8", 1100);
    assert!(p.iter().all(|x| x % 11 <= 2) && p.len() == 300);
}

#[test]
fn finite_subtraction_periods() {
    let cases = [
        ("sub:1,3,4", 0, 7),
        ("sub:2,3", 0, 5),
        ("sub:3,5,8", 0, 11),
        ("sub:2,3,7", 0, 5),
        ("sub:2,5,7", 0, 22),
        ("sub:2,4,7", 8, 3),
        ("bachet:4", 0, 5),
    ];
    for (spec, preperiod, period) in cases {
        assert_eq!(
            proven_period(spec, 1000),
            Some(Period::pure(preperiod, period)),
            "{spec}"
        );
    }
}

#[test]
fn bachet_powers_of_two_pim_closed_forms() {
    for k in 1..8u32 {
        let v = values(&format!("bachet:{k}"), 500);
        assert!(
            v.iter().enumerate().all(|(x, &g)| g == x as u32 % (k + 1)),
            "bachet:{k}"
        );
    }
    assert_eq!(
        ppos("bachet:4", 100),
        (0..100).step_by(5).collect::<Vec<u64>>()
    );
    let v = values("powers-of-2", 3000);
    assert!(v.iter().enumerate().all(|(x, &g)| g == x as u32 % 3));
    let v = values("pim", 3000);
    assert!(v.iter().enumerate().all(|(x, &g)| g == x as u32 % 4));
}

#[test]
fn allbut_is_arithmetic_periodic() {
    // allbut:1 — every step but 1: g(2k) = g(2k+1) = k.
    let v = values("allbut:1", 400);
    assert!(v.iter().enumerate().all(|(x, &g)| g == x as u32 / 2));
    // g(x + p) = g(x) + s eventually, for some period p and saltus s.
    let v = values("allbut:2,3", 2000);
    let arithmetic = (1..200).any(|p| {
        let s = v[1000 + p] - v[1000];
        (1000..2000 - p).all(|x| v[x + p] == v[x] + s)
    });
    assert!(arithmetic);
}

#[test]
fn infinite_families_first_values() {
    assert_prefix("cubes", "0 1 0 1 0 1 0 1 2 0 1");
    assert_prefix("triangular", "0 1 0 1 0 1 2 3 2 0 1");
    assert_prefix("fibonacci", "0 1 2 3 0 1 2 3 4 5 0 1");
    assert_prefix(
        "primes",
        "0 0 1 1 2 2 3 3 4 0 0 1 1 2 2 3 3 4 4 5 5 6 6 7 7 0 4 1 5 2 6 3 4 7 0 0",
    );
    assert_eq!(ppos("primes", 60), list64("0 1 9 10 25 34 35 49 55"));
    assert_eq!(values("cubes", 100), values("powers:3", 100));
    assert_eq!(values("squares", 100), values("powers:2", 100));
}

#[test]
fn subtract_a_square() {
    let first = "0 1 0 1 2 0 1 0 1 2 0 1 0 1 2 0 1 0 1 2 0 1 0 1 2 3 2 3 4 5 3 2 3 4 0 1 2 3 2 0 1 2 3 2 0 1 2 3 2 3 4 5 0 1 3 4 5 0 1 3";
    let second = "4 5 0 1 3 0 1 0 1 2 4 3 0 1 5 6 2 3 4 5 6 2 3 4 5 0 1 6 3 2 4 2 6 4 5 0 1 6 4 2 4 5 6 7 6 3 5 6 5 0 1 2 3 2 5 3 5 3 7 0";
    let v = values("squares", 120);
    assert_eq!(v[..60], list(first)[..]);
    assert_eq!(v[60..], list(second)[..]);
    assert_eq!(
        ppos("squares", 120),
        list64("0 2 5 7 10 12 15 17 20 22 34 39 44 52 57 62 65 67 72 85 95 109 119")
    );
    assert_eq!((v[100], v[75]), (4, 6));
}

#[test]
fn leave_one_convention() {
    assert_prefix("primes+leave1", "0 0 0 1 1 2 2 3 3 4 0 0 1 1 2 2 3 3 4 4");
    assert_eq!(
        ppos("primes+leave1", 100),
        list64("0 1 2 10 11 26 35 36 50 56 86 92")
    );
}

#[test]
fn divisor_games() {
    let two_adic = |x: usize| x.trailing_zeros();
    let v = values("aliquot", 2000);
    assert_eq!(&v[..2], &[0, 0]);
    assert!((1..2000).all(|x| v[x] == two_adic(x)));
    assert_eq!(
        ppos("aliquot", 100),
        [0].into_iter()
            .chain((1..100).step_by(2))
            .collect::<Vec<u64>>()
    );

    assert_prefix(
        "proper-divisors",
        "0 0 0 0 1 0 2 0 0 0 1 0 3 0 1 0 2 0 1 0 3",
    );
    let even_p: Vec<u64> = ppos("proper-divisors", 10_000)
        .into_iter()
        .filter(|x| x % 2 == 0)
        .collect();
    assert_eq!(even_p, [0, 2, 8, 32, 128, 512, 2048, 8192]);
    assert_eq!(
        ppos("proper-divisors", 10_000)
            .iter()
            .filter(|x| *x % 2 == 1)
            .count(),
        5000
    );

    let v = values("divisors", 2000);
    assert_eq!(v[0], 0);
    assert!((1..2000).all(|x| v[x] == two_adic(x) + 1));
    assert_eq!(ppos("divisors", 2000), [0]);

    let omega = |mut x: u64| {
        let (mut count, mut p) = (0, 2);
        while x > 1 {
            while x.is_multiple_of(p) {
                x /= p;
                count += 1;
            }
            p += 1;
        }
        count
    };
    let v = values("to-divisor", 2000);
    assert!((1..2000u64).all(|x| v[x as usize] == omega(x)));
    assert_eq!(ppos("to-divisor", 2000), [0, 1]);
}

#[test]
fn other_one_heap_rules() {
    let v = values("even-if-not-all", 1000);
    for k in 1..500 {
        assert_eq!(v[2 * k - 1], k as u32, "g({})", 2 * k - 1);
        assert_eq!(v[2 * k], k as u32 - 1, "g({})", 2 * k);
    }
    assert_prefix("half", "0 0 1 0 2 1 3 0 4 2 5 1 6 3 7 0 8 4 9 2 10");
    let p = ppos("half", 5000);
    assert_eq!(p, [0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095]);
}

#[test]
fn misere_outcomes() {
    let p = |spec: &str| ppos(spec, 40);
    assert_eq!(
        p("bachet:3+misere"),
        (1..40).step_by(4).collect::<Vec<u64>>()
    );
    assert_eq!(p("squares+misere"), list64("1 3 6 8 11 13 16 18 21 23 35"));
    assert_eq!(p("primes+misere"), list64("2 3 11 12 27 36 37"));
    assert!(values("squares+misere", 200).iter().all(|&o| o <= 1));
}

fn moves(list: &[(usize, u64, u64)]) -> Vec<HeapMove> {
    list.iter()
        .map(|&(heap, from, to)| HeapMove {
            heap,
            from,
            to,
            split: None,
        })
        .collect()
}

#[test]
fn several_heaps() {
    let nim = Game::parse("nim").unwrap();
    for heaps in [[1, 2, 3], [1, 4, 5], [3, 5, 6], [2, 4, 6]] {
        let e = evaluate_sum(&nim, &heaps, &TableOptions::in_memory()).unwrap();
        assert_eq!((e.nim_sum, e.outcome), (0, Outcome::P));
        assert!(e.winning_moves.is_empty());
    }
    let e = evaluate_sum(&nim, &[6, 7, 3], &TableOptions::in_memory()).unwrap();
    assert_eq!(e.nim_sum, 2);
    assert_eq!(e.winning_moves, moves(&[(0, 6, 4), (1, 7, 5), (2, 3, 1)]));
    let e = evaluate_sum(&nim, &[8, 12, 3, 9], &TableOptions::in_memory()).unwrap();
    assert_eq!(e.nim_sum, 14);
    assert_eq!(e.winning_moves, moves(&[(0, 8, 6), (1, 12, 2), (3, 9, 7)]));

    let squares = Game::parse("squares").unwrap();
    let e = evaluate_sum(&squares, &[18, 26, 28], &TableOptions::in_memory()).unwrap();
    assert_eq!((e.values.as_slice(), e.nim_sum), (&[1, 2, 4][..], 7));
    assert_eq!(e.winning_moves, moves(&[(2, 28, 27)]));

    let pim = Game::parse("pim").unwrap();
    let e = evaluate_sum(&pim, &[7, 19, 23, 56], &TableOptions::in_memory()).unwrap();
    assert_eq!(
        (e.values.as_slice(), e.nim_sum, e.outcome),
        (&[3, 3, 3, 0][..], 3, Outcome::N)
    );
    for m in moves(&[(0, 7, 4), (1, 19, 16), (2, 23, 20), (3, 56, 55)]) {
        assert!(e.winning_moves.contains(&m), "{m:?}");
    }
}

#[test]
fn misere_nim() {
    let game = Game::parse("nim+misere").unwrap();
    let outcome = |h: &[u64]| {
        evaluate_sum(&game, h, &TableOptions::in_memory())
            .unwrap()
            .outcome
    };
    assert_eq!(outcome(&[1, 1, 1]), Outcome::P);
    assert_eq!(outcome(&[1, 1]), Outcome::N);
    assert_eq!(outcome(&[1, 2, 3]), Outcome::P);
    // With one heap larger than 1, leave an odd number of heaps of size 1.
    let e = evaluate_sum(&game, &[1, 1, 5], &TableOptions::in_memory()).unwrap();
    assert_eq!(e.winning_moves, moves(&[(2, 5, 1)]));
    let e = evaluate_sum(&game, &[1, 5], &TableOptions::in_memory()).unwrap();
    assert_eq!(e.winning_moves, moves(&[(1, 5, 0)]));
    assert!(
        evaluate_sum(
            &Game::parse("squares+misere").unwrap(),
            &[3, 4],
            &TableOptions::in_memory()
        )
        .is_err()
    );
}
