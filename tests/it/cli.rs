//! The `nimsieve` command line: every subcommand and format (bad input in `input_errors.rs`,
//! interrupts, links and pipes in `streams.rs`).

use predicates::prelude::*;
use std::path::Path;

use crate::support::command;
use command::{assert_error, nimsieve, stdout_of};

fn json_of(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn games_lists_every_family() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(dir.path(), &["games"]);
    for name in [
        "nim",
        "sub:",
        "bachet:",
        "allbut:",
        "powers-of-2",
        "squares",
        "cubes",
        "powers:",
        "triangular",
        "fibonacci",
        "primes",
        "pim",
        "set-file:",
        "aliquot",
        "proper-divisors",
        "divisors",
        "to-divisor",
        "even-if-not-all",
        "half",
        "+leave1",
        "+misere",
    ] {
        assert!(out.contains(name), "missing {name}");
    }
    // Each kind of game under a heading naming the commands that take it.
    let heading_of = |spec: &str| {
        let at = out.find(&format!("\n  {spec} ")).expect(spec);
        let heading = out[..at].lines().rev().find(|l| !l.starts_with("  "));
        heading.unwrap().to_string()
    };
    let tables = "(grundy, ppos, eval, verify, stats, plot):";
    assert_eq!(heading_of("squares"), format!("Games of one heap {tables}"));
    assert_eq!(
        heading_of("wythoff"),
        format!("Games of two heaps {tables}")
    );
    assert!(heading_of("GAME+misere").starts_with("Modifiers"));
    assert!(heading_of("staircase").ends_with("not sums (eval):"));
}

#[test]
fn grundy_writes_each_format_to_the_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    nimsieve(dir.path())
        .args([
            "grundy",
            "sub:4,1,3",
            "-n",
            "2^6",
            "--format",
            "csv,bfile",
            "--format",
            "json",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote output/sub_1-3-4-64.csv"));
    let out = dir.path().join("output");
    let csv = std::fs::read_to_string(out.join("sub_1-3-4-64.csv")).unwrap();
    assert!(csv.starts_with("n,g\n0,0\n1,1\n2,0\n3,1\n4,2\n"));
    assert_eq!(csv.lines().count(), 65);
    let bfile = std::fs::read_to_string(out.join("sub_1-3-4-64.txt")).unwrap();
    assert!(
        bfile.starts_with("0 0\n1 1\n2 0\n") && bfile.ends_with("63 0\n") && !bfile.contains('\r')
    );
    let json = json_of(&out.join("sub_1-3-4-64.json"));
    assert_eq!(json["game"], "sub:1,3,4");
    assert_eq!(json["n"], 64);
    assert_eq!(json["max_value"], 3);
    assert_eq!(json["counts"], serde_json::json!([19, 18, 18, 9]));
    assert_eq!(json["first_occurrence"], serde_json::json!([0, 1, 4, 5]));
    assert_eq!(json["p_count"], 19);
    assert_eq!(
        json["period"],
        serde_json::json!({"preperiod": 0, "period": 7, "saltus": 0})
    );
    assert_eq!(json["engine"], "finite");
    assert_eq!(json["stopped_at_period"], false);
    assert!(json["threads"].as_u64().unwrap() >= 1 && json["elapsed_s"].is_number());
    let leftovers = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains("partial")
        })
        .count();
    assert_eq!(leftovers, 0);
}

#[test]
fn a_folder_given_to_o_takes_every_format() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("existing")).unwrap();
    for (output, folder) in [("tables/", "tables"), ("existing", "existing")] {
        nimsieve(dir.path())
            .args([
                "grundy", "squares", "-n", "100", "-f", "csv,json", "-o", output,
            ])
            .assert()
            .success();
        let out = dir.path().join(folder);
        assert!(
            std::fs::read_to_string(out.join("squares-100.csv"))
                .unwrap()
                .starts_with("n,g\n")
        );
        assert_eq!(json_of(&out.join("squares-100.json"))["n"], 100);
    }
    assert!(!dir.path().join("output").exists());
}

