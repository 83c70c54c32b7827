//! The beam search.

use crate::config::MoveChoice;
use crate::eval::{Evaluator, PositionEval, StepContext};
use board::{Board, Piece, Placement, Rules, generate_into};
use game::{BagState, Carried, PieceSet, locked};
use hashbrown::HashTable;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
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
    /// Generation order within its depth: the tie-breaker that makes selection deterministic.
    pub(crate) seq: u32,
    /// Whether the placement that led here used hold.
    pub(crate) held: bool,
}

/// A child as a depth's candidate list keeps it: a [`Node`] without its board (48 bytes, where
/// a board alone is 88). A depth has thousands of children, so the board is derived again (its
/// placement locked on its parent's board, which gives the same board) for the few children
/// that are kept or compared.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    hold: Option<Piece>,
    carried: Carried,
    next: u8,
    acc: i32,
    total: i32,
    /// Index of the parent in the previous depth's level.
    parent: u32,
    placement: Placement,
    key: u64,
    /// Its place in generation order within its depth (on one thread, its index in the list).
    seq: u32,
    held: bool,
    eval: PositionEval,
}

// What keeping children without boards is for: a child well under half a node.
const _: () = assert!(size_of::<Child>() <= 48 && size_of::<Node>() <= 120);

impl Child {
    /// The board this child's placement leaves on its parent's board.
    #[inline]
    fn board(&self, parents: &[Node]) -> Board {
        let p = &parents[self.parent as usize];
        locked(&p.board, &self.placement, p.carried).0
    }

    /// The node, with its board.
    #[inline]
    fn node(&self, parents: &[Node]) -> Node {
        Node {
            board: self.board(parents),
            hold: self.hold,
            carried: self.carried,
            next: self.next,
            acc: self.acc,
            total: self.total,
            parent: self.parent,
            placement: self.placement,
            seq: self.seq,
            held: self.held,
        }
    }
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
    /// How many of `levels` the last pass completed (all of them when it finished; those
    /// before the one it was interrupted in, when it was).
    pub(crate) done: usize,
    pub(crate) children: Vec<Child>,
    /// The children's ranks, for selecting the best of them (see `select`).
    pub(crate) ranks: Vec<u64>,
    pub(crate) merge: HashTable<u32>,
    pub(crate) scratch: Scratch,
    /// One per search thread when the search runs on several; empty on one.
    pub(crate) workers: Vec<Worker>,
    /// Which worker expanded each parent of a depth, and where its children are.
    pub(crate) by_parent: Vec<Expanded>,
}

/// A parent expanded on one of several threads: (the parent, or in `Buffers::by_parent` the
/// worker; its first child in that worker's children; one past its last; the nodes it
/// scored, in `by_parent` then replaced by its first child's place in generation order).
type Expanded = (u32, u32, u32, u64);

/// What one search thread works in while a depth's parents (or the speculated lines) are
/// shared out: its own children, merge table, scratch buffers and counters, and what it took.
/// Aligned to two cache lines, so that two threads writing their own workers never write
/// one line.
#[derive(Default)]
#[repr(align(128))]
pub(crate) struct Worker {
    children: Vec<Child>,
    /// The states of its share of the hashes, merged, in generation order.
    kept: Vec<Child>,
    merge: HashTable<u32>,
    scratch: Scratch,
    counters: PassCounters,
    /// The depth counters when the work started (what its own counts are added to).
    base: Vec<DepthCounters>,
    /// The parents it expanded: (parent, its first child, one past its last, nodes scored).
    parents: Vec<Expanded>,
    /// The speculated lines it valued: (index, value).
    values: Vec<(u32, i32)>,
    /// Whether the deadline or a stop cut its work short.
    interrupted: bool,
}

impl Worker {
    fn bytes(&self) -> usize {
        (self.children.capacity() + self.kept.capacity()) * size_of::<Child>()
            + self.merge.allocation_size()
            + self.scratch.bytes()
            + (self.counters.depth.capacity() + self.base.capacity()) * size_of::<DepthCounters>()
            + self.parents.capacity() * size_of::<Expanded>()
            + self.values.capacity() * size_of::<(u32, i32)>()
    }

    /// Starts a piece of shared work: nothing taken or scored yet, the depth counters as the
    /// search has them (the probing cap reads them).
    fn start(&mut self, counters: &PassCounters) {
        self.children.clear();
        self.merge.clear();
        self.parents.clear();
        self.values.clear();
        self.counters.nodes = 0;
        self.counters.evaluations = 0;
        self.counters.depth.clone_from(&counters.depth);
        self.base.clone_from(&counters.depth);
        self.interrupted = false;
    }
}

/// Buffers reused by every parent and speculated line.
#[derive(Default)]
pub(crate) struct Scratch {
    placements: Vec<Placement>,
    /// A parent's placements locked, waiting to be scored.
    locked: Vec<Locked>,
    /// The first speculated piece's placements, while the second piece is speculated.
    first: Vec<Locked>,
    /// The held piece's placements on a speculated line, with their evaluations: the same
    /// boards whichever piece comes next and goes into hold (see [`speculate`]).
    held: Vec<(Locked, PositionEval)>,
}

impl Scratch {
    fn bytes(&self) -> usize {
        self.placements.capacity() * size_of::<Placement>()
            + (self.locked.capacity() + self.first.capacity()) * size_of::<Locked>()
            + self.held.capacity() * size_of::<(Locked, PositionEval)>()
    }
}

/// A placement locked on its parent's board, with the key of the result.
#[derive(Clone, Copy)]
pub(crate) struct Locked {
    board: Board,
    outcome: game::Outcome,
    key: u64,
    placement: Placement,
}

