//! tt-depth: one rotation (matched prediction) and one full clear (mismatch) at horizon 6,
//! after a realistic number of stores. Only `begin` is timed; the stores before it are not.
//!
//! At default settings the engine stores about 2,300 evaluations per depth per move (2.79 M
//! evaluations over 200 moves and 6 depths in `cargo xtask bench-matrix`), so the tables are
//! filled with that many keys; "full" fills every bucket, the worst case.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};
use tt_core::{BITS, ENTRIES};
use tt_depth::DepthTables;

const HORIZON: usize = 6;
const STORES_PER_MOVE: u64 = 2300;

fn fill(tt: &mut DepthTables<[f32; 2], u64>, depth: usize, n: u64, salt: u64) {
    for k in 0..n {
        let key = (k ^ salt).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        tt.table(depth).probe(key, || [0.0; 2]);
    }
}

fn tt_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt-depth");
    for (label, stores) in [("typical", STORES_PER_MOVE), ("full", 2 * ENTRIES as u64)] {
        let mut tt: DepthTables<[f32; 2], u64> = DepthTables::new(HORIZON);
        let mut board = 0u64;
        group.bench_function(
            BenchmarkId::new(format!("rotate/horizon-6/{label}"), BITS),
            |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        // Fill the table that the rotation will clear (depth 0 now, deepest after).
                        fill(&mut tt, 0, stores, board);
                        board += 1;
                        tt.predict(board);
                        let t = Instant::now();
                        black_box(tt.begin(black_box(&board)));
                        total += t.elapsed();
                    }
                    total
                })
            },
        );
        group.bench_function(
            BenchmarkId::new(format!("clear-all/horizon-6/{label}"), BITS),
            |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        for d in 0..HORIZON {
                            fill(&mut tt, d, stores, board ^ d as u64);
                        }
                        tt.predict(board + 1);
                        board += 2;
                        let t = Instant::now();
                        black_box(tt.begin(black_box(&board)));
                        total += t.elapsed();
                    }
                    total
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, tt_depth);
criterion_main!(benches);
