//! `tetris-tt movegen`: every placement of a piece on a board.

use board::{Board, Piece, Placement, Rules, generate};
use serde_json::json;
use std::fmt::Write as _;

/// Reads a board from a text board file, standard input (`-`), or a fumen string (`v115@...`,
/// or a fumen URL), page `page` (default: the last). `None` is the empty board.
pub(crate) fn read_board(arg: Option<&str>, page: Option<usize>) -> Result<Board, String> {
    let Some(arg) = arg else {
        if page.is_some() {
            return Err("--page needs a fumen --board".into());
        }
        return Ok(Board::new());
    };
    if fumen::looks_like_fumen(arg) {
        return Ok(fumen_page(arg, page)?.field.board());
    }
    if page.is_some() {
        return Err("--page needs a fumen --board".into());
    }
    let text = match arg {
        "-" => std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read the board from standard input: {e}"))?,
        p => std::fs::read_to_string(p).map_err(|e| format!("cannot read board file {p}: {e}"))?,
    };
    if fumen::looks_like_fumen(&text) {
        return Ok(fumen_page(&text, page)?.field.board());
    }
    let where_ = if arg == "-" { "standard input" } else { arg };
    text.parse().map_err(|e| format!("{where_}: {e}"))
}

/// Page `page` (default: the last) of a fumen string.
pub(crate) fn fumen_page(s: &str, page: Option<usize>) -> Result<fumen::Page, String> {
    let mut pages = fumen::decode(s).map_err(|e| e.to_string())?;
    let n = pages.len();
    let i = page.unwrap_or(n - 1);
    if i >= n {
        return Err(format!(
            "--page {i}: the fumen has {n} pages (0 to {})",
            n - 1
        ));
    }
    Ok(pages.swap_remove(i))
}

/// The placements as text (each drawn on the board) or as JSON lines.
pub(crate) fn render(board: &Board, piece: Piece, rules: Rules, json_lines: bool) -> String {
    let placements = generate(board, piece, rules);
    let mut out = String::new();
    let costs = game::FrameCosts::default();
    for p in &placements {
        if json_lines {
            // The cheapest inputs in frames of the ppt arena: 2 per shift, turn or soft-dropped
            // row, a hard drop free (and final).
            let (frames, frame_inputs) = p
                .cheapest_inputs(board, rules, |i| costs.input(i))
                .map(|(f, path)| (f, path.iter().map(|i| i.name()).collect::<Vec<_>>()))
                .unwrap_or_default();
            let line = json!({
                "piece": p.piece.to_char().to_string(),
                "orientation": p.rotation.name(),
                "x": p.x,
                "y": p.y,
                "spin": p.spin.name(),
                "cells": p.cells().iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
                "lines": p.lines(board).count_ones(),
                "inputs": input_names(board, p, rules),
                "frames": frames,
                "frame_inputs": frame_inputs,
            });
            let _ = writeln!(out, "{line}");
        } else {
            draw(&mut out, board, p, rules);
        }
    }
    if !json_lines {
        let _ = writeln!(out, "{} placements of {piece}", placements.len());
    }
    out
}

/// The names of a shortest input sequence reaching `p`.
fn input_names(board: &Board, p: &Placement, rules: Rules) -> Vec<&'static str> {
    p.inputs(board, rules)
        .unwrap_or_default()
        .iter()
        .map(|i| i.name())
        .collect()
}

fn draw(out: &mut String, board: &Board, p: &Placement, rules: Rules) {
    let inputs = input_names(board, p, rules);
    let _ = writeln!(
        out,
        "{} {} x={} y={} spin={} lines={} inputs: {}",
        p.piece,
        p.rotation,
        p.x,
        p.y,
        p.spin,
        p.lines(board).count_ones(),
        inputs.join(" ")
    );
    let cells = p.cells();
    let top = cells
        .iter()
        .map(|&(_, y)| y as u32 + 1)
        .max()
        .unwrap_or(0)
        .max(board.roof());
    for y in (0..top as i32).rev() {
        for x in 0..board::WIDTH as i32 {
            let c = if cells.contains(&(x as i8, y as i8)) {
                p.piece.to_char()
            } else if board.occupied(x, y) {
                '#'
            } else {
                '.'
            };
            out.push(c);
        }
        out.push('\n');
    }
    out.push('\n');
}
