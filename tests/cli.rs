//! The `nimsieve` command line: every subcommand, format and error path.

use predicates::prelude::*;
use std::path::Path;

#[path = "support/command.rs"]
mod command;
use command::{nimsieve, stdout_of};

#[path = "support/running.rs"]
mod running;
use running::wait_for_computed_positions;

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
    let json = stdout_of(dir.path(), &["eval", "nim", "1", "2", "3", "--json"]);
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

/// Runs a command that must fail with `code` and a one-line message containing `want`.
fn assert_error(args: &[&str], code: i32, want: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = nimsieve(dir.path())
        .args(args)
        .assert()
        .failure()
        .code(code)
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(want), "{args:?}: {stderr:?} lacks {want:?}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: one line, got {stderr:?}"
    );
    assert!(stderr.starts_with("nimsieve: error: "));
    assert!(!stderr.contains("panicked"));
}

#[test]
fn bad_input_is_a_one_line_error() {
    assert_error(
        &["grundy", "squarez", "-n", "10"],
        2,
        "unknown game 'squarez'",
    );
    assert_error(
        &["grundy", "staircase", "-n", "10"],
        2,
        "'nimsieve eval staircase …' evaluates its positions",
    );
    assert_error(
        &["ppos", "moore:2", "-n", "10"],
        2,
        "'moore:2' is a game of several heaps with no one-heap table",
    );
    assert_error(&["grundy", "sub:", "-n", "10"], 2, "empty");
    assert_error(&["grundy", "sub:0,1", "-n", "10"], 2, "0 is not a move");
    assert_error(&["grundy", "sub:3,3", "-n", "10"], 2, "3 appears twice");
    assert_error(
        &["grundy", "sub:1,18446744073709551616", "-n", "10"],
        2,
        "larger than 2^64",
    );
    assert_error(
        &["grundy", "set-file:missing.txt", "-n", "10"],
        2,
        "cannot read set file 'missing.txt'",
    );
    assert_error(&["ppos", "nim+fast", "-n", "10"], 2, "unknown modifier");
    assert_error(
        &["grundy", "nim", "-n", "ten"],
        2,
        "'ten' is not a valid size",
    );
    assert_error(&["grundy", "nim", "-n", "0"], 2, "at least 1");
    assert_error(&["grundy", "nim", "-n", "2^40"], 2, "too large");
    assert_error(
        &["grundy", "nim", "-n", "10", "--threads", "0"],
        2,
        "--threads",
    );
    assert_error(
        &["grundy", "nim", "-n", "10", "-f", "csv,json", "-o", "x"],
        2,
        "one file",
    );
    assert_error(
        &["grundy", "nim", "-n", "10", "-o", "no/such/dir/x.csv"],
        1,
        "cannot write 'no/such/dir/x.csv'",
    );
    assert_error(&["eval", "squares", "3", "-4"], 2, "not a valid size");
    assert_error(
        &["eval", "grundys-game+misere", "40"],
        2,
        "candidate quotient",
    );
    assert_error(&["eval", "squares", "1000000000"], 2, "--table");
    assert_error(&["eval", "primes", "1e11"], 2, "2^32");
    assert_error(
        &["eval", "fibonacci-nim", "5", "--last", "0"],
        2,
        "at least 1",
    );
    assert_error(&["eval", "moore:x", "1"], 2, "from 1");
    assert_error(
        &["eval", "sub:1,3,4", "5", "--last", "2"],
        2,
        "fibonacci-nim only",
    );
    assert_error(
        &["eval", "nim", "1", "--table", "missing.bin"],
        1,
        "missing.bin",
    );
    assert_error(&["ppos", "squares", "-n", "2^60"], 2, "free disk space");
    assert_error(
        &["grundy", "sub:1,3,4", "-n", "18446744073709551615"],
        2,
        "free disk space",
    );
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
        "outcome tables under +misere only",
    );
    assert_error(
        &["ppos", "nim", "-n", "10", "--engine", "psieve"],
        2,
        "listed element by element",
    );
    assert_error(&["ppos", "squares", "-n", "10", "--mod", "0"], 2, "--mod");
}

