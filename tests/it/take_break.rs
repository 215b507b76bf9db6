//! Take-and-break games (GAMES.md §4): the catalogue's values and periods, the rare-values
//! and closed-form engines against the reference engine on random codes, thread counts,
//! `--until-period` and resumed runs.

use nimsieve::engine::resumable::Storage;
use nimsieve::engine::{EngineKind, rare_values, reference};
use nimsieve::game::Game;
use nimsieve::period::Period;
use nimsieve::progress::Progress;
use nimsieve::table::Table;
use proptest::prelude::*;

fn table(spec: &str, n: u64, engine: EngineKind) -> Table {
    computed(spec, n, engine, false)
}

/// The table of `spec` from `engine`, stopped at a proven period.
fn until_period(spec: &str, n: u64, engine: EngineKind) -> Table {
    computed(spec, n, engine, true)
}

fn computed(spec: &str, n: u64, engine: EngineKind, until_period: bool) -> Table {
    let game = Game::parse(spec).unwrap();
    engine
        .grundy(
            &game,
            n,
            until_period,
            Storage::default(),
            &Progress::hidden(),
        )
        .unwrap()
}

fn values(spec: &str, n: u64, engine: EngineKind) -> Vec<u32> {
    table(spec, n, engine).iter().collect()
}

fn list(text: &str) -> Vec<u32> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

#[test]
fn catalogue_values() {
    let cases = [
        (
            "kayles",
            "0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 1 4 3 2 1 4 6 7 4 1 2 8 5 4 7 2",
        ),
        (
            "dawsons-kayles",
            "0 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0",
        ),
        (
            "octal:0.00404",
            "0 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 1 1 1 1 5 5 5 6 3 3 3 3 2 2 2 2 1 1 1 1 0 8 8 8 7",
        ),
        (
            "octal:0.00404+unequal",
            "0 0 0 0 0 0 1 1 1 1 2 2 2 2 3 0 3 3 4 4 1 1 1 1 5 5 5 6 3 3 3 3 4 7 2 2 1 1 5 0",
        ),
        ("lasker", "0 1 2 4 3 5 6 8 7 9 10 12 11"),
        (
            "grundys-game",
            "0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0 4 3 0 4 3 0 4 1 2 3 1 2 4",
        ),
    ];
    for (spec, text) in cases {
        let want = list(text);
        let n = want.len() as u64;
        assert_eq!(values(spec, n, EngineKind::Reference), want, "{spec}");
        let fast = nimsieve::engine::choose(&Game::parse(spec).unwrap(), n);
        assert_eq!(values(spec, n, fast), want, "{spec} with {fast:?}");
    }
    // The texts' question: who wins from 100 stones.
    assert_eq!(values("octal:0.00404", 101, EngineKind::RareValues)[100], 5);
    assert_eq!(
        values("octal:0.00404+unequal", 101, EngineKind::RareValues)[100],
        3
    );
}

#[test]
fn catalogue_periods() {
    let period = |spec: &str, n: u64| table(spec, n, EngineKind::RareValues).period;
    let reference = |spec: &str, n: u64| table(spec, n, EngineKind::Reference).period;
    let kayles = Some(Period::pure(71, 12));
    assert_eq!(period("kayles", 1000), kayles);
    assert_eq!(reference("kayles", 1000), kayles);
    let dawson = Some(Period::pure(53, 34));
    assert_eq!(period("dawsons-kayles", 1000), dawson);
    assert_eq!(reference("octal:0.07", 1000), dawson);
    // Too short to prove: 2·71 + 2·12 + 2 = 168 positions are needed.
    assert_eq!(period("kayles", 167), None);
    assert_eq!(period("kayles", 168), kayles);
    // Gangolli–Plambeck: .16 has period 149,459 after its last exception at 105,350.
    assert_eq!(
        period("octal:0.16", 1 << 20),
        Some(Period::pure(105_351, 149_459))
    );
}

#[test]
fn until_period_stops_at_the_proof_and_the_copy_matches() {
    let short = until_period("kayles", 1 << 20, EngineKind::RareValues);
    assert_eq!(short.len(), 168);
    let long = table("kayles", 1 << 20, EngineKind::RareValues);
    assert_eq!(long.len(), 1 << 20);
    let p = long.period.unwrap();
    assert!((1000..1 << 20).all(|x| long.get(x) == long.get(x - p.period)));
    assert_eq!(
        long.iter().take(5000).collect::<Vec<_>>(),
        values("kayles", 5000, EngineKind::Reference)
    );
}

