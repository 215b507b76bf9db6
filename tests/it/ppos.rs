//! The P-position sieve against the reference engine, across threads, and across interruption.

use nimsieve::engine::resumable::{Checkpoint, StepEnd, Storage};
use nimsieve::engine::{self, EngineKind, psieve, reference};
use nimsieve::game::Game;
use nimsieve::progress::Progress;
use nimsieve::table::WorkTable;
use nimsieve::table::bits::BitTable;
use nimsieve::table::work_file::WorkFile;
use proptest::prelude::*;
use std::ops::ControlFlow;

fn by_reference(game: &Game, n: u64) -> Vec<u64> {
    reference::compute(game, n, &Progress::hidden())
        .unwrap()
        .p_positions()
}

fn by_sieve(game: &Game, n: u64) -> Vec<u64> {
    psieve::sieve(game, n, Storage::default(), &Progress::hidden()).unwrap()
}

/// The sieve for the listed subtraction sets but where the Grundy route is O(1) a position
/// whatever the density of the P-positions (a theorem's period, subtract-a-prime's value
/// classes), since the sieve's cost grows with the number of P-positions times the steps
/// (`ppos primes` to 10^7: over 40 s by the sieve, under 1 s by prime-grundy;
/// `scripts/bench-ppos-choice.py` measures the choice over the catalogue).
#[test]
fn sieve_is_chosen_for_listed_subtraction_sets_only() {
    for (spec, engine) in [
        ("primes", EngineKind::PrimeGrundy),
        ("primes+leave1", EngineKind::PrimeGrundy),
        ("pim", EngineKind::Periodic),
        ("powers-of-2", EngineKind::Periodic),
    ] {
        let game = Game::parse(spec).unwrap();
        assert_eq!(engine::choose_ppos(&game, 100), engine, "{spec}");
    }
    for spec in [
        "squares",
        "cubes",
        "triangular",
        "fibonacci",
        "sub:1,3,4",
        "sub:1,3,4+misere",
        "primes+misere",
    ] {
        assert_eq!(
            engine::choose_ppos(&Game::parse(spec).unwrap(), 100),
            EngineKind::Psieve,
            "{spec}"
        );
    }
    for spec in [
        "nim",
        "allbut:1",
        "bachet:3",
        "half",
        "aliquot",
        "even-if-not-all",
    ] {
        let game = Game::parse(spec).unwrap();
        let grundy_route = engine::choose(&game, 100);
        assert_eq!(engine::choose_ppos(&game, 100), grundy_route, "{spec}");
    }
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn sieve_matches_reference_on_every_listed_family() {
    let families = [
        ("squares", 100_000),
        ("cubes", 100_000),
        ("powers:4", 100_000),
        ("powers:7", 100_000),
        ("triangular", 100_000),
        ("fibonacci", 100_000),
        ("powers-of-2", 100_000),
        ("sub:1,3,4", 100_000),
        ("sub:2,4,7", 100_000),
        ("sub:3,5,8", 100_000),
        ("sub:5", 1000),
        ("sub:70000", 100_000),
        ("primes", 100_000),
        ("pim", 100_000),
    ];
    for (base, n) in families {
        for modifiers in ["", "+leave1", "+misere", "+leave1+misere"] {
            let game = Game::parse(&format!("{base}{modifiers}")).unwrap();
            for size in [1, 2, 63, 64, 65, 1000, n] {
                assert_eq!(
                    by_sieve(&game, size),
                    by_reference(&game, size),
                    "{} n={size}",
                    game.spec
                );
            }
        }
    }
}

#[test]
fn misere_outcome_tables_are_the_complement_of_the_sieve() {
    let families = [
        "squares",
        "cubes",
        "fibonacci",
        "powers-of-2",
        "primes",
        "pim",
        "sub:3,5,8",
    ];
    for base in families {
        for modifiers in ["+misere", "+leave1+misere"] {
            let game = Game::parse(&format!("{base}{modifiers}")).unwrap();
            if game.finite_set_max().is_none() {
                assert_eq!(
                    engine::choose(&game, 100),
                    EngineKind::Psieve,
                    "{}",
                    game.spec
                );
            }
            for size in [0, 1, 2, 63, 64, 65, 1000, 20_000] {
                let outcomes = EngineKind::Psieve
                    .grundy(&game, size, false, Storage::default(), &Progress::hidden())
                    .unwrap();
                let expected = reference::compute(&game, size, &Progress::hidden()).unwrap();
                assert_eq!(outcomes.kind, expected.kind, "{} n={size}", game.spec);
                assert_eq!(
                    outcomes.iter().collect::<Vec<_>>(),
                    expected.iter().collect::<Vec<_>>(),
                    "{} n={size}",
                    game.spec
                );
                // Bits past the end stay zero, as every packed table keeps them.
                let used = size % 64;
                if used != 0 {
                    let last = *outcomes.values.words().last().unwrap();
                    assert_eq!(last >> used, 0, "{} n={size}", game.spec);
                }
            }
        }
    }
}

#[test]
fn file_backed_misere_outcomes_drop_their_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("squares+misere.bits");
    let work_file = WorkFile::acquire(&work).unwrap();
    let game = Game::parse("squares+misere").unwrap();
    let storage = Storage {
        work_file: Some(&work_file),
        resume: true,
        ..Storage::default()
    };
    let in_file = psieve::misere_outcomes(&game, 100_000, storage, &Progress::hidden()).unwrap();
    let in_memory =
        psieve::misere_outcomes(&game, 100_000, Storage::default(), &Progress::hidden()).unwrap();
    assert_eq!(
        in_file.iter().collect::<Vec<_>>(),
        in_memory.iter().collect::<Vec<_>>()
    );
    // The work file now holds outcomes, not P bits: no checkpoint may offer to resume from it.
    assert!(!Checkpoint::path_for(&work).exists());
    let normal = Game::parse("squares").unwrap();
    assert!(psieve::misere_outcomes(&normal, 10, Storage::default(), &Progress::hidden()).is_err());
}

