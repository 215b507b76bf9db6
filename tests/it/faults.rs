//! Fault injection on the resumable engines: runs killed with SIGKILL and resumed, damaged
//! checkpoints and work files, concurrent runs on one work file, edited set files, SIGTERM and
//! Ctrl-C, and a run killed while writing its outputs. Every case must end in a correct table
//! (byte-identical to an uninterrupted run) or a one-line error. Interrupts while writing are
//! in `interrupted_writes.rs`, a disk that fills up in `full_disk.rs`.

use crate::support::provenance::table_bytes;
use crate::support::running;
use running::wait_for_computed_positions;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::support::resumable;
use resumable::*;

use crate::support::fifo;
use fifo::make_fifo;

/// Runs `case` into `work/` with a checkpoint at every stop and kills it with SIGKILL once it
/// has saved a checkpoint with some but not all positions done; keeps a copy of its files in
/// `snapshot/`. A run that finishes before the kill lands (a loaded machine can starve the
/// polling) is run again, up to five times.
fn killed_midway(dir: &Path, case: &Case) {
    let work = dir.join("work");
    let state = work.join(format!("{}.state.json", case.work));
    for _ in 0..5 {
        let _ = std::fs::remove_dir_all(&work);
        let mut child = command(
            dir,
            case.args,
            "work",
            &["--resume", "--checkpoint-every", "0"],
        )
        .spawn()
        .unwrap();
        wait_for(&state, &mut child);
        let started = Instant::now();
        // Whether the first checkpoint with positions done left some to do; None when the run
        // ended first.
        let midway = loop {
            let saved = std::fs::read_to_string(&state).ok();
            let saved = saved.and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
            let field = |name: &str| saved.as_ref().and_then(|s| s["checkpoint"][name].as_u64());
            if let (Some(done @ 1..), Some(n)) = (field("done"), field("n")) {
                break Some(done < n);
            }
            if child.try_wait().unwrap().is_some() {
                break None;
            }
            assert!(started.elapsed() < Duration::from_secs(60));
            std::thread::sleep(Duration::from_millis(2));
        };
        if midway.is_none() {
            continue;
        }
        signal(&child, "-KILL");
        // Killed, or ended in the moment before (then its files are gone and it runs again).
        let _ = child.wait();
        // Killed before the outputs were written, its work file and checkpoint kept.
        let kept = work.join(case.work).exists() && state.exists();
        if midway == Some(true) && kept && !work.join(case.table).exists() {
            copy_files(&work, &dir.join("snapshot"), case);
            return;
        }
    }
    panic!(
        "{:?} finished before it could be killed midway, five times",
        case.args
    );
}

fn copy_files(from: &Path, to: &Path, case: &Case) {
    std::fs::create_dir_all(to).unwrap();
    for name in [case.work.to_string(), format!("{}.state.json", case.work)] {
        std::fs::copy(from.join(&name), to.join(&name)).unwrap();
    }
}

/// Puts the snapshot back into `work/`, changes it with `damage`, and resumes.
fn resume_after(dir: &Path, case: &Case, damage: impl FnOnce(&Path, &Path)) -> Output {
    let work = dir.join("work");
    copy_files(&dir.join("snapshot"), &work, case);
    damage(
        &work.join(case.work),
        &work.join(format!("{}.state.json", case.work)),
    );
    run(dir, case.args, "work", &["--resume"])
}

fn flip_byte(path: &Path, at: u64) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[at as usize] ^= 0x10;
    std::fs::write(path, bytes).unwrap();
}

