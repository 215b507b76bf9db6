//! Take-and-break games (GAMES.md §4): the catalogue's values and periods, the rare-values
//! and closed-form engines against the reference engine on random codes, thread counts,
//! `--until-period` and resumed runs.

use nimsieve::engine::resumable::Storage;
use nimsieve::engine::{EngineKind, closed_form, rare_values, reference};
use nimsieve::game::Game;
use nimsieve::period::Period;
use nimsieve::progress::Progress;
use nimsieve::table::Table;
use proptest::prelude::*;

fn table(spec: &str, n: u64, engine: EngineKind) -> Table {
    let game = Game::parse(spec).unwrap();
    engine
        .grundy(&game, n, false, Storage::default(), &Progress::hidden())
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
    let kayles = Some(Period {
        preperiod: 71,
        period: 12,
    });
    assert_eq!(period("kayles", 1000), kayles);
    assert_eq!(reference("kayles", 1000), kayles);
    let dawson = Some(Period {
        preperiod: 53,
        period: 34,
    });
    assert_eq!(period("dawsons-kayles", 1000), dawson);
    assert_eq!(reference("octal:0.07", 1000), dawson);
    // Too short to prove: 2·71 + 2·12 + 2 = 168 positions are needed.
    assert_eq!(period("kayles", 167), None);
    assert_eq!(period("kayles", 168), kayles);
    // Gangolli–Plambeck: .16 has period 149,459 after its last exception at 105,350.
    assert_eq!(
        period("octal:0.16", 1 << 20),
        Some(Period {
            preperiod: 105_351,
            period: 149_459
        })
    );
}

#[test]
fn until_period_stops_at_the_proof_and_the_copy_matches() {
    let game = Game::parse("kayles").unwrap();
    let short = EngineKind::RareValues
        .grundy(
            &game,
            1 << 20,
            true,
            Storage::default(),
            &Progress::hidden(),
        )
        .unwrap();
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
    assert_eq!(closed_form::lasker(4), 3);
}

#[test]
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
    for spec in ["grundys-game", "octal:0.1777", "octal:4.37+unequal"] {
        assert_eq!(run(1, spec), run(2, spec), "{spec}");
    }
}

/// A code of up to four digits after the point, the last non-zero, with or without the
/// leading 4 and `+unequal`.
fn code() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop::collection::vec(0u8..8, 0..4),
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
    fn rare_values_equal_the_reference(spec in code(), n in 1u64..6000) {
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
    ] {
        let want = values(spec, 10_000, EngineKind::Reference);
        assert_eq!(values(spec, 10_000, EngineKind::RareValues), want, "{spec}");
    }
}
