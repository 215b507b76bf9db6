//! The value-layers engine (value layers) against the reference engine and the catalogue.

use nimsieve::engine::resumable::{Checkpoint, StepEnd, Storage};
use nimsieve::engine::value_layers::{self, Pace};
use nimsieve::engine::{self, EngineKind};
use nimsieve::game::Game;
use nimsieve::progress::Progress;
use nimsieve::table::WorkTable;
use nimsieve::table::packed::PackedValues;
use nimsieve::table::words::Words;
use nimsieve::table::work_file::WorkFile;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::support::engines;
use engines::{assert_thread_count_does_not_matter, reference_values, values};

#[test]
fn chosen_for_sparse_infinite_sets_in_normal_play() {
    let choose = |spec: &str| engine::choose(&Game::parse(spec).unwrap(), 10);
    for spec in [
        "squares",
        "cubes",
        "powers:5",
        "triangular",
        "fibonacci",
        "squares+leave1",
    ] {
        assert_eq!(choose(spec), EngineKind::ValueLayers, "{spec}");
    }
    for spec in ["squares+misere", "powers:1", "pim", "nim", "powers-of-2"] {
        assert_ne!(choose(spec), EngineKind::ValueLayers, "{spec}");
    }
}

#[test]
fn matches_reference_on_every_sparse_family() {
    for base in [
        "squares",
        "cubes",
        "powers:4",
        "triangular",
        "fibonacci",
        "powers-of-2",
    ] {
        for modifiers in ["", "+leave1"] {
            let spec = format!("{base}{modifiers}");
            let want = reference_values(&spec, 100_000);
            for n in [1, 2, 3, 511, 512, 513, 100_000] {
                assert_eq!(
                    values(EngineKind::ValueLayers, &spec, n),
                    want[..n as usize],
                    "{spec} n={n}"
                );
            }
        }
    }
}

#[test]
fn subtract_a_square_known_values() {
    let g = values(EngineKind::ValueLayers, "squares", 1 << 20);
    assert_eq!((g[100], g[75]), (4, 6));
    assert_eq!(
        g[..20],
        [0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2]
    );
    assert_eq!(g[..1 << 16].iter().filter(|&&v| v == 0).count(), 2053);
    assert_eq!(g.iter().filter(|&&v| v == 0).count(), 14421);
}

#[test]
fn one_and_two_threads_agree() {
    assert_thread_count_does_not_matter(EngineKind::ValueLayers, "squares", 1 << 20);
}

/// The values of `spec` below `n` by the value-layers engine with segments of `segment` positions.
fn in_segments(spec: &str, n: u64, segment: u64) -> Vec<u32> {
    let game = Game::parse(spec).unwrap();
    value_layers::compute_in_segments(&game, n, segment, Storage::default(), &Progress::hidden())
        .unwrap()
        .iter()
        .collect()
}

#[test]
fn segment_length_does_not_change_values() {
    // Every segment is shorter than the largest step; most lengths are not multiples of 512.
    for base in ["squares", "cubes", "powers:4", "triangular", "fibonacci"] {
        for modifiers in ["", "+leave1"] {
            let spec = format!("{base}{modifiers}");
            let want = reference_values(&spec, 100_000);
            for segment in [1000, 4096, 7777, 33_333] {
                assert_eq!(
                    in_segments(&spec, 100_000, segment),
                    want,
                    "{spec} segment={segment}"
                );
            }
            assert_eq!(
                in_segments(&spec, 3000, 1),
                want[..3000],
                "{spec} segment=1"
            );
            assert_eq!(
                in_segments(&spec, 5000, 100),
                want[..5000],
                "{spec} segment=100"
            );
        }
    }
}

#[test]
fn one_and_two_threads_agree_across_segments() {
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| in_segments("squares", 1 << 20, 300_001))
    };
    assert_eq!(run(1), run(2));
}

