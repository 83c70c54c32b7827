//! Exact move generation as a bitwise flood.
//!
//! For each (orientation, centre column) the set of centre rows is one `u64`: `fits` holds the
//! rows where the piece overlaps nothing, `reach` the rows reachable from spawn (stored as
//! `open`, the fitting rows not reached yet, which is what the moves ask). Soft drop is a
//! downward fill of `reach` inside `fits`; a shift ANDs a neighbour's reach with this column's
//! fits; a turn tries the kick tests in order on every row at once, each test taking the rows
//! that are still unplaced and fit. A worklist of (orientation, column) nodes propagates only
//! the rows that are new, so every reachable position is expanded exactly once. This is the
//! exact closure of shift, turn, soft drop and hard drop, mid-air included: tucks and spins
//! under overhangs are found, unlike generators that only seed from hard drops.

use crate::board::{Board, HEIGHT, ROWS, WIDTH};
use crate::piece::{Piece, Rotation, Rules, Spin};
use crate::position::{Input, OPEN_ROOF, PiecePos, SPAWN_X, SPAWN_Y, cheapest_inputs};

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

    /// Whether the piece can come straight down into place (a hard drop from above), no tuck
    /// or spin needed: it is no spin, and no filled cell of `board` lies above any of its
    /// cells in the same column. A spin never does, even in cells a plain drop reaches: its
    /// last input is a turn in place, so the piece is soft-dropped there first.
    #[inline]
    pub fn drops_straight(&self, board: &Board) -> bool {
        let cols = board.columns();
        self.spin == Spin::None
            && self
                .cells()
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
        self.cheapest_inputs(board, rules, |_| 1)
            .map(|(_, path)| path)
    }

    /// A cheapest input sequence by `input_cost` (for example frames in an arena, where a hard
    /// drop is free and every soft-dropped row costs: `game::FrameCosts::input`), with its
    /// total cost. `None` when the placement is unreachable.
    pub fn cheapest_inputs(
        &self,
        board: &Board,
        rules: Rules,
        input_cost: impl Fn(Input) -> u32,
    ) -> Option<(u32, Vec<Input>)> {
        cheapest_inputs(
            board,
            self.cells(),
            self.piece,
            self.spin,
            rules,
            input_cost,
        )
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
    if piece == Piece::T {
        match rules {
            Rules::Srs => run_spins::<false>(board, spawn, out),
            Rules::SrsPlus => run_spins::<true>(board, spawn, out),
        }
    } else {
        positions_into(board, piece, rules, spawn, out);
    }
}

/// Calls `$f::<P, PLUS>($args)` with the piece index and the rule set as constants, so each
/// (piece, rules) gets its own flood with its kick tests folded into the code.
macro_rules! dispatch {
    ($piece:expr, $rules:expr, $f:path, ($($arg:expr),*)) => {{
        use $f as f;
        match ($rules, $piece) {
            (Rules::Srs, Piece::I) => f::<0, false>($($arg),*),
            (Rules::Srs, Piece::O) => f::<1, false>($($arg),*),
            (Rules::Srs, Piece::T) => f::<2, false>($($arg),*),
            (Rules::Srs, Piece::L) => f::<3, false>($($arg),*),
            (Rules::Srs, Piece::J) => f::<4, false>($($arg),*),
            (Rules::Srs, Piece::S) => f::<5, false>($($arg),*),
            (Rules::Srs, Piece::Z) => f::<6, false>($($arg),*),
            (Rules::SrsPlus, Piece::I) => f::<0, true>($($arg),*),
            (Rules::SrsPlus, Piece::O) => f::<1, true>($($arg),*),
            (Rules::SrsPlus, Piece::T) => f::<2, true>($($arg),*),
            (Rules::SrsPlus, Piece::L) => f::<3, true>($($arg),*),
            (Rules::SrsPlus, Piece::J) => f::<4, true>($($arg),*),
            (Rules::SrsPlus, Piece::S) => f::<5, true>($($arg),*),
            (Rules::SrsPlus, Piece::Z) => f::<6, true>($($arg),*),
        }
    }};
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
    if let Some(heights) = surface(board) {
        drop_everywhere(&heights, piece, out);
        return;
    }
    dispatch!(piece, rules, run_plain, (board, spawn, out))
}

/// The number of distinct placements [`generate_with`] would list: by cells, or with `spins`
/// by cells and spin kind (only T placements differ). Counted from the flood's bit masks,
/// without building the list.
pub fn count(board: &Board, piece: Piece, rules: Rules, spawn: Spawn, spins: bool) -> u32 {
    Counter::new().count(board, piece, rules, spawn, spins)
}

/// The rows where a T can lock with a full T-spin (3-corner rule), by orientation (in the order
/// of [`Rotation::ALL`]) and centre column: bit `y` is centre row `y`. The same positions as the
/// [`Spin::Full`] T placements of [`generate_into`] (spawn rising when blocked), from the flood's
/// bit masks without listing any placement.
pub fn full_tspin_rows(board: &Board, rules: Rules) -> [[u64; WIDTH]; 4] {
    let mut out = [[0u64; WIDTH]; 4];
    let visit = |rot: Rotation, x: usize, rows: u64, spin: Spin| {
        if spin == Spin::Full {
            out[rot as usize][x] |= flip(rows);
        }
    };
    match rules {
        Rules::Srs => Flood::<SpinTrack>::spins::<false>(board, Spawn::Rise, visit),
        Rules::SrsPlus => Flood::<SpinTrack>::spins::<true>(board, Spawn::Rise, visit),
    }
    out
}

