//! Hexadecimal take-and-break codes (digit bit 8: split the rest into three heaps): every code
//! of one and two digits and a sample of three-digit codes against values computed here a
//! different way, hex codes of octal digits against the octal codes, `+unequal` on a small
//! example worked by hand, periods only where they hold, `eval`'s three-way splits and
//! `verify` of hex tables.

use crate::support::command;

use command::{nimsieve, stdout_of};
use nimsieve::engine::resumable::Storage;
use nimsieve::engine::{EngineKind, choose};
use nimsieve::game::{Game, ONE, THREE, TWO, TakeBreak, WHOLE};
use nimsieve::progress::Progress;
use nimsieve::table::Table;
use rayon::prelude::*;

fn table(spec: &str, n: u64, engine: EngineKind) -> Table {
    let game = Game::parse(spec).unwrap();
    engine
        .grundy(&game, n, false, Storage::default(), &Progress::hidden())
        .unwrap()
}

/// A set of values below 1024.
type Values = [u64; 16];

fn insert(set: &mut Values, v: u32) {
    assert!(v < 1024, "values stay below 1024 in these tests");
    set[v as usize / 64] |= 1 << (v % 64);
}

/// The values of a code without `+unequal` below n, by another route than the engines': the
/// values of the splits into two of each heap k are kept as a set `pairs[k]`, and the splits
/// into three of r are g(a) XOR a pair value of r − a, for every part a.
fn by_pair_sets(code: &TakeBreak, n: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(n);
    let mut pairs: Vec<Values> = Vec::with_capacity(n);
    for x in 0..n {
        let mut pair = [0; 16];
        (1..=x / 2).for_each(|a| insert(&mut pair, g[a] ^ g[x - a]));
        pairs.push(pair);
        let mut seen = [0u64; 16];
        for j in 1..=x {
            let d = code.digit(j as u64);
            if (j == x && d & WHOLE != 0) || (j < x && d & ONE != 0) {
                insert(&mut seen, g[x - j]);
            }
        }
        for j in 0..x {
            let d = code.digit(j as u64);
            let r = x - j;
            if d & TWO != 0 {
                seen.iter_mut().zip(&pairs[r]).for_each(|(s, p)| *s |= p);
            }
            if d & THREE != 0 {
                for a in 1..r {
                    for (w, &word) in pairs[r - a].iter().enumerate() {
                        let mut p = word;
                        while p != 0 {
                            insert(&mut seen, g[a] ^ (w as u32 * 64 + p.trailing_zeros()));
                            p &= p - 1;
                        }
                    }
                }
            }
        }
        let mex = seen
            .iter()
            .enumerate()
            .find(|(_, w)| **w != u64::MAX)
            .map(|(i, w)| i as u32 * 64 + w.trailing_ones())
            .unwrap();
        g.push(mex);
    }
    g
}

/// Checks `codes` below n: the default engine and the reference engine against
/// [`by_pair_sets`], and any period the reference engine's table of n/3 positions proves
/// against the whole table.
fn check_codes(codes: &[String], n: u64) {
    codes.par_iter().for_each(|code| {
        let spec = format!("hex:{code}");
        let game = Game::parse(&spec).unwrap();
        let want = by_pair_sets(game.take_break().unwrap(), n as usize);
        let reference: Vec<u32> = table(&spec, n, EngineKind::Reference).iter().collect();
        assert_eq!(reference, want, "{spec}: reference engine");
        let engine = choose(&game, n);
        let fast: Vec<u32> = table(&spec, n, engine).iter().collect();
        assert_eq!(fast, want, "{spec}: {engine:?}");
        if let Some(p) = table(&spec, n / 3, EngineKind::Reference).period {
            for x in p.preperiod..n - p.period {
                assert_eq!(
                    want[x as usize],
                    want[(x + p.period) as usize],
                    "{spec}: {p:?}"
                );
            }
        }
    });
}

const DIGITS: &str = "0123456789ABCDEF";

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn every_code_of_one_and_two_digits_is_its_definition() {
    let digit = |i: usize| &DIGITS[i..=i];
    let mut codes: Vec<String> = (1..16).map(|d| format!("0.{}", digit(d))).collect();
    for d1 in 0..16 {
        codes.extend((1..16).map(|d2| format!("0.{}{}", digit(d1), digit(d2))));
    }
    check_codes(&codes, 500);
}

