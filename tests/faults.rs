//! Fault injection on the resumable engines: runs killed with SIGKILL and resumed, damaged
//! checkpoints and work files, concurrent runs on one work file, edited set files, SIGTERM, a
//! run killed while writing its outputs (also one stopped at its proven period), interrupts
//! while writing outputs, sweeps and merges, and a disk that fills up. Every case must end in a
//! correct table (byte-identical to an uninterrupted run) or a one-line error. The full-disk
//! tests run on a small tmpfs, mounted where the tests may (as root); elsewhere they say they
//! are skipped, except when the environment variable CI is set, where they must run.

#[path = "support/running.rs"]
mod running;
use running::wait_for_computed_positions;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

/// A resumable run: its arguments (without -o), its work file and its table file.
struct Case {
    args: &'static [&'static str],
    work: &'static str,
    table: &'static str,
}

/// One case for each resumable engine, each a run of a second or two; the rare-values engine
/// twice, in blocks (Grundy's game) and position by position (`.1777`, whose rare positions
/// all lie within a block).
const CASES: [Case; 6] = [
    Case {
        args: &["ppos", "squares", "-n", "2^25", "-f", "u64"],
        work: "squares-33554432-ppos.bits",
        table: "squares-33554432-ppos.u64",
    },
    Case {
        args: &["grundy", "primes", "-n", "2e7", "-f", "bin"],
        work: "primes-20000000.values",
        table: "primes-20000000.bin",
    },
    Case {
        args: &["grundy", "proper-divisors", "-n", "2e7", "-f", "bin"],
        work: "proper-divisors-20000000.values",
        table: "proper-divisors-20000000.bin",
    },
    Case {
        args: &["grundy", "squares", "-n", "2^22", "-f", "bin"],
        work: "squares-4194304.values",
        table: "squares-4194304.bin",
    },
    Case {
        args: &["grundy", "grundys-game", "-n", "2^18", "-f", "bin"],
        work: "grundys-game-262144.values",
        table: "grundys-game-262144.bin",
    },
    Case {
        args: &["grundy", "octal:0.1777", "-n", "3e7", "-f", "bin"],
        work: "octal_0.1777-30000000.values",
        table: "octal_0.1777-30000000.bin",
    },
];

fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("nimsieve")
}

/// `nimsieve ARGS… -q -o FOLDER/` in `dir`, with `extra` arguments.
fn command(dir: &Path, args: &[&str], folder: &str, extra: &[&str]) -> Command {
    let mut cmd = Command::new(binary());
    cmd.current_dir(dir)
        .args(args)
        .args(["-q", "-o", &format!("{folder}/")])
        .args(extra);
    cmd
}

fn run(dir: &Path, args: &[&str], folder: &str, extra: &[&str]) -> Output {
    command(dir, args, folder, extra).output().unwrap()
}

/// The one line of a refused run, checked to be one line with the project's prefix and exit 2.
fn refusal(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "expected a refusal: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("nimsieve: error: "), "{stderr}");
    stderr
}

