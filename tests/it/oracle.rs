//! The reference engine against an independent brute-force game-tree search.
//!
//! The brute force never takes a mex: it decides win/lose for the sum of the game with a Nim
//! heap of size b by searching the game tree, and reads g(a) as the one b that makes a + *b a
//! loss (Sprague–Grundy). Options are written here from the rules' text, not from the crate.

use nimsieve::engine::reference;
use nimsieve::eval::{Outcome, TableOptions, evaluate_sum};
use nimsieve::game::Game;
use nimsieve::progress::Progress;
use proptest::prelude::*;

type Options = dyn Fn(u64) -> Vec<u64>;

fn reference_values(spec: &str, n: u64) -> Vec<u32> {
    reference::compute(&Game::parse(spec).unwrap(), n, &Progress::hidden())
        .unwrap()
        .iter()
        .collect()
}

/// g(0..n) by win/lose search on a + *b.
fn brute_grundy(options: &Options, n: u64) -> Vec<u32> {
    let bound = n as usize + 1;
    let mut lose = vec![vec![false; bound]; n as usize];
    let mut values = Vec::new();
    for a in 0..n as usize {
        let opts = options(a as u64);
        for b in 0..bound {
            let to_loss = opts.iter().any(|&m| lose[m as usize][b]) || (0..b).any(|c| lose[a][c]);
            lose[a][b] = !to_loss;
        }
        let zeros: Vec<usize> = (0..bound).filter(|&b| lose[a][b]).collect();
        assert_eq!(zeros.len(), 1, "exactly one b makes {a} + *b a loss");
        values.push(zeros[0] as u32);
    }
    values
}

/// Misère outcomes 0 = P, 1 = N by the definition: N iff no move or a move to P.
fn brute_misere(options: &Options, n: u64) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for a in 0..n {
        let opts = options(a);
        out.push(u32::from(
            opts.is_empty() || opts.iter().any(|&m| out[m as usize] == 0),
        ));
    }
    out
}

fn is_prime(x: u64) -> bool {
    x >= 2
        && (2..x)
            .take_while(|d| d * d <= x)
            .all(|d| !x.is_multiple_of(d))
}

fn subtract(steps: impl Fn(u64) -> bool + 'static) -> Box<Options> {
    Box::new(move |n| (1..=n).filter(|&s| steps(s)).map(|s| n - s).collect())
}

fn divisor_moves(to: impl Fn(u64, u64) -> Option<u64> + 'static) -> Box<Options> {
    Box::new(move |n| {
        (1..=n)
            .filter(|d| n % d == 0)
            .filter_map(|d| to(n, d))
            .collect()
    })
}

/// Every family of the catalogue with its options written from the rules.
fn families() -> Vec<(&'static str, Box<Options>)> {
    let is_power = |s: u64, k: u32| (1..=s).take_while(|j| j.pow(k) <= s).any(|j| j.pow(k) == s);
    let fib = [1u64, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144];
    vec![
        ("nim", subtract(|_| true)),
        ("sub:1,3,4", subtract(|s| [1, 3, 4].contains(&s))),
        ("bachet:3", subtract(|s| s <= 3)),
        ("allbut:2,5", subtract(|s| s != 2 && s != 5)),
        ("powers-of-2", subtract(|s| s.is_power_of_two())),
        ("squares", subtract(move |s| is_power(s, 2))),
        ("cubes", subtract(move |s| is_power(s, 3))),
        ("powers:4", subtract(move |s| is_power(s, 4))),
        (
            "triangular",
            subtract(|s| (1..=s).any(|j| j * (j + 1) / 2 == s)),
        ),
        ("fibonacci", subtract(move |s| fib.contains(&s))),
        ("primes", subtract(is_prime)),
        ("pim", subtract(|s| s == 1 || is_prime(s))),
        ("aliquot", divisor_moves(|n, d| (d < n).then(|| n - d))),
        (
            "proper-divisors",
            divisor_moves(|n, d| (1 < d && d < n).then(|| n - d)),
        ),
        ("divisors", divisor_moves(|n, d| Some(n - d))),
        ("to-divisor", divisor_moves(|n, d| (d < n).then_some(d))),
        (
            "even-if-not-all",
            Box::new(|n| {
                let evens = (1..n).filter(|s| s % 2 == 0).map(move |s| n - s);
                evens.chain((n % 2 == 1).then_some(0)).collect()
            }),
        ),
        ("half", Box::new(|n| (1..=n / 2).map(|r| n - r).collect())),
    ]
}