/// The rows where a T centred in column `x` in orientation `r` (in the order of
/// [`Rotation::ALL`]) can be moved to from its spawn (rising when blocked): bit `y` of
/// `[r][x]` is centre row `y`, whether or not the T can lock there. All zero when the spawn is
/// blocked. The reachable set of the flood behind [`generate_into`], without tracking how each
/// row was entered: cheaper than [`full_tspin_rows`] when only a few positions are asked
/// about.
///
/// ```
/// use board::{Board, Rules, t_reach};
/// let board: Board = "#.........\n##.#######".parse().unwrap();
/// let reach = t_reach(&board, Rules::Srs);
/// // A T pointing down (south) drops into the hole of the bottom row, centred on row 1.
/// assert!(reach[2][2] >> 1 & 1 != 0);
/// // It cannot be inside the filled bottom row.
/// assert_eq!(reach[2][5] & 1, 0);
/// ```
pub fn t_reach(board: &Board, rules: Rules) -> [[u64; WIDTH]; 4] {
    let mut out = [[0u64; WIDTH]; 4];
    match rules {
        Rules::Srs => run_reach::<false>(board, &mut out),
        Rules::SrsPlus => run_reach::<true>(board, &mut out),
    }
    out
}

/// [`t_reach`] into `out` (compiled twice like [`run_plain`]).
#[multiversion::multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt"))]
fn run_reach<const PLUS: bool>(board: &Board, out: &mut [[u64; WIDTH]; 4]) {
    const T: usize = Piece::T as usize;
    let copy = |f: &Flood<NoTrack>, out: &mut [[u64; WIDTH]; 4], rows: u64| {
        for (r, by_x) in out.iter_mut().enumerate() {
            for (x, reach) in by_x.iter_mut().enumerate() {
                *reach = flip(f.reach(node(r, x))) & rows;
            }
        }
    };
    if board.roof() <= OPEN_ROOF {
        // The open board's flood seeds each node's whole top run, up to the ceiling, as its
        // placements need; a T spawned unblocked over such a stack never rises above its
        // spawn row (a turn in the open fits without a kick that lifts it).
        SCRATCH.with_borrow_mut(|c| {
            c.flood_open::<T, PLUS>(board);
            copy(&c.flood, out, (1u64 << (SPAWN_Y + 1)) - 1);
        });
        return;
    }
    let mut f = Flood::<NoTrack>::new();
    if f.flood::<T, PLUS>(board, Spawn::Rise) {
        copy(&f, out, !0);
    }
}

/// The placements of piece `P` (not T) under SRS, or SRS+ with `PLUS`, in `out`.
///
/// The flood and its callers are compiled twice (`multiversion`): once for the project's
/// baseline (x86-64-v2) and once with AVX2, BMI1, BMI2 and LZCNT, chosen at run time when the
/// CPU has them. The three-operand shifts and rotations, `andn`, `blsr` and `lzcnt` cut the
/// bit loops' instructions (docs/decisions.md). Both copies are the same source, so they give the same placements.
#[multiversion::multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt"))]
fn run_plain<const P: usize, const PLUS: bool>(
    board: &Board,
    spawn: Spawn,
    out: &mut Vec<Placement>,
) {
    let piece = Piece::ALL[P];
    if board.roof() <= OPEN_ROOF {
        SCRATCH.with_borrow_mut(|c| {
            c.flood_open::<P, PLUS>(board);
            let push = |rot, x, rows| push_rows(out, piece, rot, x, rows, Spin::None);
            c.flood.each_canonical::<P>(push);
        });
        return;
    }
    let mut f = Flood::<NoTrack>::new();
    if !f.flood::<P, PLUS>(board, spawn) {
        return; // Blocked spawn: the game is over, nothing can be placed.
    }
    f.each_canonical::<P>(|rot, x, rows| push_rows(out, piece, rot, x, rows, Spin::None));
}

/// T placements by (cells, spin kind) in `out` (compiled twice like [`run_plain`]).
#[multiversion::multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt"))]
fn run_spins<const PLUS: bool>(board: &Board, spawn: Spawn, out: &mut Vec<Placement>) {
    Flood::<SpinTrack>::spins::<PLUS>(board, spawn, |rot, x, rows, spin| {
        push_rows(out, Piece::T, rot, x, rows, spin)
    });
}

thread_local! {
    /// The flood arrays [`run_plain`] and [`t_reach`] reuse on open boards, one set per thread,
    /// so that a call clears only the few nodes the last one left open, not 1.5 KB.
    static SCRATCH: std::cell::RefCell<Counter> = const { std::cell::RefCell::new(Counter::new()) };
}

/// The plain count of piece `P` with the flood's arrays of a [`Counter`], not cleared on an
/// open board (compiled twice like [`run_plain`]).
#[multiversion::multiversion(targets("x86_64+avx2+bmi1+bmi2+lzcnt+popcnt"))]
fn count_reused<const P: usize, const PLUS: bool>(
    c: &mut Counter,
    board: &Board,
    spawn: Spawn,
) -> u32 {
    if board.roof() <= OPEN_ROOF {
        let to = c.flood_open::<P, PLUS>(board);
        return c.flood.count_open::<P>(to);
    }
    let f = &mut c.flood;
    // From the spawn every node starts unreached: a fresh flood, which leaves any node open.
    *f = Flood::new();
    c.stale = !0;
    if !f.flood::<P, PLUS>(board, spawn) {
        return 0;
    }
    let mut n = 0;
    f.each_canonical::<P>(|_, _, rows| n += rows.count_ones());
    n
}

/// [`count`] for many boards in a row, as perft's last depth asks: the flood's arrays are
/// kept between calls, and an open board's count clears only the nodes the last one left
/// open instead of all of them. Its counts are `count`'s exactly.
///
/// ```
/// use board::{Board, Counter, Piece, Rules, Spawn, count};
/// let board: Board = "#.........\n##.#######".parse().unwrap();
/// let mut counter = Counter::new();
/// for piece in Piece::ALL {
///     let n = count(&board, piece, Rules::Srs, Spawn::Rise, false);
///     assert_eq!(counter.count(&board, piece, Rules::Srs, Spawn::Rise, false), n);
/// }
/// ```
pub struct Counter {
    flood: Flood<NoTrack>,
    done: [u64; NODES],
    /// The nodes whose `open` in `flood` may be non-zero, one bit per node: an open board's
    /// flood clears only these (every other node's is zero already) instead of writing all.
    stale: u64,
}

