//! The engine: configuration, per-depth tables, prediction, and the move-to-move lifecycle.

use crate::beam::{Buffers, DepthCounters, MoveChoice, Node, Pass, PassCounters, run_pass};
use crate::eval::{DefaultEvaluator, Evaluator, PositionEval};
use board::{Board, Piece, Placement, Rules};
use game::GameState;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tt_depth::{DepthTables, Transition};

#[derive(Clone, Copy)]
enum Budget<'a> {
    Fixed,
    Widening(Instant),
    /// Widening, with a limit on candidates scored instead of a deadline.
    Nodes(u64),
    Safety(Instant),
    /// Passes at these widths until a stop is asked for (no pass is sure to finish).
    Until(&'a [usize], &'a AtomicBool),
    /// Passes at these widths; the first `firm` always finish, the rest stop at the node
    /// limit or the deadline, whichever comes first.
    Passes {
        widths: &'a [usize],
        firm: usize,
        limit: Option<u64>,
        deadline: Option<Instant>,
    },
}

/// What moves cost in frames, for the search's time terms (`Weights::frames`): by default the
/// ppt arena's numbers (docs/versus.md). Input frames are estimated per candidate, cheaply: a
/// turn or two, a shift per column from spawn, and, when the piece cannot come straight down
/// into place, a soft-dropped row for every row below the spawn row. (The arena charges the
/// exact cheapest sequence for the move played.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FrameCosts {
    /// A shift.
    pub shift: u32,
    /// A quarter turn.
    pub rotate: u32,
    /// A 180-degree turn (rules that have it).
    pub rotate_180: u32,
    /// A soft-dropped row.
    pub soft_drop_row: u32,
    /// The line-clear delay by lines cleared.
    pub line_clear: [u32; 5],
    /// The line-clear delay of a perfect clear.
    pub perfect_clear: u32,
}

impl Default for FrameCosts {
    fn default() -> Self {
        FrameCosts {
            shift: 2,
            rotate: 2,
            rotate_180: 4,
            soft_drop_row: 2,
            line_clear: [0, 36, 41, 41, 46],
            perfect_clear: 1,
        }
    }
}

impl FrameCosts {
    /// A game without a clock (solo self-play): no move costs time, so the time terms are
    /// zero and the search weighs attack alone.
    pub const NONE: FrameCosts = FrameCosts {
        shift: 0,
        rotate: 0,
        rotate_180: 0,
        soft_drop_row: 0,
        line_clear: [0; 5],
        perfect_clear: 0,
    };

    /// The estimated input frames of `p` on `board`.
    #[inline]
    pub fn input_frames(&self, board: &Board, p: &Placement, rules: Rules) -> u32 {
        use board::Rotation;
        let turns = match p.rotation {
            Rotation::North => 0,
            Rotation::East | Rotation::West => self.rotate,
            Rotation::South if rules.has_180() => self.rotate_180.min(2 * self.rotate),
            Rotation::South => 2 * self.rotate,
        };
        let shifts = (p.x - board::SPAWN_X).unsigned_abs() as u32 * self.shift;
        let soft = if p.drops_straight(board) {
            0
        } else {
            (board::SPAWN_Y - p.y).max(0) as u32 * self.soft_drop_row
        };
        turns + shifts + soft
    }

    /// The line-clear delay after a lock with this outcome.
    #[inline]
    pub fn clear_frames(&self, o: &game::Outcome) -> u32 {
        if o.perfect_clear {
            self.perfect_clear
        } else {
            self.line_clear[o.lines.min(4) as usize]
        }
    }
}

