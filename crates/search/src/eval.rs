//! Evaluation in two stages: the cached position evaluation and the cheap context score.

use board::{Board, HEIGHT, Piece, Spin, WIDTH};
use bytemuck::{Pod, Zeroable};
use game::Outcome;
use serde::{Deserialize, Serialize};

/// The cached result of a position evaluation: a value and auxiliary scores. 8 bytes, so a
/// table bucket of two is 32 bytes of keys and values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Zeroable, Pod)]
#[repr(C)]
pub struct PositionEval {
    /// The position's value (higher is better).
    pub value: i32,
    /// Lines the best T-slot on the board would clear with a T-spin (0 = no slot).
    pub t_slot_lines: u8,
    /// Number of T-slots found.
    pub t_slots: u8,
    /// Holes (empty cells with a filled cell above them).
    pub holes: u8,
    /// Height of the tallest column.
    pub max_height: u8,
}

/// What the context score sees about the placement that led to a position.
#[derive(Clone, Copy, Debug)]
pub struct StepContext<'a> {
    /// The placed piece.
    pub piece: Piece,
    /// Lines, spin, attack, perfect clear, back-to-back and combo after the placement.
    pub outcome: &'a Outcome,
    /// Whether a back-to-back chain was active before the placement.
    pub b2b_before: bool,
    /// Search depth of the placement.
    pub depth: usize,
    /// Pieces still to come after this placement, next first.
    pub pending: &'a [Piece],
    /// The held piece after the placement.
    pub hold: Option<Piece>,
    /// Pieces placed in the game before this placement.
    pub pieces_placed: u64,
    /// Frames the placement's inputs take, estimated (see [`crate::FrameCosts`]).
    pub input_frames: u32,
    /// Frames of line-clear delay after it.
    pub clear_frames: u32,
    /// Garbage lines known to be coming, at the first move of a line (0 deeper, and when the
    /// player cannot see them).
    pub incoming: u32,
}

/// The context score of one placement: `reward` accumulates along the search path; `leaf`
/// counts only for the position the path ends in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepScore {
    /// Added to the path's running total.
    pub reward: i32,
    /// Added to this position's value only.
    pub leaf: i32,
}

/// An evaluator in two stages.
///
/// The position evaluation is expensive and cached under the key (board, roof, hold). A cached
/// value is reused wherever its key recurs, at the same depth within a search and one depth
/// shallower in the next search after a matched rotation. So it receives exactly what the key
/// covers, the board (its roof is a function of it) and the held piece, and nothing else: an
/// evaluator that wanted the queue, the depth or the game's progress here would be served stale
/// values, and by this signature it cannot be written. Everything else goes to the context
/// score, which is cheap and never cached.
///
/// The cached stage once also received a context (depth, pending pieces, pieces placed) that
/// the key does not cover; an evaluator reading it, like this one, compiled and was served
/// stale values after a rotation. It no longer compiles:
///
/// ```compile_fail
/// use board::{Board, Piece};
/// use search::{Evaluator, PositionContext, PositionEval, StepContext, StepScore};
/// struct Peeks;
/// impl Evaluator for Peeks {
///     fn position(&self, _: &Board, _: Option<Piece>, ctx: &PositionContext<'_>) -> PositionEval {
///         PositionEval { value: ctx.pending.len() as i32, ..PositionEval::default() }
///     }
///     fn context(&self, _: &PositionEval, _: &StepContext<'_>) -> StepScore {
///         StepScore::default()
///     }
/// }
/// ```
pub trait Evaluator: Sync {
    /// Evaluates a position from its key alone: the board and the held piece.
    fn position(&self, board: &Board, hold: Option<Piece>) -> PositionEval;
    /// Scores the placement that led to a position, given its cached evaluation.
    fn context(&self, eval: &PositionEval, step: &StepContext<'_>) -> StepScore;
    /// The evaluation of the board that `eval` evaluates with `before` in hold, but with
    /// `hold` in hold instead: exactly `position(board, hold)`, when the evaluator can tell it
    /// without the board. `None` (the default) evaluates the board again. The search asks
    /// this where one board recurs with other held pieces (holding on a speculated line).
    fn with_hold(
        &self,
        eval: &PositionEval,
        before: Option<Piece>,
        hold: Option<Piece>,
    ) -> Option<PositionEval> {
        let _ = (eval, before, hold);
        None
    }
    /// Whether [`Evaluator::context`] gives the same score for every step when `piece` is
    /// added at the end of the step's `pending` pieces. The search of a position builds on
    /// an earlier search of it when the new pieces of its queue are read this way (a new
    /// preview while the bot thinks); `false` (the default) searches again from the root.
    fn ignores_pending(&self, piece: Piece) -> bool {
        let _ = piece;
        false
    }
}

/// The default evaluator's weights: plain data, loadable from JSON (missing fields keep their
/// defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Weights {
    /// Per hole (empty cell under a filled one).
    pub holes: i32,
    /// Per hole, squared count.
    pub holes_sq: i32,
    /// Per filled cell above a hole (up to 6 per column).
    pub covered_cells: i32,
    /// Per filled/empty change along rows (walls count as filled).
    pub row_transitions: i32,
    /// Per unit of height difference between neighbouring columns (well excluded).
    pub bumpiness: i32,
    /// Per squared height difference.
    pub bumpiness_sq: i32,
    /// Per unit of the tallest column's height.
    pub height: i32,
    /// Per cell of height above row 10.
    pub danger_10: i32,
    /// Per cell of height above row 15.
    pub danger_15: i32,
    /// Per row of well depth (capped at 4 rows for the full reward).
    pub well_depth: i32,
    /// By the well's column (0..10).
    pub well_column: [i32; 10],
    /// By the lines the best T-slot would clear (0..=3).
    pub t_slot: [i32; 4],
    /// A T-slot is worth this much more when a T is held or among the pending pieces.
    pub t_slot_with_t: i32,
    /// Standing bonus for an active back-to-back chain.
    pub b2b_standing: i32,
    /// Holding a T or an I.
    pub hold_t_or_i: i32,
    /// Reward by plain lines cleared (0..=4).
    pub clear: [i32; 5],
    /// Reward by lines cleared with a T-spin mini (0..=2).
    pub mini_tspin: [i32; 3],
    /// Reward by lines cleared with a full T-spin (0..=3).
    pub tspin: [i32; 4],
    /// Reward for a perfect clear.
    pub perfect_clear: i32,
    /// Reward for a back-to-back bonus clear.
    pub b2b_clear: i32,
    /// Reward per line of combo attack.
    pub combo_attack: i32,
    /// Reward per line of attack sent.
    pub attack: i32,
    /// Placing a T without a T-spin clear.
    pub wasted_t: i32,
    /// Per covered empty cell that the sky still reaches sideways (a cavity a tuck or a spin
    /// can fill), on top of `holes`, which counts every covered empty cell.
    pub cavities: i32,
    /// By the lines of the best full T-spin double or triple a T could make on the board now
    /// (0, 2 or 3; a single counts as none), checked by move generation (so the slot is
    /// reachable): with `t_cutout`, on every board that has one; without, when the shape
    /// detector sees a slot.
    pub tspin_ready: [i32; 4],
    /// Judge a board that offers a full T-spin double or triple as it stands after the best
    /// one (the slot filled, its lines cleared), plus `tspin_ready` by its lines: the slot's
    /// covered cells then count as where the T goes, not as holes.
    pub t_cutout: bool,
    /// Per row with exactly one empty cell (a line one piece away from clearing).
    pub ready_rows: i32,
    /// Per frame a move takes (its inputs and its line-clear delay): negative to prefer fast
    /// play, trading time for value (attack per minute for attack per piece).
    pub frames: i32,
    /// Per frame of line-clear delay only, on top of `frames` (clears cost 36 to 46 frames
    /// whatever their size, so this prefers fewer, bigger clears).
    pub clear_frames: i32,
}