impl Default for Counter {
    fn default() -> Self {
        Self::new()
    }
}

impl Counter {
    /// A counter with its arrays clear.
    pub const fn new() -> Self {
        Counter {
            flood: Flood {
                fits: [0; NODES],
                open: [0; NODES],
                track: NoTrack,
            },
            done: [0; NODES],
            stale: 0,
        }
    }

    /// Floods piece `P` on an open board in the kept arrays, as they are: an open board's
    /// flood writes every entry it reads (see [`Flood::flood_open_in`]). Returns the flood's
    /// target nodes.
    #[inline(always)]
    fn flood_open<const P: usize, const PLUS: bool>(&mut self, board: &Board) -> u64 {
        self.flood
            .flood_open_in::<P, PLUS>(board, |_, _| 0, &mut self.done, Some(&mut self.stale))
    }

    /// The same number as [`count`] with the same arguments (which is this, on a new counter).
    pub fn count(
        &mut self,
        board: &Board,
        piece: Piece,
        rules: Rules,
        spawn: Spawn,
        spins: bool,
    ) -> u32 {
        if spins && piece == Piece::T {
            return match rules {
                Rules::Srs => Flood::<SpinTrack>::count_spins::<false>(board, spawn),
                Rules::SrsPlus => Flood::<SpinTrack>::count_spins::<true>(board, spawn),
            };
        }
        if surface(board).is_some() {
            // One resting place per (orientation, column) that fits between the walls.
            return canonical_columns(piece);
        }
        dispatch!(piece, rules, count_reused, (self, board, spawn))
    }
}

/// Cell offsets and canonical forms by piece and orientation, as constants for the flood.
const CELLS: [[[crate::piece::Offset; 4]; 4]; 7] = crate::piece::build_cells();
const CANONICAL: [[(Rotation, crate::piece::Offset); 4]; 7] = crate::piece::build_canonical();

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

/// Inside the flood every row mask is upside down: row `y` is bit `FLIP - y` (row 39 at bit
/// 0, the floor row at bit 39). Falling is then a move toward higher bits, and a soft drop
/// through a run of free rows is one addition, whose carry runs down the run.
const FLIP: u32 = HEIGHT as u32 - 1;

/// A column mask (bit `y` is row `y`, no bits at row 40 or above) turned upside down.
#[inline(always)]
fn flip(v: u64) -> u64 {
    v.reverse_bits() >> (63 - FLIP)
}

/// A flipped mask's rows in ascending order (highest bit first).
#[inline(always)]
fn flipped_rows(mut v: u64, mut visit: impl FnMut(i8)) {
    while v != 0 {
        let b = 63 - v.leading_zeros();
        v &= !(1u64 << b);
        visit((FLIP - b) as i8);
    }
}

/// Bit `b` of the result (a flipped mask) is bit `b - dy` of `v`: the rows `dy` higher. Flipped
/// masks have no bits at 40 or above, and results are read only at bits 0..40; a rotation does
/// it without a branch on the sign of `dy` (within -2..=2): the bits it wraps around land at
/// 40..64 (never read) or come from 40..64 (empty).
#[inline(always)]
fn view(v: u64, dy: i8) -> u64 {
    v.rotate_left(dy as i32 as u32 & 63)
}

/// Soft drop: every row of `p` at or below a row of `g` in the same run of `p` (`g` a subset of
/// `p`, both flipped). Adding `g` to `p` clears each run from its highest seed down and carries
/// out below it; what was cleared, with the seeds, is the fall.
#[inline(always)]
fn fall(g: u64, p: u64) -> u64 {
    (p & !p.wrapping_add(g)) | g
}

/// The top run of a node's fitting rows (flipped): from its highest fitting row down to where
/// the piece first meets the stack, all reached at once on an open board.
#[inline(always)]
fn top_run(fits: u64) -> u64 {
    fall(fits & fits.wrapping_neg(), fits)
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
}

const fn build_steps(plus: bool) -> [[TurnSteps; 4]; 7] {
    let kicks = crate::piece::build_kicks(plus);
    let empty = TurnSteps {
        steps: [[Step { dn: 0, ky: 0 }; 6]; 3],
        lens: [0; 3],
    };
    let mut out = [[empty; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        // O never turns in the flood: its turns do not change its cells.
        while r < 4 && p != Piece::O as usize {
            let mut t = 0;
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
                t += 1;
            }
            r += 1;
        }
        p += 1;
    }
    out
}

/// Kick steps by rules (SRS, SRS+), piece and orientation. A `const`, not a `static`, so the
/// flood built for one (piece, rules) reads them as constants.
const STEPS: [[[TurnSteps; 4]; 7]; 2] = [build_steps(false), build_steps(true)];

/// How rows were entered, for the 3-corner rule. T tracks it; other pieces use the no-op.
trait Track: Default {
    /// Whether entries by a turn are recorded (then every turn into a recorded row counts,
    /// even into a row already reached).
    const RECORDS_TURNS: bool;
    fn turned(&mut self, n: usize, rows: u64, test: usize);
}

#[derive(Default)]
struct NoTrack;

impl Track for NoTrack {
    const RECORDS_TURNS: bool = false;
    #[inline(always)]
    fn turned(&mut self, _: usize, _: u64, _: usize) {}
}

struct SpinTrack {
    /// Rows entered by a turn: `[0]` with a test other than the fifth, `[1]` with the fifth.
    turned: [[u64; NODES]; 2],
}

impl Default for SpinTrack {
    fn default() -> Self {
        SpinTrack {
            turned: [[0; NODES]; 2],
        }
    }
}