fn edit(path: &Path, change: impl FnOnce(String) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    std::fs::write(path, change(text)).unwrap();
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn killed_runs_resume_exactly_and_every_damage_is_refused() {
    for case in &CASES {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let want = reference(dir, case);
        killed_midway(dir, case);
        let saved = checkpoint(
            &dir.join("snapshot")
                .join(format!("{}.state.json", case.work)),
        );
        let (done, bits, n) = (
            saved["done"].as_u64().unwrap(),
            saved["bits"].as_u64().unwrap(),
            saved["n"].as_u64().unwrap(),
        );
        let final_bytes = done * bits / 8;
        let label = case.args.join(" ");
        let work_table = || dir.join("work").join(case.table);

        // Untouched: the resumed table equals the uninterrupted one.
        succeeded(&resume_after(dir, case, |_, _| {}));
        assert_eq!(table_bytes(&work_table()), want, "{label}");
        assert!(!dir.join("work").join(case.work).exists(), "{label}");

        // Bytes after the finished part do not matter: they are cleared on resume.
        let size = std::fs::metadata(dir.join("snapshot").join(case.work))
            .unwrap()
            .len();
        if final_bytes + 1 < size {
            let out = resume_after(dir, case, |table, _| {
                flip_byte(table, final_bytes + 1);
                flip_byte(table, size - 1);
            });
            succeeded(&out);
            assert_eq!(table_bytes(&work_table()), want, "{label}");
        }

        // Every change to the finished part, the file's size or the checkpoint is refused.
        for at in [0, final_bytes / 2, final_bytes.saturating_sub(1)] {
            let out = resume_after(dir, case, |table, _| flip_byte(table, at));
            let line = refusal(&out);
            assert!(
                line.contains("was changed after its checkpoint"),
                "{label}: {line}"
            );
        }
        let resized: [fn(&Path, u64); 2] = [
            |table, size| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(table)
                    .unwrap()
                    .set_len(size - 8)
                    .unwrap()
            },
            |table, size| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(table)
                    .unwrap()
                    .set_len(size + 8)
                    .unwrap()
            },
        ];
        for resize in resized {
            refusal(&resume_after(dir, case, |table, _| resize(table, size)));
        }
        let edits: [(&str, String); 5] = [
            ("\"done\":", format!("\"done\":{},\"x\":", done + 1)),
            ("\"done\":", format!("\"done\":{n},\"x\":")),
            ("\"bits\":", format!("\"bits\":{},\"x\":", bits * 2)),
            ("\"n\":", format!("\"n\":{},\"x\":", n + 1)),
            ("\"crc32\":", "\"crc32\":1,\"x\":".to_string()),
        ];
        for (field, replacement) in edits {
            let out = resume_after(dir, case, |_, state| {
                edit(state, |text| text.replacen(field, &replacement, 1))
            });
            refusal(&out);
        }
        for garbage in ["", "{", "{\"checkpoint\":{}}", "[1,2]"] {
            let out = resume_after(dir, case, |_, state| {
                std::fs::write(state, garbage).unwrap()
            });
            refusal(&out);
        }
        // Without --resume the run starts over and is right.
        copy_files(&dir.join("snapshot"), &dir.join("work"), case);
        succeeded(&run(dir, case.args, "work", &[]));
        assert_eq!(table_bytes(&work_table()), want, "{label}");
    }
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn a_second_run_on_the_same_work_file_is_refused_and_the_first_stays_right() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let case = &CASES[2];
    let want = reference(dir, case);
    let mut first = command(dir, case.args, "work", &["--resume"])
        .spawn()
        .unwrap();
    let lock = dir.join("work").join(format!("{}.lock", case.work));
    wait_for(&lock, &mut first);
    // The same command, and another output of the same game and n in the same folder.
    let mut csv = case.args.to_vec();
    csv.truncate(csv.len() - 2);
    for (args, extra) in [
        (case.args, vec!["--resume"]),
        (&csv[..], vec!["-f", "csv", "--resume"]),
    ] {
        let line = refusal(&run(dir, args, "work", &extra));
        assert!(
            line.contains(&format!(
                "in use by another nimsieve run (pid {}",
                first.id()
            )),
            "{line}"
        );
    }
    assert!(first.wait().unwrap().success());
    assert_eq!(table_bytes(&dir.join("work").join(case.table)), want);
    assert!(!lock.exists(), "the lock file is removed");
    // A lock file left by a killed run does not block the next one.
    let mut killed = command(dir, case.args, "work", &["--resume"])
        .spawn()
        .unwrap();
    wait_for(&lock, &mut killed);
    signal(&killed, "-KILL");
    killed.wait().unwrap();
    succeeded(&run(dir, case.args, "work", &["--resume"]));
    assert_eq!(table_bytes(&dir.join("work").join(case.table)), want);
}

