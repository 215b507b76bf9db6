//! Bit tables: `bitvec` against raw `u64` words for the two things nimsieve does with one bit a
//! position — listing the set bits (the P-positions of a bit table; the `.bin` reader) and
//! setting scattered bits (the psieve kernel's marking). `cargo bench --bench bits`; the
//! numbers are in src/README.md.

use bitvec::prelude::*;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const N: u64 = 1 << 24;

/// Words of `N` bits, about one bit in `every` set (a fixed pseudo-random pattern).
fn table(every: u64) -> Vec<u64> {
    let mut words = vec![0u64; (N / 64) as usize];
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for p in 0..N {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if x.is_multiple_of(every) {
            words[(p / 64) as usize] |= 1 << (p % 64);
        }
    }
    words
}

fn ones_raw(words: &[u64]) -> Vec<u64> {
    nimsieve::table::bits::ones(words).collect()
}

fn ones_bitvec(words: &[u64]) -> Vec<u64> {
    words
        .view_bits::<Lsb0>()
        .iter_ones()
        .map(|x| x as u64)
        .collect()
}

fn listing(c: &mut Criterion) {
    let mut group = c.benchmark_group("bits-list-ones");
    group.sample_size(10);
    for every in [64u64, 4] {
        let words = table(every);
        assert_eq!(ones_raw(&words), ones_bitvec(&words));
        group.bench_with_input(BenchmarkId::new("raw-words", every), &words, |b, w| {
            b.iter(|| black_box(ones_raw(w).len()))
        });
        group.bench_with_input(BenchmarkId::new("bitvec", every), &words, |b, w| {
            b.iter(|| black_box(ones_bitvec(w).len()))
        });
    }
    group.finish();
}

/// The sieve's access pattern: from each of `sources`, mark the positions a step above it.
fn marking(c: &mut Criterion) {
    let mut group = c.benchmark_group("bits-mark");
    group.sample_size(10);
    let sources = ones_raw(&table(64));
    let steps: Vec<u64> = (1..=64u64).map(|k| k * k).collect();
    let mut words = vec![0u64; (N / 64) as usize];
    group.bench_function("raw-words", |b| {
        b.iter(|| {
            for &p in &sources {
                for &s in &steps {
                    let x = p + s;
                    if x < N {
                        words[(x / 64) as usize] |= 1 << (x % 64);
                    }
                }
            }
            black_box(words[1])
        })
    });
    let mut bits = bitvec![u64, Lsb0; 0; N as usize];
    group.bench_function("bitvec", |b| {
        b.iter(|| {
            for &p in &sources {
                for &s in &steps {
                    let x = (p + s) as usize;
                    if x < bits.len() {
                        bits.set(x, true);
                    }
                }
            }
            black_box(bits[64])
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = listing, marking
}
criterion_main!(benches);
