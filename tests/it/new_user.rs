//! What a new user types first: near-misses get a message that says what would work.

use crate::support::command;
use command::{nimsieve, stdout_of};

/// Runs `args`, which must fail with exit code 2 and one line on standard error; returns it.
fn refused(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = nimsieve(dir.path()).args(args).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err
}

#[test]
fn a_misspelt_game_or_subcommand_gets_a_suggestion() {
    let err = refused(&["grundy", "square", "-n", "10"]);
    assert!(err.contains("did you mean 'squares'?"), "{err}");
    let err = refused(&["eval", "kayle", "3"]);
    assert!(err.contains("did you mean 'kayles'?"), "{err}");
    let err = refused(&["ppos", "grundy", "-n", "10"]);
    assert!(err.contains("did you mean 'grundys-game'?"), "{err}");
    let err = refused(&["grundy", "chess", "-n", "10"]);
    assert!(!err.contains("did you mean"), "{err}");
    let err = refused(&["grund", "squares", "-n", "10"]);
    assert!(err.contains("'grundy'"), "{err}");
}

#[test]
fn format_and_engine_names_take_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let lower = stdout_of(
        dir.path(),
        &["grundy", "sub:1,3,4", "-n", "100", "-f", "csv", "-o", "-"],
    );
    let upper = stdout_of(
        dir.path(),
        &[
            "grundy",
            "sub:1,3,4",
            "-n",
            "100",
            "--format",
            "CSV",
            "-o",
            "-",
        ],
    );
    assert_eq!(lower, upper);
    let forced = stdout_of(
        dir.path(),
        &[
            "grundy",
            "sub:1,3,4",
            "-n",
            "100",
            "--engine",
            "Reference",
            "-f",
            "Csv",
            "-o",
            "-",
        ],
    );
    assert_eq!(lower, forced);
    stdout_of(dir.path(), &["sweep", "sub2:5", "-f", "JSON", "-o", "-"]);
    stdout_of(dir.path(), &["completions", "BASH"]);
}

#[test]
fn heaps_written_with_commas_are_answered_with_spaces() {
    let err = refused(&["eval", "kayles", "3,5,7"]);
    assert!(
        err.contains("heaps are separated by spaces, not commas; write 3 5 7"),
        "{err}"
    );
    let err = refused(&["eval", "staircase", "3,1"]);
    assert!(err.contains("write 3 1"), "{err}");
    let err = refused(&["eval", "squares", "1,000,000"]);
    assert!(err.contains("or 1_000_000 for one heap"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(dir.path(), &["eval", "kayles", "3", "5", "7"]);
    assert!(out.contains("values:  3 4 2"), "{out}");
}

#[test]
fn n_of_zero_says_what_would_work() {
    for args in [
        &["grundy", "squares", "-n", "0"][..],
        &["ppos", "squares", "-n", "0"],
        &["grundy", "wythoff", "-n", "0"],
        &["ppos", "wythoff", "-n", "0"],
        &["sweep", "sub2:5", "-n", "0"],
    ] {
        let err = refused(args);
        assert!(
            err.contains("-n must be at least 1") && err.contains("give e.g. -n 1000"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_table_stopped_at_its_period_is_named_and_summarised_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    stdout_of(
        dir.path(),
        &[
            "grundy",
            "sub:2,5,7",
            "-n",
            "1e6",
            "--until-period",
            "-f",
            "csv,json,bin",
            "-q",
        ],
    );
    let output = dir.path().join("output");
    for ext in ["csv", "json", "bin"] {
        assert!(output.join(format!("sub_2-5-7-29.{ext}")).exists(), "{ext}");
        assert!(
            !output.join(format!("sub_2-5-7-1000000.{ext}")).exists(),
            "{ext}"
        );
    }
    for table in ["output/sub_2-5-7-29.csv", "output/sub_2-5-7-29.bin"] {
        let stats: serde_json::Value =
            serde_json::from_str(&stdout_of(dir.path(), &["stats", table])).unwrap();
        assert_eq!(stats["n"], 29, "{table}");
        assert_eq!(stats["stopped_at_period"], true, "{table}");
    }
    // A table that holds all N positions says so too.
    stdout_of(
        dir.path(),
        &["grundy", "sub:2,5,7", "-n", "100", "-f", "csv,json", "-q"],
    );
    let stats: serde_json::Value = serde_json::from_str(&stdout_of(
        dir.path(),
        &["stats", "output/sub_2-5-7-100.csv"],
    ))
    .unwrap();
    assert_eq!(stats["stopped_at_period"], false);
}

/// `verify` of a take-and-break table with a proven period in the JSON beside it checks the
/// positions that prove the period by every split and the rest against the period.
#[test]
fn verify_uses_the_proven_period_of_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    stdout_of(
        d,
        &["grundy", "kayles", "-n", "1e6", "-f", "bin,json", "-q"],
    );
    let out = nimsieve(d)
        .args(["verify", "output/kayles-1000000.bin"])
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        said.contains("below 168, which prove the period 12 from 71"),
        "{said}"
    );
    // A wrong value past the proof is found by the period.
    stdout_of(
        d,
        &["grundy", "kayles", "-n", "1e5", "-f", "csv,json", "-q"],
    );
    let csv = d.join("output/kayles-100000.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("50000,"))
        .unwrap()
        .to_string();
    let wrong = if line.ends_with(",0") {
        "50000,1"
    } else {
        "50000,0"
    };
    std::fs::write(
        &csv,
        text.replace(&format!("{line}\n"), &format!("{wrong}\n")),
    )
    .unwrap();
    let out = nimsieve(d)
        .args(["verify", "output/kayles-100000.csv", "-q"])
        .assert()
        .code(3);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("g(50000) = "), "{err}");
    assert!(
        err.contains("the period 12 from 71 that positions 0 to 167 prove"),
        "{err}"
    );
    // A period the verified positions do not prove is not used: the table is checked whole.
    stdout_of(
        d,
        &["grundy", "kayles", "-n", "5000", "-f", "csv,json", "-q"],
    );
    let json = d.join("output/kayles-5000.json");
    let summary = std::fs::read_to_string(&json).unwrap();
    let summary = summary.replacen("\"period\": 12", "\"period\": 5", 1);
    std::fs::write(&json, summary).unwrap();
    let out = nimsieve(d)
        .args(["verify", "output/kayles-5000.csv"])
        .assert()
        .success();
    let said = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!said.contains("prove the period"), "{said}");
}

/// `--resume` with an engine that keeps no checkpoint says so, and the table is still written.
#[test]
fn resume_with_an_engine_that_cannot_resume_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = nimsieve(dir.path())
        .args(["grundy", "allbut:1,2", "-n", "100", "--resume", "-f", "csv"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("the reference engine keeps no checkpoint"),
        "{err}"
    );
    assert!(dir.path().join("output/allbut_1-2-100.csv").is_file());
    let out = nimsieve(dir.path())
        .args(["grundy", "squares", "-n", "100", "--resume", "-f", "csv"])
        .assert()
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!err.contains("checkpoint"), "{err}");
}