impl Buffers {
    pub(crate) fn bytes(&self) -> usize {
        self.levels.capacity() * size_of::<Vec<Node>>()
            + self
                .levels
                .iter()
                .map(|l| l.capacity() * size_of::<Node>())
                .sum::<usize>()
            + self.children.capacity() * size_of::<Child>()
            + self.ranks.capacity() * size_of::<u64>()
            + self.merge.allocation_size()
            + self.scratch.bytes()
            + self.workers.capacity() * size_of::<Worker>()
            + self.workers.iter().map(Worker::bytes).sum::<usize>()
            + self.by_parent.capacity() * size_of::<Expanded>()
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
    /// What is known of the randomizer (a 7-bag) at the end of the known queue: the pass
    /// then speculates one piece past the queue.
    pub(crate) speculate: Option<BagState>,
    /// How many of the deepest level's best nodes speculation scores.
    pub(crate) speculate_top: usize,
    /// How many of the best speculated lines (by their one-piece expectation) also speculate
    /// a second piece past the queue; 0 for none.
    pub(crate) speculate_deep: usize,
    /// How the first move is picked from the final level.
    pub(crate) choice: MoveChoice,
    /// What moves cost in frames.
    pub(crate) frame_costs: &'a game::FrameCosts,
    /// Garbage known to be coming.
    pub(crate) incoming: u32,
    pub(crate) deadline: Option<Instant>,
    /// Stop once the search has scored this many candidates (all passes counted): a
    /// deadline in work instead of time, so that it is reproducible.
    pub(crate) node_limit: Option<u64>,
    /// Set from another thread to stop the pass.
    pub(crate) stop: Option<&'a std::sync::atomic::AtomicBool>,
    pub(crate) pieces_placed: u64,
    /// How many threads share the work (see `Config::search_threads`).
    pub(crate) threads: usize,
}

impl<E: Evaluator> Pass<'_, E> {
    /// Whether the pass must stop: its deadline passed, its node limit was reached (`nodes`
    /// scored so far), or a stop was asked for.
    #[inline]
    fn interrupted(&self, nodes: u64) -> bool {
        self.node_limit.is_some_and(|l| nodes >= l) || self.out_of_time()
    }

    /// Whether the deadline passed or a stop was asked for: what the threads sharing a depth
    /// check (the node limit is checked once the depth is done, as one thread would have).
    #[inline]
    fn out_of_time(&self) -> bool {
        self.stop
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The best line found by a pass: placements from the root, and its score.
pub(crate) struct Line {
    pub(crate) placements: Vec<Placement>,
    /// Whether the first placement uses hold.
    pub(crate) uses_hold: bool,
    /// Whether each placement of the line uses hold.
    pub(crate) holds: Vec<bool>,
    pub(crate) score: i32,
    pub(crate) board_after_first: Board,
    /// Other first moves, best first: the first placements of the next-best lines.
    pub(crate) alternatives: Vec<Placement>,
}

/// How many other first moves a line reports.
const ALTERNATIVES: usize = 4;

#[derive(Default)]
pub(crate) struct PassCounters {
    pub(crate) nodes: u64,
    pub(crate) evaluations: u64,
    pub(crate) depth: Vec<DepthCounters>,
}

impl PassCounters {
    /// Adds what `w` counted since its share started.
    fn absorb(&mut self, w: &Worker) {
        self.nodes += w.counters.nodes;
        self.evaluations += w.counters.evaluations;
        for ((c, now), then) in self.depth.iter_mut().zip(&w.counters.depth).zip(&w.base) {
            c.lookups += now.lookups - then.lookups;
            c.hits += now.hits - then.hits;
        }
    }
}

/// Runs `work(index, worker)` for every index below `items` on `threads` workers together in
/// the current rayon pool, each taking the next index not yet taken, so that a thread that
/// started late or met slower items does less; then adds the workers' counts to `counters`.
/// Returns the workers used.
fn together<'w>(
    items: usize,
    threads: usize,
    workers: &'w mut Vec<Worker>,
    counters: &mut PassCounters,
    work: impl Fn(usize, &mut Worker) + Sync,
) -> &'w [Worker] {
    let threads = threads.clamp(1, items.max(1));
    if workers.len() < threads {
        workers.resize_with(threads, Worker::default);
    }
    let workers = &mut workers[..threads];
    for w in workers.iter_mut() {
        w.start(counters);
    }
    let next = AtomicUsize::new(0);
    workers.par_iter_mut().for_each(|w| {
        while !w.interrupted {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= items {
                break;
            }
            work(i, w);
        }
    });
    for w in workers.iter() {
        counters.absorb(w);
    }
    workers
}

/// Runs one pass of the beam search from `root`: the levels, then the candidates for the best
/// line, then the move. Its first `from` levels are taken as they are in `buf.levels` (the
/// levels an earlier pass of the same width and root completed; see `Engine`'s kept passes).
/// Returns `None` when the deadline passed before the pass finished, or when no placement
/// exists at all.
pub(crate) fn run_pass<E: Evaluator>(
    pass: &Pass<'_, E>,
    root: &Node,
    tables: &DepthTables<PositionEval, Board>,
    buf: &mut Buffers,
    counters: &mut PassCounters,
    from: usize,
) -> Option<Line> {
    let last_full = grow(pass, root, tables, buf, counters, from)?;
    let levels = &buf.levels[..last_full];
    let buffers = (&mut buf.scratch, &mut buf.workers);
    let candidates = candidates(pass, levels, tables, buffers, counters);
    let chosen = choose(pass.choice, levels, &candidates);
    Some(line_of(levels, &candidates, chosen))
}