#[test]
fn a_sample_of_three_digit_codes_is_its_definition() {
    // A fixed xorshift sample, half of them with a digit 8 or more at the end.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let codes: Vec<String> = (0..24)
        .map(|i| {
            let mut code = String::from(if i % 4 == 0 { "4." } else { "0." });
            for k in 0..3 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let d = (state % 16) as usize;
                let d = if k == 2 && d == 0 { 8 } else { d };
                code.push(DIGITS.as_bytes()[d] as char);
            }
            code
        })
        .collect();
    check_codes(&codes, 400);
}

#[test]
fn hex_codes_of_octal_digits_are_the_octal_codes() {
    for code in ["0.77", "0.07", "4.0", "0.137", "4.16", "0.00404"] {
        let hex = Game::parse(&format!("hex:{code}")).unwrap();
        let octal = Game::parse(&format!("octal:{code}")).unwrap();
        assert_eq!(hex, octal, "{code}");
        let n = 2000;
        let hex_values: Vec<u32> = table(&hex.spec, n, choose(&hex, n)).iter().collect();
        let octal_values: Vec<u32> = table(&octal.spec, n, EngineKind::Reference)
            .iter()
            .collect();
        assert_eq!(hex_values, octal_values, "{code}");
    }
}

#[test]
fn three_way_splits_and_unequal_on_a_small_example() {
    // hex:0.8: remove 1, split the rest into three non-empty heaps. g(0..3) = 0 (no move);
    // 4 → 1+1+1 (0): 1; 5 → 1+1+2: 1; 6 → 1+1+3, 1+2+2: 1; 7 → 1+1+4 (1), 1+2+3 (0): 2;
    // 8 and 9: options of values 0 and 1 only: 2; 10 → 1+1+7 (2), 1+4+4 (0), 1+2+6 (1): 3.
    // +unequal: the first three different parts are 1+2+3, from 7; 8, 9, 10 have only splits
    // of value 0 (1+2+4; 1+2+5, 1+3+4; 1+2+6, 1+3+5, 2+3+4): 1.
    for (spec, want) in [
        ("hex:0.8", [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3]),
        ("hex:0.8+unequal", [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let csv = stdout_of(dir.path(), &["grundy", spec, "-n", "11", "-o", "-", "-q"]);
        let got: Vec<u32> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(got, want, "{spec}");
    }
}

#[test]
fn no_period_is_claimed_before_the_proof() {
    // octal:0.4 starts 0 0 0 1: three values looked like period 1 from 0, but a split shifted
    // down to an empty heap is no move.
    assert_eq!(table("octal:0.4", 3, EngineKind::RareValues).period, None);
    assert_eq!(table("octal:0.4", 3, EngineKind::Reference).period, None);
    // hex:0.8 starts 0 0 0 0 1: four values looked like period 1 from 0.
    assert_eq!(table("hex:0.8", 4, EngineKind::Reference).period, None);
    // Codes that split into three under +unequal prove no period at all.
    let game = Game::parse("hex:0.8+unequal").unwrap();
    assert_eq!(game.period_criterion(), None);
}

#[test]
fn the_rare_values_engine_refuses_three_way_splits() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimsieve(dir.path())
        .args([
            "grundy",
            "hex:0.8",
            "-n",
            "100",
            "--engine",
            "rare-values",
            "-o",
            "-",
        ])
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("those that split into three"), "{err}");
}

#[test]
fn bad_hex_digits_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    for (spec, want) in [
        ("hex:0.8G", "'G' is not a hexadecimal digit"),
        ("hex:0.x1", "'x' is not a hexadecimal digit"),
        ("hex:9.1", "the digit before the point is '9'"),
    ] {
        let out = nimsieve(dir.path())
            .args(["grundy", spec, "-n", "10", "-o", "-"])
            .assert()
            .code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(err.lines().count(), 1, "{spec}: {err}");
        assert!(err.contains(want), "{spec}: {err}");
    }
}

