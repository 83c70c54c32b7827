//! The engine: configuration, per-depth tables, prediction, and the move-to-move lifecycle.

use crate::beam::{Buffers, DepthCounters, Line, Node, Pass, PassCounters, run_pass};
use crate::config::Config;
use crate::eval::{DefaultEvaluator, Evaluator, PositionEval};
use board::{Board, Piece, Placement, Rules};
use game::GameState;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tt_depth::{DepthTables, Transition};

/// How long a search may run. Every search runs one or more passes, each a whole beam search
/// at one width that reuses what the passes before it cached; the answer is the best line of
/// the last pass that finished.
#[derive(Clone, Copy, Debug)]
pub enum Budget<'a> {
    /// One pass at the configured width. Deterministic.
    Fixed,
    /// Passes at widths 8, 16, 32, ... up to `max_width` until this instant (the first pass
    /// always finishes).
    Until(Instant),
    /// Passes at widths 8, 16, 32, ... up to `max_width` until this many candidates have been
    /// scored (all passes counted; the first pass always finishes): the same state and limit
    /// give the same move on any machine. The versus arena thinks this way when an engine has
    /// a think budget and thinking is charged by nodes.
    Nodes(u64),
    /// Passes at `widths` (for example [`Config::bot_widths`]): the first `firm` always
    /// finish; each later one is abandoned once `limit` candidates have been scored or
    /// `deadline` has passed. With a limit and no deadline the same state gives the same move
    /// on any machine. This is how the versus arena has an engine think through the delays
    /// before its turn, as the TBP bot does in the background.
    Passes {
        /// The width of each pass, in order.
        widths: &'a [usize],
        /// How many passes always finish (at least one).
        firm: usize,
        /// Candidates scored, all passes counted, after which a later pass stops.
        limit: Option<u64>,
        /// The instant after which a later pass stops.
        deadline: Option<Instant>,
    },
}

/// A budget made concrete: the widths of the passes and when a pass stops.
struct Schedule<'a> {
    widths: Vec<usize>,
    /// Passes before this one always finish (unless a stop is asked for).
    firm: usize,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    stop: Option<&'a AtomicBool>,
}

/// Statistics of one `suggest`.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchStats {
    /// Candidates scored (placements generated and evaluated, cached or not), all passes.
    pub nodes: u64,
    /// Position evaluations computed (cache misses, or every node with the cache off).
    pub evaluations: u64,
    /// Table lookups and hits by depth, all passes.
    pub depth: Vec<DepthCounters>,
    /// What happened to the tables before the search.
    pub transition: Transition,
    /// How the tables were prepared when this position was first searched: the same as
    /// `transition`, unless that is `Kept` (a search of the same position again, after a new
    /// preview or a second request), then what the first search of the position did.
    pub root_transition: Transition,
    /// Rotations since the engine was created.
    pub rotations: u64,
    /// Full clears since the engine was created.
    pub clears: u64,
    /// Passes that finished.
    pub passes: u32,
    /// Beam width of the last pass that finished.
    pub width: usize,
    /// Depth searched (placements per line).
    pub search_depth: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// Candidates scored, all passes counted, when the pass that gives the answer finished:
    /// an answer could have been sent then. `nodes` less this is work on a pass that did not
    /// finish.
    pub answer_nodes: u64,
    /// Wall time when the pass that gives the answer finished.
    pub answer_elapsed: Duration,
}

impl SearchStats {
    /// Candidates scored per second.
    pub fn nps(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 { self.nodes as f64 / s } else { 0.0 }
    }

    /// Table lookups over all depths.
    pub fn lookups(&self) -> u64 {
        self.depth.iter().map(|d| d.lookups).sum()
    }

    /// Table hits over all depths.
    pub fn hits(&self) -> u64 {
        self.depth.iter().map(|d| d.hits).sum()
    }
}

/// A suggestion: the move, the line it starts, and how the search went.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The placement to play now.
    pub placement: Placement,
    /// Whether the move uses hold: then it places the held piece, or with an empty hold the
    /// next one (which may be the same kind of piece as the current one).
    pub uses_hold: bool,
    /// The planned line, this move first.
    pub line: Vec<Placement>,
    /// Whether each move of the line uses hold.
    pub line_holds: Vec<bool>,
    /// Up to four other first moves, best first (each the start of the best line that does not
    /// begin with an earlier move), for front ends that try moves in order.
    pub alternatives: Vec<Placement>,
    /// The line's score.
    pub score: i32,
    /// This search's statistics.
    pub stats: SearchStats,
}

