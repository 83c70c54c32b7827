//! `tetris-tt fumen`: every page of a fumen, as the fumen test cases write them.

use crate::out::out;
use clap::Args;
use std::fmt::Write as _;

#[derive(Args)]
pub(crate) struct FumenArgs {
    /// Fumen strings (v115@...) or fumen URLs, or files (- for standard input) with one fumen
    /// a line, as `play --fumen-out` and `versus --fumen-out` write a long game. Their pages
    /// are numbered on as one game.
    #[arg(required = true, value_name = "FUMEN")]
    fumens: Vec<String>,
}

/// Every page of a fumen in the format of the fumen test cases: board rows top first
/// ('(empty)' for none), then the page's piece in the TBP frame, then its comment. Pages are
/// numbered from `first`.
pub(crate) fn show(s: &str, first: usize) -> Result<(String, usize), String> {
    let pages = fumen::decode(s).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for (i, page) in pages.iter().enumerate() {
        let _ = writeln!(out, "PAGE {}", first + i);
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
    Ok((out, pages.len()))
}

/// The fumen strings an argument stands for: itself, or a file's (or standard input's)
/// non-empty lines, each with where it came from for errors.
fn strings_of(arg: &str) -> Result<Vec<(String, String)>, String> {
    if fumen::looks_like_fumen(arg) {
        return Ok(vec![(String::new(), arg.to_string())]);
    }
    let (text, where_) = match arg {
        "-" => (
            std::io::read_to_string(std::io::stdin())
                .map_err(|e| format!("cannot read fumens from standard input: {e}"))?,
            "standard input",
        ),
        p => (
            std::fs::read_to_string(p).map_err(|e| {
                format!("{p} is neither a fumen (v115@...) nor a file that can be read: {e}")
            })?,
            p,
        ),
    };
    let lines: Vec<(String, String)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| (format!("{where_} line {}: ", n + 1), l.trim().to_string()))
        .collect();
    if lines.is_empty() {
        return Err(format!("{where_} holds no fumen"));
    }
    Ok(lines)
}

/// Runs the command.
pub(crate) fn run(a: FumenArgs) -> Result<(), String> {
    let mut text = String::new();
    let mut next = 0;
    for arg in &a.fumens {
        for (from, s) in strings_of(arg)? {
            let (shown, pages) = show(&s, next).map_err(|e| format!("{from}{e}"))?;
            text.push_str(&shown);
            next += pages;
        }
    }
    out!("{text}");
    Ok(())
}
