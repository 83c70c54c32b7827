//! `tetris-tt tbp`: a Tetris Bot Protocol bot on standard input and output.
//!
//! Reads one JSON object per line and answers per the protocol. It reads loosely (extra fields,
//! a number where a bool was expected, a board of fewer than 40 rows) and never dies of bad
//! input: a malformed line or an impossible request gets one clear line on standard error and
//! leaves the game state as it was.

use board::{Board, HEIGHT, Piece, Placement, Rotation, Spin, WIDTH, generate};
use game::{Carried, GameState};
use search::{Config, DefaultEvaluator, Engine, Plan, Weights};
use serde_json::{Value, json};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// The longest a suggestion may take without `--think-ms`: some arenas forfeit a bot after
/// 500 ms.
pub(crate) const SAFETY: Duration = Duration::from_millis(400);

pub(crate) struct Options {
    pub(crate) config: Config,
    pub(crate) weights: Weights,
    pub(crate) think: Option<Duration>,
}

/// The game as the bot knows it.
#[derive(Clone, Debug)]
struct Known {
    board: Board,
    hold: Option<Piece>,
    /// Current piece first.
    queue: Vec<Piece>,
    carried: Carried,
    pieces_placed: u64,
}

struct Bot<W: Write> {
    out: W,
    engine: Engine,
    think: Option<Duration>,
    game: Option<Known>,
    line_no: usize,
}

/// Runs the bot until `quit` or the end of input.
pub(crate) fn run(input: impl BufRead, out: impl Write, opts: Options) -> std::io::Result<()> {
    let mut bot = Bot {
        out,
        engine: Engine::new(opts.config, DefaultEvaluator::new(opts.weights)),
        think: opts.think,
        game: None,
        line_no: 0,
    };
    bot.send(json!({
        "type": "info",
        "name": "tetris-tt",
        "version": env!("CARGO_PKG_VERSION"),
        "author": "tetris-tt developers",
        "features": [],
    }))?;
    for line in input.lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                bot.warn(&format!("cannot read input: {e}"));
                break;
            }
        };
        bot.line_no += 1;
        if line.trim().is_empty() {
            continue;
        }
        match bot.handle(&line) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => break,
            Err(Problem::Bad(msg)) => bot.warn(&msg),
            Err(Problem::Io(e)) => return Err(e),
        }
    }
    Ok(())
}

enum Flow {
    Continue,
    Quit,
}

enum Problem {
    Bad(String),
    Io(std::io::Error),
}

impl From<std::io::Error> for Problem {
    fn from(e: std::io::Error) -> Self {
        Problem::Io(e)
    }
}

fn bad<T>(msg: impl Into<String>) -> Result<T, Problem> {
    Err(Problem::Bad(msg.into()))
}

impl<W: Write> Bot<W> {
    fn send(&mut self, v: Value) -> std::io::Result<()> {
        writeln!(self.out, "{v}")?;
        self.out.flush()
    }

    fn warn(&self, msg: &str) {
        eprintln!("tetris-tt tbp: line {}: {msg}", self.line_no);
    }