impl Plan {
    /// The plan of a pass's best line.
    fn of(line: Line, stats: SearchStats) -> Plan {
        Plan {
            placement: line.placements[0],
            uses_hold: line.uses_hold,
            line: line.placements,
            line_holds: line.holds,
            alternatives: line.alternatives,
            score: line.score,
            stats,
        }
    }
}

/// The engine. Owns the configuration, the evaluator, one table per depth and the prediction.
pub struct Engine<E: Evaluator = DefaultEvaluator> {
    config: Config,
    evaluator: E,
    tables: DepthTables<PositionEval, Board>,
    buffers: Buffers,
    pieces: Vec<Piece>,
    /// What the first search of the current root did to the tables.
    root_transition: Transition,
    /// The levels the last search completed, for a search of the same position with more of
    /// the queue known.
    kept: Kept,
}

/// The levels of one pass of an earlier search, kept for the next search of the same
/// position: its first `done` levels are complete.
struct KeptPass {
    width: usize,
    levels: Vec<Vec<Node>>,
    done: usize,
}

/// The widest of `widths` whose kept pass needs at most one more level of a search `depth`
/// deep. It is done sooner than the narrower passes before it would be, so those wider than
/// the configured width (the quality an answer is sure to have, found first) are skipped.
fn nearly_done(kept: &[KeptPass], widths: &[usize], depth: usize) -> Option<usize> {
    kept.iter()
        .filter(|k| k.done + 1 >= depth && widths.contains(&k.width))
        .map(|k| k.width)
        .max()
}

/// What a search leaves for the next search of the same position (a new preview arrives while
/// the bot thinks). A level of a pass depends only on the root, the pieces it reads, the
/// pieces still to come as the evaluator's context reads them, and the width. With a piece in
/// hold at the root (or hold off) every line places the queue in order, so level `d` reads
/// the queue's piece `d` alone; with nothing in hold, a line may hold into the empty hold and
/// play the next piece, so it reads piece `d + 1` too. When the new pieces change no context
/// score ([`Evaluator::ignores_pending`]), the earlier search's levels that read only pieces
/// it knew are exactly the levels the new search would build, and its passes go on from
/// them: a finished pass needs only the new depths, an interrupted one only what it had not
/// done. The answer of every pass is the one a search from scratch would give; only the work
/// changes.
#[derive(Default)]
struct Kept {
    /// The position searched, with what its levels were built under.
    position: Option<(Node, u32, u64, Rules)>,
    /// The pieces searched (the current one first).
    pieces: Vec<Piece>,
    /// The widest pass that finished, and any wider one that was interrupted.
    passes: Vec<KeptPass>,
}

impl Kept {
    fn bytes(&self) -> usize {
        self.pieces.capacity() * size_of::<Piece>()
            + self.passes.capacity() * size_of::<KeptPass>()
            + self
                .passes
                .iter()
                .map(|k| {
                    k.levels.capacity() * size_of::<Vec<Node>>()
                        + k.levels
                            .iter()
                            .map(|l| l.capacity() * size_of::<Node>())
                            .sum::<usize>()
                })
                .sum::<usize>()
    }
}

impl Engine<DefaultEvaluator> {
    /// An engine with the default evaluator.
    pub fn with_config(config: Config) -> Self {
        Engine::new(config, DefaultEvaluator::default())
    }
}