/// Fills the beam's levels depth by depth from `root`, from level `from` on (the ones before
/// are complete already): each depth's parents are expanded and the best `pass.width`
/// children kept. Counts the complete levels in `buf.done` and returns that count, or
/// `None` when the pass was interrupted or no placement exists.
fn grow<E: Evaluator>(
    pass: &Pass<'_, E>,
    root: &Node,
    tables: &DepthTables<PositionEval, Board>,
    buf: &mut Buffers,
    counters: &mut PassCounters,
    from: usize,
) -> Option<usize> {
    // The engine already capped the depth at the number of known pieces.
    let depth = pass.depth;
    debug_assert!(from <= depth);
    if buf.levels.len() < depth {
        buf.levels.resize_with(depth, Vec::new);
    }
    for level in &mut buf.levels[from..] {
        level.clear();
    }
    buf.done = from;
    for d in from..depth {
        if pass.interrupted(counters.nodes) {
            return None;
        }
        let (before, rest) = buf.levels.split_at_mut(d);
        let parents: &[Node] = if d == 0 {
            std::slice::from_ref(root)
        } else {
            &before[d - 1]
        };
        if pass.threads > 1 && parents.len() > 1 {
            let kept = expand_together(
                pass,
                d,
                parents,
                tables,
                (&mut buf.workers, &mut buf.by_parent),
                (&mut buf.ranks, &mut rest[0]),
                counters,
            )?;
            if kept == 0 {
                break;
            }
        } else {
            buf.children.clear();
            buf.merge.clear();
            for (pi, parent) in parents.iter().enumerate() {
                // Check the deadline every 16 parents too, not only between depths: one depth
                // of a wide beam can take longer than the whole budget.
                if pi % 16 == 15 && pass.interrupted(counters.nodes) {
                    return None;
                }
                expand(
                    pass,
                    d,
                    pi as u32,
                    parent,
                    tables,
                    parents,
                    (&mut buf.children, &mut buf.merge, true),
                    (&mut buf.scratch.placements, &mut buf.scratch.locked),
                    counters,
                );
            }
            if buf.children.is_empty() {
                break;
            }
            select(
                &[&buf.children],
                parents,
                pass.width,
                &mut buf.ranks,
                &mut rest[0],
            );
        }
        buf.done = d + 1;
    }
    (buf.done > 0).then_some(buf.done)
}

/// Expands `parents` at depth `d` on the search's threads and keeps the best `pass.width`
/// children in `level`, as [`expand`] parent by parent and [`select`] would on one thread.
///
/// Each parent goes to the worker that takes it; a state met again takes the evaluation found
/// first (a table hit while the depth probes the table, else from the worker's own merge
/// table), but every child is kept. Then each worker merges the states of
/// its share of the hashes, walking all the children parent by parent in order, so a state is
/// kept where one thread would have kept it (the best total, the first on a tie) and numbered
/// by its first occurrence in that order; and the best are selected across the shares by
/// (total, that number). Returns how many states there were, or `None` when the pass is
/// interrupted: by the clock or a stop within the depth, or by the node limit exactly where
/// one thread would have been (before every 16th parent, from the nodes each parent scored),
/// counting then the nodes one thread would have.
fn expand_together<E: Evaluator>(
    pass: &Pass<'_, E>,
    d: usize,
    parents: &[Node],
    tables: &DepthTables<PositionEval, Board>,
    (workers, by_parent): (&mut Vec<Worker>, &mut Vec<Expanded>),
    (ranks, level): (&mut Vec<u64>, &mut Vec<Node>),
    counters: &mut PassCounters,
) -> Option<usize> {
    let nodes_before = counters.nodes;
    let work = |pi: usize, w: &mut Worker| {
        if pi % 16 == 15 && pass.out_of_time() {
            w.interrupted = true;
            return;
        }
        let (first, before) = (w.children.len() as u32, w.counters.nodes);
        expand(
            pass,
            d,
            pi as u32,
            &parents[pi],
            tables,
            parents,
            (&mut w.children, &mut w.merge, false),
            (&mut w.scratch.placements, &mut w.scratch.locked),
            &mut w.counters,
        );
        let last = w.children.len() as u32;
        w.parents
            .push((pi as u32, first, last, w.counters.nodes - before));
    };
    let threads = together(parents.len(), pass.threads, workers, counters, work).len();
    let workers = &mut workers[..threads];
    if workers.iter().any(|w| w.interrupted) {
        return None;
    }
    // Each parent's worker and children, and the number of its first child in the order one
    // thread generates them (in place of the nodes it scored, once those are checked).
    by_parent.clear();
    by_parent.resize(parents.len(), (0, 0, 0, 0));
    for (k, w) in workers.iter().enumerate() {
        for &(pi, first, last, nodes) in &w.parents {
            by_parent[pi as usize] = (k as u32, first, last, nodes);
        }
    }
    let mut nodes = nodes_before;
    let mut ordinal = 0u64;
    for (pi, p) in by_parent.iter_mut().enumerate() {
        if pass
            .node_limit
            .is_some_and(|limit| pi % 16 == 15 && nodes >= limit)
        {
            // The nodes one thread would have scored: a node budget's charge is the same on
            // any number of threads.
            counters.nodes = nodes;
            return None;
        }
        nodes += p.3;
        p.3 = ordinal;
        ordinal += (p.2 - p.1) as u64;
    }
    // The children stay where they were made; each worker merges its share of the states
    // into `kept`, reading every worker's children.
    let made: Vec<Vec<Child>> = workers
        .iter_mut()
        .map(|w| std::mem::take(&mut w.children))
        .collect();
    let by_parent: &[Expanded] = by_parent;
    workers.par_iter_mut().enumerate().for_each(|(share, w)| {
        w.kept.clear();
        w.merge.clear();
        for &(k, first, last, ordinal) in by_parent {
            let run = &made[k as usize][first as usize..last as usize];
            for (j, c) in run.iter().enumerate() {
                let h = merge_hash(c);
                if share_of(h, threads) != share {
                    continue;
                }
                let twin = w
                    .merge
                    .find(h, |&i| same_state(&w.kept[i as usize], c, parents))
                    .copied();
                let seq = (ordinal + j as u64) as u32;
                keep_merged_as(&mut w.kept, &mut w.merge, h, twin, *c, seq);
            }
        }
    });
    for (w, children) in workers.iter_mut().zip(made) {
        w.children = children;
    }
    let kept: Vec<&[Child]> = workers.iter().map(|w| &w.kept[..]).collect();
    let states = kept.iter().map(|k| k.len()).sum();
    select(&kept, parents, pass.width, ranks, level);
    Some(states)
}

