//! What moves cost in frames: the one table of input costs and line-clear delays, used by the
//! versus arena to charge a move, by the search to weigh one, and by move generation's
//! cheapest-input search.

use crate::state::Outcome;
use board::{Board, Input, Placement, Rules};
use serde::{Deserialize, Serialize};

/// The largest frame count a setting may give one input or delay: ten seconds at 60 frames a
/// second. It keeps frame sums and the search's time terms within 32 bits.
pub const MAX_FRAME_COST: u32 = 600;

/// Frames per input and per line-clear delay. The default is the ppt arena's (see
/// `docs/versus.md`): 2 frames a shift, turn or soft-dropped row, 4 a 180-degree turn, a free
/// hard drop, and line-clear delays of 36 to 46 frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FrameCosts {
    /// A shift left or right.
    pub shift: u32,
    /// A quarter turn.
    pub rotate: u32,
    /// A 180-degree turn (rules that have it).
    pub rotate_180: u32,
    /// A soft-dropped row.
    pub soft_drop_row: u32,
    /// A hard drop.
    pub hard_drop: u32,
    /// The line-clear delay after a lock that clears 0..=4 lines.
    pub line_clear: [u32; 5],
    /// The line-clear delay of a perfect clear (replacing the one by lines).
    pub perfect_clear: u32,
}

impl Default for FrameCosts {
    fn default() -> Self {
        FrameCosts {
            shift: 2,
            rotate: 2,
            rotate_180: 4,
            soft_drop_row: 2,
            hard_drop: 0,
            line_clear: [0, 36, 41, 41, 46],
            perfect_clear: 1,
        }
    }
}

impl FrameCosts {
    /// A game without a clock (solo self-play): no move costs time, so a search's time terms
    /// are zero and it weighs attack alone.
    pub const NONE: FrameCosts = FrameCosts {
        shift: 0,
        rotate: 0,
        rotate_180: 0,
        soft_drop_row: 0,
        hard_drop: 0,
        line_clear: [0; 5],
        perfect_clear: 0,
    };

    /// Checks that every cost is at most [`MAX_FRAME_COST`]; the error names the field, under
    /// `prefix` (for example `frame_costs.`).
    pub fn check(&self, prefix: &str) -> Result<(), String> {
        let one = |name: &str, v: u32| {
            if v > MAX_FRAME_COST {
                Err(format!(
                    "{prefix}{name} must be in 0..={MAX_FRAME_COST}, not {v}"
                ))
            } else {
                Ok(())
            }
        };
        one("shift", self.shift)?;
        one("rotate", self.rotate)?;
        one("rotate_180", self.rotate_180)?;
        one("soft_drop_row", self.soft_drop_row)?;
        one("hard_drop", self.hard_drop)?;
        for (i, &c) in self.line_clear.iter().enumerate() {
            one(&format!("line_clear[{i}]"), c)?;
        }
        one("perfect_clear", self.perfect_clear)
    }

    /// The cost of one input.
    pub const fn input(&self, input: Input) -> u32 {
        match input {
            Input::Left | Input::Right => self.shift,
            Input::Cw | Input::Ccw => self.rotate,
            Input::Half => self.rotate_180,
            Input::SoftDrop => self.soft_drop_row,
            Input::HardDrop => self.hard_drop,
        }
    }

    /// The frames of the cheapest input sequence to `p` on `board` (with its spin), as an
    /// arena charges a move. `None` when the placement is unreachable.
    pub fn input_frames(&self, board: &Board, p: &Placement, rules: Rules) -> Option<u32> {
        p.cheapest_inputs(board, rules, |i| self.input(i))
            .map(|(frames, _)| frames)
    }

    /// A cheap estimate of [`FrameCosts::input_frames`], for a search that weighs every
    /// candidate: a turn or two, a shift per column from spawn, and, when the piece cannot come
    /// straight down into place (a tuck, or any spin), a soft-dropped row for every row below
    /// the spawn row.
    #[inline]
    pub fn estimated_input_frames(&self, board: &Board, p: &Placement, rules: Rules) -> u32 {
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
    pub fn clear_frames(&self, o: &Outcome) -> u32 {
        if o.perfect_clear {
            self.perfect_clear
        } else {
            self.line_clear[o.lines.min(4) as usize]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{Piece, Spin};

    /// A board with one filled cell beside the left wall: a T's spins there fill cells that a
    /// plain T also reaches by a straight drop.
    fn wall_slot() -> Board {
        let mut board = Board::default();
        board.set(1, 0);
        board
    }

    /// The arena charges the soft drop that a spin's turn in place needs, so the estimate does.
    #[test]
    fn a_spin_that_could_drop_straight_is_estimated_with_its_soft_drop() {
        let board = wall_slot();
        let costs = FrameCosts::default();
        let spins: Vec<Placement> = board::generate(&board, Piece::T, Rules::Srs)
            .into_iter()
            .filter(|p| {
                p.spin != Spin::None
                    && Placement {
                        spin: Spin::None,
                        ..*p
                    }
                    .drops_straight(&board)
            })
            .collect();
        assert!(
            !spins.is_empty(),
            "the board must offer a spin in cells a plain drop reaches"
        );
        for p in &spins {
            let exact = costs
                .input_frames(&board, p, Rules::Srs)
                .expect("generated, so reachable");
            let estimate = costs.estimated_input_frames(&board, p, Rules::Srs);
            assert!(
                exact.abs_diff(estimate) <= 2 * costs.rotate + costs.shift,
                "{p:?}: estimated {estimate} frames, the arena charges {exact}"
            );
        }
    }

    /// On the same board, a placement without a spin that comes straight down costs no soft
    /// drop, exactly as the arena charges it.
    #[test]
    fn a_plain_placement_that_drops_straight_has_no_soft_drop() {
        let board = wall_slot();
        let costs = FrameCosts::default();
        let plain: Vec<Placement> = board::generate(&board, Piece::T, Rules::Srs)
            .into_iter()
            .filter(|p| p.drops_straight(&board))
            .collect();
        assert!(
            !plain.is_empty(),
            "the board must offer a plain placement that drops straight"
        );
        for p in &plain {
            assert_eq!(p.spin, Spin::None);
            let exact = costs
                .input_frames(&board, p, Rules::Srs)
                .expect("reachable");
            assert_eq!(
                costs.estimated_input_frames(&board, p, Rules::Srs),
                exact,
                "{p:?}"
            );
        }
    }
}
