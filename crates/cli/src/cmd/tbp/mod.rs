//! `tetris-tt tbp`: a Tetris Bot Protocol bot on standard input and output.
//!
//! Reads one JSON object per line and answers per the protocol. It reads loosely (extra fields,
//! a number where a bool was expected, a board of fewer than 40 rows) and never dies of bad
//! input: a malformed line gets one clear line on standard error and leaves the game as it was.
//! Every `suggest` gets exactly one `suggestion`, with no move when the bot does not know the
//! game. The front end is the authority on the game (see [`known`]).

mod known;
mod worker;

use crate::settings::EngineArgs;
use board::Rules;
use clap::Args;
use known::{Known, Played, Randomizer, parse_move, parse_piece, parse_rules, parse_start};
use search::{Config, Plan, Weights};
use serde_json::{Value, json};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};
use worker::Worker;

/// When a suggestion is sent without `--think-ms` if the configured width has not finished:
/// the bot promises an answer within 400 ms (some arenas forfeit a bot after 500 ms), and
/// stopping the search, writing the JSON and a loaded scheduler took up to 4 ms more than this
/// deadline when it was 400 ms, so it keeps a 20 ms margin.
pub(crate) const SAFETY: Duration = Duration::from_millis(380);

pub(crate) struct Options {
    pub(crate) config: Config,
    pub(crate) weights: Weights,
    pub(crate) think: Option<Duration>,
    /// Keep widening the beam in the background past the configured width (answers then
    /// depend on timing); off, every answer is the configured width's pass.
    pub(crate) widen: bool,
}

/// Where the bot stands with the front end's game.
enum Game {
    /// No game yet, or after `stop`.
    None,
    /// Following the game.
    Known(Known),
    /// A `play` could not be applied: the bot does not know the board until the next `start`.
    Lost,
}

struct Bot<W: Write> {
    out: W,
    worker: Worker,
    /// Whether the current position was already answered: a new piece then does not restart
    /// the search, so the prediction stays that of the move sent.
    answered: bool,
    /// The rotation system given on the command line, used when `rules` names none.
    default_rules: Rules,
    /// The rotation system in force.
    rules: Rules,
    think: Option<Duration>,
    game: Game,
    randomizer: Randomizer,
    line_no: usize,
}

