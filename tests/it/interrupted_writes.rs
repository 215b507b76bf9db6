//! Interrupts and kills while a run writes its outputs: an evaluation, a table, a sweep and a
//! merge end with one line and all or nothing, leave no temporary file, and a run stopped at
//! its period and killed while writing resumes to the same bytes.

use crate::support::provenance::table_bytes;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::resumable;
use resumable::*;

use crate::support::fifo;
use fifo::make_fifo;

#[test]
fn an_interrupted_evaluation_leaves_no_files() {
    // Grundy's game has no period, so a heap of 3·10^8 needs a mapped table in output/.
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimsieve"))
        .args(["eval", "grundys-game", "300000000", "-q"])
        .current_dir(dir.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(
        &dir.path().join("output/grundys-game-300000001.values"),
        &mut child,
    );
    // Until the engine polls for interrupts, Ctrl-C exits at once and removes the work file; a
    // moment later the engine stops at its next step and the evaluation removes it.
    std::thread::sleep(Duration::from_secs(2));
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        !stderr.contains("--resume"),
        "nothing resumes an evaluation: {stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path().join("output"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The names of the files in `folder`.
fn names_in(folder: &Path) -> std::collections::BTreeSet<String> {
    std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect()
}

/// Runs `nimsieve ARGS… -q -o FOLDER/` in `dir` and sends `signal` once a file whose name
/// contains `writing` is being written in `folder`. Checks that the run ends
/// with exit code 130 and one line, leaves no temporary file and no lock, and that the line is
/// true: `folder` holds, besides the files `before` it, exactly the files the line says were
/// written, and the work file `work` with its checkpoint when it says the table is saved.
/// Returns the line.
fn interrupted_at(
    dir: &Path,
    args: &[&str],
    folder: &str,
    writing: &str,
    signal_name: &str,
    work: Option<&str>,
) -> String {
    let path = dir.join(folder);
    std::fs::create_dir_all(&path).unwrap();
    let before = names_in(&path);
    let mut cmd = if args[0] == "sweep-merge" {
        let mut cmd = Command::new(binary());
        cmd.current_dir(dir).args(args).args(["-q", folder]);
        cmd
    } else {
        command(dir, args, folder, &[])
    };
    let mut child = cmd.stderr(std::process::Stdio::piped()).spawn().unwrap();
    // A file being written is there at two looks 10 ms apart (unlike the empty file that
    // checks, before the run, that the output can be written).
    let started = Instant::now();
    let writes = || -> std::collections::BTreeSet<String> {
        let names = names_in(&path);
        names
            .into_iter()
            .filter(|name| name.contains(writing))
            .collect()
    };
    loop {
        let seen = writes();
        std::thread::sleep(Duration::from_millis(10));
        if seen.intersection(&writes()).next().is_some() {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended before writing {writing}"
        );
        assert!(started.elapsed() < Duration::from_secs(60));
    }
    signal(&child, signal_name);
    let out = child.wait_with_output().unwrap();
    let line = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "{args:?} {signal_name}: {line}"
    );
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(line.starts_with("nimsieve: error: interrupted: "), "{line}");
    let left: std::collections::BTreeSet<String> =
        names_in(&path).difference(&before).cloned().collect();
    // The quoted paths are the files the line says were written.
    let mut said: std::collections::BTreeSet<String> = line
        .split('\'')
        .skip(1)
        .step_by(2)
        .map(|p| {
            Path::new(p)
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        })
        .collect();
    if line.contains("the table is complete and saved; run the same command with --resume") {
        let work = work.expect("only a run with a work file keeps it");
        said.extend([work.to_string(), format!("{work}.state.json")]);
    } else if said.is_empty() {
        assert!(line.contains("nothing of this run is saved"), "{line}");
    }
    assert_eq!(left, said, "{args:?} {signal_name}: {line}");
    line
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn an_interrupt_while_writing_leaves_no_temporary_file_and_says_what_is_kept() {
    let work = "proper-divisors-20000000.values";
    let cases: [(&[&str], &str, Option<&str>); 5] = [
        // In memory: the CSV is written, the b-file is being written.
        (
            &["grundy", "sub:1,3,4", "-n", "3e7", "-f", "csv,bfile"],
            ".txt.partial-",
            None,
        ),
        (
            &["grundy", "nim", "-n", "1e6", "-f", "xlsx"],
            ".partial-",
            None,
        ),
        (
            &["ppos", "wythoff", "-n", "1e9", "-f", "csv"],
            ".partial-",
            None,
        ),
        // A work file without a checkpoint (a non-resumable engine) goes with its lock.
        (
            &["grundy", "sub:1,3,4", "-n", "2^27", "-f", "bfile"],
            ".partial-",
            None,
        ),
        // A complete checkpointed table is kept, its lock is not.
        (
            &[
                "grundy",
                "proper-divisors",
                "-n",
                "2e7",
                "-f",
                "csv",
                "--resume",
            ],
            ".partial-",
            Some(work),
        ),
    ];
    for (args, writing, work) in cases {
        for signal_name in ["-INT", "-TERM"] {
            let dir = tempfile::tempdir().unwrap();
            interrupted_at(dir.path(), args, "d", writing, signal_name, work);
        }
    }
    // What the line promises: --resume writes the outputs from the saved table.
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let args = cases[4].0;
    let line = interrupted_at(dir, args, "d", ".partial-", "-INT", Some(work));
    assert!(line.contains("to write the outputs"), "{line}");
    succeeded(&run(dir, args, "d", &[]));
    assert_eq!(names_in(&dir.join("d")).len(), 1, "the CSV alone");
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn sweeps_and_merges_end_on_an_interrupt_with_one_line_and_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let sweep = ["sweep", "sub3:80"];
    // A part of one shard, merged while interrupted: neither merged file is left.
    succeeded(&run(
        dir,
        &["sweep", "sub3:80", "--shard", "1/1"],
        "parts",
        &[],
    ));
    for signal_name in ["-INT", "-TERM"] {
        let line = interrupted_at(
            dir,
            &["sweep-merge"],
            "parts",
            "sweep-sub3_80.jsonl.partial-",
            signal_name,
            None,
        );
        assert!(line.contains("nothing of this run is saved"), "{line}");
        // Interrupted while computing, and while writing the JSON lines (the CSV is written).
        let folder = format!("sweep{signal_name}");
        let child = command(dir, &["sweep", "sub3:150"], &folder, &[])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        signal(&child, signal_name);
        let out = child.wait_with_output().unwrap();
        let line = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(130), "{line}");
        assert_eq!(
            line,
            "nimsieve: error: interrupted: nothing of this run is saved\n"
        );
        assert!(names_in(&dir.join(&folder)).is_empty());
        let line = interrupted_at(dir, &sweep, &folder, ".jsonl.partial-", signal_name, None);
        assert!(line.contains("sweep-sub3_80.csv' was written"), "{line}");
    }
}

#[test]
fn a_run_stopped_at_its_period_and_killed_while_writing_resumes_to_the_same_bytes() {
    // octal:0.16 proves its period (preperiod 105,351, period 149,459) at 509,622 positions.
    let args = [
        "grundy",
        "octal:0.16",
        "-n",
        "1e6",
        "--until-period",
        "-f",
        "bin",
    ];
    let work = "octal_0.16-1000000.values";
    // The table is named after the positions it holds; the work file after the request.
    let table = "octal_0.16-509622.bin";
    for signal_name in ["-KILL", "-INT"] {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        succeeded(&run(dir, &args, "reference", &[]));
        let want = table_bytes(&dir.join("reference").join(table));
        // Writing into a FIFO that nobody reads blocks once the table is complete.
        let output = dir.join("output");
        std::fs::create_dir(&output).unwrap();
        let fifo = output.join("blocked.bin");
        make_fifo(&fifo);
        let mut child = Command::new(binary())
            .current_dir(dir)
            .args(args)
            .args(["-q", "--resume", "-o", "output/blocked.bin"])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The one checkpoint of a run this short is the one saved when it is complete.
        let state = output.join(format!("{work}.state.json"));
        wait_for(&state, &mut child);
        signal(&child, signal_name);
        let out = child.wait_with_output().unwrap();
        let saved = checkpoint(&state);
        assert_eq!(saved["done"], 509_622, "the positions computed: {saved}");
        if signal_name == "-INT" {
            let line = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(130), "{line}");
            assert!(line.contains("the table is complete and saved"), "{line}");
        }
        std::fs::remove_file(&fifo).unwrap();
        let started = Instant::now();
        succeeded(&run(dir, &args, "output", &["--resume"]));
        assert!(started.elapsed() < Duration::from_secs(20));
        assert_eq!(table_bytes(&output.join(table)), want);
        assert_eq!(names_in(&output).len(), 1, "only the table is left");
    }
}
