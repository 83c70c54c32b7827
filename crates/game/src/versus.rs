//! Versus play: two games side by side in simulated real time, trading garbage.
//!
//! Time runs in frames. Each side's piece spawns at a frame; the side is asked for a move
//! then, and the move locks after the think time charged to it and the frames its inputs take.
//! After a lock come the line-clear delay and the spawn delay, and the next piece spawns. A
//! lock's attack first cancels the side's own incoming garbage, oldest first; the rest is sent
//! and reaches the other side after the garbage delay, entering its board after its next lock
//! (unless blocking holds it back). A side loses when a piece cannot spawn, when a piece locks
//! out, or when garbage would push blocks off the top of the board.
//!
//! [`Versus`] is driven by events in time order (see [`Versus::next_event`]): a `Decide` asks
//! the side to move (the caller answers with [`Versus::decide`]); a `Lock` applies the move.
//! Every number is in [`VersusConfig`], whose default is the "ppt" preset of
//! `docs/versus.md`.

use crate::frames::FrameCosts;
use crate::solo::Game;
use crate::state::{GameState, Outcome, PlayError};
use board::{Board, Placement, Rules, WIDTH};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Lines sent per clear, as a table (every number configurable).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AttackTable {
    /// Plain clears of 0..=4 lines.
    pub clear: [u32; 5],
    /// T-spin minis clearing 0..=2 lines.
    pub mini: [u32; 3],
    /// Full T-spins clearing 0..=3 lines.
    pub tspin: [u32; 4],
    /// Added to a clear that keeps a back-to-back chain going.
    pub b2b_bonus: u32,
    /// Combo bonus by the number of clears in a row before this one (the last entry repeats).
    pub combo: Vec<u32>,
    /// A perfect clear's attack.
    pub perfect_clear: u32,
    /// Whether a perfect clear's attack replaces the rest (true) or is added to it.
    pub perfect_clear_replaces: bool,
}

impl Default for AttackTable {
    fn default() -> Self {
        AttackTable {
            clear: [0, 0, 1, 2, 4],
            mini: [0, 0, 1],
            tspin: [0, 2, 4, 6],
            b2b_bonus: 1,
            combo: vec![0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5],
            perfect_clear: 10,
            perfect_clear_replaces: true,
        }
    }
}

impl AttackTable {
    /// Lines sent by a lock with this outcome.
    pub fn attack(&self, o: &Outcome) -> u32 {
        if o.lines == 0 {
            return 0;
        }
        if o.perfect_clear && self.perfect_clear_replaces {
            return self.perfect_clear;
        }
        let l = o.lines.min(4) as usize;
        let base = match o.spin {
            board::Spin::None => self.clear[l],
            board::Spin::Mini => self.mini[l.min(2)],
            board::Spin::Full => self.tspin[l.min(3)],
        };
        // The outcome's combo counts this clear; the bonus is by the clears before it.
        let before = o.carried.combo.saturating_sub(1) as usize;
        let combo = match self.combo.len() {
            0 => 0,
            n => self.combo[before.min(n - 1)],
        };
        base + if o.b2b_bonus { self.b2b_bonus } else { 0 }
            + combo
            + if o.perfect_clear {
                self.perfect_clear
            } else {
                0
            }
    }
}

/// Every number of a versus game. The default is the "ppt" preset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VersusConfig {
    /// Milliseconds per frame: 4 in bot arenas, 1000/60 at normal speed.
    pub frame_ms: f64,
    /// Frames before the first piece.
    pub start_delay: u32,
    /// Frames from a lock to the next spawn.
    pub spawn_delay: u32,
    /// Frames per input, and the line-clear delays after a lock.
    pub frame_costs: FrameCosts,
    /// The attack table.
    pub attack: AttackTable,
    /// Frames sent garbage waits before it can enter the receiver's board.
    pub garbage_delay: u32,
    /// Whether a lock that clears lines holds arrived garbage back.
    pub blocking: bool,
    /// The chance that each further line of one attack moves its hole column.
    pub messiness: f64,
    /// Previews each side sees.
    pub previews: usize,
    /// The rotation system.
    pub rules: Rules,
    /// Pieces per side after which the game is a draw.
    pub max_pieces: u64,
    /// Seconds after which attack starts to grow (a garbage surge, as TETR.IO's margin
    /// time), so that games between players who survive everything still end; `None`: never.
    pub margin_seconds: Option<f64>,
    /// After the margin, how much the attack multiplier grows per second (sent lines are the
    /// attack times the multiplier, rounded to the nearest).
    pub margin_rate: f64,
}

impl Default for VersusConfig {
    fn default() -> Self {
        VersusConfig {
            frame_ms: 4.0,
            start_delay: 180,
            spawn_delay: 7,
            frame_costs: FrameCosts::default(),
            attack: AttackTable::default(),
            garbage_delay: 30,
            blocking: false,
            messiness: 0.3,
            previews: 5,
            rules: Rules::Srs,
            max_pieces: 2000,
            margin_seconds: None,
            margin_rate: 0.0,
        }
    }
}