/// Engine settings. Loadable from JSON by field name; missing fields keep their defaults.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// States kept per depth. See `docs/performance.md` for how the default was chosen.
    pub beam_width: usize,
    /// Preview pieces used after the current one; the search depth is `1 + previews`.
    pub previews: usize,
    /// The rotation system.
    pub rules: Rules,
    /// Whether the evaluation cache is used. Turning it off changes only the work done, never
    /// the move: it exists to prove exactly that.
    pub use_cache: bool,
    /// With a deadline, the widest beam a pass may use.
    pub max_width: usize,
    /// Whether the search may hold. Off only to make a deliberately weaker engine.
    pub use_hold: bool,
    /// Whether to search one piece past the known queue when the state says what the 7-bag
    /// can give next (the expected value over those pieces). On by default: in the arena it
    /// won an SPRT [0, 20] against the engine without it, +45 ± 32 Elo over 450 games
    /// (docs/performance.md).
    pub speculate: bool,
    /// How many of the best lines speculation scores, at least (see `speculate_share`).
    pub speculate_top: usize,
    /// The share of a pass's beam width that speculation scores, in percent, when that is
    /// more than `speculate_top`: a wider beam has more good lines for speculation to tell
    /// apart, and its best few are the likeliest to be overrated. 25 by default, which changes
    /// nothing up to the default width (128 x 25% = 32 = `speculate_top`) and speculates 128
    /// lines at width 512 and 512 at 2048 (self-play, docs/performance.md); 0 speculates
    /// `speculate_top` lines at every width, as before stop 25.
    pub speculate_share: usize,
    /// The share of the speculated lines, in percent, that also speculate a second piece
    /// past the queue (with `speculate`): the best of them by their one-piece expectation,
    /// at least one when this is above 0. Each of the first piece's best children then takes
    /// the expectation over the second piece, and the move is chosen among these lines only.
    /// 0 (the default) speculates one piece; [`Config::without_clock`] sets 25 from width
    /// 2048. The second piece has a table of its own.
    pub speculate_deep: usize,
    /// The narrowest pass that speculates a second piece (with `speculate_deep`): narrower
    /// passes speculate one. 0 (the default) is every width. The second piece's table exists
    /// only when some pass can reach this width (`beam_width` or `max_width`).
    pub speculate_deep_from: usize,
    /// How the first move is picked from the final level of the search.
    pub move_choice: MoveChoice,
    /// What moves cost in frames, for the evaluator's time terms.
    pub frame_costs: FrameCosts,
}

impl Config {
    /// The settings for a game without a clock (solo self-play, as `tetris-tt play` plays):
    /// the defaults, except that no move costs time ([`FrameCosts::NONE`], so the time terms
    /// weigh nothing) and passes 2048 wide or more look a second piece past the queue
    /// (`speculate_deep` 25, `speculate_deep_from` 2048).
    ///
    /// The second look is worth its time only when time is free. Without a clock it raises
    /// attack per piece at beam 2048 by 0.034 ± 0.021 (self-play, 20 development seeds), and
    /// not measurably at 512 or 1024. Under a clock it does not pay at this project's
    /// measuring speed: in the arena a fixed 2048-wide bot with it scored -41 ± 44 Elo over
    /// 240 games, and the widening TBP-style bot 0 ± 31 over 480 (docs/performance.md), so
    /// [`Config::default`], the real-time settings of the TBP bot and the arena, looks once.
    /// Narrower passes play exactly the default's moves.
    ///
    /// ```
    /// use search::{Config, FrameCosts};
    /// let c = Config::without_clock();
    /// assert_eq!(c.frame_costs, FrameCosts::NONE);
    /// assert_eq!(c.deep_lines(512), 0);
    /// assert_eq!(c.deep_lines(2048), 128); // a quarter of the 512 speculated lines
    /// ```
    pub fn without_clock() -> Config {
        Config {
            speculate_deep: 25,
            speculate_deep_from: 2048,
            frame_costs: FrameCosts::NONE,
            ..Config::default()
        }
    }

    /// How many of the best lines a pass of beam width `width` speculates on:
    /// `speculate_top`, or `speculate_share` percent of `width` if that is more; at least one.
    pub fn speculated_lines(&self, width: usize) -> usize {
        self.speculate_top
            .max(width.saturating_mul(self.speculate_share) / 100)
            .max(1)
    }

    /// How many lines of a pass of beam width `width` speculate a second piece:
    /// `speculate_deep` percent of [`Self::speculated_lines`], at least one unless it is 0.
    /// 0 for a pass narrower than `speculate_deep_from`, or when [`Self::speculates_deep`] is
    /// false.
    pub fn deep_lines(&self, width: usize) -> usize {
        if !self.speculates_deep() || width < self.speculate_deep_from {
            return 0;
        }
        (self
            .speculated_lines(width)
            .saturating_mul(self.speculate_deep)
            / 100)
            .max(1)
    }