/// Which of `shares` shares of the states a merge hash belongs to: from its high bits, so
/// that the bits each share's hash table indexes by stay spread.
#[inline]
fn share_of(h: u64, shares: usize) -> usize {
    (((h >> 32) * shares as u64) >> 32) as usize
}

/// Whether two children of `parents` are the same state: the key and the carried state, then
/// the boards (derived only when all else is equal).
#[inline]
fn same_state(a: &Child, b: &Child, parents: &[Node]) -> bool {
    a.key == b.key
        && a.carried == b.carried
        && a.next == b.next
        && a.hold == b.hold
        && a.board(parents) == b.board(parents)
}

/// The candidates for the best line, as (level, index, score), best first.
fn candidates<E: Evaluator>(
    pass: &Pass<'_, E>,
    levels: &[Vec<Node>],
    tables: &DepthTables<PositionEval, Board>,
    (scratch, workers): (&mut Scratch, &mut Vec<Worker>),
    counters: &mut PassCounters,
) -> Vec<(usize, usize, i32)> {
    // The candidates for the best line, as (level, index): the final level, sorted best
    // first; with speculation, every node that has placed all known pieces, wherever its line
    // ends (a line that held into an empty hold runs out of pieces one depth early), each
    // scored by the mean, over the pieces that can come next, of its best child with that
    // piece. Only the best `speculate_top` by their own totals are speculated.
    let mut candidates: Vec<(usize, usize, i32)> = Vec::new();
    if let Some(bag) = pass.speculate {
        let possible = bag.possible();
        for (d, level) in levels.iter().enumerate() {
            for (i, n) in level.iter().enumerate() {
                if n.next as usize == pass.pieces.len() {
                    candidates.push((d, i, n.total));
                }
            }
        }
        // Best first; ties to the deeper line, then generation order.
        candidates.sort_unstable_by(|a, b| {
            b.2.cmp(&a.2)
                .then(b.0.cmp(&a.0))
                .then(levels[a.0][a.1].seq.cmp(&levels[b.0][b.1].seq))
        });
        candidates.truncate(pass.speculate_top);
        let one = |n: &Node, d, scratch: &mut Scratch, counters: &mut PassCounters| {
            speculate(pass, d, n, possible, tables, scratch, counters)
        };
        value_each(
            pass,
            levels,
            &mut candidates,
            (scratch, workers),
            counters,
            one,
        );
        // The best of those by their one-piece expectation also look a second piece
        // ahead; only they remain candidates, so that lines are compared at one depth.
        if pass.speculate_deep > 0 {
            candidates.sort_by_key(|c| std::cmp::Reverse(c.2));
            candidates.truncate(pass.speculate_deep);
            let two = |n: &Node, d, scratch: &mut Scratch, counters: &mut PassCounters| {
                speculate_two(pass, d, n, bag, tables, scratch, counters)
            };
            value_each(
                pass,
                levels,
                &mut candidates,
                (scratch, workers),
                counters,
                two,
            );
        }
        // A stable sort keeps the order above among equal expectations.
        candidates.sort_by_key(|c| std::cmp::Reverse(c.2));
    }
    if candidates.is_empty() {
        let last = levels.len() - 1;
        candidates.extend(
            levels[last]
                .iter()
                .enumerate()
                .map(|(i, n)| (last, i, n.total)),
        );
    }
    candidates
}

/// Sets the score of each candidate (level, index, score) to `value(its node, the depth
/// below it, scratch, counters)`: in order on one thread, or on the search's threads (each
/// value depends on the node alone, so which thread computes it changes nothing).
fn value_each<E: Evaluator>(
    pass: &Pass<'_, E>,
    levels: &[Vec<Node>],
    candidates: &mut [(usize, usize, i32)],
    (scratch, workers): (&mut Scratch, &mut Vec<Worker>),
    counters: &mut PassCounters,
    value: impl Fn(&Node, usize, &mut Scratch, &mut PassCounters) -> i32 + Sync,
) {
    if pass.threads > 1 && candidates.len() > 1 {
        let list: &[(usize, usize, i32)] = candidates;
        let work = |i: usize, w: &mut Worker| {
            let c = list[i];
            let v = value(&levels[c.0][c.1], c.0 + 1, &mut w.scratch, &mut w.counters);
            w.values.push((i as u32, v));
        };
        let workers = together(list.len(), pass.threads, workers, counters, work);
        for w in workers.iter() {
            for &(i, v) in &w.values {
                candidates[i as usize].2 = v;
            }
        }
    } else {
        for c in candidates {
            c.2 = value(&levels[c.0][c.1], c.0 + 1, scratch, counters);
        }
    }
}

/// The first move of the candidate at (level `d`, index `i`).
fn root_of(levels: &[Vec<Node>], (d, i): (usize, usize)) -> Node {
    let mut n = levels[d][i];
    for k in (1..=d).rev() {
        n = levels[k - 1][n.parent as usize];
    }
    n
}