pub use crate::frames::MAX_FRAME_COST;
/// The most lines one entry of an attack table may send.
pub const MAX_ATTACK: u32 = 100;
/// The most previews a side may see (the command line's `--previews` bound).
pub const MAX_PREVIEWS: usize = 30;

/// `Err("FIELD must be in LO..=HI, not V")` when `v` is outside `lo..=hi`: the one wording
/// of a setting out of its bounds, in this crate and the search's.
pub fn in_range<T: PartialOrd + std::fmt::Display>(
    field: &str,
    v: T,
    lo: T,
    hi: T,
) -> Result<(), String> {
    if v < lo || v > hi {
        Err(format!("{field} must be in {lo}..={hi}, not {v}"))
    } else {
        Ok(())
    }
}

fn finite_in(field: &str, v: f64, lo: f64, hi: f64) -> Result<(), String> {
    if v.is_finite() && (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(format!(
            "{field} must be a number from {lo} to {hi}, not {v}"
        ))
    }
}

impl AttackTable {
    /// Checks that each entry sends at most [`MAX_ATTACK`] lines and the combo table has at
    /// most 1,000 entries; the error names the field.
    pub fn check(&self) -> Result<(), String> {
        let entries = [
            ("attack.clear", &self.clear[..]),
            ("attack.mini", &self.mini[..]),
            ("attack.tspin", &self.tspin[..]),
            ("attack.combo", &self.combo[..]),
        ];
        for (name, values) in entries {
            for (i, &v) in values.iter().enumerate() {
                in_range(&format!("{name}[{i}]"), v, 0, MAX_ATTACK)?;
            }
        }
        in_range("attack.combo's length", self.combo.len(), 0, 1000)?;
        in_range("attack.b2b_bonus", self.b2b_bonus, 0, MAX_ATTACK)?;
        in_range("attack.perfect_clear", self.perfect_clear, 0, MAX_ATTACK)
    }
}

impl VersusConfig {
    /// Checks every field against its bound: frame counts up to [`MAX_FRAME_COST`], a frame
    /// of more than 0 and at most 1,000 ms, attack entries up to [`MAX_ATTACK`], previews up
    /// to [`MAX_PREVIEWS`], a messiness from 0 to 1, 1 to 10,000,000 pieces a side. The error
    /// names the field.
    ///
    /// ```
    /// use game::versus::VersusConfig;
    /// assert!(VersusConfig::default().check().is_ok());
    /// let c = VersusConfig { messiness: 2.0, ..VersusConfig::default() };
    /// assert_eq!(c.check().unwrap_err(), "messiness must be a number from 0 to 1, not 2");
    /// ```
    pub fn check(&self) -> Result<(), String> {
        if !(self.frame_ms.is_finite() && self.frame_ms > 0.0 && self.frame_ms <= 1000.0) {
            return Err(format!(
                "frame_ms must be a number of milliseconds above 0 and at most 1000, not {}",
                self.frame_ms
            ));
        }
        let m = MAX_FRAME_COST;
        let frames = [
            ("start_delay", self.start_delay),
            ("spawn_delay", self.spawn_delay),
            ("garbage_delay", self.garbage_delay),
        ];
        for (name, v) in frames {
            in_range(name, v, 0, m)?;
        }
        self.frame_costs.check("frame_costs.")?;
        self.attack.check()?;
        finite_in("messiness", self.messiness, 0.0, 1.0)?;
        in_range("previews", self.previews, 0, MAX_PREVIEWS)?;
        in_range("max_pieces", self.max_pieces, 1, 10_000_000)?;
        if let Some(s) = self.margin_seconds {
            finite_in("margin_seconds", s, 0.0, 1e6)?;
        }
        finite_in("margin_rate", self.margin_rate, 0.0, 100.0)
    }

    /// A named preset: `ppt` (the default: "ppt" timing with 4 ms frames, as bot arenas run
    /// it), `ppt-60hz` (the same at normal speed, 1/60 s frames), or `ppt-surge` (ppt whose
    /// attack grows by 5% a second after the first minute, so that games between players who
    /// survive everything end within a few minutes).
    pub fn preset(name: &str) -> Option<VersusConfig> {
        match name {
            "ppt" => Some(VersusConfig::default()),
            "ppt-60hz" => Some(VersusConfig {
                frame_ms: 1000.0 / 60.0,
                ..VersusConfig::default()
            }),
            "ppt-surge" => Some(VersusConfig {
                margin_seconds: Some(60.0),
                margin_rate: 0.05,
                ..VersusConfig::default()
            }),
            _ => None,
        }
    }

