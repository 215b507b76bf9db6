use nimsieve::progress::Progress;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args[1].parse().unwrap();
    let threads: usize = args[2].parse().unwrap();
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .unwrap();
    let t = std::time::Instant::now();
    let v = nimsieve::engine::wythoff::table(n, None, &Progress::hidden()).unwrap();
    let s = t.elapsed().as_secs_f64();
    println!(
        "n={n} threads={threads} {s:.3}s {:.3e} cells/s max={}",
        (n * n) as f64 / s,
        v.max()
    );
    let table = nimsieve::table::Table {
        kind: nimsieve::table::ValueKind::Grundy,
        values: v,
        period: None,
    };
    let t = std::time::Instant::now();
    let rows = nimsieve::analysis::wythoff::proven_row_periods(&table, n);
    println!("{:.3}s", t.elapsed().as_secs_f64());
    for r in &rows {
        println!("{:?}", r);
    }
}
