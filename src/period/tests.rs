//! The periods found and proven, against the plain search and the criteria.

use super::{Criterion, Finding, Holders, Period, find, find_by, find_in, search};
use proptest::prelude::*;

/// No table to release.
const NONE: &(dyn Fn(std::ops::Range<u64>) + Sync) = &|_| ();

/// The first `len` values of `start` followed by `block` repeated.
fn repeating(start: &[u8], block: &[u8], len: usize) -> Vec<u8> {
    start
        .iter()
        .chain(block.iter().cycle())
        .take(len)
        .copied()
        .collect()
}

proptest! {
    /// The screened search finds what the plain one finds: tables that repeat a random
    /// block of `period` values (few distinct ones, so that wrong candidates survive the
    /// screening now and then) after a random preperiod, cut at random lengths, under
    /// both criteria (a short window screens nothing).
    #[test]
    fn screening_changes_no_answer(
        start in proptest::collection::vec(0u8..4, 0..600),
        block in proptest::collection::vec(0u8..3, 1..300),
        len in 1usize..3000,
        last_removal in 1u64..6,
        window in 1u64..12,
    ) {
        let table = repeating(&start, &block, len);
        let criteria = [
            Criterion::TakeBreak { last_removal, parts: 2, unequal_splits: Vec::new() },
            Criterion::TakeBreak { last_removal, parts: 2, unequal_splits: vec![last_removal] },
            Criterion::TakeBreak { last_removal, parts: 3, unequal_splits: Vec::new() },
            Criterion::Window { window, uniform_from: window },
        ];
        for criterion in &criteria {
            let plain = find_by(len as u64, |x| u32::from(table[x as usize]), criterion);
            prop_assert_eq!(find_in(&table, criterion, NONE).proven(), plain, "{:?}", criterion);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Comparing the multiples of a candidate that holds over a long stretch only below
    /// it changes no answer, proven or not (the length named for an open candidate too):
    /// long periodic tables whose period and its multiples hold back to the preperiod, of
    /// two values, so that many other candidates survive the screening.
    #[test]
    fn candidates_that_hold_long_change_no_answer(
        start in proptest::collection::vec(0u8..2, 0..4000),
        block in proptest::collection::vec(0u8..2, 1..40),
        len in 2000usize..12000,
        last_removal in 1u64..6,
    ) {
        let table = repeating(&start, &block, len);
        let criteria = [
            Criterion::TakeBreak { last_removal, parts: 2, unequal_splits: Vec::new() },
            Criterion::TakeBreak { last_removal, parts: 3, unequal_splits: Vec::new() },
            Criterion::Window { window: last_removal, uniform_from: last_removal },
        ];
        for criterion in &criteria {
            let without = search(&table, criterion, 0, NONE);
            prop_assert_eq!(find_in(&table, criterion, NONE), without, "{:?}", criterion);
        }
    }
}

/// A period 4 from 5,000 that the table cannot prove yet: every multiple of 4 holds back
/// to the preperiod, and the search names the length that proves it, with or without
/// listing the candidates that hold long.
#[test]
fn multiples_of_a_long_period_name_its_proof() {
    let criterion = Criterion::TakeBreak {
        last_removal: 3,
        parts: 2,
        unequal_splits: Vec::new(),
    };
    let want = Period::pure(5000, 4);
    let table: Vec<u8> = (0..20_000u64)
        .map(|x| match x {
            _ if x < want.preperiod => (x.count_ones() % 7) as u8,
            _ => (x % 4) as u8 + 7,
        })
        .collect();
    let proof = criterion.proof_length(want).unwrap() as usize;
    let short = &table[..proof - 1];
    assert_eq!(
        search(short, &criterion, 0, NONE),
        Finding::Unproven(Some(proof as u64))
    );
    assert_eq!(
        find_in(short, &criterion, NONE),
        Finding::Unproven(Some(proof as u64))
    );
    assert_eq!(
        find_in(&table[..proof], &criterion, NONE),
        Finding::Proven(want)
    );
}

/// A listed candidate tells only its multiples from where they hold, and a candidate is
/// listed only when it holds over a long stretch from further back than its listed
/// divisors.
#[test]
fn holders_speak_for_their_multiples_only() {
    let len = 100_000;
    let mut holders = Holders::new(Holders::MOST);
    holders.note(4, 60_000, len);
    holders.note(6, len - 6 - 10, len);
    assert_eq!(holders.list, [(4, 60_000)], "a short stretch is not listed");
    holders.note(8, 60_000, len);
    holders.note(12, 50_000, len);
    assert_eq!(holders.list, [(4, 60_000), (12, 50_000)]);
    assert_eq!(holders.known_from(8, len), 60_000);
    assert_eq!(holders.known_from(24, len), 50_000);
    assert_eq!(holders.known_from(6, len), len);
    assert_eq!(holders.known_from(10, len), len);
}

/// A table too short to prove its period names the length that proves it (the candidate's
/// proof from its last mismatch), and a table of that length proves it.
#[test]
fn an_unproven_table_names_the_length_that_proves_its_period() {
    let criterion = Criterion::TakeBreak {
        last_removal: 4,
        parts: 2,
        unequal_splits: Vec::new(),
    };
    let want = Period::pure(700, 97);
    // Before the preperiod, the number of 1-bits of x mod 5: no period there.
    let table: Vec<u8> = (0..5000u64)
        .map(|x| match x {
            _ if x < want.preperiod => (x.count_ones() % 5) as u8,
            _ => ((x - want.preperiod) % want.period % 11) as u8 + 5,
        })
        .collect();
    let proof = criterion.proof_length(want).unwrap() as usize;
    assert_eq!(proof, 2 * 700 + 2 * 97 + 4);
    for len in [proof - 500, proof - 1] {
        assert_eq!(
            find_in(&table[..len], &criterion, NONE),
            Finding::Unproven(Some(proof as u64)),
            "{len}"
        );
    }
    assert_eq!(
        find_in(&table[..proof], &criterion, NONE),
        Finding::Proven(want)
    );
    assert!(
        matches!(find_in(&table[..200], &criterion, NONE), Finding::Unproven(Some(at)) if at > 200),
        "a candidate left open needs a longer table"
    );
}

proptest! {
    /// A window near 2^64 proves nothing from any table, however periodic (its proof would
    /// compare positions past the table's end, and its length passes u64).
    #[test]
    fn windows_near_2_64_prove_nothing(
        block in proptest::collection::vec(0u8..3, 1..40),
        len in 1usize..3000,
        below in 0u64..64,
        leave1 in 0u64..2,
    ) {
        let table: Vec<u8> = block.iter().copied().cycle().take(len).collect();
        let window = u64::MAX - below;
        let criterion = Criterion::Window {
            window,
            uniform_from: window.saturating_add(leave1),
        };
        let plain = find_by(len as u64, |x| u32::from(table[x as usize]), &criterion);
        prop_assert_eq!(plain, None);
        prop_assert_eq!(find_in(&table, &criterion, NONE), Finding::Unproven(None));
        let p = Period::pure(0, below + 1);
        prop_assert_eq!(criterion.proof_length(p), None);
    }
}

#[test]
fn finds_period_and_preperiod() {
    let seq = [5, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1];
    assert_eq!(find(&seq, 3, 3), Some(Period::pure(1, 3)));
    assert_eq!(find(&seq[..5], 3, 3), None, "too short to prove");
    assert_eq!(find(&[7; 6], 2, 2), Some(Period::pure(0, 1)));
}

/// No table proves a saltus for a finite subtraction set or a finite take-and-break code,
/// however long and however well the values fit it.
#[test]
fn neither_criterion_proves_a_saltus() {
    let lasker_like = Period {
        preperiod: 1,
        period: 4,
        saltus: 4,
    };
    let criteria = [
        Criterion::TakeBreak {
            last_removal: 2,
            parts: 2,
            unequal_splits: Vec::new(),
        },
        Criterion::TakeBreak {
            last_removal: 2,
            parts: 2,
            unequal_splits: vec![2],
        },
        Criterion::TakeBreak {
            last_removal: 2,
            parts: 3,
            unequal_splits: Vec::new(),
        },
        Criterion::Window {
            window: 3,
            uniform_from: 3,
        },
    ];
    // g(x) = x: periods 1, 2, ... with saltus 1, 2, ...; no pure period.
    let table: Vec<u32> = (0..4000).collect();
    for criterion in &criteria {
        assert_eq!(criterion.proof_length(lasker_like), None, "{criterion:?}");
        assert_eq!(
            criterion.proof_length(Period::pure(1, 4)),
            Some(match criterion {
                // parts · max(n0, 1) + parts · p + t
                Criterion::TakeBreak { parts, .. } => parts + parts * 4 + 2,
                Criterion::Window { .. } => 1 + 3 + 4,
            })
        );
        assert_eq!(
            find_in(&table, criterion, NONE).proven(),
            None,
            "{criterion:?}"
        );
    }
}

/// Values past the known ones go back by whole periods, adding the saltus each time, and
/// a value past 2^64 − 1 is None.
#[test]
fn values_past_the_table_add_the_saltus() {
    let lasker = |x: u64| match x % 4 {
        0 if x > 0 => x - 1,
        3 => x + 1,
        _ => x,
    };
    let p = Period {
        preperiod: 1,
        period: 4,
        saltus: 4,
    };
    let value = |x: u64| lasker(x) as u32;
    for x in [0, 4, 5, 6, 7, 8, 1000, 1001, 1002, 1003, 1u64 << 40] {
        assert_eq!(p.value_at(x, 5, value), Some(lasker(x)), "{x}");
    }
    assert_eq!(p.value_at(u64::MAX, 5, value), None);
    assert_eq!(
        Period::pure(1, 4).value_at(u64::MAX, 5, value),
        Some(lasker(3))
    );
}

/// An apparent period holds over the second half at least three times, from as far back as it
/// holds; a table that only ends in a repetition has none.
#[test]
fn apparent_periods_hold_over_the_second_half() {
    let table: Vec<u32> = (0..300u32)
        .map(|x| if x < 40 { x } else { x % 7 })
        .collect();
    assert_eq!(super::apparent(&table), Some(Period::pure(40, 7)));
    // g(n) = ⌊n/2⌋ + 3 from 10: period 2, saltus 1.
    let growing: Vec<u32> = (0..300)
        .map(|x| if x < 10 { 50 + x } else { x / 2 + 3 })
        .collect();
    let arithmetic = Period {
        preperiod: 10,
        period: 2,
        saltus: 1,
    };
    assert_eq!(super::apparent(&growing), Some(arithmetic));
    let mut late: Vec<u32> = (0..300).map(|x| x * x % 97).collect();
    late[290..].fill(5);
    assert_eq!(super::apparent(&late), None);
    assert_eq!(super::apparent(&[]), None);
}