impl Track for SpinTrack {
    const RECORDS_TURNS: bool = true;
    #[inline(always)]
    fn turned(&mut self, n: usize, rows: u64, test: usize) {
        self.turned[(test == 4) as usize][n] |= rows;
    }
}

/// The spawn row (flipped) of a piece whose spawn node fits at the rows `fits`, by `rule`;
/// `None` when the spawn is blocked.
#[inline(always)]
fn spawn_row(fits: u64, rule: Spawn) -> Option<u64> {
    let (at, above) = (FLIP - SPAWN_Y as u32, FLIP - SPAWN_Y as u32 - 1);
    if fits >> at & 1 != 0 {
        Some(1u64 << at)
    } else if rule == Spawn::Rise && fits >> above & 1 != 0 {
        Some(1u64 << above)
    } else {
        None
    }
}

/// Flood state. Every mask is flipped (see [`FLIP`]).
struct Flood<T> {
    fits: [u64; NODES],
    /// The rows of each node that fit and are not reached yet; the reached rows are
    /// `fits ^ open` (see [`Flood::reach`]). Kept this way round because the moves ask what is
    /// still open far more often than what is reached.
    open: [u64; NODES],
    track: T,
}

impl<T: Track> Flood<T> {
    fn new() -> Self {
        Flood {
            fits: [0; NODES],
            open: [0; NODES],
            track: T::default(),
        }
    }

    /// Computes `fits` and `reach` in place for piece `P` (an index into [`Piece::ALL`]) under
    /// SRS, or SRS+ with `PLUS`; returns `false` when the spawn is blocked.
    #[inline(always)]
    fn flood<const P: usize, const PLUS: bool>(
        &mut self,
        board: &Board,
        spawn_rule: Spawn,
    ) -> bool {
        let f = self;
        f.build_fits::<P>(board);
        let spawn_node = node(0, SPAWN_X as usize);
        let Some(spawn) = spawn_row(f.fits[spawn_node], spawn_rule) else {
            return false;
        };
        f.open = f.fits;
        f.open[spawn_node] ^= spawn;

        let mut done = [0u64; NODES];
        let mut dirty: u64 = 1 << spawn_node;
        f.close::<P, PLUS>(&mut dirty, &mut done);
        true
    }

    /// [`Flood::flood_open`] (with `extra`) when the board is open, else [`Flood::flood`];
    /// `false` when the spawn is blocked.
    #[inline(always)]
    fn flood_any<const P: usize, const PLUS: bool>(
        &mut self,
        board: &Board,
        spawn_rule: Spawn,
        extra: impl Fn(usize, u64) -> u64,
    ) -> bool {
        if board.roof() <= OPEN_ROOF {
            self.flood_open::<P, PLUS>(board, extra);
            true
        } else {
            self.flood::<P, PLUS>(board, spawn_rule)
        }
    }

    /// Expands the dirty nodes until nothing is left: the closure of `reach` under every move.
    #[inline(always)]
    fn close<const P: usize, const PLUS: bool>(
        &mut self,
        dirty: &mut u64,
        done: &mut [u64; NODES],
    ) {
        // One orientation at a time until nothing is left: the orientation is then a constant
        // in each loop, not a jump per node. The closure does not depend on the order.
        while *dirty != 0 {
            self.drain::<P, PLUS, 0>(dirty, done);
            self.drain::<P, PLUS, 1>(dirty, done);
            self.drain::<P, PLUS, 2>(dirty, done);
            self.drain::<P, PLUS, 3>(dirty, done);
        }
    }

    /// [`Flood::flood`] on an open board (its roof at most [`OPEN_ROOF`]), seeded with every
    /// straight drop instead of the spawn alone.
    ///
    /// Above such a stack every piece turns and shifts freely at spawn height, so each node's
    /// highest run of fitting rows (from the ceiling down to where the piece first meets the
    /// stack) is reachable at once. The rows a node fits below that run are hidden under an
    /// overhang; only moves into nodes with hidden rows can add anything, so only those are
    /// tried from the seeds (a turn whole, all its kick tests in order, so the first test that
    /// fits still wins), and the ordinary worklist closes from what they enter. Boards
    /// without hidden rows stop after the seeding. The result is the same closure as
    /// [`Flood::flood`]: every seeded row is reachable, and the set is closed under every move.
    ///
    /// `extra(x, fits)` gives more rows of a node at column `x` whose every entry by a turn
    /// must be recorded in the track, as the spin test needs where a T could rest with three
    /// corners; a node with such rows is a target like one with hidden rows.
    #[inline(always)]
    fn flood_open<const P: usize, const PLUS: bool>(
        &mut self,
        board: &Board,
        extra: impl Fn(usize, u64) -> u64,
    ) {
        let mut done = [0u64; NODES];
        self.flood_open_in::<P, PLUS>(board, extra, &mut done, None);
    }