#[test]
fn lasker_closed_form_equals_the_reference() {
    let want = values("lasker", 3000, EngineKind::Reference);
    assert_eq!(values("lasker", 3000, EngineKind::ClosedForm), want);
    assert_eq!(nimsieve::game::lasker(4), 3);
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn grundys_game_sparse_space() {
    // GAMES.md: with mask …11110, 1,274 rare positions below 2^20, the last at 82,860.
    let t = table("grundys-game", 1 << 20, EngineKind::RareValues);
    let values: Vec<u32> = t.iter().collect();
    let mut counts = vec![0u64; 1 + *values.iter().max().unwrap() as usize];
    values.iter().for_each(|&v| counts[v as usize] += 1);
    let split = nimsieve::sparse_space::best_split(&counts).unwrap();
    assert_eq!(split.rare, 1274);
    assert_eq!(split.mask & !1, split.mask, "bit 0 is not in the mask");
    let last = (0..values.len())
        .rev()
        .find(|&x| nimsieve::sparse_space::is_rare(values[x], split.mask));
    assert_eq!(last, Some(82_860));
    let prefix: Vec<u32> = values[..6000].to_vec();
    assert_eq!(
        prefix,
        self::values("grundys-game", 6000, EngineKind::Reference)
    );
}

#[test]
fn threads_do_not_change_tables() {
    let run = |threads: usize, spec: &str| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| values(spec, 200_000, EngineKind::RareValues))
    };
    // `.167` and `.245` go one position after another, their far pairs marked ahead on a
    // second thread.
    for spec in [
        "grundys-game",
        "octal:0.1777",
        "octal:0.167",
        "octal:0.245",
        "octal:4.37+unequal",
    ] {
        assert_eq!(run(1, spec), run(2, spec), "{spec}");
    }
}

/// A code whose digits after the point are `before_last` digits and a non-zero last one, with
/// or without the leading 4 and `+unequal`.
fn code(before_last: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop::collection::vec(0u8..8, before_last),
        1u8..8,
        any::<bool>(),
    )
        .prop_map(|(four, digits, last, unequal)| {
            let tail: String = digits
                .iter()
                .chain([&last])
                .map(|d| (b'0' + d) as char)
                .collect();
            let lead = if four { "4" } else { "0" };
            let modifier = if unequal { "+unequal" } else { "" };
            format!("octal:{lead}.{tail}{modifier}")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn rare_values_equal_the_reference(spec in code(0..4), n in 1u64..6000) {
        let game = Game::parse(&spec).unwrap();
        let fast = rare_values::compute(&game, n, false, Storage::default(), &Progress::hidden()).unwrap();
        let slow = reference::compute(&game, n, &Progress::hidden()).unwrap();
        prop_assert_eq!(fast.iter().collect::<Vec<_>>(), slow.iter().collect::<Vec<_>>(), "{}", spec);
        prop_assert_eq!(fast.period, slow.period, "{}", spec);
    }
}

#[test]
fn rare_values_equal_the_reference_to_ten_thousand() {
    for spec in [
        "octal:0.137",
        "octal:4.07+unequal",
        "octal:0.4",
        "octal:4.0",
        "octal:0.6",
        "octal:0.1777",
        // Many rare values below the mex: the splits are swept past the smallest heaps.
        "octal:0.565",
        "octal:0.364",
    ] {
        let want = values(spec, 10_000, EngineKind::Reference);
        assert_eq!(values(spec, 10_000, EngineKind::RareValues), want, "{spec}");
    }
}

/// Every three-digit code 0.d1d2d3 and 4.d1d2d3 (d3 ≠ 0: 896 codes) gives the reference
/// engine's values to 3,000 positions, and the same period.
#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn every_three_digit_code_equals_the_reference() {
    use rayon::prelude::*;
    let codes: Vec<String> = (0..2 * 8 * 8 * 7)
        .map(|i| {
            let lead = if i < 448 { 0 } else { 4 };
            let i = i % 448;
            format!("octal:{lead}.{}{}{}", i / 56, i / 7 % 8, i % 7 + 1)
        })
        .collect();
    codes.par_iter().for_each(|spec| {
        let fast = table(spec, 3000, EngineKind::RareValues);
        let slow = table(spec, 3000, EngineKind::Reference);
        assert!(fast.iter().eq(slow.iter()), "{spec}");
        assert_eq!(fast.period, slow.period, "{spec}");
    });
}

