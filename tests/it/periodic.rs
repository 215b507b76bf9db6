//! The periodic engine (g(n) = n mod p by a theorem) against the reference engine.

use crate::support::engines;

use engines::{assert_thread_count_does_not_matter, reference_values, values};
use nimsieve::engine::{self, EngineKind, periodic};
use nimsieve::game::Game;
use nimsieve::period::Period;
use nimsieve::progress::Progress;

/// Each game with its preperiod and period.
const GAMES: [(&str, u64, u64); 8] = [
    ("pim", 0, 4),
    ("pim+leave1", 1, 4),
    ("powers-of-2", 0, 3),
    ("powers-of-2+leave1", 1, 3),
    ("bachet:1", 0, 2),
    ("bachet:3", 0, 4),
    ("bachet:3+leave1", 1, 4),
    ("bachet:40", 0, 41),
];

#[test]
fn chosen_for_games_with_a_proven_period_only() {
    for (spec, _, _) in GAMES {
        assert_eq!(
            engine::choose(&Game::parse(spec).unwrap(), 10),
            EngineKind::Periodic,
            "{spec}"
        );
    }
    for spec in [
        "pim+misere",
        "bachet:3+misere",
        "squares",
        "nim",
        "primes+leave1",
    ] {
        let game = Game::parse(spec).unwrap();
        assert_eq!(game.proven_period(), None, "{spec}");
        assert_ne!(engine::choose(&game, 10), EngineKind::Periodic, "{spec}");
    }
    let squares = Game::parse("squares").unwrap();
    let forced = periodic::compute(&squares, 10, false, None, &Progress::hidden());
    assert!(forced.unwrap_err().to_string().contains("periodic engine"));
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn equals_the_reference_engine_at_every_size_and_word_boundary() {
    for (spec, _, _) in GAMES {
        let expected = reference_values(spec, 100_000);
        for n in (0..=200).chain([1023, 1024, 1025, 100_000]) {
            assert_eq!(
                values(EngineKind::Periodic, spec, n),
                &expected[..n as usize],
                "{spec} n={n}"
            );
        }
        assert_thread_count_does_not_matter(EngineKind::Periodic, spec, 100_000);
    }
}

#[test]
fn reports_the_period_and_stops_after_one_with_until_period() {
    for (spec, preperiod, p) in GAMES {
        let game = Game::parse(spec).unwrap();
        let full = periodic::compute(&game, 1000, false, None, &Progress::hidden()).unwrap();
        let period = Period::pure(preperiod, p);
        assert_eq!(full.period, Some(period), "{spec}");
        // The smallest: a search over the values finds no shorter period or preperiod.
        let values: Vec<u32> = full.iter().collect();
        let found = nimsieve::period::find(&values, p, preperiod + p);
        assert_eq!(found, Some(period), "{spec}");
        let short = periodic::compute(&game, 1000, true, None, &Progress::hidden()).unwrap();
        assert_eq!(short.len(), preperiod + p, "{spec}");
        assert_eq!(short.period, Some(period), "{spec}");
    }
}

#[test]
fn file_backed_tables_equal_tables_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let game = Game::parse("pim").unwrap();
    let n = 1_000_003;
    let work = dir.path().join("pim.values");
    let work_file = nimsieve::table::work_file::WorkFile::acquire(&work).unwrap();
    let in_file =
        periodic::compute(&game, n, false, Some(&work_file), &Progress::hidden()).unwrap();
    let in_memory = periodic::compute(&game, n, false, None, &Progress::hidden()).unwrap();
    assert!(in_file.iter().eq(in_memory.iter()));
    assert!(in_file.iter().enumerate().all(|(x, v)| v as usize == x % 4));
}

#[test]
fn periods_near_2_64_are_longer_than_the_table() {
    // bachet:k with k near 2^64: g(n) = n (or n − 1 under +leave1) throughout the table, whose
    // first period (k + 1 from the preperiod) passes 2^64 − 1.
    for (spec, shift) in [
        ("bachet:18446744073709551614+leave1", 1),
        ("bachet:18446744073709551614", 0),
        ("bachet:9223372036854775808+leave1", 1),
    ] {
        let game = Game::parse(spec).unwrap();
        for until_period in [false, true] {
            let table = periodic::compute(&game, 70, until_period, None, &Progress::hidden());
            let values: Vec<u32> = table.unwrap().iter().collect();
            let want: Vec<u32> = (0..70u32).map(|x| x.saturating_sub(shift)).collect();
            assert_eq!(values, want, "{spec}");
        }
    }
}