/// Which candidate's line is played, by `choice`.
fn choose(choice: MoveChoice, levels: &[Vec<Node>], candidates: &[(usize, usize, i32)]) -> usize {
    let root_of = |c| root_of(levels, c);
    match choice {
        MoveChoice::BestLeaf => 0,
        MoveChoice::TopMean(k) => {
            // Per first move, the mean of its best `k` candidates' scores; a move with fewer
            // than `k` fills the rest with the worst candidate's score (fewer good
            // continuations count against it). Ties to the move whose best candidate ranks
            // first.
            let k = k.max(1) as i64;
            let floor = candidates.last().expect("there is a candidate").2 as i64;
            // (first move, held, sum of its best scores, how many, rank of its best)
            let mut moves: Vec<(Placement, bool, i64, i64, usize)> = Vec::new();
            for (rank, c) in candidates.iter().enumerate() {
                let r = root_of((c.0, c.1));
                match moves
                    .iter_mut()
                    .find(|m| m.0 == r.placement && m.1 == r.held)
                {
                    Some(m) if m.3 < k => {
                        m.2 += c.2 as i64;
                        m.3 += 1;
                    }
                    Some(_) => {}
                    None => moves.push((r.placement, r.held, c.2 as i64, 1, rank)),
                }
            }
            moves
                .iter()
                .map(|m| (m.2 + (k - m.3) * floor, m.4))
                .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
                .expect("there is a candidate")
                .1
        }
    }
}

/// The line of candidate `chosen`, and the other first moves.
fn line_of(levels: &[Vec<Node>], candidates: &[(usize, usize, i32)], chosen: usize) -> Line {
    let (best_d, best_i, score) = candidates[chosen];
    let mut placements = Vec::with_capacity(best_d + 1);
    let mut holds = Vec::with_capacity(best_d + 1);
    let mut at = levels[best_d][best_i];
    placements.push(at.placement);
    holds.push(at.held);
    for k in (1..=best_d).rev() {
        at = levels[k - 1][at.parent as usize];
        placements.push(at.placement);
        holds.push(at.held);
    }
    placements.reverse();
    holds.reverse();
    // Other first moves, in the order of their best candidate.
    let mut alternatives: Vec<Placement> = Vec::with_capacity(ALTERNATIVES);
    for c in candidates {
        if alternatives.len() == ALTERNATIVES {
            break;
        }
        let n = root_of(levels, (c.0, c.1));
        if n.placement != placements[0] && !alternatives.contains(&n.placement) {
            alternatives.push(n.placement);
        }
    }
    Line {
        placements,
        holds,
        uses_hold: at.held,
        score,
        board_after_first: at.board,
        alternatives,
    }
}

/// The expected value of `node` one piece past the queue: the mean over the pieces that can
/// come next of the best child with that piece (placed, or swapped with the held piece).
/// Children are scored through the depth-`d` table like any others, but for the held piece's
/// boards: their evaluations are turned from one next piece to the others.
fn speculate<E: Evaluator>(
    pass: &Pass<'_, E>,
    d: usize,
    node: &Node,
    possible: PieceSet,
    tables: &DepthTables<PositionEval, Board>,
    scratch: &mut Scratch,
    counters: &mut PassCounters,
) -> i32 {
    let Scratch {
        placements,
        locked,
        held,
        ..
    } = scratch;
    // Holding swaps the held piece in for whichever piece comes: the same boards each time,
    // with another piece in hold. They are locked and evaluated for the first such piece and
    // kept; for the others the evaluator turns the evaluation to the new hold when it can
    // (`Evaluator::with_hold`), and else it goes through the table like any other.
    held.clear();
    let mut held_with: Option<Piece> = None;
    let mut sum = 0i64;
    for piece in possible.iter() {
        let mut best = i32::MIN;
        let mut visit = |c: &Child| best = best.max(c.total);
        let place = (piece, node.hold, false);
        speculated_option(
            pass,
            d,
            node,
            place,
            tables,
            (placements, locked),
            counters,
            |_, c| visit(c),
        );
        if pass.use_hold
            && let Some(h) = node.hold
            && h != piece
        {
            let hold = Some(piece);
            let choice = (h, hold, node.next, true);
            if let Some(before) = held_with {
                let probe = probes(pass, d, tables, counters);
                for (l, e) in held.iter() {
                    let known = pass.evaluator.with_hold(e, Some(before), hold);
                    // Without the shortcut the table is asked under this hold's key.
                    let rekeyed;
                    let l = if known.is_some() {
                        l
                    } else {
                        rekeyed = Locked {
                            key: position_key(&l.board, hold),
                            ..*l
                        };
                        &rekeyed
                    };
                    let c = score_locked(
                        pass,
                        d,
                        node,
                        0,
                        l,
                        choice,
                        &[],
                        known,
                        (tables, probe),
                        counters,
                    );
                    visit(&c);
                }
            } else {
                held_with = hold;
                let option = (h, hold, true);
                speculated_option(
                    pass,
                    d,
                    node,
                    option,
                    tables,
                    (placements, locked),
                    counters,
                    |l, c| {
                        held.push((*l, c.eval));
                        visit(c)
                    },
                );
            }
        }
        // No placement for this piece: the game would be over.
        sum += if best == i32::MIN {
            node.acc as i64 - TOPPED_OUT as i64
        } else {
            best as i64
        };
    }
    (sum / possible.len() as i64) as i32
}