fn leave1(options: &'static Options) -> Box<Options> {
    Box::new(move |n| options(n).into_iter().filter(|&m| m >= 1).collect())
}

#[test]
fn every_family_matches_brute_force() {
    let n = 90;
    for (spec, options) in families() {
        let options: &'static Options = Box::leak(options);
        assert_eq!(
            reference_values(spec, n),
            brute_grundy(options, n),
            "{spec}"
        );
        let l1 = leave1(options);
        let spec1 = format!("{spec}+leave1");
        assert_eq!(
            reference_values(&spec1, n),
            brute_grundy(l1.as_ref(), n),
            "{spec1}"
        );
        let misere = format!("{spec}+misere");
        assert_eq!(
            reference_values(&misere, n),
            brute_misere(options, n),
            "{misere}"
        );
        let both = format!("{spec}+leave1+misere");
        assert_eq!(
            reference_values(&both, n),
            brute_misere(l1.as_ref(), n),
            "{both}"
        );
    }
}

fn spec_of(prefix: &str, set: &[u64]) -> String {
    let items: Vec<String> = set.iter().map(u64::to_string).collect();
    format!("{prefix}:{}", items.join(","))
}

fn random_set() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::btree_set(1u64..=24, 1..=6).prop_map(|s| s.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_finite_sets(set in random_set(), n in 1u64..120, leave in any::<bool>(), misere in any::<bool>()) {
        let mut spec = spec_of("sub", &set);
        if leave { spec.push_str("+leave1"); }
        if misere { spec.push_str("+misere"); }
        let min = u64::from(leave);
        let steps = set.clone();
        let options = move |x: u64| steps.iter().filter(|&&s| s + min <= x).map(|&s| x - s).collect::<Vec<u64>>();
        let want = if misere { brute_misere(&options, n) } else { brute_grundy(&options, n) };
        prop_assert_eq!(reference_values(&spec, n), want, "{}", spec);
    }

    #[test]
    fn random_allbut_sets(set in random_set(), n in 1u64..90, leave in any::<bool>()) {
        let spec = format!("{}{}", spec_of("allbut", &set), if leave { "+leave1" } else { "" });
        let min = u64::from(leave);
        let excluded = set.clone();
        let options = move |x: u64| (1..=x).filter(|s| !excluded.contains(s) && s + min <= x).map(|s| x - s).collect::<Vec<u64>>();
        prop_assert_eq!(reference_values(&spec, n), brute_grundy(&options, n), "{}", spec);
    }

    #[test]
    fn winning_moves_reach_nim_sum_zero(set in random_set(), heaps in prop::collection::vec(0u64..80, 1..5)) {
        let game = Game::parse(&spec_of("sub", &set)).unwrap();
        let values = reference_values(&game.spec, 80);
        let e = evaluate_sum(&game, &heaps, &TableOptions::in_memory()).unwrap();
        prop_assert_eq!(e.outcome == Outcome::P, e.nim_sum == 0);
        prop_assert_eq!(e.outcome == Outcome::P, e.winning_moves.is_empty());
        // Every move of the position, and whether it leaves nim-sum 0, by brute force.
        let mut expected = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            for to in set.iter().filter(|&&s| s <= h).map(|&s| h - s).rev() {
                let sum = heaps.iter().enumerate().fold(0, |acc, (j, &x)| acc ^ values[if j == i { to } else { x } as usize]);
                if sum == 0 {
                    expected.push((i, h, to));
                }
            }
        }
        let got: Vec<(usize, u64, u64)> = e.winning_moves.iter().map(|m| (m.heap, m.from, m.to)).collect();
        prop_assert_eq!(got, expected);
    }
}
