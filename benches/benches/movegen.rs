//! Move generation per piece on the named boards. Move generation does not depend on
//! TETRIS_TT_BITS, but the ids carry it like every other bench so matrix runs line up.

use board::{Piece, Rules, generate_into};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    let mut out = Vec::with_capacity(128);
    for (name, board) in benches::named_boards() {
        for piece in Piece::ALL {
            group.bench_with_input(
                BenchmarkId::new(format!("{name}/{}", piece.to_char()), tt_core::BITS),
                &board,
                |b, board| {
                    b.iter(|| {
                        generate_into(black_box(board), black_box(piece), Rules::Srs, &mut out);
                        out.len()
                    })
                },
            );
        }
    }
    group.finish();
}

/// perft depth 5 of IOLJSZT's first five pieces from the empty board (3,497,187 leaves, no
/// spawn rise), single-threaded: the generator's standard speed test.
fn perft(c: &mut Criterion) {
    let queue = [Piece::I, Piece::O, Piece::L, Piece::J, Piece::S];
    let opts = board::PerftOptions {
        spawn: board::Spawn::NoRise,
        ..board::PerftOptions::default()
    };
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("IOLJS/depth-5", tt_core::BITS), |b| {
        b.iter(|| board::perft(&board::Board::new(), black_box(&queue), &opts, |_, _| {}).leaves)
    });
    group.finish();
}

criterion_group!(benches, movegen, perft);
criterion_main!(benches);
