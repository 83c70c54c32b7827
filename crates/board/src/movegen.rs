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
use crate::piece::{Piece, Rotation, Rules, Spin};
use crate::position::{Input, InputCosts, PiecePos, SPAWN_X, SPAWN_Y, cheapest_inputs};

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

    /// Whether no filled cell of `board` lies above any of its cells in the same column: the
    /// piece can come straight down into place (a hard drop from above), no tuck or spin under
    /// an overhang needed.
    #[inline]
    pub fn drops_straight(&self, board: &Board) -> bool {
        let cols = board.columns();
        self.cells()
            .iter()
            .all(|&(x, y)| cols[x as usize] >> (y as u32 + 1) == 0)
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
    /// found with the plain rules. The piece locks where the sequence leaves it. Found on
    /// demand, not during generation, because the search never needs it.
    pub fn inputs(&self, board: &Board, rules: Rules) -> Option<Vec<Input>> {
        self.cheapest_inputs(board, rules, &InputCosts::COUNT)
            .map(|(_, path)| path)
    }

    /// A cheapest input sequence by `costs` (for example frames in an arena, where a hard drop
    /// is free and every soft-dropped row costs), with its total cost. `None` when the
    /// placement is unreachable.
    pub fn cheapest_inputs(
        &self,
        board: &Board,
        rules: Rules,
        costs: &InputCosts,
    ) -> Option<(u32, Vec<Input>)> {
        cheapest_inputs(board, self.cells(), self.piece, self.spin, rules, costs)
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
    generate_with(board, piece, rules, Spawn::Rise, out);
}

/// Where a piece spawns when its spawn position is blocked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Spawn {
    /// One row higher, as rules.md says; blocked there too, the game is over.
    #[default]
    Rise,
    /// Nowhere: the game is over (the convention of some perft counts).
    NoRise,
}

/// Like [`generate_into`], with the spawn rule given.
pub fn generate_with(
    board: &Board,
    piece: Piece,
    rules: Rules,
    spawn: Spawn,
    out: &mut Vec<Placement>,
) {
    out.clear();
    match piece {
        Piece::T => Flood::<SpinTrack>::run(board, piece, rules, spawn, out),
        _ => Flood::<NoTrack>::run(board, piece, rules, spawn, out),
    }
}

/// The placements of `piece` distinct by cells alone (T without spin kinds), in `out`.
pub(crate) fn positions_into(
    board: &Board,
    piece: Piece,
    rules: Rules,
    spawn: Spawn,
    out: &mut Vec<Placement>,
) {
    out.clear();
    Flood::<NoTrack>::run(board, piece, rules, spawn, out);
}

/// The number of distinct placements [`generate_with`] would list: by cells, or with `spins`
/// by cells and spin kind (only T placements differ). Counted from the flood's bit masks,
/// without building the list.
pub fn count(board: &Board, piece: Piece, rules: Rules, spawn: Spawn, spins: bool) -> u32 {
    if spins && piece == Piece::T {
        Flood::<SpinTrack>::count_spins(board, rules, spawn)
    } else {
        Flood::<NoTrack>::count(board, piece, rules, spawn)
    }
}

/// Nodes are (orientation, centre column) with the column padded by `PAD` on each side, 16 to
/// an orientation, so a kick or shift never needs a bounds check (padding columns never fit)
/// and the dirty set of all 64 nodes is one `u64`.
const STRIDE: usize = 16;
const PAD: usize = 3;
const NODES: usize = 4 * STRIDE;

#[inline(always)]
const fn node(r: usize, x: usize) -> usize {
    r * STRIDE + x + PAD
}

