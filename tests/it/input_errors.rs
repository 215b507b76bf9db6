//! Bad input on the command line: every malformed spec, size, set file, offset, thread count,
//! sweep and usage is a one-line error (exit 2) that says what is wrong and what would fix it.

use predicates::prelude::*;
use std::path::Path;

use crate::support::command;
use command::{assert_error, nimsieve, stdout_of};

use crate::support::fifo;
use fifo::make_fifo;

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
        "'moore:2' is a game of several heaps with no table",
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
    // A missing folder is created; one that cannot be is an operation that failed.
    assert_error(
        &["grundy", "nim", "-n", "10", "-o", "/dev/null/x.csv"],
        1,
        "cannot create folder '/dev/null'",
    );
    assert_error(&["eval", "squares", "3", "-4"], 2, "not a valid size");
    assert_error(
        &["eval", "kayles+misere+misere", "3"],
        2,
        "'+misere' is given twice",
    );
    assert_error(
        &["misere", "kayles+misere+misere", "-n", "10"],
        2,
        "'+misere' is given twice",
    );
    assert_error(
        &["eval", "grundys-game+misere", "40"],
        2,
        "eval decides misère sums of heaps below 29 of this game",
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
    make_fifo(&fifo);
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

/// The unclear errors a fault pass found: a `.npy` of another dtype names the accepted ones;
/// a two-dimensional `.npy` checked as P-positions of a one-heap game is read as such (not as
/// Wythoff's P-pairs, which no file stated); a code of 10,000 digits is not echoed whole.
#[test]
fn errors_say_what_is_accepted_and_stay_short() {
    let dir = tempfile::tempdir().unwrap();
    let npy = |name: &str, descr: &str, shape: &str, data: &[u8]| {
        let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}\n");
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        bytes.extend_from_slice(&(dict.len() as u16).to_le_bytes());
        bytes.extend_from_slice(dict.as_bytes());
        bytes.extend_from_slice(data);
        std::fs::write(dir.path().join(name), bytes).unwrap();
    };
    npy("f.npy", "<f8", "(2,)", &[0; 16]);
    let pairs: Vec<u8> = [0u64, 0, 1, 2, 3, 5, 4, 7, 6, 10]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    npy("w.npy", "<u8", "(5, 2)", &pairs);
    let one_line = |args: &[&str]| {
        let out = nimsieve(dir.path()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        stderr
    };
    let line = one_line(&["stats", "f.npy"]);
    assert!(line.contains("<u4") && line.contains("astype"), "{line}");
    let line = one_line(&["verify", "w.npy", "--ppos", "--game", "sub:1,3,4"]);
    assert!(
        !line.contains("states") && !line.contains("wythoff"),
        "{line}"
    );
    assert!(line.contains("5×2, not one-dimensional"), "{line}");
    let code = format!("octal:0.{}", "7".repeat(10_000));
    let line = one_line(&["grundy", &code, "-n", "10"]);
    assert!(
        line.len() < 400,
        "{} characters: {}",
        line.len(),
        &line[..200]
    );
    assert!(
        line.contains("10000 digits") && line.contains("characters)"),
        "{line}"
    );
}

/// A refused run writes nothing, not even the folder of its outputs; a run that writes creates
/// the folder its files go in, for every subcommand that writes.
#[test]
fn folders_are_created_only_for_what_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for refused in [
        &["grundy", "wythoff", "-n", "10", "--wide", "3"][..],
        &["grundy", "squares", "-n", "10", "--until-period"],
        &["ppos", "wythoff", "-n", "10", "-f", "xlsx"],
    ] {
        nimsieve(d).args(refused).assert().code(2);
    }
    nimsieve(d)
        .args(["grundy", "squares", "-n", "10", "-o", "-"])
        .assert()
        .success();
    let left: Vec<_> = std::fs::read_dir(d).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    for (args, file) in [
        (
            &["misere", "kayles", "-n", "50", "-o", "f/k.json"][..],
            "f/k.json",
        ),
        (
            &["grundy", "sub:1,2", "-n", "10", "-o", "a/b/c.csv"],
            "a/b/c.csv",
        ),
        (
            &["grundy", "wythoff", "-n", "5", "-o", "w/"],
            "w/wythoff-5.csv",
        ),
    ] {
        nimsieve(d).args(args).assert().success();
        assert!(d.join(file).is_file(), "{args:?}");
    }
}
