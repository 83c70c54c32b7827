//! Exact move generation as a bitwise flood.
//!
//! For each (orientation, centre column) the set of centre rows is one `u64`: `fits` holds the
//! rows where the piece overlaps nothing, `reach` the rows reachable from spawn. Soft drop is a
//! downward fill of `reach` inside `fits`; a shift ANDs a neighbour's reach with this column's
//! fits; a turn tries the kick tests in order on every row at once, each test taking the rows
//! that are still unplaced and fit. A worklist of (orientation, column) nodes propagates only
//! the rows that are new, so every reachable position is expanded exactly once. This is the
//! exact closure of shift, turn, soft drop and hard drop, mid-air included: tucks and spins
//! under overhangs are found, unlike generators that only seed from hard drops.

use crate::board::{Board, ROWS, WIDTH};
use crate::piece::{Piece, Rotation, Rules, Spin, Turn, kicks};
use crate::position::{Input, PiecePos, SPAWN_X, SPAWN_Y, find_inputs};

/// A place where a piece can lock, in the rules.md (TBP) frame.
///
/// Placements from [`generate`] are distinct by (cells, spin). Orientations of O, I, S and Z that
/// cover the same cells appear once, in the canonical orientation of [`Piece::canonical`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Placement {
    /// The piece.
    pub piece: Piece,
    /// Its orientation.
    pub rotation: Rotation,
    /// Centre x.
    pub x: i8,
    /// Centre y.
    pub y: i8,
    /// The spin kind by the 3-corner rule (`None` for pieces other than T).
    pub spin: Spin,
}

impl Placement {
    /// The position of the piece, without the spin.
    pub fn position(&self) -> PiecePos {
        PiecePos {
            piece: self.piece,
            rotation: self.rotation,
            x: self.x,
            y: self.y,
        }
    }

    /// Its four cells on the board.
    pub fn cells(&self) -> [(i8, i8); 4] {
        self.position().cells()
    }

    /// The rows this placement would clear on `board`, as a bitmask of row indices. Computed on
    /// demand rather than stored: the search gets the same rows from [`Board::place`].
    pub fn lines(&self, board: &Board) -> u64 {
        let mut b = *board;
        b.place(self.piece, self.rotation, self.x as i32, self.y as i32)
    }

    /// Whether locking here ends the game (every cell at row 20 or above).
    pub fn locks_out(&self) -> bool {
        self.cells()
            .iter()
            .all(|&(_, y)| y >= crate::position::LOCK_OUT_ROW)
    }

    /// The same placement in canonical orientation (see [`Piece::canonical`]).
    pub fn canonical(&self) -> Placement {
        let (rotation, (dx, dy)) = self.piece.canonical(self.rotation);
        Placement {
            rotation,
            x: self.x + dx,
            y: self.y + dy,
            ..*self
        }
    }

    /// A shortest input sequence from spawn that reaches this placement with its spin kind,
    /// found by a breadth-first search with the plain rules. The piece locks where the sequence
    /// leaves it. Found on demand, not during generation, because the search never needs it.
    pub fn inputs(&self, board: &Board, rules: Rules) -> Option<Vec<Input>> {
        find_inputs(board, self.cells(), self.piece, self.spin, rules)
    }
}

/// Returns every placement of `piece` on `board` reachable from spawn under `rules`.
pub fn generate(board: &Board, piece: Piece, rules: Rules) -> Vec<Placement> {
    let mut out = Vec::with_capacity(64);
    generate_into(board, piece, rules, &mut out);
    out
}

/// Like [`generate`], but appends to `out` (cleared first) so a caller can reuse its buffer.
pub fn generate_into(board: &Board, piece: Piece, rules: Rules, out: &mut Vec<Placement>) {
    out.clear();
    match piece {
        Piece::T => Flood::<true>::run(board, piece, rules, out),
        _ => Flood::<false>::run(board, piece, rules, out),
    }
}

const NODES: usize = 4 * WIDTH;

/// Bit `y` of the result is bit `y + dy` of `v`; rows shifted in from outside are zero.
#[inline(always)]
fn view(v: u64, dy: i8) -> u64 {
    if dy >= 0 { v >> dy } else { v << -dy }
}

