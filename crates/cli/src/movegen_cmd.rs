//! `tetris-tt movegen`: every placement of a piece on a board.

use board::{Board, Piece, Placement, Rules, generate};
use serde_json::json;
use std::fmt::Write as _;

/// Reads a text board from a file, or from standard input for `-`.
pub(crate) fn read_board(path: Option<&str>) -> Result<Board, String> {
    let text = match path {
        None => return Ok(Board::new()),
        Some("-") => std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read the board from standard input: {e}"))?,
        Some(p) => {
            std::fs::read_to_string(p).map_err(|e| format!("cannot read board file {p}: {e}"))?
        }
    };
    let where_ = path.filter(|p| *p != "-").unwrap_or("standard input");
    text.parse().map_err(|e| format!("{where_}: {e}"))
}

/// The placements as text (each drawn on the board) or as JSON lines.
pub(crate) fn render(board: &Board, piece: Piece, rules: Rules, json_lines: bool) -> String {
    let placements = generate(board, piece, rules);
    let mut out = String::new();
    for p in &placements {
        if json_lines {
            let line = json!({
                "piece": p.piece.to_char().to_string(),
                "orientation": p.rotation.name(),
                "x": p.x,
                "y": p.y,
                "spin": p.spin.name(),
                "cells": p.cells().iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
                "lines": p.lines(board).count_ones(),
                "inputs": input_names(board, p, rules),
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
