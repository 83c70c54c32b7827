//! One search at default settings on the named positions (throughput in scored candidates per
//! second), and a 100-piece self-play game. Ids carry TETRIS_TT_BITS.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use game::Game;
use search::selfplay;
use search::{Config, Engine};
use std::hint::black_box;
use tt_core::BITS;

fn one_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    for (name, state) in benches::named_states() {
        let mut engine = Engine::with_config(Config::default());
        let nodes = engine.suggest(&state).expect("a move exists").stats.nodes;
        group.throughput(Throughput::Elements(nodes));
        // Every call starts from a board the engine did not predict, so it clears its tables
        // and searches from scratch: the cost of one search with a cold cache.
        group.bench_function(BenchmarkId::new(format!("one-search/{name}"), BITS), |b| {
            b.iter(|| black_box(engine.suggest(black_box(&state))))
        });
    }
    group.finish();
}

fn self_play(c: &mut Criterion) {
    let mut group = c.benchmark_group("self-play");
    group.sample_size(10);
    group.throughput(Throughput::Elements(100));
    group.bench_function(BenchmarkId::new("100-pieces", BITS), |b| {
        b.iter(|| {
            let mut engine = Engine::with_config(Config::default());
            let mut game = Game::new(1, engine.config().previews);
            for _ in 0..100 {
                black_box(selfplay::step(&mut engine, &mut game));
            }
            game.totals().attack
        })
    });
    group.finish();
}

criterion_group!(benches, one_search, self_play);
criterion_main!(benches);
