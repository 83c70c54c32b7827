//! Fumen (`v115@...`), the format Tetris players share boards and games in: decoding and
//! encoding pages of a 10x23 field with an optional piece and comment.
//!
//! A fumen string is a list of pages. Each page has a field (23 rows and a garbage row), an
//! optional piece, a comment, and flags (whether the piece locks, whether the garbage row
//! rises, whether the field is mirrored). A page's field is the board before its piece locks;
//! the next page starts from that field with the piece locked and full rows cleared, and
//! stores only the difference. Pieces here are in the frame of `board` (the TBP frame of
//! rules.md); fumen stores some orientations of I, O, S and Z one cell over, and
//! [`to_stored`] / [`from_stored`] convert.
//!
//! ```
//! use fumen::{Cell, Page, decode, encode};
//!
//! let pages = decode("v115@VgA8IeA8IeB8FeE8DeG8CeG8BeG8CeH8AeE8JeAgH")?;
//! assert_eq!(pages.len(), 1);
//! let board = pages[0].field.board();
//! assert_eq!(board.roof(), 8);
//! assert!(board.occupied(0, 7) && !board.occupied(1, 7));
//! // Encoding the pages again gives a string that decodes to the same pages.
//! assert_eq!(decode(&encode(&pages))?, pages);
//! # Ok::<(), fumen::FumenError>(())
//! ```
#![deny(missing_docs)]

use board::{Board, Piece, Rotation};
use std::fmt;

/// Rows of the visible field.
pub const ROWS: usize = 23;
const WIDTH: usize = 10;
/// Cells per field, the garbage row included.
const CELLS: usize = (ROWS + 1) * WIDTH;
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/// The characters a comment is written with, in their code order (code = position).
const COMMENT_CHARS: &str = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";

/// A cell of a fumen field: empty, a piece's colour, or grey (garbage).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Empty.
    #[default]
    Empty,
    /// Filled with a piece's colour.
    Piece(Piece),
    /// Filled grey.
    Gray,
}

impl Cell {
    fn code(self) -> usize {
        match self {
            Cell::Empty => 0,
            Cell::Piece(p) => piece_code(p),
            Cell::Gray => 8,
        }
    }

    fn from_code(c: usize) -> Option<Cell> {
        Some(match c {
            0 => Cell::Empty,
            8 => Cell::Gray,
            c => Cell::Piece(piece_of_code(c)?),
        })
    }

    /// Whether the cell is filled.
    pub fn is_filled(self) -> bool {
        self != Cell::Empty
    }
}

/// Fumen's piece codes: I L O Z T J S = 1..7.
fn piece_code(p: Piece) -> usize {
    match p {
        Piece::I => 1,
        Piece::L => 2,
        Piece::O => 3,
        Piece::Z => 4,
        Piece::T => 5,
        Piece::J => 6,
        Piece::S => 7,
    }
}

fn piece_of_code(c: usize) -> Option<Piece> {
    Some(match c {
        1 => Piece::I,
        2 => Piece::L,
        3 => Piece::O,
        4 => Piece::Z,
        5 => Piece::T,
        6 => Piece::J,
        7 => Piece::S,
        _ => return None,
    })
}

/// Fumen's rotation codes: south, east, north, west = 0..3.
fn rotation_code(r: Rotation) -> usize {
    match r {
        Rotation::South => 0,
        Rotation::East => 1,
        Rotation::North => 2,
        Rotation::West => 3,
    }
}

fn rotation_of_code(c: usize) -> Rotation {
    [
        Rotation::South,
        Rotation::East,
        Rotation::North,
        Rotation::West,
    ][c & 3]
}

/// A piece on a page, in the `board` (TBP) frame: its rotation centre and orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PiecePlace {
    /// The piece.
    pub piece: Piece,
    /// Its orientation.
    pub rotation: Rotation,
    /// Centre x.
    pub x: i8,
    /// Centre y (0 = the bottom row).
    pub y: i8,
}

