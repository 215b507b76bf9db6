//! Whether a test that checks a file with another program (Python with its libraries, R) can
//! run here, and the record of a check that could not.

/// True when `python3` imports `modules` (e.g. `"pandas, openpyxl"`); otherwise the check is
/// skipped (see [`skip`]), with `install` saying how to install them.
pub fn has_modules(modules: &str, install: &str) -> bool {
    available(
        &["python3", "-c", &format!("import {modules}")],
        &format!("python3 cannot import {modules} ({install})"),
    )
}

/// True when `command` (a program and its arguments) runs and succeeds; otherwise the check is
/// skipped (see [`skip`]) for the reason `missing`.
pub fn available(command: &[&str], missing: &str) -> bool {
    let ran = std::process::Command::new(command[0])
        .args(&command[1..])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ran {
        skip(missing);
    }
    ran
}

/// Records a check of the current test that cannot run, `why`: under CI (the `CI` variable
/// set) that fails the test, since `.ci/run` installs what the checks need; otherwise a line
/// on standard error and, when `NIMSIEVE_SKIPPED` names a file, a line appended to it, which
/// `scripts/test.sh` prints in its summary.
pub fn skip(why: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let line = format!(
        "{} {test}: {why}",
        module_path!().split("::").next().unwrap_or("")
    );
    assert!(
        std::env::var_os("CI").is_none(),
        "{line}: CI must run every check (.ci/run installs what they need)"
    );
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
