//! Tables take the fewest bits that hold their largest value, however their engine got there
//! (a known bound, a period, or widening as larger values appeared).

use nimsieve::engine::EngineKind;
use nimsieve::game::Game;
use nimsieve::progress::Progress;
use nimsieve::table::packed::PackedValues;

use crate::support::engines;
use engines::{assert_thread_count_does_not_matter, reference_values, values};

#[test]
fn tables_take_the_fewest_bits() {
    for (engine, spec, n) in [
        (EngineKind::Finite, "sub:1,3,4", 100),
        (EngineKind::Finite, "sub:1,2,4,8,16", 10_000),
        (EngineKind::Finite, "sub:2,3,5,7,11,13,17,19", 10_000),
        (EngineKind::Periodic, "bachet:20", 1000),
        (EngineKind::DivisorSieve, "proper-divisors", 3),
        (EngineKind::DivisorSieve, "proper-divisors", 100_000),
        (EngineKind::DivisorSieve, "aliquot+leave1", 5000),
        (EngineKind::DivisorSieve, "divisors+misere", 5000),
        (EngineKind::ValueLayers, "fibonacci", 1000),
        (EngineKind::ValueLayers, "cubes", 50_000),
        (EngineKind::ValueLayers, "squares+leave1", 200_000),
        (EngineKind::Reference, "squares", 3000),
    ] {
        let game = Game::parse(spec).unwrap();
        let table = engine
            .grundy(&game, n, false, Default::default(), &Progress::hidden())
            .unwrap();
        let largest = table.iter().max().unwrap_or(0);
        assert_eq!(
            table.values.bits(),
            PackedValues::bits_for(largest),
            "{spec} n={n}: largest value {largest}"
        );
        assert_eq!(
            values(engine, spec, n),
            reference_values(spec, n),
            "{spec} n={n}"
        );
    }
}

#[test]
fn widening_tables_do_not_depend_on_threads() {
    assert_thread_count_does_not_matter(EngineKind::ValueLayers, "cubes", 300_000);
    assert_thread_count_does_not_matter(EngineKind::DivisorSieve, "to-divisor", 300_000);
}
