//! Runs that keep no table: with only json and freq asked for, a take-and-break run keeps its
//! table whole up to `--window` and only a window of it past there. Its summary and frequency
//! table are those of a run that keeps the table; a position the window cannot decide, or a
//! game without sparse space, ends the run with one line.

use crate::support::command::{assert_error, nimsieve};
use std::path::Path;

/// The JSON summary at `path` without what differs between two runs of one table: the time
/// and the provenance (its command and date).
fn summary(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let fields = json.as_object_mut().unwrap();
    assert!(fields.remove("elapsed_s").is_some() && fields.remove("provenance").is_some());
    json
}

/// Games whose values past 2^19 the window decides: `.167` (60 rare positions), `.161`, `.6`,
/// Grundy's game, `.14` (its last rare position at 178,727 in the head), `.034` (a rare
/// position at 374,473, past the head, common under the mask chosen again), and Kayles and
/// `.05`, whose periods are proven before the window starts (the rest handed on from the
/// period).
#[test]
fn a_window_gives_the_summary_and_frequencies_of_the_whole_table() {
    let dir = tempfile::tempdir().unwrap();
    let n = "1100000";
    for game in [
        "octal:0.167",
        "octal:0.161",
        "octal:0.6",
        "grundys-game",
        "octal:0.14",
        "octal:0.034",
        "kayles",
        "octal:0.05",
    ] {
        for (folder, args) in [
            ("whole", vec!["-f", "json,freq,bin"]),
            ("window", vec!["-f", "json,freq", "--window", "2^19"]),
        ] {
            let out = dir.path().join(folder);
            nimsieve(dir.path())
                .args(["grundy", game, "-n", n, "-q", "-o"])
                .arg(format!("{}/", out.display()))
                .args(args)
                .assert()
                .success();
        }
        let stem = format!("{}-{n}", game.replace(':', "_"));
        let file = |folder: &str, ext: &str| dir.path().join(folder).join(format!("{stem}.{ext}"));
        let (whole, window) = (
            summary(&file("whole", "json")),
            summary(&file("window", "json")),
        );
        assert_eq!(whole, window, "{game}");
        let freq = |folder| std::fs::read(file(folder, "freq.txt")).unwrap();
        assert_eq!(freq("whole"), freq("window"), "{game}");
        assert!(!file("window", "bin").exists());
    }
}

/// With `--freq-each-power`, a run that keeps no table writes, as it passes each 2^k + 1 from
/// its window's start on, the frequency file of the run to 2^k + 1, named as that run names
/// it and equal to it byte for byte.
#[test]
fn a_run_that_keeps_no_table_writes_the_frequency_file_of_each_power_it_passes() {
    let dir = tempfile::tempdir().unwrap();
    let folder = |name: &str| format!("{}/", dir.path().join(name).display());
    for game in ["octal:0.161", "grundys-game"] {
        nimsieve(dir.path())
            .args(["grundy", game, "-n", "1100000", "-f", "json,freq", "-q"])
            .args([
                "--window",
                "2^18",
                "--freq-each-power",
                "-o",
                &folder("each"),
            ])
            .assert()
            .success();
        let stem = game.replace(':', "_");
        let written: Vec<String> = (std::fs::read_dir(dir.path().join("each")).unwrap())
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.starts_with(&stem) && name.ends_with(".freq.txt"))
            .collect();
        assert_eq!(written.len(), 4, "{game}: {written:?}");
        for k in [18, 19, 20] {
            let n = (1 << k) + 1;
            nimsieve(dir.path())
                .args(["grundy", game, "-n", &n.to_string(), "-f", "freq,bin", "-q"])
                .args(["-o", &folder("whole")])
                .assert()
                .success();
            let freq = |name: &str| {
                let path = dir.path().join(name).join(format!("{stem}-{n}.freq.txt"));
                std::fs::read(path).unwrap()
            };
            assert_eq!(freq("each"), freq("whole"), "{game} to 2^{k} + 1");
        }
    }
}

/// A value that only splits past the head could decide (`.6` at 1,697,097, a rare value
/// below its mex excluded only by a split of two heaps between head and tail: a window of 2^18
/// suggests 2^19, which suggests 2^20, which decides every value), a game without sparse space
/// by the window's start, and a window asked of a run that writes its table or keeps it whatever
/// its formats: one line each.
#[test]
fn what_a_window_cannot_do_is_one_line() {
    let refused = |args: &str, want: &str| {
        assert_error(&args.split(' ').collect::<Vec<_>>(), 2, want);
    };
    let officers =
        |window: &str| format!("grundy octal:0.6 -n 2^21 -f json --window {window} -o -");
    for (window, head, suggested) in [
        ("2^18", 131072, "524288 (2^19"),
        ("2^19", 262144, "1048576 (2^20"),
    ] {
        refused(
            &officers(window),
            &format!(
                "the value of heap 1697097 needs splits past the {head} smallest heaps this run keeps (it keeps no table); give a larger --window such as {suggested}: twice the heaps; one of 2097152 keeps them all and always decides)"
            ),
        );
    }
    let dir = tempfile::tempdir().unwrap();
    nimsieve(dir.path())
        .args(officers("2^20").split(' '))
        .assert()
        .success();
    refused(
        "grundy octal:0.104 -n 2^20 -f freq --window 2^18 -o -",
        "show no sparse space",
    );
    refused(
        "grundy octal:0.167 -n 2^20 -f json,csv --window 2^18",
        "--window 2^18: a window applies to grundy runs that write only json and freq",
    );
    refused(
        "ppos octal:0.167 -n 2^20 -f json --window 2^18",
        "a window applies to grundy runs",
    );
    refused(
        "grundy octal:0.167 -n 2^20 -f json --window 2^18 --freq-each-power",
        "--freq-each-power writes the frequency files of a run that keeps no table",
    );
    refused(
        "grundy octal:0.167 -n 2^20 -f json --window 1000",
        "of at least 262144 (2^18) positions",
    );
    // A run that would keep its whole table past the window whatever its formats.
    refused(
        "grundy squares -n 2^20 -f json --window 2^18",
        "--window 2^18: squares on the value-layers engine keeps its whole table (only take-and-break games on the rare-values engine keep a window); leave --window out",
    );
    refused(
        "grundy octal:0.167 -n 2^20 -f json --window 2^18 --engine reference",
        "octal:0.167 on the reference engine keeps its whole table",
    );
    refused(
        "grundy octal:0.167 -n 2^20 -f json --window 2^18 --until-period",
        "--window 2^18: a run with --until-period keeps its whole table (its period is proven from it); leave --window or --until-period out",
    );
    // A window the run does not reach is let be: the table is whole anyway.
    nimsieve(dir.path())
        .args("grundy squares -n 2^18 -f json --window 2^18 -o -".split(' '))
        .assert()
        .success();
}

