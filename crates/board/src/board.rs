//! The bitboard: one `u64` per column, bit `y` is row `y`.

use crate::piece::{Piece, Rotation};
use std::hash::BuildHasher;

/// Board width in cells.
pub const WIDTH: usize = 10;
/// Board height in cells.
pub const HEIGHT: usize = 40;
/// Bits 0..40 set: every row of a column.
pub(crate) const ROWS: u64 = (1u64 << HEIGHT) - 1;

/// For each piece, orientation and centre column, the cells in each board column: bit `dy + 2`
/// for a cell at row `y + dy` (cell offsets are within -2..=2).
static COLUMN_CELLS: [[[[u8; WIDTH]; WIDTH]; 4]; 7] = build_column_cells();

const fn build_column_cells() -> [[[[u8; WIDTH]; WIDTH]; 4]; 7] {
    let all = crate::piece::build_cells();
    let mut out = [[[[0u8; WIDTH]; WIDTH]; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            let cells = all[p][r];
            let mut x = 0;
            while x < WIDTH {
                let mut k = 0;
                while k < 4 {
                    let (dx, dy) = cells[k];
                    let cx = x as i32 + dx as i32;
                    if cx >= 0 && cx < WIDTH as i32 {
                        out[p][r][x][cx as usize] |= 1 << (dy + 2);
                    }
                    k += 1;
                }
                x += 1;
            }
            r += 1;
        }
        p += 1;
    }
    out
}

/// A 10x40 Tetris board.
///
/// Layout: `cols[x]` bit `y` is the cell `(x, y)`, row 0 at the bottom. Soft drop, fit tests and
/// kicks then become shifts of a whole column, which is what makes move generation a bitwise
/// flood. Bits 40..64 of every column are always zero.
///
/// Invariant: `roof` is the number of rows up to and including the highest filled cell, so every
/// row at or above `roof` is empty. Every operation keeps it exact.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Board {
    cols: [u64; WIDTH],
    roof: u8,
}

impl Board {
    /// An empty board.
    pub const fn new() -> Board {
        Board {
            cols: [0; WIDTH],
            roof: 0,
        }
    }

    /// Builds a board from its columns (bit `y` of `cols[x]` is cell `(x, y)`). Bits at row 40
    /// and above are dropped.
    pub fn from_columns(cols: [u64; WIDTH]) -> Board {
        let mut b = Board {
            cols: cols.map(|c| c & ROWS),
            roof: 0,
        };
        b.update_roof();
        b
    }

    /// The columns, bit `y` of column `x` being cell `(x, y)`.
    #[inline]
    pub fn columns(&self) -> &[u64; WIDTH] {
        &self.cols
    }

    /// The roof: the height of the tallest column. Every row at or above it is empty.
    #[inline]
    pub fn roof(&self) -> u32 {
        self.roof as u32
    }

    /// The height of column `x` (one above its highest filled cell, 0 when empty).
    #[inline]
    pub fn column_height(&self, x: usize) -> u32 {
        64 - self.cols[x].leading_zeros()
    }

    /// Whether the cell `(x, y)` is filled. Cells outside the board count as filled, which is
    /// what collision tests and the 3-corner rule want.
    #[inline]
    pub fn occupied(&self, x: i32, y: i32) -> bool {
        if !(0..WIDTH as i32).contains(&x) || !(0..HEIGHT as i32).contains(&y) {
            return true;
        }
        self.cols[x as usize] >> y & 1 != 0
    }

    /// Fills the cell `(x, y)`. Panics when it is outside the board.
    pub fn set(&mut self, x: usize, y: usize) {
        assert!(
            x < WIDTH && y < HEIGHT,
            "cell ({x}, {y}) is outside the board"
        );
        self.cols[x] |= 1 << y;
        self.roof = self.roof.max(y as u8 + 1);
    }

