//! `tetris-tt fumen`: every page of a fumen, as the fumen test cases write them.

use crate::out::out;
use clap::Args;
use std::fmt::Write as _;

#[derive(Args)]
pub(crate) struct FumenArgs {
    /// A fumen string (v115@...) or a fumen URL.
    fumen: String,
}

/// Every page of a fumen in the format of the fumen test cases: board rows top first
/// ('(empty)' for none), then the page's piece in the TBP frame, then its comment.
pub(crate) fn show(s: &str) -> Result<String, String> {
    let pages = fumen::decode(s).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for (i, page) in pages.iter().enumerate() {
        let _ = writeln!(out, "PAGE {i}");
        let board = page.field.board();
        if board.roof() == 0 {
            out.push_str("(empty)\n");
        }
        for y in (0..board.roof() as i32).rev() {
            for x in 0..board::WIDTH as i32 {
                out.push(if board.occupied(x, y) { '#' } else { '.' });
            }
            out.push('\n');
        }
        if let Some(p) = page.piece {
            let _ = writeln!(out, "PIECE {} {} {} {}", p.piece, p.rotation, p.x, p.y);
        }
        if !page.comment.is_empty() && (i == 0 || pages[i - 1].comment != page.comment) {
            let _ = writeln!(out, "COMMENT {}", page.comment);
        }
    }
    Ok(out)
}

/// Runs the command.
pub(crate) fn run(a: FumenArgs) -> Result<(), String> {
    out!("{}", show(&a.fumen)?);
    Ok(())
}
