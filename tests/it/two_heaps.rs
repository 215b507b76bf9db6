//! Codes written down whose moves leave at most two heaps, some splits bound to be unequal
//! (`!`, `?`) and others not, run on the rare-values engine: its tables against the reference
//! engine, far enough out for the sparse-space search to start.

use crate::written_down::values as values_of;
use nimsieve::engine::resumable::Storage;
use nimsieve::engine::{EngineKind, choose};
use nimsieve::game::Game;
use nimsieve::progress::Progress;
use proptest::prelude::*;

/// A digit of at most two heaps (bits 1, 2, 4) with a mark, or none.
fn a_digit() -> impl Strategy<Value = String> {
    (0u8..8, 0usize..3).prop_map(|(bits, mark)| format!("{bits}{}", ["", "!", "?"][mark]))
}

/// The rare-values engine's table of `spec` to n against the reference engine's.
fn check(spec: &str, n: u64) {
    let game = Game::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    assert_eq!(choose(&game, n), EngineKind::RareValues, "{spec}");
    assert_eq!(
        values_of(spec, n, None),
        values_of(spec, n, Some(EngineKind::Reference)),
        "{spec}"
    );
}

#[test]
fn splits_unequal_after_some_removals_only_are_their_definitions() {
    // Remove one and split freely, or three and split into unequal heaps; Grundy's game with
    // a free split after removing one; `?` of two heaps is `!`; `tb:0.16!6` far into its
    // sparse space (3.5% rare positions).
    for (spec, n) in [
        ("tb:0.4!4", 6000),
        ("tb:4!.4", 6000),
        ("tb:0.6!7", 6000),
        ("tb:0.4?", 6000),
        ("tb:0.77?|tb:0.04", 6000),
        ("tb:0.16!6", 20000),
    ] {
        check(spec, n);
    }
    assert_eq!(
        values_of("tb:0.6?6", 3000, None),
        values_of("tb:0.6!6", 3000, None)
    );
}

#[test]
fn periods_of_codes_with_some_splits_unequal_are_proven_and_hold_further_out() {
    // Remove one and leave nothing or two different heaps, or three and split freely; and
    // Grundy's game with a free split after removing one or two.
    for (spec, preperiod, period) in [("tb:0.5!04", 6372, 34), ("tb:4!.44", 3257, 442)] {
        let game = Game::parse(spec).unwrap();
        let n = 16_000;
        let table = EngineKind::RareValues
            .grundy(&game, n, false, Storage::default(), &Progress::hidden())
            .unwrap();
        let proven = table.period.expect("a proven period");
        assert_eq!(
            (proven.preperiod, proven.period),
            (preperiod, period),
            "{spec}"
        );
        let values: Vec<u32> = table.iter().collect();
        assert_eq!(
            values,
            values_of(spec, n, Some(EngineKind::Reference)),
            "{spec}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Random codes of up to four digits of at most two heaps, each split free, `!` or `?`,
    /// with d0 splitting or not.
    #[test]
    fn random_two_heap_codes_with_marks_are_their_definitions(
        d0 in prop_oneof![Just("0"), Just("4"), Just("4!")],
        listed in proptest::collection::vec(a_digit(), 1..5),
    ) {
        let spec = format!("tb:{d0}.{}", listed.concat());
        // A code without a split is a subtraction game, which its own engines compute.
        prop_assume!(Game::parse(&spec).is_ok_and(|game| game.is_take_and_break()));
        check(&spec, 4000);
    }
}