impl<E: Evaluator> Engine<E> {
    /// An engine with `config` and `evaluator`.
    pub fn new(config: Config, evaluator: E) -> Self {
        let depth = 1 + config.previews;
        Engine {
            // One table per searched depth, and one for each speculated piece.
            tables: DepthTables::new(
                depth + config.speculate as usize + config.speculates_deep() as usize,
            ),
            config,
            evaluator,
            buffers: Buffers::default(),
            pieces: Vec::with_capacity(depth + 1),
            root_transition: Transition::Fresh,
            kept: Kept::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// Changes the rotation system. Cached evaluations stay valid (they depend on the board
    /// and hold alone); only move generation changes.
    pub fn set_rules(&mut self, rules: Rules) {
        self.config.rules = rules;
        self.kept = Kept::default();
    }

    /// Starts a new game: clears every table and forgets the prediction.
    pub fn reset(&mut self) {
        self.tables.reset();
        self.kept = Kept::default();
    }

    /// Searches at the configured fixed width ([`Budget::Fixed`]). Deterministic. `None`
    /// when no piece can be placed (the game is over).
    pub fn suggest(&mut self, state: &GameState) -> Option<Plan> {
        self.search(state, Budget::Fixed)
    }

    /// Searches `state` within `budget`. `None` when no piece can be placed (the game is
    /// over).
    pub fn search(&mut self, state: &GameState, budget: Budget<'_>) -> Option<Plan> {
        let schedule = self.schedule(budget);
        self.run(state, schedule, |_| true)
    }

    /// Thinks about `state` pass after pass at `widths`, until they are done or `stop` is set
    /// (checked every few parents, so it returns within a fraction of a millisecond), calling
    /// `on_pass` with the plan of every pass that finishes. `on_pass` returns whether the caller
    /// takes the pass: a refused pass ends the thinking as if it had not finished. A pass can
    /// finish while a stop is being asked for, so only the caller knows whether its answer
    /// will be that pass or an earlier one. The prediction for the next search is always that
    /// of the last taken pass. Returns that pass's plan, or `None` when no pass was taken. For
    /// thinking in the background; memory stays within what the widest width needs (see
    /// `docs/tbp.md`).
    pub fn think(
        &mut self,
        state: &GameState,
        widths: &[usize],
        stop: &AtomicBool,
        on_pass: impl FnMut(&Plan) -> bool,
    ) -> Option<Plan> {
        let schedule = Schedule {
            widths: widths.iter().map(|&w| w.max(1)).collect(),
            firm: 1,
            deadline: None,
            node_limit: None,
            stop: Some(stop),
        };
        self.run(state, schedule, on_pass)
    }

    /// The widths of a widening search: 8, 16, 32, ... up to `max_width`.
    fn widening(&self) -> Vec<usize> {
        let mut w = 8usize;
        let mut v = Vec::new();
        while w < self.config.max_width {
            v.push(w);
            w *= 2;
        }
        v.push(self.config.max_width.max(1));
        v
    }

    fn schedule<'a>(&self, budget: Budget<'a>) -> Schedule<'a> {
        let full = self.config.beam_width.max(1);
        let (widths, firm, deadline, node_limit) = match budget {
            Budget::Fixed => (vec![full], 1, None, None),
            Budget::Until(d) => (self.widening(), 1, Some(d), None),
            Budget::Nodes(l) => (self.widening(), 1, None, Some(l)),
            Budget::Passes {
                widths,
                firm,
                limit,
                deadline,
            } => (
                widths.iter().map(|&w| w.max(1)).collect(),
                firm.max(1),
                deadline,
                limit,
            ),
        };
        Schedule {
            widths,
            firm,
            deadline,
            node_limit,
            stop: None,
        }
    }

    /// The root of a search of `state`: its board, hold and carried state.
    fn root(state: &GameState) -> Node {
        Node {
            board: state.board,
            hold: state.hold,
            carried: state.carried,
            next: 0,
            acc: 0,
            total: 0,
            parent: 0,
            placement: Placement {
                piece: state.current,
                rotation: board::Rotation::North,
                x: 0,
                y: 0,
                spin: board::Spin::None,
            },
            seq: 0,
            held: false,
        }
    }

    /// Lists the pieces a search of `state` places, and returns its depth and what is known
    /// past the queue when the search speculates.
    fn pieces_of(&mut self, state: &GameState) -> (usize, Option<game::BagState>) {
        let depth = 1 + self.config.previews;
        self.pieces.clear();
        self.pieces.push(state.current);
        // One piece beyond the depth, so holding into an empty hold works at the last depth.
        self.pieces.extend(state.queue.iter().take(depth).copied());
        // Speculate past the queue only when the search has every known piece (the bag
        // state is what comes after the whole queue) and something is known of what comes
        // next.
        let speculate = match state.bag {
            Some(bag) if self.config.speculate && state.queue.len() <= depth => Some(bag),
            _ => None,
        };
        (depth.min(self.pieces.len()), speculate)
    }