fn succeeded(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The table of an uninterrupted run, in memory.
fn reference(dir: &Path, case: &Case) -> Vec<u8> {
    succeeded(&run(dir, case.args, "reference", &[]));
    std::fs::read(dir.join("reference").join(case.table)).unwrap()
}

/// Waits until `path` exists (the run got that far), failing after a minute.
fn wait_for(path: &Path, child: &mut Child) {
    let started = Instant::now();
    while !path.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before {} appeared",
            path.display()
        );
        assert!(started.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// The checkpoint's fields.
fn checkpoint(state: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(state).unwrap();
    serde_json::from_str::<serde_json::Value>(&text).unwrap()["checkpoint"].clone()
}

/// Runs `case` into `work/` with a checkpoint at every stop and kills it with SIGKILL once it
/// has saved a checkpoint with some positions done; keeps a copy of its files in `snapshot/`.
fn killed_midway(dir: &Path, case: &Case) {
    let work = dir.join("work");
    let state = work.join(format!("{}.state.json", case.work));
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
    while checkpoint(&state)["done"].as_u64().unwrap_or(0) == 0 {
        assert!(started.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(2));
    }
    signal(&child, "-KILL");
    assert_eq!(child.wait().unwrap().code(), None, "killed by a signal");
    assert!(
        !work.join(case.table).exists(),
        "killed before the outputs were written"
    );
    copy_files(&work, &dir.join("snapshot"), case);
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
        assert_eq!(std::fs::read(work_table()).unwrap(), want, "{label}");
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
            assert_eq!(std::fs::read(work_table()).unwrap(), want, "{label}");
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
        assert_eq!(std::fs::read(work_table()).unwrap(), want, "{label}");
    }
}

#[test]
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
    assert_eq!(
        std::fs::read(dir.join("work").join(case.table)).unwrap(),
        want
    );
    assert!(!lock.exists(), "the lock file is removed");
    // A lock file left by a killed run does not block the next one.
    let mut killed = command(dir, case.args, "work", &["--resume"])
        .spawn()
        .unwrap();
    wait_for(&lock, &mut killed);
    signal(&killed, "-KILL");
    killed.wait().unwrap();
    succeeded(&run(dir, case.args, "work", &["--resume"]));
    assert_eq!(
        std::fs::read(dir.join("work").join(case.table)).unwrap(),
        want
    );
}

#[test]
fn sigterm_saves_a_checkpoint_like_ctrl_c() {
    stopped_then_resumed(&CASES[1], &[], &["-TERM"]);
}

#[test]
fn a_second_ctrl_c_ends_at_once_and_keeps_the_last_checkpoint() {
    // The first asks the engine to save and stop; the second, while it saves, ends the
    // process at once. Either way the one line says what is kept: here a checkpoint saved
    // before the first (with none yet, the line says nothing is saved, and the work file goes).
    stopped_then_resumed(&CASES[4], &["--checkpoint-every", "0"], &["-INT", "-INT"]);
}

/// Sends `signals` to a file-backed run of `case` (with `extra` arguments) once it has
/// computed positions, and saved a checkpoint when it saves them at every stop; checks that it
/// ends with exit code 130 and one line saying what is saved, and that `--resume` then writes
/// the same table as an uninterrupted run.
fn stopped_then_resumed(case: &Case, extra: &[&str], signals: &[&str]) {
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
    for name in signals {
        signal(&child, name);
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("saved; run the same command with --resume to continue"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    succeeded(&run(dir, case.args, "work", &["--resume"]));
    assert_eq!(
        std::fs::read(dir.join("work").join(case.table)).unwrap(),
        want
    );
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
    assert_eq!(
        std::fs::read(dir.join("work").join(case.table)).unwrap(),
        want
    );
}

#[test]
fn a_run_killed_while_writing_keeps_its_table_and_the_next_run_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let case = &CASES[2];
    let want = reference(dir, case);
    // Writing into a FIFO that nobody reads blocks after the table is complete.
    let output = dir.join("output");
    std::fs::create_dir(&output).unwrap();
    let fifo = output.join("blocked.bin");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
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
    assert_eq!(std::fs::read(output.join(case.table)).unwrap(), want);
    assert!(!stale.exists(), "the stale temporary file is removed");
    assert!(!output.join(case.work).exists());
}

#[test]
fn a_disk_that_fills_up_during_a_run_ends_in_a_right_table_or_one_line() {
    let Some(small) = SmallDisk::mount(48) else {
        return;
    };
    let case = &CASES[2];
    let elsewhere = tempfile::tempdir().unwrap();
    let want = reference(elsewhere.path(), case);
    let dir = small.path();
    let disk = dir.to_path_buf();
    let folder = "run";

    // The work file (20 MB) is reserved at the start; the disk is then filled by another
    // process, so only the 20 MB output cannot be written.
    let mut child = command(dir, case.args, folder, &["--resume"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&disk.join("run").join(case.work), &mut child);
    let filler = disk.join("filler");
    let _ = Command::new("dd")
        .args(["if=/dev/zero", "bs=1M", "count=64"])
        .arg(format!("of={}", filler.display()))
        .stderr(std::process::Stdio::null())
        .status();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => assert_eq!(
            std::fs::read(disk.join("run").join(case.table)).unwrap(),
            want
        ),
        Some(1) => {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains("No space left"), "{stderr}");
            assert!(!disk.join("run").join(case.table).exists());
        }
        // The filler won the race with the reservation (the work file exists, empty, while
        // the free space is checked): refused before computing, in one line.
        Some(2) => {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains("are free"), "{stderr}");
            assert!(!disk.join("run").join(case.table).exists());
        }
        other => panic!("exit {other:?}: {stderr}"),
    }
    std::fs::remove_file(&filler).unwrap();
    succeeded(&run(dir, case.args, folder, &["--resume"]));
    assert_eq!(
        std::fs::read(disk.join("run").join(case.table)).unwrap(),
        want
    );

    // A table larger than the disk is refused before computing; a work file left by an
    // earlier run counts as free space, since it is replaced.
    let big = ["grundy", "proper-divisors", "-n", "6e7", "-f", "json"];
    let line = refusal(&run(dir, &big, folder, &["--resume"]));
    assert!(line.contains("GiB are free"), "{line}");
    std::fs::remove_file(disk.join("run").join(case.table)).unwrap();
    let leftover = disk.join("run").join(case.work);
    std::fs::write(&leftover, vec![1u8; 30 << 20]).unwrap();
    succeeded(&run(dir, case.args, folder, &["--resume", "-f", "json"]));
}