    /// The widths of a search that thinks the way the TBP bot does in the background: 8 (a
    /// quick answer), `beam_width` (the least an answer is worth), then, with `widen`, twice
    /// and four times as wide and so on, up to `max_width`.
    pub fn bot_widths(&self, widen: bool) -> Vec<usize> {
        let full = self.beam_width.max(1);
        let mut widths = vec![8.min(full), full];
        widths.dedup();
        if widen {
            let mut w = full.saturating_mul(2);
            while w < self.max_width {
                widths.push(w);
                w = w.saturating_mul(2);
            }
            if self.max_width > full {
                widths.push(self.max_width);
            }
        }
        widths
    }

    /// Whether a second piece past the queue is ever speculated (and has its table): with
    /// `speculate`, a `speculate_deep` above 0, and a pass as wide as `speculate_deep_from`
    /// possible (`beam_width` or `max_width` reaches it).
    pub fn speculates_deep(&self) -> bool {
        self.speculate
            && self.speculate_deep > 0
            && self.beam_width.max(self.max_width) >= self.speculate_deep_from
    }
}

/// The widest beam a setting may ask for (`beam_width`, `max_width`, `speculate_top`,
/// `speculate_deep_from`): the same bound as the command line's `--beam`. A search keeps about
/// one node of a few hundred bytes per beam slot and depth, so at this width and
/// [`MAX_PREVIEWS`] its beam takes some gigabytes; the tables are sized at build time.
pub const MAX_BEAM_WIDTH: usize = 1_000_000;
/// The most previews a setting may ask for (the command line's `--previews`). The search depth
/// is `1 + previews` plus up to two speculated pieces.
pub const MAX_PREVIEWS: usize = game::versus::MAX_PREVIEWS;
/// The largest frame cost a setting may give one input or delay (the game's bound, see
/// [`game::versus::MAX_FRAME_COST`]). It keeps the time terms (`Weights::frames`) within
/// 32-bit sums.
pub const MAX_FRAME_COST: u32 = game::versus::MAX_FRAME_COST;

/// `Err("FIELD must be in LO..=HI, not V")` when `v` is out of range.
pub(crate) fn in_range<T: PartialOrd + std::fmt::Display>(
    field: &str,
    v: T,
    lo: T,
    hi: T,
) -> Result<(), String> {
    if v < lo || v > hi {
        Err(format!("{field} must be in {lo}..={hi}, not {v}"))
    } else {
        Ok(())
    }
}

impl FrameCosts {
    /// Checks that every cost is at most [`MAX_FRAME_COST`]; the error names the field.
    pub fn check(&self) -> Result<(), String> {
        let m = MAX_FRAME_COST;
        in_range("frame_costs.shift", self.shift, 0, m)?;
        in_range("frame_costs.rotate", self.rotate, 0, m)?;
        in_range("frame_costs.rotate_180", self.rotate_180, 0, m)?;
        in_range("frame_costs.soft_drop_row", self.soft_drop_row, 0, m)?;
        for (i, &c) in self.line_clear.iter().enumerate() {
            in_range(&format!("frame_costs.line_clear[{i}]"), c, 0, m)?;
        }
        in_range("frame_costs.perfect_clear", self.perfect_clear, 0, m)
    }
}

impl Config {
    /// Checks every field against the bounds the command line has for its twin
    /// ([`MAX_BEAM_WIDTH`], [`MAX_PREVIEWS`], [`MAX_FRAME_COST`], percentages up to 100), so
    /// that a settings file cannot ask for more memory than `--beam` can. The error names the
    /// field.
    ///
    /// ```
    /// use search::Config;
    /// assert!(Config::default().check().is_ok());
    /// let e = Config { beam_width: 1 << 40, ..Config::default() }.check().unwrap_err();
    /// assert!(e.starts_with("beam_width must be in 1..=1000000"));
    /// ```
    pub fn check(&self) -> Result<(), String> {
        let w = MAX_BEAM_WIDTH;
        in_range("beam_width", self.beam_width, 1, w)?;
        in_range("max_width", self.max_width, 1, w)?;
        in_range("previews", self.previews, 0, MAX_PREVIEWS)?;
        in_range("speculate_top", self.speculate_top, 0, w)?;
        in_range("speculate_share", self.speculate_share, 0, 100)?;
        in_range("speculate_deep", self.speculate_deep, 0, 100)?;
        in_range("speculate_deep_from", self.speculate_deep_from, 0, w)?;
        self.frame_costs.check()
    }
}

