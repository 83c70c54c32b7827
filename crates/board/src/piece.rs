//! Pieces, orientations, rulesets and the SRS kick tables of `rules.md`.

use std::fmt;

/// One of the seven tetrominoes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Piece {
    /// The I piece.
    I = 0,
    /// The O piece.
    O = 1,
    /// The T piece.
    T = 2,
    /// The L piece.
    L = 3,
    /// The J piece.
    J = 4,
    /// The S piece.
    S = 5,
    /// The Z piece.
    Z = 6,
}

/// An orientation: north is the spawn orientation, east is one clockwise turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rotation {
    /// Spawn orientation.
    North = 0,
    /// One clockwise turn from spawn.
    East = 1,
    /// Two turns from spawn.
    South = 2,
    /// One counter-clockwise turn from spawn.
    West = 3,
}

/// Which rotation system is in force. Chosen at run time.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "kebab-case")
)]
pub enum Rules {
    /// Guideline SRS, no 180-degree turns (the default).
    #[default]
    Srs,
    /// The TETR.IO variant: mirror-symmetric I kicks and 180-degree turns with their own kicks.
    /// These tables come from community reverse engineering of TETR.IO.
    SrsPlus,
}

/// The spin kind of a placement, by the 3-corner rule (always `None` for pieces other than T).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Spin {
    /// No spin.
    #[default]
    None = 0,
    /// A T-spin mini.
    Mini = 1,
    /// A full T-spin.
    Full = 2,
}

/// One cell offset `(dx, dy)` relative to the rotation centre.
pub type Offset = (i8, i8);

const NORTH_CELLS: [[Offset; 4]; 7] = [
    [(-1, 0), (0, 0), (1, 0), (2, 0)],  // I
    [(0, 0), (1, 0), (0, 1), (1, 1)],   // O
    [(-1, 0), (0, 0), (1, 0), (0, 1)],  // T
    [(-1, 0), (0, 0), (1, 0), (1, 1)],  // L
    [(-1, 0), (0, 0), (1, 0), (-1, 1)], // J
    [(-1, 0), (0, 0), (0, 1), (1, 1)],  // S
    [(-1, 1), (0, 1), (0, 0), (1, 0)],  // Z
];

pub(crate) const fn build_cells() -> [[[Offset; 4]; 4]; 7] {
    let mut out = [[[(0, 0); 4]; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            let mut c = 0;
            while c < 4 {
                let (mut dx, mut dy) = NORTH_CELLS[p][c];
                let mut t = 0;
                while t < r {
                    // A clockwise turn maps (dx, dy) to (dy, -dx).
                    let nx = dy;
                    dy = -dx;
                    dx = nx;
                    t += 1;
                }
                out[p][r][c] = (dx, dy);
                c += 1;
            }
            r += 1;
        }
        p += 1;
    }
    out
}

static CELLS: [[[Offset; 4]; 4]; 7] = build_cells();

impl Piece {
    /// All seven pieces, in the order I O T L J S Z.
    pub const ALL: [Piece; 7] = [
        Piece::I,
        Piece::O,
        Piece::T,
        Piece::L,
        Piece::J,
        Piece::S,
        Piece::Z,
    ];

    /// The piece for an upper-case letter, if any.
    pub const fn from_char(c: char) -> Option<Piece> {
        Some(match c {
            'I' => Piece::I,
            'O' => Piece::O,
            'T' => Piece::T,
            'L' => Piece::L,
            'J' => Piece::J,
            'S' => Piece::S,
            'Z' => Piece::Z,
            _ => return None,
        })
    }

    /// The piece's letter.
    pub const fn to_char(self) -> char {
        ['I', 'O', 'T', 'L', 'J', 'S', 'Z'][self as usize]
    }

    /// The piece with index `i` (0..7) in the order of [`Piece::ALL`].
    pub const fn from_index(i: usize) -> Option<Piece> {
        if i < 7 { Some(Piece::ALL[i]) } else { None }
    }

