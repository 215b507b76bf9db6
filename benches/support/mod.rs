//! What the benchmarks share: the textbook algorithms nimsieve's engines are measured
//! against, and the peak memory of the running process.

#[allow(dead_code)] // used by the P-position benches, not by every example
/// The textbook forward sieve: one byte per position; each unmarked position is a P-position
/// and marks n + s for every step s. Returns the P-positions.
pub fn textbook_sieve(steps: &[u64], n: u64) -> Vec<u64> {
    let mut marked = vec![0u8; n as usize];
    let mut positions = Vec::new();
    for x in 0..n {
        if marked[x as usize] == 0 {
            positions.push(x);
            for &s in steps {
                let Some(y) = x.checked_add(s).filter(|&y| y < n) else {
                    break;
                };
                marked[y as usize] = 1;
            }
        }
    }
    positions
}

/// The textbook mex recursion for a subtraction game: for each position, the values of x − s
/// for every step s ≤ x, then the smallest value missing. Returns the values.
#[allow(dead_code)] // used by the examples, not by every bench
pub fn textbook_mex(steps: &[u64], n: u64) -> Vec<u32> {
    let mut values = vec![0u32; n as usize];
    let mut seen = vec![u64::MAX; steps.len() + 1];
    for x in 0..n {
        for &s in steps.iter().take_while(|&&s| s <= x) {
            let v = values[(x - s) as usize] as usize;
            if v < seen.len() {
                seen[v] = x;
            }
        }
        values[x as usize] = (0..seen.len())
            .find(|&v| seen[v] != x)
            .unwrap_or(seen.len()) as u32;
    }
    values
}

/// Peak resident memory of this process (VmHWM), in KiB.
#[allow(dead_code)] // used by the examples, not by the criterion benches
pub fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
