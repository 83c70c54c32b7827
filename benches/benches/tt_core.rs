//! tt-core probe cost: hits and misses at several occupancies.
//! Benchmark ids carry TETRIS_TT_BITS so runs at different capacities line up.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tt_core::{BITS, ENTRIES, Table};

type Value = [f32; 2];

/// A simple deterministic key stream (splitmix64).
fn keys(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

fn tt_core(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt-core");
    for pct in [25usize, 50, 100] {
        let table = Table::<Value>::new();
        for k in keys(1, ENTRIES * pct / 100) {
            table.probe(k, || [k as f32, 0.0]);
        }
        let stored: Vec<u64> = table.entries().map(|(k, _)| k).collect();
        // Visit stored keys in a scrambled order so hits are not sequential in memory.
        let order = keys(2, 4096);
        let hits: Vec<u64> = order
            .iter()
            .map(|&r| stored[(r % stored.len() as u64) as usize])
            .collect();
        let misses = keys(3, 4096);

        let mut i = 0;
        group.bench_function(
            BenchmarkId::new(format!("hit/occupancy-{pct}"), BITS),
            |b| {
                b.iter(|| {
                    i = (i + 1) & 4095;
                    black_box(table.probe(black_box(hits[i]), || unreachable!()))
                })
            },
        );
        let mut i = 0;
        group.bench_function(
            BenchmarkId::new(format!("miss/occupancy-{pct}"), BITS),
            |b| {
                b.iter(|| {
                    i = (i + 1) & 4095;
                    black_box(table.lookup(black_box(misses[i])).is_err())
                })
            },
        );
    }
    // Steady-state miss and store into a full table (every store replaces).
    let table = Table::<Value>::new();
    for k in keys(4, ENTRIES * 2) {
        table.probe(k, || [0.0, 0.0]);
    }
    let fresh = keys(5, 1 << 16);
    let mut i = 0;
    group.bench_function(BenchmarkId::new("miss-and-store/full", BITS), |b| {
        b.iter(|| {
            i = (i + 1) & 0xffff;
            black_box(table.probe(black_box(fresh[i] ^ i as u64), || [1.0, 2.0]))
        })
    });
    group.finish();
}

criterion_group!(benches, tt_core);
criterion_main!(benches);
