//! Subtract-a-square P-positions: the textbook byte-array sieve against nimsieve's sieve, in
//! one criterion run (`cargo bench --bench ppos`). The large sizes are in scripts/bench-ppos.sh.

mod support;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nimsieve::engine::psieve;
use nimsieve::game::SubtractionSet;
use nimsieve::table::bits::BitTable;
use std::hint::black_box;
use std::ops::ControlFlow;

fn squares(c: &mut Criterion) {
    let mut group = c.benchmark_group("ppos-squares");
    group.sample_size(10);
    for log2_n in [20u32, 22] {
        let n = 1u64 << log2_n;
        let steps = SubtractionSet::Powers(2).elements_below(n);
        group.bench_with_input(BenchmarkId::new("textbook", log2_n), &n, |b, &n| {
            b.iter(|| black_box(support::textbook_sieve(&steps, n).len()))
        });
        group.bench_with_input(BenchmarkId::new("psieve", log2_n), &n, |b, &n| {
            b.iter(|| {
                let mut table = BitTable::in_memory(n).unwrap();
                psieve::sieve_ppos(&steps, n, 0, table.words_mut(), 0, &mut |_, _| {
                    ControlFlow::Continue(())
                });
                black_box(table.words()[0])
            })
        });
    }
    group.finish();
}

criterion_group!(benches, squares);
criterion_main!(benches);