impl PiecePlace {
    /// Its four cells.
    pub fn cells(&self) -> [(i8, i8); 4] {
        self.piece
            .cells(self.rotation)
            .map(|(dx, dy)| (self.x + dx, self.y + dy))
    }

    /// Whether all its cells lie in the 10x23 field.
    pub fn in_field(&self) -> bool {
        self.cells()
            .iter()
            .all(|&(x, y)| (0..WIDTH as i8).contains(&x) && (0..ROWS as i8).contains(&y))
    }
}

/// The offset from the `board` frame's centre to the cell fumen stores for a piece: for O,
/// the top-left cell; for I, S and Z, one cell of the shape that the two orientations covering
/// the same cells share. Other pieces store their centre.
fn stored_offset(piece: Piece, rotation: Rotation) -> (i8, i8) {
    match (piece, rotation) {
        (Piece::O, Rotation::North) => (0, 1),
        (Piece::O, Rotation::South) => (-1, 0),
        (Piece::O, Rotation::West) => (-1, 1),
        (Piece::I, Rotation::South) => (-1, 0),
        (Piece::I, Rotation::West) => (0, 1),
        (Piece::S, Rotation::North) | (Piece::Z, Rotation::North) => (0, 1),
        (Piece::S, Rotation::East) => (1, 0),
        (Piece::Z, Rotation::West) => (-1, 0),
        _ => (0, 0),
    }
}

/// The position fumen stores for a piece placed at `place` (the `board` frame).
pub fn to_stored(place: &PiecePlace) -> (i8, i8) {
    let (dx, dy) = stored_offset(place.piece, place.rotation);
    (place.x + dx, place.y + dy)
}

/// The `board`-frame centre of a piece fumen stores at `(x, y)`.
pub fn from_stored(piece: Piece, rotation: Rotation, x: i8, y: i8) -> PiecePlace {
    let (dx, dy) = stored_offset(piece, rotation);
    PiecePlace {
        piece,
        rotation,
        x: x - dx,
        y: y - dy,
    }
}

/// A field: 23 rows (row 0 at the bottom) and the garbage row below them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Field {
    /// `rows[y][x]`.
    pub rows: [[Cell; WIDTH]; ROWS],
    /// The row that rises into the field on a page with the rise flag.
    pub garbage: [Cell; WIDTH],
}

impl Field {
    /// The filled cells as a board.
    pub fn board(&self) -> Board {
        let mut cols = [0u64; WIDTH];
        for (y, row) in self.rows.iter().enumerate() {
            for (x, c) in row.iter().enumerate() {
                if c.is_filled() {
                    cols[x] |= 1 << y;
                }
            }
        }
        Board::from_columns(cols)
    }

    /// A field showing `board` in grey (rows above the 23rd are dropped).
    pub fn from_board(board: &Board) -> Field {
        let mut f = Field::default();
        for (y, row) in f.rows.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                if board.occupied(x as i32, y as i32) {
                    *c = Cell::Gray;
                }
            }
        }
        f
    }

    fn cell(&self, i: usize) -> Cell {
        // Index 0 is the top-left cell; the last ten are the garbage row.
        if i >= ROWS * WIDTH {
            self.garbage[i - ROWS * WIDTH]
        } else {
            self.rows[ROWS - 1 - i / WIDTH][i % WIDTH]
        }
    }

    fn set(&mut self, i: usize, c: Cell) {
        if i >= ROWS * WIDTH {
            self.garbage[i - ROWS * WIDTH] = c;
        } else {
            self.rows[ROWS - 1 - i / WIDTH][i % WIDTH] = c;
        }
    }

    /// The field after a page: its piece locked (when it locks), full rows cleared, the
    /// garbage row risen and the field mirrored as the page's flags say.
    fn after(&self, page: &Page) -> Field {
        let mut f = *self;
        if page.lock {
            if let Some(p) = page.piece {
                for (x, y) in p.cells() {
                    if (0..WIDTH as i8).contains(&x) && (0..ROWS as i8).contains(&y) {
                        f.rows[y as usize][x as usize] = Cell::Piece(p.piece);
                    }
                }
            }
            let kept: Vec<[Cell; WIDTH]> = f
                .rows
                .iter()
                .copied()
                .filter(|r| r.iter().any(|c| !c.is_filled()))
                .collect();
            f.rows = [[Cell::Empty; WIDTH]; ROWS];
            f.rows[..kept.len()].copy_from_slice(&kept);
        }
        if page.rise {
            f.rows.copy_within(0..ROWS - 1, 1);
            f.rows[0] = f.garbage;
            f.garbage = [Cell::Empty; WIDTH];
        }
        if page.mirror {
            for r in &mut f.rows {
                r.reverse();
            }
        }
        f
    }
}