#[test]
fn a_symbolic_link_is_followed_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("disk")).unwrap();
    std::fs::write(d.join("disk/old.csv"), "old\n").unwrap();
    // One link to an existing file, one to a file not there yet (a relative target).
    std::os::unix::fs::symlink(d.join("disk/old.csv"), d.join("to-old.csv")).unwrap();
    std::os::unix::fs::symlink("disk/new.csv", d.join("to-new.csv")).unwrap();
    let table = stdout_of(d, &["grundy", "squares", "-n", "30", "-o", "-"]);
    for (link, target) in [
        ("to-old.csv", "disk/old.csv"),
        ("to-new.csv", "disk/new.csv"),
    ] {
        nimsieve(d)
            .args(["grundy", "squares", "-n", "30", "-q", "-o", link])
            .assert()
            .success();
        let kept = std::fs::symlink_metadata(d.join(link)).unwrap();
        assert!(kept.file_type().is_symlink(), "{link} replaced by a file");
        assert_eq!(
            std::fs::read_to_string(d.join(target)).unwrap(),
            table,
            "{target}"
        );
    }
    let mut left: Vec<String> = std::fs::read_dir(d.join("disk"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["new.csv", "old.csv"], "no temporary files left");
}

#[test]
fn special_files_are_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    nimsieve(dir.path())
        .args(["ppos", "squares", "-n", "20", "-q", "-o"])
        .arg(&fifo)
        .assert()
        .success();
    assert_eq!(
        reader.join().unwrap(),
        "k,n\n0,0\n1,2\n2,5\n3,7\n4,10\n5,12\n6,15\n7,17\n"
    );
    assert!(
        !std::fs::metadata(&fifo).unwrap().is_file(),
        "the FIFO must not be replaced"
    );
}

/// Runs `args` (a resumable run, its table in the work file `output/<work_file>`), interrupts
/// it with Ctrl-C once its engine is filling the table, resumes it with --resume, and checks
/// the outputs equal a run without interruption. Returns the resumed files' contents.
///
/// Nothing here depends on the machine's speed. The signal is sent once the work file holds a
/// computed position past its first word: the engines write those only while they run their
/// segments, the time when Ctrl-C is answered by a checkpoint at the end of the segment. Every
/// size here leaves segments to run after the first, so the run cannot finish first.
fn interrupt_and_resume(args: &[&str], outputs: &[&str], work_file: &str) -> Vec<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("output");
    let bin = assert_cmd::cargo::cargo_bin("nimsieve");
    let mut child = std::process::Command::new(&bin)
        .args(args)
        .current_dir(dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_computed_positions(&output.join(work_file), &mut child);
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let interrupted = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&interrupted.stderr);
    assert_eq!(
        interrupted.status.code(),
        Some(130),
        "{args:?}: the run must be interrupted, not finished: {stderr}"
    );
    // The one line says how much is saved, and the checkpoint says the same.
    let saved = stderr
        .strip_prefix("nimsieve: error: interrupted: ")
        .and_then(|rest| {
            rest.strip_suffix(
                " positions are saved; run the same command with --resume to continue\n",
            )
        })
        .and_then(|counts| counts.split_once(" of "))
        .unwrap_or_else(|| panic!("{args:?}: {stderr}"));
    let (done, n): (u64, u64) = (saved.0.parse().unwrap(), saved.1.parse().unwrap());
    assert!(0 < done && done < n, "{args:?}: {stderr}");
    let state = output.join(format!("{work_file}.state.json"));
    let checkpoint: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).expect("a checkpoint is saved"))
            .unwrap();
    assert_eq!(checkpoint["checkpoint"]["done"], done, "{checkpoint}");
    for file in outputs {
        assert!(!output.join(file).exists(), "no {file} before completion");
    }

    let mut resume = args.to_vec();
    if !resume.contains(&"--resume") {
        resume.push("--resume");
    }
    nimsieve(dir.path()).args(&resume).assert().success();
    let resumed: Vec<Vec<u8>> = outputs
        .iter()
        .map(|f| std::fs::read(output.join(f)).unwrap())
        .collect();
    assert!(!output.join(work_file).exists(), "work file removed");
    assert!(
        !output.join(format!("{work_file}.state.json")).exists(),
        "checkpoint removed"
    );

    nimsieve(dir.path()).args(args).assert().success();
    for (file, bytes) in outputs.iter().zip(&resumed) {
        assert_eq!(&std::fs::read(output.join(file)).unwrap(), bytes, "{file}");
    }
    resumed
}

