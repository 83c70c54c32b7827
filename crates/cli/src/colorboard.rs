//! A board that remembers which piece filled each cell, for drawing. The engine's bitboard
//! forgets colours; this one mirrors it.

use anstyle::{Ansi256Color, AnsiColor, Color, Style};
use board::{HEIGHT, Piece, Placement, WIDTH};

/// Cell contents: empty, the piece that filled it, or garbage.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Cell {
    Empty,
    Piece(Piece),
    Garbage,
}

pub(crate) struct ColorBoard {
    rows: Vec<[Cell; WIDTH]>,
}

impl ColorBoard {
    pub(crate) fn new() -> ColorBoard {
        ColorBoard {
            rows: vec![[Cell::Empty; WIDTH]; HEIGHT],
        }
    }

    /// Locks a placement and clears full rows, as the bitboard does.
    pub(crate) fn place(&mut self, p: &Placement) {
        for (x, y) in p.cells() {
            self.rows[y as usize][x as usize] = Cell::Piece(p.piece);
        }
        self.rows.retain(|r| r.contains(&Cell::Empty));
        self.rows.resize(HEIGHT, [Cell::Empty; WIDTH]);
    }

    pub(crate) fn cell(&self, x: usize, y: usize) -> Cell {
        self.rows[y][x]
    }

    /// After `place`, follows the real board when `garbage` rows came in at the bottom: the
    /// colours move up and the new rows show as garbage. Any cell that still disagrees with
    /// the board (which never happens when the two are in step) is taken from the board.
    pub(crate) fn sync(&mut self, board: &board::Board, garbage: u32) {
        let g = (garbage as usize).min(HEIGHT);
        self.rows.truncate(HEIGHT - g);
        for _ in 0..g {
            self.rows.insert(0, [Cell::Garbage; WIDTH]);
        }
        for (y, row) in self.rows.iter_mut().enumerate() {
            for (x, c) in row.iter_mut().enumerate() {
                let filled = board.occupied(x as i32, y as i32);
                if filled != (*c != Cell::Empty) {
                    *c = if filled { Cell::Garbage } else { Cell::Empty };
                }
            }
        }
    }
}

pub(crate) fn style(cell: Cell) -> Style {
    let color: Color = match cell {
        Cell::Empty => return Style::new(),
        Cell::Garbage => AnsiColor::BrightBlack.into(),
        Cell::Piece(p) => match p {
            Piece::I => AnsiColor::Cyan.into(),
            Piece::O => AnsiColor::Yellow.into(),
            Piece::T => AnsiColor::Magenta.into(),
            Piece::L => Ansi256Color(208).into(),
            Piece::J => AnsiColor::Blue.into(),
            Piece::S => AnsiColor::Green.into(),
            Piece::Z => AnsiColor::Red.into(),
        },
    };
    Style::new().fg_color(Some(color))
}

/// Two characters per cell: coloured blocks, or a dim dot for an empty cell.
pub(crate) fn draw_cell(out: &mut String, cell: Cell, color: bool) {
    match (cell, color) {
        (Cell::Empty, _) => out.push_str(" ."),
        (c, true) => {
            let s = style(c);
            out.push_str(&format!("{s}██{s:#}"));
        }
        (Cell::Piece(p), false) => {
            out.push(p.to_char());
            out.push(p.to_char());
        }
        (Cell::Garbage, false) => out.push_str("GG"),
    }
}

/// A piece's north shape in a 4x2 box, for hold and queue.
pub(crate) fn mini(piece: Piece, row: i8, color: bool) -> String {
    let mut s = String::new();
    for x in -1..3i8 {
        let filled = piece
            .cells(board::Rotation::North)
            .iter()
            .any(|&(dx, dy)| dx == x && dy == row);
        if filled {
            draw_cell(&mut s, Cell::Piece(piece), color);
        } else {
            s.push_str("  ");
        }
    }
    s
}
