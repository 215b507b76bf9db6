//! Writing onto a full disk: a one-line I/O error (exit code 1), never a panic. The disk is a
//! 2 MiB tmpfs, mounted where the tests may (as root); elsewhere they say they are skipped,
//! except when the environment variable CI is set, where they must run.

use assert_cmd::Command;
use std::path::Path;
use std::process::Stdio;

/// A 2 MiB tmpfs mounted on a new folder, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// The mounted disk, or None (after saying so) where mounting is not allowed.
    fn mount() -> Option<SmallDisk> {
        let dir = tempfile::tempdir().unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=2m", "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
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
        let _ = std::process::Command::new("umount")
            .arg(self.dir.path())
            .status();
    }
}

/// Runs nimsieve in `dir` and checks it fails with exit code 1 and one line naming the full
/// disk; returns that line.
fn fails_for_lack_of_space(dir: &Path, args: &[&str]) -> String {
    let out = Command::cargo_bin("nimsieve")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .assert()
        .code(1)
        .get_output()
        .clone();
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
    let Some(disk) = SmallDisk::mount() else {
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
    let Some(disk) = SmallDisk::mount() else {
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