/// Runs the value-layers engine on `table` from scratch in segments of `segment` positions, stopping
/// after `segments` of them.
fn stopped_after(game: &Game, table: &mut PackedValues, segment: u64, segments: u64) -> StepEnd {
    let n = table.len();
    let mut calls = 0;
    value_layers::layered_grundy(
        &game.listed_steps(n).unwrap(),
        n,
        game.min_target(),
        table,
        0,
        Pace {
            segment,
            stop: &mut |_| {
                calls += 1;
                if calls == segments {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
            abandon: &|| false,
            resolved: &|_| {},
        },
    )
    .unwrap()
}

#[test]
fn resumed_runs_equal_uninterrupted_runs() {
    let dir = tempfile::tempdir().unwrap();
    let n = 600_000 + 77;
    for spec in ["squares", "fibonacci+leave1"] {
        let game = Game::parse(spec).unwrap();
        let fresh = in_segments(spec, n, n);
        for stop_after in [1, 3] {
            let path = dir.path().join(format!("{spec}-{stop_after}.values"));
            let work_file = WorkFile::acquire(&path).unwrap();
            let mut table = PackedValues::zeroed(n, 16, 16, Some(&work_file)).unwrap();
            let outcome = stopped_after(&game, &mut table, 100_000, stop_after);
            let StepEnd::Stopped { at } = outcome else {
                panic!("run was not stopped")
            };
            assert_eq!(at, 100_000 * stop_after + game.min_target());
            table.flush().unwrap();
            Checkpoint::of_table(&game, n, at, 16, &table, &[])
                .save(&path)
                .unwrap();
            drop(table);
            let storage = Storage {
                work_file: Some(&work_file),
                resume: true,
                ..Storage::default()
            };
            let resumed: Vec<u32> =
                value_layers::compute_in_segments(&game, n, 250_000, storage, &Progress::hidden())
                    .unwrap()
                    .iter()
                    .collect();
            assert_eq!(resumed, fresh, "{spec} stopped at {at}");
        }
    }
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn tables_start_at_one_bit_and_widen_to_the_fewest_bits() {
    for (spec, n, bits) in [
        ("fibonacci", 20_000, 4),
        ("cubes", 100_000, 8),
        ("squares", 100_000, 8),
        ("triangular", 1 << 20, 16),
    ] {
        let game = Game::parse(spec).unwrap();
        for segment in [n, 999, 10_000] {
            let table = value_layers::compute_in_segments(
                &game,
                n,
                segment,
                Storage::default(),
                &Progress::hidden(),
            )
            .unwrap();
            assert_eq!(table.values.bits(), bits, "{spec} n={n} segment={segment}");
            assert_eq!(
                table.values.iter().collect::<Vec<_>>(),
                reference_values(spec, n),
                "{spec} n={n} segment={segment}"
            );
        }
    }
}

#[test]
fn a_run_resumes_at_the_width_its_checkpoint_records() {
    let dir = tempfile::tempdir().unwrap();
    let game = Game::parse("triangular").unwrap();
    let n = 1_000_000;
    let fresh = in_segments("triangular", n, n);
    let path = dir.path().join("triangular.values");
    let work_file = WorkFile::acquire(&path).unwrap();
    let words = Words::in_file(&work_file, PackedValues::words_for(n, 16), false).unwrap();
    let mut table = PackedValues::from_words(n, 1, words);
    let outcome = stopped_after(&game, &mut table, 30_000, 2);
    assert_eq!(outcome, StepEnd::Stopped { at: 60_000 });
    // The largest value below 60,000 is 89; the first above 255 comes later.
    assert_eq!(table.bits(), 8);
    table.flush().unwrap();
    Checkpoint::of_table(&game, n, 60_000, 16, &table, &[])
        .save(&path)
        .unwrap();
    drop(table);
    let storage = Storage {
        work_file: Some(&work_file),
        resume: true,
        ..Storage::default()
    };
    let resumed =
        value_layers::compute_in_segments(&game, n, 300_000, storage, &Progress::hidden()).unwrap();
    assert_eq!(resumed.values.bits(), 16);
    assert_eq!(resumed.values.iter().collect::<Vec<_>>(), fresh);
}

#[test]
fn segments_report_progress_layer_by_layer() {
    let game = Game::parse("squares+leave1").unwrap();
    let n = 300_001;
    let steps = game.listed_steps(n).unwrap();
    let mut table = PackedValues::in_memory(n, 16).unwrap();
    let reports = std::sync::Mutex::new(Vec::new());
    value_layers::layered_grundy(
        &steps,
        n,
        game.min_target(),
        &mut table,
        0,
        Pace {
            segment: 200_000,
            stop: &mut |_| ControlFlow::Continue(()),
            abandon: &|| false,
            resolved: &|at| reports.lock().unwrap().push(at),
        },
    )
    .unwrap();
    let reports = reports.into_inner().unwrap();
    // Many reports in each segment, none beyond its end, most positions resolved by layers.
    let (first, second): (Vec<u64>, Vec<u64>) = reports.iter().partition(|&&at| at <= 200_001);
    assert!(first.len() > 10 && second.len() > 10, "{reports:?}");
    assert!(second.iter().all(|&at| at > 200_001 && at <= n));
    assert!(*first.iter().max().unwrap() > 150_000);
}

#[test]
fn an_abandoned_segment_ends_the_run_at_its_start() {
    let game = Game::parse("squares").unwrap();
    let n = 300_000;
    let steps = game.listed_steps(n).unwrap();
    let want = in_segments("squares", n, n);
    let mut table = PackedValues::in_memory(n, 16).unwrap();
    let mut segments = 0;
    let abandon = AtomicBool::new(false);
    let outcome = value_layers::layered_grundy(
        &steps,
        n,
        0,
        &mut table,
        0,
        Pace {
            segment: 100_000,
            stop: &mut |_| {
                segments += 1;
                abandon.store(true, Ordering::Relaxed);
                ControlFlow::Continue(())
            },
            abandon: &|| abandon.load(Ordering::Relaxed),
            resolved: &|_| {},
        },
    )
    .unwrap();
    assert_eq!(outcome, StepEnd::Stopped { at: 100_000 });
    assert_eq!(segments, 1);
    // The abandoned segment left nothing behind.
    assert!((0..100_000).all(|x| table.get(x) == want[x as usize]));
    assert!((100_000..n).all(|x| table.get(x) == 0));
}

#[test]
fn a_zero_step_is_refused() {
    let mut table = PackedValues::in_memory(10, 16).unwrap();
    let outcome = value_layers::layered_grundy(
        &[0, 1],
        10,
        0,
        &mut table,
        0,
        Pace {
            segment: 10,
            stop: &mut |_| ControlFlow::Continue(()),
            abandon: &|| false,
            resolved: &|_| {},
        },
    );
    assert!(matches!(
        outcome,
        Err(value_layers::LayeredGrundyError::ZeroStep)
    ));
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn a_value_beyond_u16_is_a_one_line_error() {
    // Subtracting 1 to 2^16 gives g(p) = p: position 65536 has value 65536.
    let steps: Vec<u64> = (1..=1 << 16).collect();
    let n = (1 << 16) + 2;
    let mut table = PackedValues::in_memory(n, 16).unwrap();
    let err = value_layers::layered_grundy(
        &steps,
        n,
        0,
        &mut table,
        0,
        Pace {
            segment: n,
            stop: &mut |_| ControlFlow::Continue(()),
            abandon: &|| false,
            resolved: &|_| {},
        },
    )
    .unwrap_err();
    assert!(matches!(
        err,
        value_layers::LayeredGrundyError::ValueOverflow { position: 65536 }
    ));
    assert_eq!(
        err.to_string(),
        "the value of position 65536 exceeds 65535, the largest the engine stores"
    );
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn matches_reference_where_later_layers_skip_finished_blocks() {
    // At 2^20 the last layers start past the first super-chunks, whose positions are all
    // assigned; their copies must be cleared there.
    let n = 1 << 20;
    let want = reference_values("squares", n);
    for segment in [n, 300_001] {
        assert!(
            in_segments("squares", n, segment) == want,
            "squares segment={segment}"
        );
    }
}