#[test]
fn ppos_formats_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    let csv = stdout_of(dir.path(), &["ppos", "squares", "-n", "30", "-o", "-"]);
    assert_eq!(
        csv,
        "k,n\n0,0\n1,2\n2,5\n3,7\n4,10\n5,12\n6,15\n7,17\n8,20\n9,22\n"
    );
    let bfile = stdout_of(
        dir.path(),
        &[
            "ppos", "squares", "-n", "1e2", "--offset", "1", "-f", "bfile", "-o", "-",
        ],
    );
    assert!(bfile.starts_with("1 0\n2 2\n3 5\n") && bfile.ends_with("21 95\n"));
    let json: serde_json::Value = serde_json::from_str(&stdout_of(
        dir.path(),
        &["ppos", "squares", "-n", "1_000", "-f", "json", "-o", "-"],
    ))
    .unwrap();
    assert_eq!(json["game"], "squares");
    assert_eq!(json["last"], 997);
    assert!(json["p_count"].as_u64().unwrap() > 22);
    nimsieve(dir.path())
        .args(["ppos", "primes", "-n", "60", "-q"])
        .assert()
        .success()
        .stderr("");
    assert!(dir.path().join("output/primes-60-ppos.csv").exists());
}

#[test]
fn misere_tables_hold_outcomes_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let csv = stdout_of(
        dir.path(),
        &["grundy", "squares+misere", "-n", "4", "-o", "-"],
    );
    assert_eq!(csv, "n,outcome\n0,1\n1,0\n2,1\n3,0\n");
    let json: serde_json::Value = serde_json::from_str(&stdout_of(
        dir.path(),
        &[
            "grundy",
            "squares+misere",
            "-n",
            "40",
            "-f",
            "json",
            "-o",
            "-",
        ],
    ))
    .unwrap();
    assert_eq!(json["play"], "misere");
    assert_eq!(json["values"], "outcome (0 = P, 1 = N)");
    assert_eq!(json["p_count"], 11);
}

#[test]
fn eval_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let text = stdout_of(dir.path(), &["eval", "squares", "18", "26", "28"]);
    assert!(
        text.contains("values:  1 2 4")
            && text.contains("nim-sum: 7")
            && text.contains("heap 2: 28 -> 27")
    );
    let json = stdout_of(dir.path(), &["eval", "nim", "1", "2", "3", "-f", "json"]);
    assert_eq!(
        json.trim(),
        r#"{"game":"nim","heaps":[{"size":1,"value":1,"method":"closed form"},{"size":2,"value":2,"method":"closed form"},{"size":3,"value":3,"method":"closed form"}],"values":[1,2,3],"nim_sum":0,"outcome":"P","winning_moves":[],"winning_classes":[],"all_winning_moves":true}"#
    );
    let json: serde_json::Value = serde_json::from_str(&stdout_of(
        dir.path(),
        &["eval", "nim", "6", "7", "3", "--json"],
    ))
    .unwrap();
    assert_eq!(
        json["winning_moves"][1],
        serde_json::json!({"heap": 1, "from": 7, "to": 5})
    );
}

#[test]
fn eval_answers_heaps_of_any_size() {
    let dir = tempfile::tempdir().unwrap();
    let json: serde_json::Value = serde_json::from_str(&stdout_of(
        dir.path(),
        &["eval", "sub:1,3,4", "1000000000000", "200", "--json"],
    ))
    .unwrap();
    assert_eq!(json["heaps"][0]["method"], "period");
    assert_eq!(json["values"], serde_json::json!([1, 2]));
    let text = stdout_of(dir.path(), &["eval", "nim", "1000000000000", "5"]);
    assert!(text.contains("heap 0: 1000000000000 -> 5"), "{text}");
    let text = stdout_of(dir.path(), &["eval", "moore:1", "15", "8", "3", "1"]);
    assert!(text.contains("heap 0: 15 -> 10"), "{text}");
    let games = stdout_of(dir.path(), &["games"]);
    for name in [
        "moore:K",
        "staircase",
        "northcott",
        "nimble",
        "poker-nim",
        "turning-turtles",
        "fibonacci-nim",
    ] {
        assert!(games.contains(name), "{name}: {games}");
    }
    assert!(!dir.path().join("output").exists(), "nothing written");
}

