//! `tetris-tt movegen`: every placement of a piece on a board.

use crate::out::out;
use crate::settings::{self, RulesArg, parse_piece_arg};
use board::{Board, Piece, Placement, Rules, generate};
use clap::Args;
use serde_json::json;
use std::fmt::Write as _;

#[derive(Args)]
pub(crate) struct MovegenArgs {
    /// The piece: I, O, T, L, J, S or Z.
    #[arg(long, value_parser = parse_piece_arg)]
    piece: Piece,
    /// The board: a text board file (rows top first, '#' filled, '.' empty), - for standard
    /// input, or a fumen string. Without it the board is empty.
    #[arg(long, value_name = "FILE|FUMEN")]
    board: Option<String>,
    /// With a fumen board, the page to read (default: the last).
    #[arg(long, value_name = "N")]
    page: Option<usize>,
    /// Rotation system.
    #[arg(long, value_enum, default_value = "srs")]
    rules: RulesArg,
    /// One JSON object per placement (with its cheapest inputs in ppt frames).
    #[arg(long)]
    json: bool,
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

/// Runs the command.
pub(crate) fn run(a: MovegenArgs) -> Result<(), String> {
    let board = settings::read_board(a.board.as_deref(), a.page)?;
    out!("{}", render(&board, a.piece, a.rules.into(), a.json));
    Ok(())
}