#[test]
fn eval_lists_three_way_splits_and_every_winning_move() {
    let spec = "hex:0.8C";
    let heaps = [23u64, 9, 5];
    let g = by_pair_sets(Game::parse(spec).unwrap().take_break().unwrap(), 24);
    let value = |h: u64| g[h as usize];
    let nim_sum = heaps.iter().fold(0, |s, &h| s ^ value(h));
    assert_ne!(nim_sum, 0, "the position is an N-position");
    // Every move by brute force: remove j, leave three parts (hex digits 8 and C) or two (C).
    let mut want: Vec<(usize, Vec<u64>)> = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        for (j, parts) in [(1u64, 3usize), (2, 2), (2, 3)] {
            let r = h.saturating_sub(j);
            let rest = nim_sum ^ value(h);
            if parts == 2 {
                want.extend(
                    (1..=r / 2)
                        .filter(|&a| value(a) ^ value(r - a) == rest)
                        .map(|a| (i, vec![a, r - a])),
                );
            } else {
                for a in 1..=r / 3 {
                    for b in a..=(r - a) / 2 {
                        if value(a) ^ value(b) ^ value(r - a - b) == rest {
                            want.push((i, vec![a, b, r - a - b]));
                        }
                    }
                }
            }
        }
    }
    assert!(
        want.iter().any(|(_, p)| p.len() == 3),
        "a three-way split wins"
    );
    let dir = tempfile::tempdir().unwrap();
    let args: Vec<String> = ["eval", spec]
        .iter()
        .map(|s| s.to_string())
        .chain(heaps.iter().map(u64::to_string))
        .collect();
    let mut json_args = args.clone();
    json_args.push("--json".into());
    let json_args: Vec<&str> = json_args.iter().map(String::as_str).collect();
    let report: serde_json::Value =
        serde_json::from_str(&stdout_of(dir.path(), &json_args)).unwrap();
    assert_eq!(report["all_winning_moves"], true);
    let mut got: Vec<(usize, Vec<u64>)> = report["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let split: Vec<u64> = serde_json::from_value(m["split"].clone()).unwrap();
            let heap = m["heap"].as_u64().unwrap() as usize;
            assert_eq!(m["to"].as_u64().unwrap(), split.iter().sum::<u64>());
            (heap, split)
        })
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let text = stdout_of(dir.path(), &args);
    let (i, parts) = want.iter().find(|(_, p)| p.len() == 3).unwrap();
    let line = format!(
        "heap {i}: {} -> {} + {} + {} (remove {}, split the rest)",
        heaps[*i],
        parts[0],
        parts[1],
        parts[2],
        heaps[*i] - parts.iter().sum::<u64>()
    );
    assert!(text.contains(&line), "{text} lacks {line}");
}

#[test]
fn verify_checks_hex_tables_by_the_definition() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    for (command, file) in [
        ("grundy", "hex_0.8C-300.csv"),
        ("ppos", "hex_0.8C-300-ppos.csv"),
    ] {
        let sub = path.join(command);
        std::fs::create_dir(&sub).unwrap();
        stdout_of(
            &sub,
            &[command, "hex:0.8C", "-n", "300", "-f", "csv,json", "-q"],
        );
        let file = sub.join("output").join(file);
        stdout_of(&sub, &["verify", file.to_str().unwrap()]);
        // Change one entry: a value, or a P-position moved by one.
        let text = std::fs::read_to_string(&file).unwrap();
        let changed = match command {
            "grundy" => text.replacen("\n200,", "\n200,1", 1),
            // The last P-position moved up by one (rows are `k,n`).
            _ => {
                let mut lines: Vec<String> = text.lines().map(String::from).collect();
                let last = lines.pop().unwrap();
                let (k, p) = last.split_once(',').unwrap();
                let p: u64 = p.parse().unwrap();
                lines.push(format!("{k},{}", p + 1));
                lines.join("\n") + "\n"
            }
        };
        assert_ne!(changed, text);
        std::fs::write(&file, changed).unwrap();
        let out = nimsieve(&sub)
            .args(["verify", file.to_str().unwrap()])
            .assert()
            .code(3);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("nimsieve:")).collect();
        assert_eq!(errors.len(), 1, "{command}: {err}");
        assert!(errors[0].contains("wrong table"), "{command}: {err}");
    }
}