    /// The names [`Self::preset`] knows.
    pub const PRESETS: [&'static str; 3] = ["ppt", "ppt-60hz", "ppt-surge"];

    /// The lines sent for `attack` at `frame`: the attack times the surge multiplier.
    pub fn surge(&self, attack: u32, frame: u64) -> u32 {
        let Some(margin) = self.margin_seconds else {
            return attack;
        };
        let seconds = frame as f64 * self.frame_ms / 1000.0;
        let multiplier = 1.0 + (seconds - margin).max(0.0) * self.margin_rate;
        (attack as f64 * multiplier).round() as u32
    }

    /// Frames the cheapest input sequence to `p` on `board` takes (with its spin). `None` when
    /// the placement is unreachable.
    pub fn input_frames(&self, board: &Board, p: &Placement) -> Option<u32> {
        self.frame_costs.input_frames(board, p, self.rules)
    }

    /// The line-clear delay after a lock with this outcome.
    pub fn clear_delay(&self, o: &Outcome) -> u32 {
        self.frame_costs.clear_frames(o)
    }

    /// Converts milliseconds of thinking into whole frames (rounded up: an answer that comes
    /// during a frame is seen at its end).
    pub fn frames_of_ms(&self, ms: f64) -> u64 {
        (ms / self.frame_ms).ceil().max(0.0) as u64
    }
}

/// Garbage on its way to a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Incoming {
    /// Lines.
    pub lines: u32,
    /// The frame from which it can enter the board.
    pub arrives: u64,
}

/// How a side's game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Its next piece could not spawn, or a piece locked out.
    ToppedOut,
    /// Garbage would have pushed blocks off the top of the board.
    PushedOver,
    /// It had no legal placement (or its player gave none).
    NoMove,
}

/// Counters of one side over a game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideStats {
    /// Pieces placed.
    pub pieces: u64,
    /// Lines cleared.
    pub lines: u64,
    /// Attack made by its clears (before countering).
    pub attack: u64,
    /// Lines sent to the other side (attack left after countering).
    pub sent: u64,
    /// Incoming lines cancelled by its attack.
    pub cancelled: u64,
    /// Garbage lines that entered its board.
    pub received: u64,
    /// Frames spent on line-clear delays.
    pub clear_frames: u64,
    /// Frames spent on inputs.
    pub input_frames: u64,
    /// Frames charged for thinking.
    pub think_frames: u64,
    /// Sum over locks of the stack height after the lock (for the mean).
    pub height_sum: u64,
    /// The highest stack after a lock.
    pub max_height: u32,
    /// The frame of its last lock.
    pub last_lock: u64,
}

/// A move decided and waiting to lock.
#[derive(Clone, Copy, Debug)]
struct Pending {
    placement: Placement,
    hold: bool,
    locks_at: u64,
}

/// One side of a versus game.
#[derive(Clone, Debug)]
pub struct Side {
    game: Game,
    incoming: VecDeque<Incoming>,
    /// The frame the current piece spawns (when no move is pending).
    clock: u64,
    pending: Option<Pending>,
    holes: ChaCha8Rng,
    last_hole: Option<usize>,
    stats: SideStats,
    ending: Option<Ending>,
}

impl Side {
    /// The game (board, queue, totals).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Garbage on its way, oldest first.
    pub fn incoming(&self) -> &VecDeque<Incoming> {
        &self.incoming
    }

    /// Incoming lines in total.
    pub fn incoming_lines(&self) -> u32 {
        self.incoming.iter().map(|g| g.lines).sum()
    }

    /// The counters.
    pub fn stats(&self) -> &SideStats {
        &self.stats
    }

    /// How the side's game ended, if it did.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The frame the current piece spawns (when the side is asked for its move).
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// The frame of this side's next event.
    pub fn next_time(&self) -> u64 {
        self.pending.map_or(self.clock, |p| p.locks_at)
    }
}

/// The next thing that happens in a versus game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Side `0` or `1` must decide its move: answer with [`Versus::decide`].
    Decide(usize),
    /// Side `0` or `1`'s decided move locks: call [`Versus::lock`].
    Lock(usize),
    /// The game is over.
    Over,
}

/// What a lock did.
#[derive(Clone, Debug, PartialEq)]
pub struct LockReport {
    /// The frame it locked.
    pub frame: u64,
    /// The placement.
    pub placement: Placement,
    /// Whether it held.
    pub hold: bool,
    /// Lines, spin, back-to-back and combo (its `attack` is the guideline count; see
    /// `attack` here for the versus table's).
    pub outcome: Outcome,
    /// Attack by the versus table.
    pub attack: u32,
    /// Incoming lines it cancelled.
    pub cancelled: u32,
    /// Lines it sent.
    pub sent: u32,
    /// Garbage lines that entered the board after it.
    pub received: u32,
    /// How the side's game ended, if this lock ended it.
    pub ending: Option<Ending>,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    /// Side 0 or 1 won.
    Side(usize),
    /// Both reached the piece limit.
    Draw,
}

/// Two sides in simulated real time. See the module documentation.
#[derive(Clone, Debug)]
pub struct Versus {
    config: VersusConfig,
    sides: [Side; 2],
}

