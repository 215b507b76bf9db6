//! Running the `nimsieve` binary from the integration tests.

use assert_cmd::Command;
use std::path::Path;

/// The built `nimsieve`, run in `dir`.
pub fn nimsieve(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("nimsieve").unwrap();
    cmd.current_dir(dir);
    cmd
}

/// The standard output of `nimsieve ARGS…` run in `dir`, which must succeed.
pub fn stdout_of(dir: &Path, args: &[&str]) -> String {
    let out = nimsieve(dir).args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// The output of `nimsieve ARGS…` run in `dir`, whatever its exit status (not every test
/// that runs the binary reads it).
pub fn output_of(dir: &Path, args: &[&str]) -> std::process::Output {
    nimsieve(dir).args(args).output().unwrap()
}

/// Runs a command that must fail with `code` and a one-line message containing `want`.
pub fn assert_error(args: &[&str], code: i32, want: &str) {
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