    /// [`Flood::flood_open`] with the expanded rows kept in `done`, which need not be clear:
    /// every entry that is read is written first or known to be zero. A node that is not a
    /// target fits only in its top run, reached whole: its `open` is zero, and its `done` is
    /// never read (only targets become dirty). On a new flood (`stale` is `None`, `open` all
    /// zero) the seeding writes `open` and `done` of every real node, which lets the compiler
    /// drop their zeroing. On a flood kept from an earlier call, its arrays not cleared,
    /// `stale` holds the nodes whose `open` that call may have left non-zero: the seeding
    /// zeroes those, writes `open` and `done` of the targets alone, and sets `stale` to the
    /// targets (a flood that is not an open board's must set it to every node). Either way
    /// `build_fits` writes every real node's `fits`, and padding nodes, zero from construction
    /// ([`Flood::new`], [`Counter::new`]), are never written.
    #[inline(always)]
    fn flood_open_in<const P: usize, const PLUS: bool>(
        &mut self,
        board: &Board,
        extra: impl Fn(usize, u64) -> u64,
        done: &mut [u64; NODES],
        stale: Option<&mut u64>,
    ) -> u64 {
        debug_assert!(board.roof() <= OPEN_ROOF);
        let piece = Piece::ALL[P];
        let f = self;
        f.build_fits::<P>(board);
        // Seeds node `n` with its top run and returns its hidden rows.
        let seed = |f: &mut Self, done: &mut [u64; NODES], n: usize| {
            let run = top_run(f.fits[n]);
            f.open[n] = f.fits[n] & !run;
            done[n] = run;
            f.open[n]
        };
        // Target nodes (hidden rows, or `extra` rows), one bit per node.
        let to = match stale {
            Some(stale) => {
                let mut to = f.targets::<P, 0>(&extra, 0);
                if piece != Piece::O {
                    to = f.targets::<P, 1>(&extra, to);
                    to = f.targets::<P, 2>(&extra, to);
                    to = f.targets::<P, 3>(&extra, to);
                }
                let mut clear = *stale & !to;
                while clear != 0 {
                    f.open[clear.trailing_zeros() as usize] = 0;
                    clear &= clear - 1;
                }
                *stale = to;
                let mut targets = to;
                while targets != 0 {
                    seed(f, done, targets.trailing_zeros() as usize);
                    targets &= targets - 1;
                }
                to
            }
            None => {
                // Every real node (O has north alone), in order, as one vector loop.
                let mut to = 0u64;
                for r in 0..if piece == Piece::O { 1 } else { 4 } {
                    for x in 0..WIDTH {
                        let n = node(r, x);
                        let hidden = seed(f, done, n);
                        to |= (((hidden | extra(x, f.fits[n])) != 0) as u64) << n;
                    }
                }
                to
            }
        };
        if to == 0 {
            return 0;
        }
        let mut dirty = 0u64;
        // Shifts into each target node from both neighbours (only hidden rows can be new, and
        // only targets have them).
        let mut targets = to;
        while targets != 0 {
            let m = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let rows = f.reach(m.wrapping_sub(1) & (NODES - 1)) | f.reach((m + 1) & (NODES - 1));
            f.enter(m, rows, &mut dirty);
        }
        if piece != Piece::O {
            f.seed_turns::<P, PLUS, 0>(to, &mut dirty);
            f.seed_turns::<P, PLUS, 1>(to, &mut dirty);
            f.seed_turns::<P, PLUS, 2>(to, &mut dirty);
            f.seed_turns::<P, PLUS, 3>(to, &mut dirty);
        }
        f.close::<P, PLUS>(&mut dirty, done);
        to
    }

    /// `to` with the target nodes of orientation `R` added (see [`Flood::flood_open_in`]):
    /// those that fit below their top run (hidden rows) or have `extra` rows.
    #[inline(always)]
    fn targets<const P: usize, const R: usize>(
        &self,
        extra: &impl Fn(usize, u64) -> u64,
        to: u64,
    ) -> u64 {
        let (canon, (dx, _)) = const { CANONICAL[P][R] };
        let mut add = 0;
        if canon as usize != R {
            // A twin's fitting rows are its canonical node's moved (see `fits_or_twin`), runs
            // and all: it has hidden rows exactly when that node has, and the canonical
            // orientation comes first. Node (R, x) is node (canon, x + dx) moved by
            // (R - canon) * STRIDE - dx.
            let shift = ((R - canon as usize) * STRIDE) as i64 - dx as i64;
            let from = to & (0xffffu64 << (canon as usize * STRIDE));
            add = from.rotate_left(shift as u32 & 63) & (0xffffu64 << (R * STRIDE));
        }
        for x in 0..WIDTH {
            let n = node(R, x);
            let fits = self.fits[n];
            let hidden = if canon as usize == R {
                fits & !top_run(fits)
            } else {
                0
            };
            add |= (((hidden | extra(x, fits)) != 0) as u64) << n;
        }
        debug_assert!((0..WIDTH).all(|x| {
            let fits = self.fits[node(R, x)];
            let hidden = fits & !top_run(fits);
            (add >> node(R, x) & 1 != 0) == ((hidden | extra(x, fits)) != 0)
        }));
        to | add
    }

    /// Turns the seeded rows of every orientation-`R` node that has a kick test into a node of
    /// `to`.
    #[inline(always)]
    fn seed_turns<const P: usize, const PLUS: bool, const R: usize>(
        &mut self,
        to: u64,
        dirty: &mut u64,
    ) {
        self.seed_turn::<P, PLUS, R, 0>(to, dirty);
        self.seed_turn::<P, PLUS, R, 1>(to, dirty);
        self.seed_turn::<P, PLUS, R, 2>(to, dirty);
    }

    /// [`Flood::seed_turns`] for turn `TURN` (cw, ccw, half): the sources are the nodes one of
    /// whose kick tests lands in `to`.
    #[inline(always)]
    fn seed_turn<const P: usize, const PLUS: bool, const R: usize, const TURN: usize>(
        &mut self,
        to: u64,
        dirty: &mut u64,
    ) {
        let turn = const { STEPS[PLUS as usize][P][R] };
        let mut from = 0u64;
        for step in &turn.steps[TURN][..turn.lens[TURN] as usize] {
            // Node n kicks into n + dn (mod NODES, as `kick` does).
            from |= to.rotate_right(step.dn as i32 as u32 & 63);
        }
        // Sources in orientation `R` and between the walls (a padding node reaches nothing).
        from &= ((1u64 << WIDTH) - 1) << (R * STRIDE + PAD);
        while from != 0 {
            let n = from.trailing_zeros() as usize;
            from &= from - 1;
            // `turn` keeps only the rows that can land on a row not reached yet.
            let rows = self.reach(n);
            self.turn::<P, PLUS, R, TURN>(n, rows, dirty);
        }
    }

