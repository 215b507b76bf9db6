//! `nimsieve sweep` and `scripts/sweep-shards.sh`: rows against single `grundy` runs and an
//! independent mex, periods from the catalogue, shards merged byte for byte, thread counts,
//! and bad input.

use serde_json::Value;
use std::path::Path;

use crate::support::command;
use command::{nimsieve, stdout_of};

/// The JSON-lines rows of `sweep FAMILY [extra…]`.
fn rows(dir: &Path, family: &str, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["sweep", family, "-f", "json", "-o", "-"];
    args.extend(extra);
    stdout_of(dir, &args)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn row<'a>(rows: &'a [Value], game: &str) -> &'a Value {
    rows.iter().find(|r| r["game"] == game).unwrap()
}

/// Grundy values of subtracting an element of `set`, by the definition (independent of the
/// library).
fn mex_values(set: &[u64], n: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(n);
    for x in 0..n {
        let options: Vec<u32> = set
            .iter()
            .filter(|&&s| s as usize <= x)
            .map(|&s| g[x - s as usize])
            .collect();
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    g
}

fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

#[test]
fn rows_match_single_grundy_runs_and_the_definition() {
    let dir = tempfile::tempdir().unwrap();
    let all = rows(dir.path(), "sub3:10", &[]);
    assert_eq!(all.len(), 120);
    for (i, r) in all.iter().enumerate() {
        assert_eq!(r["index"], i as u64);
    }
    for r in all.iter().step_by(13).chain([&all[119]]) {
        let spec = r["game"].as_str().unwrap();
        let out = stdout_of(
            dir.path(),
            &[
                "grundy",
                spec,
                "-n",
                "2^20",
                "--until-period",
                "-f",
                "json",
                "-o",
                "-",
            ],
        );
        let single: Value = serde_json::from_str(&out).unwrap();
        for key in ["n", "max_value", "p_count", "stopped_at_period"] {
            assert_eq!(r[key], single[key], "{spec}: {key}");
        }
        assert_eq!(r["preperiod"], single["period"]["preperiod"], "{spec}");
        assert_eq!(r["period"], single["period"]["period"], "{spec}");
        let distinct = single["counts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c.as_u64() != Some(0))
            .count();
        assert_eq!(r["distinct_values"], distinct, "{spec}");

        // P-positions and their residues, from an independent mex far past the proof.
        let set: Vec<u64> = spec[4..].split(',').map(|e| e.parse().unwrap()).collect();
        let g = mex_values(&set, 2000);
        let p: Vec<u64> = (0..2000).filter(|&x| g[x as usize] == 0).collect();
        assert_eq!(numbers(&r["first_p_positions"]), p[..10], "{spec}");
        let (pre, per) = (
            r["preperiod"].as_u64().unwrap(),
            r["period"].as_u64().unwrap(),
        );
        let mut residues: Vec<u64> = p
            .iter()
            .filter(|&&x| x >= pre && x < pre + per)
            .map(|x| x % per)
            .collect();
        residues.sort();
        assert_eq!(numbers(&r["p_residues"]), residues, "{spec}");
        assert!((pre as usize..2000 - per as usize).all(|x| g[x] == g[x + per as usize]));
    }
}

#[test]
fn periods_from_the_catalogue_and_the_largest_of_sub3_40() {
    let dir = tempfile::tempdir().unwrap();
    let small = rows(dir.path(), "sub3:8", &[]);
    for (game, preperiod, period) in [
        ("sub:1,3,4", 0, 7),
        ("sub:3,5,8", 0, 11),
        ("sub:2,3,7", 0, 5),
        ("sub:2,5,7", 0, 22),
        ("sub:2,4,7", 8, 3),
    ] {
        let r = row(&small, game);
        assert_eq!(
            (r["preperiod"].as_u64(), r["period"].as_u64()),
            (Some(preperiod), Some(period)),
            "{game}"
        );
    }
    assert_eq!(numbers(&row(&small, "sub:1,3,4")["p_residues"]), [0, 2]);

    // A cap below some proofs: those rows have no period, and standard error says how many.
    let out = nimsieve(dir.path())
        .args(["sweep", "sub3:8", "-n", "20", "-f", "json", "-o", "-"])
        .assert()
        .success();
    let capped: Vec<Value> = String::from_utf8_lossy(&out.get_output().stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let unproven = capped.iter().filter(|r| r["period"].is_null()).count();
    let expected = small.iter().filter(|r| r["n"].as_u64() > Some(20)).count();
    assert!(unproven > 0 && unproven == expected);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr);
    assert!(
        stderr.contains(&format!(
            "{unproven} of 56 games have no period proven below n = 20"
        )),
        "{stderr}"
    );

    // The findings of docs/findings.md.
    let all = rows(dir.path(), "sub3:40", &[]);
    assert_eq!(all.len(), 9880);
    assert!(all.iter().all(|r| r["stopped_at_period"] == true));
    let largest = all.iter().map(|r| r["period"].as_u64().unwrap()).max();
    assert_eq!(largest, Some(715));
    let with: Vec<&str> = all
        .iter()
        .filter(|r| r["period"] == 715)
        .map(|r| r["game"].as_str().unwrap())
        .collect();
    assert_eq!(with, ["sub:11,29,40", "sub:13,27,40"]);
    let longest = all.iter().max_by_key(|r| r["preperiod"].as_u64()).unwrap();
    assert_eq!(
        (&longest["game"], &longest["preperiod"], &longest["period"]),
        (&"sub:16,23,40".into(), &572.into(), &7.into())
    );
}

#[test]
fn bachet_ranges_stop_after_the_period_a_theorem_proves() {
    let dir = tempfile::tempdir().unwrap();
    let all = rows(dir.path(), "bachet:1..6", &[]);
    for (k, r) in (1u64..).zip(&all) {
        assert_eq!(r["game"], format!("bachet:{k}"));
        assert_eq!(
            (&r["preperiod"], &r["period"]),
            (&0.into(), &(k + 1).into())
        );
        assert_eq!(r["max_value"], k);
        assert_eq!(r["stopped_at_period"], true);
        let multiples: Vec<u64> = (0..10).map(|j| j * (k + 1)).collect();
        assert_eq!(numbers(&r["first_p_positions"]), multiples);
    }
}

#[test]
fn range_families_with_modifiers_match_grundy() {
    let dir = tempfile::tempdir().unwrap();
    let all = rows(dir.path(), "bachet:1..4+misere", &["-n", "50"]);
    let games: Vec<&str> = all.iter().map(|r| r["game"].as_str().unwrap()).collect();
    assert_eq!(
        games,
        [
            "bachet:1+misere",
            "bachet:2+misere",
            "bachet:3+misere",
            "bachet:4+misere"
        ]
    );
    for r in &all {
        let spec = r["game"].as_str().unwrap();
        let csv = stdout_of(dir.path(), &["ppos", spec, "-n", "50", "-o", "-"]);
        let p: Vec<u64> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(r["p_count"], p.len() as u64, "{spec}");
        assert_eq!(numbers(&r["first_p_positions"]), p[..10], "{spec}");
        assert_eq!(r["max_value"], 1, "{spec}: outcomes");
    }
    let powers = rows(dir.path(), "powers:2..3", &["-n", "3000"]);
    assert_eq!(powers[0]["game"], "powers:2");
    assert_eq!(powers[1]["period"], Value::Null);
    assert_eq!(powers[1]["n"], 3000);
}

#[test]
fn thread_count_does_not_change_the_output() {
    let dir = tempfile::tempdir().unwrap();
    for (family, n) in [("sub3:16+leave1", "2^20"), ("powers:2..4", "20000")] {
        for format in ["csv", "json"] {
            let run = |threads: &str| {
                stdout_of(
                    dir.path(),
                    &[
                        "sweep",
                        family,
                        "-n",
                        n,
                        "-f",
                        format,
                        "-o",
                        "-",
                        "--threads",
                        threads,
                    ],
                )
            };
            assert_eq!(run("1"), run("2"), "{family} {format}");
        }
    }
}

#[test]
fn three_shards_merge_to_the_unsharded_run_byte_for_byte() {
    let whole = tempfile::tempdir().unwrap();
    nimsieve(whole.path())
        .args(["sweep", "sub3:12", "--quiet"])
        .assert()
        .success();
    let csv = std::fs::read_to_string(whole.path().join("output/sweep-sub3_12.csv")).unwrap();
    assert_eq!(csv.lines().count(), 221, "a header and 220 games");

    // Each part is self-describing: a header, then rows with their family index.
    let part2 = stdout_of(
        whole.path(),
        &["sweep", "sub3:12", "--shard", "2/3", "-f", "csv", "-o", "-"],
    );
    assert!(part2.starts_with("index,game,equivalent_to,n,"));
    assert!(part2.lines().nth(1).unwrap().starts_with("73,"));
    assert_eq!(part2.lines().count(), 1 + 146 - 73);

    let sharded = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/sweep-shards.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .args(["--compare", "sub3:12", "3", "--threads", "1"])
        .env("NIMSIEVE", env!("CARGO_BIN_EXE_nimsieve"))
        .current_dir(sharded.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("same as an unsharded run"), "{stdout}");
    for ext in ["csv", "jsonl"] {
        let name = format!("output/sweep-sub3_12.{ext}");
        let a = std::fs::read(whole.path().join(&name)).unwrap();
        let b = std::fs::read(sharded.path().join(&name)).unwrap();
        assert_eq!(a, b, "{name}");
    }

    // A failing shard fails the script.
    let out = std::process::Command::new("bash")
        .arg(&script)
        .args(["sub3:3", "2"])
        .env("NIMSIEVE", env!("CARGO_BIN_EXE_nimsieve"))
        .current_dir(sharded.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 1/2 failed"));
}

#[test]
fn bad_input_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["sweep", "sub3"], "bad family 'sub3'"),
        (&["sweep", "sub0:5"], "K must be at least 1"),
        (&["sweep", "sub4:3"], "M must be at least K"),
        (&["sweep", "squares:1..3", "-n", "10"], "takes no arguments"),
        (&["sweep", "powers:6..2", "-n", "10"], "is empty"),
        (&["sweep", "powers:60..70", "-n", "10"], "too large"),
        (&["sweep", "sub2:5+foo"], "unknown modifier"),
        (&["sweep", "nosuch:1..3", "-n", "10"], "unknown game"),
        (&["sweep", "powers:2..6"], "needs -n"),
        (&["sweep", "sub2:5", "-n", "0"], "at least 1"),
        (&["sweep", "sub2:5", "-n", "ten"], "not a valid size"),
        (&["sweep", "sub2:5", "--shard", "0/3"], "bad --shard '0/3'"),
        (&["sweep", "sub2:5", "--shard", "4/3"], "bad --shard '4/3'"),
        (&["sweep", "sub2:5", "--shard", "1/0"], "bad --shard '1/0'"),
        (&["sweep", "sub2:5", "--shard", "x"], "bad --shard 'x'"),
        (
            &["sweep", "sub2:3", "--shard", "1/4"],
            "the family has 3 games",
        ),
        (
            &["sweep", "sub2:5", "-o", "x.csv"],
            "takes one format but 2 were asked for",
        ),
    ];
    for (args, message) in cases {
        let out = nimsieve(dir.path()).args(*args).assert().code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("nimsieve: error: "),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn ranges_near_2_64_and_periods_past_the_table() {
    let dir = tempfile::tempdir().unwrap();
    // One element near 2^64: no move below n = 10, so every position is P and no period is
    // proven.
    let subs = rows(
        dir.path(),
        "sub:18446744073709551610..18446744073709551615",
        &["-n", "10"],
    );
    assert_eq!(subs.len(), 6);
    for r in &subs {
        assert_eq!(r["period"], Value::Null, "{r}");
        assert_eq!(
            numbers(&r["first_p_positions"]),
            (0..10).collect::<Vec<_>>()
        );
    }
    // bachet:k has the period k + 1 (a theorem), longer than a table of 3 values: the rows
    // give it, but neither residues nor P-positions past the table (bachet:2^64 − 1 has
    // none: its period would be 2^64).
    let top = rows(
        dir.path(),
        "bachet:18446744073709551613..18446744073709551615",
        &["-n", "3"],
    );
    let small = rows(dir.path(), "bachet:5..6", &["-n", "3"]);
    for (r, period) in top.iter().zip([
        Value::from(18446744073709551614u64),
        Value::from(u64::MAX),
        Value::Null,
    ]) {
        assert_eq!(r["period"], period, "{r}");
    }
    for (r, period) in small.iter().zip([6, 7]) {
        assert_eq!(r["period"], period, "{r}");
    }
    for r in top.iter().chain(&small) {
        assert_eq!(r["p_residues"], Value::Null, "{r}");
        assert_eq!(numbers(&r["first_p_positions"]), [0], "{r}");
    }
}

/// Families of any size are counted in closed form: one past the games a run computes is
/// refused at once, however large (sub1:2^64−1 once counted its games one by one for minutes).
#[test]
fn families_too_large_for_one_run_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["sweep", "sub1:18446744073709551615"],
            "has 18446744073709551615 games",
        ),
        (&["sweep", "sub1:1e10"], "has 10000000000 games"),
        (
            &["sweep", "sub2:1e9", "--shard", "3/7"],
            "this part of family",
        ),
        (
            &["sweep", "sub3:2^12", "-n", "100"],
            "--shard I/K, K at least",
        ),
        (
            &["sweep", "bachet:1..1e18", "-n", "100"],
            "more than the 1048576 (2^20)",
        ),
        (&["sweep", "sub1e18:1e18"], "at most 65536 elements"),
        (&["sweep", "sub100:1e6"], "more than 2^64 - 1 games"),
    ];
    for (args, message) in cases {
        let out = nimsieve(dir.path())
            .args(*args)
            .timeout(std::time::Duration::from_secs(5))
            .assert()
            .code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

/// The `game` → `equivalent_to` column of CSV sweep rows.
fn classes(csv: &str) -> std::collections::HashMap<String, String> {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|c| c == name).unwrap();
    let (game, class) = (column("game"), column("equivalent_to"));
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[game].to_string(), r[class].to_string())
        })
        .collect()
}