/// One page of a fumen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Page {
    /// The field before the piece locks.
    pub field: Field,
    /// The piece shown on the page.
    pub piece: Option<PiecePlace>,
    /// The page's comment (a page without its own comment repeats the last one).
    pub comment: String,
    /// Whether the piece locks into the next page's field (fumen's default).
    pub lock: bool,
    /// Whether the garbage row rises into the next page's field.
    pub rise: bool,
    /// Whether the next page's field is mirrored.
    pub mirror: bool,
}

impl Page {
    /// A page showing `field` with `piece`, locking it, with no comment.
    pub fn new(field: Field, piece: Option<PiecePlace>) -> Page {
        Page {
            field,
            piece,
            comment: String::new(),
            lock: true,
            rise: false,
            mirror: false,
        }
    }
}

/// Writes a game as fumen pages: one page per piece, showing the board before the piece and
/// the piece, with a comment; piece colours are kept from page to page, garbage shows grey.
#[derive(Clone, Debug, Default)]
pub struct GameWriter {
    pages: Vec<Page>,
    /// The field the last page leaves (its piece locked, rows cleared).
    next: Field,
}

impl GameWriter {
    /// An empty game.
    pub fn new() -> GameWriter {
        GameWriter::default()
    }

    /// Adds a page: `board` is the board the piece is placed on (it differs from the last
    /// page's result only when garbage came in: `garbage` rows pushed in at the bottom).
    pub fn push(&mut self, board: &Board, garbage: u32, piece: PiecePlace, comment: String) {
        let mut field = self.next;
        let g = (garbage as usize).min(ROWS);
        if g > 0 {
            field.rows.copy_within(0..ROWS - g, g);
            for row in &mut field.rows[..g] {
                *row = [Cell::Gray; WIDTH];
            }
        }
        // Follow the board exactly (colours where the two agree, grey for anything new).
        for (y, row) in field.rows.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                let filled = board.occupied(x as i32, y as i32);
                if filled != c.is_filled() {
                    *c = if filled { Cell::Gray } else { Cell::Empty };
                }
            }
        }
        let page = Page {
            comment,
            ..Page::new(field, Some(piece))
        };
        self.next = field.after(&page);
        self.pages.push(page);
    }

    /// The pages so far.
    pub fn pages(&self) -> &[Page] {
        &self.pages
    }

    /// The game as fumen strings of at most `max_len` characters each (one string when it
    /// fits). Each string stands alone: its first page carries the whole field.
    pub fn strings(&self, max_len: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut start = 0;
        while start < self.pages.len() {
            // The most pages from `start` that fit, found by halving.
            let (mut lo, mut hi) = (1, self.pages.len() - start);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if encode(&self.pages[start..start + mid]).len() <= max_len {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            out.push(encode(&self.pages[start..start + lo]));
            start += lo;
        }
        out
    }
}

/// Why a string is not a fumen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FumenError(String);

impl fmt::Display for FumenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a valid fumen: {}", self.0)
    }
}

impl std::error::Error for FumenError {}

fn bad<T>(why: impl Into<String>) -> Result<T, FumenError> {
    Err(FumenError(why.into()))
}

/// Whether `s` looks like a fumen (a `v115@` string, alone or at the end of a fumen URL).
pub fn looks_like_fumen(s: &str) -> bool {
    s.trim().contains("115@")
}

/// The characters of a fumen body, without the '?' marks and spaces fumen inserts.
struct Reader {
    chars: Vec<u8>,
    at: usize,
}