    fn handle(&mut self, line: &str) -> Result<Flow, Problem> {
        let msg: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return bad(format!("not a JSON object ({e}); ignored")),
        };
        let Some(kind) = msg.get("type").and_then(Value::as_str) else {
            return bad("message without a \"type\" string; ignored");
        };
        match kind {
            "rules" => self.send(json!({"type": "ready"}))?,
            "start" => {
                let mut known = parse_start(&msg).map_err(Problem::Bad)?;
                // A start in mid-game (garbage arrived) continues the same game.
                known.pieces_placed = self.game.as_ref().map_or(0, |g| g.pieces_placed);
                self.game = Some(known);
            }
            "suggest" => self.suggest()?,
            "play" => self.play(&msg)?,
            "new_piece" => {
                let piece = msg
                    .get("piece")
                    .and_then(Value::as_str)
                    .and_then(parse_piece)
                    .ok_or_else(|| Problem::Bad("new_piece without a valid \"piece\"".into()))?;
                match self.game.as_mut() {
                    Some(g) => g.queue.push(piece),
                    None => return bad("new_piece before start; ignored"),
                }
            }
            "stop" => {
                self.game = None;
                self.engine.reset();
            }
            "quit" => return Ok(Flow::Quit),
            _ => {} // Unknown message types are ignored, as the protocol asks.
        }
        Ok(Flow::Continue)
    }

    fn suggest(&mut self) -> Result<(), Problem> {
        let Some(g) = self.game.as_ref() else {
            return bad("suggest before start; no suggestion");
        };
        let Some((&current, queue)) = g.queue.split_first() else {
            return bad("suggest with an empty queue; no suggestion");
        };
        let state = GameState {
            board: g.board,
            current,
            hold: g.hold,
            queue: queue.to_vec(),
            carried: g.carried,
            pieces_placed: g.pieces_placed,
        };
        let start = Instant::now();
        let plan: Option<Plan> = match self.think {
            Some(t) => self.engine.suggest_until(&state, start + t),
            None => self.engine.suggest_fixed_within(&state, start + SAFETY),
        };
        let (moves, info) = match &plan {
            Some(p) => (
                std::iter::once(&p.placement)
                    .chain(&p.alternatives)
                    .map(move_json)
                    .collect::<Vec<_>>(),
                json!({
                    "nodes": p.stats.nodes,
                    "nps": p.stats.nps(),
                    "depth": p.stats.search_depth,
                    "extra": format!(
                        "width {} passes {} hits {}/{} {:?}",
                        p.stats.width,
                        p.stats.passes,
                        p.stats.hits(),
                        p.stats.lookups(),
                        p.stats.transition
                    ),
                }),
            ),
            // No placement exists: the game is lost. Say so with an empty list.
            None => (vec![], json!({"nodes": 0, "nps": 0.0, "depth": 0})),
        };
        self.send(json!({"type": "suggestion", "moves": moves, "move_info": info}))?;
        Ok(())
    }

    fn play(&mut self, msg: &Value) -> Result<(), Problem> {
        let rules = self.engine.config().rules;
        let Some(g) = self.game.as_mut() else {
            return bad("play before start; ignored");
        };
        let mv = msg
            .get("move")
            .ok_or_else(|| Problem::Bad("play without a \"move\"".into()))?;
        let wanted = parse_move(mv).map_err(Problem::Bad)?;
        // Which piece comes out, and what the hold and queue become.
        let Some(&current) = g.queue.first() else {
            return bad("play with an empty queue; ignored");
        };
        let (hold, consumed) = if wanted.piece == current {
            (g.hold, 1)
        } else {
            match g.hold {
                Some(h) if h == wanted.piece => (Some(current), 1),
                None if g.queue.get(1) == Some(&wanted.piece) => (Some(current), 2),
                _ => {
                    return bad(format!(
                        "play of {} is impossible: the current piece is {current} and the hold is {}; ignored",
                        wanted.piece,
                        g.hold.map_or("empty".to_string(), |p| p.to_string())
                    ));
                }
            }
        };
        let legal = generate(&g.board, wanted.piece, rules);
        let mut want_cells = wanted.cells();
        want_cells.sort_unstable();
        let same_cells = |p: &&Placement| {
            let mut c = p.cells();
            c.sort_unstable();
            c == want_cells
        };
        let chosen = legal
            .iter()
            .filter(same_cells)
            .find(|p| p.spin == wanted.spin)
            .or_else(|| legal.iter().find(same_cells));
        let Some(&placement) = chosen else {
            return bad(format!(
                "play of {} {} at ({}, {}) is not a legal placement on this board; ignored",
                wanted.piece, wanted.rotation, wanted.x, wanted.y
            ));
        };
        let outcome = game::lock(&mut g.board, &placement, g.carried);
        g.carried = outcome.carried;
        g.hold = hold;
        // Holding into an empty hold puts the current piece away and plays the next one.
        g.queue.drain(..consumed);
        g.pieces_placed += 1;
        Ok(())
    }
}