#[test]
fn interrupted_ppos_resumes_to_identical_output() {
    let args = ["ppos", "squares", "-n", "2^29", "-f", "csv,bfile", "-q"];
    let outputs = ["squares-536870912-ppos.csv", "squares-536870912-ppos.txt"];
    let resumed = interrupt_and_resume(&args, &outputs, "squares-536870912-ppos.bits");
    assert_eq!(
        String::from_utf8(resumed[0].clone())
            .unwrap()
            .lines()
            .count(),
        1 + 1_122_049
    );
}

#[test]
fn interrupted_grundy_resumes_to_identical_output() {
    let args = [
        "grundy",
        "proper-divisors",
        "-n",
        "4e7",
        "-f",
        "bin",
        "-q",
        "--resume",
    ];
    interrupt_and_resume(
        &args,
        &["proper-divisors-40000000.bin"],
        "proper-divisors-40000000.values",
    );
}

#[test]
fn interrupted_sparse_grundy_resumes_to_identical_output() {
    let args = [
        "grundy", "squares", "-n", "2^23", "-f", "bin,csv", "-q", "--resume",
    ];
    interrupt_and_resume(
        &args,
        &["squares-8388608.bin", "squares-8388608.csv"],
        "squares-8388608.values",
    );
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
fn offsets_whose_indexes_overflow_are_refused() {
    assert_error(
        &[
            "ppos",
            "squares",
            "-n",
            "100",
            "--offset",
            "18446744073709551615",
            "-f",
            "bfile",
            "-o",
            "-",
        ],
        2,
        "give --offset 18446744073709551516 or less",
    );
    // The largest offset N allows: the indexes end below 2^64, in order.
    let dir = tempfile::tempdir().unwrap();
    let bfile = stdout_of(
        dir.path(),
        &[
            "ppos",
            "squares",
            "-n",
            "100",
            "--offset",
            "18446744073709551516",
            "-f",
            "bfile",
            "-o",
            "-",
        ],
    );
    let indexes: Vec<u64> = bfile
        .lines()
        .map(|line| line.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(indexes[0], 18446744073709551516);
    assert!(indexes.windows(2).all(|w| w[1] == w[0] + 1), "{bfile}");
    let wide = stdout_of(
        dir.path(),
        &[
            "ppos",
            "nim",
            "-n",
            "1",
            "--offset",
            "18446744073709551615",
            "--wide",
            "3",
            "-o",
            "-",
        ],
    );
    assert_eq!(wide, "k,+0,+1,+2\n18446744073709551615,0\n");
    // A spreadsheet cell holds integers exactly only below 2^53.
    assert_error(
        &[
            "ppos",
            "squares",
            "-n",
            "100",
            "--offset",
            "9007199254740900",
            "-f",
            "xlsx",
            "-o",
            "t.xlsx",
        ],
        2,
        "2^53",
    );
    nimsieve(dir.path())
        .args([
            "ppos",
            "squares",
            "-n",
            "100",
            "--offset",
            "9007199254740000",
        ])
        .args(["-f", "xlsx", "-o", "t.xlsx", "-q"])
        .assert()
        .success();
}

#[test]
fn set_files_are_capped_and_take_any_line_ending() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.txt");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    let fifo = dir.path().join("pipe.txt");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    // Refused at once: a FIFO without a writer is not waited on, /dev/zero not read.
    for (path, want) in [
        (huge.as_path(), "larger than 64 MiB"),
        (
            fifo.as_path(),
            "it is a FIFO, device or socket, not a regular file",
        ),
        (Path::new("/dev/zero"), "not a regular file"),
        (dir.path(), "it is a folder, not a file"),
    ] {
        let spec = format!("set-file:{}", path.display());
        let out = nimsieve(dir.path())
            .args(["grundy", &spec, "-n", "10"])
            .timeout(std::time::Duration::from_secs(10))
            .assert()
            .code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(want), "{spec}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{spec}: {stderr}");
    }
    let inline = stdout_of(dir.path(), &["grundy", "sub:1,3,4", "-n", "40", "-o", "-"]);
    for (name, body) in [("cr.txt", "4\r1\r3\r"), ("crlf.txt", "4\r\n1\r\n3\r\n")] {
        std::fs::write(dir.path().join(name), body).unwrap();
        let spec = format!("set-file:{name}");
        let from_file = stdout_of(dir.path(), &["grundy", &spec, "-n", "40", "-o", "-"]);
        assert_eq!(from_file, inline, "{name}");
    }
    // Errors name the line, and print control characters escaped.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "4\r1\rx\u{1b}[2J\r").unwrap();
    let spec = format!("set-file:{}", bad.display());
    assert_error(&["grundy", &spec, "-n", "10"], 2, "line 3: 'x\\u{1b}[2J'");
    let out = nimsieve(dir.path())
        .args(["grundy", &spec, "-n", "10"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(!out.stderr.iter().any(|&b| b == b'\r' || b == 0x1b));
}

#[test]
fn thread_counts_and_moduli_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.txt"), "0 0\n1 1\n").unwrap();
    let table = dir.path().join("t.txt");
    let table = table.to_str().unwrap();
    for args in [
        &["grundy", "nim", "-n", "10"][..],
        &["ppos", "nim", "-n", "10"],
        &["sweep", "sub1:3"],
        &["verify", table, "--game", "nim"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--threads", "99999999999"]);
        assert_error(&args, 2, "at most 1024");
    }
    for modulus in ["18446744073709551615", "2^32", "65537"] {
        for args in [
            &["grundy", "nim", "-n", "10"][..],
            &["ppos", "nim", "-n", "10"],
            &["stats", table],
        ] {
            let mut args = args.to_vec();
            args.extend(["--mod", modulus]);
            assert_error(&args, 2, "give at most 65536");
        }
    }
    let json = stdout_of(
        dir.path(),
        &[
            "ppos", "nim", "-n", "10", "--mod", "2^16", "-f", "json", "-o", "-",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        json["p_count_by_residue"].as_array().unwrap().len(),
        1 << 16
    );
}

#[test]
fn sweeps_too_large_for_one_run_are_refused() {
    assert_error(
        &["sweep", "sub3:100000"],
        2,
        "family 'sub3:100000' has 166661666700000 games, more than the 1048576 (2^20) one run computes; run the family in parts with --shard I/K, K at least 158940952",
    );
    assert_error(
        &["sweep", "bachet:1..18446744073709551615", "-n", "10"],
        2,
        "K at least 17592186044416",
    );
    assert_error(
        &["sweep", "sub3:1000", "--shard", "1/100"],
        2,
        "this part of family 'sub3:1000' has 1661670 games",
    );
    assert_error(
        &["sweep", "bachet:1..18446744073709551616", "-n", "10"],
        2,
        "B '18446744073709551616' is larger than 2^64 - 1",
    );
}

#[test]
fn malformed_sizes_say_what_is_wrong() {
    for (n, why) in [
        ("_1", "an underscore may stand only between two digits"),
        ("1__0", "between two digits"),
        ("", "it is empty"),
        ("-5", "negative"),
        ("2^", "the exponent is missing"),
        ("^3", "the base is missing"),
        ("1e", "the exponent is missing"),
        ("1e99999999999999999999", "larger than 2^64 - 1"),
        ("0x10", "hexadecimal"),
    ] {
        assert_error(&["grundy", "nim", "-n", n], 2, why);
    }
}

#[test]
fn usage_errors_are_one_line_and_help_is_unchanged() {
    assert_error(
        &["grundy", "nim", "-n", "5", "--foo"],
        2,
        "unexpected argument '--foo' found",
    );
    assert_error(
        &["grundy", "nim"],
        2,
        "-n <N>; see 'nimsieve grundy --help'",
    );
    assert_error(
        &["grundy", "nim", "-n", "5", "--threads", "x"],
        2,
        "invalid value 'x' for '--threads <THREADS>'",
    );
    assert_error(&["gruny"], 2, "a similar subcommand exists: 'grundy'");
    let dir = tempfile::tempdir().unwrap();
    for (args, want) in [
        (&["--help"][..], "Usage: nimsieve <COMMAND>"),
        (&["grundy", "--help"], "Usage: nimsieve grundy"),
        (&["--version"], "nimsieve 0.1.0"),
    ] {
        let out = stdout_of(dir.path(), args);
        assert!(out.contains(want), "{args:?}: {out}");
    }
}

#[test]
fn binary_formats_are_refused_on_a_terminal() {
    // `script` runs a command with a terminal as its standard output.
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs `script` (util-linux)"
        );
        println!("skipped: no `script` command to give nimsieve a terminal");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let binary = assert_cmd::cargo::cargo_bin("nimsieve");
    let on_terminal = |format: &str| {
        let command = format!("{} ppos nim -n 5 -f {format} -o -", binary.display());
        let out = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    for format in ["npy", "bin", "u64", "xlsx"] {
        let (code, text) = on_terminal(format);
        assert_eq!(code, Some(2), "{format}: {text}");
        assert!(
            text.contains(&format!(
                "nimsieve: error: {format} is a binary format, not for a terminal"
            )),
            "{format}: {text}"
        );
    }
    let (code, text) = on_terminal("csv");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("k,n"), "{text}");
}

#[test]
fn until_period_is_refused_where_no_period_is_proven() {
    assert_error(
        &["ppos", "sub:1,3,4", "-n", "100", "--until-period"],
        2,
        "--until-period applies to grundy tables, not to P-position lists",
    );
    assert_error(
        &["grundy", "squares", "-n", "100", "--until-period"],
        2,
        "the value-layers engine proves no period for squares",
    );
    assert_error(
        &[
            "grundy",
            "sub:1,3,4",
            "-n",
            "100",
            "--until-period",
            "--engine",
            "reference",
        ],
        2,
        "the reference engine proves no period",
    );
}

#[test]
fn until_period_says_when_n_was_too_small() {
    let dir = tempfile::tempdir().unwrap();
    nimsieve(dir.path())
        .args(["grundy", "sub:1,3,4", "-n", "5", "--until-period"])
        .args(["-f", "json", "-o", "-"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "no period proven below n = 5; raise -n",
        ))
        .stdout(predicate::str::contains("\"period\": null"));
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

#[test]
fn set_elements_near_2_64_prove_no_period() {
    let dir = tempfile::tempdir().unwrap();
    // g(2^64 − 2) = 2, so the values' repeat of 0, 1 is no period: none is proven, and
    // `--until-period` keeps the whole table.
    let top = "sub:1,18446744073709551614";
    let json = stdout_of(
        dir.path(),
        &["grundy", top, "-n", "20", "-f", "json", "-o", "-"],
    );
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["period"], serde_json::Value::Null, "{json}");
    for (spec, n) in [(top, 20), ("sub:18446744073709551615+leave1", 10)] {
        let out = nimsieve(dir.path())
            .args(["grundy", spec, "-n", &n.to_string(), "--until-period"])
            .args(["-f", "csv", "-o", "-"])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!(
                "no period proven below n = {n}"
            )))
            .get_output()
            .stdout
            .clone();
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), n + 1, "{spec}");
    }
    // `stats` proves nothing from the table either.
    nimsieve(dir.path())
        .args([
            "grundy", top, "-n", "1000", "-f", "csv,json", "-q", "-o", "./",
        ])
        .assert()
        .success();
    let stats = stdout_of(
        dir.path(),
        &["stats", "sub_1-18446744073709551614-1000.csv"],
    );
    let stats: serde_json::Value = serde_json::from_str(&stats).unwrap();
    assert_eq!(stats["period"], serde_json::Value::Null, "{stats}");
    // A heap inside the table, of a set whose only element is 2^64 − 1: no move, value 0.
    let json = stdout_of(
        dir.path(),
        &["eval", "sub:18446744073709551615", "5", "--json"],
    );
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["values"], serde_json::json!([0]));
    assert_eq!(json["heaps"][0]["method"], "table");
}