#[test]
fn results_do_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let one = stdout_of(
        dir.path(),
        &[
            "grundy",
            "primes",
            "-n",
            "5000",
            "--threads",
            "1",
            "-o",
            "-",
        ],
    );
    let two = stdout_of(
        dir.path(),
        &[
            "grundy",
            "primes",
            "-n",
            "5000",
            "--threads",
            "2",
            "-o",
            "-",
        ],
    );
    assert_eq!(one, two);
}

#[test]
fn set_files_work_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("moves.txt"), "1\n3\n4\n").unwrap();
    let from_file = stdout_of(
        dir.path(),
        &["grundy", "set-file:moves.txt", "-n", "50", "-o", "-"],
    );
    let inline = stdout_of(dir.path(), &["grundy", "sub:1,3,4", "-n", "50", "-o", "-"]);
    assert_eq!(from_file, inline);
    nimsieve(dir.path())
        .args(["grundy", "set-file:moves.txt", "-n", "50"])
        .assert()
        .success();
    assert!(dir.path().join("output/set-file_moves-50.csv").exists());
}

#[test]
fn ppos_json_counting_function_and_residues() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(
        dir.path(),
        &[
            "ppos", "squares", "-n", "2^20", "-f", "json", "--mod", "7", "-o", "-",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["engine"], "psieve");
    let at = json["p_count_at_powers_of_two"].as_array().unwrap();
    assert_eq!(
        (at.len(), &at[16], &at[20]),
        (21, &serde_json::json!(2053), &serde_json::json!(14421))
    );
    assert_eq!(json["modulus"], 7);
    let residues: u64 = json["p_count_by_residue"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(residues, 14421);
}

#[test]
fn forced_engines_agree_and_refuse_what_they_cannot_do() {
    let dir = tempfile::tempdir().unwrap();
    let sieve = stdout_of(
        dir.path(),
        &[
            "ppos",
            "cubes+leave1",
            "-n",
            "30000",
            "--engine",
            "psieve",
            "-o",
            "-",
        ],
    );
    let reference = stdout_of(
        dir.path(),
        &[
            "ppos",
            "cubes+leave1",
            "-n",
            "30000",
            "--engine",
            "reference",
            "-o",
            "-",
        ],
    );
    assert_eq!(sieve, reference);
    assert_error(
        &["grundy", "squares", "-n", "10", "--engine", "psieve"],
        2,
        "the psieve engine computes the outcome tables",
    );
    assert_error(
        &["ppos", "nim", "-n", "10", "--engine", "psieve"],
        2,
        "listed element by element",
    );
    assert_error(&["ppos", "squares", "-n", "10", "--mod", "0"], 2, "--mod");
}

#[test]
fn until_period_stops_early_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimsieve(dir.path())
        .args([
            "grundy",
            "sub:2,4,7",
            "-n",
            "1e9",
            "-f",
            "json",
            "-o",
            "-",
            "--until-period",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("period proven; stopped at n = 18"))
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["n"], 18);
    assert_eq!(json["stopped_at_period"], true);
    assert_eq!(
        json["period"],
        serde_json::json!({"preperiod": 8, "period": 3, "saltus": 0})
    );
}