    /// The rows where piece `P` fits, by node, in `fits` (O in its north orientation only:
    /// its turns never change its cells, so its closure is that of north alone).
    #[inline(always)]
    fn build_fits<const P: usize>(&mut self, board: &Board) {
        let piece = Piece::ALL[P];
        // shifted[dy + 2][cx + 2]: bit b is "cell (cx, FLIP - b + dy) is blocked", with the walls,
        // the floor and the ceiling blocked. Cell offsets are within -2..=2.
        let cols = board.columns().map(flip);
        // Each entry written once: the two columns of wall on each side, or a board column.
        let shifted: [[u64; WIDTH + 4]; 5] = core::array::from_fn(|d| {
            let dy = d as i32 - 2;
            core::array::from_fn(|i| {
                let Some(&col) = i.checked_sub(2).and_then(|cx| cols.get(cx)) else {
                    return !0;
                };
                if dy >= 0 {
                    // Rows above the ceiling are blocked.
                    (col << dy) | ((1u64 << dy) - 1)
                } else {
                    // Rows below the floor are blocked.
                    (col >> -dy) | !(ROWS >> -dy)
                }
            })
        });
        // Centres outside 0..10 never fit any piece, so padding nodes stay zero.
        self.fits_of::<P, 0>(&shifted);
        if piece != Piece::O {
            self.fits_of::<P, 1>(&shifted);
            self.fits_or_twin::<P, 2>(&shifted);
            self.fits_or_twin::<P, 3>(&shifted);
        }
    }

    /// [`Flood::fits_of`] for orientation `R` (2 or 3), or, when `R` covers the same cells as
    /// an earlier orientation moved by (dx, dy) (I, S and Z), its rows read off that twin's:
    /// `R` at (x, y) fits exactly when the twin fits at (x + dx, y + dy), so each node is one
    /// rotation of the twin's mask, where building it from the board costs four.
    #[inline(always)]
    fn fits_or_twin<const P: usize, const R: usize>(&mut self, shifted: &[[u64; WIDTH + 4]; 5]) {
        let (canon, (dx, dy)) = const { CANONICAL[P][R] };
        if canon as usize == R {
            self.fits_of::<P, R>(shifted);
            return;
        }
        for x in 0..WIDTH {
            // The twin's centre column may be a padding node (x + dx is -1 or 10): zero, as it
            // should be. Rows the rotation brings from beyond the floor or the ceiling are
            // masked off: no orientation's centre lies there.
            let t = (node(canon as usize, x) as isize + dx as isize) as usize;
            self.fits[node(R, x)] = view(self.fits[t], dy) & ROWS;
        }
        debug_assert!({
            let direct = self.fits;
            self.fits_of::<P, R>(shifted);
            direct == self.fits
        });
    }

    /// The rows where piece `P` in orientation `R` fits, at every column, from the pre-shifted
    /// columns; the cell offsets are constants.
    #[inline(always)]
    fn fits_of<const P: usize, const R: usize>(&mut self, shifted: &[[u64; WIDTH + 4]; 5]) {
        let cells = const { CELLS[P][R] };
        let mut blocked = [0u64; WIDTH];
        for (dx, dy) in cells {
            let row = &shifted[(dy + 2) as usize][(dx + 2) as usize..][..WIDTH];
            for (b, s) in blocked.iter_mut().zip(row) {
                *b |= s;
            }
        }
        for (x, b) in blocked.iter().enumerate() {
            self.fits[node(R, x)] = !b & ROWS;
        }
    }

    /// Expands the dirty nodes of orientation `R` until none is left (turns may make nodes of
    /// other orientations dirty, and shifts more of this one).
    #[inline(always)]
    fn drain<const P: usize, const PLUS: bool, const R: usize>(
        &mut self,
        dirty: &mut u64,
        done: &mut [u64; NODES],
    ) {
        let mask = 0xffffu64 << (R * STRIDE);
        while *dirty & mask != 0 {
            let n = (*dirty & mask).trailing_zeros() as usize;
            *dirty &= !(1u64 << n);
            let fits = self.fits[n];
            let reach = fall(fits ^ self.open[n], fits);
            self.open[n] = fits ^ reach;
            let new = reach & !done[n];
            done[n] = reach;
            if new != 0 {
                self.expand::<P, PLUS, R>(n, new, dirty);
            }
        }
    }

    /// Shifts and turns rows `new` of node `n` (orientation `R`); a turned row takes the first
    /// kick test that fits.
    #[inline(always)]
    fn expand<const P: usize, const PLUS: bool, const R: usize>(
        &mut self,
        n: usize,
        new: u64,
        dirty: &mut u64,
    ) {
        // Shifts. Padding columns never fit; the mask only spares the bounds check.
        self.enter(n.wrapping_sub(1) & (NODES - 1), new, dirty);
        self.enter((n + 1) & (NODES - 1), new, dirty);
        self.turn::<P, PLUS, R, 0>(n, new, dirty);
        self.turn::<P, PLUS, R, 1>(n, new, dirty);
        self.turn::<P, PLUS, R, 2>(n, new, dirty);
    }

    /// Turn `TURN` (cw, ccw, half) of rows `new` of node `n`, its kick tests unrolled with their
    /// offsets as constants.
    #[inline(always)]
    fn turn<const P: usize, const PLUS: bool, const R: usize, const TURN: usize>(
        &mut self,
        n: usize,
        new: u64,
        dirty: &mut u64,
    ) {
        let mut rest = new;
        if !T::RECORDS_TURNS {
            // Only a row that some test could land on a row not reached yet can add anything
            // (a seeded node's unreached rows are its hidden ones); it still takes its first
            // fitting test, so the rows entered are the same.
            let turn = const { STEPS[PLUS as usize][P][R] };
            let mut open = 0u64;
            for step in &turn.steps[TURN][..turn.lens[TURN] as usize] {
                let m = n.wrapping_add(step.dn as isize as usize) & (NODES - 1);
                open |= view(self.open[m], step.ky);
            }
            rest &= open;
        }
        self.kick::<P, PLUS, R, TURN, 0>(n, &mut rest, dirty);
        self.kick::<P, PLUS, R, TURN, 1>(n, &mut rest, dirty);
        self.kick::<P, PLUS, R, TURN, 2>(n, &mut rest, dirty);
        self.kick::<P, PLUS, R, TURN, 3>(n, &mut rest, dirty);
        self.kick::<P, PLUS, R, TURN, 4>(n, &mut rest, dirty);
        self.kick::<P, PLUS, R, TURN, 5>(n, &mut rest, dirty);
    }

