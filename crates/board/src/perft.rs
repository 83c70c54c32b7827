//! perft: the number of leaves of the placement tree of a queue, the standard correctness
//! count (and speed test) of a move generator.
//!
//! perft(queue) places the first piece of the queue in every distinct final position, clears
//! lines, and recurses on the rest of the queue; at the last piece it counts the distinct
//! final positions (from the flood's bit masks, without listing them). No hold. Distinct is
//! by the cells the piece covers, or with `spins` by cells and spin kind.

use crate::board::Board;
use crate::movegen::{Counter, Placement, Spawn, count, generate_with, positions_into};
use crate::piece::{Piece, Rules};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How to count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftOptions {
    /// The rotation system.
    pub rules: Rules,
    /// What happens when the spawn position is blocked.
    pub spawn: Spawn,
    /// Count T placements by (cells, spin kind) instead of by cells.
    pub spins: bool,
    /// Threads; the root placements are shared among them.
    pub threads: usize,
}

impl Default for PerftOptions {
    fn default() -> Self {
        PerftOptions {
            rules: Rules::Srs,
            spawn: Spawn::Rise,
            spins: false,
            threads: 1,
        }
    }
}

/// A perft count: the leaves, and the nodes at every depth (`by_depth[0]` is the placements
/// of the first piece; the last entry is the leaves).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Perft {
    /// Leaves: placements of the last piece over every line.
    pub leaves: u64,
    /// Nodes at each depth.
    pub by_depth: Vec<u64>,
}

/// The placements of `piece`, distinct by cells (or by cells and spin with `spins`).
fn moves(board: &Board, piece: Piece, opts: &PerftOptions, out: &mut Vec<Placement>) {
    if piece == Piece::T && !opts.spins {
        // T orientations never share cells: the spin-free flood lists each cell set once.
        positions_into(board, piece, opts.rules, opts.spawn, out);
    } else {
        generate_with(board, piece, opts.rules, opts.spawn, out);
    }
}

fn recurse(
    board: &Board,
    queue: &[Piece],
    opts: &PerftOptions,
    by_depth: &mut [u64],
    bufs: &mut [Vec<Placement>],
    counter: &mut Counter,
) -> u64 {
    if queue.len() == 1 {
        let n = counter.count(board, queue[0], opts.rules, opts.spawn, opts.spins) as u64;
        by_depth[0] += n;
        return n;
    }
    let (buf, rest) = bufs.split_first_mut().expect("a buffer per depth");
    moves(board, queue[0], opts, buf);
    by_depth[0] += buf.len() as u64;
    let mut leaves = 0;
    for p in buf.iter() {
        let mut b = *board;
        b.place(p.piece, p.rotation, p.x as i32, p.y as i32);
        leaves += recurse(&b, &queue[1..], opts, &mut by_depth[1..], rest, counter);
    }
    leaves
}

/// Counts perft of `queue` from `board`. `progress(done, total)` is called as root placements
/// finish (from the counting threads).
pub fn perft(
    board: &Board,
    queue: &[Piece],
    opts: &PerftOptions,
    progress: impl Fn(usize, usize) + Sync,
) -> Perft {
    let depth = queue.len();
    if depth == 0 {
        return Perft::default();
    }
    if depth == 1 {
        let n = count(board, queue[0], opts.rules, opts.spawn, opts.spins) as u64;
        progress(1, 1);
        return Perft {
            leaves: n,
            by_depth: vec![n],
        };
    }
    let mut roots = Vec::new();
    moves(board, queue[0], opts, &mut roots);
    let total = Mutex::new(Perft {
        leaves: 0,
        by_depth: vec![0; depth],
    });
    total.lock().expect("not poisoned").by_depth[0] = roots.len() as u64;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..opts.threads.clamp(1, roots.len().max(1)) {
            s.spawn(|| {
                let mut by_depth = vec![0u64; depth - 1];
                let mut bufs = vec![Vec::new(); depth - 1];
                let mut counter = Counter::new();
                let mut leaves = 0;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = roots.get(i) else { break };
                    let mut b = *board;
                    b.place(p.piece, p.rotation, p.x as i32, p.y as i32);
                    leaves += recurse(
                        &b,
                        &queue[1..],
                        opts,
                        &mut by_depth,
                        &mut bufs,
                        &mut counter,
                    );
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1, roots.len());
                }
                let mut t = total.lock().expect("not poisoned");
                t.leaves += leaves;
                for (a, b) in t.by_depth[1..].iter_mut().zip(&by_depth) {
                    *a += b;
                }
            });
        }
    });
    total.into_inner().expect("not poisoned")
}