/// Downward fill of `gen` through the runs of `pro` (`gen` must be a subset of `pro`).
#[inline(always)]
fn fill_down(mut g: u64, mut p: u64) -> u64 {
    g |= p & (g >> 1);
    p &= p >> 1;
    g |= p & (g >> 2);
    p &= p >> 2;
    g |= p & (g >> 4);
    p &= p >> 4;
    g |= p & (g >> 8);
    p &= p >> 8;
    g |= p & (g >> 16);
    p &= p >> 16;
    g |= p & (g >> 32);
    g
}

/// Flood state. `SPIN` tracks how each row was entered, for the 3-corner rule (T only).
struct Flood<const SPIN: bool> {
    fits: [u64; NODES],
    reach: [u64; NODES],
    /// Rows entered by a turn using a test other than the fifth.
    turned: [u64; NODES],
    /// Rows entered by a turn using the fifth test.
    turned5: [u64; NODES],
    /// Rows entered by a shift (or spawned in).
    slid: [u64; NODES],
}

impl<const SPIN: bool> Flood<SPIN> {
    fn run(board: &Board, piece: Piece, rules: Rules, out: &mut Vec<Placement>) {
        let cols = board.columns();
        let mut f = Flood::<SPIN> {
            fits: [0; NODES],
            reach: [0; NODES],
            turned: [0; NODES],
            turned5: [0; NODES],
            slid: [0; NODES],
        };
        // O turns never change its cells, so its closure is that of north alone.
        let rots: usize = if piece == Piece::O { 1 } else { 4 };
        for r in 0..rots {
            let cells = piece.cells(Rotation::ALL[r]);
            for x in 0..WIDTH as i8 {
                let mut coll = 0u64;
                let mut inside = true;
                for &(dx, dy) in cells {
                    let cx = x + dx;
                    if !(0..WIDTH as i8).contains(&cx) {
                        inside = false;
                        break;
                    }
                    // Rows below the floor count as filled, rows above row 39 too.
                    let col = cols[cx as usize] | !ROWS;
                    coll |= if dy >= 0 {
                        col >> dy
                    } else {
                        (col << -dy) | ((1u64 << -dy) - 1)
                    };
                }
                f.fits[r * WIDTH + x as usize] = if inside { !coll & ROWS } else { 0 };
            }
        }

        let spawn_node = SPAWN_X as usize;
        let spawn_fits = f.fits[spawn_node];
        let spawn = if spawn_fits >> SPAWN_Y & 1 != 0 {
            1u64 << SPAWN_Y
        } else if spawn_fits >> (SPAWN_Y + 1) & 1 != 0 {
            1u64 << (SPAWN_Y + 1)
        } else {
            return; // Blocked spawn: the game is over, nothing can be placed.
        };
        f.reach[spawn_node] = spawn;
        if SPIN {
            f.slid[spawn_node] = spawn;
        }

        let turns: &[Turn] = if piece == Piece::O {
            &[]
        } else if rules.has_180() {
            &[Turn::Cw, Turn::Ccw, Turn::Half]
        } else {
            &[Turn::Cw, Turn::Ccw]
        };

        let mut done = [0u64; NODES];
        let mut dirty: u64 = 1 << spawn_node;
        while dirty != 0 {
            let n = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let fits = f.fits[n];
            let reach = fill_down(f.reach[n], fits);
            f.reach[n] = reach;
            let new = reach & !done[n];
            done[n] = reach;
            if new == 0 {
                continue;
            }
            let (r, x) = (n / WIDTH, n % WIDTH);
            // Shifts.
            if x > 0 {
                f.enter(n - 1, new, &mut dirty, SPIN);
            }
            if x + 1 < WIDTH {
                f.enter(n + 1, new, &mut dirty, SPIN);
            }
            // Turns: each row takes the first kick test that fits.
            for &turn in turns {
                let to = turn.apply(Rotation::ALL[r]) as usize;
                let mut rest = new;
                for (i, &(kx, ky)) in kicks(piece, Rotation::ALL[r], turn, rules)
                    .tests()
                    .iter()
                    .enumerate()
                {
                    let tx = x as i8 + kx;
                    if !(0..WIDTH as i8).contains(&tx) {
                        continue;
                    }
                    let m = to * WIDTH + tx as usize;
                    let ok = rest & view(f.fits[m], ky);
                    if ok == 0 {
                        continue;
                    }
                    rest &= !ok;
                    let landed = view(ok, -ky);
                    if SPIN {
                        if i == 4 {
                            f.turned5[m] |= landed;
                        } else {
                            f.turned[m] |= landed;
                        }
                    }
                    if landed & !f.reach[m] != 0 {
                        f.reach[m] |= landed;
                        dirty |= 1 << m;
                    }
                    if rest == 0 {
                        break;
                    }
                }
            }
        }

        // Resting rows: reachable, and one row lower does not fit.
        let mut rest = [0u64; NODES];
        for ((rest, &reach), &fits) in rest
            .iter_mut()
            .zip(&f.reach)
            .zip(&f.fits)
            .take(rots * WIDTH)
        {
            *rest = reach & !(fits << 1);
        }

        if SPIN {
            f.emit_spins(board, piece, &rest, out);
            return;
        }

        // Fold twin orientations onto their canonical form, then emit.
        for r in 0..rots {
            let rot = Rotation::ALL[r];
            let (canon, (dx, dy)) = piece.canonical(rot);
            if canon != rot {
                for x in 0..WIDTH {
                    let rows = rest[r * WIDTH + x];
                    if rows != 0 {
                        // A resting twin always has an in-bounds canonical centre.
                        let m = canon as usize * WIDTH + (x as i8 + dx) as usize;
                        rest[m] |= view(rows, -dy);
                    }
                }
            }
        }
        for r in 0..rots {
            let rot = Rotation::ALL[r];
            if piece.canonical(rot).0 != rot {
                continue;
            }
            for x in 0..WIDTH {
                push_rows(out, piece, rot, x, rest[r * WIDTH + x], Spin::None);
            }
        }
    }

