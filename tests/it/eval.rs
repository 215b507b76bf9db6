//! `eval` against brute-force game-tree searches on small positions, and on heaps of any size.

use crate::support::evaluate;
use evaluate::evaluate;
use nimsieve::engine::{EngineKind, resumable::Storage};
use nimsieve::eval::{self, Evaluation, Method, Outcome, TableOptions, evaluate_sum};
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
    assert!(!text.contains("grundy squares"), "{text}");
    // 3.7 GiB of disk: fits where the output folder has that much free.
    let e = evaluate_sum(&game, &[1_000_000_000], &TableOptions::in_memory()).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("hours"), "{text}");
    // The command line words this command as 'nimsieve grundy squares -n 1000000001 …'.
    assert!(
        text.contains("'nimsieve grundy squares' with n=1000000001"),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------------
// Games that are not sums of one-heap games.
