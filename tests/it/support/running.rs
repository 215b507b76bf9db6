//! Waiting, without timing assumptions, until a run has computed something it can checkpoint.

use std::path::Path;

/// Waits until the work file at `path` holds a nonzero byte past its first 8 (positions the
/// engine computed), failing if `child` ends first or after five minutes.
pub fn wait_for_computed_positions(path: &Path, child: &mut std::process::Child) {
    use std::io::Read;
    let started = std::time::Instant::now();
    let computed = || {
        let mut start = [0; 4096];
        let read = std::fs::File::open(path).and_then(|mut f| f.read(&mut start));
        read.is_ok_and(|len| start[8.min(len)..len].iter().any(|&b| b != 0))
    };
    while !computed() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "the run ended ({status}) before computing into {}",
                path.display()
            );
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(300),
            "nothing computed into {} after five minutes",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}