/// The largest magnitude of a weight, except those of [`Weights::SQUARED`]: with every weight
/// within its bound, no board, move or frame cost (up to [`crate::MAX_FRAME_COST`]) can make
/// the evaluation overflow its 32-bit sums.
pub const MAX_WEIGHT: i32 = 10_000;
/// The largest magnitude of a weight on a squared count ([`Weights::SQUARED`]), whose
/// feature reaches 160,000 on a board of 400 holes.
pub const MAX_SQUARED_WEIGHT: i32 = 1_000;

impl Weights {
    /// The weights on squared counts, bounded by [`MAX_SQUARED_WEIGHT`] instead of
    /// [`MAX_WEIGHT`].
    pub const SQUARED: [&'static str; 2] = ["holes_sq", "bumpiness_sq"];

    /// Checks every weight against its bound ([`MAX_WEIGHT`], [`MAX_SQUARED_WEIGHT`]); the
    /// error names the field (with its index for a table).
    ///
    /// ```
    /// use search::Weights;
    /// assert!(Weights::default().check().is_ok());
    /// let e = Weights { holes_sq: -5000, ..Weights::default() }.check().unwrap_err();
    /// assert_eq!(e, "holes_sq must be in -1000..=1000, not -5000");
    /// ```
    pub fn check(&self) -> Result<(), String> {
        let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(self) else {
            return Err("weights are not a JSON object".into());
        };
        for (name, v) in &fields {
            let bound = if Self::SQUARED.contains(&name.as_str()) {
                MAX_SQUARED_WEIGHT
            } else {
                MAX_WEIGHT
            };
            let values: Vec<(String, i64)> = match v {
                serde_json::Value::Number(n) => {
                    n.as_i64().map(|x| (name.clone(), x)).into_iter().collect()
                }
                serde_json::Value::Array(a) => a
                    .iter()
                    .enumerate()
                    .filter_map(|(i, x)| x.as_i64().map(|x| (format!("{name}[{i}]"), x)))
                    .collect(),
                _ => Vec::new(),
            };
            for (field, x) in values {
                game::versus::in_range(&field, x, -i64::from(bound), i64::from(bound))?;
            }
        }
        Ok(())
    }
}

impl Default for Weights {
    fn default() -> Self {
        // Tuned by SPSA in the arena and accepted by an SPRT (docs/tuning/README.md has the
        // commands; docs/decisions.md the results). Change them only the same way.
        Weights {
            holes: -147,
            holes_sq: -6,
            covered_cells: -30,
            row_transitions: -27,
            bumpiness: -19,
            bumpiness_sq: -8,
            height: -25,
            danger_10: -155,
            danger_15: -500,
            well_depth: 62,
            well_column: [20, 23, 20, 50, 59, 21, 59, 10, -10, 24],
            t_slot: [0, 115, 232, 325],
            t_slot_with_t: 85,
            b2b_standing: 50,
            hold_t_or_i: 26,
            clear: [0, -151, -105, -64, 457],
            mini_tspin: [0, -182, -83],
            tspin: [0, 120, 317, 560],
            perfect_clear: 1079,
            b2b_clear: 105,
            combo_attack: 170,
            attack: 0,
            wasted_t: -155,
            cavities: -9,
            tspin_ready: [0, 100, 253, 397],
            t_cutout: true,
            ready_rows: 8,
            frames: -2,
            clear_frames: -2,
        }
    }
}

/// The default evaluator: the features strong engines use, weighted by [`Weights`].
///
#[derive(Clone, Debug, Default)]
pub struct DefaultEvaluator {
    /// The weights.
    pub weights: Weights,
}

impl DefaultEvaluator {
    /// An evaluator with the given weights.
    pub fn new(weights: Weights) -> Self {
        DefaultEvaluator { weights }
    }

    /// What the held piece adds to a position's value.
    #[inline]
    fn hold_term(&self, hold: Option<Piece>) -> i32 {
        if matches!(hold, Some(Piece::T) | Some(Piece::I)) {
            self.weights.hold_t_or_i
        } else {
            0
        }
    }
}

/// The structure terms of one board: everything of the position evaluation but the held piece
/// and the T-spin cutout.
struct Structure {
    value: i32,
    holes: i32,
    max_height: i32,
    t_slots: u8,
    t_slot_lines: u8,
}

impl DefaultEvaluator {
    fn structure(&self, board: &Board, full: &FullBut) -> Structure {
        let w = &self.weights;
        let cols = board.columns();
        // One pass over the columns: heights, holes, covered cells, tallest and lowest column.
        let mut heights = [0i32; WIDTH];
        let mut hole_cells = [0u64; WIDTH];
        // Bit x: column x has holes.
        let mut with_holes = 0u32;
        let (mut holes, mut covered, mut max_height) = (0i32, 0i32, 0i32);
        let (mut well_x, mut well_h) = (0usize, i32::MAX);
        for (x, &c) in cols.iter().enumerate() {
            let h = (64 - c.leading_zeros()) as i32;
            heights[x] = h;
            max_height = max_height.max(h);
            if h < well_h {
                well_h = h;
                well_x = x;
            }
            // Below its height a column's cells are filled or holes.
            let empty = h - c.count_ones() as i32;
            if empty != 0 {
                holes += empty;
                hole_cells[x] = !c & ((1u64 << h) - 1);
                with_holes |= 1 << x;
                // The filled cells from the lowest hole (the first unset bit) up.
                covered += ((c >> c.trailing_ones()).count_ones() as i32).min(6);
            }
        }
        let mut v = w.holes * holes + w.holes_sq * holes * holes + w.covered_cells * covered;

        // Row transitions up to the roof, walls filled. Columns hold no bits above the roof.
        let roof = board.roof();
        let rows = if roof == 0 { 0 } else { (1u64 << roof) - 1 };
        let mut transitions =
            (rows & !cols[0]).count_ones() + (rows & !cols[WIDTH - 1]).count_ones();
        for x in 0..WIDTH - 1 {
            transitions += (cols[x] ^ cols[x + 1]).count_ones();
        }
        v += w.row_transitions * transitions as i32;

        // Bumpiness, skipping the well (the lowest column, leftmost on ties).
        let (bump, bump_sq) = bumpiness(&heights, well_x);
        v += w.bumpiness * bump + w.bumpiness_sq * bump_sq;

        let left = if well_x > 0 {
            heights[well_x - 1]
        } else {
            i32::MAX
        };
        let right = if well_x + 1 < WIDTH {
            heights[well_x + 1]
        } else {
            i32::MAX
        };
        let well_depth = (left.min(right) - well_h).clamp(0, 4);
        v += w.well_depth * well_depth + w.well_column[well_x] * (well_depth > 0) as i32;

        // Height and danger zones.
        v += w.height * max_height
            + w.danger_10 * (max_height - 10).max(0)
            + w.danger_15 * (max_height - 15).max(0);

        // T-slots.
        let (t_slots, t_slot_lines) = t_slots(board, &heights, full);
        v += w.t_slot[t_slot_lines as usize];
        if holes > 0 && w.cavities != 0 {
            v += w.cavities * cavities(&heights, &hole_cells, with_holes);
        }
        if w.ready_rows != 0 {
            v += w.ready_rows * ready_rows(board, full);
        }

        Structure {
            value: v,
            holes,
            max_height,
            t_slots,
            t_slot_lines,
        }
    }
}

impl Evaluator for DefaultEvaluator {
    fn position(&self, board: &Board, hold: Option<Piece>) -> PositionEval {
        let w = &self.weights;
        let full = FullBut::new(board.columns());
        let s = self.structure(board, &full);
        let mut v = s.value;
        let mut t_slot_lines = s.t_slot_lines;
        if w.t_cutout {
            // A full T-spin ends with a filled corner above one of the T's cells (a hole
            // before the T fills it), except a fifth-kick spin whose only filled top corner is
            // on the flat side of an east or west T: boards without holes are not asked, and
            // that rare spin goes without the credit.
            if s.holes > 0
                && let Some((lines, after)) = best_tspin(board, &full)
            {
                // The board is judged as it stands once its best T-spin is done: the slot's
                // covered cells are not holes, they are where the T goes.
                let after_full = FullBut::new(after.columns());
                v = self.structure(&after, &after_full).value + w.tspin_ready[lines as usize];
                t_slot_lines = t_slot_lines.max(lines as u8);
            }
        } else if s.t_slots > 0 && w.tspin_ready != [0; 4] {
            v += w.tspin_ready[best_tspin(board, &full).map_or(0, |(l, _)| l) as usize];
        }

        v += self.hold_term(hold);

        PositionEval {
            value: v,
            t_slot_lines,
            t_slots: s.t_slots,
            holes: s.holes.min(255) as u8,
            max_height: s.max_height as u8,
        }
    }

