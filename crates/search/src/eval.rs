//! Evaluation in two stages: the cached position evaluation and the cheap context score.

use board::{Board, HEIGHT, Piece, Spin, WIDTH};
use bytemuck::Zeroable;
use game::Outcome;
use serde::{Deserialize, Serialize};

/// The cached result of a position evaluation: a value and auxiliary scores. 8 bytes, so a
/// table bucket of two is 32 bytes of keys and values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Zeroable)]
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
pub trait Evaluator {
    /// Evaluates a position from its key alone: the board and the held piece.
    fn position(&self, board: &Board, hold: Option<Piece>) -> PositionEval;
    /// Scores the placement that led to a position, given its cached evaluation.
    fn context(&self, eval: &PositionEval, step: &StepContext<'_>) -> StepScore;
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
    /// By the lines of the best full T-spin a T could make on the board now (0..=3), checked
    /// by move generation (so the slot is reachable), when the shape detector sees a slot.
    pub tspin_ready: [i32; 4],
    /// Per row with exactly one empty cell (a line one piece away from clearing).
    pub ready_rows: i32,
    /// Per frame a move takes (its inputs and its line-clear delay): negative to prefer fast
    /// play, trading time for value (attack per minute for attack per piece).
    pub frames: i32,
    /// Per frame of line-clear delay only, on top of `frames` (clears cost 36 to 46 frames
    /// whatever their size, so this prefers fewer, bigger clears).
    pub clear_frames: i32,
    /// Per row the stack would stand above row 10 once the known incoming garbage lands
    /// (a survival check that only a player who sees its garbage can make).
    pub incoming_height: i32,
}

impl Default for Weights {
    fn default() -> Self {
        // Tuned by SPSA in the arena (docs/tuning/README.md has the command, the log and the
        // plot), then accepted by an SPRT against the hand-set weights (H1 after 256 games,
        // +74 Elo): tetris-tt versus --a docs/arena/ponder.json
        // --b docs/arena/hand_weights_frames1_ponder.json --sprt 0,20 --preset ppt-surge.
        Weights {
            holes: -163,
            holes_sq: -2,
            covered_cells: -24,
            row_transitions: -18,
            bumpiness: -20,
            bumpiness_sq: -6,
            height: -31,
            danger_10: -153,
            danger_15: -500,
            well_depth: 55,
            well_column: [20, 23, 20, 50, 59, 21, 59, 10, -10, 24],
            t_slot: [0, 136, 222, 375],
            t_slot_with_t: 91,
            b2b_standing: 44,
            hold_t_or_i: 20,
            clear: [0, -132, -99, -66, 459],
            mini_tspin: [0, -160, -83],
            tspin: [0, 132, 383, 574],
            perfect_clear: 986,
            b2b_clear: 112,
            combo_attack: 158,
            attack: 0,
            wasted_t: -152,
            cavities: -12,
            tspin_ready: [0; 4],
            ready_rows: 11,
            // The time terms were first measured alone: frames -1 against 0 (both pondering),
            // SPRT [0, 20], H1 after 132 games, +114.5 +- 62.2 Elo; the tuner moved them on.
            frames: -2,
            clear_frames: -1,
            incoming_height: 0,
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
}

impl Evaluator for DefaultEvaluator {
    fn position(&self, board: &Board, hold: Option<Piece>) -> PositionEval {
        let w = &self.weights;
        let cols = board.columns();
        // One pass over the columns: heights, holes, covered cells, tallest and lowest column.
        let mut heights = [0i32; WIDTH];
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
            let empty = !c & ((1u64 << h) - 1);
            if empty != 0 {
                holes += empty.count_ones() as i32;
                covered += ((c >> empty.trailing_zeros()).count_ones() as i32).min(6);
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
        let (mut bump, mut bump_sq, mut prev) = (0i32, 0i32, -1i32);
        for (x, &h) in heights.iter().enumerate() {
            if x == well_x {
                continue;
            }
            if prev >= 0 {
                let d = (h - prev).abs();
                bump += d;
                bump_sq += d * d;
            }
            prev = h;
        }
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
        let (t_slots, t_slot_lines) = t_slots(board, &heights);
        v += w.t_slot[t_slot_lines as usize];
        if t_slots > 0 && w.tspin_ready != [0; 4] {
            v += w.tspin_ready[tspin_ready(board) as usize];
        }
        if holes > 0 && w.cavities != 0 {
            v += w.cavities * cavities(board, &heights);
        }
        if w.ready_rows != 0 {
            v += w.ready_rows * ready_rows(board);
        }

        if matches!(hold, Some(Piece::T) | Some(Piece::I)) {
            v += w.hold_t_or_i;
        }

        PositionEval {
            value: v,
            t_slot_lines,
            t_slots,
            holes: holes.min(255) as u8,
            max_height: max_height as u8,
        }
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
        if step.incoming > 0 {
            // What the known garbage leaves after this move's attack cancels some of it.
            let incoming = step.incoming.saturating_sub(o.attack) as i32;
            reward += w.incoming_height * (eval.max_height as i32 + incoming - 10).max(0);
        }

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

/// The lines of the best full T-spin a T can make on `board` now (0 when none), by exact move
/// generation under guideline SRS.
fn tspin_ready(board: &Board) -> u32 {
    board::generate(board, Piece::T, board::Rules::Srs)
        .iter()
        .filter(|p| p.spin == Spin::Full)
        .map(|p| p.lines(board).count_ones())
        .max()
        .unwrap_or(0)
        .min(3)
}

/// Covered empty cells that the sky reaches sideways: a flood of empty cells from every
/// column's open top, through left, right and down moves.
fn cavities(board: &Board, heights: &[i32; WIDTH]) -> i32 {
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

/// Rows with exactly one empty cell, below the roof.
fn ready_rows(board: &Board) -> i32 {
    let cols = board.columns();
    let roof = board.roof();
    let below = if roof == 0 { 0 } else { (1u64 << roof) - 1 };
    // Rows full in all columns but x, and empty at x.
    let mut pre = [!0u64; WIDTH + 1];
    let mut suf = [!0u64; WIDTH + 1];
    for x in 0..WIDTH {
        pre[x + 1] = pre[x] & cols[x];
    }
    for x in (0..WIDTH).rev() {
        suf[x] = suf[x + 1] & cols[x];
    }
    (0..WIDTH)
        .map(|x| (pre[x] & suf[x + 1] & !cols[x] & below).count_ones() as i32)
        .sum()
}

/// Finds T-spin double/single slots: a one-wide hole at the top of column x with both sides
/// filled at its bottom row, the row above open three wide, and an overhang on one side (so
/// the 3-corner rule gives a full spin). Returns (slots, lines of the best slot). Bitwise: row
/// fullness "except these columns" comes from prefix and suffix ANDs of the columns.
fn t_slots(board: &Board, heights: &[i32; WIDTH]) -> (u8, u8) {
    let cols = board.columns();
    // pre[i] = rows full in columns 0..i; suf[i] = rows full in columns i..WIDTH.
    let mut pre = [!0u64; WIDTH + 1];
    let mut suf = [!0u64; WIDTH + 2];
    for x in 0..WIDTH {
        pre[x + 1] = pre[x] & cols[x];
    }
    for x in (0..WIDTH).rev() {
        suf[x] = suf[x + 1] & cols[x];
    }
    let mut count = 0u8;
    let mut best = 0u8;
    for x in 1..WIDTH - 1 {
        let y = heights[x] as u32;
        if y + 2 >= HEIGHT as u32 {
            continue;
        }
        let (l, r) = (cols[x - 1] >> y, cols[x + 1] >> y);
        // Both bottom corners filled, the three cells above open, one overhang.
        if l & r & 1 == 0 || (l | r | (cols[x] >> y)) & 2 != 0 || (l | r) & 4 == 0 {
            continue;
        }
        count += 1;
        let bottom_full = (pre[x] & suf[x + 1]) >> y & 1;
        let top_full = (pre[x - 1] & suf[x + 2]) >> (y + 1) & 1;
        best = best.max((bottom_full + top_full) as u8);
    }
    (count, best)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(tspin_ready(&open), 2);
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
        assert_eq!(tspin_ready(&roofed), 0);
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
        assert_eq!(cavities(&b, &heights), 1);
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
        assert_eq!(ready_rows(&b), 2);
    }

    #[test]
    fn weights_load_from_json_with_defaults_for_missing_fields() {
        let w: Weights = serde_json::from_str(r#"{"holes": -1}"#).unwrap();
        assert_eq!(w.holes, -1);
        assert_eq!(w.height, Weights::default().height);
        assert!(serde_json::from_str::<Weights>(r#"{"nope": 1}"#).is_err());
    }
}