impl Reader {
    fn digit(&mut self) -> Result<usize, FumenError> {
        let c = *self
            .chars
            .get(self.at)
            .ok_or(FumenError("it ends in the middle of a page".into()))?;
        self.at += 1;
        ALPHABET
            .iter()
            .position(|&a| a == c)
            .ok_or_else(|| FumenError(format!("{:?} is not a fumen character", c as char)))
    }

    fn number(&mut self, digits: u32) -> Result<usize, FumenError> {
        let mut n = 0;
        for i in 0..digits {
            n += self.digit()? * 64usize.pow(i);
        }
        Ok(n)
    }

    fn at_end(&self) -> bool {
        self.at >= self.chars.len()
    }
}

/// Decodes a fumen string (`v115@...`, or a fumen URL ending in one).
// One idea: one pass over the format, page by page, as its fields come.
pub fn decode(s: &str) -> Result<Vec<Page>, FumenError> {
    let s = s.trim();
    let Some(at) = s.find("115@") else {
        return bad("it does not contain a v115@ fumen");
    };
    if !matches!(s[..at].chars().last(), Some('v' | 'm' | 'd')) {
        return bad("only version 115 (v115@) fumens are read");
    }
    // '@' is not a fumen character, so a second version mark is a second fumen: a long game
    // written one fumen a line, passed whole.
    if s[at + 4..].contains("115@") {
        return bad("it holds more than one fumen; give them one at a time");
    }
    let mut r = Reader {
        chars: s[at + 4..]
            .bytes()
            .filter(|c| !matches!(c, b'?' | b' ' | b'\n' | b'\r' | b'\t'))
            .collect(),
        at: 0,
    };
    let mut pages = Vec::new();
    let mut field = Field::default();
    let mut comment = String::new();
    let mut repeat = 0;
    while !r.at_end() {
        // The field, as differences from the field the last page left.
        if repeat > 0 {
            repeat -= 1;
        } else {
            let mut i = 0;
            let mut unchanged = false;
            while i < CELLS {
                let n = r.number(2)?;
                let (diff, run) = (n / CELLS, n % CELLS + 1);
                if diff > 16 || i + run > CELLS {
                    return bad(format!(
                        "a field run overflows the field at page {}",
                        pages.len()
                    ));
                }
                // One run over the whole field with no change: a repeat count follows.
                unchanged = diff == 8 && run == CELLS;
                for k in i..i + run {
                    let c = field.cell(k).code() + diff;
                    let cell = c.checked_sub(8).and_then(Cell::from_code).ok_or_else(|| {
                        FumenError(format!(
                            "a cell colour out of range at page {}",
                            pages.len()
                        ))
                    })?;
                    field.set(k, cell);
                }
                i += run;
            }
            if unchanged {
                repeat = r.digit()?;
            }
        }
        // The piece and the flags.
        let n = r.number(3)?;
        let (kind, rot, pos, flags) = (n % 8, n / 8 % 4, n / 32 % CELLS, n / 32 / CELLS);
        let piece = match piece_of_code(kind) {
            None => None,
            Some(p) => {
                if pos >= ROWS * WIDTH {
                    return bad(format!("a piece below the field at page {}", pages.len()));
                }
                let (x, y) = ((pos % WIDTH) as i8, (ROWS - 1 - pos / WIDTH) as i8);
                let place = from_stored(p, rotation_of_code(rot), x, y);
                if !place.in_field() {
                    return bad(format!("a piece outside the field at page {}", pages.len()));
                }
                Some(place)
            }
        };
        if flags & 8 != 0 {
            let len = r.number(2)?;
            let mut text = String::with_capacity(len);
            let mut left = len;
            while left > 0 {
                let mut n = r.number(5)?;
                for _ in 0..left.min(4) {
                    let ch = COMMENT_CHARS.chars().nth(n % 96).ok_or_else(|| {
                        FumenError(format!(
                            "a comment character out of range at page {}",
                            pages.len()
                        ))
                    })?;
                    text.push(ch);
                    n /= 96;
                    left -= 1;
                }
            }
            comment = unescape(&text);
        }
        let page = Page {
            field,
            piece,
            comment: comment.clone(),
            lock: flags & 16 == 0,
            rise: flags & 1 != 0,
            mirror: flags & 2 != 0,
        };
        field = field.after(&page);
        pages.push(page);
    }
    if pages.is_empty() {
        return bad("it has no page");
    }
    Ok(pages)
}

