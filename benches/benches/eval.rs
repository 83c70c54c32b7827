//! The position evaluation of the default evaluator over the boards a search meets
//! ([`benches::played_boards`]): throughput in evaluations per second.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use search::{DefaultEvaluator, Evaluator, Weights};
use std::hint::black_box;
use tt_core::BITS;

fn eval(c: &mut Criterion) {
    let boards = benches::played_boards(100);
    let evaluator = DefaultEvaluator::new(Weights::default());
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function(BenchmarkId::new("position/played", BITS), |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for board in &boards {
                sum += evaluator.position(black_box(board), None).value as i64;
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