    /// The four cell offsets of this piece in orientation `rot`, relative to its centre.
    #[inline]
    pub fn cells(self, rot: Rotation) -> &'static [Offset; 4] {
        &CELLS[self as usize][rot as usize]
    }

    /// The orientation that stands for `rot` in placement lists, and the translation from a
    /// centre in `rot` to the equivalent centre in that orientation. O has one canonical
    /// orientation (north); I, S and Z fold south onto north and west onto east; J, L and T
    /// are their own canonical forms.
    #[inline]
    pub fn canonical(self, rot: Rotation) -> (Rotation, Offset) {
        CANONICAL[self as usize][rot as usize]
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// For each piece and orientation, the canonical orientation with the same cell shape and the
/// centre translation into it, found by comparing cell sets.
pub(crate) const fn build_canonical() -> [[(Rotation, Offset); 4]; 7] {
    let cells = build_cells();
    let mut out = [[(Rotation::North, (0, 0)); 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            out[p][r] = (Rotation::ALL[r], (0, 0));
            // Look for an earlier orientation with the same shape.
            let mut c = 0;
            let mut found = false;
            while c < r && !found {
                // Translation t with cells[r] + t == cells[c] as sets; try aligning cell 0 of r
                // with every cell of c.
                let mut k = 0;
                while k < 4 && !found {
                    let tx = cells[p][c][k].0 - cells[p][r][0].0;
                    let ty = cells[p][c][k].1 - cells[p][r][0].1;
                    if same_set(&cells[p][r], &cells[p][c], tx, ty) {
                        // Follow c to its own canonical form.
                        let (cr, (cx, cy)) = out[p][c];
                        // cells[r] + t == cells[c], so centre (x, y) in r is (x - t) in c.
                        out[p][r] = (cr, (cx - tx, cy - ty));
                        found = true;
                    }
                    k += 1;
                }
                c += 1;
            }
            r += 1;
        }
        p += 1;
    }
    out
}

const fn same_set(a: &[Offset; 4], b: &[Offset; 4], tx: i8, ty: i8) -> bool {
    let mut i = 0;
    while i < 4 {
        let mut j = 0;
        let mut hit = false;
        while j < 4 {
            if a[i].0 + tx == b[j].0 && a[i].1 + ty == b[j].1 {
                hit = true;
            }
            j += 1;
        }
        if !hit {
            return false;
        }
        i += 1;
    }
    true
}

static CANONICAL: [[(Rotation, Offset); 4]; 7] = build_canonical();

impl Rotation {
    /// All four orientations, north first, clockwise.
    pub const ALL: [Rotation; 4] = [
        Rotation::North,
        Rotation::East,
        Rotation::South,
        Rotation::West,
    ];

    /// One clockwise turn.
    #[inline]
    pub const fn cw(self) -> Rotation {
        Rotation::ALL[(self as usize + 1) & 3]
    }

    /// One counter-clockwise turn.
    #[inline]
    pub const fn ccw(self) -> Rotation {
        Rotation::ALL[(self as usize + 3) & 3]
    }

    /// A half turn.
    #[inline]
    pub const fn flip(self) -> Rotation {
        Rotation::ALL[(self as usize + 2) & 3]
    }

    /// The TBP name: `north`, `east`, `south` or `west`.
    pub const fn name(self) -> &'static str {
        ["north", "east", "south", "west"][self as usize]
    }

    /// Parses a TBP orientation name.
    pub fn from_name(s: &str) -> Option<Rotation> {
        Rotation::ALL.into_iter().find(|r| r.name() == s)
    }
}

impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Spin {
    /// The TBP name: `none`, `mini` or `full`.
    pub const fn name(self) -> &'static str {
        ["none", "mini", "full"][self as usize]
    }

    /// Parses a TBP spin name.
    pub fn from_name(s: &str) -> Option<Spin> {
        [Spin::None, Spin::Mini, Spin::Full]
            .into_iter()
            .find(|k| k.name() == s)
    }
}

