//! A board that remembers which piece filled each cell, for drawing. The engine's bitboard
//! forgets colours; this one mirrors it.

use anstyle::{Ansi256Color, AnsiColor, Color, Style};
use board::{HEIGHT, Piece, Placement, WIDTH};

/// Cell contents: empty, or the piece that filled it. (Self-play has no garbage.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Cell {
    Empty,
    Piece(Piece),
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
}

pub(crate) fn style(cell: Cell) -> Style {
    let color: Color = match cell {
        Cell::Empty => return Style::new(),
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