#[test]
fn wide_csv_rows_like_textbook_tables() {
    let dir = tempfile::tempdir().unwrap();
    let values = stdout_of(
        dir.path(),
        &["grundy", "squares", "-n", "25", "--wide", "10", "-o", "-"],
    );
    assert_eq!(
        values,
        "n,+0,+1,+2,+3,+4,+5,+6,+7,+8,+9\n0,0,1,0,1,2,0,1,0,1,2\n10,0,1,0,1,2,0,1,0,1,2\n20,0,1,0,1,2\n"
    );
    let positions = stdout_of(
        dir.path(),
        &["ppos", "squares", "-n", "100", "--wide", "5", "-o", "-"],
    );
    assert!(
        positions.starts_with("k,+0,+1,+2,+3,+4\n0,0,2,5,7,10\n5,12,15,17,20,22\n")
            && positions.ends_with("20,95\n")
    );
    // With --offset, the first index of each row counts from the offset, as in narrow rows.
    let offset = stdout_of(
        dir.path(),
        &[
            "ppos", "squares", "-n", "100", "--wide", "5", "--offset", "1", "-o", "-",
        ],
    );
    assert!(
        offset.starts_with("k,+0,+1,+2,+3,+4\n1,0,2,5,7,10\n6,12,15,17,20,22\n")
            && offset.ends_with("21,95\n"),
        "{offset}"
    );
}

#[test]
fn every_subcommand_help_has_examples() {
    let dir = tempfile::tempdir().unwrap();
    for command in [
        "grundy", "ppos", "eval", "stats", "sweep", "plot", "verify", "games",
    ] {
        let help = stdout_of(dir.path(), &[command, "--help"]);
        let examples = help.split("Examples:").nth(1).unwrap_or_default();
        let lines = examples
            .lines()
            .filter(|l| l.trim_start().starts_with("nimsieve "))
            .count();
        assert!(lines >= 2, "{command} --help: {help}");
    }
    let eval = stdout_of(dir.path(), &["eval", "--help"]);
    assert!(
        eval.contains("closed form") && eval.contains("--table") && eval.contains("nim+misere")
    );
}

/// The JSON's `period` has one shape: `saltus` 0 for a pure period, 4 for Lasker's Nim, whose
/// `--until-period` table is exactly the five values that hold its arithmetic period.
#[test]
fn periods_carry_their_saltus() {
    let dir = tempfile::tempdir().unwrap();
    let json = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["grundy"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-f", "json", "-o", "-", "-q"]);
        serde_json::from_str(&stdout_of(dir.path(), &all)).unwrap()
    };
    let pure = json(&["sub:1,3,4", "-n", "1000", "--until-period"]);
    assert_eq!(
        pure["period"],
        serde_json::json!({"preperiod": 0, "period": 7, "saltus": 0})
    );
    let lasker = json(&["lasker", "-n", "1e6", "--until-period"]);
    assert_eq!(
        lasker["period"],
        serde_json::json!({"preperiod": 1, "period": 4, "saltus": 4})
    );
    assert_eq!(
        (&lasker["n"], &lasker["stopped_at_period"]),
        (&5.into(), &true.into())
    );
    let csv = stdout_of(
        dir.path(),
        &[
            "grundy",
            "lasker",
            "-n",
            "1e6",
            "--until-period",
            "-o",
            "-",
            "-q",
        ],
    );
    assert_eq!(csv, "n,g\n0,0\n1,1\n2,2\n3,4\n4,3\n");
    assert_eq!(json(&["lasker", "-n", "9"])["max_value"], 8);
}

/// A CSV or b-file past the rows a spreadsheet shows is said in one line, which names the
/// layouts that fit; not for a CSV laid out to fit, and not with -q.
#[test]
fn tables_past_a_spreadsheet_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let out = nimsieve(dir.path())
            .args(["grundy", "sub:1,2", "-n", "1100000", "-o", "-"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    let said = run(&["-f", "csv"]);
    assert!(
        said.contains("the table has 1100000 rows, more than the 1048576 a spreadsheet shows")
            && said.contains("--wide K")
            && said.lines().count() == 1,
        "{said}"
    );
    assert!(run(&["-f", "bfile"]).contains("1100000 rows"));
    assert!(run(&["-f", "csv", "--wide", "10"]).is_empty());
    assert!(run(&["-f", "csv", "-q"]).is_empty());
}
