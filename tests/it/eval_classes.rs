//! `eval`'s winning splits of heaps beyond a periodic table, by residue class of the smaller
//! heap, against every option of the heap judged with the reference engine's values.

use nimsieve::engine::{EngineKind, resumable::Storage};
use nimsieve::eval::{Method, TableOptions, WinningMoves, evaluate_sum};
use nimsieve::game::Game;
use nimsieve::progress::Progress;
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::sync::OnceLock;

use crate::support::command;
use command::{nimsieve, stdout_of};

/// Take-and-break games whose period eval proves within its first table, with splits.
const GAMES: &[&str] = &[
    "kayles",
    "dawsons-kayles",
    "octal:0.137",
    "octal:0.15",
    "octal:0.26",
    "octal:0.35",
    "octal:0.54",
    "octal:4.7",
];

/// The largest heap the test evaluates, and the reference values below it.
const BOUND: u64 = 20_000;

/// The reference engine's values of `GAMES[i]` below [`BOUND`] + 64, computed once a game.
fn reference(i: usize) -> &'static [u64] {
    static TABLES: [OnceLock<Vec<u64>>; GAMES.len()] = [const { OnceLock::new() }; GAMES.len()];
    TABLES[i].get_or_init(|| {
        let game = Game::parse(GAMES[i]).unwrap();
        let table = EngineKind::Reference
            .grundy(
                &game,
                BOUND + 64,
                false,
                Storage::default(),
                &Progress::hidden(),
            )
            .unwrap();
        table.iter().map(u64::from).collect()
    })
}

/// A winning move of heap 0: the objects left and the split, if any.
type Move = (u64, Option<[u64; 2]>);

/// Checks the moves of heap 0 of `h` + `other` against every option of h.
fn check(i: usize, h: u64, other: u64) -> Result<(), TestCaseError> {
    let spec = GAMES[i];
    let game = Game::parse(spec).unwrap();
    let g = reference(i);
    let e = evaluate_sum(&game, &[h, other], &TableOptions::in_memory()).unwrap();
    prop_assert_eq!(e.heaps[0].method, Method::Period, "{} {}", spec, h);
    prop_assert!(e.all_winning_moves);
    let target = g[other as usize];
    let moves = game.moves(h + 1);
    let (mut one, mut two) = (Vec::new(), Vec::new());
    moves.options(h, &mut one);
    moves.splits(h, &mut two);
    let want: BTreeSet<Move> = one
        .into_iter()
        .filter(|&to| g[to as usize] == target)
        .map(|to| (to, None))
        .chain(
            two.into_iter()
                .filter(|&(a, b)| g[a as usize] ^ g[b as usize] == target)
                .map(|(a, b)| (a + b, Some([a, b]))),
        )
        .collect();
    let all: Vec<Move> = e
        .all_moves()
        .filter(|m| m.heap == 0)
        .map(|m| (m.to, m.split.as_deref().map(|s| [s[0], s[1]])))
        .collect();
    let got: BTreeSet<Move> = all.iter().copied().collect();
    prop_assert_eq!(all.len(), got.len(), "{} {}: a move listed twice", spec, h);
    prop_assert_eq!(&got, &want, "{} {} + {}", spec, h, other);
    prop_assert_eq!(e.all_moves().count() as u128, e.winning_move_count());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    #[ignore = "slow: scripts/test.sh runs it"]
    fn classes_expand_to_every_winning_option(
        i in 0..GAMES.len(),
        h in 2_000..BOUND,
        other in 0u64..40,
    ) {
        check(i, h, other)?;
    }
}

#[test]
fn a_long_progression_is_one_class() {
    // Dawson's Kayles, 20,000 + 4: values 1 and 2; remove 2, split into a ≡ 8 or 32 (mod 34).
    check(1, 20_000, 4).unwrap();
    let game = Game::parse("dawsons-kayles").unwrap();
    let e = evaluate_sum(&game, &[20_000, 4], &TableOptions::in_memory()).unwrap();
    let classes: Vec<_> = e
        .winning_classes
        .iter()
        .map(|c| (c.removal, c.residue, c.modulus, c.first, c.last, c.count))
        .collect();
    assert_eq!(
        classes,
        [(2, 8, 34, 8, 9970, 294), (2, 32, 34, 66, 9994, 293)]
    );
}

#[test]
fn a_heap_of_10_18_lists_every_winning_split() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(dir.path(), &["eval", "kayles", "1e18", "17"]);
    assert!(
        out.contains(
            "heap 0: 1000000000000000000 -> 3 + 999999999999999995 (remove 2, split the rest)"
        ),
        "{out}"
    );
    assert!(!out.contains("not every winning move"), "{out}");
    let json = stdout_of(dir.path(), &["eval", "kayles", "1e18", "17", "-f", "json"]);
    assert!(json.contains(r#""all_winning_moves":true"#), "{json}");
}

#[test]
fn a_progression_of_splits_prints_as_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(dir.path(), &["eval", "dawsons-kayles", "1e12", "5"]);
    assert!(out.lines().count() < 12, "{out}");
    assert!(
        out.contains("heap 0: 1000000000000 -> a + (999999999998 - a) (remove 2, split the rest), a ≡ 14 (mod 17), 14 ≤ a ≤ 499999999999 (29411764706 moves)"),
        "{out}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout_of(
        dir.path(),
        &["eval", "dawsons-kayles", "1e12", "5", "-f", "json"],
    ))
    .unwrap();
    assert_eq!(
        json["winning_classes"],
        serde_json::json!([{"heap": 0, "from": 1_000_000_000_000u64, "removal": 2, "residue": 14,
            "modulus": 17, "first": 14, "last": 499_999_999_999u64, "count": 29_411_764_706u64}])
    );
    let listed = stdout_of(
        dir.path(),
        &["eval", "dawsons-kayles", "1e12", "5", "--max-moves", "3"],
    );
    assert!(
        listed.ends_with(
            "  heap 0: 1000000000000 -> 14 + 999999999984 (remove 2, split the rest)\n  heap 0: 1000000000000 -> 31 + 999999999967 (remove 2, split the rest)\n  heap 0: 1000000000000 -> 48 + 999999999950 (remove 2, split the rest)\n  ... and 29411764703 more (29411764706 winning moves in all)\n"
        ),
        "{listed}"
    );
}

#[test]
fn max_moves_out_of_range_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (&["--max-moves", "0"][..], "--max-moves 0 lists no move"),
        (&["--max-moves", "1e9"][..], "more moves than eval lists"),
        (
            &["--max-moves", "3", "--json"][..],
            "--max-moves shapes the text",
        ),
    ] {
        nimsieve(dir.path())
            .args(["eval", "kayles", "1e6"])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says));
    }
}

/// A move of Grundy's game splits a heap as it is: its lines say so, and name no removal.
#[test]
fn a_pure_split_is_said_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(dir.path(), &["eval", "grundys-game", "100"]);
    assert!(out.contains("100 -> 18 + 82 (split it)"), "{out}");
    assert!(!out.contains("remove 0"), "{out}");
    let out = stdout_of(dir.path(), &["eval", "kayles", "1e18", "17"]);
    assert!(out.contains("(remove 1, split the rest)"), "{out}");
}