#[test]
fn subtract_a_square_known_counts() {
    let squares = Game::parse("squares").unwrap();
    let p = by_sieve(&squares, 1 << 20);
    assert_eq!(p.partition_point(|&x| x < 1 << 16), 2053);
    assert_eq!(p.len(), 14421);
    assert_eq!(
        &p[..23],
        &[
            0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95, 109,
            119
        ]
    );
}

#[test]
fn one_and_two_threads_agree() {
    let game = Game::parse("squares").unwrap();
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| by_sieve(&game, 3 << 20))
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn resumed_runs_equal_uninterrupted_runs() {
    let dir = tempfile::tempdir().unwrap();
    let game = Game::parse("squares").unwrap();
    let n = (1 << 23) + 77;
    let steps = game.listed_steps(n).unwrap();
    let fresh = by_sieve(&game, n);
    for stop_after in [1, 5, 20] {
        // Progress is reported every 2^18 positions: 32 times here.
        let path = dir.path().join(format!("run{stop_after}.bits"));
        let work_file = WorkFile::acquire(&path).unwrap();
        let mut table = BitTable::in_file(&work_file, n, false).unwrap();
        let mut calls = 0;
        let outcome = psieve::sieve_ppos(&steps, n, 0, table.words_mut(), 0, &mut |_, _| {
            calls += 1;
            if calls == stop_after {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        let StepEnd::Stopped { at } = outcome else {
            panic!("run was not stopped")
        };
        table.flush().unwrap();
        Checkpoint::of_table(&game, n, at, 1, &table, &[])
            .save(&path)
            .unwrap();
        drop(table);
        let resumed = psieve::sieve(
            &game,
            n,
            Storage {
                work_file: Some(&work_file),
                resume: true,
                ..Storage::default()
            },
            &Progress::hidden(),
        )
        .unwrap();
        assert_eq!(
            resumed, fresh,
            "stopped after {stop_after} segments at {at}"
        );
    }
}

#[test]
fn resume_refuses_a_checkpoint_of_another_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.bits");
    let work_file = WorkFile::acquire(&path).unwrap();
    let table = BitTable::in_file(&work_file, 1000, false).unwrap();
    let cubes = Game::parse("cubes").unwrap();
    Checkpoint::of_table(&cubes, 1000, 512, 1, &table, &[])
        .save(&path)
        .unwrap();
    drop(table);
    let game = Game::parse("squares").unwrap();
    let err = psieve::sieve(
        &game,
        1000,
        Storage {
            work_file: Some(&work_file),
            resume: true,
            ..Storage::default()
        },
        &Progress::hidden(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("belongs to cubes"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_sets_match_reference(
        set in prop::collection::btree_set(1u64..=300, 1..=12),
        n in 1u64..5000,
        leave in any::<bool>(),
        misere in any::<bool>(),
    ) {
        let items: Vec<String> = set.iter().map(u64::to_string).collect();
        let spec = format!("sub:{}{}{}", items.join(","), if leave { "+leave1" } else { "" }, if misere { "+misere" } else { "" });
        let game = Game::parse(&spec).unwrap();
        prop_assert_eq!(by_sieve(&game, n), by_reference(&game, n), "{}", spec);
    }
}