    /// The passes the last search left that a search of `root` with the pieces now in
    /// `self.pieces` can go on from (see [`Kept`]); none when the position or what the levels
    /// read has changed.
    fn reusable(&mut self, root: &Node, state: &GameState) -> Vec<KeptPass> {
        let kept = std::mem::take(&mut self.kept);
        let same = kept.position.is_some_and(|(r, incoming, placed, rules)| {
            (r.board, r.hold, r.carried, r.placement.piece)
                == (root.board, root.hold, root.carried, root.placement.piece)
                && (incoming, placed, rules)
                    == (state.incoming, state.pieces_placed, self.config.rules)
        });
        // How many levels read only the pieces the kept passes knew.
        let known = kept
            .pieces
            .len()
            .saturating_sub((root.hold.is_none() && self.config.use_hold) as usize);
        let extends = self.pieces.starts_with(&kept.pieces)
            && self.pieces[kept.pieces.len()..]
                .iter()
                .all(|&p| self.evaluator.ignores_pending(p));
        if same && extends {
            let mut passes = kept.passes;
            for k in &mut passes {
                k.done = k.done.min(known);
            }
            passes.retain(|k| k.done > 0);
            passes
        } else {
            // The levels' memory is used again, not allocated anew for every search.
            if let Some(k) = kept.passes.into_iter().next()
                && self.buffers.levels.is_empty()
            {
                self.buffers.levels = k.levels;
            }
            Vec::new()
        }
    }

    /// Puts the levels of the kept pass of width `w`, if there is one, in the search buffers:
    /// returns how many of them are complete (0 without one).
    fn take_levels(&mut self, reuse: &mut Vec<KeptPass>, w: usize, depth: usize) -> usize {
        match reuse.iter().position(|k| k.width == w) {
            Some(j) => {
                let k = reuse.swap_remove(j);
                // The configuration is fixed and the pieces only grew, so the depth did not
                // shrink: the kept levels fit it.
                debug_assert!(k.done <= depth);
                self.buffers.levels = k.levels;
                k.done
            }
            None => 0,
        }
    }

    /// Keeps the levels the pass of width `w` completed (all of them if it `finished`) for
    /// the next search. Of the finished passes only the widest is kept: the next pass builds
    /// its levels in the narrower one's place.
    fn keep_levels(&mut self, kept: &mut Vec<KeptPass>, w: usize, finished: bool) {
        let done = self.buffers.done;
        if done == 0 {
            return;
        }
        let levels = std::mem::take(&mut self.buffers.levels);
        if finished {
            if let Some(narrower) = kept.pop() {
                self.buffers.levels = narrower.levels;
            }
            kept.clear();
        }
        kept.push(KeptPass {
            width: w,
            levels,
            done,
        });
    }

    /// Keeps for the next search the levels this search of `root` completed, and those of
    /// the passes it was left that it did not run, if wider than any of these.
    fn leave(
        &mut self,
        root: Node,
        state: &GameState,
        mut kept: Vec<KeptPass>,
        left: Vec<KeptPass>,
    ) {
        let widest = kept.iter().map(|k| k.width).max().unwrap_or(0);
        kept.extend(left.into_iter().filter(|k| k.width > widest));
        self.kept = Kept {
            position: Some((root, state.incoming, state.pieces_placed, self.config.rules)),
            pieces: self.pieces.clone(),
            passes: kept,
        };
    }

    /// The statistics of a pass that finished now: the `passes`-th of the search started at
    /// `start`, of width `w` and `depth` levels.
    fn stats(
        &self,
        counters: &PassCounters,
        transition: Transition,
        (passes, w, depth): (u32, usize, usize),
        start: Instant,
    ) -> SearchStats {
        let now = start.elapsed();
        SearchStats {
            nodes: counters.nodes,
            evaluations: counters.evaluations,
            depth: counters.depth.clone(),
            transition,
            root_transition: self.root_transition,
            rotations: self.tables.rotations(),
            clears: self.tables.clears(),
            passes,
            width: w,
            search_depth: depth,
            elapsed: now,
            answer_nodes: counters.nodes,
            answer_elapsed: now,
        }
    }