/// The expected value of `node` two pieces past the queue: the mean over the pieces the bag
/// can give first of the best of that piece's children, each valued by [`speculate`] over
/// the pieces the bag can give after it. The children of the first piece are scored through
/// the depth-`d` table and ranked by their own totals; the best [`DEEP_CHILDREN`] of them
/// look at the second piece, through the depth-`d + 1` table.
fn speculate_two<E: Evaluator>(
    pass: &Pass<'_, E>,
    d: usize,
    node: &Node,
    bag: BagState,
    tables: &DepthTables<PositionEval, Board>,
    scratch: &mut Scratch,
    counters: &mut PassCounters,
) -> i32 {
    let possible = bag.possible();
    let mut sum = 0i64;
    for piece in possible.iter() {
        let after = bag
            .draw(piece)
            .expect("a piece the bag can give")
            .possible();
        // The best children with this piece: (total, child node), best first, ties to the
        // earlier-generated.
        let mut top: [Option<(i32, Node)>; DEEP_CHILDREN] = [None; DEEP_CHILDREN];
        speculated_children(
            pass,
            d,
            node,
            piece,
            tables,
            (&mut scratch.placements, &mut scratch.first),
            counters,
            |l, c, hold, held| {
                let Some(at) = top
                    .iter()
                    .position(|t| t.as_ref().is_none_or(|t| c.total > t.0))
                else {
                    return;
                };
                top.copy_within(at..DEEP_CHILDREN - 1, at + 1);
                top[at] = Some((
                    c.total,
                    Node {
                        board: l.board,
                        hold,
                        carried: c.carried,
                        next: node.next,
                        acc: c.acc,
                        total: c.total,
                        parent: 0,
                        placement: l.placement,
                        seq: 0,
                        held,
                    },
                ));
            },
        );
        let mut best = i32::MIN;
        for (_, child) in top.iter().flatten() {
            let v = speculate(pass, d + 1, child, after, tables, scratch, counters);
            best = best.max(v);
        }
        // No placement for this piece: the game would be over.
        sum += if best == i32::MIN {
            node.acc as i64 - TOPPED_OUT as i64
        } else {
            best as i64
        };
    }
    (sum / possible.len() as i64) as i32
}

/// Scores every child of `node` when `piece` comes next past the queue (placed, or swapped
/// with the held piece) through the depth-`d` table, and calls `visit` with each locked
/// placement, its child, the hold after it and whether it held. Inline, as the loop it came
/// from was.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn speculated_children<E: Evaluator>(
    pass: &Pass<'_, E>,
    d: usize,
    node: &Node,
    piece: Piece,
    tables: &DepthTables<PositionEval, Board>,
    (placements, locked): (&mut Vec<Placement>, &mut Vec<Locked>),
    counters: &mut PassCounters,
    mut visit: impl FnMut(&Locked, &Child, Option<Piece>, bool),
) {
    let mut options = [Some((piece, node.hold, false)), None];
    if pass.use_hold
        && let Some(h) = node.hold
        && h != piece
    {
        options[1] = Some((h, Some(piece), true));
    }
    for option in options.into_iter().flatten() {
        let (_, hold, held) = option;
        let scratch = (&mut *placements, &mut *locked);
        speculated_option(pass, d, node, option, tables, scratch, counters, |l, c| {
            visit(l, c, hold, held)
        });
    }
}

/// Scores every child of `node` that places `placed` with `hold` in hold afterwards (`held`:
/// whether that holds) through the depth-`d` table, and calls `visit` with each locked
/// placement and its child.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn speculated_option<E: Evaluator>(
    pass: &Pass<'_, E>,
    d: usize,
    node: &Node,
    (placed, hold, held): (Piece, Option<Piece>, bool),
    tables: &DepthTables<PositionEval, Board>,
    (placements, locked): (&mut Vec<Placement>, &mut Vec<Locked>),
    counters: &mut PassCounters,
    mut visit: impl FnMut(&Locked, &Child),
) {
    let probe = probes(pass, d, tables, counters);
    lock_all(
        pass,
        d,
        node,
        (placed, hold),
        tables,
        probe,
        placements,
        locked,
    );
    for l in locked.iter() {
        let c = score_locked(
            pass,
            d,
            node,
            0,
            l,
            (placed, hold, node.next, held),
            &[],
            None,
            (tables, probe),
            counters,
        );
        visit(l, &c);
    }
}

/// How many of the first speculated piece's children look at a second piece.
const DEEP_CHILDREN: usize = 1;

/// What a line that tops out is worth below its rewards so far.
const TOPPED_OUT: i32 = 1_000_000;

/// One way to play a parent's turn: (piece to place, hold afterwards, index of the next piece
/// afterwards, whether it holds).
type Choice = (Piece, Option<Piece>, usize, bool);

/// Generates every child of `parent` (placing the next piece, or holding) and scores it
/// through the depth-`d` table; a state already in `children` takes its evaluation from
/// there, and with `fold` the two are merged into one (without, the child is kept beside it,
/// for merging in order later).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn expand<E: Evaluator>(
    pass: &Pass<'_, E>,
    d: usize,
    parent_index: u32,
    parent: &Node,
    tables: &DepthTables<PositionEval, Board>,
    parents: &[Node],
    (children, merge, fold): (&mut Vec<Child>, &mut HashTable<u32>, bool),
    (placements, locked): (&mut Vec<Placement>, &mut Vec<Locked>),
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
        let pending = pass.pieces.get(next..).unwrap_or(&[]);
        let probe = probes(pass, d, tables, counters);
        lock_all(
            pass,
            d,
            parent,
            (piece, hold),
            tables,
            probe,
            placements,
            locked,
        );
        // A worker that probes the table keeps no merge table of its own: a state it reached
        // already is found in the table (a hit, the same evaluation) at less cost than in a
        // merge table, and the states are merged after the expansion anyway.
        let unmerged = !fold && probe;
        for l in locked.iter() {
            // A state reached already in this depth (another parent, another order) has the
            // same position evaluation: take it from there instead of probing for it.
            let id = (l.key, &l.board, l.outcome.carried, next as u8, hold);
            let h = merge_hash_of(l.key, &l.outcome.carried, next as u8);
            let twin = if unmerged {
                None
            } else {
                find_state(children, parents, merge, h, id)
            };
            let child = score_locked(
                pass,
                d,
                parent,
                parent_index,
                l,
                (piece, hold, next as u8, held),
                pending,
                twin.map(|i| children[i as usize].eval),
                (tables, probe),
                counters,
            );
            if !unmerged && (fold || twin.is_none()) {
                keep_merged(children, merge, h, twin, child);
            } else {
                children.push(child);
            }
        }
    }
}