/// The checkpoint `saved` of a run that keeps no table with `more` P-positions counted, and its
/// checksum made again.
fn with_more_p_positions(saved: &[u8], more: u64) -> Vec<u8> {
    let line = saved.iter().position(|&b| b == b'\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_slice(&saved[..line]).unwrap();
    let p_count = &mut header["consumer"]["p_count"];
    *p_count = (p_count.as_u64().unwrap() + more).into();
    let mut bytes = serde_json::to_vec(&header).unwrap();
    bytes.extend_from_slice(&saved[line..saved.len() - 4]);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

/// A run that keeps no table, killed (SIGKILL) or stopped (SIGTERM) past its window's start,
/// goes on with `--resume` from its last checkpoint and writes the summary and frequency table
/// of an uninterrupted run (and the frequency files of the powers of two it passes); a damaged checkpoint or one of another window is refused in one
/// line, and the checkpoint is gone once the outputs are written.
#[test]
fn a_run_that_keeps_no_table_resumes_from_its_window() {
    use crate::support::resumable::{command, refusal, run, signal, succeeded, wait_for};
    let dir = tempfile::tempdir().unwrap();
    let args = ["grundy", "octal:0.167", "-n", "2^25", "-f", "json,freq"];
    let window = [
        "--window",
        "2^19",
        "--resume",
        "--checkpoint-every",
        "1",
        "--freq-each-power",
    ];
    succeeded(&run(dir.path(), &args, "whole", &["--window", "2^19"]));
    let stem = "octal_0.167-33554432";
    let state = dir.path().join(format!("resumed/{stem}.window.state.json"));
    for how in ["-KILL", "-TERM"] {
        let mut child = command(dir.path(), &args, "resumed", &window)
            .spawn()
            .unwrap();
        wait_for(&state, &mut child);
        signal(&child, how);
        let status = child.wait().unwrap();
        assert!(!status.success(), "{how}");
        assert!(state.exists(), "{how} keeps the checkpoint");
    }
    // A checkpoint of another window, and a damaged one, are refused.
    let other = refusal(&run(
        dir.path(),
        &args,
        "resumed",
        &["--window", "2^20", "--resume"],
    ));
    assert!(other.contains("not to this run"), "{other}");
    let modulus = ["--window", "2^19", "--resume", "--mod", "7"];
    let modulus = refusal(&run(dir.path(), &args, "resumed", &modulus));
    assert!(modulus.contains("another modulus"), "{modulus}");
    let saved = std::fs::read(&state).unwrap();
    let mut damaged = saved.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 1;
    std::fs::write(&state, &damaged).unwrap();
    let refused = refusal(&run(dir.path(), &args, "resumed", &window));
    assert!(refused.contains("is damaged"), "{refused}");
    let file = |folder: &str, ext: &str| dir.path().join(folder).join(format!("{stem}.{ext}"));
    // The statistics come from the checkpoint: 1,000 more P-positions written into it (with
    // its checksum) are 1,000 more in the summary.
    std::fs::write(&state, with_more_p_positions(&saved, 1000)).unwrap();
    succeeded(&run(dir.path(), &args, "resumed", &window));
    let p_count = |folder| summary(&file(folder, "json"))["p_count"].as_u64().unwrap();
    assert_eq!(p_count("resumed"), p_count("whole") + 1000);
    std::fs::write(&state, &saved).unwrap();
    succeeded(&run(dir.path(), &args, "resumed", &window));
    assert!(!state.exists());
    assert_eq!(
        summary(&file("whole", "json")),
        summary(&file("resumed", "json"))
    );
    let freq = |folder| std::fs::read(file(folder, "freq.txt")).unwrap();
    assert_eq!(freq("whole"), freq("resumed"));
    // The frequency file of 2^24 + 1, written as the resumed runs passed it, holds the same
    // blocks as the whole run's to 2^25.
    let passed = dir.path().join("resumed/octal_0.167-16777217.freq.txt");
    assert_eq!(std::fs::read(passed).unwrap(), freq("whole"));
}
