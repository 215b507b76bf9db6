//! Resumable runs of each engine for the fault-injection tests: the cases, running the
//! binary into a folder, waiting for a file, signals and checkpoints.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

/// A resumable run: its arguments (without -o), its work file and its table file.
pub struct Case {
    pub args: &'static [&'static str],
    pub work: &'static str,
    pub table: &'static str,
}

/// One case for each resumable engine, each a run of a second or two; the rare-values engine
/// twice, in blocks (Grundy's game) and position by position (`.1777`, whose rare positions
/// all lie within a block).
pub const CASES: [Case; 6] = [
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

pub fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("nimsieve")
}

/// `nimsieve ARGS… -q -o FOLDER/` in `dir`, with `extra` arguments.
pub fn command(dir: &Path, args: &[&str], folder: &str, extra: &[&str]) -> Command {
    let mut cmd = Command::new(binary());
    cmd.current_dir(dir)
        .args(args)
        .args(["-q", "-o", &format!("{folder}/")])
        .args(extra);
    cmd
}

pub fn run(dir: &Path, args: &[&str], folder: &str, extra: &[&str]) -> Output {
    command(dir, args, folder, extra).output().unwrap()
}

/// The one line of a refused run, checked to be one line with the project's prefix and exit 2.
pub fn refusal(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "expected a refusal: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("nimsieve: error: "), "{stderr}");
    stderr
}

pub fn succeeded(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The table of an uninterrupted run, in memory.
pub fn reference(dir: &Path, case: &Case) -> Vec<u8> {
    succeeded(&run(dir, case.args, "reference", &[]));
    super::provenance::table_bytes(&dir.join("reference").join(case.table))
}

/// Waits until `path` exists (the run got that far), failing after a minute.
pub fn wait_for(path: &Path, child: &mut Child) {
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

pub fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// The checkpoint's fields.
pub fn checkpoint(state: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(state).unwrap();
    serde_json::from_str::<serde_json::Value>(&text).unwrap()["checkpoint"].clone()
}