/// Whether the children about to be scored at depth `d` go through the table. Once a depth
/// has stored half as many evaluations in this search as its table has slots, further stores
/// would mostly evict this search's own earlier ones (the children of better-ranked parents,
/// which the next search is likeliest to meet again after the rotation) or what the rotation
/// brought, and further probes find little: so that depth stops probing for the rest of the
/// search. Only a small table or a very wide beam reaches the cap (the default beam stores
/// about 5,000 evaluations a depth per search, against a cap of 16,384 at the default size).
/// Skipping a probe evaluates instead, so the result is the same either way.
#[inline]
fn probes<E: Evaluator>(
    pass: &Pass<'_, E>,
    d: usize,
    tables: &DepthTables<PositionEval, Board>,
    counters: &PassCounters,
) -> bool {
    let c = &counters.depth[d];
    pass.use_cache && ((c.lookups - c.hits) as usize) < tables.table_ref(d).capacity() / 2
}

/// Locks into `locked` every placement of `piece` on `parent`'s board that does not lock out,
/// with `hold` in hold afterwards, and asks for each one's bucket in the depth-`d` table: by
/// the time the probes reach a child, its bucket is in the processor's cache, not in memory.
/// Inline, as the loops it came from were (out of line the search was 2% slower).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn lock_all<E: Evaluator>(
    pass: &Pass<'_, E>,
    d: usize,
    parent: &Node,
    (piece, hold): (Piece, Option<Piece>),
    tables: &DepthTables<PositionEval, Board>,
    probe: bool,
    placements: &mut Vec<Placement>,
    locked: &mut Vec<Locked>,
) {
    generate_into(&parent.board, piece, pass.rules, placements);
    locked.clear();
    for p in placements.iter().filter(|p| !p.locks_out()) {
        let l = lock_child(parent, p, hold);
        if probe {
            tables.table_ref(d).prefetch(l.key);
        }
        locked.push(l);
    }
}

/// Locks `p` on `parent`'s board; the key is that of the result with `hold` in hold.
#[inline]
fn lock_child(parent: &Node, p: &Placement, hold: Option<Piece>) -> Locked {
    let (board, outcome) = locked(&parent.board, p, parent.carried);
    Locked {
        key: position_key(&board, hold),
        board,
        outcome,
        placement: *p,
    }
}

/// Scores a locked child: the position evaluation through the depth-`d` table (a miss
/// evaluates and stores), then the context.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn score_locked<E: Evaluator>(
    pass: &Pass<'_, E>,
    d: usize,
    parent: &Node,
    parent_index: u32,
    l: &Locked,
    (piece, hold, next, held): (Piece, Option<Piece>, u8, bool),
    pending: &[Piece],
    known: Option<PositionEval>,
    (tables, probe): (&DepthTables<PositionEval, Board>, bool),
    counters: &mut PassCounters,
) -> Child {
    let (board, outcome, key, p) = (&l.board, &l.outcome, l.key, &l.placement);
    let eval = if let Some(e) = known {
        e
    } else if probe {
        let c = &mut counters.depth[d];
        c.lookups += 1;
        match tables.table_ref(d).lookup(key) {
            Ok(v) => {
                c.hits += 1;
                v
            }
            Err(vacant) => {
                counters.evaluations += 1;
                vacant.insert(pass.evaluator.position(board, hold))
            }
        }
    } else {
        counters.evaluations += 1;
        pass.evaluator.position(board, hold)
    };
    let step = StepContext {
        piece,
        outcome,
        b2b_before: parent.carried.b2b,
        depth: d,
        pending,
        hold,
        pieces_placed: pass.pieces_placed + d as u64,
        input_frames: pass
            .frame_costs
            .estimated_input_frames(&parent.board, p, pass.rules),
        clear_frames: pass.frame_costs.clear_frames(outcome),
        incoming: if d == 0 { pass.incoming } else { 0 },
    };
    let s = pass.evaluator.context(&eval, &step);
    counters.nodes += 1;
    // Saturating: an evaluator is free to return any value (the default one's stay far from
    // the bounds), and a search must not panic or wrap on it.
    let acc = parent.acc.saturating_add(s.reward);
    Child {
        hold,
        carried: outcome.carried,
        next,
        acc,
        total: acc.saturating_add(eval.value).saturating_add(s.leaf),
        parent: parent_index,
        placement: *p,
        key,
        seq: 0,
        held,
        eval,
    }
}

/// Identity of a state within one depth: the cache key plus everything carried that the key
/// does not cover.
#[inline]
fn merge_hash(n: &Child) -> u64 {
    merge_hash_of(n.key, &n.carried, n.next)
}

#[inline]
fn merge_hash_of(key: u64, carried: &Carried, next: u8) -> u64 {
    key ^ (carried.combo as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ ((carried.b2b as u64) << 63)
        ^ ((next as u64) << 56)
}

/// A state's identity within one depth: (key, board, carried, next piece, hold).
type StateId<'a> = (u64, &'a Board, Carried, u8, Option<Piece>);