    fn with_hold(
        &self,
        eval: &PositionEval,
        before: Option<Piece>,
        hold: Option<Piece>,
    ) -> Option<PositionEval> {
        // The held piece adds its term last; nothing else reads it.
        Some(PositionEval {
            value: eval.value - self.hold_term(before) + self.hold_term(hold),
            ..*eval
        })
    }

    fn ignores_pending(&self, piece: Piece) -> bool {
        // `context` reads the pending pieces only to ask whether a T is among them.
        piece != Piece::T
    }

    fn context(&self, eval: &PositionEval, step: &StepContext<'_>) -> StepScore {
        let w = &self.weights;
        let o = step.outcome;
        let mut reward = 0;
        let l = o.lines as usize;
        reward += match o.spin {
            Spin::None => w.clear[l.min(4)],
            Spin::Mini => w.mini_tspin[l.min(2)],
            Spin::Full => w.tspin[l.min(3)],
        };
        if o.perfect_clear {
            reward += w.perfect_clear;
        }
        if o.b2b_bonus {
            reward += w.b2b_clear;
        }
        if o.lines > 0 {
            let combo_index = (o.carried.combo as usize - 1).min(game::COMBO_ATTACK.len() - 1);
            reward += w.combo_attack * game::COMBO_ATTACK[combo_index] as i32;
        }
        reward += w.attack * o.attack as i32;
        if step.piece == Piece::T && !(o.spin != Spin::None && o.lines > 0) {
            reward += w.wasted_t;
        }
        reward += w.frames * (step.input_frames + step.clear_frames) as i32
            + w.clear_frames * step.clear_frames as i32;

        let mut leaf = 0;
        if o.carried.b2b {
            leaf += w.b2b_standing;
        }

        if eval.t_slot_lines > 0
            && (step.hold == Some(Piece::T) || step.pending.contains(&Piece::T))
        {
            leaf += w.t_slot_with_t;
        }
        StepScore { reward, leaf }
    }
}

/// Rows full but for some columns: `full_but(a, b, dy)` has bit `y` set when row `y + dy` is
/// full in every column outside `a..=b` (from prefix and suffix ANDs of the columns).
struct FullBut {
    pre: [u64; WIDTH + 1],
    suf: [u64; WIDTH + 1],
}

impl FullBut {
    // Inlined into its caller: returned from a call, the tables are copied out of it.
    #[inline(always)]
    fn new(cols: &[u64; WIDTH]) -> FullBut {
        // pre[i]: rows full in columns 0..i; suf[i]: rows full in columns i..WIDTH.
        let mut pre = [!0u64; WIDTH + 1];
        let mut suf = [!0u64; WIDTH + 1];
        for x in 0..WIDTH {
            pre[x + 1] = pre[x] & cols[x];
        }
        for x in (0..WIDTH).rev() {
            suf[x] = suf[x + 1] & cols[x];
        }
        FullBut { pre, suf }
    }

    #[inline]
    fn at(&self, a: usize, b: usize, dy: i32) -> u64 {
        let m = self.pre[a] & self.suf[b + 1];
        match dy {
            -1 => m << 1,
            0 => m,
            _ => m >> 1,
        }
    }

    /// For a T centred in column `x` in orientation `r` (north, east, south, west), inside the
    /// board, the centre rows where it would clear at least one, at least two and three lines.
    fn t_clears(&self, r: usize, x: usize) -> [u64; 3] {
        // The T's rows: the row of three (or the point beside the column of three) and the
        // single cells above and below.
        let rows = match r {
            0 => [self.at(x - 1, x + 1, 0), self.at(x, x, 1), 0],
            1 => [self.at(x, x + 1, 0), self.at(x, x, 1), self.at(x, x, -1)],
            2 => [self.at(x - 1, x + 1, 0), self.at(x, x, -1), 0],
            _ => [self.at(x - 1, x, 0), self.at(x, x, 1), self.at(x, x, -1)],
        };
        let [a, b, c] = rows;
        // At least one, at least two, all three.
        [a | b | c, (a & b) | (a & c) | (b & c), a & b & c]
    }
}

/// The fewest lines of the T-spins [`best_tspin`] looks for: doubles and triples. A single
/// slot is a shape a T rests in with three corners almost anywhere, and most are not
/// reachable with a full spin, which only move generation can tell: proving them costs much
/// and plays no better (docs/decisions.md).
const MIN_TSPIN_LINES: u32 = 2;
// `Shapes` skips T positions clearing no row they fill with a single cell: with
// singles, that would drop T-spin singles in a row of three.
const _: () = assert!(MIN_TSPIN_LINES >= 2);

/// A T position: orientation index (north, east, south, west), centre column and row.
type TPos = (usize, usize, u32);

/// Where a T could make a full T-spin double or triple on a board, by shape alone: the T
/// positions that rest with three corners filled next to a row one cell short, below the roof.
/// Every full T-spin double or triple is one of them; move generation (or a drop and a turn)
/// tells which are reachable with a spin.
struct Shapes<'a> {
    board: &'a Board,
    /// The columns with a wall column each side (all filled): column x is `cols[x + 1]`.
    cols: [u64; WIDTH + 2],
    /// The rows next to a row full but for column x: where a T centred in column x can clear
    /// two lines or more.
    near: [u64; WIDTH],
}