    /// Runs the passes of `schedule` on `state`, calling `on_pass` with each finished pass's
    /// plan and stopping at the first it refuses (see [`Self::think`]). On several search
    /// threads the work of each depth is shared out in the current rayon pool (the global
    /// one when the caller is in none). Passes go on from the levels the last search left
    /// when they are still good (see [`Kept`]).
    fn run(
        &mut self,
        state: &GameState,
        schedule: Schedule<'_>,
        mut on_pass: impl FnMut(&Plan) -> bool,
    ) -> Option<Plan> {
        let start = Instant::now();
        let transition = self.tables.begin(&state.board);
        if transition != Transition::Kept {
            self.root_transition = transition;
        }
        let (search_depth, speculate) = self.pieces_of(state);
        let root = Self::root(state);
        let mut counters = PassCounters {
            nodes: 0,
            evaluations: 0,
            depth: vec![
                DepthCounters::default();
                search_depth
                    + speculate.is_some() as usize
                    + (speculate.is_some() && self.config.speculates_deep()) as usize
            ],
        };
        let mut reuse = self.reusable(&root, state);
        let skip_below = nearly_done(&reuse, &schedule.widths, search_depth);
        let sure = self.config.beam_width;
        let mut kept: Vec<KeptPass> = Vec::new();
        let mut best: Option<Plan> = None;
        for (i, &w) in schedule.widths.iter().enumerate() {
            if w > sure && skip_below.is_some_and(|s| w < s) {
                continue;
            }
            // The firm passes always finish, unless a stop is asked for; so does the first
            // pass run, which may follow skipped ones (a pass that does not finish ends the
            // loop, so no answer yet means no pass has run).
            let firm = i < schedule.firm || best.is_none();
            let from = self.take_levels(&mut reuse, w, search_depth);
            let pass = Pass {
                evaluator: &self.evaluator,
                rules: self.config.rules,
                width: w,
                pieces: &self.pieces,
                depth: search_depth,
                use_cache: self.config.use_cache,
                use_hold: self.config.use_hold,
                speculate,
                speculate_top: self.config.speculated_lines(w),
                speculate_deep: self.config.deep_lines(w),
                choice: self.config.move_choice,
                frame_costs: &self.config.frame_costs,
                incoming: state.incoming,
                deadline: if firm { None } else { schedule.deadline },
                node_limit: if firm { None } else { schedule.node_limit },
                stop: schedule.stop,
                pieces_placed: state.pieces_placed,
                threads: self.config.search_threads.max(1),
            };
            let line = run_pass(
                &pass,
                &root,
                &self.tables,
                &mut self.buffers,
                &mut counters,
                from,
            );
            self.keep_levels(&mut kept, w, line.is_some());
            let Some(line) = line else {
                break;
            };
            let expected = line.board_after_first;
            let passes = best.as_ref().map_or(1, |p| p.stats.passes + 1);
            let stats = self.stats(&counters, transition, (passes, w, search_depth), start);
            let plan = Plan::of(line, stats);
            // The prediction is the taken pass's: a caller that refuses a pass (it was told
            // to stop while the pass finished) answers with an earlier one, and the next
            // search must rotate to the board of that answer.
            if !on_pass(&plan) {
                break;
            }
            self.tables.predict(expected);
            best = Some(plan);
            let out_of_time = schedule.deadline.is_some_and(|d| Instant::now() >= d);
            let out_of_nodes = schedule.node_limit.is_some_and(|l| counters.nodes >= l);
            if i + 1 >= schedule.firm && (out_of_time || out_of_nodes) {
                break;
            }
        }
        self.leave(root, state, kept, reuse);
        // The plan's figures cover all the work, an unfinished last pass included.
        best.map(|mut p| {
            p.stats.nodes = counters.nodes;
            p.stats.evaluations = counters.evaluations;
            p.stats.depth = counters.depth;
            p.stats.elapsed = start.elapsed();
            p
        })
    }

    /// The exact heap bytes the engine owns: every table, the search buffers and the piece
    /// list.
    pub fn memory_bytes(&self) -> usize {
        self.tables.bytes()
            + self.buffers.bytes()
            + self.kept.bytes()
            + self.pieces.capacity() * size_of::<Piece>()
    }

    /// The per-depth tables (for statistics and inspection).
    pub fn tables(&self) -> &DepthTables<PositionEval, Board> {
        &self.tables
    }
}