/// Whether a child (of `parents`) is the state `id`. Equal keys are only a hint (64-bit hashes
/// can collide); the boards decide, the child's derived only when all else is equal.
#[inline]
fn is_state(n: &Child, parents: &[Node], (key, board, carried, next, hold): StateId<'_>) -> bool {
    n.key == key
        && n.carried == carried
        && n.next == next
        && n.hold == hold
        && n.board(parents) == *board
}

/// The index in `children` of the state `id` (whose merge hash is `h`), if it is there.
#[inline]
fn find_state(
    children: &[Child],
    parents: &[Node],
    merge: &HashTable<u32>,
    h: u64,
    id: StateId<'_>,
) -> Option<u32> {
    merge
        .find(h, |&i| is_state(&children[i as usize], parents, id))
        .copied()
}

/// Adds `child` (merge hash `h`), or, when it is the state at `twin`, keeps the better of the
/// two (the first on a tie, so the result depends on nothing but generation order).
#[inline(always)]
fn keep_merged(
    children: &mut Vec<Child>,
    merge: &mut HashTable<u32>,
    h: u64,
    twin: Option<u32>,
    child: Child,
) {
    let seq = children.len() as u32;
    keep_merged_as(children, merge, h, twin, child, seq);
}

/// [`keep_merged`], numbering a new state `seq` (its place in generation order).
#[inline(always)]
fn keep_merged_as(
    children: &mut Vec<Child>,
    merge: &mut HashTable<u32>,
    h: u64,
    twin: Option<u32>,
    child: Child,
    seq: u32,
) {
    match twin {
        Some(i) => {
            let old = &mut children[i as usize];
            if child.total > old.total {
                *old = Child {
                    seq: old.seq,
                    ..child
                };
            }
        }
        None => {
            let i = children.len() as u32;
            children.push(Child { seq, ..child });
            merge.insert_unique(h, i, |&j| merge_hash(&children[j as usize]));
        }
    }
}

/// Appends the best `width` states to `level` as nodes, best first; ties go to the
/// earlier-generated one. The states are children of `parents` in one or more lists (one per
/// worker on several threads), each in increasing `seq`, their places in generation order.
/// They are ranked through `ranks`, one `u64` each, rather than moved; only the chosen ones
/// are found back (by `seq`) and get their boards back.
fn select(
    kept: &[&[Child]],
    parents: &[Node],
    width: usize,
    ranks: &mut Vec<u64>,
    level: &mut Vec<Node>,
) {
    ranks.clear();
    for k in kept {
        ranks.extend(k.iter().map(rank));
    }
    if ranks.len() > width {
        ranks.select_nth_unstable(width - 1);
        ranks.truncate(width);
    }
    ranks.sort_unstable();
    level.extend(ranks.iter().map(|&r| {
        let seq = r as u32;
        // In one thread's list a state's `seq` is its index; elsewhere, a binary search.
        let child = kept
            .iter()
            .find_map(|k| match k.get(seq as usize) {
                Some(c) if c.seq == seq => Some(c),
                _ => k.binary_search_by_key(&seq, |c| c.seq).ok().map(|i| &k[i]),
            })
            .expect("a ranked state is in its list");
        child.node(parents)
    }));
}

/// A node's place in the ranking as one number, smallest first: higher totals first, then
/// earlier generation (`seq`, unique within a depth, so no two nodes rank equal).
#[inline]
fn rank(n: &Child) -> u64 {
    // Flipping the sign bit orders an i32 as a u32; inverting puts the highest first.
    let total = !((n.total as u32) ^ 0x8000_0000);
    ((total as u64) << 32) | n.seq as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{Rotation, Spin};

    fn node(board: Board) -> Node {
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
            seq: 0,
            held: false,
        }
    }

    /// A child on an empty board: T north with its centre at column `x` on the floor, under
    /// `key`; with the board it leaves.
    fn child(x: i8, key: u64) -> (Child, Board) {
        let placement = Placement {
            piece: Piece::T,
            rotation: Rotation::North,
            x,
            y: 0,
            spin: Spin::None,
        };
        let (board, outcome) = locked(&Board::new(), &placement, Carried::default());
        let c = Child {
            hold: None,
            carried: outcome.carried,
            next: 1,
            acc: 0,
            total: 0,
            parent: 0,
            placement,
            key,
            seq: 0,
            held: false,
            eval: PositionEval::default(),
        };
        (c, board)
    }

    /// Merging compares hashes only: two different boards whose 64-bit keys collide were
    /// merged into one state, and one of them vanished from the search.
    #[test]
    fn merging_compares_hashes_only_colliding_keys_of_different_boards_stay_apart() {
        let parents = [node(Board::new())];
        let mut children = Vec::new();
        let mut merge = HashTable::new();
        let mut push = |children: &mut Vec<Child>, (c, board): (Child, Board)| {
            let h = merge_hash(&c);
            let twin = find_state(
                children,
                &parents,
                &merge,
                h,
                (c.key, &board, c.carried, c.next, c.hold),
            );
            keep_merged(children, &mut merge, h, twin, c);
        };
        push(&mut children, child(4, 42));
        push(&mut children, child(1, 42));
        assert_eq!(children.len(), 2, "a hash collision is not a transposition");
        // A true duplicate still merges, keeping the better total.
        let (c, board) = child(1, 42);
        push(&mut children, (Child { total: 5, ..c }, board));
        assert_eq!(children.len(), 2);
        assert_eq!(children[1].total, 5);
        // A kept child gets back the board its placement leaves on its parent's.
        assert_eq!(children[1].node(&parents).board, board);
        assert_ne!(children[0].board(&parents), board);
    }
}
