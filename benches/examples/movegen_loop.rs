//! Runs move generation for every piece on every named board N times (default 10000): a steady
//! workload for `valgrind --tool=callgrind`, whose instruction counts compare two versions of
//! the flood on a noisy machine.

use board::{Piece, Rules, generate_into};
use std::hint::black_box;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let boards = benches::named_boards();
    let mut out = Vec::with_capacity(128);
    let mut total = 0;
    for _ in 0..n {
        for (_, board) in &boards {
            for piece in Piece::ALL {
                generate_into(black_box(board), black_box(piece), Rules::Srs, &mut out);
                total += out.len();
            }
        }
    }
    println!("{total}");
}