/// Bit `y` of the result is bit `y + dy` of `v`, for `v` with no bits at row 40 or above and
/// results read only at rows 0..40. A rotation does it without a branch on the sign of `dy`:
/// the bits it wraps around land at rows 58..64 (never read) or come from rows 40..64 (empty).
#[inline(always)]
fn view(v: u64, dy: i8) -> u64 {
    v.rotate_right(dy as i32 as u32 & 63)
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

/// One kick test as the flood uses it: the node offset (orientation change and column kick
/// together) and the row kick.
#[derive(Clone, Copy)]
struct Step {
    dn: i8,
    ky: i8,
}

/// The kick tests of every turn from one orientation, turns in the order cw, ccw, half.
#[derive(Clone, Copy)]
struct TurnSteps {
    steps: [[Step; 6]; 3],
    lens: [u8; 3],
    turns: u8,
}

const fn build_steps(plus: bool) -> [[TurnSteps; 4]; 7] {
    let kicks = crate::piece::build_kicks(plus);
    let empty = TurnSteps {
        steps: [[Step { dn: 0, ky: 0 }; 6]; 3],
        lens: [0; 3],
        turns: 0,
    };
    let mut out = [[empty; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            let mut t = 0;
            let mut turns = 0;
            while t < 3 {
                let k = &kicks[p][r][t];
                let to = match t {
                    0 => (r + 1) & 3,
                    1 => (r + 3) & 3,
                    _ => (r + 2) & 3,
                };
                let mut i = 0;
                while i < k.len as usize {
                    let (kx, ky) = k.tests[i];
                    out[p][r].steps[t][i] = Step {
                        dn: (to as i8 - r as i8) * STRIDE as i8 + kx,
                        ky,
                    };
                    i += 1;
                }
                out[p][r].lens[t] = k.len;
                if k.len > 0 {
                    turns += 1;
                }
                t += 1;
            }
            // O never turns in the flood: its turns do not change its cells.
            out[p][r].turns = if p == Piece::O as usize { 0 } else { turns };
            r += 1;
        }
        p += 1;
    }
    out
}

static STEPS_SRS: [[TurnSteps; 4]; 7] = build_steps(false);
static STEPS_PLUS: [[TurnSteps; 4]; 7] = build_steps(true);

/// How rows were entered, for the 3-corner rule. T tracks it; other pieces use the no-op.
trait Track: Default {
    fn spawned(&mut self, n: usize, rows: u64);
    fn slid(&mut self, n: usize, rows: u64);
    fn turned(&mut self, n: usize, rows: u64, test: usize);
}

#[derive(Default)]
struct NoTrack;

impl Track for NoTrack {
    #[inline(always)]
    fn spawned(&mut self, _: usize, _: u64) {}
    #[inline(always)]
    fn slid(&mut self, _: usize, _: u64) {}
    #[inline(always)]
    fn turned(&mut self, _: usize, _: u64, _: usize) {}
}

struct SpinTrack {
    /// Rows entered by a turn: `[0]` with a test other than the fifth, `[1]` with the fifth.
    turned: [[u64; NODES]; 2],
    /// Rows entered by a shift, or spawned in.
    slid: [u64; NODES],
}

impl Default for SpinTrack {
    fn default() -> Self {
        SpinTrack {
            turned: [[0; NODES]; 2],
            slid: [0; NODES],
        }
    }
}

impl Track for SpinTrack {
    #[inline(always)]
    fn spawned(&mut self, n: usize, rows: u64) {
        self.slid[n] |= rows;
    }
    #[inline(always)]
    fn slid(&mut self, n: usize, rows: u64) {
        self.slid[n] |= rows;
    }
    #[inline(always)]
    fn turned(&mut self, n: usize, rows: u64, test: usize) {
        self.turned[(test == 4) as usize][n] |= rows;
    }
}

/// Flood state.
struct Flood<T> {
    fits: [u64; NODES],
    reach: [u64; NODES],
    track: T,
}

impl<T: Track> Flood<T> {
    fn new() -> Self {
        Flood {
            fits: [0; NODES],
            reach: [0; NODES],
            track: T::default(),
        }
    }

    /// Computes `fits` and `reach` in place; returns `false` when the spawn is blocked.
    fn flood(&mut self, board: &Board, piece: Piece, rules: Rules, spawn_rule: Spawn) -> bool {
        let f = self;
        // shifted[dy + 2][cx + 2]: bit y is "cell (cx, y + dy) is blocked", with the walls, the
        // floor and the ceiling blocked. Cell offsets are within -2..=2.
        let mut shifted = [[!0u64; WIDTH + 4]; 5];
        for (cx, &col) in board.columns().iter().enumerate() {
            let col = col | !ROWS;
            for (d, row) in shifted.iter_mut().enumerate() {
                let dy = d as i32 - 2;
                row[cx + 2] = if dy >= 0 {
                    col >> dy
                } else {
                    (col << -dy) | ((1u64 << -dy) - 1)
                };
            }
        }
        // O turns never change its cells, so its closure is that of north alone. Centres outside
        // 0..10 never fit any piece, so padding nodes stay zero.
        let rots: usize = if piece == Piece::O { 1 } else { 4 };
        for r in 0..rots {
            let mut blocked = [0u64; WIDTH];
            for &(dx, dy) in piece.cells(Rotation::ALL[r]) {
                let row = &shifted[(dy + 2) as usize][(dx + 2) as usize..][..WIDTH];
                for (b, s) in blocked.iter_mut().zip(row) {
                    *b |= s;
                }
            }
            for (x, b) in blocked.iter().enumerate() {
                f.fits[node(r, x)] = !b & ROWS;
            }
        }

        let spawn_node = node(0, SPAWN_X as usize);
        let spawn_fits = f.fits[spawn_node];
        let spawn = if spawn_fits >> SPAWN_Y & 1 != 0 {
            1u64 << SPAWN_Y
        } else if spawn_rule == Spawn::Rise && spawn_fits >> (SPAWN_Y + 1) & 1 != 0 {
            1u64 << (SPAWN_Y + 1)
        } else {
            return false;
        };
        f.reach[spawn_node] = spawn;
        f.track.spawned(spawn_node, spawn);

        let steps = match rules {
            Rules::Srs => &STEPS_SRS[piece as usize],
            Rules::SrsPlus => &STEPS_PLUS[piece as usize],
        };

        let mut done = [0u64; NODES];
        let mut dirty: u64 = 1 << spawn_node;
        while dirty != 0 {
            let n = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let reach = fill_down(f.reach[n], f.fits[n]);
            f.reach[n] = reach;
            let new = reach & !done[n];
            done[n] = reach;
            if new == 0 {
                continue;
            }
            // Shifts. Padding columns never fit, so no bounds checks.
            f.enter(n - 1, new, &mut dirty);
            f.enter(n + 1, new, &mut dirty);
            // Turns: each row takes the first kick test that fits.
            let ts = &steps[n / STRIDE];
            for t in 0..ts.turns as usize {
                let mut rest = new;
                for (i, step) in ts.steps[t][..ts.lens[t] as usize].iter().enumerate() {
                    let m = (n as isize + step.dn as isize) as usize;
                    let ok = rest & view(f.fits[m], step.ky);
                    if ok == 0 {
                        continue;
                    }
                    rest &= !ok;
                    let landed = view(ok, -step.ky);
                    f.track.turned(m, landed, i);
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
        true
    }

    /// Propagates rows `new` of a neighbour into node `m` by a shift.
    #[inline(always)]
    fn enter(&mut self, m: usize, new: u64, dirty: &mut u64) {
        let add = new & self.fits[m];
        self.track.slid(m, add);
        if add & !self.reach[m] != 0 {
            self.reach[m] |= add;
            *dirty |= 1 << m;
        }
    }

    /// Resting rows of node `n`: reachable, and one row lower does not fit.
    #[inline(always)]
    fn rest(&self, n: usize) -> u64 {
        self.reach[n] & !(self.fits[n] << 1)
    }
}

impl Flood<NoTrack> {
    /// The distinct placements by cells, counted from the flood's masks.
    fn count(board: &Board, piece: Piece, rules: Rules, spawn: Spawn) -> u32 {
        if surface(board).is_some() {
            // One resting place per (orientation, column) that fits between the walls.
            return canonical_columns(piece);
        }
        let mut f = Self::new();
        if !f.flood(board, piece, rules, spawn) {
            return 0;
        }
        let mut n = 0;
        f.each_canonical(piece, |_, _, rows| n += rows.count_ones());
        n
    }

    /// Calls `visit(orientation, column, rows)` with the resting rows of every canonical
    /// (orientation, column), each with the resting rows of its twin folded in.
    #[inline(always)]
    fn each_canonical(&self, piece: Piece, mut visit: impl FnMut(Rotation, usize, u64)) {
        let f = self;
        let rots = if piece == Piece::O { 1 } else { 4 };
        for r in 0..rots {
            let rot = Rotation::ALL[r];
            if piece.canonical(rot).0 != rot {
                continue;
            }
            let twin = (r + 2) & 3;
            let (canon, (dx, dy)) = piece.canonical(Rotation::ALL[twin]);
            let folds = rots == 4 && canon == rot;
            for x in 0..WIDTH {
                let mut rows = f.rest(node(r, x));
                if folds {
                    // The twin at centre (x - dx, y - dy) covers the same cells.
                    let t = (node(twin, x) as isize - dx as isize) as usize;
                    rows |= view(f.rest(t), -dy);
                }
                visit(rot, x, rows);
            }
        }
    }

    fn run(board: &Board, piece: Piece, rules: Rules, spawn: Spawn, out: &mut Vec<Placement>) {
        if let Some(heights) = surface(board) {
            drop_everywhere(&heights, piece, out);
            return;
        }
        let mut f = Self::new();
        if !f.flood(board, piece, rules, spawn) {
            return; // Blocked spawn: the game is over, nothing can be placed.
        }
        f.each_canonical(piece, |rot, x, rows| {
            push_rows(out, piece, rot, x, rows, Spin::None)
        });
    }
}

/// The highest a board's stack may stand for the surface shortcut: rows 17 to 21 stay free,
/// so every piece turns and shifts freely at spawn height and reaches every column.
const SURFACE_ROOF: u32 = 17;

/// The column heights, when the board has no overhang (every column filled from the floor
/// up without a gap) and its stack leaves the spawn rows free. Then every placement is the
/// straight drop of one (orientation, column), and the flood is not needed.
#[inline]
fn surface(board: &Board) -> Option<[i32; WIDTH]> {
    if board.roof() > SURFACE_ROOF {
        return None;
    }
    let cols = board.columns();
    if cols.iter().any(|&c| c & c.wrapping_add(1) != 0) {
        return None;
    }
    Some(std::array::from_fn(|x| cols[x].count_ones() as i32))
}

/// How many (canonical orientation, column) pairs keep `piece` between the walls.
fn canonical_columns(piece: Piece) -> u32 {
    let rots = if piece == Piece::O { 1 } else { 4 };
    Rotation::ALL[..rots]
        .iter()
        .filter(|&&r| piece.canonical(r).0 == r)
        .map(|&r| {
            let (lo, hi) = x_range(piece, r);
            (hi - lo + 1) as u32
        })
        .sum()
}

/// The centre columns that keep `piece` in `rot` between the walls.
#[inline]
fn x_range(piece: Piece, rot: Rotation) -> (i32, i32) {
    let cells = piece.cells(rot);
    let min = cells.iter().map(|c| c.0 as i32).min().expect("four cells");
    let max = cells.iter().map(|c| c.0 as i32).max().expect("four cells");
    (-min, WIDTH as i32 - 1 - max)
}

/// Every straight drop of `piece` on a surface of column `heights`, in the flood's order
/// (canonical orientation, then column).
fn drop_everywhere(heights: &[i32; WIDTH], piece: Piece, out: &mut Vec<Placement>) {
    let rots = if piece == Piece::O { 1 } else { 4 };
    for &rotation in &Rotation::ALL[..rots] {
        if piece.canonical(rotation).0 != rotation {
            continue;
        }
        let cells = piece.cells(rotation);
        let (lo, hi) = x_range(piece, rotation);
        for x in lo..=hi {
            let y = cells
                .iter()
                .map(|&(dx, dy)| heights[(x + dx as i32) as usize] - dy as i32)
                .max()
                .expect("four cells");
            out.push(Placement {
                piece,
                rotation,
                x: x as i8,
                y: y as i8,
                spin: Spin::None,
            });
        }
    }
}

impl Flood<SpinTrack> {
    /// T placements by (cells, spin kind), counted from the flood's masks.
    fn count_spins(board: &Board, rules: Rules, spawn: Spawn) -> u32 {
        let mut n = 0;
        Self::spins(board, rules, spawn, |_, _, rows, _| n += rows.count_ones());
        n
    }

    fn run(board: &Board, piece: Piece, rules: Rules, spawn: Spawn, out: &mut Vec<Placement>) {
        Self::spins(board, rules, spawn, |rot, x, rows, spin| {
            push_rows(out, piece, rot, x, rows, spin)
        });
    }

    /// Floods T and calls `visit(orientation, column, rows, spin)` with the resting rows of
    /// each (orientation, column) by spin kind.
    #[inline(always)]
    fn spins(
        board: &Board,
        rules: Rules,
        spawn: Spawn,
        mut visit: impl FnMut(Rotation, usize, u64, Spin),
    ) {
        let piece = Piece::T;
        let mut f = Self::new();
        if !f.flood(board, piece, rules, spawn) {
            return;
        }
        let cols = board.columns();
        // Column as seen by the corner test: outside the board is filled.
        let col = |x: i32| -> u64 {
            if (0..WIDTH as i32).contains(&x) {
                cols[x as usize] | !ROWS
            } else {
                !0
            }
        };
        let t = &f.track;
        for x in 0..WIDTH {
            let (left, right) = (col(x as i32 - 1), col(x as i32 + 1));
            // Bit y of each: is that corner of a centre at row y filled (the floor counts).
            let tl = left >> 1;
            let tr = right >> 1;
            let bl = (left << 1) | 1;
            let br = (right << 1) | 1;
            let three = (tl & tr & (bl | br)) | (bl & br & (tl | tr));
            // Front corners by orientation, clockwise from north.
            let fronts = [tl & tr, tr & br, br & bl, bl & tl];
            for (r, &front) in fronts.iter().enumerate() {
                let n = node(r, x);
                let rest = f.rest(n);
                if rest == 0 {
                    continue;
                }
                let rot = Rotation::ALL[r];
                let (turned, turned5) = (t.turned[0][n], t.turned[1][n]);
                let turned_any = turned | turned5;
                // Entered by a slide, a drop from the row above, or a turn without 3 corners.
                let none =
                    rest & (t.slid[n] | (f.reach[n] >> 1 & f.fits[n]) | (turned_any & !three));
                let full = rest & three & ((front & turned_any) | turned5);
                let mini = rest & three & !front & turned;
                visit(rot, x, none, Spin::None);
                visit(rot, x, mini, Spin::Mini);
                visit(rot, x, full, Spin::Full);
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
    out.reserve(rows.count_ones() as usize);
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
