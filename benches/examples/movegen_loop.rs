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
        Some(p) => match p.chars().map(Piece::from_char).collect::<Option<Vec<_>>>() {
            Some(v) if !v.is_empty() => v,
            _ => fail(&format!("pieces must be letters of IOTLJSZ, got {p:?}")),
        },
        None => Piece::ALL.to_vec(),
    };
    let boards: Vec<_> = benches::named_boards()
        .into_iter()
        .filter(|(name, _)| only_board.as_deref().is_none_or(|b| b == *name))
        .collect();
    if boards.is_empty() {
        let names: Vec<_> = benches::named_boards().iter().map(|(n, _)| *n).collect();
        fail(&format!(
            "no board named {:?} (boards: {}, or all)",
            only_board.unwrap_or_default(),
            names.join(", ")
        ));
    }
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

fn fail(message: &str) -> ! {
    eprintln!("movegen_loop: {message}");
    std::process::exit(2)
}
