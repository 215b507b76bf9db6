//! Grundy values: each fast engine against its baseline in one criterion run
//! (`cargo bench --bench grundy`). Larger sizes are in scripts/bench-grundy.sh.

mod support;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nimsieve::choice::Choice;
use nimsieve::engine::EngineKind;
use nimsieve::game::Game;
use nimsieve::progress::Progress;
use std::hint::black_box;

/// (game, n, baseline, engine); the baseline "textbook" is the mex recursion of the support module.
const CASES: [(&str, u64, &str, EngineKind); 4] = [
    ("sub:1,3,4", 1 << 20, "reference", EngineKind::Finite),
    (
        "proper-divisors",
        1 << 20,
        "reference",
        EngineKind::DivisorSieve,
    ),
    ("primes", 1 << 16, "textbook", EngineKind::PrimeGrundy),
    ("primes", 1 << 16, "reference", EngineKind::PrimeGrundy),
];

fn run(engine: EngineKind, game: &Game, n: u64) -> u32 {
    let table = engine
        .grundy(game, n, false, Default::default(), &Progress::hidden())
        .unwrap();
    table.get(n - 1)
}

fn engines(c: &mut Criterion) {
    let mut group = c.benchmark_group("grundy");
    group.sample_size(10);
    for (spec, n, baseline, engine) in CASES {
        let game = Game::parse(spec).unwrap();
        let label = format!("{spec}/{n}");
        group.bench_with_input(
            BenchmarkId::new(baseline, &label),
            &n,
            |b, &n| match baseline {
                "textbook" => {
                    let steps = game.listed_steps(n).unwrap();
                    b.iter(|| black_box(support::textbook_mex(&steps, n)[n as usize - 1]))
                }
                _ => b.iter(|| black_box(run(EngineKind::Reference, &game, n))),
            },
        );
        group.bench_with_input(BenchmarkId::new(engine.name(), &label), &n, |b, &n| {
            b.iter(|| black_box(run(engine, &game, n)))
        });
    }
    group.finish();
}

criterion_group!(benches, engines);
criterion_main!(benches);