impl Versus {
    /// A game where side `i` gets the pieces of `piece_seeds[i]` and garbage holes from
    /// `garbage_seeds[i]`. (Equal piece seeds give both sides one sequence, as some arenas do;
    /// two equal deterministic engines then mirror each other and never finish.)
    pub fn new(config: VersusConfig, piece_seeds: [u64; 2], garbage_seeds: [u64; 2]) -> Versus {
        let side = |p: u64, g: u64| Side {
            game: Game::new(p, config.previews),
            incoming: VecDeque::new(),
            clock: config.start_delay as u64,
            pending: None,
            holes: ChaCha8Rng::seed_from_u64(g),
            last_hole: None,
            stats: SideStats::default(),
            ending: None,
        };
        Versus {
            sides: [
                side(piece_seeds[0], garbage_seeds[0]),
                side(piece_seeds[1], garbage_seeds[1]),
            ],
            config,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &VersusConfig {
        &self.config
    }

    /// Side 0 or 1.
    pub fn side(&self, i: usize) -> &Side {
        &self.sides[i]
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Winner> {
        match (self.sides[0].ending, self.sides[1].ending) {
            (Some(_), None) => Some(Winner::Side(1)),
            (None, Some(_)) => Some(Winner::Side(0)),
            // Both cannot end: the game stops at the first ending.
            (Some(_), Some(_)) => Some(Winner::Draw),
            (None, None) => {
                let max = self.config.max_pieces;
                (self.sides.iter().all(|s| s.stats.pieces >= max)).then_some(Winner::Draw)
            }
        }
    }

    /// The frame of side `i`'s next event; `None` when it has none coming: the game is over,
    /// or the side has placed its `max_pieces` and waits for the other side to do the same.
    pub fn due(&self, i: usize) -> Option<u64> {
        let s = &self.sides[i];
        let done = s.pending.is_none() && s.stats.pieces >= self.config.max_pieces;
        (self.winner().is_none() && !done).then(|| s.next_time())
    }

    /// The next event: the side whose next event comes first (a lock before a decision at the
    /// same frame, so a decision sees everything that locked by then; then side 0 first).
    pub fn next_event(&self) -> Event {
        if self.winner().is_some() {
            return Event::Over;
        }
        let key = |i: usize| {
            let s = &self.sides[i];
            (
                self.due(i).unwrap_or(u64::MAX),
                s.pending.is_none() as u8,
                i,
            )
        };
        let i = key(0).min(key(1)).2;
        if self.sides[i].pending.is_some() {
            Event::Lock(i)
        } else {
            Event::Decide(i)
        }
    }

    /// What side `i` sees when asked for a move: board, hold, queue, bag state, and with
    /// `see_incoming` the incoming garbage lines (plain TBP shows none).
    pub fn view(&self, i: usize, see_incoming: bool) -> GameState {
        let s = &self.sides[i];
        GameState {
            incoming: if see_incoming { s.incoming_lines() } else { 0 },
            ..s.game.state().clone()
        }
    }

    /// Side `i`'s move: `None` (no placement) loses the game. The move locks after
    /// `think_frames` plus its input frames. Panics unless the next event is `Decide(i)`.
    pub fn decide(
        &mut self,
        i: usize,
        mv: Option<(Placement, bool)>,
        think_frames: u64,
    ) -> Result<(), PlayError> {
        assert_eq!(self.next_event(), Event::Decide(i), "not side {i}'s turn");
        let Some((placement, hold)) = mv else {
            self.sides[i].ending = Some(Ending::NoMove);
            return Ok(());
        };
        let s = &mut self.sides[i];
        let inputs = self
            .config
            .input_frames(&s.game.state().board, &placement)
            .ok_or(PlayError::Unreachable)? as u64;
        s.stats.think_frames += think_frames;
        s.stats.input_frames += inputs;
        s.pending = Some(Pending {
            placement,
            hold,
            locks_at: s.clock + think_frames + inputs,
        });
        Ok(())
    }

    /// Side `i` is still thinking `frames` frames after it was asked (its answer has not come
    /// yet): its clock moves on by that much, charged as thinking, so that the other side's
    /// events until then come first. For a front end that runs bots in real time and sees only
    /// later how long an answer took; [`Versus::decide`] then charges the rest. Panics unless
    /// the next event is `Decide(i)`.
    pub fn wait(&mut self, i: usize, frames: u64) {
        assert_eq!(self.next_event(), Event::Decide(i), "not side {i}'s turn");
        let s = &mut self.sides[i];
        s.clock += frames;
        s.stats.think_frames += frames;
    }

    /// Locks side `i`'s decided move: attack, countering, sending, garbage entering the board,
    /// and the next spawn. Panics unless the next event is `Lock(i)`.
    pub fn lock(&mut self, i: usize) -> Result<LockReport, PlayError> {
        assert_eq!(
            self.next_event(),
            Event::Lock(i),
            "no lock of side {i} is due"
        );
        let cfg = &self.config;
        let (me, other) = {
            let (a, b) = self.sides.split_at_mut(1);
            if i == 0 {
                (&mut a[0], &mut b[0])
            } else {
                (&mut b[0], &mut a[0])
            }
        };
        let p = me.pending.expect("a lock is due");
        let now = p.locks_at;
        let outcome = match me.game.place(&p.placement, p.hold) {
            Ok(o) => o,
            Err(e) => {
                me.pending = None;
                return Err(e);
            }
        };
        me.pending = None;
        me.stats.pieces += 1;
        me.stats.lines += outcome.lines as u64;
        me.stats.last_lock = now;
        let attack = cfg.surge(cfg.attack.attack(&outcome), now);
        me.stats.attack += attack as u64;
        // Countering: the attack cancels this side's incoming garbage, oldest first.
        let mut left = attack;
        let mut cancelled = 0;
        while left > 0
            && let Some(g) = me.incoming.front_mut()
        {
            let c = left.min(g.lines);
            g.lines -= c;
            left -= c;
            cancelled += c;
            if g.lines == 0 {
                me.incoming.pop_front();
            }
        }
        me.stats.cancelled += cancelled as u64;
        if left > 0 {
            other.incoming.push_back(Incoming {
                lines: left,
                arrives: now + cfg.garbage_delay as u64,
            });
            me.stats.sent += left as u64;
        }
        let mut ending = me.game.is_over().then_some(Ending::ToppedOut);
        // Garbage that has arrived enters the board, unless blocking holds it back.
        let mut received = 0;
        if ending.is_none() && !(cfg.blocking && outcome.lines > 0) {
            while let Some(&g) = me.incoming.front()
                && g.arrives <= now
            {
                me.incoming.pop_front();
                if !me.push_garbage(g.lines, cfg.messiness) {
                    ending = Some(Ending::PushedOver);
                    break;
                }
                received += g.lines;
            }
        }
        me.stats.received += received as u64;
        let height = me.game.state().board.roof();
        me.stats.height_sum += height as u64;
        me.stats.max_height = me.stats.max_height.max(height);
        let delay = cfg.clear_delay(&outcome);
        me.stats.clear_frames += delay as u64;
        me.clock = now + delay as u64 + cfg.spawn_delay as u64;
        if ending.is_none() && !me.game.spawn_next() {
            ending = Some(Ending::ToppedOut);
        }
        if ending.is_some() {
            me.game.top_out();
            me.ending = ending;
        }
        Ok(LockReport {
            frame: now,
            placement: p.placement,
            hold: p.hold,
            outcome,
            attack,
            cancelled,
            sent: left,
            received,
            ending,
        })
    }
}

impl Side {
    /// Pushes one attack of `lines` garbage rows: a new hole column (never the last one), and
    /// each further line moves it with probability `messiness`. `false` on a push-over.
    fn push_garbage(&mut self, lines: u32, messiness: f64) -> bool {
        let mut hole = self.new_hole();
        for l in 0..lines {
            if l > 0 && self.holes.random_bool(messiness.clamp(0.0, 1.0)) {
                hole = self.new_hole();
            }
            if !self.game.state_mut().board.push_garbage(hole, 1) {
                return false;
            }
        }
        true
    }

    /// A random hole column other than the last one.
    fn new_hole(&mut self) -> usize {
        let hole = match self.last_hole {
            None => self.holes.random_range(0..WIDTH),
            Some(last) => {
                let h = self.holes.random_range(0..WIDTH - 1);
                if h >= last { h + 1 } else { h }
            }
        };
        self.last_hole = Some(hole);
        hole
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{Piece, Rotation, Spin, generate};

    /// The placement of the current piece that ends lowest (a simple, deterministic player).
    fn lowest(state: &GameState) -> Option<(Placement, bool)> {
        generate(&state.board, state.current, Rules::Srs)
            .into_iter()
            .min_by_key(|p| (p.cells().iter().map(|c| c.1).max(), p.x))
            .map(|p| (p, false))
    }

    /// Runs events until side `watch` locks; returns that lock's report. Both sides play
    /// `lowest` unless `moves` gives side `watch`'s move.
    fn run_until_lock(
        v: &mut Versus,
        watch: usize,
        mut moves: impl FnMut(&GameState) -> Option<(Placement, bool)>,
    ) -> LockReport {
        loop {
            match v.next_event() {
                Event::Decide(i) => {
                    let view = v.view(i, false);
                    let mv = if i == watch {
                        moves(&view)
                    } else {
                        lowest(&view)
                    };
                    v.decide(i, mv, 0).unwrap();
                }
                Event::Lock(i) => {
                    let r = v.lock(i).unwrap();
                    if i == watch {
                        return r;
                    }
                }
                Event::Over => panic!("the game ended early"),
            }
        }
    }

    /// Four rows full but for column 0 (and a cell above them, so it is no perfect clear),
    /// and an I to play: a tetris is ready.
    fn tetris_ready(v: &mut Versus, i: usize) {
        let s = v.sides[i].game.state_mut();
        s.board = ".........#\n.#########\n.#########\n.#########\n.#########"
            .parse()
            .unwrap();
        s.current = Piece::I;
    }

    fn well_i(state: &GameState) -> Option<(Placement, bool)> {
        generate(&state.board, Piece::I, Rules::Srs)
            .into_iter()
            .find(|p| p.cells().iter().all(|c| c.0 == 0) && p.y <= 2)
            .map(|p| (p, false))
    }

    /// A side still thinking lets the other side's events come first, and a decision charged
    /// in parts (waiting, then deciding) plays the same game as one charged at once.
    #[test]
    fn waiting_then_deciding_is_deciding_with_the_frames_added_up() {
        // Side 0 thinks 50 frames a move: at once, or 20 waited and 30 at the answer.
        let play = |split: bool| {
            let mut v = Versus::new(VersusConfig::default(), [5, 6], [1, 2]);
            let mut order = Vec::new();
            while order.len() < 80 {
                match v.next_event() {
                    Event::Decide(0)
                        if split && v.side(0).stats().think_frames.is_multiple_of(50) =>
                    {
                        let before = v.side(0).clock();
                        v.wait(0, 20);
                        assert_eq!(v.side(0).clock(), before + 20);
                    }
                    Event::Decide(i) => {
                        let mv = lowest(&v.view(i, false));
                        let frames = if i == 0 && split {
                            30
                        } else {
                            50 * (1 - i as u64)
                        };
                        v.decide(i, mv, frames).unwrap();
                    }
                    Event::Lock(i) => order.push((i, v.lock(i).unwrap().frame)),
                    Event::Over => break,
                }
            }
            let pieces = v.side(0).stats().pieces;
            (order, pieces)
        };
        let (once, pieces) = play(false);
        assert_eq!(play(true), (once.clone(), pieces));
        assert!(pieces >= 10, "{once:?}");
        // Side 1 thinks nothing, so it locks more often than side 0 early on.
        let early = |side| once.iter().take(10).filter(|l| l.0 == side).count();
        assert!(early(1) > early(0), "{once:?}");
    }

    #[test]
    fn countering_cancels_incoming_garbage_oldest_first_and_sends_the_rest() {
        let mut v = Versus::new(VersusConfig::default(), [1, 1], [1, 2]);
        tetris_ready(&mut v, 0);
        v.sides[0].incoming.extend([
            Incoming {
                lines: 2,
                arrives: 10_000,
            },
            Incoming {
                lines: 1,
                arrives: 10_000,
            },
            Incoming {
                lines: 5,
                arrives: 10_000,
            },
        ]);
        let r = run_until_lock(&mut v, 0, well_i);
        assert_eq!((r.outcome.lines, r.attack), (4, 4));
        // 2 and 1 cancelled whole, 1 of the 5.
        assert_eq!((r.cancelled, r.sent), (4, 0));
        assert_eq!(
            v.side(0)
                .incoming()
                .iter()
                .map(|g| g.lines)
                .collect::<Vec<_>>(),
            vec![4]
        );
        // With less incoming than attack, the rest is sent, arriving after the delay.
        let mut v = Versus::new(VersusConfig::default(), [1, 1], [1, 2]);
        tetris_ready(&mut v, 0);
        v.sides[0].incoming.push_back(Incoming {
            lines: 3,
            arrives: 0,
        });
        let r = run_until_lock(&mut v, 0, well_i);
        assert_eq!((r.cancelled, r.sent), (3, 1));
        assert!(v.side(0).incoming().is_empty());
        assert_eq!(
            v.side(1).incoming().iter().copied().collect::<Vec<_>>(),
            vec![Incoming {
                lines: 1,
                arrives: r.frame + 30
            }]
        );
        assert_eq!(v.side(0).stats().cancelled, 3);
        assert_eq!(v.side(0).stats().sent, 1);
    }

    #[test]
    fn garbage_waits_its_delay_then_enters_after_the_receivers_next_lock() {
        let mut v = Versus::new(VersusConfig::default(), [3, 3], [1, 2]);
        tetris_ready(&mut v, 0);
        let sent = run_until_lock(&mut v, 0, well_i);
        assert_eq!(sent.sent, 4);
        let arrives = sent.frame + 30;
        // Side 1's locks before the garbage arrives leave it waiting; the first lock at or
        // after its arrival takes it in.
        loop {
            let r = run_until_lock(&mut v, 1, lowest);
            if r.frame < arrives {
                assert_eq!(
                    r.received, 0,
                    "lock at {} before arrival {arrives}",
                    r.frame
                );
                assert_eq!(v.side(1).incoming_lines(), 4);
            } else {
                assert_eq!(r.received, 4);
                assert_eq!(v.side(1).stats().received, 4);
                break;
            }
        }
    }

    #[test]
    fn blocking_holds_garbage_back_on_a_clearing_lock() {
        let cfg = VersusConfig {
            blocking: true,
            ..VersusConfig::default()
        };
        let mut v = Versus::new(cfg, [1, 1], [1, 2]);
        tetris_ready(&mut v, 0);
        v.sides[0].incoming.push_back(Incoming {
            lines: 9,
            arrives: 0,
        });
        let r = run_until_lock(&mut v, 0, well_i);
        // 4 cancelled; the other 5 have arrived but the clear blocks them.
        assert_eq!((r.cancelled, r.received), (4, 0));
        assert_eq!(v.side(0).incoming_lines(), 5);
    }

    fn holes_of(board: &Board) -> Vec<usize> {
        (0..board.roof() as i32)
            .map(|y| (0..10).find(|&x| !board.occupied(x, y)).unwrap() as usize)
            .collect()
    }

    #[test]
    fn messiness_is_reproducible_under_a_seed() {
        let side = |seed, messiness: f64| {
            let mut v = Versus::new(VersusConfig::default(), [1, 1], [seed, 0]);
            let s = &mut v.sides[0];
            for _ in 0..4 {
                assert!(s.push_garbage(8, messiness));
            }
            // Rows top first in holes_of's order: bottom row first.
            holes_of(&s.game.state().board)
        };
        assert_eq!(side(7, 0.3), side(7, 0.3), "same seed, same holes");
        assert_ne!(side(7, 0.3), side(8, 0.3), "another seed, other holes");
        // Messiness 0: each attack of 8 lines has one hole; consecutive attacks never share
        // one. Messiness 1: every line moves the hole.
        let clean = side(7, 0.0);
        for attack in clean.chunks(8) {
            assert!(attack.iter().all(|&h| h == attack[0]), "{clean:?}");
        }
        for pair in clean.chunks(8).collect::<Vec<_>>().windows(2) {
            assert_ne!(pair[0][0], pair[1][0]);
        }
        let messy = side(7, 1.0);
        assert!(messy.windows(2).all(|w| w[0] != w[1]), "{messy:?}");
    }

    #[test]
    fn garbage_that_pushes_blocks_off_the_top_loses() {
        let mut v = Versus::new(VersusConfig::default(), [1, 1], [1, 2]);
        {
            let s = v.sides[0].game.state_mut();
            let mut b = Board::new();
            for y in 0..38 {
                b.set(0, y);
            }
            s.board = b;
        }
        v.sides[0].incoming.push_back(Incoming {
            lines: 5,
            arrives: 0,
        });
        let r = run_until_lock(&mut v, 0, lowest);
        assert_eq!(r.ending, Some(Ending::PushedOver));
        assert_eq!(v.side(0).ending(), Some(Ending::PushedOver));
        assert_eq!(v.winner(), Some(Winner::Side(1)));
        assert_eq!(v.next_event(), Event::Over);
    }

    #[test]
    fn a_blocked_spawn_after_garbage_loses() {
        let mut v = Versus::new(VersusConfig::default(), [1, 1], [1, 2]);
        {
            let s = v.sides[0].game.state_mut();
            let mut b = Board::new();
            for y in 0..17 {
                for x in 2..10 {
                    b.set(x, y);
                }
            }
            s.board = b;
            s.current = Piece::I;
        }
        // Four rows of garbage lift the stack into the spawn rows (19 and 20).
        v.sides[0].incoming.push_back(Incoming {
            lines: 4,
            arrives: 0,
        });
        let r = run_until_lock(&mut v, 0, |s: &GameState| {
            generate(&s.board, Piece::I, Rules::Srs)
                .into_iter()
                .find(|p| p.cells().iter().all(|c| c.0 == 0) && p.y <= 2)
                .map(|p| (p, false))
        });
        assert_eq!((r.outcome.lines, r.received), (0, 4));
        assert_eq!(r.ending, Some(Ending::ToppedOut), "{r:?}");
        assert_eq!(v.winner(), Some(Winner::Side(1)));
    }

    #[test]
    fn a_perfect_clear_replaces_the_rest_of_the_attack() {
        let o = Outcome {
            lines: 4,
            spin: Spin::None,
            attack: 14,
            perfect_clear: true,
            b2b_bonus: true,
            carried: crate::Carried {
                b2b: true,
                combo: 5,
            },
        };
        let table = AttackTable::default();
        assert_eq!(table.attack(&o), 10);
        let added = AttackTable {
            perfect_clear_replaces: false,
            ..AttackTable::default()
        };
        // tetris 4 + b2b 1 + combo (4 clears before: 2) + 10
        assert_eq!(added.attack(&o), 17);
        // Not a perfect clear: the same outcome sends 4 + 1 + 2.
        assert_eq!(
            table.attack(&Outcome {
                perfect_clear: false,
                ..o
            }),
            7
        );
    }

    #[test]
    fn input_costs_a_hard_drop_is_free_and_a_tuck_pays_its_soft_drop_rows() {
        let cfg = VersusConfig::default();
        let empty = Board::new();
        let at = |piece, rotation, x, y| Placement {
            piece,
            rotation,
            x,
            y,
            spin: Spin::None,
        };
        // Straight down from spawn: nothing but the (free) hard drop.
        assert_eq!(
            cfg.input_frames(&empty, &at(Piece::I, Rotation::North, 4, 0)),
            Some(0)
        );
        // Three shifts left, then the drop.
        assert_eq!(
            cfg.input_frames(&empty, &at(Piece::I, Rotation::North, 1, 0)),
            Some(6)
        );
        // One turn and the drop.
        assert_eq!(
            cfg.input_frames(&empty, &at(Piece::T, Rotation::East, 4, 1)),
            Some(2)
        );
        // A tuck: row 0 is open under a roof over columns 0..6. The I must stop at row 0
        // beside the roof (19 soft-dropped rows from the spawn row), then slide under it.
        let roof: Board = "######....\n..........".parse().unwrap();
        let tuck = at(Piece::I, Rotation::North, 1, 0);
        let (frames, path) = tuck
            .cheapest_inputs(&roof, Rules::Srs, |i| cfg.frame_costs.input(i))
            .unwrap();
        // No hard drop (it would lock the I on the roof): every input is a 2-frame shift, turn
        // or soft-dropped row, and it takes many rows (kicks can save a few) to get under.
        assert!(!path.contains(&board::Input::HardDrop), "{path:?}");
        assert_eq!(frames, 2 * path.len() as u32);
        let soft = path
            .iter()
            .filter(|&&i| i == board::Input::SoftDrop)
            .count();
        assert!(soft >= 15, "{path:?}");
        // The same I dropped on the roof's right side costs its shifts only.
        let beside = at(Piece::I, Rotation::North, 7, 0);
        assert_eq!(cfg.input_frames(&roof, &beside), Some(6));
        // Named board "tspin": the T-spin double is a tuck too; a plain drop costs less.
        let tspin: Board = "#.........\n#.........\n##......##\n###....###\n####...###\n####..####\n###...####\n####.#####"
            .parse()
            .unwrap();
        let t = generate(&tspin, Piece::T, Rules::Srs);
        let full = t.iter().find(|p| p.spin == Spin::Full).unwrap();
        let drop = t
            .iter()
            .filter(|p| p.spin == Spin::None)
            .filter_map(|p| cfg.input_frames(&tspin, p))
            .min()
            .unwrap();
        let spin = cfg.input_frames(&tspin, full).unwrap();
        assert!(spin >= drop + 2 * 10, "a T-spin {spin} vs a drop {drop}");
    }

    #[test]
    fn the_ppt_preset_is_the_default_and_loads_from_json() {
        assert_eq!(VersusConfig::preset("ppt"), Some(VersusConfig::default()));
        let c: VersusConfig = serde_json::from_str(
            r#"{"garbage_delay": 20, "rules": "srs-plus", "attack": {"b2b_bonus": 2}}"#,
        )
        .unwrap();
        assert_eq!(
            (c.garbage_delay, c.rules, c.attack.b2b_bonus),
            (20, Rules::SrsPlus, 2)
        );
        assert_eq!(c.attack.clear, AttackTable::default().clear);
        assert!(serde_json::from_str::<VersusConfig>(r#"{"garbage_dealy": 20}"#).is_err());
        // Delays: a single 36, a tetris 46, a perfect clear 1.
        let mut o = Outcome {
            lines: 1,
            ..Outcome::default()
        };
        assert_eq!(VersusConfig::default().clear_delay(&o), 36);
        o.lines = 4;
        assert_eq!(VersusConfig::default().clear_delay(&o), 46);
        o.perfect_clear = true;
        assert_eq!(VersusConfig::default().clear_delay(&o), 1);
    }

    #[test]
    fn a_surge_grows_the_attack_after_the_margin() {
        let c = VersusConfig::preset("ppt-surge").unwrap();
        let frames = |s: f64| (s * 1000.0 / c.frame_ms) as u64;
        assert_eq!(c.surge(4, frames(30.0)), 4);
        assert_eq!(c.surge(4, frames(60.0)), 4);
        // 20 s past the margin: x2.
        assert_eq!(c.surge(4, frames(80.0)), 8);
        assert_eq!(c.surge(0, frames(200.0)), 0);
        assert_eq!(VersusConfig::default().surge(4, frames(1000.0)), 4);
    }

    #[test]
    fn the_same_seeds_replay_the_same_game() {
        let play = |seeds: [u64; 2]| {
            let mut v = Versus::new(VersusConfig::default(), [5, 6], seeds);
            let mut log = Vec::new();
            for _ in 0..200 {
                match v.next_event() {
                    Event::Decide(i) => {
                        let mv = lowest(&v.view(i, false));
                        v.decide(i, mv, 3).unwrap();
                    }
                    Event::Lock(i) => log.push((i, v.lock(i).unwrap())),
                    Event::Over => break,
                }
            }
            log
        };
        assert_eq!(play([1, 2]), play([1, 2]));
    }
}
