//! The record of a check that could not run, shared by the integration tests
//! ([`super::external::skip`]) and, through a `#[path]` module, by the library's unit tests
//! (`src/engine/isa.rs`): a line on standard error and, when `NIMSIEVE_SKIPPED` names a file,
//! the same line appended to it, which `scripts/test.sh` prints in its summary.

/// The name of the test running on this thread (the test harness names each test's thread).
pub fn current_test() -> String {
    std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string()
}

/// Records `line` as a check skipped.
pub fn record(line: &str) {
    eprintln!("SKIPPED {line}");
    if let Some(log) = std::env::var_os("NIMSIEVE_SKIPPED") {
        use std::io::Write;
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
        appended.expect("NIMSIEVE_SKIPPED names a file this test can append to");
    }
}