struct Writer(String);

impl Writer {
    fn number(&mut self, mut n: usize, digits: u32) {
        for _ in 0..digits {
            self.0.push(ALPHABET[n % 64] as char);
            n /= 64;
        }
    }
}

/// Encodes pages as a `v115@` fumen string. Comments are written where they change; pieces
/// outside the field are dropped.
pub fn encode(pages: &[Page]) -> String {
    let mut w = Writer(String::new());
    let mut prev = Field::default();
    let mut comment = String::new();
    // Where the last unchanged field's repeat count sits, and how many pages it covers.
    let mut repeat: Option<(usize, usize)> = None;
    for (n, page) in pages.iter().enumerate() {
        let diffs: Vec<usize> = (0..CELLS)
            .map(|i| page.field.cell(i).code() + 8 - prev.cell(i).code())
            .collect();
        let unchanged = diffs.iter().all(|&d| d == 8);
        match repeat {
            Some((at, count)) if unchanged && count < 63 => {
                repeat = Some((at, count + 1));
                let digit = ALPHABET[count + 1] as char;
                w.0.replace_range(at..at + 1, &digit.to_string());
            }
            _ => {
                let mut i = 0;
                while i < CELLS {
                    let mut run = 1;
                    while i + run < CELLS && diffs[i + run] == diffs[i] {
                        run += 1;
                    }
                    w.number(diffs[i] * CELLS + run - 1, 2);
                    i += run;
                }
                repeat = None;
                if unchanged {
                    repeat = Some((w.0.len(), 0));
                    w.number(0, 1);
                }
            }
        }
        let piece = page.piece.filter(PiecePlace::in_field);
        let (kind, rot, pos) = match piece {
            None => (0, 0, 0),
            Some(p) => {
                let (x, y) = to_stored(&p);
                (
                    piece_code(p.piece),
                    rotation_code(p.rotation),
                    (ROWS - 1 - y as usize) * WIDTH + x as usize,
                )
            }
        };
        let with_comment = page.comment != comment || (n == 0 && !page.comment.is_empty());
        let flags = (page.rise as usize)
            | ((page.mirror as usize) << 1)
            | ((n == 0) as usize) << 2
            | ((with_comment as usize) << 3)
            | ((!page.lock as usize) << 4);
        w.number(kind + rot * 8 + pos * 32 + flags * 32 * CELLS, 3);
        if with_comment {
            let escaped: Vec<usize> = escape(&page.comment)
                .chars()
                .take(4095)
                .map(|c| COMMENT_CHARS.find(c).unwrap_or(0))
                .collect();
            w.number(escaped.len(), 2);
            for chunk in escaped.chunks(4) {
                let n = chunk.iter().rev().fold(0, |acc, &c| acc * 96 + c);
                w.number(n, 5);
            }
            comment = page.comment.clone();
        }
        prev = page.field.after(page);
    }
    // Fumen strings carry a '?' every 47 characters after the first 42, as fumen writes them.
    let body = w.0;
    let mut out = String::from("v115@");
    for (i, c) in body.chars().enumerate() {
        if i >= 42 && (i - 42) % 47 == 0 {
            out.push('?');
        }
        out.push(c);
    }
    out
}

/// JavaScript's `escape`: ASCII letters, digits and `@*_+-./` stay, other characters below 256
/// become `%XX`, the rest `%uXXXX` (UTF-16 units).
fn escape(s: &str) -> String {
    let mut out = String::new();
    let mut buf = [0u16; 2];
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || "@*_+-./".contains(c) {
            out.push(c);
        } else {
            for unit in c.encode_utf16(&mut buf) {
                if *unit < 256 {
                    out.push_str(&format!("%{unit:02X}"));
                } else {
                    out.push_str(&format!("%u{unit:04X}"));
                }
            }
        }
    }
    out
}

