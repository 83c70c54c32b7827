//! Live matches: each side is a Tetris Bot Protocol (TBP) bot, an external program or an
//! engine speaking TBP on this process's threads, and the arena is its front end, in real time.
//!
//! The arena runs the game's frames on the wall clock (frame `f` of a game is `f *
//! frame_ms` after it starts) and speaks TBP as front ends do: `rules` once per bot, then per
//! game a `start`, and per piece `suggest`, `play` and `new_piece`; garbage entering a board is
//! a new `start`; `stop` ends a game and `quit` the match. A bot's thinking is the wall time
//! from `suggest` to its `suggestion`, in frames; while one side thinks, the other side's
//! events go on ([`game::versus::Versus::wait`]). A bot that answers a move that is not legal,
//! plays a piece that is not its to play, does not answer in time, dies, or prints something
//! that is not a JSON object loses that game ([`Forfeit`]); it is ended and started again for
//! the next game.

use crate::settings::EngineSettings;
use board::{Board, Piece, Placement, Rotation, Spin, generate};
use game::GameState;
use game::versus::{Event, LockReport, Versus, VersusConfig};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long a bot may take to start: to print `info`, and to answer `rules` with `ready`.
pub const START_LIMIT: Duration = Duration::from_secs(10);

/// An external bot: the program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotCommand {
    /// The program, then its arguments.
    pub argv: Vec<String>,
}

impl BotCommand {
    /// A command from one line, split as a POSIX shell splits words (quotes group words; no
    /// expansion). An empty or unbalanced line is an error.
    ///
    /// ```
    /// use arena::BotCommand;
    /// let c = BotCommand::parse("bots/cc-tbp --flag 'a b'")?;
    /// assert_eq!(c.argv, ["bots/cc-tbp", "--flag", "a b"]);
    /// assert!(BotCommand::parse("  ").is_err());
    /// # Ok::<(), String>(())
    /// ```
    pub fn parse(line: &str) -> Result<BotCommand, String> {
        let argv =
            shlex::split(line).ok_or_else(|| format!("cannot split the command {line:?}"))?;
        if argv.is_empty() {
            return Err("an empty bot command".into());
        }
        Ok(BotCommand { argv })
    }

    /// The program's file name, for summaries.
    pub fn name(&self) -> String {
        std::path::Path::new(&self.argv[0]).file_name().map_or_else(
            || self.argv[0].clone(),
            |n| n.to_string_lossy().into_owned(),
        )
    }
}

/// Runs an engine as a TBP bot on this process's threads: given its settings and the match's
/// rules, it reads messages from the reader and writes its own to the writer until the reader
/// ends or it reads `quit`. The command line supplies it (its `tetris-tt tbp` loop); a live
/// match needs it for every side that is an engine rather than a command.
#[derive(Clone)]
pub struct ServeTbp(
    #[allow(clippy::type_complexity)]
    pub  Arc<
        dyn Fn(&EngineSettings, &VersusConfig, Box<dyn BufRead + Send>, Box<dyn Write + Send>)
            + Send
            + Sync,
    >,
);

impl std::fmt::Debug for ServeTbp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServeTbp")
    }
}

/// What makes a match live, and its sides' commands.
#[derive(Clone, Debug)]
pub struct Live {
    /// Engine A's and engine B's commands; `None` is an engine with its settings, served by
    /// `serve`.
    pub commands: [Option<BotCommand>; 2],
    /// A bot that has not answered `suggest` within this many milliseconds loses the game (as
    /// common arenas do, 500).
    pub answer_limit_ms: f64,
    /// Runs the engine sides.
    pub serve: Option<ServeTbp>,
    /// Let the external bots write to this process's standard error (else it is discarded).
    pub bot_stderr: bool,
}

impl Default for Live {
    fn default() -> Self {
        Live {
            commands: [None, None],
            answer_limit_ms: 500.0,
            serve: None,
            bot_stderr: false,
        }
    }
}

