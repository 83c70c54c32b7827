//! `tetris-tt suggest`: the engine's move in a position, its alternatives and its line.

use crate::fumen_out::{MAX_FUMEN_LEN, comment, place};
use crate::out::out;
use crate::settings::{self, EngineArgs, parse_piece_arg};
use board::{Board, Piece, Placement};
use clap::Args;
use fumen::GameWriter;
use game::{Carried, GameState};
use search::{Config, DefaultEvaluator, Engine, Weights};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

#[derive(Args)]
pub(crate) struct SuggestArgs {
    /// The board: a text board file, - for standard input, or a fumen string. Without it the
    /// board is empty.
    #[arg(long, value_name = "FILE|FUMEN")]
    board: Option<String>,
    /// With a fumen board, the page to read (default: the last).
    #[arg(long, value_name = "N")]
    page: Option<usize>,
    /// The current piece and the previews, for example TIOLJS.
    #[arg(long)]
    queue: String,
    /// The held piece.
    #[arg(long, value_parser = parse_piece_arg)]
    hold: Option<Piece>,
    /// A back-to-back chain is active.
    #[arg(long)]
    b2b: bool,
    /// Clears in a row so far.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    combo: u32,
    /// Think this long (the beam widens); without it, one search at the fixed width.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=60_000))]
    think_ms: Option<u64>,
    /// Also print the planned line as a fumen string, to paste into a viewer.
    #[arg(long)]
    fumen: bool,
    #[command(flatten)]
    engine: EngineArgs,
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

/// Runs the command.
pub(crate) fn run(a: SuggestArgs) -> Result<(), String> {
    let (config, weights) = a.engine.settings()?;
    let threads = settings::SearchThreads::start(&config)?;
    let question = Question {
        board: settings::read_board(a.board.as_deref(), a.page)?,
        queue: settings::parse_queue(&a.queue)?,
        hold: a.hold,
        carried: game::Carried {
            b2b: a.b2b,
            combo: a.combo,
        },
        think: a.think_ms.map(Duration::from_millis),
        config,
        weights,
        fumen: a.fumen,
    };
    let answer = threads.run(|| suggest(question))?;
    out!("{answer}");
    Ok(())
}