/// JavaScript's `unescape`; malformed escapes are kept as they are.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut units: Vec<u16> = Vec::new();
    let mut i = 0;
    let hex = |t: &[u8]| {
        std::str::from_utf8(t)
            .ok()
            .and_then(|t| u16::from_str_radix(t, 16).ok())
    };
    while i < b.len() {
        if b[i] == b'%' {
            if b.get(i + 1) == Some(&b'u')
                && let Some(v) = b.get(i + 2..i + 6).and_then(hex)
            {
                units.push(v);
                i += 6;
                continue;
            }
            if let Some(v) = b.get(i + 1..i + 3).and_then(hex) {
                units.push(v);
                i += 3;
                continue;
            }
        }
        units.push(b[i] as u16);
        i += 1;
    }
    String::from_utf16_lossy(&units)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_round_trips_like_javascript() {
        for s in [
            "attack 4, combo 2, b2b",
            "100% ok?",
            "ＴＥＴＲＩＳ é 🎉",
            "",
        ] {
            assert_eq!(unescape(&escape(s)), s);
        }
        assert_eq!(escape("a b,é"), "a%20b%2C%E9");
        assert_eq!(escape("あ"), "%u3042");
    }

    #[test]
    fn comments_and_repeated_fields_round_trip() {
        let mut f = Field::default();
        f.rows[0][0] = Cell::Gray;
        let piece = PiecePlace {
            piece: Piece::T,
            rotation: Rotation::North,
            x: 4,
            y: 0,
        };
        let pages = vec![
            Page {
                comment: "hello, fumen".into(),
                ..Page::new(f, Some(piece))
            },
            Page {
                lock: false,
                comment: "hello, fumen".into(),
                ..Page::new(Field::default(), None)
            },
            Page {
                comment: "second".into(),
                ..Page::new(Field::default(), None)
            },
            Page {
                comment: "second".into(),
                ..Page::new(Field::default(), None)
            },
        ];
        // Page 2's field is page 1's after its T locked; an unlocked page changes nothing.
        let mut pages = pages;
        pages[1].field = f.after(&pages[0]);
        pages[2].field = pages[1].field;
        pages[3].field = pages[1].field;
        let s = encode(&pages);
        assert_eq!(decode(&s).unwrap(), pages, "{s}");
    }

    #[test]
    fn a_long_game_splits_into_strings_that_each_stand_alone() {
        let mut w = GameWriter::new();
        let mut board = Board::new();
        let moves = [
            (Piece::I, Rotation::North, 1, 0),
            (Piece::I, Rotation::North, 5, 0),
            (Piece::O, Rotation::North, 8, 0),
        ];
        for i in 0..120 {
            let (piece, rotation, x, y) = moves[i % 3];
            let place = PiecePlace {
                piece,
                rotation,
                x,
                y,
            };
            w.push(&board, 0, place, format!("move {i}"));
            board.place(piece, rotation, x as i32, y as i32);
        }
        let all = w.strings(usize::MAX);
        assert_eq!(all.len(), 1);
        let parts = w.strings(300);
        assert!(parts.len() > 1);
        let mut pages = Vec::new();
        for p in &parts {
            assert!(p.len() <= 300, "{}", p.len());
            pages.extend(decode(p).unwrap());
        }
        assert_eq!(pages, w.pages());
        assert_eq!(pages.len(), 120);
        // Colours travel: the third page shows the two I pieces of the first two in colour.
        assert_eq!(pages[2].field.rows[0][0], Cell::Piece(Piece::I));
    }

    #[test]
    fn malformed_strings_are_errors_not_panics() {
        for s in [
            "",
            "v115@",
            "hello",
            "v114@vhAAgH",
            "v115@!!!",
            "v115@vh",
            "v115@vhAx1B",
            "v115@vhAxzB",
            "v115@/////////////",
            "v115@AA",
        ] {
            assert!(decode(s).is_err(), "{s:?} decoded");
        }
    }
}