/// The solved three-digit games of the published table (preperiod, period, largest value),
/// each proven by a table that ends at its proof; `.376` and `.354`, whose proofs need 4.5 and
/// 20 million values, are in `scripts/bench-octal-codes.py --proofs`.
#[test]
fn solved_games_have_their_published_periods() {
    for (code, preperiod, period, largest) in [
        ("0.45", 498, 20, 8),
        ("0.156", 3_479, 349, 23),
        ("0.356", 7_315, 142, 19),
        ("0.644", 3_256, 442, 64),
        ("0.165", 5_181, 1_550, 25),
        ("0.127", 46_578, 4, 56),
        ("0.56", 326_640, 144, 64),
    ] {
        let spec = format!("octal:{code}");
        let table = until_period(&spec, 1 << 21, EngineKind::RareValues);
        let want = Period::pure(preperiod, period);
        assert_eq!(table.period, Some(want), "{spec}");
        // Guy–Smith: 2·(n0 + p) + t values, t the largest removal (the code's digits).
        let t = code.len() as u64 - 2;
        assert_eq!(
            table.len(),
            2 * (preperiod + period) + t,
            "{spec}: the proof"
        );
        assert_eq!(table.iter().max(), Some(largest), "{spec}");
    }
}

#[test]
fn specs_are_checked() {
    let ok = |spec: &str| Game::parse(spec).unwrap().spec;
    assert_eq!(ok("octal:.770"), "octal:0.77");
    assert_eq!(ok("octal:4.+unequal"), "octal:4.0+unequal");
    assert_eq!(ok("grundys-game+unequal"), "grundys-game");
    assert_eq!(ok("octal:.77+misere"), "octal:0.77+misere");
    assert_eq!(
        Game::parse("grundys-game").unwrap().rule,
        Game::parse("octal:4.0+unequal").unwrap().rule
    );
    for (spec, want) in [
        ("octal:0.07+fast", "unknown modifier '+fast'"),
        (
            "squares+unequal",
            "'+unequal' applies to take-and-break games",
        ),
        ("octal:0.8", "not an octal digit"),
        ("octal:0.0", "allows no move"),
        ("octal:3.1", "must be 0, or 4"),
        ("octal", "needs a code"),
        ("kayles+unequal+unequal", "given twice"),
    ] {
        let msg = Game::parse(spec).unwrap_err().to_string();
        assert!(msg.contains(want), "{spec}: {msg}");
        assert!(!msg.contains('\n'));
    }
}