    /// Kick test `I` of turn `TURN`: the rows of `rest` it fits leave `rest` and land.
    #[inline(always)]
    fn kick<const P: usize, const PLUS: bool, const R: usize, const TURN: usize, const I: usize>(
        &mut self,
        n: usize,
        rest: &mut u64,
        dirty: &mut u64,
    ) {
        let len = const { STEPS[PLUS as usize][P][R].lens[TURN] as usize };
        if I >= len || *rest == 0 {
            return;
        }
        let step = const { STEPS[PLUS as usize][P][R].steps[TURN][I] };
        let m = n.wrapping_add(step.dn as isize as usize) & (NODES - 1);
        let ok = *rest & view(self.fits[m], step.ky);
        if ok == 0 {
            return;
        }
        *rest &= !ok;
        let landed = view(ok, -step.ky);
        self.track.turned(m, landed, I);
        let new = landed & self.open[m];
        if new != 0 {
            self.open[m] ^= new;
            *dirty |= 1 << m;
        }
    }

    /// Propagates rows `new` of a neighbour into node `m` by a shift.
    #[inline(always)]
    fn enter(&mut self, m: usize, new: u64, dirty: &mut u64) {
        let add = new & self.open[m];
        if add != 0 {
            self.open[m] ^= add;
            *dirty |= 1 << m;
        }
    }

    /// Resting rows of node `n` (flipped): reachable, and one row lower does not fit.
    #[inline(always)]
    fn rest(&self, n: usize) -> u64 {
        self.reach(n) & !(self.fits[n] >> 1)
    }

    /// The reached rows of node `n` (flipped).
    #[inline(always)]
    fn reach(&self, n: usize) -> u64 {
        self.fits[n] ^ self.open[n]
    }
}

impl Flood<NoTrack> {
    /// The number of resting rows [`Flood::each_canonical`] would give after
    /// [`Flood::flood_open_in`] (with no `extra` rows) returned the target nodes `to`. A node
    /// outside `to` fits only in its seeded straight drop, so it rests exactly once, where its
    /// twin (never a target either) rests too: each in-bounds canonical node counts one, and
    /// only the targets' rows are counted.
    #[inline(always)]
    fn count_open<const P: usize>(&self, to: u64) -> u32 {
        let mut n = const { canonical_columns(Piece::ALL[P]) };
        if to != 0 {
            n += self.count_touched::<P, 0>(to);
            if Piece::ALL[P] != Piece::O {
                n += self.count_touched::<P, 1>(to);
                n += self.count_touched::<P, 2>(to);
                n += self.count_touched::<P, 3>(to);
            }
        }
        n
    }

    /// For [`Flood::count_open`]: what the canonical nodes of orientation `R` that are targets
    /// add beyond the one each was counted as.
    #[inline(always)]
    fn count_touched<const P: usize, const R: usize>(&self, to: u64) -> u32 {
        if const { CANONICAL[P][R].0 as usize } != R {
            return 0;
        }
        // Its twin covers the same cells, so fits at the same rows moved by `dy`: it has rows
        // below its straight drop, and is a target, exactly when this node is. A target fits
        // somewhere, so it is between the walls.
        let mut touched = (to >> (R * STRIDE)) & 0xffff;
        let mut extra = 0;
        while touched != 0 {
            let x = touched.trailing_zeros() as usize - PAD;
            touched &= touched - 1;
            extra += self.folded_rest::<P, R>(x).count_ones() - 1;
        }
        extra
    }

    /// The resting rows (flipped) of canonical node (`R`, `x`) with those of its twin folded
    /// in.
    #[inline(always)]
    fn folded_rest<const P: usize, const R: usize>(&self, x: usize) -> u64 {
        let twin = (R + 2) & 3;
        let (canon, (dx, dy)) = const { CANONICAL[P][(R + 2) & 3] };
        let mut rows = self.rest(node(R, x));
        if Piece::ALL[P] != Piece::O && canon as usize == R {
            // The twin at centre (x - dx, y - dy) covers the same cells.
            let t = (node(twin, x) as isize - dx as isize) as usize;
            rows |= view(self.rest(t), -dy);
        }
        rows
    }

    /// Calls `visit(orientation, column, rows)` with the resting rows (flipped) of every
    /// canonical (orientation, column), each with the resting rows of its twin folded in.
    #[inline(always)]
    fn each_canonical<const P: usize>(&self, mut visit: impl FnMut(Rotation, usize, u64)) {
        self.canonical_rows::<P, 0>(&mut visit);
        if Piece::ALL[P] != Piece::O {
            self.canonical_rows::<P, 1>(&mut visit);
            self.canonical_rows::<P, 2>(&mut visit);
            self.canonical_rows::<P, 3>(&mut visit);
        }
    }

    /// [`Flood::each_canonical`] for orientation `R`: nothing unless `R` is canonical.
    #[inline(always)]
    fn canonical_rows<const P: usize, const R: usize>(
        &self,
        visit: &mut impl FnMut(Rotation, usize, u64),
    ) {
        if const { CANONICAL[P][R].0 as usize } != R {
            return;
        }
        let rot = Rotation::ALL[R];
        for x in 0..WIDTH {
            visit(rot, x, self.folded_rest::<P, R>(x));
        }
    }
}

