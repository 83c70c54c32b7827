//! The beam search.

use crate::eval::{Evaluator, PositionEval, StepContext};
use board::{Board, Piece, Placement, Rules, generate_into};
use game::{Carried, lock};
use hashbrown::HashTable;
use std::time::Instant;
use tt_depth::DepthTables;

/// Per-piece salts mixed into the board hash to make the cache key (board, roof, hold). The
/// roof is a function of the board, so the board hash covers it.
const HOLD_SALT: [u64; 8] = [
    0,
    0x8a5c_d789_635d_2dff,
    0x1210_89a4_f32b_c67d,
    0xd6e8_feb8_6659_fd93,
    0x7b0b_c8ea_ca16_b9c5,
    0x4f1b_bcdc_bbfe_8a25,
    0xb4b8_2e4f_13ab_e58f,
    0x2c5a_0fbd_3ca6_1e39,
];

/// The cache key of a position: (board, roof, hold after the placement) in 64 bits.
#[inline]
pub fn position_key(board: &Board, hold: Option<Piece>) -> u64 {
    board.hash64() ^ HOLD_SALT[hold.map_or(0, |p| p as usize + 1)]
}

/// One search node: the position after a placement, and how it was reached.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub(crate) board: Board,
    pub(crate) hold: Option<Piece>,
    pub(crate) carried: Carried,
    /// Index into the known pieces of the next piece to place.
    pub(crate) next: u8,
    /// Rewards accumulated along the path.
    pub(crate) acc: i32,
    /// `acc` plus this position's value: what the beam ranks by.
    pub(crate) total: i32,
    /// Index of the parent in the previous depth's level (unused at depth 0).
    pub(crate) parent: u32,
    pub(crate) placement: Placement,
    pub(crate) key: u64,
    /// Generation order within its depth: the tie-breaker that makes selection deterministic.
    pub(crate) seq: u32,
    /// Whether the placement that led here used hold.
    pub(crate) held: bool,
}

/// Counters of one search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepthCounters {
    /// Table lookups at this depth.
    pub lookups: u64,
    /// Lookups that hit.
    pub hits: u64,
}

/// Reusable search buffers. Their capacities count towards the engine's memory.
#[derive(Default)]
pub(crate) struct Buffers {
    pub(crate) levels: Vec<Vec<Node>>,
    pub(crate) children: Vec<Node>,
    pub(crate) merge: HashTable<u32>,
    pub(crate) placements: Vec<Placement>,
}

impl Buffers {
    pub(crate) fn bytes(&self) -> usize {
        self.levels.capacity() * size_of::<Vec<Node>>()
            + self
                .levels
                .iter()
                .map(|l| l.capacity() * size_of::<Node>())
                .sum::<usize>()
            + self.children.capacity() * size_of::<Node>()
            + self.merge.allocation_size()
            + self.placements.capacity() * size_of::<Placement>()
    }
}

/// Settings of one pass.
pub(crate) struct Pass<'a, E: Evaluator> {
    pub(crate) evaluator: &'a E,
    pub(crate) rules: Rules,
    pub(crate) width: usize,
    /// The current piece, then the previews used: one placement per known piece at most.
    pub(crate) pieces: &'a [Piece],
    pub(crate) depth: usize,
    pub(crate) use_cache: bool,
    pub(crate) use_hold: bool,
    pub(crate) deadline: Option<Instant>,
    pub(crate) pieces_placed: u64,
}

/// The best line found by a pass: placements from the root, and its score.
pub(crate) struct Line {
    pub(crate) placements: Vec<Placement>,
    /// Whether the first placement uses hold.
    pub(crate) uses_hold: bool,
    pub(crate) score: i32,
    pub(crate) board_after_first: Board,
    /// Other first moves, best first: the first placements of the next-best lines.
    pub(crate) alternatives: Vec<Placement>,
}

/// How many other first moves a line reports.
const ALTERNATIVES: usize = 4;

pub(crate) struct PassCounters {
    pub(crate) nodes: u64,
    pub(crate) evaluations: u64,
    pub(crate) depth: Vec<DepthCounters>,
}