#[test]
fn sigterm_saves_a_checkpoint_like_ctrl_c() {
    stopped_then_resumed(&CASES[1], &[], &["-TERM"], Duration::ZERO);
}

#[test]
fn two_signals_at_once_save_a_checkpoint_like_one() {
    // `timeout` sends its signal to the command and again to the command's process group:
    // the two count as one, so the run saves its positions (no checkpoint is due yet after a
    // few seconds) rather than end at once with nothing saved.
    let line = stopped_then_resumed(&CASES[1], &[], &["-TERM", "-TERM"], Duration::ZERO);
    assert!(line.contains(" positions are saved; "), "{line}");
}

#[test]
fn a_second_ctrl_c_ends_at_once_and_keeps_the_last_checkpoint() {
    // The first asks the engine to save and stop; the second, half a second later and while it
    // saves, ends the process at once. Either way the one line says what is kept: here a
    // checkpoint saved before the first (with none yet, the line says nothing is saved, and
    // the work file goes).
    stopped_then_resumed(
        &CASES[4],
        &["--checkpoint-every", "0"],
        &["-INT", "-INT"],
        Duration::from_millis(600),
    );
}

/// Sends `signals`, `pause` apart, to a file-backed run of `case` (with `extra` arguments)
/// once it has computed positions, and saved a checkpoint when it saves them at every stop;
/// checks that it ends with exit code 130 and one line saying what is saved, and that
/// `--resume` then writes the same table as an uninterrupted run. Returns that line.
fn stopped_then_resumed(case: &Case, extra: &[&str], signals: &[&str], pause: Duration) -> String {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let want = reference(dir, case);
    let mut child = command(dir, case.args, "work", &[&["--resume"], extra].concat())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_computed_positions(&dir.join("work").join(case.work), &mut child);
    if extra.contains(&"--checkpoint-every") {
        wait_for(
            &dir.join("work").join(format!("{}.state.json", case.work)),
            &mut child,
        );
    }
    for (i, name) in signals.iter().enumerate() {
        if i > 0 {
            std::thread::sleep(pause);
        }
        signal(&child, name);
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("saved; run the same command with --resume to continue"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    succeeded(&run(dir, case.args, "work", &["--resume"]));
    assert_eq!(table_bytes(&dir.join("work").join(case.table)), want);
    stderr
}

#[test]
fn a_set_file_edited_before_resume_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    std::fs::create_dir(dir.join("a")).unwrap();
    let moves = dir.join("a/moves.txt");
    std::fs::write(&moves, "1\n4\n9\n16\n25\n36\n49\n").unwrap();
    let case = Case {
        args: &["ppos", "set-file:a/moves.txt", "-n", "2^27", "-f", "bin"],
        work: "set-file_moves-134217728-ppos.bits",
        table: "set-file_moves-134217728-ppos.bin",
    };
    let want = reference(dir, &case);
    killed_midway(dir, &case);
    std::fs::write(&moves, "1\n9\n16\n25\n36\n49\n").unwrap();
    let line = refusal(&resume_after(dir, &case, |_, _| {}));
    assert!(line.contains("the set file changed"), "{line}");
    std::fs::write(&moves, "1\n4\n9\n16\n25\n36\n49\n").unwrap();
    succeeded(&resume_after(dir, &case, |_, _| {}));
    assert_eq!(table_bytes(&dir.join("work").join(case.table)), want);
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn a_run_killed_while_writing_keeps_its_table_and_the_next_run_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let case = &CASES[2];
    let want = reference(dir, case);
    // Writing into a FIFO that nobody reads blocks after the table is complete.
    let output = dir.join("output");
    std::fs::create_dir(&output).unwrap();
    let fifo = output.join("blocked.bin");
    make_fifo(&fifo);
    let mut args = case.args.to_vec();
    args.extend(["-q", "--resume", "-o", "output/blocked.bin"]);
    let mut child = Command::new(binary())
        .current_dir(dir)
        .args(&args)
        .spawn()
        .unwrap();
    let state = output.join(format!("{}.state.json", case.work));
    let started = Instant::now();
    while !state.exists() || checkpoint(&state)["done"] != checkpoint(&state)["n"] {
        assert!(started.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(10));
    }
    signal(&child, "-KILL");
    child.wait().unwrap();
    // A temporary file left by a process that is gone.
    let mut gone = Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let stale = output.join(format!("{}.partial-{}", case.table, gone.id()));
    std::fs::write(&stale, "half a table").unwrap();

    let started = Instant::now();
    succeeded(&run(dir, case.args, "output", &["--resume"]));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the complete table is not recomputed"
    );
    assert_eq!(table_bytes(&output.join(case.table)), want);
    assert!(!stale.exists(), "the stale temporary file is removed");
    assert!(!output.join(case.work).exists());
}

