//! A xorshift generator for the unit tests' pseudo-random inputs: reproducible from a seed, with
//! no dependency.

/// A xorshift generator from `seed` (not zero): the next state at each call.
pub fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
