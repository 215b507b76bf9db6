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
/// set) that fails the test, since `.ci/run` installs what the checks need; otherwise
/// [`super::skipped::record`].
pub fn skip(why: &str) {
    let line = format!(
        "{} {}: {why}",
        module_path!().split("::").next().unwrap_or(""),
        super::skipped::current_test()
    );
    assert!(
        std::env::var_os("CI").is_none(),
        "{line}: CI must run every check (.ci/run installs what they need)"
    );
    super::skipped::record(&line);
}