/// Memory that runs out: under an address-space limit (`ulimit -v`, 200 MB), every kind of run
/// that needs more ends with one line and no abort, and leaves no work file, lock or temporary
/// file; tables reserved before a run name what needed the memory. Those that fit still finish.
#[test]
fn memory_that_runs_out_ends_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[&[&str]] = &[
        &["grundy", "kayles", "-n", "1e8"],
        &["grundy", "nim", "-n", "1e8"],
        &["grundy", "half", "-n", "1e8"],
        &["grundy", "allbut:1,2", "-n", "1e8"],
        &["grundy", "octal:0.137", "-n", "1e8"],
        &["grundy", "squares", "-n", "1e8", "-f", "json"],
        &["grundy", "divisors", "-n", "134217727", "-f", "json"],
        &["grundy", "kayles", "-n", "1e9", "-f", "json"],
        &["grundy", "sub:1,3,4", "-n", "1e9", "-f", "json"],
        // 4·10^8 cells, file-backed (1.5 GiB): past the limit, yet within the free disk of a
        // small machine, whose check comes first (1e5 needed 37 GiB free).
        &["grundy", "wythoff", "-n", "2e4", "-f", "json"],
        &["ppos", "kayles", "-n", "1e8"],
        &["ppos", "squares", "-n", "3e9"],
        &["misere", "octal:0.06", "-n", "1000", "--max-size", "1e9"],
        &["sweep", "octal2", "-n", "1e8"],
    ];
    for args in cases {
        let script = format!(
            "ulimit -v 200000 && exec \"$0\" \"$@\" -o out/{} 2>&1",
            if args[0] == "misere" { "q.json" } else { "" }
        );
        let out = Command::new("sh")
            .current_dir(dir.path())
            .arg("-c")
            .arg(&script)
            .arg(binary())
            .args(*args)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            matches!(out.status.code(), Some(1 | 2)),
            "{args:?}: {:?} {text}",
            out.status
        );
        assert_eq!(text.lines().count(), 1, "{args:?}: {text}");
        assert!(text.starts_with("nimsieve: error: "), "{args:?}: {text}");
        assert!(text.contains("memory"), "{args:?}: {text}");
        let left: Vec<_> = std::fs::read_dir(dir.path().join("out"))
            .map(|entries| entries.map(|e| e.unwrap().file_name()).collect())
            .unwrap_or_default();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
}