impl fmt::Display for Spin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Rules {
    /// The name used on command lines: `srs` or `srs-plus`.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Srs => "srs",
            Rules::SrsPlus => "srs-plus",
        }
    }

    /// Whether 180-degree turns exist in this ruleset.
    pub const fn has_180(self) -> bool {
        matches!(self, Rules::SrsPlus)
    }
}

// ---------------------------------------------------------------------------------------------
// Kick tables.

const JLSTZ_OFFSETS: [[Offset; 5]; 4] = [
    [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
    [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
    [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
];
const I_OFFSETS: [[Offset; 5]; 4] = [
    [(0, 0), (-1, 0), (2, 0), (-1, 0), (2, 0)],
    [(-1, 0), (0, 0), (0, 0), (0, 1), (0, -2)],
    [(-1, 1), (1, 1), (-2, 1), (1, 0), (-2, 0)],
    [(0, 1), (0, 1), (0, 1), (0, -1), (0, 2)],
];
const O_OFFSETS: [Offset; 4] = [(0, 0), (0, -1), (-1, -1), (-1, 0)];

/// The kick tests of one turn: up to six translations, tried in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kicks {
    pub(crate) tests: [Offset; 6],
    pub(crate) len: u8,
}

impl Kicks {
    const EMPTY: Kicks = Kicks {
        tests: [(0, 0); 6],
        len: 0,
    };

    /// The translations, first test first.
    #[inline]
    pub fn tests(&self) -> &[Offset] {
        &self.tests[..self.len as usize]
    }

    const fn from_slice(s: &[Offset]) -> Kicks {
        let mut k = Kicks::EMPTY;
        let mut i = 0;
        while i < s.len() {
            k.tests[i] = s[i];
            i += 1;
        }
        k.len = s.len() as u8;
        k
    }

    const fn shifted(mut self, by: Offset) -> Kicks {
        let mut i = 0;
        while i < self.len as usize {
            self.tests[i] = (self.tests[i].0 + by.0, self.tests[i].1 + by.1);
            i += 1;
        }
        self
    }
}

/// Kicks derived from an offset table: test i = offset[from][i] - offset[to][i].
const fn from_offsets(table: &[[Offset; 5]; 4], from: usize, to: usize) -> Kicks {
    let mut k = Kicks::EMPTY;
    let mut i = 0;
    while i < 5 {
        k.tests[i] = (
            table[from][i].0 - table[to][i].0,
            table[from][i].1 - table[to][i].1,
        );
        i += 1;
    }
    k.len = 5;
    k
}

/// The centre shift that moves an I kick from the classic (4x4 box) frame into the centre frame.
const fn i_frame_shift(from: usize, to: usize) -> Offset {
    // Quarter turns clockwise: N→E, E→S, S→W, W→N.
    const CW: [Offset; 4] = [(1, 0), (0, -1), (-1, 0), (0, 1)];
    if to == (from + 1) & 3 {
        CW[from]
    } else if from == (to + 1) & 3 {
        let s = CW[to];
        (-s.0, -s.1)
    } else {
        let a = CW[from];
        let b = CW[(from + 1) & 3];
        (a.0 + b.0, a.1 + b.1)
    }
}

// SRS+ (TETR.IO) I kicks in the classic frame, tests 2..5 (test 1 is (0, 0)).
// Index [from][to] for quarter turns.
const fn srs_plus_i_classic(from: usize, to: usize) -> [Offset; 5] {
    let t: [Offset; 4] = match (from, to) {
        (0, 1) => [(1, 0), (-2, 0), (-2, -1), (1, 2)],
        (0, 3) => [(-1, 0), (2, 0), (2, -1), (-1, 2)],
        (1, 0) => [(-1, 0), (2, 0), (-1, -2), (2, 1)],
        (3, 0) => [(1, 0), (-2, 0), (1, -2), (-2, 1)],
        (1, 2) => [(-1, 0), (2, 0), (-1, 2), (2, -1)],
        (3, 2) => [(1, 0), (-2, 0), (1, 2), (-2, -1)],
        (2, 1) => [(-2, 0), (1, 0), (-2, 1), (1, -2)],
        (2, 3) => [(2, 0), (-1, 0), (2, 1), (-1, -2)],
        _ => [(0, 0); 4],
    };
    [(0, 0), t[0], t[1], t[2], t[3]]
}

const JLSTZ_180: [[Offset; 6]; 4] = [
    [(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)],
    [(0, 0), (1, 0), (1, 2), (1, 1), (0, 2), (0, 1)],
    [(0, 0), (0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)],
    [(0, 0), (-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)],
];
const I_180: [[Offset; 2]; 4] = [
    [(0, 0), (0, 1)],
    [(0, 0), (1, 0)],
    [(0, 0), (0, -1)],
    [(0, 0), (-1, 0)],
];

/// The turn kinds: clockwise, counter-clockwise and half turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Turn {
    /// Clockwise.
    Cw = 0,
    /// Counter-clockwise.
    Ccw = 1,
    /// 180 degrees (SRS+ only).
    Half = 2,
}

impl Turn {
    /// The orientation reached from `from` by this turn.
    #[inline]
    pub const fn apply(self, from: Rotation) -> Rotation {
        match self {
            Turn::Cw => from.cw(),
            Turn::Ccw => from.ccw(),
            Turn::Half => from.flip(),
        }
    }
}

pub(crate) const fn build_kicks(plus: bool) -> [[[Kicks; 3]; 4]; 7] {
    let mut out = [[[Kicks::EMPTY; 3]; 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut from = 0;
        while from < 4 {
            let mut turn = 0;
            while turn < 3 {
                let to = match turn {
                    0 => (from + 1) & 3,
                    1 => (from + 3) & 3,
                    _ => (from + 2) & 3,
                };
                let k = if p == 1 {
                    // O: one test that keeps the cells in place.
                    if turn == 2 && !plus {
                        Kicks::EMPTY
                    } else {
                        Kicks::from_slice(&[(
                            O_OFFSETS[from].0 - O_OFFSETS[to].0,
                            O_OFFSETS[from].1 - O_OFFSETS[to].1,
                        )])
                    }
                } else if turn == 2 {
                    if !plus {
                        Kicks::EMPTY
                    } else if p == 0 {
                        Kicks::from_slice(&I_180[from]).shifted(i_frame_shift(from, to))
                    } else {
                        Kicks::from_slice(&JLSTZ_180[from])
                    }
                } else if p == 0 {
                    if plus {
                        Kicks::from_slice(&srs_plus_i_classic(from, to))
                            .shifted(i_frame_shift(from, to))
                    } else {
                        from_offsets(&I_OFFSETS, from, to)
                    }
                } else {
                    from_offsets(&JLSTZ_OFFSETS, from, to)
                };
                out[p][from][turn] = k;
                turn += 1;
            }
            from += 1;
        }
        p += 1;
    }
    out
}

static KICKS_SRS: [[[Kicks; 3]; 4]; 7] = build_kicks(false);
static KICKS_PLUS: [[[Kicks; 3]; 4]; 7] = build_kicks(true);

/// The kick tests for turning `piece` from `from` by `turn` under `rules`. Empty when the turn
/// does not exist in the ruleset (a half turn under guideline SRS).
#[inline]
pub fn kicks(piece: Piece, from: Rotation, turn: Turn, rules: Rules) -> &'static Kicks {
    let t = match rules {
        Rules::Srs => &KICKS_SRS,
        Rules::SrsPlus => &KICKS_PLUS,
    };
    &t[piece as usize][from as usize][turn as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_md_check_values() {
        let k = kicks(Piece::T, Rotation::North, Turn::Cw, Rules::Srs);
        assert_eq!(k.tests(), &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]);
        let k = kicks(Piece::I, Rotation::North, Turn::Cw, Rules::Srs);
        assert_eq!(k.tests(), &[(1, 0), (-1, 0), (2, 0), (-1, -1), (2, 2)]);
    }

    #[test]
    fn o_turns_keep_cells() {
        for rules in [Rules::Srs, Rules::SrsPlus] {
            for from in Rotation::ALL {
                for turn in [Turn::Cw, Turn::Ccw, Turn::Half] {
                    let k = kicks(Piece::O, from, turn, rules);
                    if turn == Turn::Half && rules == Rules::Srs {
                        assert!(k.tests().is_empty());
                        continue;
                    }
                    let (dx, dy) = k.tests()[0];
                    let to = turn.apply(from);
                    let mut a: Vec<_> = Piece::O.cells(from).to_vec();
                    let mut b: Vec<_> = Piece::O
                        .cells(to)
                        .iter()
                        .map(|&(x, y)| (x + dx, y + dy))
                        .collect();
                    a.sort();
                    b.sort();
                    assert_eq!(a, b, "{from:?} {turn:?}");
                }
            }
        }
    }

    #[test]
    fn srs_plus_i_kicks_are_mirror_symmetric() {
        // 0→R and 0→L mirror each other in the classic frame: x negated.
        let r = srs_plus_i_classic(0, 1);
        let l = srs_plus_i_classic(0, 3);
        for i in 0..5 {
            assert_eq!(r[i].0, -l[i].0);
            assert_eq!(r[i].1, l[i].1);
        }
        // Centre frame of SRS+ I N→E starts at the frame shift (1, 0).
        let k = kicks(Piece::I, Rotation::North, Turn::Cw, Rules::SrsPlus);
        assert_eq!(k.tests()[0], (1, 0));
        assert_eq!(k.tests()[1], (2, 0));
    }

    #[test]
    fn half_turn_frame_shifts_are_sums() {
        assert_eq!(i_frame_shift(0, 2), (1, -1));
        assert_eq!(i_frame_shift(1, 3), (-1, -1));
        assert_eq!(i_frame_shift(2, 0), (-1, 1));
        assert_eq!(i_frame_shift(3, 1), (1, 1));
        assert_eq!(i_frame_shift(1, 0), (-1, 0));
    }

    #[test]
    fn srs_has_no_half_turns() {
        for p in Piece::ALL {
            assert!(
                kicks(p, Rotation::North, Turn::Half, Rules::Srs)
                    .tests()
                    .is_empty()
            );
            assert!(
                !kicks(p, Rotation::North, Turn::Half, Rules::SrsPlus)
                    .tests()
                    .is_empty()
            );
        }
    }

    #[test]
    fn canonical_forms() {
        use Rotation::*;
        assert_eq!(Piece::I.canonical(South), (North, (-1, 0)));
        assert_eq!(Piece::I.canonical(West), (East, (0, 1)));
        assert_eq!(Piece::S.canonical(South), (North, (0, -1)));
        assert_eq!(Piece::Z.canonical(West), (East, (-1, 0)));
        assert_eq!(Piece::O.canonical(East), (North, (0, -1)));
        for p in [Piece::T, Piece::L, Piece::J] {
            for r in Rotation::ALL {
                assert_eq!(p.canonical(r), (r, (0, 0)));
            }
        }
        // Every canonical translation really maps cells onto cells.
        for p in Piece::ALL {
            for r in Rotation::ALL {
                let (c, (tx, ty)) = p.canonical(r);
                let mut a: Vec<_> = p.cells(r).to_vec();
                let mut b: Vec<_> = p.cells(c).iter().map(|&(x, y)| (x + tx, y + ty)).collect();
                a.sort();
                b.sort();
                assert_eq!(a, b, "{p:?} {r:?}");
            }
        }
    }
}