#[test]
fn the_census_names_the_first_code_with_the_same_values_across_shards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let whole = stdout_of(
        d,
        &["sweep", "octal2", "-n", "1000", "-f", "csv", "-o", "-"],
    );
    let whole_classes = classes(&whole);
    let table =
        |code: &str| stdout_of(d, &["grundy", code, "-n", "1000", "-f", "bfile", "-o", "-"]);
    for (code, first) in [
        ("octal:0.21", "octal:0.05"),
        ("octal:0.25", "octal:0.05"),
        ("octal:0.23", "octal:0.22"),
        ("octal:0.67", "octal:0.64"),
    ] {
        assert_eq!(whole_classes[code], first, "{code}");
        assert_eq!(whole_classes[first], first, "{first}");
        assert_eq!(table(code), table(first), "{code} and {first}");
    }
    assert_ne!(whole_classes["octal:0.22"], whole_classes["octal:0.21"]);
    assert_ne!(table("octal:0.22"), table("octal:0.21"));

    // Shard 2 of 3 (games 18 to 36) starts at 0.25, without 0.05: its own class there.
    let part = stdout_of(
        d,
        &[
            "sweep", "octal2", "-n", "1000", "--shard", "2/3", "-f", "csv", "-o", "-",
        ],
    );
    assert_eq!(classes(&part)["octal:0.25"], "octal:0.25");
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let args = [
            "sweep", "octal2", "-n", "1000", "--shard", &shard, "-o", "run/", "-q",
        ];
        nimsieve(d).args(args).assert().success();
    }
    nimsieve(d)
        .args(["sweep-merge", "run", "-q"])
        .assert()
        .success();
    let merged = std::fs::read_to_string(d.join("run/sweep-octal2.csv")).unwrap();
    assert_eq!(merged, whole);
    let whole_json = stdout_of(
        d,
        &["sweep", "octal2", "-n", "1000", "-f", "json", "-o", "-"],
    );
    let merged_json = std::fs::read_to_string(d.join("run/sweep-octal2.jsonl")).unwrap();
    assert_eq!(merged_json, whole_json);
}

