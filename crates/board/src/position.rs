//! One falling piece and the plain, one-input-at-a-time rules: spawn, shift, turn with kicks,
//! soft and hard drop, the 3-corner rule. Slow and obvious on purpose: move generation is the
//! fast path, and this is what input sequences are found and replayed with.

use crate::board::{Board, HEIGHT, WIDTH};
use crate::piece::{Piece, Rotation, Rules, Spin, Turn, kicks};
use std::collections::VecDeque;
use std::fmt;

/// Spawn centre x.
pub const SPAWN_X: i8 = 4;
/// Spawn centre y; one row higher is tried when this collides.
pub const SPAWN_Y: i8 = 19;
/// A placement whose every cell is at or above this row locks out (ends the game).
pub const LOCK_OUT_ROW: i8 = 20;
/// The highest roof of an open board: with rows 17 and up free, a piece at spawn height turns
/// and shifts freely to every column, so any position it can drop straight down to is
/// reachable. Move generation's shortcuts and the evaluator's T-spin proof rely on it.
pub const OPEN_ROOF: u32 = 17;

/// A piece in a given orientation with its rotation centre at `(x, y)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PiecePos {
    /// The piece.
    pub piece: Piece,
    /// Its orientation.
    pub rotation: Rotation,
    /// Centre x.
    pub x: i8,
    /// Centre y.
    pub y: i8,
}

/// One input of a player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Input {
    /// Shift one column left.
    Left,
    /// Shift one column right.
    Right,
    /// Turn clockwise.
    Cw,
    /// Turn counter-clockwise.
    Ccw,
    /// Turn 180 degrees (SRS+ only).
    Half,
    /// Move down one row.
    SoftDrop,
    /// Move down as far as possible.
    HardDrop,
}

impl Input {
    /// The name used in JSON output: `left`, `right`, `cw`, `ccw`, `180`, `soft_drop`,
    /// `hard_drop`.
    pub const fn name(self) -> &'static str {
        match self {
            Input::Left => "left",
            Input::Right => "right",
            Input::Cw => "cw",
            Input::Ccw => "ccw",
            Input::Half => "180",
            Input::SoftDrop => "soft_drop",
            Input::HardDrop => "hard_drop",
        }
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What an input did, for spin purposes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Moved {
    /// The input failed: nothing changed.
    No,
    /// The piece shifted or dropped.
    Slid,
    /// The piece turned using kick test `usize` (0-based).
    Turned(usize),
}

impl PiecePos {
    /// Where `piece` spawns on `board`: north at (4, 19), else (4, 20); `None` means the game is
    /// over.
    pub fn spawn(board: &Board, piece: Piece) -> Option<PiecePos> {
        [SPAWN_Y, SPAWN_Y + 1].into_iter().find_map(|y| {
            let p = PiecePos {
                piece,
                rotation: Rotation::North,
                x: SPAWN_X,
                y,
            };
            p.fits(board).then_some(p)
        })
    }

    /// The four board cells this piece covers.
    pub fn cells(&self) -> [(i8, i8); 4] {
        self.piece
            .cells(self.rotation)
            .map(|(dx, dy)| (self.x + dx, self.y + dy))
    }

    /// Whether it lies inside the board and overlaps nothing.
    pub fn fits(&self, board: &Board) -> bool {
        board.fits(self.piece, self.rotation, self.x as i32, self.y as i32)
    }

    /// Whether it cannot move down one row.
    pub fn is_resting(&self, board: &Board) -> bool {
        !PiecePos {
            y: self.y - 1,
            ..*self
        }
        .fits(board)
    }

    /// Applies one input. Returns the new position and what happened (`Moved::No` leaves the
    /// position unchanged).
    pub fn apply(&self, board: &Board, input: Input, rules: Rules) -> (PiecePos, Moved) {
        let slide = |dx: i8, dy: i8| {
            let p = PiecePos {
                x: self.x + dx,
                y: self.y + dy,
                ..*self
            };
            if p.fits(board) {
                (p, Moved::Slid)
            } else {
                (*self, Moved::No)
            }
        };
        match input {
            Input::Left => slide(-1, 0),
            Input::Right => slide(1, 0),
            Input::SoftDrop => slide(0, -1),
            Input::HardDrop => {
                let mut p = *self;
                while !p.is_resting(board) {
                    p.y -= 1;
                }
                (p, if p == *self { Moved::No } else { Moved::Slid })
            }
            Input::Cw => self.turn(board, Turn::Cw, rules),
            Input::Ccw => self.turn(board, Turn::Ccw, rules),
            Input::Half => self.turn(board, Turn::Half, rules),
        }
    }

    fn turn(&self, board: &Board, turn: Turn, rules: Rules) -> (PiecePos, Moved) {
        let to = turn.apply(self.rotation);
        for (i, &(kx, ky)) in kicks(self.piece, self.rotation, turn, rules)
            .tests()
            .iter()
            .enumerate()
        {
            let p = PiecePos {
                piece: self.piece,
                rotation: to,
                x: self.x + kx,
                y: self.y + ky,
            };
            if p.fits(board) {
                return (p, Moved::Turned(i));
            }
        }
        (*self, Moved::No)
    }