/// Runs one pass of the beam search from `root`. Returns `None` when the deadline passed
/// before the pass finished, or when no placement exists at all.
pub(crate) fn run_pass<E: Evaluator>(
    pass: &Pass<'_, E>,
    root: &Node,
    tables: &mut DepthTables<PositionEval, Board>,
    buf: &mut Buffers,
    counters: &mut PassCounters,
) -> Option<Line> {
    // The engine already capped the depth at the number of known pieces.
    let depth = pass.depth;
    if buf.levels.len() < depth {
        buf.levels.resize_with(depth, Vec::new);
    }
    for level in &mut buf.levels {
        level.clear();
    }
    let mut last_full = 0;
    for d in 0..depth {
        if let Some(deadline) = pass.deadline
            && Instant::now() >= deadline
        {
            return None;
        }
        let (before, rest) = buf.levels.split_at_mut(d);
        let parents: &[Node] = if d == 0 {
            std::slice::from_ref(root)
        } else {
            &before[d - 1]
        };
        buf.children.clear();
        buf.merge.clear();
        for (pi, parent) in parents.iter().enumerate() {
            // Check the deadline every 16 parents too, not only between depths: one depth of a
            // wide beam can take longer than the whole budget.
            if pi % 16 == 15
                && let Some(deadline) = pass.deadline
                && Instant::now() >= deadline
            {
                return None;
            }
            expand(
                pass,
                d,
                pi as u32,
                parent,
                tables,
                &mut buf.children,
                &mut buf.merge,
                &mut buf.placements,
                counters,
            );
        }
        if buf.children.is_empty() {
            break;
        }
        select(&mut buf.children, pass.width);
        rest[0].extend_from_slice(&buf.children);
        last_full = d + 1;
    }
    if last_full == 0 {
        return None;
    }
    // The best node of the deepest level reached; the level is sorted best first.
    let best = buf.levels[last_full - 1][0];
    let mut placements = vec![best.placement; last_full];
    let mut at = best;
    for d in (0..last_full).rev() {
        placements[d] = at.placement;
        if d > 0 {
            at = buf.levels[d - 1][at.parent as usize];
        }
    }
    // Other first moves, in the order of their best descendant at the deepest level.
    let mut alternatives: Vec<Placement> = Vec::with_capacity(ALTERNATIVES);
    for node in &buf.levels[last_full - 1] {
        if alternatives.len() == ALTERNATIVES {
            break;
        }
        let mut n = *node;
        for d in (1..last_full).rev() {
            n = buf.levels[d - 1][n.parent as usize];
        }
        if n.placement != placements[0] && !alternatives.contains(&n.placement) {
            alternatives.push(n.placement);
        }
    }
    Some(Line {
        placements,
        uses_hold: at.held,
        score: best.total,
        board_after_first: at.board,
        alternatives,
    })
}

/// One way to play a parent's turn: (piece to place, hold afterwards, index of the next piece
/// afterwards, whether it holds).
type Choice = (Piece, Option<Piece>, usize, bool);

/// Generates every child of `parent` (placing the next piece, or holding), scores it through
/// the depth-`d` table, and merges identical states.
#[allow(clippy::too_many_arguments)]
fn expand<E: Evaluator>(
    pass: &Pass<'_, E>,
    d: usize,
    parent_index: u32,
    parent: &Node,
    tables: &mut DepthTables<PositionEval, Board>,
    children: &mut Vec<Node>,
    merge: &mut HashTable<u32>,
    placements: &mut Vec<Placement>,
    counters: &mut PassCounters,
) {
    let q = parent.next as usize;
    let Some(&current) = pass.pieces.get(q) else {
        return;
    };
    let mut options: [Option<Choice>; 2] = [Some((current, parent.hold, q + 1, false)), None];
    match parent.hold {
        _ if !pass.use_hold => {}
        // Swapping equal pieces changes nothing: the same state as not holding.
        Some(h) if h != current => options[1] = Some((h, Some(current), q + 1, true)),
        Some(_) => {}
        // Holding into an empty hold banks the current piece and plays the next one. Even
        // when the next piece equals the current one this is another state (hold filled, the
        // queue two ahead).
        None => {
            if let Some(&next) = pass.pieces.get(q + 1) {
                options[1] = Some((next, Some(current), q + 2, true));
            }
        }
    }
    for (piece, hold, next, held) in options.into_iter().flatten() {
        generate_into(&parent.board, piece, pass.rules, placements);
        let pending = pass.pieces.get(next..).unwrap_or(&[]);
        for p in placements.iter() {
            if p.locks_out() {
                continue;
            }
            let mut board = parent.board;
            let outcome = lock(&mut board, p, parent.carried);
            let key = position_key(&board, hold);
            let eval = if pass.use_cache {
                let c = &mut counters.depth[d];
                c.lookups += 1;
                match tables.table(d).lookup(key) {
                    Ok(v) => {
                        c.hits += 1;
                        v
                    }
                    Err(vacant) => {
                        counters.evaluations += 1;
                        vacant.insert(pass.evaluator.position(&board, hold))
                    }
                }
            } else {
                counters.evaluations += 1;
                pass.evaluator.position(&board, hold)
            };
            let step = StepContext {
                piece,
                outcome: &outcome,
                b2b_before: parent.carried.b2b,
                depth: d,
                pending,
                hold,
                pieces_placed: pass.pieces_placed + d as u64,
            };
            let s = pass.evaluator.context(&eval, &step);
            counters.nodes += 1;
            let acc = parent.acc + s.reward;
            let child = Node {
                board,
                hold,
                carried: outcome.carried,
                next: next as u8,
                acc,
                total: acc + eval.value + s.leaf,
                parent: parent_index,
                placement: *p,
                key,
                seq: 0,
                held,
            };
            push_merged(children, merge, child);
        }
    }
}