/// A small tmpfs mounted on a new folder, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// A disk of `megabytes`, or None (after saying so) where mounting is not allowed.
    fn mount(megabytes: u32) -> Option<SmallDisk> {
        let dir = tempfile::tempdir().unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(dir.path())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if mounted {
            return Some(SmallDisk { dir });
        }
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must be able to mount a tmpfs (run as root)"
        );
        println!("skipped: cannot mount a tmpfs here (needs root)");
        None
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

/// Runs nimsieve in `dir` and checks it fails with exit code 1 and one line naming the full
/// disk; returns that line.
fn fails_for_lack_of_space(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(binary())
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{args:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        stderr.starts_with("nimsieve: error: "),
        "{args:?}: {stderr}"
    );
    let reason = std::io::Error::from_raw_os_error(28).to_string();
    assert!(stderr.contains(&reason), "{args:?}: {stderr}");
    stderr
}

#[test]
fn xlsx_scratch_files_on_a_full_disk_are_an_io_error() {
    let Some(disk) = SmallDisk::mount(2) else {
        return;
    };
    // A million rows need some 70 MB of scratch files beside the output.
    let line = fails_for_lack_of_space(
        disk.path(),
        &["grundy", "nim", "-n", "1e6", "-f", "xlsx", "-o", "t.xlsx"],
    );
    assert!(
        line.contains("cannot write 't.xlsx': writing a scratch file in"),
        "{line}"
    );
    // To standard output, the scratch files go to output/ (here on the small disk too).
    fails_for_lack_of_space(
        disk.path(),
        &["grundy", "nim", "-n", "1e6", "-f", "xlsx", "-o", "-"],
    );
    // Nothing is left behind but the empty output folder.
    let left: Vec<_> = std::fs::read_dir(disk.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["output"]);
    assert_eq!(
        std::fs::read_dir(disk.path().join("output"))
            .unwrap()
            .count(),
        0
    );
}

#[test]
fn text_tables_on_a_full_disk_are_an_io_error() {
    let Some(disk) = SmallDisk::mount(2) else {
        return;
    };
    fails_for_lack_of_space(
        disk.path(),
        &["grundy", "nim", "-n", "1e6", "-f", "csv,bfile", "-q"],
    );
    assert_eq!(
        std::fs::read_dir(disk.path().join("output"))
            .unwrap()
            .count(),
        0
    );
}

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
        let want = std::fs::read(dir.join("reference").join(table)).unwrap();
        // Writing into a FIFO that nobody reads blocks once the table is complete.
        let output = dir.join("output");
        std::fs::create_dir(&output).unwrap();
        let fifo = output.join("blocked.bin");
        assert!(
            Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
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
        assert_eq!(std::fs::read(output.join(table)).unwrap(), want);
        assert_eq!(names_in(&output).len(), 1, "only the table is left");
    }
}
