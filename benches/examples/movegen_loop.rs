//! Runs move generation for every piece on every named board N times (default 10000): a steady
//! workload for `valgrind --tool=callgrind`, whose instruction counts compare two versions of
//! the flood on a noisy machine. Optional filters: `movegen_loop N BOARD PIECES` runs only the
//! named board (`all` for every board) and the pieces given (`IOT`).

use board::{Piece, Rules, generate_into};
use std::hint::black_box;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let only_board = std::env::args().nth(2).filter(|b| b != "all");
    let pieces: Vec<Piece> = match std::env::args().nth(3) {
        Some(p) => p.chars().filter_map(Piece::from_char).collect(),
        None => Piece::ALL.to_vec(),
    };
    let boards: Vec<_> = benches::named_boards()
        .into_iter()
        .filter(|(name, _)| only_board.as_deref().is_none_or(|b| b == *name))
        .collect();
    let mut out = Vec::with_capacity(128);
    let mut total = 0;
    for _ in 0..n {
        for (_, board) in &boards {
            for &piece in &pieces {
                generate_into(black_box(board), black_box(piece), Rules::Srs, &mut out);
                total += out.len();
            }
        }
    }
    println!("{total}");
}
