//! Helpers the engine tests share.

use nimsieve::engine::{EngineKind, reference};
use nimsieve::game::Game;
use nimsieve::progress::Progress;

/// The values of `spec` below `n` computed by `engine`.
pub fn values(engine: EngineKind, spec: &str, n: u64) -> Vec<u32> {
    let game = Game::parse(spec).unwrap();
    let table = engine
        .grundy(&game, n, false, Default::default(), &Progress::hidden())
        .unwrap();
    table.iter().collect()
}

/// The values of `spec` below `n` computed by the reference engine.
pub fn reference_values(spec: &str, n: u64) -> Vec<u32> {
    let game = Game::parse(spec).unwrap();
    reference::compute(&game, n, &Progress::hidden())
        .unwrap()
        .iter()
        .collect()
}

/// Asserts that `engine` gives the same values of `spec` below `n` with 1 and with 2 threads.
pub fn assert_thread_count_does_not_matter(engine: EngineKind, spec: &str, n: u64) {
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| values(engine, spec, n))
    };
    assert_eq!(run(1), run(2), "{spec} below {n}");
}
