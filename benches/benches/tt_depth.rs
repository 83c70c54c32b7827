//! tt-depth: one rotation (matched prediction) and one full clear (mismatch) at horizon 6.
//! Tables are marked used before each step, so every clear really clears.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tt_core::BITS;
use tt_depth::DepthTables;

const HORIZON: usize = 6;

fn tt_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt-depth");
    let mut tt: DepthTables<[f32; 2], u64> = DepthTables::new(HORIZON);
    let mut board = 0u64;
    group.bench_function(BenchmarkId::new("rotate/horizon-6", BITS), |b| {
        b.iter(|| {
            // The table that will be cleared (depth 0 now, deepest after the rotation).
            tt.table(0).probe(board, || [0.0; 2]);
            board += 1;
            tt.predict(board);
            black_box(tt.begin(black_box(&board)))
        })
    });
    group.bench_function(BenchmarkId::new("clear-all/horizon-6", BITS), |b| {
        b.iter(|| {
            for d in 0..HORIZON {
                tt.table(d).probe(board, || [0.0; 2]);
            }
            tt.predict(board + 1);
            board += 2;
            black_box(tt.begin(black_box(&board)))
        })
    });
    group.finish();
}

criterion_group!(benches, tt_depth);
criterion_main!(benches);