fn move_json(p: &Placement) -> Value {
    json!({
        "location": {
            "type": p.piece.to_char().to_string(),
            "orientation": p.rotation.name(),
            "x": p.x,
            "y": p.y,
        },
        "spin": p.spin.name(),
    })
}

fn parse_piece(s: &str) -> Option<Piece> {
    let mut chars = s.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    Piece::from_char(c.to_ascii_uppercase())
}

/// A bool read loosely: true/false, or a number (non-zero is true); missing or null is false.
fn loose_bool(v: Option<&Value>) -> Result<bool, String> {
    match v {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::Number(n)) => Ok(n.as_f64().is_some_and(|f| f != 0.0)),
        Some(other) => Err(format!("expected a bool, found {other}")),
    }
}

fn parse_start(msg: &Value) -> Result<Known, String> {
    let hold = match msg.get("hold") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(
            parse_piece(s).ok_or_else(|| format!("start: unknown hold piece {s:?}; ignored"))?,
        ),
        Some(other) => {
            return Err(format!(
                "start: hold must be a piece letter or null, found {other}; ignored"
            ));
        }
    };
    let queue = msg
        .get("queue")
        .and_then(Value::as_array)
        .ok_or("start without a \"queue\" list; ignored")?
        .iter()
        .map(|v| {
            v.as_str()
                .and_then(parse_piece)
                .ok_or_else(|| format!("start: unknown queue piece {v}; ignored"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let combo = match msg.get("combo") {
        None | Some(Value::Null) => 0,
        Some(v) => v
            .as_u64()
            .or_else(|| v.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
            .ok_or_else(|| format!("start: combo must be a number, found {v}; ignored"))?,
    };
    let b2b = loose_bool(msg.get("back_to_back"))
        .map_err(|e| format!("start: back_to_back: {e}; ignored"))?;
    let rows = msg
        .get("board")
        .and_then(Value::as_array)
        .ok_or("start without a \"board\" list of rows; ignored")?;
    if rows.len() > HEIGHT {
        return Err(format!(
            "start: board has {} rows, at most {HEIGHT}; ignored",
            rows.len()
        ));
    }
    let mut cols = [0u64; WIDTH];
    for (y, row) in rows.iter().enumerate() {
        let cells = row
            .as_array()
            .ok_or_else(|| format!("start: board row {y} is not a list; ignored"))?;
        if cells.len() != WIDTH {
            return Err(format!(
                "start: board row {y} has {} cells, expected {WIDTH}; ignored",
                cells.len()
            ));
        }
        for (x, c) in cells.iter().enumerate() {
            if !c.is_null() {
                cols[x] |= 1 << y;
            }
        }
    }
    Ok(Known {
        board: Board::from_columns(cols),
        hold,
        queue,
        carried: Carried {
            b2b,
            combo: combo.min(u32::MAX as u64) as u32,
        },
        pieces_placed: 0,
    })
}

fn parse_move(v: &Value) -> Result<Placement, String> {
    let loc = v
        .get("location")
        .ok_or("move without a \"location\"; ignored")?;
    let piece = loc
        .get("type")
        .and_then(Value::as_str)
        .and_then(parse_piece)
        .ok_or("move: location.type must be a piece letter; ignored")?;
    let rotation = loc
        .get("orientation")
        .and_then(Value::as_str)
        .and_then(Rotation::from_name)
        .ok_or("move: location.orientation must be north, east, south or west; ignored")?;
    let coord = |k: &str| -> Result<i8, String> {
        loc.get(k)
            .and_then(Value::as_i64)
            .filter(|v| (-10..50).contains(v))
            .map(|v| v as i8)
            .ok_or(format!(
                "move: location.{k} must be a small integer; ignored"
            ))
    };
    let spin = match v.get("spin").and_then(Value::as_str) {
        None => Spin::None,
        Some(s) => Spin::from_name(s).ok_or(format!("move: unknown spin {s:?}; ignored"))?,
    };
    Ok(Placement {
        piece,
        rotation,
        x: coord("x")?,
        y: coord("y")?,
        spin,
    })
}