    /// Propagates rows `new` of a neighbour into node `m` by a shift.
    #[inline(always)]
    fn enter(&mut self, m: usize, new: u64, dirty: &mut u64, spin: bool) {
        let add = new & self.fits[m];
        if spin {
            self.slid[m] |= add;
        }
        if add & !self.reach[m] != 0 {
            self.reach[m] |= add;
            *dirty |= 1 << m;
        }
    }

    fn emit_spins(
        &self,
        board: &Board,
        piece: Piece,
        rest: &[u64; NODES],
        out: &mut Vec<Placement>,
    ) {
        let cols = board.columns();
        // Column as seen by the corner test: outside the board is filled.
        let col = |x: i32| -> u64 {
            if (0..WIDTH as i32).contains(&x) {
                cols[x as usize] | !ROWS
            } else {
                !0
            }
        };
        for x in 0..WIDTH {
            let (left, right) = (col(x as i32 - 1), col(x as i32 + 1));
            // Bit y of each: is the corner cell filled (floor counts as filled).
            let tl = left >> 1;
            let tr = right >> 1;
            let bl = (left << 1) | 1;
            let br = (right << 1) | 1;
            let three = (tl & tr & (bl | br)) | (bl & br & (tl | tr));
            // Front corners by orientation, clockwise from north.
            let fronts = [tl & tr, tr & br, br & bl, bl & tl];
            for (r, &front) in fronts.iter().enumerate() {
                let n = r * WIDTH + x;
                let rest = rest[n];
                if rest == 0 {
                    continue;
                }
                let rot = Rotation::ALL[r];
                let turned_any = self.turned[n] | self.turned5[n];
                // Entered by a slide, a drop from the row above, or a turn without 3 corners.
                let none = rest
                    & (self.slid[n] | (self.reach[n] >> 1 & self.fits[n]) | (turned_any & !three));
                let full = rest & three & ((front & turned_any) | self.turned5[n]);
                let mini = rest & three & !front & self.turned[n];
                push_rows(out, piece, rot, x, none, Spin::None);
                push_rows(out, piece, rot, x, mini, Spin::Mini);
                push_rows(out, piece, rot, x, full, Spin::Full);
            }
        }
    }
}

#[inline(always)]
fn push_rows(
    out: &mut Vec<Placement>,
    piece: Piece,
    rotation: Rotation,
    x: usize,
    mut rows: u64,
    spin: Spin,
) {
    while rows != 0 {
        let y = rows.trailing_zeros();
        rows &= rows - 1;
        out.push(Placement {
            piece,
            rotation,
            x: x as i8,
            y: y as i8,
            spin,
        });
    }
}
