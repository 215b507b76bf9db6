//! One timed table of Wythoff's game, for `scripts/bench-wythoff.sh`.
//!
//! Usage: `RAYON_NUM_THREADS=T bench_wythoff ENGINE N`, ENGINE being `naive` (the mex over
//! every option, `engine::wythoff::reference`) or `wythoff` (the kernel of `grundy wythoff`,
//! the table in memory). Prints one line: `engine n threads seconds max_value peak_rss_kib`.

#[path = "../benches/support/mod.rs"]
mod support;

use nimsieve::engine::wythoff::{reference, table};
use nimsieve::number::parse_u64;
use nimsieve::progress::Progress;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, engine, n] = args.as_slice() else {
        eprintln!("usage: RAYON_NUM_THREADS=T bench_wythoff naive|wythoff N");
        std::process::exit(2);
    };
    let n = parse_u64(n).expect("N is a size");
    let started = std::time::Instant::now();
    let max_value = match engine.as_str() {
        "naive" => reference(n as usize).into_iter().max().unwrap_or(0),
        "wythoff" => table(n, None, &Progress::hidden())
            .expect("fits in memory")
            .max(),
        other => panic!("unknown engine {other}: naive or wythoff"),
    };
    println!(
        "{engine} {n} {} {:.4} {max_value} {}",
        rayon::current_num_threads(),
        started.elapsed().as_secs_f64(),
        support::peak_rss_kib()
    );
}
