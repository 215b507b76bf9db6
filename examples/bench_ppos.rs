//! One timed P-position run of subtract-a-square, for `scripts/bench-ppos.sh`.
//!
//! Usage: `bench_ppos textbook|psieve LOG2_N THREADS`. Prints one line:
//! `engine log2_n threads seconds p_count peak_rss_kib`.

#[path = "../benches/support/mod.rs"]
mod support;

use nimsieve::engine::psieve;
use nimsieve::game::SubtractionSet;
use nimsieve::table::bits::BitTable;
use std::ops::ControlFlow;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, engine, log2_n, threads] = args.as_slice() else {
        eprintln!("usage: bench_ppos textbook|psieve LOG2_N THREADS");
        std::process::exit(2);
    };
    let log2_n: u32 = log2_n.parse().expect("LOG2_N is a number");
    let threads: usize = threads.parse().expect("THREADS is a number");
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .unwrap();
    let n = 1u64 << log2_n;
    let steps = SubtractionSet::Powers(2).elements_below(n);
    let started = Instant::now();
    let p_count = match engine.as_str() {
        "textbook" => support::textbook_sieve(&steps, n).len() as u64,
        "psieve" => {
            let mut table = BitTable::in_memory(n).unwrap();
            psieve::sieve_ppos(&steps, n, 0, table.words_mut(), 0, &mut |_, _| {
                ControlFlow::Continue(())
            });
            table.ones().len() as u64
        }
        other => panic!("unknown engine {other}"),
    };
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{engine} {log2_n} {threads} {seconds:.4} {p_count} {}",
        support::peak_rss_kib()
    );
}