/// The standard stream of a run that is a pipe whose reader is gone.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Closed {
    Stdout,
    Stderr,
}

/// Runs `nimsieve ARGS…` in `dir` with `closed` a pipe whose read end is closed: its exit
/// code and what it wrote to the other stream.
fn with_closed(dir: &Path, closed: Closed, args: &[&str]) -> (Option<i32>, String) {
    use std::process::Stdio;
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimsieve"));
    cmd.current_dir(dir).args(args);
    match closed {
        Closed::Stdout => cmd.stdout(writer).stderr(Stdio::piped()),
        Closed::Stderr => cmd.stderr(writer).stdout(Stdio::piped()),
    };
    let out = cmd.output().unwrap();
    let other = match closed {
        Closed::Stdout => out.stderr,
        Closed::Stderr => out.stdout,
    };
    (out.status.code(), String::from_utf8(other).unwrap())
}

#[test]
fn a_closed_pipe_ends_quietly_and_a_closed_stderr_stops_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    nimsieve(d)
        .args([
            "grundy", "squares", "-n", "1000", "-f", "csv,json", "-o", "t/",
        ])
        .args(["-q"])
        .assert()
        .success();
    // Every subcommand whose results go to standard output: no panic, no message, exit 141
    // (as SIGPIPE would end it).
    let printing: [&[&str]; 14] = [
        &["games"],
        &["eval", "squares", "18", "26", "28"],
        &["eval", "staircase", "3", "1", "4", "1"],
        &["eval", "nim", "8", "12", "3", "9", "--json"],
        &["grundy", "nim", "-n", "1e5", "-o", "-"],
        &["grundy", "nim", "-n", "1e5", "-f", "xlsx", "-o", "-"],
        &["grundy", "wythoff", "-n", "300", "-o", "-"],
        &["ppos", "squares", "-n", "1e5", "-f", "npy", "-o", "-"],
        &["ppos", "wythoff", "-n", "1e5", "-o", "-"],
        &["stats", "t/squares-1000.csv"],
        &["verify", "t/squares-1000.csv", "-q"],
        &["sweep", "sub2:10", "-f", "csv", "-o", "-"],
        &["sweep", "sub2:10", "-f", "json", "-o", "-"],
        &["--help"],
    ];
    for args in printing {
        let (code, stderr) = with_closed(d, Closed::Stdout, args);
        let quiet = code == Some(141) || (code == Some(0) && args == ["--help"]);
        assert!(quiet && stderr.is_empty(), "{args:?}: {code:?} {stderr}");
    }
    // Commands that write files do so whichever stream is closed.
    for closed in [Closed::Stdout, Closed::Stderr] {
        let f = format!("{closed:?}");
        let o = format!("{f}/");
        let png = format!("{f}.png");
        let at = |name: &str| format!("{f}/{name}");
        let writing: [(Vec<&str>, Vec<String>); 6] = [
            (
                vec![
                    "grundy",
                    "sub:1,3,4",
                    "-n",
                    "1000",
                    "--until-period",
                    "-f",
                    "csv,json",
                ],
                vec![at("sub_1-3-4-11.csv"), at("sub_1-3-4-11.json")],
            ),
            (
                vec!["ppos", "squares", "-n", "1000", "-f", "bfile"],
                vec![at("squares-1000-ppos.txt")],
            ),
            (
                vec!["sweep", "sub2:10"],
                vec![at("sweep-sub2_10.csv"), at("sweep-sub2_10.jsonl")],
            ),
            (
                vec!["sweep", "sub2:12", "--shard", "1/1"],
                vec![at("sweep-sub2_12-part1of1.manifest.json")],
            ),
            (vec!["sweep-merge"], vec![at("sweep-sub2_12.csv")]),
            (
                vec!["plot", "t/squares-1000.csv", "--kind", "values", "-o", &png],
                vec![png.clone()],
            ),
        ];
        for (mut args, files) in writing {
            if args[0] != "plot" {
                if args[0] != "sweep-merge" {
                    args.push("-o");
                }
                args.push(&o);
            }
            let (code, _) = with_closed(d, closed, &args);
            assert_eq!(code, Some(0), "{closed:?} {args:?}");
            for file in files {
                assert!(d.join(&file).exists(), "{closed:?} {args:?}: {file}");
            }
        }
    }
    // Results and errors still come out on the other stream.
    for (args, code, want) in [
        (&["games"][..], 0, "squares"),
        (&["eval", "nim", "1", "2"][..], 0, "nim-sum: 3"),
        (&["stats", "t/squares-1000.csv"][..], 0, "\"n\": 1000"),
        (&["verify", "t/squares-1000.csv"][..], 0, "all correct"),
        (&["grundy", "nosuch", "-n", "5"][..], 2, ""),
    ] {
        let (got, stdout) = with_closed(d, Closed::Stderr, args);
        assert_eq!(got, Some(code), "{args:?}");
        assert!(stdout.contains(want), "{args:?}: {stdout}");
    }
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
