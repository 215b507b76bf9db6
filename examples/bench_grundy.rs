//! One timed Grundy-value run, for `scripts/bench-grundy.sh`.
//!
//! Usage: `bench_grundy ENGINE GAME N THREADS`, ENGINE being `textbook` (the mex recursion of a
//! subtraction game, written here) or an engine name of `--engine`. Prints one line:
//! `engine game n threads seconds max_value peak_rss_kib`.

#[path = "../benches/support/mod.rs"]
mod support;

use nimsieve::choice::Choice;
use nimsieve::engine::EngineKind;
use nimsieve::game::Game;
use nimsieve::number::parse_u64;
use nimsieve::progress::Progress;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, engine, spec, n, threads] = args.as_slice() else {
        eprintln!("usage: bench_grundy ENGINE GAME N THREADS");
        std::process::exit(2);
    };
    let n = parse_u64(n).expect("N is a size");
    let threads: usize = threads.parse().expect("THREADS is a number");
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .unwrap();
    let game = Game::parse(spec).expect("a valid game");
    let started = Instant::now();
    let max_value = if engine == "textbook" {
        let steps = game
            .listed_steps(n)
            .expect("textbook needs a listed subtraction set");
        support::textbook_mex(&steps, n)
            .into_iter()
            .max()
            .unwrap_or(0)
    } else {
        let kind = EngineKind::from_name(engine).expect("a known engine");
        let table = kind
            .grundy(&game, n, false, Default::default(), &Progress::hidden())
            .expect("engine runs");
        table.iter().max().unwrap_or(0)
    };
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{engine} {spec} {n} {threads} {seconds:.4} {max_value} {}",
        support::peak_rss_kib()
    );
}
