//! The direct mex recursion of the `value-layers` engine: the positions a segment's layers left
//! unassigned, one at a time from the values of their options.

/// Direct mex recursion for the positions still set in `left`; `g` holds the values from
/// position `from` on, `window(p)` the final values below it.
pub(super) fn finish_direct(
    steps: &[usize],
    window: &dyn Fn(usize) -> u16,
    from: usize,
    g: &mut [u16],
    left: &[u64],
) -> Result<(), usize> {
    let mut seen = vec![0u32; steps.len() + 2];
    let mut stamp = 0u32;
    for (w, &word) in left.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let p = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            stamp = stamp.wrapping_add(1);
            if stamp == 0 {
                seen.iter_mut().for_each(|x| *x = 0);
                stamp = 1;
            }
            for &s in steps.iter().take_while(|&&s| s <= p) {
                let t = p - s;
                let v = if t >= from { g[t - from] } else { window(t) } as usize;
                if v < seen.len() {
                    seen[v] = stamp;
                }
            }
            let mex = seen.iter().position(|&x| x != stamp).unwrap_or(seen.len());
            g[p - from] = u16::try_from(mex).map_err(|_| p)?;
        }
    }
    Ok(())
}