/// The default beam width.
pub const DEFAULT_BEAM_WIDTH: usize = 128;
/// The default number of previews.
pub const DEFAULT_PREVIEWS: usize = 5;

impl Default for Config {
    fn default() -> Self {
        Config {
            beam_width: DEFAULT_BEAM_WIDTH,
            previews: DEFAULT_PREVIEWS,
            rules: Rules::Srs,
            use_cache: true,
            max_width: 8192,
            use_hold: true,
            speculate: true,
            speculate_top: 32,
            speculate_share: 25,
            speculate_deep: 0,
            speculate_deep_from: 0,
            move_choice: MoveChoice::BestLeaf,
            frame_costs: FrameCosts::default(),
        }
    }
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

/// The engine. Owns the configuration, the evaluator, one table per depth and the prediction.
pub struct Engine<E: Evaluator = DefaultEvaluator> {
    config: Config,
    evaluator: E,
    tables: DepthTables<PositionEval, Board>,
    buffers: Buffers,
    pieces: Vec<Piece>,
    /// What the first search of the current root did to the tables.
    root_transition: Transition,
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
    }

    /// Starts a new game: clears every table and forgets the prediction.
    pub fn reset(&mut self) {
        self.tables.reset();
    }

    /// Searches at the configured fixed width. Deterministic. `None` when no piece can be
    /// placed (the game is over).
    pub fn suggest(&mut self, state: &GameState) -> Option<Plan> {
        self.search(state, Budget::Fixed)
    }

    /// Searches until `deadline`, widening the beam pass by pass (each pass reuses what the
    /// last one cached) and returning the best line of the last pass that finished. The first
    /// pass (width 8) always finishes.
    pub fn suggest_until(&mut self, state: &GameState, deadline: Instant) -> Option<Plan> {
        self.search(state, Budget::Widening(deadline))
    }

    /// Searches like [`Self::suggest_until`], widening the beam pass by pass, but stops once
    /// `limit` candidates have been scored (all passes counted; checked as often as the
    /// deadline is) instead of at a time: the same state and limit give the same move on any
    /// machine. The answer is the best line of the last pass that finished; the first pass
    /// (width 8) always finishes, whatever the limit. The versus arena thinks this way when
    /// an engine has a think budget (`think_ms`) and thinking is charged by nodes.
    pub fn suggest_nodes(&mut self, state: &GameState, limit: u64) -> Option<Plan> {
        self.search(state, Budget::Nodes(limit))
    }

    /// Searches pass after pass at `widths` (for example [`Config::bot_widths`]): the first
    /// `firm` passes always finish; each later one is abandoned once the search has scored
    /// `limit` candidates (all passes counted) or `deadline` has passed, and the answer is the
    /// best line of the last pass that finished. With a limit and no deadline the same state
    /// gives the same move on any machine. This is how the versus arena has an engine think
    /// through the delays before its turn, as the TBP bot does in the background.
    pub fn suggest_passes(
        &mut self,
        state: &GameState,
        widths: &[usize],
        firm: usize,
        limit: Option<u64>,
        deadline: Option<Instant>,
    ) -> Option<Plan> {
        self.search(
            state,
            Budget::Passes {
                widths,
                firm,
                limit,
                deadline,
            },
        )
    }

    /// Searches at the configured fixed width, but never past `deadline`: a width-8 pass runs
    /// first, and if the full-width pass cannot finish in time its answer is returned instead.
    /// When the full pass finishes, the move is the same as [`Self::suggest`]'s.
    pub fn suggest_fixed_within(&mut self, state: &GameState, deadline: Instant) -> Option<Plan> {
        self.search(state, Budget::Safety(deadline))
    }

