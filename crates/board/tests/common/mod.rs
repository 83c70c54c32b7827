//! A slow, obvious reference for move generation, written from rules.md independently of the
//! crate's flood: its own collision test, its own turn-with-kicks, its own 3-corner rule and a
//! plain breadth-first search. Only the cell and kick tables come from the crate (they are
//! checked against rules.md in the crate's unit tests).

#![allow(dead_code)]

use board::{Board, Input, Piece, Rotation, Rules, Spin, Turn, kicks};
use std::collections::{BTreeSet, HashSet, VecDeque};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct State {
    pub(crate) rot: Rotation,
    pub(crate) x: i32,
    pub(crate) y: i32,
    /// How the last successful input moved the piece: None = slid or spawned, Some(test) = turned.
    pub(crate) turned: Option<usize>,
}

pub(crate) type Key = (Vec<(i32, i32)>, Spin);

pub(crate) fn filled(board: &Board, x: i32, y: i32) -> bool {
    !(0..10).contains(&x) || !(0..40).contains(&y) || board.columns()[x as usize] >> y & 1 == 1
}

pub(crate) fn cells(piece: Piece, s: &State) -> Vec<(i32, i32)> {
    let mut v: Vec<_> = piece
        .cells(s.rot)
        .iter()
        .map(|&(dx, dy)| (s.x + dx as i32, s.y + dy as i32))
        .collect();
    v.sort();
    v
}

pub(crate) fn ok(board: &Board, piece: Piece, s: &State) -> bool {
    cells(piece, s).iter().all(|&(x, y)| !filled(board, x, y))
}

pub(crate) fn spawn(board: &Board, piece: Piece) -> Option<State> {
    [19, 20]
        .into_iter()
        .map(|y| State {
            rot: Rotation::North,
            x: 4,
            y,
            turned: None,
        })
        .find(|s| ok(board, piece, s))
}

/// One input by the plain rules; `None` when it fails.
pub(crate) fn step(
    board: &Board,
    piece: Piece,
    rules: Rules,
    s: &State,
    input: Input,
) -> Option<State> {
    let slide = |dx: i32, dy: i32| {
        let t = State {
            x: s.x + dx,
            y: s.y + dy,
            turned: None,
            ..*s
        };
        ok(board, piece, &t).then_some(t)
    };
    let turn = |turn: Turn| {
        let to = turn.apply(s.rot);
        kicks(piece, s.rot, turn, rules)
            .tests()
            .iter()
            .enumerate()
            .find_map(|(i, &(kx, ky))| {
                let t = State {
                    rot: to,
                    x: s.x + kx as i32,
                    y: s.y + ky as i32,
                    turned: Some(i),
                };
                ok(board, piece, &t).then_some(t)
            })
    };
    match input {
        Input::Left => slide(-1, 0),
        Input::Right => slide(1, 0),
        Input::SoftDrop => slide(0, -1),
        Input::HardDrop => {
            let mut t = slide(0, -1)?;
            while let Some(u) = step(board, piece, rules, &t, Input::SoftDrop) {
                t = u;
            }
            Some(t)
        }
        Input::Cw => turn(Turn::Cw),
        Input::Ccw => turn(Turn::Ccw),
        Input::Half => {
            if rules == Rules::SrsPlus {
                turn(Turn::Half)
            } else {
                None
            }
        }
    }
}

pub(crate) fn resting(board: &Board, piece: Piece, s: &State) -> bool {
    !ok(board, piece, &State { y: s.y - 1, ..*s })
}

pub(crate) fn spin(board: &Board, piece: Piece, s: &State) -> Spin {
    let Some(test) = s.turned else {
        return Spin::None;
    };
    if piece != Piece::T {
        return Spin::None;
    }
    let c = |dx: i32, dy: i32| filled(board, s.x + dx, s.y + dy);
    let (tl, tr, bl, br) = (c(-1, 1), c(1, 1), c(-1, -1), c(1, -1));
    if [tl, tr, bl, br].iter().filter(|&&b| b).count() < 3 {
        return Spin::None;
    }
    let front = match s.rot {
        Rotation::North => tl && tr,
        Rotation::East => tr && br,
        Rotation::South => bl && br,
        Rotation::West => tl && bl,
    };
    if front || test == 4 {
        Spin::Full
    } else {
        Spin::Mini
    }
}

pub(crate) const INPUTS: [Input; 7] = [
    Input::Left,
    Input::Right,
    Input::Cw,
    Input::Ccw,
    Input::Half,
    Input::SoftDrop,
    Input::HardDrop,
];

/// Every (cells, spin) a piece can lock with, by breadth-first search over every state.
pub(crate) fn reference(board: &Board, piece: Piece, rules: Rules) -> BTreeSet<Key> {
    reference_spawning(board, piece, rules, true)
}

/// Like [`reference`]; without `rise`, a piece whose spawn position (row 19) is blocked has no
/// placements instead of trying row 20.
pub(crate) fn reference_spawning(
    board: &Board,
    piece: Piece,
    rules: Rules,
    rise: bool,
) -> BTreeSet<Key> {
    let mut out = BTreeSet::new();
    let start = match spawn(board, piece) {
        Some(s) if rise || s.y == 19 => s,
        _ => return out,
    };
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(start);
    queue.push_back(start);
    while let Some(s) = queue.pop_front() {
        if resting(board, piece, &s) {
            out.insert((cells(piece, &s), spin(board, piece, &s)));
        }
        for input in INPUTS {
            if let Some(t) = step(board, piece, rules, &s, input)
                && seen.insert(t)
            {
                queue.push_back(t);
            }
        }
    }
    out
}

/// Every position (orientation index, centre x, centre y) a piece can be moved to from its
/// spawn (rising when blocked), resting or not, by the same breadth-first search.
pub(crate) fn reachable(board: &Board, piece: Piece, rules: Rules) -> BTreeSet<(usize, i32, i32)> {
    let mut out = BTreeSet::new();
    let Some(start) = spawn(board, piece) else {
        return out;
    };
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(start);
    queue.push_back(start);
    while let Some(s) = queue.pop_front() {
        out.insert((s.rot as usize, s.x, s.y));
        for input in INPUTS {
            if let Some(t) = step(board, piece, rules, &s, input)
                && seen.insert(t)
            {
                queue.push_back(t);
            }
        }
    }
    out
}

/// Replays `inputs` from spawn; returns where the piece locks and its spin kind.
pub(crate) fn replay(board: &Board, piece: Piece, rules: Rules, inputs: &[Input]) -> Option<Key> {
    let mut s = spawn(board, piece)?;
    for &i in inputs {
        s = step(board, piece, rules, &s, i)?;
    }
    resting(board, piece, &s).then(|| (cells(piece, &s), spin(board, piece, &s)))
}

/// The key of a generated placement.
pub(crate) fn key_of(p: &board::Placement) -> Key {
    let mut c: Vec<_> = p
        .cells()
        .iter()
        .map(|&(x, y)| (x as i32, y as i32))
        .collect();
    c.sort();
    (c, p.spin)
}
