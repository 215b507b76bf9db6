//! Textbook algorithms the benchmarks measure nimsieve's engines against.

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
