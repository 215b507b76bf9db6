//! Runs on a disk that fills up: a run ends in a right table or one line naming the full disk,
//! for the work file, the outputs and the xlsx scratch files. The tests run on a small tmpfs,
//! mounted where the tests may (as root); elsewhere they say they are skipped, except when the
//! environment variable CI is set, where they must run.

use crate::support::provenance::table_bytes;
use std::path::Path;
use std::process::Command;

use crate::support::resumable;
use resumable::*;

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
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
        Some(0) => assert_eq!(table_bytes(&disk.join("run").join(case.table)), want),
        Some(1) => {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains("No space left"), "{stderr}");
            assert!(!disk.join("run").join(case.table).exists());
        }
        // The filler won the race with the reservation (the work file exists, empty, while
        // the free space is checked): refused before computing, in one line.
        Some(2) => {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.contains("free; "), "{stderr}");
            assert!(!disk.join("run").join(case.table).exists());
        }
        other => panic!("exit {other:?}: {stderr}"),
    }
    // No temporary file outlives the failed writes (a checkpoint's included).
    let partial: Vec<_> = std::fs::read_dir(disk.join("run"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".partial"))
        .collect();
    assert!(partial.is_empty(), "{partial:?}");
    std::fs::remove_file(&filler).unwrap();
    succeeded(&run(dir, case.args, folder, &["--resume"]));
    assert_eq!(table_bytes(&disk.join("run").join(case.table)), want);

    // A table larger than the disk is refused before computing; a work file left by an
    // earlier run counts as free space, since it is replaced.
    let big = ["grundy", "proper-divisors", "-n", "6e7", "-f", "json"];
    let line = refusal(&run(dir, &big, folder, &["--resume"]));
    assert!(
        line.contains(" free; ") && !line.contains("0.00 GiB"),
        "{line}"
    );
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

/// The refusals of tables and outputs that cannot fit give sizes in a unit that tells them
/// apart (not "0.00 GiB but only 0.00 GiB").
#[test]
fn refusals_for_lack_of_room_give_readable_sizes() {
    let Some(disk) = SmallDisk::mount(2) else {
        return;
    };
    for (args, want) in [
        (
            &["grundy", "wythoff", "-n", "3000", "-f", "npy"][..],
            "not enough room in 'output' for the outputs: 17.2 MiB needed, only 2.0 MiB free",
        ),
        (
            &[
                "grundy",
                "proper-divisors",
                "-n",
                "6e6",
                "-f",
                "json",
                "--resume",
            ][..],
            "not enough room in 'output' for the table: 5.7 MiB needed, only 2.0 MiB free",
        ),
    ] {
        let out = Command::new(binary())
            .current_dir(disk.path())
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
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

/// Runs large enough for a work file, written to a standard output that is full: one line,
/// and a work file is left only beside a checkpoint that `--resume` continues (the engines
/// that keep none leave nothing), with no lock or temporary file.
#[test]
fn a_full_standard_output_leaves_no_work_file_without_a_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[&[&str]] = &[
        &["grundy", "sub:1,3,4", "-n", "2e8", "-f", "bin"],
        &["grundy", "bachet:3", "-n", "2e8", "-f", "json"],
        &["grundy", "lasker", "-n", "2e8", "-f", "freq"],
        &["ppos", "sub:1,3,4", "-n", "2e8", "-f", "u64"],
        &["ppos", "sub:2,5,7+misere", "-n", "2e8", "-f", "csv"],
    ];
    for args in cases {
        let mut args = args.to_vec();
        args.extend(["-o", "-", "-q"]);
        one_line_on_a_full_stdout(dir.path(), &args);
        let names: Vec<String> = std::fs::read_dir(dir.path().join("output"))
            .map(|entries| {
                entries
                    .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        for name in &names {
            let kept =
                name.ends_with(".state.json") || names.contains(&format!("{name}.state.json"));
            assert!(kept, "{args:?} left {name} in {names:?}");
        }
        let _ = std::fs::remove_dir_all(dir.path().join("output"));
    }
}

/// A workbook written to a standard output that is full (`/dev/full`): one line, without the
/// zip library's own complaint when it drops the archive it could not finish.
#[test]
fn xlsx_to_a_full_standard_output_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for n in ["1000", "1e5"] {
        let args = ["grundy", "nim", "-n", n, "-f", "xlsx", "-o", "-"];
        let stderr = one_line_on_a_full_stdout(dir.path(), &args);
        assert!(!stderr.contains("ZipWriter"), "{n}: {stderr}");
        let reason = std::io::Error::from_raw_os_error(28).to_string();
        assert!(stderr.contains(&reason), "{n}: {stderr}");
    }
}

/// Help and version to a full standard output: one line and exit 1, as every command.
#[test]
fn help_to_a_full_standard_output_is_one_line() {
    for args in [&["--help"][..], &["--version"], &["eval", "--help"]] {
        one_line_on_a_full_stdout(Path::new("."), args);
    }
}

/// Runs nimsieve in `dir` with standard output on `/dev/full`, checks it ends with exit code 1
/// and one line, and returns that line.
fn one_line_on_a_full_stdout(dir: &Path, args: &[&str]) -> String {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(binary())
        .current_dir(dir)
        .args(args)
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    stderr
}