/// Identity of a state within one depth: the cache key plus everything carried that the key
/// does not cover.
#[inline]
fn merge_hash(n: &Node) -> u64 {
    n.key
        ^ (n.carried.combo as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ ((n.carried.b2b as u64) << 63)
        ^ ((n.next as u64) << 56)
}

/// Whether two nodes of one depth are the same state. Equal keys are only a hint (64-bit
/// hashes can collide); the boards decide.
#[inline]
fn same_state(a: &Node, b: &Node) -> bool {
    a.key == b.key
        && a.board == b.board
        && a.carried == b.carried
        && a.next == b.next
        && a.hold == b.hold
}

/// Adds `child`, or keeps the better of it and an identical state already there (the first
/// one on a tie, so the result does not depend on anything but generation order).
fn push_merged(children: &mut Vec<Node>, merge: &mut HashTable<u32>, child: Node) {
    let h = merge_hash(&child);
    match merge.find(h, |&i| same_state(&children[i as usize], &child)) {
        Some(&i) => {
            let old = &mut children[i as usize];
            if child.total > old.total {
                *old = Node {
                    seq: old.seq,
                    ..child
                };
            }
        }
        None => {
            let i = children.len() as u32;
            children.push(Node { seq: i, ..child });
            merge.insert_unique(h, i, |&j| merge_hash(&children[j as usize]));
        }
    }
}

/// Keeps the best `width` children, sorted best first; ties go to the earlier-generated one.
fn select(children: &mut Vec<Node>, width: usize) {
    let cmp = |a: &Node, b: &Node| b.total.cmp(&a.total).then(a.seq.cmp(&b.seq));
    if children.len() > width {
        children.select_nth_unstable_by(width - 1, cmp);
        children.truncate(width);
    }
    children.sort_unstable_by(cmp);
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{Rotation, Spin};

    fn node(board: Board, key: u64) -> Node {
        Node {
            board,
            hold: None,
            carried: Carried::default(),
            next: 1,
            acc: 0,
            total: 0,
            parent: 0,
            placement: Placement {
                piece: Piece::T,
                rotation: Rotation::North,
                x: 4,
                y: 0,
                spin: Spin::None,
            },
            key,
            seq: 0,
            held: false,
        }
    }

    /// Merging compares hashes only: two different boards whose 64-bit keys collide were
    /// merged into one state, and one of them vanished from the search.
    #[test]
    fn merging_compares_hashes_only_colliding_keys_of_different_boards_stay_apart() {
        let a = Board::new();
        let mut b = Board::new();
        b.set(0, 0);
        let mut children = Vec::new();
        let mut merge = HashTable::new();
        push_merged(&mut children, &mut merge, node(a, 42));
        push_merged(&mut children, &mut merge, node(b, 42));
        assert_eq!(children.len(), 2, "a hash collision is not a transposition");
        // A true duplicate still merges, keeping the better total.
        push_merged(
            &mut children,
            &mut merge,
            Node {
                total: 5,
                ..node(b, 42)
            },
        );
        assert_eq!(children.len(), 2);
        assert_eq!(children[1].total, 5);
    }
}
