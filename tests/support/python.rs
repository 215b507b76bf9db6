//! Whether a test that checks a file with Python libraries can run here.

/// True when `python3` imports `modules` (e.g. `"pandas, openpyxl"`). Otherwise the test is to
/// be skipped, with a note saying how to install them (`install`), except under CI (the `CI`
/// variable set), where their absence fails the test: `.ci/run` installs them.
pub fn has_modules(modules: &str, install: &str) -> bool {
    let imported = std::process::Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .status()
        .is_ok_and(|s| s.success());
    if !imported {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have {modules} (.ci/run installs them)"
        );
        eprintln!("{modules}: not installed, skipping the check ({install})");
    }
    imported
}
