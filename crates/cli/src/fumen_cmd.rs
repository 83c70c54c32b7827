//! `tetris-tt fumen` (show what a fumen holds) and `tetris-tt suggest` (ask the engine about a
//! position), and the fumen pages of a played game.

use board::{Board, Piece, Placement};
use fumen::{GameWriter, PiecePlace};
use game::{Carried, GameState};

use search::{Config, DefaultEvaluator, Engine, Weights};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// The longest fumen string written: 8,000 characters keeps a string inside the request-line
/// limit of common web servers (8,190 bytes by default), so fumen.zui.jp and other viewers
/// open it from a URL, and inside what chat services take in one message with room to spare.
pub(crate) const MAX_FUMEN_LEN: usize = 8000;

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

/// A placement as a fumen piece.
pub(crate) fn place(p: &Placement) -> PiecePlace {
    PiecePlace {
        piece: p.piece,
        rotation: p.rotation,
        x: p.x,
        y: p.y,
    }
}

/// A page comment for a move: what it sent and the chains after it.
pub(crate) fn comment(o: &game::Outcome, attack: u32) -> String {
    let mut c = format!("attack {attack}, combo {}", o.carried.combo);
    if o.carried.b2b {
        c.push_str(", b2b");
    }
    if o.perfect_clear {
        c.push_str(", perfect clear");
    }
    c
}

/// What `suggest` is asked.
pub(crate) struct Question {
    pub(crate) board: Board,
    pub(crate) queue: Vec<Piece>,
    pub(crate) hold: Option<Piece>,
    pub(crate) carried: Carried,
    pub(crate) think: Option<Duration>,
    pub(crate) config: Config,
    pub(crate) weights: Weights,
    pub(crate) fumen: bool,
}

fn describe(p: &Placement) -> String {
    format!(
        "{} {} x={} y={} spin={}",
        p.piece, p.rotation, p.x, p.y, p.spin
    )
}

/// Asks the engine for the best move, and prints it, its alternatives and the planned line
/// (with `fumen`, the line as a fumen string).
pub(crate) fn suggest(q: Question) -> Result<String, String> {
    let (&current, rest) = q
        .queue
        .split_first()
        .ok_or("--queue needs at least one piece")?;
    let state = GameState {
        board: q.board,
        hold: q.hold,
        carried: q.carried,
        ..GameState::new(current, rest.to_vec())
    };
    let mut engine = Engine::new(q.config, DefaultEvaluator::new(q.weights));
    let start = Instant::now();
    let plan = match q.think {
        Some(t) => engine.search(&state, search::Budget::Until(start + t)),
        None => engine.suggest(&state),
    }
    .ok_or("no piece can be placed: the game is over")?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "best: {}{}",
        describe(&plan.placement),
        if plan.uses_hold { " (hold)" } else { "" }
    );
    for a in &plan.alternatives {
        let _ = writeln!(out, "also: {}", describe(a));
    }
    // Play the line out on a copy of the board, for the attack and the fumen pages.
    let (mut board, mut carried) = (state.board, state.carried);
    let mut writer = GameWriter::new();
    let _ = writeln!(
        out,
        "line ({} moves, score {}):",
        plan.line.len(),
        plan.score
    );
    for (p, &hold) in plan.line.iter().zip(&plan.line_holds) {
        let before = board;
        let outcome = game::lock(&mut board, p, carried);
        carried = outcome.carried;
        writer.push(&before, 0, place(p), comment(&outcome, outcome.attack));
        let _ = writeln!(
            out,
            "  {}{}: {} lines, {} attack",
            describe(p),
            if hold { " (hold)" } else { "" },
            outcome.lines,
            outcome.attack
        );
    }
    let _ = writeln!(
        out,
        "searched {} nodes in {:.1} ms (beam {}, depth {})",
        plan.stats.nodes,
        plan.stats.elapsed.as_secs_f64() * 1000.0,
        plan.stats.width,
        plan.stats.search_depth
    );
    if q.fumen {
        for s in writer.strings(MAX_FUMEN_LEN) {
            let _ = writeln!(out, "{s}");
        }
    }
    Ok(out)
}

/// Parses a queue of piece letters (`TIOLJ`).
pub(crate) fn parse_queue(s: &str) -> Result<Vec<Piece>, String> {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| {
            Piece::from_char(c.to_ascii_uppercase())
                .ok_or_else(|| format!("--queue {s:?}: {c:?} is not a piece (I O T L J S Z)"))
        })
        .collect()
}