    /// Whether the board has no filled cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.roof == 0
    }

    /// The number of filled cells.
    pub fn cell_count(&self) -> u32 {
        self.cols.iter().map(|c| c.count_ones()).sum()
    }

    /// Whether `piece` in `rot` with its centre at `(x, y)` overlaps nothing and lies inside.
    #[inline]
    pub fn fits(&self, piece: Piece, rot: Rotation, x: i32, y: i32) -> bool {
        piece
            .cells(rot)
            .iter()
            .all(|&(dx, dy)| !self.occupied(x + dx as i32, y + dy as i32))
    }

    /// Fills the cells of `piece` in `rot` at `(x, y)` and clears full lines. Returns the rows
    /// cleared as a bitmask of row indices (counted before the clear). The caller guarantees the
    /// piece fits; cells outside the board are ignored.
    #[inline]
    pub fn place(&mut self, piece: Piece, rot: Rotation, x: i32, y: i32) -> u64 {
        let (board, cleared) = self.placed(piece, rot, x, y);
        *self = board;
        cleared
    }

    /// This board with `piece` in `rot` at `(x, y)` locked and full lines cleared, and the rows
    /// cleared (as [`Board::place`] returns them). Built column by column into a new value, so
    /// a caller that copies a parent board and locks a piece on the copy does not read back
    /// columns it has just written (a store the processor must finish before the load).
    #[inline]
    pub fn placed(&self, piece: Piece, rot: Rotation, x: i32, y: i32) -> (Board, u64) {
        if !(0..WIDTH as i32).contains(&x) || !(0..HEIGHT as i32).contains(&y) {
            let mut b = *self;
            let cleared = b.place_cells(piece, rot, x, y);
            return (b, cleared);
        }
        let pattern = &COLUMN_CELLS[piece as usize][rot as usize][x as usize];
        // Bit dy + 2 of the pattern is the cell at row y + dy: one shift for every column, so
        // the loops vectorize.
        let add: [u64; WIDTH] = if y >= 2 {
            std::array::from_fn(|i| ((pattern[i] as u64) << (y - 2)) & ROWS)
        } else {
            std::array::from_fn(|i| (pattern[i] as u64) >> (2 - y))
        };
        let cols: [u64; WIDTH] = std::array::from_fn(|i| self.cols[i] | add[i]);
        let added = add.iter().fold(0, |a, &m| a | m);
        let mut b = Board {
            cols,
            roof: self.roof.max((64 - added.leading_zeros()) as u8),
        };
        let cleared = b.clear_lines();
        (b, cleared)
    }

    /// [`Board::place`] cell by cell, for centres off the board.
    fn place_cells(&mut self, piece: Piece, rot: Rotation, x: i32, y: i32) -> u64 {
        for &(dx, dy) in piece.cells(rot) {
            let (cx, cy) = (x + dx as i32, y + dy as i32);
            if (0..WIDTH as i32).contains(&cx) && (0..HEIGHT as i32).contains(&cy) {
                self.cols[cx as usize] |= 1 << cy;
                self.roof = self.roof.max(cy as u8 + 1);
            }
        }
        self.clear_lines()
    }

    /// The full rows, as a bitmask of row indices.
    #[inline]
    pub fn full_rows(&self) -> u64 {
        self.cols.iter().fold(ROWS, |acc, c| acc & c)
    }

    /// Removes every full row, moving the rows above down. Returns the rows cleared as a bitmask
    /// of row indices (before the clear); its `count_ones()` is the number of lines.
    pub fn clear_lines(&mut self) -> u64 {
        let full = self.full_rows();
        if full == 0 {
            return 0;
        }
        // Remove the highest row first so lower row indices stay valid.
        let mut rows = full;
        while rows != 0 {
            let r = 63 - rows.leading_zeros();
            rows &= !(1 << r);
            let low = (1u64 << r) - 1;
            for c in &mut self.cols {
                *c = (*c & low) | ((*c >> 1) & !low);
            }
        }
        self.roof -= full.count_ones() as u8;
        full
    }

    /// Pushes `rows` garbage rows in at the bottom, each full but for `hole`. Returns `false`
    /// (and changes nothing) when filled cells would be pushed off the top of the board.
    pub fn push_garbage(&mut self, hole: usize, rows: u32) -> bool {
        assert!(hole < WIDTH, "hole column {hole} is outside the board");
        if rows == 0 {
            return true;
        }
        if self.roof() + rows > HEIGHT as u32 {
            return false;
        }
        let fill = (1u64 << rows) - 1;
        for (x, c) in self.cols.iter_mut().enumerate() {
            *c <<= rows;
            if x != hole {
                *c |= fill;
            }
        }
        self.update_roof();
        true
    }

    /// A 64-bit hash of the board. It covers exactly the rows below the roof (the sky holds only
    /// zero bits), so identical boards always hash alike and empty sky never changes it. The
    /// hasher has a fixed seed: hashes are the same in every run.
    #[inline]
    pub fn hash64(&self) -> u64 {
        use std::hash::Hasher;
        // Column by column: one short mix per column, not the generic byte-slice path of
        // hashing the array, which is far dearer for a fixed 80 bytes.
        let mut h = foldhash::fast::FixedState::with_seed(0x7e7_7215).build_hasher();
        for &c in &self.cols {
            h.write_u64(c);
        }
        h.finish()
    }

    fn update_roof(&mut self) {
        let any = self.cols.iter().fold(0, |a, c| a | c);
        self.roof = (64 - any.leading_zeros()) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clear_lines_reports_rows_and_moves_rest_down() {
        let mut b = Board::new();
        for x in 0..WIDTH {
            b.set(x, 0);
            b.set(x, 2);
        }
        b.set(3, 1);
        b.set(4, 3);
        assert_eq!(b.roof(), 4);
        let cleared = b.clear_lines();
        assert_eq!(cleared, 0b101);
        assert_eq!(b.roof(), 2);
        assert!(b.occupied(3, 0));
        assert!(b.occupied(4, 1));
        assert_eq!(b.cell_count(), 2);
    }

    #[test]
    fn garbage_pushes_up_and_refuses_overflow() {
        let mut b = Board::new();
        b.set(0, 0);
        assert!(b.push_garbage(5, 2));
        assert_eq!(b.roof(), 3);
        assert!(b.occupied(0, 2));
        assert!(!b.occupied(5, 0));
        assert!(!b.occupied(5, 1));
        assert!(b.occupied(4, 1));
        let before = b;
        assert!(!b.push_garbage(0, 38));
        assert_eq!(b, before);
    }

    #[test]
    fn placed_column_by_column_equals_cell_by_cell() {
        let mut boards = vec![Board::new(), Board::from_columns([0b1011_0111; WIDTH])];
        // Nine full rows but one cell each, so most placements clear lines.
        let mut cols = [(1u64 << 9) - 1; WIDTH];
        cols[3] &= !0b10_0100;
        boards.push(Board::from_columns(cols));
        for board in boards {
            for piece in Piece::ALL {
                for rot in Rotation::ALL {
                    for x in -3..13 {
                        for y in -3..43 {
                            let mut slow = board;
                            let lines = slow.place_cells(piece, rot, x, y);
                            assert_eq!(board.placed(piece, rot, x, y), (slow, lines));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn empty_sky_never_changes_the_hash() {
        let a = Board::new();
        let b = Board::from_columns([1 << 45; WIDTH]);
        assert_eq!(a, b);
        assert_eq!(a.hash64(), b.hash64());
    }
}
