//! The finite-set engine against the reference engine, and its exact periods.

use nimsieve::engine::{self, EngineKind, finite, reference};
use nimsieve::game::Game;
use nimsieve::period::{self, Period};
use nimsieve::progress::Progress;
use proptest::prelude::*;

fn by_finite(spec: &str, n: u64, until_period: bool) -> (Vec<u32>, Option<Period>) {
    let game = Game::parse(spec).unwrap();
    let steps = game.listed_steps(n).unwrap();
    let criterion = game.period_criterion().unwrap();
    let table = finite::compute(
        &game,
        &steps,
        &criterion,
        n,
        until_period,
        None,
        &Progress::hidden(),
    )
    .unwrap();
    (table.iter().collect(), table.period)
}

fn by_reference(spec: &str, n: u64) -> Vec<u32> {
    let game = Game::parse(spec).unwrap();
    reference::compute(&game, n, &Progress::hidden())
        .unwrap()
        .iter()
        .collect()
}

#[test]
fn chosen_for_finite_sets_only() {
    assert_eq!(
        engine::choose(&Game::parse("sub:1,3,4").unwrap(), 10),
        EngineKind::Finite
    );
    assert_ne!(
        engine::choose(&Game::parse("squares").unwrap(), 10),
        EngineKind::Finite
    );
    assert_ne!(
        engine::choose(&Game::parse("bachet:3").unwrap(), 10),
        EngineKind::Finite
    );
}

#[test]
fn catalogue_periods() {
    let cases = [
        ("sub:1,3,4", 0, 7),
        ("sub:2,3", 0, 5),
        ("sub:3,5,8", 0, 11),
        ("sub:2,3,7", 0, 5),
        ("sub:2,5,7", 0, 22),
        ("sub:2,4,7", 8, 3),
    ];
    for (spec, preperiod, period) in cases {
        let (values, found) = by_finite(spec, 100_000, false);
        assert_eq!(found, Some(Period::pure(preperiod, period)), "{spec}");
        assert_eq!(values, by_reference(spec, 100_000), "{spec}");
    }
}

#[test]
fn long_periods_and_preperiods() {
    // Found by sweeping random sets; checked here against the reference engine's values.
    for (spec, preperiod, period) in [
        ("sub:10,23,33", 0, 490),
        ("sub:6,34,40,141", 2508, 1530),
        ("sub:34,72,131,155", 2844, 392),
    ] {
        let n = 60_000;
        let reference = by_reference(spec, n);
        let m = Game::parse(spec).unwrap().finite_set_max().unwrap();
        assert_eq!(
            period::find(&reference, m, m),
            Some(Period::pure(preperiod, period)),
            "{spec}"
        );
        let (values, found) = by_finite(spec, n, false);
        assert_eq!(found, Some(Period::pure(preperiod, period)), "{spec}");
        assert_eq!(values, reference, "{spec}");
    }
}

#[test]
fn until_period_stops_at_the_shortest_proof() {
    let (values, found) = by_finite("sub:6,34,40,141", 1_000_000, true);
    assert_eq!(values.len(), 2508 + 141 + 1530);
    assert_eq!(found, Some(Period::pure(2508, 1530)));
    assert_eq!(values, by_reference("sub:6,34,40,141", values.len() as u64));
    // No period provable below n: the whole table, no period.
    let (values, found) = by_finite("sub:6,34,40,141", 3000, true);
    assert_eq!((values.len(), found), (3000, None));
    // Below the largest step nothing is proven, however constant the values look.
    assert_eq!(by_finite("sub:13", 2, false).1, None);
}

#[test]
fn large_tables_copy_periods_word_by_word() {
    for spec in [
        "sub:1,3,4",
        "sub:2,5,7+misere",
        "sub:10,23,33+leave1",
        "sub:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
    ] {
        let n = 3_000_017;
        assert_eq!(by_finite(spec, n, false).0, by_reference(spec, n), "{spec}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_sets_match_reference(
        set in prop::collection::btree_set(1u64..=70, 1..=8),
        n in 1u64..6000,
        leave in any::<bool>(),
        misere in any::<bool>(),
    ) {
        let items: Vec<String> = set.iter().map(u64::to_string).collect();
        let spec = format!("sub:{}{}{}", items.join(","), if leave { "+leave1" } else { "" }, if misere { "+misere" } else { "" });
        let (values, found) = by_finite(&spec, n, false);
        let reference = by_reference(&spec, n);
        prop_assert_eq!(&values, &reference, "{}", spec);
        let m = *set.iter().max().unwrap();
        if let Some(p) = found {
            // The proven period holds on the whole reference table.
            prop_assert!((p.preperiod..n - p.period.min(n)).all(|x| reference[x as usize] == reference[(x + p.period) as usize]));
            prop_assert_eq!(Some(p), period::find(&reference, m, m + u64::from(leave)));
        }
    }

    /// A set with an element within a few thousand of 2^64 proves no period below any n (its
    /// proof window alone is longer than any table), whatever its small elements repeat: the
    /// values are the reference engine's, and `--until-period` keeps the whole table.
    #[test]
    fn elements_near_2_64_prove_no_period(
        small in prop::collection::btree_set(1u64..=12, 1..=3),
        below in 0u64..3000,
        n in 1u64..3000,
        leave in any::<bool>(),
        misere in any::<bool>(),
    ) {
        let items: Vec<String> = small.iter().map(u64::to_string).collect();
        let spec = format!(
            "sub:{},{}{}{}",
            items.join(","),
            u64::MAX - below,
            if leave { "+leave1" } else { "" },
            if misere { "+misere" } else { "" }
        );
        let reference = by_reference(&spec, n);
        for until_period in [false, true] {
            let (values, found) = by_finite(&spec, n, until_period);
            prop_assert_eq!(&values, &reference, "{}", spec);
            prop_assert_eq!(found, None, "{}", spec);
        }
        let criterion = Game::parse(&spec).unwrap().period_criterion().unwrap();
        let by_table = period::find_by(n, |x| reference[x as usize], &criterion);
        prop_assert_eq!(by_table, None, "{}", spec);
    }
}
