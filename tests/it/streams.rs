//! Where runs end and write: Ctrl-C and `--resume` to identical outputs, symbolic links and
//! special files as outputs, and closed pipes on standard output and standard error.

use crate::support::provenance::table_bytes;
use std::path::Path;

use crate::support::command;
use command::{nimsieve, stdout_of};

use crate::support::running;
use running::wait_for_computed_positions;

use crate::support::fifo;
use fifo::make_fifo;

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
    make_fifo(&fifo);
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
        .map(|f| table_bytes(&output.join(f)))
        .collect();
    assert!(!output.join(work_file).exists(), "work file removed");
    assert!(
        !output.join(format!("{work_file}.state.json")).exists(),
        "checkpoint removed"
    );

    nimsieve(dir.path()).args(args).assert().success();
    for (file, bytes) in outputs.iter().zip(&resumed) {
        assert_eq!(&table_bytes(&output.join(file)), bytes, "{file}");
    }
    resumed
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
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
#[ignore = "slow: scripts/test.sh runs it"]
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
#[ignore = "slow: scripts/test.sh runs it"]
fn interrupted_value_layers_grundy_resumes_to_identical_output() {
    let args = [
        "grundy", "squares", "-n", "2^23", "-f", "bin,csv", "-q", "--resume",
    ];
    interrupt_and_resume(
        &args,
        &["squares-8388608.bin", "squares-8388608.csv"],
        "squares-8388608.values",
    );
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
        &["eval", "nim", "8", "12", "3", "9", "-f", "json"],
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
