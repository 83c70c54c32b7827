//! Text boards: rows top first, `#` (or a piece letter, or `G`) filled, `.` empty.

use crate::board::{Board, HEIGHT, WIDTH};
use std::fmt;
use std::str::FromStr;

/// Why a text board could not be read. `line` is 1-based, counting every line of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseBoardError {
    /// The line the problem is on.
    pub line: usize,
    /// What is wrong there.
    pub kind: ParseBoardErrorKind,
}

/// The kinds of text-board error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardErrorKind {
    /// A row with other than 10 cells.
    Width(usize),
    /// A character that is neither `.`, `#`, `G` nor a piece letter.
    Char(char),
    /// More than 40 rows.
    TooManyRows,
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board line {}: ", self.line)?;
        match &self.kind {
            ParseBoardErrorKind::Width(w) => {
                write!(f, "expected {WIDTH} cells, found {w}")
            }
            ParseBoardErrorKind::Char(c) => write!(
                f,
                "unknown cell {c:?} (use '.' for empty, '#', 'G' or a piece letter for filled)"
            ),
            ParseBoardErrorKind::TooManyRows => write!(f, "more than {HEIGHT} rows"),
        }
    }
}

impl std::error::Error for ParseBoardError {}

impl FromStr for Board {
    type Err = ParseBoardError;

    /// Reads rows top first; the last row is y = 0. Blank lines are skipped and surrounding
    /// whitespace is trimmed.
    fn from_str(s: &str) -> Result<Board, ParseBoardError> {
        let rows: Vec<(usize, &str)> = s
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        let mut cols = [0u64; WIDTH];
        for (k, &(line, text)) in rows.iter().enumerate() {
            if k == HEIGHT {
                return Err(ParseBoardError {
                    line,
                    kind: ParseBoardErrorKind::TooManyRows,
                });
            }
            let y = rows.len() - 1 - k;
            let mut width = 0;
            for (x, c) in text.chars().enumerate() {
                width += 1;
                let filled = match c {
                    '.' => false,
                    '#' | 'G' | 'I' | 'O' | 'T' | 'L' | 'J' | 'S' | 'Z' => true,
                    other => {
                        return Err(ParseBoardError {
                            line,
                            kind: ParseBoardErrorKind::Char(other),
                        });
                    }
                };
                if filled && x < WIDTH {
                    cols[x] |= 1 << y;
                }
            }
            if width != WIDTH {
                return Err(ParseBoardError {
                    line,
                    kind: ParseBoardErrorKind::Width(width),
                });
            }
        }
        Ok(Board::from_columns(cols))
    }
}

impl fmt::Display for Board {
    /// Rows from the roof down to row 0, top first, `#` and `.`; at least one row, so the
    /// empty board prints as one empty row. Parsing the output gives the same board back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..self.roof().max(1) as i32).rev() {
            for x in 0..WIDTH as i32 {
                f.write_str(if self.occupied(x, y) { "#" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_line() {
        let e = "..........\n.........\n".parse::<Board>().unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.kind, ParseBoardErrorKind::Width(9));
        assert_eq!(e.to_string(), "board line 2: expected 10 cells, found 9");

        let e = "\n....x.....\n".parse::<Board>().unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.kind, ParseBoardErrorKind::Char('x'));

        let many = "..........\n".repeat(41);
        let e = many.parse::<Board>().unwrap_err();
        assert_eq!(e.line, 41);
        assert_eq!(e.kind, ParseBoardErrorKind::TooManyRows);
    }

    #[test]
    fn letters_count_as_filled_and_print_round_trips() {
        let b: Board = "T.........\n#GIOLJSZ..\n".parse().unwrap();
        assert_eq!(b.cell_count(), 9);
        assert_eq!(b.roof(), 2);
        assert!(b.occupied(0, 1));
        let text = b.to_string();
        assert_eq!(text, "#.........\n########..\n");
        assert_eq!(text.parse::<Board>().unwrap(), b);
        assert_eq!(
            Board::new().to_string().parse::<Board>().unwrap(),
            Board::new()
        );
    }
}