    /// Thinks about `state` pass after pass at `widths`, until they are done or `stop` is set
    /// (checked every few parents, so it returns within a fraction of a millisecond), calling
    /// `on_pass` with the plan of every pass that finishes. The prediction for the next search
    /// is always that of the last finished pass. Returns that pass's plan, or `None` when no
    /// pass finished. For thinking in the background; memory stays within what the widest
    /// width needs (see `docs/tbp.md`).
    pub fn think(
        &mut self,
        state: &GameState,
        widths: &[usize],
        stop: &AtomicBool,
        on_pass: impl FnMut(&Plan),
    ) -> Option<Plan> {
        self.search_with(state, Budget::Until(widths, stop), on_pass)
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

    fn search(&mut self, state: &GameState, budget: Budget<'_>) -> Option<Plan> {
        self.search_with(state, budget, |_| {})
    }

    fn search_with(
        &mut self,
        state: &GameState,
        budget: Budget<'_>,
        mut on_pass: impl FnMut(&Plan),
    ) -> Option<Plan> {
        let start = Instant::now();
        let transition = self.tables.begin(&state.board);
        if transition != Transition::Kept {
            self.root_transition = transition;
        }
        let root_transition = self.root_transition;
        let depth = 1 + self.config.previews;
        self.pieces.clear();
        self.pieces.push(state.current);
        // One piece beyond the depth, so holding into an empty hold works at the last depth.
        self.pieces.extend(state.queue.iter().take(depth).copied());
        let search_depth = depth.min(self.pieces.len());
        // Speculate past the queue only when the search has every known piece (the bag
        // state is what comes after the whole queue) and something is known of what comes
        // next.
        let speculate = match state.bag {
            Some(bag) if self.config.speculate && state.queue.len() <= depth => Some(bag),
            _ => None,
        };
        let root = Node {
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
        };
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
        let mut stop = None;
        // Passes before this one always finish (unless a stop is asked for).
        let mut firm = 1;
        let (widths, deadline): (Vec<usize>, Option<Instant>) = match budget {
            Budget::Fixed => (vec![self.config.beam_width.max(1)], None),
            Budget::Safety(d) => (vec![8, self.config.beam_width.max(1)], Some(d)),
            Budget::Until(w, s) => {
                stop = Some(s);
                (w.iter().map(|&w| w.max(1)).collect(), None)
            }
            Budget::Widening(d) => (self.widening(), Some(d)),
            Budget::Nodes(_) => (self.widening(), None),
            Budget::Passes {
                widths,
                firm: f,
                deadline,
                ..
            } => {
                firm = f.max(1);
                (widths.iter().map(|&w| w.max(1)).collect(), deadline)
            }
        };
        let node_limit = match budget {
            Budget::Nodes(l) => Some(l),
            Budget::Passes { limit, .. } => limit,
            _ => None,
        };
        let mut best = None;
        let mut passes = 0;
        for (i, &w) in widths.iter().enumerate() {
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
                // The first pass (the first `firm`) always finishes, unless a stop is asked
                // for.
                deadline: if i < firm { None } else { deadline },
                node_limit: if i < firm { None } else { node_limit },
                stop,
                pieces_placed: state.pieces_placed,
            };
            match run_pass(
                &pass,
                &root,
                &mut self.tables,
                &mut self.buffers,
                &mut counters,
            ) {
                Some(line) => {
                    self.tables.predict(line.board_after_first);
                    passes += 1;
                    let now = start.elapsed();
                    let plan = Plan {
                        placement: line.placements[0],
                        uses_hold: line.uses_hold,
                        line: line.placements,
                        line_holds: line.holds,
                        alternatives: line.alternatives,
                        score: line.score,
                        stats: SearchStats {
                            nodes: counters.nodes,
                            evaluations: counters.evaluations,
                            depth: counters.depth.clone(),
                            transition,
                            root_transition,
                            rotations: self.tables.rotations(),
                            clears: self.tables.clears(),
                            passes,
                            width: w,
                            search_depth,
                            elapsed: now,
                            answer_nodes: counters.nodes,
                            answer_elapsed: now,
                        },
                    };
                    on_pass(&plan);
                    best = Some(plan);
                }
                None => break,
            }
            if i + 1 >= firm {
                if let Some(d) = deadline
                    && Instant::now() >= d
                {
                    break;
                }
                if let Some(l) = node_limit
                    && counters.nodes >= l
                {
                    break;
                }
            }
        }
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
        self.tables.bytes() + self.buffers.bytes() + self.pieces.capacity() * size_of::<Piece>()
    }

    /// The per-depth tables (for statistics and inspection).
    pub fn tables(&self) -> &DepthTables<PositionEval, Board> {
        &self.tables
    }
}