    /// The spin kind of locking here when the last successful input was `last`, by the 3-corner
    /// rule (walls and floor count as filled; full when both front corners are filled or the
    /// turn used the fifth kick test).
    pub fn spin(&self, board: &Board, last: Moved) -> Spin {
        let Moved::Turned(test) = last else {
            return Spin::None;
        };
        if self.piece != Piece::T {
            return Spin::None;
        }
        let (x, y) = (self.x as i32, self.y as i32);
        // Corners in clockwise order starting top-left: TL, TR, BR, BL.
        let corners =
            [(-1, 1), (1, 1), (1, -1), (-1, -1)].map(|(dx, dy)| board.occupied(x + dx, y + dy));
        if corners.iter().filter(|&&c| c).count() < 3 {
            return Spin::None;
        }
        // The T points north, east, south, west: its front corners are TL+TR, TR+BR, BR+BL,
        // BL+TL.
        let r = self.rotation as usize;
        let front = corners[r] && corners[(r + 1) & 3];
        if front || test == 4 {
            Spin::Full
        } else {
            Spin::Mini
        }
    }
}

/// Finds a cheapest input sequence from spawn, by `input_cost`, that leaves `piece` locked on
/// `board` covering exactly `target`'s cells with spin kind `spin`, and its total cost.
///
/// A hard drop locks the piece where it lands, so it can only end a sequence; a piece that
/// already rests may also lock where it is (a sequence that ends without a hard drop). So a
/// tuck under an overhang pays for every row it soft-drops. Dijkstra over (position, last
/// input kind, dropped) with a bucket queue (costs are small integers, zero allowed); `None`
/// when it is unreachable. Ties go to the input listed first (hard drop, then shifts, turns and
/// soft drop), so the answer is deterministic.
// One idea: one Dijkstra search, its state encoding, queue and path read-back together.
pub(crate) fn cheapest_inputs(
    board: &Board,
    target_cells: [(i8, i8); 4],
    piece: Piece,
    spin: Spin,
    rules: Rules,
    input_cost: impl Fn(Input) -> u32,
) -> Option<(u32, Vec<Input>)> {
    // State index: (((rot * WIDTH + x) * HEIGHT + y) * 3 + tag) * 2 + dropped, tag 0 =
    // slid/spawned, 1 = turned (tests 1-4 or 6), 2 = turned with the fifth test. Only the tag
    // of the last input matters for the spin; a dropped state is locked.
    const TAGS: usize = 3;
    let n = 4 * WIDTH * HEIGHT * TAGS * 2;
    let idx = |p: &PiecePos, tag: usize, dropped: bool| {
        (((p.rotation as usize * WIDTH + p.x as usize) * HEIGHT + p.y as usize) * TAGS + tag) * 2
            + dropped as usize
    };
    let tag_of = |m: Moved| match m {
        Moved::Turned(4) => 2,
        Moved::Turned(_) => 1,
        _ => 0,
    };
    let mut want = target_cells;
    want.sort_unstable();
    let start = PiecePos::spawn(board, piece)?;
    let mut parent: Vec<Option<(usize, Input)>> = vec![None; n];
    let mut best = vec![u32::MAX; n];
    let mut done = vec![false; n];
    // buckets[c] holds the states reached at cost c.
    let mut buckets: Vec<VecDeque<(PiecePos, usize, bool)>> = vec![VecDeque::new()];
    best[idx(&start, 0, false)] = 0;
    buckets[0].push_back((start, 0usize, false));
    let inputs: &[Input] = if rules.has_180() {
        &[
            Input::HardDrop,
            Input::Left,
            Input::Right,
            Input::Cw,
            Input::Ccw,
            Input::Half,
            Input::SoftDrop,
        ]
    } else {
        &[
            Input::HardDrop,
            Input::Left,
            Input::Right,
            Input::Cw,
            Input::Ccw,
            Input::SoftDrop,
        ]
    };
    let mut cost = 0;
    while cost < buckets.len() {
        let Some((p, tag, dropped)) = buckets[cost].pop_front() else {
            cost += 1;
            continue;
        };
        let here = idx(&p, tag, dropped);
        if done[here] || best[here] != cost as u32 {
            continue;
        }
        done[here] = true;
        if p.is_resting(board) {
            let mut cells = p.cells();
            cells.sort_unstable();
            let last = match tag {
                0 => Moved::Slid,
                1 => Moved::Turned(0),
                _ => Moved::Turned(4),
            };
            if cells == want && p.spin(board, last) == spin {
                let mut path = Vec::new();
                let mut at = here;
                while let Some((from, input)) = parent[at] {
                    path.push(input);
                    at = from;
                }
                path.reverse();
                return Some((cost as u32, path));
            }
        }
        if dropped {
            continue;
        }
        for &input in inputs {
            let (q, moved) = p.apply(board, input, rules);
            if moved == Moved::No {
                continue;
            }
            let dropped = input == Input::HardDrop;
            let j = idx(&q, tag_of(moved), dropped);
            let c = cost + input_cost(input) as usize;
            if !done[j] && (c as u32) < best[j] {
                best[j] = c as u32;
                parent[j] = Some((here, input));
                if buckets.len() <= c {
                    buckets.resize_with(c + 1, VecDeque::new);
                }
                buckets[c].push_back((q, tag_of(moved), dropped));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spawn_moves_up_then_gives_up() {
        let mut b = Board::new();
        assert_eq!(PiecePos::spawn(&b, Piece::T).unwrap().y, 19);
        b.set(4, 19);
        assert_eq!(PiecePos::spawn(&b, Piece::T).unwrap().y, 20);
        b.set(4, 20);
        assert_eq!(PiecePos::spawn(&b, Piece::T), None);
    }

    #[test]
    fn hard_drop_lands_on_floor() {
        let b = Board::new();
        let p = PiecePos::spawn(&b, Piece::I).unwrap();
        let (q, m) = p.apply(&b, Input::HardDrop, Rules::Srs);
        assert_eq!(m, Moved::Slid);
        assert_eq!(q.y, 0);
        assert_eq!(q.apply(&b, Input::HardDrop, Rules::Srs).1, Moved::No);
    }
}