/// Why a bot lost a game other than by the rules of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Forfeit {
    /// Its moves do not fit the board, are not reachable, or name the wrong spin.
    Illegal,
    /// Its move places a piece that is neither the current piece nor the one hold gives.
    NotInQueue,
    /// No answer within the answer limit.
    Timeout,
    /// It exited, closed its output, or could not be started.
    Crash,
    /// It printed a line that is not a JSON object, or refused the rules.
    Junk,
}

/// What a bot said, and when it was read.
enum Heard {
    Line(Instant, String),
    Gone,
}

/// A running bot: its input, the lines it prints (read on a thread of their own, each with the
/// time it was read), and its process when it is one.
struct Link {
    to_bot: Box<dyn Write + Send>,
    inbox: Receiver<Heard>,
    child: Option<Child>,
}

impl Link {
    fn reading(from_bot: impl BufRead + Send + 'static) -> Receiver<Heard> {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut from_bot = from_bot;
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match from_bot.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Heard::Gone);
                        return;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(Heard::Line(Instant::now(), line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        rx
    }

    fn spawn(cmd: &BotCommand, stderr: bool) -> Result<Link, String> {
        let mut child = Command::new(&cmd.argv[0])
            .args(&cmd.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", cmd.argv[0]))?;
        let to_bot = Box::new(child.stdin.take().expect("a piped input"));
        let from_bot = BufReader::new(child.stdout.take().expect("a piped output"));
        Ok(Link {
            to_bot,
            inbox: Self::reading(from_bot),
            child: Some(child),
        })
    }

    fn in_process(
        serve: &ServeTbp,
        settings: &EngineSettings,
        versus: &VersusConfig,
    ) -> Result<Link, String> {
        let (bot_reads, we_write) = std::io::pipe().map_err(|e| format!("a pipe: {e}"))?;
        let (we_read, bot_writes) = std::io::pipe().map_err(|e| format!("a pipe: {e}"))?;
        let (serve, settings, versus) = (serve.clone(), settings.clone(), versus.clone());
        std::thread::spawn(move || {
            (serve.0)(
                &settings,
                &versus,
                Box::new(BufReader::new(bot_reads)),
                Box::new(bot_writes),
            )
        });
        Ok(Link {
            to_bot: Box::new(we_write),
            inbox: Self::reading(BufReader::new(we_read)),
            child: None,
        })
    }

    fn send(&mut self, msg: &Value) -> Result<(), Forfeit> {
        writeln!(self.to_bot, "{msg}")
            .and_then(|_| self.to_bot.flush())
            .map_err(|_| Forfeit::Crash)
    }

    /// The next line, if one comes by `until`.
    fn next(&self, until: Instant) -> Option<Heard> {
        let wait = until.saturating_duration_since(Instant::now());
        match self.inbox.recv_timeout(wait) {
            Ok(h) => Some(h),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Heard::Gone),
        }
    }

    /// Waits by `until` for a message of type `kind`, skipping others; a line that is not a
    /// JSON object is junk.
    fn expect(&self, kind: &str, until: Instant) -> Result<(Instant, Value), Forfeit> {
        loop {
            match self.next(until) {
                None => return Err(Forfeit::Timeout),
                Some(Heard::Gone) => return Err(Forfeit::Crash),
                Some(Heard::Line(_, l)) if l.is_empty() => {}
                Some(Heard::Line(t, l)) => {
                    let v: Value = serde_json::from_str(&l).map_err(|_| Forfeit::Junk)?;
                    if !v.is_object() {
                        return Err(Forfeit::Junk);
                    }
                    match v.get("type").and_then(Value::as_str) {
                        Some(k) if k == kind => return Ok((t, v)),
                        // `error` in answer to `rules`: it will not play these rules.
                        Some("error") => return Err(Forfeit::Junk),
                        _ => {}
                    }
                }
            }
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // Ask politely, then make sure: no bot outlives its seat, none is left a zombie.
        let _ = writeln!(self.to_bot, "{}", json!({"type": "quit"}));
        let _ = self.to_bot.flush();
        if let Some(mut child) = self.child.take() {
            let until = Instant::now() + Duration::from_millis(200);
            while Instant::now() < until {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts the bot `cmd`, reads its `info`, tells it the rules and waits for `ready`, then asks
/// it to quit: a check before a match, so that a command that cannot run is an error rather
/// than a match of forfeits. Returns the name its `info` gives (or the program's name).
pub fn check_bot(cmd: &BotCommand) -> Result<String, String> {
    let shown = cmd.argv.join(" ");
    let mut link = Link::spawn(cmd, false)?;
    let step = |r: Result<(Instant, Value), Forfeit>, what: &str| {
        r.map_err(|f| match f {
            Forfeit::Timeout => format!("{shown}: no {what} within {} s", START_LIMIT.as_secs()),
            Forfeit::Crash => format!("{shown}: exited before its {what}"),
            _ => format!("{shown}: answered something other than {what}"),
        })
    };
    let (_, info) = step(link.expect("info", Instant::now() + START_LIMIT), "info")?;
    link.send(&json!({"type": "rules", "randomizer": "seven_bag"}))
        .map_err(|_| format!("{shown}: exited before the rules"))?;
    step(
        link.expect("ready", Instant::now() + START_LIMIT),
        "ready (to the 7-bag rules)",
    )?;
    Ok(info
        .get("name")
        .and_then(Value::as_str)
        .map_or_else(|| cmd.name(), str::to_string))
}

/// One engine's seat in a live match: how its bot is started, and the bot while it runs.
pub(crate) struct Seat {
    command: Option<BotCommand>,
    settings: EngineSettings,
    link: Option<Link>,
}

impl Seat {
    /// The seats of engine A and engine B.
    pub(crate) fn pair(a: &EngineSettings, b: &EngineSettings, live: &Live) -> [Seat; 2] {
        let seat = |k: usize, s: &EngineSettings| Seat {
            command: live.commands[k].clone(),
            settings: s.clone(),
            link: None,
        };
        [seat(0, a), seat(1, b)]
    }

    /// The running bot, started (and told the rules) if it is not running.
    fn ready(&mut self, versus: &VersusConfig, live: &Live) -> Result<&mut Link, Forfeit> {
        if self.link.is_none() {
            let mut link = match (&self.command, &live.serve) {
                (Some(c), _) => Link::spawn(c, live.bot_stderr),
                (None, Some(s)) => Link::in_process(s, &self.settings, versus),
                (None, None) => Err("no way to run an engine side live".into()),
            }
            .map_err(|_| Forfeit::Crash)?;
            link.expect("info", Instant::now() + START_LIMIT)?;
            link.send(&json!({"type": "rules", "randomizer": "seven_bag"}))?;
            link.expect("ready", Instant::now() + START_LIMIT)?;
            self.link = Some(link);
        }
        Ok(self.link.as_mut().expect("started"))
    }

    /// Ends the bot (it is started again when next needed).
    fn end(&mut self) {
        self.link = None;
    }
}

/// A piece's TBP letter.
fn letter(p: Piece) -> String {
    p.to_char().to_string()
}

/// A TBP move: location (piece, orientation, centre) and spin.
pub fn move_json(p: &Placement) -> Value {
    json!({
        "location": {
            "type": letter(p.piece),
            "orientation": p.rotation.name(),
            "x": p.x,
            "y": p.y,
        },
        "spin": p.spin.name(),
    })
}

/// The TBP `start` message for a player's view of its game (the randomizer a 7-bag).
pub fn start_json(s: &GameState) -> Value {
    let cols = s.board.columns();
    let rows: Vec<Value> = (0..board::HEIGHT)
        .map(|y| {
            (0..board::WIDTH)
                .map(|x| {
                    if cols[x] >> y & 1 == 1 {
                        json!("G")
                    } else {
                        Value::Null
                    }
                })
                .collect()
        })
        .collect();
    let queue: Vec<String> = std::iter::once(s.current)
        .chain(s.queue.iter().copied())
        .map(letter)
        .collect();
    let mut msg = json!({
        "type": "start",
        "hold": s.hold.map(letter),
        "queue": queue,
        "combo": s.carried.combo,
        "back_to_back": s.carried.b2b,
        "board": rows,
    });
    if let Some(bag) = s.bag {
        let left: Vec<String> = bag.left.iter().map(letter).collect();
        msg["randomizer"] = json!({"type": "seven_bag", "bag_state": left});
    }
    msg
}

/// Reads a TBP move; `None` when it is not one.
fn read_move(v: &Value) -> Option<Placement> {
    let loc = v.get("location")?;
    let piece = Piece::from_char(loc.get("type")?.as_str()?.chars().next()?)?;
    let rotation = Rotation::from_name(loc.get("orientation")?.as_str()?)?;
    let coord = |k: &str| {
        loc.get(k)?
            .as_i64()
            .filter(|v| (-10..50).contains(v))
            .map(|v| v as i8)
    };
    let spin = match v.get("spin").and_then(Value::as_str) {
        None => Spin::None,
        Some(s) => Spin::from_name(s)?,
    };
    Some(Placement {
        piece,
        rotation,
        x: coord("x")?,
        y: coord("y")?,
        spin,
    })
}

/// The move a front end plays from a suggestion: the first of its moves that the move
/// generator accepts, spin label included (orientations that cover the same cells are one
/// move), as (the generator's placement, whether it holds, the move as the bot wrote it: what
/// `play` echoes). `Ok(None)` for an empty list (the bot has no move). When no move is
/// accepted, why the first was not.
pub fn accept<'v>(
    suggestion: &'v Value,
    state: &GameState,
    rules: board::Rules,
) -> Result<Option<(Placement, bool, &'v Value)>, Forfeit> {
    let moves = suggestion
        .get("moves")
        .and_then(Value::as_array)
        .ok_or(Forfeit::Junk)?;
    if moves.is_empty() {
        return Ok(None);
    }
    let mut first_problem = None;
    for m in moves {
        let problem = match read_move(m) {
            None => Forfeit::Illegal,
            Some(mv) => {
                let hold = mv.piece != state.current;
                let holdable = state.hold.or(state.queue.first().copied());
                if hold && holdable != Some(mv.piece) {
                    Forfeit::NotInQueue
                } else {
                    match legal(&state.board, &mv, rules) {
                        Some(p) => return Ok(Some((p, hold, m))),
                        None => Forfeit::Illegal,
                    }
                }
            }
        };
        first_problem.get_or_insert(problem);
    }
    Err(first_problem.expect("a move was read"))
}

/// The generator's placement covering the cells of `mv` with its spin, if there is one.
fn legal(board: &Board, mv: &Placement, rules: board::Rules) -> Option<Placement> {
    if !board.fits(mv.piece, mv.rotation, mv.x as i32, mv.y as i32) {
        return None;
    }
    let mut want = mv.cells();
    want.sort_unstable();
    generate(board, mv.piece, rules).into_iter().find(|p| {
        let mut c = p.cells();
        c.sort_unstable();
        c == want && p.spin == mv.spin
    })
}

/// A side's part of a live game, beside the game itself.
#[derive(Default)]
pub(crate) struct LiveSide {
    /// The pieces its bot knows, current first.
    told: Vec<Piece>,
    /// When `suggest` was sent and the answer is awaited.
    asked: Option<Instant>,
    /// Frames charged already while the answer is awaited.
    waited: u64,
    /// Answer latencies, microseconds.
    pub(crate) latencies_us: Vec<u32>,
    pub(crate) forfeit: Option<Forfeit>,
}

/// Drives one live game. `seats[s]` is the seat of the engine on side `s`. Calls `lock` after
/// every lock with the side; returns each side's part.
pub(crate) fn drive_game(
    versus: &VersusConfig,
    live: &Live,
    v: &mut Versus,
    seats: [&mut Seat; 2],
    mut lock: impl FnMut(&Versus, usize, &LockReport),
) -> [LiveSide; 2] {
    let mut game = LiveGame {
        versus,
        limit: Duration::from_secs_f64(live.answer_limit_ms.max(0.0) / 1e3),
        sides: Default::default(),
        seats,
        t0: Instant::now(),
    };
    for i in 0..2 {
        let state = v.view(i, false);
        let started = game.seats[i]
            .ready(versus, live)
            .and_then(|l| l.send(&start_json(&state)));
        match started {
            Ok(()) => game.sides[i].told = full_queue(&state),
            Err(f) => game.sides[i].forfeit = Some(f),
        }
    }
    game.t0 = Instant::now();
    loop {
        match v.next_event() {
            Event::Over => break,
            Event::Lock(i) => {
                game.sleep_until(v.side(i).next_time());
                let r = v.lock(i).expect("an accepted move is legal");
                lock(v, i, &r);
                game.locked(v, i, &r);
            }
            Event::Decide(i) => game.decide(v, i),
        }
    }
    game.finish();
    game.sides
}

/// A live game's bots and what the arena knows of them.
struct LiveGame<'a> {
    versus: &'a VersusConfig,
    limit: Duration,
    sides: [LiveSide; 2],
    seats: [&'a mut Seat; 2],
    /// When frame 0 was.
    t0: Instant,
}

impl LiveGame<'_> {
    /// When frame `f` is on the wall clock.
    fn wall(&self, f: u64) -> Instant {
        self.t0 + Duration::from_secs_f64(f as f64 * self.versus.frame_ms.max(0.0) / 1e3)
    }

    fn sleep_until(&self, f: u64) {
        let (t, now) = (self.wall(f), Instant::now());
        if t > now {
            std::thread::sleep(t - now);
        }
    }

    /// Tells side `i`'s bot what its lock revealed: the new pieces, or a new `start` when
    /// garbage came in.
    fn locked(&mut self, v: &Versus, i: usize, r: &LockReport) {
        if r.ending.is_some() || self.sides[i].forfeit.is_some() {
            return;
        }
        let state = v.view(i, false);
        let now = full_queue(&state);
        let (s, link) = (&mut self.sides[i], seat_link(self.seats[i]));
        let told = if r.received == 0 && now.starts_with(&s.told) {
            let new = &now[s.told.len()..];
            new.iter()
                .try_for_each(|&p| link.send(&json!({"type": "new_piece", "piece": letter(p)})))
        } else {
            // Garbage came in (or the queue is not what the bot was told): a new start.
            link.send(&start_json(&state))
        };
        s.told = now;
        if let Err(f) = told {
            s.forfeit = Some(f);
        }
    }

    /// Side `i`'s turn: asks its bot (once) and waits for the answer, but only until the other
    /// side's next event is due; then that event comes first and the turn comes back.
    fn decide(&mut self, v: &mut Versus, i: usize) {
        if self.sides[i].forfeit.is_some() {
            v.decide(i, None, 0).expect("no move is always accepted");
            return;
        }
        if self.sides[i].asked.is_none() {
            self.sleep_until(v.side(i).clock());
            // Timed from before the request: a quick bot answers before the write returns.
            let asked = Instant::now();
            let s = &mut self.sides[i];
            if let Err(f) = seat_link(self.seats[i]).send(&json!({"type": "suggest"})) {
                s.forfeit = Some(f);
                return;
            }
            s.asked = Some(asked);
            s.waited = 0;
        }
        let asked = self.sides[i].asked.expect("asked");
        // The other side's next event, if it has one coming.
        let other = v.due(1 - i);
        let deadline = asked + self.limit;
        let until = other.map_or(deadline, |f| deadline.min(self.wall(f)));
        let answer = match seat_link(self.seats[i]).next(until) {
            Some(Heard::Gone) => Err(Forfeit::Crash),
            Some(Heard::Line(_, l)) if l.is_empty() => return,
            Some(Heard::Line(t, l)) => match serde_json::from_str::<Value>(&l) {
                Ok(m) if m.is_object() => {
                    if m.get("type").and_then(Value::as_str) != Some("suggestion") {
                        // Anything else a bot may say is ignored, as TBP asks.
                        return;
                    }
                    let state = v.view(i, false);
                    accept(&m, &state, self.versus.rules)
                        .map(|mv| (t, mv.map(|(p, hold, m)| (p, hold, m.clone()))))
                }
                _ => Err(Forfeit::Junk),
            },
            None if Instant::now() >= deadline => Err(Forfeit::Timeout),
            None => {
                // Still thinking when the other side's next event is due: its clock moves on
                // to there, so that event comes first.
                let other = other.expect("only the other side's event ends a wait early");
                let mut frames = other.saturating_sub(v.side(i).clock());
                v.wait(i, frames);
                while v.next_event() == Event::Decide(i) {
                    v.wait(i, 1);
                    frames += 1;
                }
                self.sides[i].waited += frames;
                return;
            }
        };
        let s = &mut self.sides[i];
        s.asked = None;
        let (t, mv) = match answer {
            Ok(a) => a,
            Err(f) => {
                s.forfeit = Some(f);
                v.decide(i, None, 0).expect("no move is always accepted");
                return;
            }
        };
        let latency = t.saturating_duration_since(asked);
        s.latencies_us
            .push(latency.as_micros().min(u32::MAX as u128) as u32);
        let frames = self.versus.frames_of_ms(latency.as_secs_f64() * 1e3);
        let decided = mv.as_ref().map(|(p, hold, _)| (*p, *hold));
        v.decide(i, decided, frames.saturating_sub(s.waited))
            .expect("an accepted move is reachable");
        let Some((p, _, written)) = mv else {
            return;
        };
        // The bot's own words: a twin orientation of its move is its move.
        match seat_link(self.seats[i]).send(&json!({"type": "play", "move": written})) {
            Err(f) => s.forfeit = Some(f),
            Ok(()) => {
                // A first hold plays the next piece too.
                let first_hold = p.piece != s.told[0] && v.view(i, false).hold.is_none();
                let taken = if first_hold { 2 } else { 1 };
                s.told.drain(..taken.min(s.told.len()));
            }
        }
    }

    /// Settles both bots once the game is over: `stop`, or an end for one that cannot go on.
    fn finish(&mut self) {
        for (i, seat) in self.seats.iter_mut().enumerate() {
            let side = &self.sides[i];
            // A bot asked for a move when the game ended still owes its answer: take it now,
            // or it would be read as the answer to the next game's first request.
            let settled = match (side.asked, seat.link.as_mut()) {
                (Some(asked), Some(l)) if side.forfeit.is_none() => {
                    l.expect("suggestion", asked + self.limit).is_ok()
                }
                _ => true,
            };
            let stopped = settled
                && side.forfeit.is_none()
                && seat
                    .link
                    .as_mut()
                    .is_some_and(|l| l.send(&json!({"type": "stop"})).is_ok());
            if !stopped {
                // A bot that forfeited, or cannot take `stop`, starts afresh next game.
                seat.end();
            }
        }
    }
}

fn seat_link(seat: &mut Seat) -> &mut Link {
    seat.link.as_mut().expect("a seat in play has a bot")
}

/// The current piece and the queue.
fn full_queue(s: &GameState) -> Vec<Piece> {
    std::iter::once(s.current)
        .chain(s.queue.iter().copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> GameState {
        let mut s = GameState::new(Piece::T, vec![Piece::I, Piece::O]);
        s.board = "#.........\n##.......#".parse().unwrap();
        s
    }

    fn suggestion(moves: &[Value]) -> Value {
        json!({"type": "suggestion", "moves": moves})
    }

    fn at(piece: Piece, rotation: Rotation, x: i8, y: i8, spin: Spin) -> Placement {
        Placement {
            piece,
            rotation,
            x,
            y,
            spin,
        }
    }

    #[test]
    fn a_legal_move_is_played_as_the_generator_places_it() {
        let s = state();
        let t = at(Piece::T, Rotation::North, 4, 0, Spin::None);
        let first = |m: &Placement| {
            accept(&suggestion(&[move_json(m)]), &s, board::Rules::Srs)
                .map(|g| g.map(|g| (g.0, g.1)))
        };
        assert_eq!(first(&t), Ok(Some((t, false))));
        // Holding: the held piece is empty, so hold plays the next piece (I).
        let i = at(Piece::I, Rotation::North, 5, 0, Spin::None);
        assert_eq!(first(&i), Ok(Some((i, true))));
        // An I turned south with its centre one column right covers the same cells: one move.
        let south = at(Piece::I, Rotation::South, 6, 0, Spin::None);
        let written = suggestion(&[move_json(&south)]);
        let got = accept(&written, &s, board::Rules::Srs).unwrap().unwrap();
        assert_eq!((got.0, got.1), (i, true));
        // `play` echoes the move as the bot wrote it.
        assert_eq!(got.2, &written["moves"][0]);
    }

    #[test]
    fn moves_are_tried_in_order_and_the_first_problem_is_the_verdict() {
        let s = state();
        let floating = at(Piece::T, Rotation::North, 4, 5, Spin::None);
        let wrong_spin = at(Piece::T, Rotation::North, 4, 0, Spin::Full);
        let not_ours = at(Piece::S, Rotation::North, 4, 0, Spin::None);
        let good = at(Piece::T, Rotation::North, 6, 0, Spin::None);
        let r = |m: &[Placement]| {
            let list: Vec<Value> = m.iter().map(move_json).collect();
            accept(&suggestion(&list), &s, board::Rules::Srs).map(|g| g.map(|g| (g.0, g.1)))
        };
        assert_eq!(r(&[floating]), Err(Forfeit::Illegal));
        assert_eq!(r(&[wrong_spin]), Err(Forfeit::Illegal));
        assert_eq!(r(&[not_ours, floating]), Err(Forfeit::NotInQueue));
        assert_eq!(r(&[floating, not_ours, good]), Ok(Some((good, false))));
        assert_eq!(r(&[]), Ok(None));
        let junk = json!({"type": "suggestion", "moves": [{"location": 3}]});
        assert_eq!(
            accept(&junk, &s, board::Rules::Srs).err(),
            Some(Forfeit::Illegal)
        );
        let no_list = json!({"type": "suggestion"});
        assert_eq!(
            accept(&no_list, &s, board::Rules::Srs).err(),
            Some(Forfeit::Junk)
        );
    }

    #[test]
    fn start_shows_the_board_bottom_row_first_and_the_bag() {
        let mut s = state();
        s.hold = Some(Piece::Z);
        s.carried.combo = 3;
        s.bag = Some(game::BagState {
            left: [Piece::L, Piece::J].into_iter().collect(),
        });
        let m = start_json(&s);
        assert_eq!(m["queue"], json!(["T", "I", "O"]));
        assert_eq!(m["hold"], json!("Z"));
        assert_eq!(m["combo"], json!(3));
        assert_eq!(m["board"].as_array().unwrap().len(), board::HEIGHT);
        assert_eq!(m["board"][0][0], json!("G"));
        assert_eq!(m["board"][0][2], Value::Null);
        assert_eq!(m["board"][0][9], json!("G"));
        assert_eq!(m["board"][1][0], json!("G"));
        assert_eq!(m["board"][1][1], Value::Null);
        assert_eq!(m["randomizer"]["bag_state"], json!(["L", "J"]));
    }
}