/// Runs the bot until `quit` or the end of input.
pub(crate) fn run(mut input: impl BufRead, out: impl Write, opts: Options) -> std::io::Result<()> {
    let mut bot = Bot {
        out,
        default_rules: opts.config.rules,
        rules: opts.config.rules,
        worker: Worker::start(opts.config, opts.weights, opts.widen),
        answered: false,
        think: opts.think,
        game: Game::None,
        randomizer: Randomizer::Unknown,
        line_no: 0,
    };
    bot.send(&json!({
        "type": "info",
        "name": "tetris-tt",
        "version": env!("CARGO_PKG_VERSION"),
        "author": "tetris-tt developers",
        "features": [],
    }))?;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                bot.warn(&format!("cannot read input: {e}"));
                break;
            }
        }
        bot.line_no += 1;
        // A line that is not UTF-8 is one bad line, not the end of the game.
        let Ok(line) = std::str::from_utf8(&buf) else {
            bot.warn("a line that is not UTF-8; ignored");
            continue;
        };
        if line.trim().is_empty() {
            continue;
        }
        match bot.handle(line) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => break,
            Err(Problem::Bad(msg)) => bot.warn(&format!("{msg}; ignored")),
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
    fn send(&mut self, v: &Value) -> std::io::Result<()> {
        writeln!(self.out, "{v}")?;
        self.out.flush()
    }

    fn warn(&self, msg: &str) {
        eprintln!("tetris-tt tbp: line {}: {msg}", self.line_no);
    }

    fn handle(&mut self, line: &str) -> Result<Flow, Problem> {
        let msg: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return bad(format!("not a JSON object ({e})")),
        };
        let Some(kind) = msg.get("type").and_then(Value::as_str) else {
            return bad("message without a \"type\" string");
        };
        match kind {
            "rules" => match parse_rules(&msg) {
                Ok(r) => {
                    self.randomizer = r.randomizer;
                    self.rules = r.rules.unwrap_or(self.default_rules);
                    self.worker.set_rules(self.rules);
                    self.send(&json!({"type": "ready"}))?;
                }
                Err(e) => {
                    self.warn(&format!("rules: {e}"));
                    self.send(&json!({"type": "error", "reason": "unsupported_rules"}))?;
                }
            },
            "start" => {
                let (mut known, warnings) = parse_start(&msg).map_err(Problem::Bad)?;
                for w in warnings {
                    self.warn(&w);
                }
                // A start in mid-game (garbage arrived) continues the same game.
                if let Game::Known(g) = &self.game {
                    known.pieces_placed = g.pieces_placed;
                }
                if self.randomizer != Randomizer::SevenBag && known.bag.is_some() {
                    // A bag state without the seven_bag rules is still a 7-bag's state.
                    self.randomizer = Randomizer::SevenBag;
                }
                self.game = Game::Known(known);
                self.rethink();
            }
            "suggest" => self.suggest()?,
            "play" => self.play(&msg)?,
            "new_piece" => {
                let piece = msg
                    .get("piece")
                    .and_then(Value::as_str)
                    .and_then(parse_piece)
                    .ok_or_else(|| Problem::Bad("new_piece without a valid \"piece\"".into()))?;
                match &mut self.game {
                    Game::Known(g) => {
                        if let Some(w) = g.new_piece(piece) {
                            self.warn(&w);
                        }
                        // A longer queue: search the same position again (the tables are kept),
                        // unless its answer was sent already.
                        if !self.answered {
                            self.rethink();
                        }
                    }
                    Game::None => return bad("new_piece before start"),
                    Game::Lost => return bad("new_piece while waiting for a start"),
                }
            }
            "stop" => {
                self.game = Game::None;
                self.worker.reset();
            }
            "quit" => return Ok(Flow::Quit),
            _ => {} // Unknown message types are ignored, as the protocol asks.
        }
        Ok(Flow::Continue)
    }

    /// Starts thinking about the known position (the thinking thread drops what it was
    /// doing).
    fn rethink(&mut self) {
        self.answered = false;
        if let Game::Known(g) = &self.game
            && let Ok(state) = g.state()
        {
            self.worker.search(state);
        } else {
            self.worker.pause();
        }
    }

    fn suggest(&mut self) -> Result<(), Problem> {
        let known = match &self.game {
            Game::Known(g) => g.state().map(|_| ()),
            Game::None => Err("suggest before start"),
            Game::Lost => Err("suggest while the board is unknown (waiting for a start)"),
        };
        if let Err(why) = known {
            self.warn(&format!("{why}; answered with no move"));
            self.send(&json!({"type": "suggestion", "moves": []}))?;
            return Ok(());
        }
        let asked = Instant::now();
        // The thinking thread is on this position already (every change restarts it, and
        // after an answer it stays paused on it).
        let answer = self.worker.answer(asked, self.think, SAFETY);
        if answer.late && answer.plan.is_none() {
            self.warn("no search pass finished within the deadline; answered with no move");
        }
        let plan: Option<Plan> = answer.plan;
        self.answered = true;
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
                        "width {} passes {} hits {}/{} {:?}{}",
                        p.stats.width,
                        p.stats.passes,
                        p.stats.hits(),
                        p.stats.lookups(),
                        p.stats.root_transition,
                        if p.stats.transition == search::Transition::Kept {
                            " (kept since)"
                        } else {
                            ""
                        }
                    ),
                }),
            ),
            // No placement exists: the game is lost. Say so with an empty list.
            None => (vec![], json!({"nodes": 0, "nps": 0.0, "depth": 0})),
        };
        self.send(&json!({"type": "suggestion", "moves": moves, "move_info": info}))?;
        Ok(())
    }

    fn play(&mut self, msg: &Value) -> Result<(), Problem> {
        match self.game {
            Game::Known(_) => {}
            Game::None => return bad("play before start"),
            Game::Lost => return bad("play while waiting for a start"),
        }
        let (mv, hold) = parse_move(msg).map_err(Problem::Bad)?;
        // Stop thinking before the position changes.
        self.worker.pause();
        let Game::Known(g) = &mut self.game else {
            return bad("play before start");
        };
        match g.play(&mv, hold, self.rules) {
            Ok(Played::Reached) => {}
            Ok(Played::Adopted(why)) => {
                self.warn(&format!("play adopted from the front end: {why}"));
            }
            Err(why) => {
                self.game = Game::Lost;
                self.worker.reset();
                self.warn(&format!("{why}; the board is unknown until the next start"));
                return Ok(());
            }
        }
        self.rethink();
        Ok(())
    }
}

use arena::live::move_json;

/// Runs engines as TBP bots on this process's threads for a live match: each as this command
/// would with its settings (widening unless `widen` is off, thinking `think_ms` when set),
/// playing by the match's rules and weighing time by its frame costs.
pub(crate) fn serve() -> arena::ServeTbp {
    arena::ServeTbp(std::sync::Arc::new(
        |s: &arena::EngineSettings,
         versus: &game::versus::VersusConfig,
         input: Box<dyn BufRead + Send>,
         output: Box<dyn Write + Send>| {
            let config = Config {
                rules: versus.rules,
                frame_costs: versus.frame_costs,
                ..s.config.clone()
            };
            let opts = Options {
                config,
                weights: s.weights.clone(),
                think: s
                    .think_ms
                    .map(|ms| Duration::from_secs_f64(ms.max(0.0) / 1e3)),
                widen: s.widen,
            };
            // The match ends the bot by closing its input; a write error means the same.
            let _ = run(input, output, opts);
        },
    ))
}

#[derive(Args)]
pub(crate) struct TbpArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Answer no earlier than N ms after a suggest request, with the best pass found by then.
    /// Without it the bot answers as soon as the configured width has finished (at once when
    /// it already has), and within 400 ms in any case.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=60_000))]
    think_ms: Option<u64>,
    /// Stop thinking at the configured width instead of widening the beam while waiting:
    /// every answer is then exactly that width's search, whatever the timing.
    #[arg(long)]
    fixed: bool,
}

/// Runs the command.
pub(crate) fn command(a: TbpArgs) -> Result<(), String> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let (config, weights) = a.engine.settings()?;
    run(
        stdin.lock(),
        stdout.lock(),
        Options {
            widen: !a.fixed,
            config,
            weights,
            think: a.think_ms.map(Duration::from_millis),
        },
    )
    .map_err(|e| format!("tbp: {e}"))
}

#[cfg(test)]
mod fuzz;
#[cfg(test)]
mod storm;