impl<'a> Shapes<'a> {
    /// `None` when no row is one cell short: then no T-spin double or triple exists.
    #[inline]
    fn new(board: &'a Board, full: &FullBut) -> Option<Shapes<'a>> {
        // A double or triple clears a row the T fills with one cell, in its centre column: the
        // point of a north or south T, the row above or below the centre of an east or west
        // one. So the centre lies next to a row that is full but for that column.
        let near: [u64; WIDTH] = std::array::from_fn(|x| {
            let single = full.at(x, x, 0);
            (single >> 1) | (single << 1)
        });
        if near.iter().all(|&m| m == 0) {
            return None;
        }
        let mut cols = [!0u64; WIDTH + 2];
        cols[1..=WIDTH].copy_from_slice(board.columns());
        Some(Shapes { board, cols, near })
    }

    /// Bit y: is cell (x, y - 1) filled (the floor is): column x is `i = x + 1`.
    #[inline(always)]
    fn below_of(&self, i: usize) -> u64 {
        (self.cols[i] << 1) | 1
    }

    /// Bit y: is cell (x, y + 1) filled, for the rows of the board: column x is `i = x + 1`.
    #[inline(always)]
    fn above_of(&self, i: usize) -> u64 {
        self.cols[i] >> 1
    }

    /// The rows where a T in orientation `r` (north, east, south, west) centred in column `x`
    /// overlaps nothing and lies inside the board. North, east and west cover the row above
    /// the centre, so they never fit centred on the top row.
    #[inline(always)]
    fn free(&self, r: usize, x: usize) -> u64 {
        let c = &self.cols;
        let (up, down) = (self.above_of(x + 1), self.below_of(x + 1));
        // The cells each orientation covers besides the centre: north and south a row of three
        // with a point up or down, east and west a column of three with a point right or
        // left. A T that would stick out of the board fits nowhere (the walls are filled).
        let (blocked, rows) = match r {
            0 => (c[x] | c[x + 1] | c[x + 2] | up, TOP_ROW_OUT),
            1 => (down | c[x + 1] | up | c[x + 2], TOP_ROW_OUT),
            2 => (c[x] | c[x + 1] | c[x + 2] | down, ALL_ROWS),
            _ => (down | c[x + 1] | up | c[x], TOP_ROW_OUT),
        };
        !blocked & rows
    }

    /// Calls `visit(r, x, rows)` for each orientation and column with the rows where a T
    /// rests (fits, and one row lower does not) with three corners filled, next to a row one
    /// cell short, below the roof and on an empty centre.
    #[inline]
    fn each(&self, mut visit: impl FnMut(usize, usize, u64)) {
        let below = (1u64 << self.board.roof()) - 1;
        let c = &self.cols;
        for x in 0..WIDTH {
            if self.near[x] == 0 {
                continue;
            }
            let (tl, tr) = (self.above_of(x), self.above_of(x + 2));
            let (bl, br) = (self.below_of(x), self.below_of(x + 2));
            let three =
                ((tl & tr & (bl | br)) | (bl & br & (tl | tr))) & below & self.near[x] & !c[x + 1];
            if three == 0 {
                continue;
            }
            for r in 0..4 {
                let f = self.free(r, x);
                let rests = f & !(f << 1) & three;
                if rests != 0 {
                    visit(r, x, rests);
                }
            }
        }
    }

    /// Whether a T in orientation `r` fits centred at `(x, y)`; never outside the board.
    #[inline(always)]
    fn fits(&self, r: usize, x: i32, y: i32) -> bool {
        (0..WIDTH as i32).contains(&x)
            && (0..HEIGHT as i32).contains(&y)
            && self.free(r, x as usize) >> y & 1 != 0
    }
}

/// Every row of the board.
const ALL_ROWS: u64 = (1u64 << HEIGHT) - 1;
/// Every row but the top one.
const TOP_ROW_OUT: u64 = (1u64 << (HEIGHT - 1)) - 1;

/// The first of the T positions of [`Shapes`] that clear the most lines, at least
/// [`MIN_TSPIN_LINES`] (in orientation, column, row order), with its lines: no full T-spin
/// clears more lines than this one.
fn tspin_candidate(shapes: &Shapes<'_>, full: &FullBut) -> Option<(u32, TPos)> {
    let mut best: Option<(u32, TPos)> = None;
    shapes.each(|r, x, rests| offer(&mut best, full, r, x, rests));
    best
}

/// Makes the lowest of the centre rows `rows` of a T in orientation `r` at column `x` the best
/// T-spin when it clears more lines than `best` (at least [`MIN_TSPIN_LINES`]), or as many
/// and comes first in (orientation, column, row) order.
fn offer(best: &mut Option<(u32, TPos)>, full: &FullBut, r: usize, x: usize, rows: u64) {
    let clears = full.t_clears(r, x);
    for lines in (MIN_TSPIN_LINES..=3).rev() {
        if best.is_some_and(|(l, _)| l > lines) {
            return;
        }
        // At least `lines`; more was tried first.
        let hits = rows & clears[lines as usize - 1];
        if hits != 0 {
            let pos = (r, x, hits.trailing_zeros());
            if best.is_none_or(|(l, p)| lines > l || pos < p) {
                *best = Some((lines, pos));
            }
            return;
        }
    }
}

/// Whether a T lands at `(r, x, y)` with a full spin by a turn from a position `source` accepts
/// (orientation index, centre column, centre row): some turn into `r` whose first fitting kick
/// test lands here starts from an accepted position, and the spin is full (both front corners
/// filled, or the fifth kick test).
#[inline]
fn turns_in(
    shapes: &Shapes<'_>,
    (r, x, y): TPos,
    source: impl Fn(usize, i32, i32) -> bool,
) -> bool {
    use board::{Rotation, Rules, Turn, kicks};
    let (x, y) = (x as i32, y as i32);
    let filled = |cx: i32, cy: i32| shapes.board.occupied(cx, cy);
    // The corners in front of the T's point (outside the board counts as filled).
    let front = match r {
        0 => filled(x - 1, y + 1) && filled(x + 1, y + 1),
        1 => filled(x + 1, y + 1) && filled(x + 1, y - 1),
        2 => filled(x - 1, y - 1) && filled(x + 1, y - 1),
        _ => filled(x - 1, y + 1) && filled(x - 1, y - 1),
    };
    for (from, turn) in [((r + 3) & 3, Turn::Cw), ((r + 1) & 3, Turn::Ccw)] {
        let tests = kicks(Piece::T, Rotation::ALL[from], turn, Rules::Srs).tests();
        for (i, &(kx, ky)) in tests.iter().enumerate() {
            // The fifth test makes any 3-corner spin full; otherwise the front corners must.
            if !front && i != 4 {
                continue;
            }
            let (px, py) = (x - kx as i32, y - ky as i32);
            if !source(from, px, py) {
                continue;
            }
            // No earlier test fits, so the turn lands here.
            let lands = tests[..i]
                .iter()
                .all(|&(jx, jy)| !shapes.fits(r, px + jx as i32, py + jy as i32));
            if lands {
                return true;
            }
        }
    }
    false
}

/// Whether a T reaches `(r, x, y)` with a full spin by the plainest route: straight down from
/// spawn height in the orientation before its last turn, then that turn, whose first fitting
/// kick test lands here. `true` proves the full T-spin can be made; `false` proves nothing.
/// Asked only when the stack leaves rows 17 and up free, where a T at spawn height turns and
/// shifts to any column.
fn drops_and_turns_in(shapes: &Shapes<'_>, pos: TPos) -> bool {
    use board::{OPEN_ROOF, SPAWN_Y};
    if shapes.board.roof() > OPEN_ROOF {
        return false;
    }
    turns_in(shapes, pos, |from, px, py| {
        // Straight down from spawn height to (px, py) in `from`: it fits at every row from
        // there up to the spawn row.
        if !(0..WIDTH as i32).contains(&px) || !(0..=SPAWN_Y as i32).contains(&py) {
            return false;
        }
        let column = shapes.free(from, px as usize) >> py;
        let span = (1u64 << (SPAWN_Y as i32 - py + 1)) - 1;
        column & span == span
    })
}

/// The best full T-spin double or triple a T can make on `board` now, under guideline SRS: its
/// lines (2 or 3, see [`MIN_TSPIN_LINES`]) and the board after it; `None` when there is none.
/// Ties go to the first in (orientation, column, row) order, so the answer depends on the
/// board alone. Exact: when the shape test's best candidate is not proved reachable by a drop
/// and a turn, every shape is asked whether a turn from where a T can reach lands in it with a
/// full spin.
fn best_tspin(board: &Board, full: &FullBut) -> Option<(u32, Board)> {
    let shapes = Shapes::new(board, full)?;
    let (lines, pos) = tspin_candidate(&shapes, full)?;
    let best = if drops_and_turns_in(&shapes, pos) {
        Some((lines, pos))
    } else {
        reached_best_tspin(&shapes, full)
    };
    best.map(|(lines, (r, x, y))| {
        let (after, _) = board.placed(Piece::T, board::Rotation::ALL[r], x as i32, y as i32);
        (lines, after)
    })
}

/// [`best_tspin`] from where a T can reach ([`board::t_reach`]): each shape that clears two
/// lines or more is asked whether a turn from a reachable position lands in it with a full
/// spin, as move generation's 3-corner rule decides, and the best of those is kept. Shapes
/// that no turn from any position where a T fits could enter with a full spin (sealed
/// cavities, most of them) are dropped first; when none is left, no flood is needed.
fn reached_best_tspin(shapes: &Shapes<'_>, full: &FullBut) -> Option<(u32, TPos)> {
    // The shapes a turn from somewhere a T fits enters with a full spin: (r, x, rows).
    let mut open = [(0u8, 0u8, 0u64); 4 * WIDTH];
    let mut n = 0;
    let fitting = |from: usize, px: i32, py: i32| shapes.fits(from, px, py);
    shapes.each(|r, x, rests| {
        let rows = rests & full.t_clears(r, x)[MIN_TSPIN_LINES as usize - 1];
        let spun = spun_rows(shapes, r, x, rows, fitting);
        if spun != 0 {
            open[n] = (r as u8, x as u8, spun);
            n += 1;
        }
    });
    if n == 0 {
        return None;
    }
    let reach = board::t_reach(shapes.board, board::Rules::Srs);
    let reached = |from: usize, px: i32, py: i32| {
        (0..WIDTH as i32).contains(&px)
            && (0..HEIGHT as i32).contains(&py)
            && reach[from][px as usize] >> py & 1 != 0
    };
    let mut best: Option<(u32, TPos)> = None;
    for &(r, x, rows) in &open[..n] {
        let (r, x) = (r as usize, x as usize);
        offer(
            &mut best,
            full,
            r,
            x,
            spun_rows(shapes, r, x, rows, reached),
        );
    }
    best
}

/// The centre rows of `rows` (a T in orientation `r` at column `x`) that a turn from a
/// position `source` accepts enters with a full spin ([`turns_in`]).
#[inline]
fn spun_rows(
    shapes: &Shapes<'_>,
    r: usize,
    x: usize,
    mut rows: u64,
    source: impl Fn(usize, i32, i32) -> bool + Copy,
) -> u64 {
    let mut spun = 0u64;
    while rows != 0 {
        let y = rows.trailing_zeros();
        rows &= rows - 1;
        if turns_in(shapes, (r, x, y), source) {
            spun |= 1 << y;
        }
    }
    spun
}

/// The sum of height differences between neighbouring columns, and of their squares, with
/// column `skip` left out (its neighbours compared across it): every neighbour pair (a loop the
/// compiler vectorizes), then the skipped column's two pairs swapped for the pair across it.
#[inline(always)]
fn bumpiness(heights: &[i32; WIDTH], skip: usize) -> (i32, i32) {
    let (mut bump, mut bump_sq) = (0i32, 0i32);
    for x in 0..WIDTH - 1 {
        let d = (heights[x + 1] - heights[x]).abs();
        bump += d;
        bump_sq += d * d;
    }
    let pair = |a: usize, b: usize| {
        let d = (heights[a] - heights[b]).abs();
        (d, d * d)
    };
    if skip > 0 {
        let (d, d2) = pair(skip - 1, skip);
        bump -= d;
        bump_sq -= d2;
    }
    if skip + 1 < WIDTH {
        let (d, d2) = pair(skip, skip + 1);
        bump -= d;
        bump_sq -= d2;
    }
    if skip > 0 && skip + 1 < WIDTH {
        let (d, d2) = pair(skip - 1, skip + 1);
        bump += d;
        bump_sq += d2;
    }
    (bump, bump_sq)
}

/// Covered empty cells that the sky reaches sideways: a flood of empty cells from every
/// column's open top, through left, right and down moves. `holes[x]` is column `x`'s covered
/// empty cells (below its height), and bit `x` of `with` is set when it has any.
///
/// Only covered cells can be new: a move down from a column's open top meets its top filled
/// cell, so the flood enters the covered cells sideways from a neighbour's open top, then
/// spreads through covered cells alone.
fn cavities(heights: &[i32; WIDTH], holes: &[u64; WIDTH], with: u32) -> i32 {
    // Fill each run of `empty` below a cell of `seed`.
    #[inline(always)]
    fn down(mut seed: u64, empty: u64) -> u64 {
        loop {
            let next = seed | ((seed >> 1) & empty);
            if next == seed {
                return seed;
            }
            seed = next;
        }
    }
    debug_assert!((0..WIDTH).all(|x| (holes[x] != 0) == (with >> x & 1 != 0)));
    // Each column's neighbours with covered cells.
    let beside = |x: usize| ((1u32 << (x + 1)) | (1u32 << x >> 1)) & with;
    // reach[x + 1] is column x's; the walls' stay empty.
    let mut reach = [0u64; WIDTH + 2];
    let sky = |x: usize| !((1u64 << heights[x]) - 1);
    let mut dirty = 0u32;
    let mut count = 0i32;
    let mut cols = with;
    while cols != 0 {
        let x = cols.trailing_zeros() as usize;
        cols &= cols - 1;
        let left = if x > 0 { sky(x - 1) } else { 0 };
        let right = if x + 1 < WIDTH { sky(x + 1) } else { 0 };
        let r = down(holes[x] & (left | right), holes[x]);
        if r != 0 {
            reach[x + 1] = r;
            count += r.count_ones() as i32;
            dirty |= beside(x);
        }
    }
    // A worklist of the columns whose neighbours grew: the same closure as sweeping every
    // column until nothing changes, since the reach only grows.
    while dirty != 0 {
        let x = dirty.trailing_zeros() as usize;
        dirty &= dirty - 1;
        let r = down(
            reach[x + 1] | ((reach[x] | reach[x + 2]) & holes[x]),
            holes[x],
        );
        if r != reach[x + 1] {
            // The reach only grows: count the cells it gained.
            count += (r & !reach[x + 1]).count_ones() as i32;
            reach[x + 1] = r;
            dirty |= beside(x);
        }
    }
    count
}

/// Rows with exactly one empty cell, below the roof.
fn ready_rows(board: &Board, full: &FullBut) -> i32 {
    let cols = board.columns();
    let roof = board.roof();
    let below = if roof == 0 { 0 } else { (1u64 << roof) - 1 };
    // Rows full in all columns but x, and empty at x: no row is that for two columns, so
    // the union counts each once.
    let mut ready = 0u64;
    for (x, &c) in cols.iter().enumerate() {
        ready |= full.at(x, x, 0) & !c;
    }
    (ready & below).count_ones() as i32
}

/// Finds T-spin double/single slots: a one-wide hole at the top of column x with both sides
/// filled at its bottom row, the row above open three wide, and an overhang on one side (so
/// the 3-corner rule gives a full spin). Returns (slots, lines of the best slot). Bitwise: row
/// fullness "except these columns" comes from prefix and suffix ANDs of the columns.
fn t_slots(board: &Board, heights: &[i32; WIDTH], full: &FullBut) -> (u8, u8) {
    let cols = board.columns();
    let mut count = 0u8;
    let mut best = 0u8;
    // The columns whose neighbours both stand above them (their bottom corners are filled),
    // one at least three rows (its overhang): a mask first, without a branch per column.
    let slot: [bool; WIDTH - 2] = std::array::from_fn(|i| {
        let (hl, h, hr) = (heights[i], heights[i + 1], heights[i + 2]);
        (hl > h) & (hr > h) & (hl.max(hr) >= h + 3)
    });
    let mut candidates = 0u32;
    for (i, &s) in slot.iter().enumerate() {
        candidates |= (s as u32) << (i + 1);
    }
    while candidates != 0 {
        let x = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let h = heights[x];
        let y = h as u32;
        let (l, r) = (cols[x - 1] >> y, cols[x + 1] >> y);
        // Both bottom corners filled, the three cells above open (the column's own is above its
        // height), one overhang.
        if l & r & 1 == 0 || (l | r) & 2 != 0 || (l | r) & 4 == 0 {
            continue;
        }
        count += 1;
        let bottom_full = full.at(x, x, 0) >> y & 1;
        let top_full = full.at(x - 1, x + 1, 0) >> (y + 1) & 1;
        best = best.max((bottom_full + top_full) as u8);
    }
    (count, best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every weight at its bound with one sign.
    fn weights_at_bounds(sign: i64) -> Weights {
        let serde_json::Value::Object(mut m) = serde_json::to_value(Weights::default()).unwrap()
        else {
            unreachable!("weights are an object")
        };
        for (name, v) in m.iter_mut() {
            let b = if Weights::SQUARED.contains(&name.as_str()) {
                MAX_SQUARED_WEIGHT
            } else {
                MAX_WEIGHT
            };
            let b = serde_json::json!(sign * i64::from(b));
            match v {
                serde_json::Value::Number(_) => *v = b,
                serde_json::Value::Array(a) => a.iter_mut().for_each(|x| *x = b.clone()),
                _ => {}
            }
        }
        let w: Weights = serde_json::from_value(serde_json::Value::Object(m)).unwrap();
        w.check().expect("at the bounds is within them");
        w
    }

    /// Weights at their bounds, with either sign, on boards that push each feature to its
    /// largest, with the largest frame costs and outcomes: no 32-bit sum overflows (this
    /// test runs in debug builds, where an overflow panics), and the values keep a margin
    /// below `i32::MAX` for the beam's sums over 33 depths.
    #[test]
    fn weights_at_their_bounds_never_overflow() {
        let alternate = 0x0055_5555_5555_u64; // every other row of 40
        let boards = [
            Board::from_columns([1u64 << 39; WIDTH]), // 390 holes under a lid
            Board::from_columns([alternate; WIDTH]),
            Board::from_columns(std::array::from_fn(|x| {
                if x % 2 == 0 { (1u64 << 40) - 1 } else { 0 }
            })),
            Board::from_columns(std::array::from_fn(|x| {
                if x % 2 == 0 {
                    alternate
                } else {
                    alternate << 1
                }
            })),
            Board::from_columns(std::array::from_fn(|x| {
                if x == 4 { 0 } else { (1u64 << 40) - 1 }
            })),
        ];
        let outcome = |lines, spin, pc| Outcome {
            lines,
            spin,
            attack: u32::MAX,
            perfect_clear: pc,
            b2b_bonus: true,
            carried: game::Carried {
                b2b: true,
                combo: u32::MAX,
            },
        };
        for sign in [1, -1] {
            let e = DefaultEvaluator::new(weights_at_bounds(sign));
            for b in &boards {
                let p = e.position(b, Some(Piece::T));
                assert!(p.value.unsigned_abs() < 1 << 28, "{} on\n{b}", p.value);
                for o in [
                    outcome(4, Spin::None, true),
                    outcome(3, Spin::Full, false),
                    outcome(2, Spin::Mini, false),
                ] {
                    let s = e.context(
                        &p,
                        &StepContext {
                            piece: Piece::T,
                            outcome: &o,
                            b2b_before: true,
                            depth: 0,
                            pending: &[Piece::T],
                            hold: Some(Piece::T),
                            pieces_placed: u64::MAX,
                            input_frames: 40 * crate::MAX_FRAME_COST,
                            clear_frames: crate::MAX_FRAME_COST,
                            incoming: u32::MAX,
                        },
                    );
                    assert!(s.reward.unsigned_abs() < 1 << 28, "{}", s.reward);
                    assert!(s.leaf.unsigned_abs() < 1 << 28, "{}", s.leaf);
                }
            }
        }
    }

    fn eval(text: &str) -> PositionEval {
        let b: Board = text.parse().unwrap();
        DefaultEvaluator::default().position(&b, None)
    }

    #[test]
    fn finds_a_tsd_slot() {
        let e = eval(
            "
            ###.......
            ##...#####
            ###.######
        ",
        );
        assert_eq!((e.t_slots, e.t_slot_lines), (1, 2));
    }

    #[test]
    fn ignores_pending_says_which_new_pieces_the_context_reads() {
        // A board with a T-spin double slot: its context reads whether a T is to come.
        let board: Board = "
            ###.......
            ##...#####
            ###.######
        "
        .parse()
        .unwrap();
        let e = DefaultEvaluator::default();
        let o = Outcome::default();
        let mut read = 0;
        for hold in [None, Some(Piece::I), Some(Piece::T)] {
            let p = e.position(&board, hold);
            assert!(p.t_slot_lines > 0);
            for base in [&[][..], &[Piece::S, Piece::Z][..], &[Piece::T][..]] {
                let score = |pending: &[Piece]| {
                    e.context(
                        &p,
                        &StepContext {
                            piece: Piece::L,
                            outcome: &o,
                            b2b_before: false,
                            depth: 1,
                            pending,
                            hold,
                            pieces_placed: 10,
                            input_frames: 8,
                            clear_frames: 0,
                            incoming: 0,
                        },
                    )
                };
                for new in Piece::ALL {
                    let longer: Vec<Piece> = base.iter().copied().chain([new]).collect();
                    if e.ignores_pending(new) {
                        assert_eq!(score(base), score(&longer), "{new:?} after {base:?}");
                    } else if score(base) != score(&longer) {
                        read += 1;
                    }
                }
            }
        }
        // A T to come is read where neither the hold nor the earlier pieces have one: with
        // nothing or an I held, after no pieces or after S and Z.
        assert_eq!(read, 4);
    }

    #[test]
    fn holes_are_worse_than_none() {
        let clean = eval("#.........\n#.........");
        let holey = eval("#.........\n..........");
        assert_eq!((clean.holes, holey.holes), (0, 1));
        assert!(holey.value < clean.value);
    }

    #[test]
    fn a_reachable_tsd_is_ready_and_a_roofed_one_is_not() {
        let open: Board = "
            ###.......
            ##...#####
            ###.######
        "
        .parse()
        .unwrap();
        assert_eq!(
            best_tspin(&open, &FullBut::new(open.columns())).map(|(l, _)| l),
            Some(2)
        );
        // The plain route proves it without move generation: the T drops east or west into
        // the gap and turns south into the slot.
        let full = FullBut::new(open.columns());
        let shapes = Shapes::new(&open, &full).unwrap();
        let (lines, pos) = tspin_candidate(&shapes, &full).unwrap();
        assert_eq!((lines, pos), (2, (2, 3, 1)));
        assert!(drops_and_turns_in(&shapes, pos));
        // The same slot under a full-width roof two rows up: no T can get in.
        let roofed: Board = "
            #########.
            ..........
            ###.......
            ##...#####
            ###.######
        "
        .parse()
        .unwrap();
        assert_eq!(
            best_tspin(&roofed, &FullBut::new(roofed.columns())).map(|(l, _)| l),
            None
        );
    }

    /// Every T position that rests with three corners filled, in (orientation, column, row)
    /// order, by the board's own `fits`.
    fn three_corner_rests(board: &Board) -> Vec<TPos> {
        let mut out = Vec::new();
        for r in 0..4 {
            let rot = board::Rotation::ALL[r];
            for x in 0..WIDTH {
                for y in 0..HEIGHT as u32 {
                    let (cx, cy) = (x as i32, y as i32);
                    if !board.fits(Piece::T, rot, cx, cy) || board.fits(Piece::T, rot, cx, cy - 1) {
                        continue;
                    }
                    let corners = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
                        .iter()
                        .filter(|&&(dx, dy)| board.occupied(cx + dx, cy + dy))
                        .count();
                    if corners >= 3 {
                        out.push((r, x, y));
                    }
                }
            }
        }
        out
    }

    /// Ragged boards with holes and ledges, the kind T-spin setups are made of.
    fn ragged() -> impl proptest::strategy::Strategy<Value = Board> {
        use proptest::prelude::*;
        (
            proptest::collection::vec(0u32..=12, WIDTH),
            proptest::collection::vec((0..WIDTH, 0u32..12), 0..6),
            proptest::collection::vec((0..WIDTH, 0u32..14, 1usize..4), 0..4),
        )
            .prop_map(|(heights, holes, ledges)| {
                let mut cols = [0u64; WIDTH];
                for (x, &h) in heights.iter().enumerate() {
                    cols[x] = (1u64 << h) - 1;
                }
                for (x, y) in holes {
                    cols[x] &= !(1u64 << y);
                }
                for (x, y, len) in ledges {
                    for c in cols.iter_mut().skip(x).take(len) {
                        *c |= 1 << y;
                    }
                }
                // Clear the full rows, as a game would have.
                let mut b = Board::from_columns(cols);
                b.clear_lines();
                b
            })
    }

    /// Boards built around a T-slot: the rows a T at a random position would fill are full
    /// but for its cells, three of its corners filled, rows of garbage below, random cells
    /// above (overhangs, roofs that seal the slot or force a detour), lifted to any height up
    /// to the ceiling.
    /// About half offer a full T-spin double or triple, and many only by a route other than a
    /// straight drop and a turn.
    fn slotted() -> impl proptest::strategy::Strategy<Value = Board> {
        use proptest::prelude::*;
        (
            (0usize..4, 1usize..WIDTH - 1, 0i32..6, 0usize..5),
            proptest::collection::vec((0..WIDTH, 0i32..7), 0..6),
            0i32..30,
        )
            .prop_map(|((r, x, y0, open_corner), above, lift)| {
                let rot = board::Rotation::ALL[r];
                let y = y0 + 1;
                let cells: Vec<(i32, i32)> = Piece::T
                    .cells(rot)
                    .iter()
                    .map(|&(dx, dy)| (x as i32 + dx as i32, y + dy as i32))
                    .collect();
                let mut cols = [0u64; WIDTH];
                let top = cells.iter().map(|c| c.1).max().unwrap_or(0);
                for row in 0..=top {
                    let in_t = cells.iter().any(|c| c.1 == row);
                    for (cx, col) in cols.iter_mut().enumerate() {
                        let hole = if in_t {
                            cells.contains(&(cx as i32, row))
                        } else {
                            cx == (row as usize * 7 + 3) % WIDTH
                        };
                        if !hole {
                            *col |= 1 << row;
                        }
                    }
                }
                for (cx, dy) in above {
                    cols[cx] |= 1 << (top + 1 + dy);
                }
                // Three corners filled (or all four), one left open for the way in.
                let corners = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
                for (i, (dx, dy)) in corners.into_iter().enumerate() {
                    let (cx, cy) = (x as i32 + dx, y + dy);
                    if i != open_corner && cy >= 0 {
                        cols[cx as usize] |= 1 << cy;
                    }
                }
                let limit = (1u64 << HEIGHT) - 1;
                let cols = cols.map(|c| {
                    let lifted = (c << lift) | ((1u64 << lift) - 1);
                    lifted & limit
                });
                let mut cols = cols;
                for row in 0..lift {
                    cols[(row as usize * 3 + 1) % WIDTH] &= !(1u64 << row);
                }
                let mut b = Board::from_columns(cols);
                b.clear_lines();
                b
            })
    }

    /// [`best_tspin`] by move generation alone: every full T-spin, from the spin-tracking
    /// flood's masks.
    fn generated_best_tspin(board: &Board, full: &FullBut) -> Option<(u32, TPos)> {
        let rows = board::full_tspin_rows(board, board::Rules::Srs);
        let mut best: Option<(u32, TPos)> = None;
        for (r, by_x) in rows.iter().enumerate() {
            for (x, &m) in by_x.iter().enumerate() {
                if m != 0 {
                    offer(&mut best, full, r, x, m);
                }
            }
        }
        best
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// The plain route never claims a full T-spin move generation does not find, and the
        /// shortcut (a drop and a turn, else the reach of a T) answers exactly what move
        /// generation alone would, on ragged boards and on boards built around a slot.
        #[test]
        fn the_t_spin_shortcut_agrees_with_move_generation(
            board in proptest::prop_oneof![ragged(), slotted()],
        ) {
            let full = FullBut::new(board.columns());
            let generated = board::full_tspin_rows(&board, board::Rules::Srs);
            let shapes = Shapes::new(&board, &full);
            let candidate = shapes.as_ref().and_then(|s| tspin_candidate(s, &full));
            if let (Some(shapes), Some(_)) = (&shapes, candidate) {
                for (r, x, y) in three_corner_rests(&board) {
                    if drops_and_turns_in(shapes, (r, x, y)) {
                        proptest::prop_assert!(
                            generated[r][x] >> y & 1 != 0,
                            "claimed {:?} on\n{}", (r, x, y), board
                        );
                    }
                }
            } else {
                // No candidate: no full T-spin clears enough lines.
                proptest::prop_assert_eq!(generated_best_tspin(&board, &full), None);
            }
            let fast = best_tspin(&board, &full).map(|(l, b)| (l, b.hash64()));
            let slow = generated_best_tspin(&board, &full).map(|(l, (r, x, y))| {
                let (after, _) = board.placed(Piece::T, board::Rotation::ALL[r], x as i32, y as i32);
                (l, after.hash64())
            });
            proptest::prop_assert_eq!(fast, slow, "on\n{}", board);
        }
    }

    /// [`cavities`] the plain way: the whole flood from the sky over every empty cell.
    fn cavities_by_flood(board: &Board, heights: &[i32; WIDTH]) -> i32 {
        let cols = board.columns();
        let rows = (1u64 << HEIGHT) - 1;
        let empty: [u64; WIDTH] = std::array::from_fn(|x| !cols[x] & rows);
        // Open sky: at and above each column's height.
        let mut reach: [u64; WIDTH] = std::array::from_fn(|x| rows & !((1u64 << heights[x]) - 1));
        loop {
            let mut changed = false;
            for x in 0..WIDTH {
                let mut r = reach[x];
                if x > 0 {
                    r |= reach[x - 1] & empty[x];
                }
                if x + 1 < WIDTH {
                    r |= reach[x + 1] & empty[x];
                }
                // Down through empty cells: fill each run below a reached cell.
                let mut down = r;
                loop {
                    let next = down | ((down >> 1) & empty[x]);
                    if next == down {
                        break;
                    }
                    down = next;
                }
                if down != reach[x] {
                    reach[x] = down;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        (0..WIDTH)
            .map(|x| (reach[x] & ((1u64 << heights[x]) - 1)).count_ones() as i32)
            .sum()
    }

    fn hole_cells(b: &Board) -> [u64; WIDTH] {
        std::array::from_fn(|x| !b.columns()[x] & ((1u64 << b.column_height(x)) - 1))
    }

    /// [`cavities`] with the mask of columns that have holes made from `holes`.
    fn cavities_of(heights: &[i32; WIDTH], holes: &[u64; WIDTH]) -> i32 {
        let with = (0..WIDTH).fold(0, |m, x| m | ((holes[x] != 0) as u32) << x);
        cavities(heights, holes, with)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// The flood over covered cells alone counts what the whole flood from the sky does.
        #[test]
        fn cavities_agree_with_the_whole_flood(board in ragged()) {
            let heights: [i32; WIDTH] = std::array::from_fn(|x| board.column_height(x) as i32);
            proptest::prop_assert_eq!(
                cavities_of(&heights, &hole_cells(&board)),
                cavities_by_flood(&board, &heights),
                "on\n{}", board
            );
        }
    }

    /// Any held piece, or none.
    fn hold() -> impl proptest::strategy::Strategy<Value = Option<Piece>> {
        proptest::option::of(proptest::sample::select(Piece::ALL.to_vec()))
    }

    proptest::proptest! {
        /// Turning an evaluation to another held piece gives what evaluating the board with
        /// that piece in hold gives, with the default weights and with a large hold term.
        #[test]
        fn with_hold_is_the_evaluation_with_that_hold(
            board in ragged(),
            before in hold(),
            after in hold(),
            term in -MAX_WEIGHT..=MAX_WEIGHT,
        ) {
            for weights in [Weights::default(), Weights { hold_t_or_i: term, ..Weights::default() }] {
                let e = DefaultEvaluator::new(weights);
                let turned = e.with_hold(&e.position(&board, before), before, after);
                proptest::prop_assert_eq!(turned, Some(e.position(&board, after)), "on\n{}", board);
            }
        }
    }

    proptest::proptest! {
        /// Bumpiness by swapping the skipped column's pairs equals the plain walk that skips it.
        #[test]
        fn bumpiness_skips_one_column(
            heights in proptest::array::uniform10(0i32..=40),
            skip in 0..WIDTH,
        ) {
            let (mut bump, mut bump_sq, mut prev) = (0, 0, None);
            for (x, &h) in heights.iter().enumerate() {
                if x == skip {
                    continue;
                }
                if let Some(p) = prev {
                    let d: i32 = h - p;
                    bump += d.abs();
                    bump_sq += d * d;
                }
                prev = Some(h);
            }
            proptest::prop_assert_eq!(bumpiness(&heights, skip), (bump, bump_sq));
        }
    }

    #[test]
    fn cavities_are_covered_cells_the_sky_reaches() {
        // Column 1 row 0 is covered, but open to the right along row 0: a cavity. Column 8
        // row 0 is sealed on every side: a hole, not a cavity.
        let b: Board = "
            ##......##
            #......#.#
        "
        .parse()
        .unwrap();
        let heights: [i32; WIDTH] = std::array::from_fn(|x| b.column_height(x) as i32);
        assert_eq!(cavities_of(&heights, &hole_cells(&b)), 1);
        assert_eq!(cavities_by_flood(&b, &heights), 1);
        let e = eval("##......##\n#......#.#");
        assert_eq!(e.holes, 2);
    }

    #[test]
    fn ready_rows_have_one_empty_cell() {
        let b: Board = "
            ....######
            #########.
            ####.#####
        "
        .parse()
        .unwrap();
        assert_eq!(ready_rows(&b, &FullBut::new(b.columns())), 2);
    }

    #[test]
    fn weights_load_from_json_with_defaults_for_missing_fields() {
        let w: Weights = serde_json::from_str(r#"{"holes": -1}"#).unwrap();
        assert_eq!(w.holes, -1);
        assert_eq!(w.height, Weights::default().height);
        assert!(serde_json::from_str::<Weights>(r#"{"nope": 1}"#).is_err());
    }
}