/// Under misère play a take-and-break code whose misère quotient is refused gets a row that
/// says so, and the sweep goes on to the codes after it (it stopped at the first before).
#[test]
fn misere_codes_whose_quotient_is_refused_get_a_row_that_says_so() {
    let d = tempfile::tempdir().unwrap();
    // The first shard of octal2: 0.01 to 0.07; 0.06's candidate quotient passes 4,000
    // elements at heap 17, 0.07's at heap 34.
    let all = rows(d.path(), "octal2+misere", &["-n", "40", "--shard", "1/8"]);
    let games: Vec<&str> = all.iter().map(|r| r["game"].as_str().unwrap()).collect();
    assert_eq!(games.len(), 7, "{games:?}");
    for (game, refused_at) in [("octal:0.06+misere", "17"), ("octal:0.07+misere", "34")] {
        let r = row(&all, game);
        let status = r["status"].as_str().unwrap();
        assert!(
            status.starts_with("refused: ") && status.contains(&format!("at heap {refused_at}")),
            "{game}: {status}"
        );
        assert_eq!(
            (&r["n"], &r["equivalent_to"]),
            (&Value::from(0), &Value::from(game))
        );
    }
    let kept = row(&all, "octal:0.05+misere");
    assert_eq!(kept["status"], "computed");
    assert_eq!(kept["n"], 40);
}