#[test]
fn eval_lists_splits() {
    use nimsieve::eval::{HeapMove, Outcome, TableOptions, evaluate_sum};
    // The texts' question: 100 stones, remove 3 or 5, then split the rest into two heaps.
    let e = evaluate_sum(
        &Game::parse("octal:0.00404+unequal").unwrap(),
        &[100],
        &TableOptions::in_memory(),
    )
    .unwrap();
    assert_eq!((e.values.clone(), e.outcome), (vec![3], Outcome::N));
    let splits: Vec<Vec<u64>> = e
        .winning_moves
        .iter()
        .filter_map(|m| m.split.clone())
        .collect();
    assert_eq!(splits, [[30, 65], [31, 64], [39, 58]]);
    assert!(
        e.winning_moves
            .iter()
            .all(|m| m.split.as_ref().is_some_and(|s| m.to == s[0] + s[1]))
    );
    let json = serde_json::to_string(&e.winning_moves[0]).unwrap();
    assert_eq!(json, r#"{"heap":0,"from":100,"to":95,"split":[30,65]}"#);
    // Kayles 5 + 7: one winning split of the 5, one plain move of the 7.
    let e = evaluate_sum(
        &Game::parse("kayles").unwrap(),
        &[5, 7],
        &TableOptions::in_memory(),
    )
    .unwrap();
    assert_eq!(
        e.winning_moves,
        [
            HeapMove {
                heap: 0,
                from: 5,
                to: 4,
                split: Some(vec![1, 3])
            },
            HeapMove {
                heap: 1,
                from: 7,
                to: 5,
                split: None
            },
        ]
    );
    let json = serde_json::to_string(&e.winning_moves[1]).unwrap();
    assert!(!json.contains("split"), "{json}");
    // Every listed move reaches nim-sum 0, and every such move is listed (brute force).
    let game = Game::parse("octal:4.07").unwrap();
    let g = values("octal:4.07", 60, EngineKind::Reference);
    let heaps = [37u64, 21, 12];
    let e = evaluate_sum(&game, &heaps, &TableOptions::in_memory()).unwrap();
    let moves = game.moves(60);
    let mut want = Vec::new();
    for (heap, &from) in heaps.iter().enumerate() {
        let rest = e.nim_sum as u32 ^ g[from as usize];
        let (mut one, mut two) = (Vec::new(), Vec::new());
        moves.options(from, &mut one);
        moves.splits(from, &mut two);
        for m in one.into_iter().filter(|&m| g[m as usize] == rest) {
            want.push(HeapMove {
                heap,
                from,
                to: m,
                split: None,
            });
        }
        for (a, b) in two
            .into_iter()
            .filter(|&(a, b)| g[a as usize] ^ g[b as usize] == rest)
        {
            want.push(HeapMove {
                heap,
                from,
                to: a + b,
                split: Some(vec![a, b]),
            });
        }
    }
    want.sort_unstable();
    // Splits past the table may come as residue classes; expanded, they are moves like the rest.
    let mut listed = e.winning_moves.clone();
    listed.extend(e.winning_classes.iter().flat_map(|c| c.moves()));
    listed.sort_unstable();
    assert_eq!(listed, want);
}

#[test]
fn a_file_backed_run_equals_one_in_memory() {
    use nimsieve::table::work_file::WorkFile;
    let dir = tempfile::tempdir().unwrap();
    let work = WorkFile::acquire(&dir.path().join("g.values")).unwrap();
    let game = Game::parse("grundys-game").unwrap();
    let storage = Storage {
        work_file: Some(&work),
        checkpoint_every: std::time::Duration::ZERO,
        ..Storage::default()
    };
    let mapped = rare_values::compute(&game, 100_000, false, storage, &Progress::hidden()).unwrap();
    assert_eq!(
        mapped.iter().collect::<Vec<_>>(),
        values("grundys-game", 100_000, EngineKind::RareValues)
    );
}

#[test]
fn octal_families_list_every_code() {
    use nimsieve::sweep::Family;
    let f = Family::parse("octal2").unwrap();
    assert_eq!(f.count(), 56);
    assert_eq!(
        (f.spec(0), f.spec(6), f.spec(7)),
        (
            "octal:0.01".into(),
            "octal:0.07".into(),
            "octal:0.11".into()
        )
    );
    assert_eq!(f.spec(55), "octal:0.77");
    let f = Family::parse("octal1:4+unequal").unwrap();
    assert_eq!(f.specs(0..7).collect::<Vec<_>>()[6], "octal:4.7+unequal");
    assert_eq!(Family::parse("octal3").unwrap().count(), 448);
    for bad in ["octal0", "octal7", "octal2:3"] {
        assert!(Family::parse(bad).is_err(), "{bad}");
    }
    let row = nimsieve::sweep::Row::compute(0, "kayles", 1 << 16).unwrap();
    assert_eq!(
        (row.preperiod, row.period, row.n),
        (Some(71), Some(12), 168)
    );
    assert_eq!(row.mask.is_some(), row.rare_positions.is_some());
}

/// True when g(x + p) = g(x) + s for every x from the preperiod on within `values`.
fn satisfies(values: &[u32], p: Period) -> bool {
    let from = p.preperiod as usize;
    (from..values.len().saturating_sub(p.period as usize))
        .all(|x| u64::from(values[x + p.period as usize]) == u64::from(values[x]) + p.saltus)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Whatever period the rare-values engine reports (pure or arithmetic), the plain mex to
    /// three times its proof length satisfies it; and a finite code never reports a saltus.
    #[test]
    fn reported_periods_hold_in_the_reference_table(spec in code(1..4)) {
        let game = Game::parse(&spec).unwrap();
        let run = rare_values::compute(&game, 4000, true, Storage::default(), &Progress::hidden()).unwrap();
        if let Some(p) = run.period {
            prop_assert_eq!(p.saltus, 0, "{}", spec);
            let proof = game.period_criterion().unwrap().proof_length(p).unwrap();
            prop_assert_eq!(run.len(), proof, "{}", spec);
            let slow: Vec<u32> = reference::compute(&game, 3 * proof, &Progress::hidden()).unwrap().iter().collect();
            prop_assert!(satisfies(&slow, p), "{} {:?}", spec, p);
        }
    }
}

/// Lasker's Nim carries its arithmetic period (p = 4, s = 4 from n = 1), which the plain mex
/// satisfies; `--until-period` ends its table at the five values that hold it, and the full
/// table, copied from them, is Lasker's formula.
#[test]
fn lasker_has_an_arithmetic_period() {
    let want = Period {
        preperiod: 1,
        period: 4,
        saltus: 4,
    };
    let slow = values("lasker", 2000, EngineKind::Reference);
    assert!(satisfies(&slow, want));
    assert!(!satisfies(&slow, Period { saltus: 3, ..want }));
    assert!(!satisfies(
        &slow,
        Period {
            preperiod: 0,
            ..want
        }
    ));
    let short = until_period("lasker", 1 << 20, EngineKind::ClosedForm);
    assert_eq!(short.period, Some(want));
    assert_eq!(short.iter().collect::<Vec<_>>(), [0, 1, 2, 4, 3]);
    let long = table("lasker", 1 << 20, EngineKind::ClosedForm);
    assert_eq!(long.period, Some(want));
    assert!((0..1 << 20).all(|x| u64::from(long.get(x)) == nimsieve::game::lasker(x)));
}