/// The column heights, when the board has no overhang (every column filled from the floor
/// up without a gap) and its stack leaves the spawn rows free. Then every placement is the
/// straight drop of one (orientation, column), and the flood is not needed.
#[inline]
fn surface(board: &Board) -> Option<[i32; WIDTH]> {
    if board.roof() > OPEN_ROOF {
        return None;
    }
    let cols = board.columns();
    if cols.iter().any(|&c| c & c.wrapping_add(1) != 0) {
        return None;
    }
    Some(std::array::from_fn(|x| cols[x].count_ones() as i32))
}

/// How many (canonical orientation, column) pairs keep `piece` between the walls.
const fn canonical_columns(piece: Piece) -> u32 {
    let p = piece as usize;
    let rots = if p == Piece::O as usize { 1 } else { 4 };
    let mut n = 0;
    let mut r = 0;
    while r < rots {
        if CANONICAL[p][r].0 as usize == r {
            let (lo, hi) = x_range(piece, Rotation::ALL[r]);
            n += (hi - lo + 1) as u32;
        }
        r += 1;
    }
    n
}

/// The centre columns that keep `piece` in `rot` between the walls.
#[inline]
const fn x_range(piece: Piece, rot: Rotation) -> (i32, i32) {
    let cells = &CELLS[piece as usize][rot as usize];
    let (mut min, mut max) = (cells[0].0 as i32, cells[0].0 as i32);
    let mut i = 1;
    while i < 4 {
        let x = cells[i].0 as i32;
        if x < min {
            min = x;
        }
        if x > max {
            max = x;
        }
        i += 1;
    }
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
    fn count_spins<const PLUS: bool>(board: &Board, spawn: Spawn) -> u32 {
        let mut n = 0;
        Self::spins::<PLUS>(board, spawn, |_, _, rows, _| n += rows.count_ones());
        n
    }

    /// Floods T and calls `visit(orientation, column, rows, spin)` with the resting rows
    /// (flipped) of each (orientation, column) by spin kind.
    #[inline(always)]
    fn spins<const PLUS: bool>(
        board: &Board,
        spawn: Spawn,
        mut visit: impl FnMut(Rotation, usize, u64, Spin),
    ) {
        // Columns as seen by the corner test, flipped, one wall column each side: outside the
        // board is filled, and so is the floor (bits 40 and up). Column x is `walled[x + 1]`.
        let mut walled = [!0u64; WIDTH + 2];
        for (w, &c) in walled[1..].iter_mut().zip(board.columns()) {
            *w = flip(c) | !ROWS;
        }
        // Bit b of each: is that corner of a centre at row FLIP - b filled (the floor and the
        // ceiling count). Corners by column: top left, top right, bottom left, bottom right.
        let corners = |x: usize| {
            let (left, right) = (walled[x], walled[x + 2]);
            ((left << 1) | 1, (right << 1) | 1, left >> 1, right >> 1)
        };
        let threes: [u64; WIDTH] = std::array::from_fn(|x| {
            let (tl, tr, bl, br) = corners(x);
            (tl & tr & (bl | br)) | (bl & br & (tl | tr))
        });
        let mut f = Self::new();
        // On an open board, every node where a T could rest with three corners filled needs
        // its entries by a turn recorded.
        let rests_with_three = |x: usize, fits: u64| fits & !(fits >> 1) & threes[x];
        if !f.flood_any::<{ Piece::T as usize }, PLUS>(board, spawn, rests_with_three) {
            return;
        }
        let spawn_node = node(0, SPAWN_X as usize);
        // On an open board the spawn position fits whatever the rule.
        let spawned = spawn_row(f.fits[spawn_node], spawn).unwrap_or(0);
        let t = &f.track;
        for (x, &three) in threes.iter().enumerate() {
            let (tl, tr, bl, br) = corners(x);
            // Front corners by orientation, clockwise from north.
            let fronts = [tl & tr, tr & br, br & bl, bl & tl];
            for (r, &front) in fronts.iter().enumerate() {
                let n = node(r, x);
                let rest = f.rest(n);
                if rest == 0 {
                    continue;
                }
                let rot = Rotation::ALL[r];
                if rest & three == 0 {
                    // No spin without three corners, and every reachable row was entered
                    // somehow (spawned, slid, dropped or turned): all rest without a spin.
                    visit(rot, x, rest, Spin::None);
                    continue;
                }
                let (turned, turned5) = (t.turned[0][n], t.turned[1][n]);
                let turned_any = turned | turned5;
                // Entered by a slide (or spawned), a drop from the row above, or a turn without
                // 3 corners. Rows entered by a shift are the neighbours' final reach where this
                // node fits.
                let slid = ((f.reach(n - 1) | f.reach(n + 1)) & f.fits[n])
                    | if n == spawn_node { spawned } else { 0 };
                let none = rest & (slid | (f.reach(n) << 1 & f.fits[n]) | (turned_any & !three));
                let full = rest & three & ((front & turned_any) | turned5);
                let mini = rest & three & !front & turned;
                // Most nodes rest nowhere with a spin: skip the empty kinds.
                for (rows, spin) in [(none, Spin::None), (mini, Spin::Mini), (full, Spin::Full)] {
                    if rows != 0 {
                        visit(rot, x, rows, spin);
                    }
                }
            }
        }
    }
}

/// Appends a placement for every row of `rows` (a flipped mask), lowest row first.
#[inline(always)]
fn push_rows(
    out: &mut Vec<Placement>,
    piece: Piece,
    rotation: Rotation,
    x: usize,
    rows: u64,
    spin: Spin,
) {
    // No reserve: the caller reuses its buffer, so `push` rarely grows it.
    flipped_rows(rows, |y| {
        out.push(Placement {
            piece,
            rotation,
            x: x as i8,
            y,
            spin,
        })
    });
}
