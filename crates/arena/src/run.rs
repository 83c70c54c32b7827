//! Playing games and matches.

use crate::live::{Forfeit, Live, LiveSide, Seat};
use crate::settings::EngineSettings;
use crate::sprt::{PairStats, Sprt, Verdict};
use game::GameState;
use game::versus::{Ending, Event, LockReport, SideStats, Versus, VersusConfig, Winner};
use rayon::prelude::*;
use search::{Budget, Plan};
use serde::{Deserialize, Serialize};
use std::hash::{BuildHasher, Hasher};
use std::time::Instant;

/// How the arena charges an engine for thinking.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ThinkCharge {
    /// By work done: `nodes / nodes_per_ms` milliseconds. Deterministic: the same match plays
    /// the same way on any machine.
    Nodes {
        /// Candidates scored per millisecond of charged time.
        nodes_per_ms: f64,
    },
    /// A fixed time per move.
    PerMove {
        /// Milliseconds charged per move.
        ms: f64,
    },
    /// The wall time the search took (not reproducible: it depends on the machine and load).
    WallClock,
}

impl Default for ThinkCharge {
    /// 2,000 nodes per ms: a model of a machine, not this one's speed (`tetris-tt bench`
    /// prints that). Charged at this rate, with a frame a move at least, the TBP bot's speed
    /// and attack per piece match its live play (docs/versus.md), at a fraction of the
    /// compute its live rate would charge; `--think nodes:N` sets another rate.
    fn default() -> Self {
        ThinkCharge::Nodes {
            nodes_per_ms: 2000.0,
        }
    }
}

impl ThinkCharge {
    /// Milliseconds charged for a search.
    pub fn ms(&self, plan: Option<&Plan>, wall: std::time::Duration) -> f64 {
        self.ms_of(plan.map_or(0, |p| p.stats.nodes), wall)
    }

    /// Milliseconds charged for a search that scored `nodes` candidates in `wall` time.
    pub fn ms_of(&self, nodes: u64, wall: std::time::Duration) -> f64 {
        match *self {
            ThinkCharge::Nodes { nodes_per_ms } => nodes as f64 / nodes_per_ms.max(1e-9),
            ThinkCharge::PerMove { ms } => ms,
            ThinkCharge::WallClock => wall.as_secs_f64() * 1000.0,
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// The game rules and timing.
    pub versus: VersusConfig,
    /// Engine A.
    pub a: EngineSettings,
    /// Engine B.
    pub b: EngineSettings,
    /// Games to play (rounded up to whole pairs); an SPRT may stop earlier.
    pub games: u64,
    /// The match seed: pair `k`'s pieces and garbage come from it and `k`.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Stop when this test decides.
    pub sprt: Option<Sprt>,
    /// How thinking is charged.
    pub think: ThinkCharge,
    /// Keep every move of every game in its record (for writing games out).
    pub record: bool,
    /// Play live: every side a TBP bot, in real time ([`crate::live`]). `think` is then
    /// not used: thinking is the wall time a bot takes to answer.
    pub live: Option<Live>,
}

impl MatchOptions {
    /// Whether the options make sense together: a think budget (`think_ms`) needs thinking
    /// charged by nodes or by wall time, which say what a search costs.
    pub fn check(&self) -> Result<(), String> {
        if let Some(live) = &self.live {
            if live.commands.iter().any(Option::is_none) && live.serve.is_none() {
                return Err("a live match needs a way to run its engine sides as TBP bots".into());
            }
            if !(live.answer_limit_ms > 0.0 && live.answer_limit_ms.is_finite()) {
                return Err(format!(
                    "the answer limit must be a positive number of ms, not {}",
                    live.answer_limit_ms
                ));
            }
            return Ok(());
        }
        if matches!(self.think, ThinkCharge::PerMove { .. })
            && (self.a.think_ms.is_some() || self.b.think_ms.is_some())
        {
            return Err(
                "think_ms needs thinking charged by nodes (--think nodes:N) or wall time (--think wall), not a fixed ms:X per move".into(),
            );
        }
        if !matches!(self.think, ThinkCharge::Nodes { .. })
            && (self.a.speed.is_some() || self.b.speed.is_some())
        {
            return Err(
                "speed needs thinking charged by nodes (--think nodes:N): it scales that rate"
                    .into(),
            );
        }
        if matches!(self.think, ThinkCharge::PerMove { .. }) && (self.a.widen || self.b.widen) {
            return Err(
                "widen needs thinking charged by nodes (--think nodes:N) or wall time (--think wall), not a fixed ms:X per move".into(),
            );
        }
        Ok(())
    }
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            versus: VersusConfig::default(),
            a: EngineSettings::default(),
            b: EngineSettings::default(),
            games: 2,
            seed: 1,
            threads: 1,
            sprt: None,
            think: ThinkCharge::default(),
            record: false,
            live: None,
        }
    }
}

/// One engine's part in one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideRecord {
    /// Its counters.
    pub stats: SideStats,
    /// How its game ended, if it lost.
    pub ending: Option<Ending>,
    /// Every move, when the match records them.
    #[serde(skip)]
    pub moves: Vec<MoveRecord>,
    /// Why it lost, when a live bot lost other than by the game's rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<Forfeit>,
    /// In a live match, how long each of its answers took, in microseconds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub latencies_us: Vec<u32>,
}

/// One move of a recorded game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    /// The board the piece was placed on.
    pub board: board::Board,
    /// The placement.
    pub placement: board::Placement,
    /// Whether it held.
    pub hold: bool,
    /// What it did (lines, spin, chains).
    pub outcome: game::Outcome,
    /// Attack by the versus table.
    pub attack: u32,
    /// Incoming lines its attack cancelled.
    pub cancelled: u32,
    /// Garbage rows that entered the board after it.
    pub received: u32,
    /// The frame it locked.
    pub frame: u64,
}

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Engine A won.
    A,
    /// Engine B won.
    B,
    /// Both reached the piece limit.
    Draw,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the match (games 2k and 2k+1 are pair k).
    pub index: u64,
    /// Which side engine A played (0 or 1; the other game of the pair swaps).
    pub a_side: usize,
    /// The result.
    pub outcome: Outcome,
    /// Engine A's part, then engine B's.
    pub sides: [SideRecord; 2],
    /// The frame the game ended.
    pub frames: u64,
    /// A hash of every move in order: equal digests mean equal games.
    pub digest: u64,
}

impl GameRecord {
    /// Engine A's score: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score(&self) -> f64 {
        match self.outcome {
            Outcome::A => 1.0,
            Outcome::Draw => 0.5,
            Outcome::B => 0.0,
        }
    }
}

fn mix(a: u64, b: u64) -> u64 {
    let mut h = foldhash::fast::FixedState::with_seed(0x5eed).build_hasher();
    h.write_u64(a);
    h.write_u64(b);
    h.finish()
}

/// What an observer of a game sees after each lock: the game, the side that locked, and what
/// the lock did.
pub type Observer<'a> = &'a mut dyn FnMut(&Versus, usize, &LockReport);

/// One side of a game: its settings, its engine, and how its thinking is charged.
struct Player<'a> {
    settings: &'a EngineSettings,
    engine: search::Engine,
    /// The widths it widens through, when it does.
    widths: Vec<usize>,
    /// Its think charge: a faster machine scores more candidates a millisecond.
    think: ThinkCharge,
}

impl<'a> Player<'a> {
    /// The engine plays by the arena's rules, and weighs time by the arena's frame costs.
    fn new(settings: &'a EngineSettings, opts: &MatchOptions) -> Player<'a> {
        let config = search::Config {
            rules: opts.versus.rules,
            frame_costs: opts.versus.frame_costs,
            ..settings.config.clone()
        };
        Player {
            settings,
            engine: search::Engine::new(
                config,
                search::DefaultEvaluator::new(settings.weights.clone()),
            ),
            widths: settings.config.bot_widths(true),
            // A node charge's rate is per search thread, as on a machine with a core for
            // each: a search on two threads is charged half its nodes' time.
            think: match opts.think {
                ThinkCharge::Nodes { nodes_per_ms } => ThinkCharge::Nodes {
                    nodes_per_ms: nodes_per_ms
                        * settings.speed.unwrap_or(1.0)
                        * settings.config.search_threads.max(1) as f64,
                },
                t => t,
            },
        }
    }

    /// Its move in `view`, `free` frames after its last lock (when a pondering engine began
    /// thinking), and the frames its thinking is charged.
    fn decide(
        &mut self,
        view: &GameState,
        free: u64,
        versus: &VersusConfig,
    ) -> (Option<Plan>, u64) {
        let t0 = Instant::now();
        let s = self.settings;
        // What a widening engine may spend: the free frames, and its budget past them.
        let budget = free as f64 * versus.frame_ms + s.think_ms.unwrap_or(0.0);
        let deadline = |ms: f64| t0 + std::time::Duration::from_secs_f64(ms / 1e3);
        let plan = match (s.think_ms, self.think) {
            _ if s.widen => {
                let widths = self.widths.as_slice();
                // The passes up to the beam width always finish.
                let beam = s.config.beam_width.max(1);
                let firm = widths.iter().take_while(|&&w| w <= beam).count();
                let passes = |limit, deadline| Budget::Passes {
                    widths,
                    firm,
                    limit,
                    deadline,
                };
                match self.think {
                    ThinkCharge::Nodes { nodes_per_ms } => self.engine.search(
                        view,
                        passes(Some((budget * nodes_per_ms).round() as u64), None),
                    ),
                    ThinkCharge::WallClock => self
                        .engine
                        .search(view, passes(None, Some(deadline(budget)))),
                    // `check` refuses the pair: the fixed-width search.
                    ThinkCharge::PerMove { .. } => self.engine.suggest(view),
                }
            }
            (Some(ms), ThinkCharge::Nodes { nodes_per_ms }) => self
                .engine
                .search(view, Budget::Nodes((ms * nodes_per_ms).round() as u64)),
            (Some(ms), ThinkCharge::WallClock) => {
                self.engine.search(view, Budget::Until(deadline(ms)))
            }
            // A fixed charge per move says nothing of what searching costs (`check` refuses
            // the pair): the fixed-width search.
            (Some(_), ThinkCharge::PerMove { .. }) | (None, _) => self.engine.suggest(view),
        };
        let mut ms = self.think.ms(plan.as_ref(), t0.elapsed());
        if s.widen
            && let Some(p) = &plan
            && ms > budget
        {
            // The engine answers when its budget is spent, with the last pass that finished;
            // the pass it then abandons does not delay the answer (the TBP bot stops it when
            // asked). Only the passes up to the beam width may run past the budget.
            let answered = self
                .think
                .ms_of(p.stats.answer_nodes, p.stats.answer_elapsed);
            ms = answered.max(budget);
        }
        let mut frames = versus.frames_of_ms(ms);
        if s.ponder {
            frames = frames.saturating_sub(free);
        }
        // A front end sees an answer at the end of the frame it comes in (a live match
        // measures the same): a move costs at least one frame past its request, however much
        // of its thinking the free delays before the request paid for.
        (plan, frames.max(1))
    }
}

/// Adds a lock to a game's moves digest.
fn digest_lock(digest: &mut impl Hasher, side: usize, r: &LockReport) {
    let p = r.placement;
    digest.write_u8(side as u8);
    digest.write_u8(p.piece as u8);
    digest.write_u8(p.rotation as u8);
    digest.write_i8(p.x);
    digest.write_i8(p.y);
    digest.write_u8(p.spin as u8);
    digest.write_u8(r.hold as u8);
}

/// A game's setting out: its pieces and garbage from the match seed and the game's number, and
/// the side engine A plays.
fn new_game(opts: &MatchOptions, index: u64) -> (Versus, usize) {
    let pair = index / 2;
    let a_side = (index % 2) as usize;
    let seed = mix(opts.seed, pair);
    let v = Versus::new(
        opts.versus.clone(),
        [mix(seed, 3), mix(seed, 4)],
        [mix(seed, 1), mix(seed, 2)],
    );
    (v, a_side)
}

/// What a game keeps as its locks come: its digest, and every move when the match records
/// them.
struct Recorder {
    digest: foldhash::fast::FoldHasher<'static>,
    moves: [Vec<MoveRecord>; 2],
    record: bool,
}

impl Recorder {
    fn new(record: bool) -> Recorder {
        Recorder {
            digest: foldhash::fast::FixedState::with_seed(0xd1).build_hasher(),
            moves: [Vec::new(), Vec::new()],
            record,
        }
    }

    fn lock(&mut self, i: usize, before: board::Board, r: &LockReport) {
        if self.record {
            self.moves[i].push(MoveRecord {
                board: before,
                placement: r.placement,
                hold: r.hold,
                outcome: r.outcome,
                attack: r.attack,
                cancelled: r.cancelled,
                received: r.received,
                frame: r.frame,
            });
        }
        digest_lock(&mut self.digest, i, r);
    }

    /// The finished game's record; `live` has each side's part of a live game.
    fn finish(
        mut self,
        v: &Versus,
        index: u64,
        a_side: usize,
        live: Option<[LiveSide; 2]>,
    ) -> GameRecord {
        let mut live = live.map(|l| l.map(Some)).unwrap_or([None, None]);
        let mut side = |s: usize| {
            let part = live[s].take().unwrap_or_default();
            SideRecord {
                stats: v.side(s).stats().clone(),
                ending: v.side(s).ending(),
                moves: std::mem::take(&mut self.moves[s]),
                forfeit: part.forfeit,
                latencies_us: part.latencies_us,
            }
        };
        let outcome = match v.winner() {
            Some(Winner::Side(s)) if s == a_side => Outcome::A,
            Some(Winner::Side(_)) => Outcome::B,
            _ => Outcome::Draw,
        };
        let frames = (0..2)
            .map(|s| v.side(s).stats().last_lock)
            .max()
            .unwrap_or(0);
        GameRecord {
            index,
            a_side,
            outcome,
            sides: [side(a_side), side(1 - a_side)],
            frames,
            digest: self.digest.finish(),
        }
    }
}

/// Plays game `index` of a match. Games `2k` and `2k + 1` use the same two piece sequences
/// and garbage streams, one per side; in the second the engines swap sides, so each engine
/// plays each sequence once. (A live match plays through its bots instead: see
/// [`run_match`].)
pub fn play_game(
    opts: &MatchOptions,
    index: u64,
    mut observer: Option<Observer<'_>>,
) -> GameRecord {
    let (mut v, a_side) = new_game(opts, index);
    // players[side]
    let mut players = if a_side == 0 {
        [&opts.a, &opts.b]
    } else {
        [&opts.b, &opts.a]
    }
    .map(|s| Player::new(s, opts));
    let mut rec = Recorder::new(opts.record);
    loop {
        match v.next_event() {
            Event::Decide(i) => {
                // A plain TBP bot sees no incoming garbage.
                let view = v.view(i, false);
                // Thinking began when the last piece locked (or at the start).
                let free = v
                    .side(i)
                    .clock()
                    .saturating_sub(v.side(i).stats().last_lock);
                let (plan, frames) = players[i].decide(&view, free, &opts.versus);
                v.decide(i, plan.map(|p| (p.placement, p.uses_hold)), frames)
                    .expect("the engine's placements are reachable");
            }
            Event::Lock(i) => {
                let before = v.side(i).game().state().board;
                let r = v.lock(i).expect("a decided move is legal");
                rec.lock(i, before, &r);
                if let Some(obs) = observer.as_mut() {
                    obs(&v, i, &r);
                }
            }
            Event::Over => break,
        }
    }
    rec.finish(&v, index, a_side, None)
}

/// Plays game `index` of a live match with the bots in `seats` (engine A's, engine B's).
fn play_live_game(
    opts: &MatchOptions,
    live: &Live,
    index: u64,
    seats: &mut [Seat; 2],
    mut observer: Option<Observer<'_>>,
) -> GameRecord {
    let (mut v, a_side) = new_game(opts, index);
    let [a, b] = seats;
    let by_side = if a_side == 0 { [a, b] } else { [b, a] };
    let mut rec = Recorder::new(opts.record);
    let mut before = [0, 1].map(|i| v.side(i).game().state().board);
    let parts = crate::live::drive_game(&opts.versus, live, &mut v, by_side, |v, i, r| {
        rec.lock(i, before[i], r);
        before[i] = v.side(i).game().state().board;
        if let Some(obs) = observer.as_mut() {
            obs(v, i, r);
        }
    });
    rec.finish(&v, index, a_side, Some(parts))
}

/// Totals of one engine over a match.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SideSummary {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Pieces placed.
    pub pieces: u64,
    /// Lines cleared.
    pub lines: u64,
    /// Attack made (before countering).
    pub attack: u64,
    /// Attack per piece.
    pub app: f64,
    /// Attack per minute of simulated time.
    pub apm: f64,
    /// Pieces per second of simulated time.
    pub pps: f64,
    /// Lines sent to the opponent (after countering).
    pub lines_sent: u64,
    /// Garbage lines received into its board.
    pub lines_received: u64,
    /// Incoming lines cancelled by its attack.
    pub lines_cancelled: u64,
    /// Mean stack height after a lock.
    pub mean_height: f64,
    /// Highest stack after a lock.
    pub max_height: u32,
    /// Line-clear delay frames per piece.
    pub clear_frames_per_piece: f64,
    /// Input frames per piece.
    pub input_frames_per_piece: f64,
    /// Think frames charged per piece.
    pub think_frames_per_piece: f64,
    /// Losses by a blocked spawn or a lock out.
    pub topped_out: u64,
    /// Losses by garbage pushing blocks off the top.
    pub pushed_over: u64,
    /// Losses by having no move.
    pub no_move: u64,
    /// Simulated seconds alive, summed over games.
    pub seconds: f64,
    /// Games lost by forfeit (a live bot's illegal move, timeout, crash or junk), by kind.
    pub forfeits: Forfeits,
    /// How long its answers took, in a live match.
    pub latency: Option<Latency>,
    #[serde(skip)]
    latencies_us: Vec<u32>,
    #[serde(skip)]
    height_sum: u64,
    #[serde(skip)]
    frames: u64,
}

impl SideSummary {
    fn add(&mut self, r: &SideRecord, frame_ms: f64, result: f64) {
        let s = &r.stats;
        match result {
            1.0 => self.wins += 1,
            0.0 => self.losses += 1,
            _ => self.draws += 1,
        }
        self.pieces += s.pieces;
        self.lines += s.lines;
        self.attack += s.attack;
        self.lines_sent += s.sent;
        self.lines_received += s.received;
        self.lines_cancelled += s.cancelled;
        self.height_sum += s.height_sum;
        self.max_height = self.max_height.max(s.max_height);
        self.frames += s.last_lock;
        match (r.forfeit, r.ending) {
            (Some(f), _) => self.forfeits.add(f),
            (None, Some(Ending::ToppedOut)) => self.topped_out += 1,
            (None, Some(Ending::PushedOver)) => self.pushed_over += 1,
            (None, Some(Ending::NoMove)) => self.no_move += 1,
            (None, None) => {}
        }
        if !r.latencies_us.is_empty() {
            self.latencies_us.extend(&r.latencies_us);
            self.latency = Latency::of(&self.latencies_us);
        }
        let pieces = self.pieces.max(1) as f64;
        self.app = self.attack as f64 / pieces;
        self.seconds = self.frames as f64 * frame_ms / 1000.0;
        self.apm = self.attack as f64 / (self.seconds / 60.0).max(1e-9);
        self.pps = self.pieces as f64 / self.seconds.max(1e-9);
        self.mean_height = self.height_sum as f64 / pieces;
        self.clear_frames_per_piece = (self.clear_frames_per_piece * (pieces - s.pieces as f64)
            + s.clear_frames as f64)
            / pieces;
        self.input_frames_per_piece = (self.input_frames_per_piece * (pieces - s.pieces as f64)
            + s.input_frames as f64)
            / pieces;
        self.think_frames_per_piece = (self.think_frames_per_piece * (pieces - s.pieces as f64)
            + s.think_frames as f64)
            / pieces;
    }
}

/// Games lost by forfeit, by kind (see [`Forfeit`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Forfeits {
    /// Moves that do not fit, are not reachable or name the wrong spin.
    pub illegal: u64,
    /// Moves of a piece that was not its to play.
    pub not_in_queue: u64,
    /// No answer in time.
    pub timeout: u64,
    /// The bot exited or could not start.
    pub crash: u64,
    /// A line that is not a JSON object, or the rules refused.
    pub junk: u64,
}

impl Forfeits {
    fn add(&mut self, f: Forfeit) {
        *match f {
            Forfeit::Illegal => &mut self.illegal,
            Forfeit::NotInQueue => &mut self.not_in_queue,
            Forfeit::Timeout => &mut self.timeout,
            Forfeit::Crash => &mut self.crash,
            Forfeit::Junk => &mut self.junk,
        } += 1;
    }

    /// Forfeits of every kind.
    pub fn total(&self) -> u64 {
        self.illegal + self.not_in_queue + self.timeout + self.crash + self.junk
    }
}

/// How long a live bot took to answer `suggest`: from the request written to the answer read.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Latency {
    /// Answers.
    pub answers: u64,
    /// The median, in milliseconds.
    pub median_ms: f64,
    /// The 90th percentile (nine answers in ten took no longer).
    pub p90_ms: f64,
    /// The slowest.
    pub worst_ms: f64,
}

impl Latency {
    /// Of latencies in microseconds; `None` for none.
    pub fn of(us: &[u32]) -> Option<Latency> {
        if us.is_empty() {
            return None;
        }
        let mut v = us.to_vec();
        v.sort_unstable();
        // The nearest-rank percentile.
        let at = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
        let ms = |x: u32| x as f64 / 1e3;
        Some(Latency {
            answers: v.len() as u64,
            median_ms: ms(at(0.5)),
            p90_ms: ms(at(0.9)),
            worst_ms: ms(v[v.len() - 1]),
        })
    }
}

/// The SPRT's settings and where it stands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtSummary {
    /// The test.
    #[serde(flatten)]
    pub test: Sprt,
    /// The LLR bounds.
    pub lower: f64,
    /// The upper bound.
    pub upper: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// A match so far, or finished.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MatchSummary {
    /// Games played.
    pub games: u64,
    /// Whole pairs played.
    pub pairs: u64,
    /// Engine A's mean score.
    pub score: f64,
    /// A's Elo over B.
    pub elo: f64,
    /// Half-width of the 95% interval of the Elo.
    pub elo_error: f64,
    /// The SPRT's log-likelihood ratio (0 without a test).
    pub llr: f64,
    /// The SPRT, when one runs.
    pub sprt: Option<SprtSummary>,
    /// Engine A.
    pub a: SideSummary,
    /// Engine B.
    pub b: SideSummary,
    /// A hash of every game's digest in order: equal digests mean equal matches.
    pub digest: String,
    /// Wall seconds.
    pub wall_seconds: f64,
    /// Games read back from a checkpoint instead of played (see
    /// [`crate::Checkpoint`]); the timing figures cover only the games played.
    pub resumed: u64,
    /// Games per minute of wall time.
    pub games_per_minute: f64,
    /// Simulated seconds per wall second (how much faster than real time a game runs, per
    /// game: total simulated game time over the wall time it took on all threads).
    pub speed_vs_real_time: f64,
    /// Every game: its result and how each side's game ended.
    pub game_list: Vec<GameLine>,
    /// Whether the match was live ([`crate::live`]): its games depend on the bots' timing, so
    /// the same seed does not replay them move for move.
    pub live: bool,
    #[serde(skip)]
    pair_stats: PairStats,
    #[serde(skip)]
    pending_score: Option<f64>,
    #[serde(skip)]
    digest_state: u64,
    #[serde(skip)]
    simulated_seconds: f64,
}

/// One line of the game list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameLine {
    /// Game number.
    pub index: u64,
    /// The result.
    pub outcome: Outcome,
    /// How A's game ended (null if A did not lose).
    pub a_ending: Option<Ending>,
    /// How B's game ended.
    pub b_ending: Option<Ending>,
    /// Simulated seconds.
    pub seconds: f64,
    /// Pieces A placed.
    pub a_pieces: u64,
    /// Pieces B placed.
    pub b_pieces: u64,
    /// A's figures in this game.
    pub a: SideLine,
    /// B's figures in this game.
    pub b: SideLine,
}

/// One side's figures in one game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideLine {
    /// Attack per piece.
    pub app: f64,
    /// Attack per minute of game time.
    pub apm: f64,
    /// Pieces per second of game time.
    pub pps: f64,
    /// Line-clear delay frames per piece.
    pub clear_frames_per_piece: f64,
    /// Its answers' latency, in a live game.
    pub latency: Option<Latency>,
    /// Why it lost by forfeit, if it did.
    pub forfeit: Option<Forfeit>,
}

impl SideLine {
    fn of(r: &SideRecord, frame_ms: f64) -> SideLine {
        let s = &r.stats;
        let pieces = s.pieces.max(1) as f64;
        let seconds = (s.last_lock as f64 * frame_ms / 1000.0).max(1e-9);
        SideLine {
            app: s.attack as f64 / pieces,
            apm: s.attack as f64 / (seconds / 60.0),
            pps: s.pieces as f64 / seconds,
            clear_frames_per_piece: s.clear_frames as f64 / pieces,
            latency: Latency::of(&r.latencies_us),
            forfeit: r.forfeit,
        }
    }
}

impl MatchSummary {
    fn add(&mut self, g: &GameRecord, opts: &MatchOptions) {
        let frame_ms = opts.versus.frame_ms;
        self.games += 1;
        let s = g.score();
        self.a.add(&g.sides[0], frame_ms, s);
        self.b.add(&g.sides[1], frame_ms, 1.0 - s);
        match self.pending_score.take() {
            None => self.pending_score = Some(s),
            Some(first) => {
                self.pair_stats.add((first + s) / 2.0);
                self.pairs += 1;
            }
        }
        self.score = (self.a.wins as f64 + 0.5 * self.a.draws as f64) / self.games as f64;
        (self.elo, self.elo_error) = crate::sprt::elo_with_error(self.score, self.games);
        if let Some(t) = opts.sprt {
            self.llr = t.llr(&self.pair_stats);
            let (lower, upper) = t.bounds();
            self.sprt = Some(SprtSummary {
                test: t,
                lower,
                upper,
                verdict: t.verdict(self.llr),
            });
        }
        self.digest_state = mix(self.digest_state, g.digest);
        self.digest = format!("{:016x}", self.digest_state);
        let secs = g.frames as f64 * frame_ms / 1000.0;
        self.simulated_seconds += secs;
        self.game_list.push(GameLine {
            index: g.index,
            outcome: g.outcome,
            a_ending: g.sides[0].ending,
            b_ending: g.sides[1].ending,
            seconds: secs,
            a_pieces: g.sides[0].stats.pieces,
            b_pieces: g.sides[1].stats.pieces,
            a: SideLine::of(&g.sides[0], frame_ms),
            b: SideLine::of(&g.sides[1], frame_ms),
        });
    }

    /// Whether the SPRT has decided.
    pub fn decided(&self) -> bool {
        self.sprt
            .as_ref()
            .is_some_and(|s| s.verdict != Verdict::Continue)
    }

    fn timing(&mut self, wall: f64, threads: usize, simulated_before: f64) {
        self.wall_seconds = wall;
        self.games_per_minute = (self.games - self.resumed) as f64 / (wall / 60.0).max(1e-9);
        self.speed_vs_real_time =
            (self.simulated_seconds - simulated_before) / (wall * threads.max(1) as f64).max(1e-9);
    }
}

/// Plays a match: pairs of games on `threads` threads, stopping early when the SPRT decides.
/// `on_game` sees every game in order with the summary so far. The result depends only on the
/// options (with a deterministic think charge): games run in parallel in chunks, but are
/// counted in index order and the SPRT stops at the first pair where it decides.
pub fn run_match(
    opts: &MatchOptions,
    on_game: impl FnMut(&MatchSummary, &GameRecord),
) -> MatchSummary {
    run_match_from(opts, &[], on_game)
}

/// [`run_match`] after the games `done` (games 0, 1, ... of this match, as a [`Checkpoint`]
/// reads them back): they are counted first, without `on_game`, and play resumes after them.
/// The summary is the one an uninterrupted match would give, since every game depends only on
/// the options and its number. Panics when a record's index is not its position (a
/// [`Checkpoint`] checks that as it reads them).
///
/// [`Checkpoint`]: crate::Checkpoint
pub fn run_match_from(
    opts: &MatchOptions,
    done: &[GameRecord],
    on_game: impl FnMut(&MatchSummary, &GameRecord),
) -> MatchSummary {
    if let Some(live) = &opts.live {
        // A bot per engine per game at once, kept from game to game.
        let mut seats: Vec<[Seat; 2]> = (0..opts.threads.max(1))
            .map(|_| Seat::pair(&opts.a, &opts.b, live))
            .collect();
        let chunk = (opts.threads.max(1) as u64).max(2);
        let play = |games| play_live_games(opts, live, games, &mut seats);
        return drive(opts, done, chunk, play, on_game);
    }
    let chunk = (opts.threads.max(1) as u64 * 4).max(2);
    drive(opts, done, chunk, |games| play_games(opts, games), on_game)
}

/// [`run_match_from`] with the games coming from `source` instead of being played here: it is
/// asked for one game at a time, in order (`source(n..n + 1)` returns game `n`), and a source
/// that returns no game ends the match there, with the games counted so far. For a runner that
/// plays the games elsewhere (`tetris-tt versus --dispatch`); the summary is the one
/// [`run_match_from`] gives when the source returns the same games.
pub fn run_match_by(
    opts: &MatchOptions,
    done: &[GameRecord],
    source: impl FnMut(std::ops::Range<u64>) -> Vec<GameRecord>,
    on_game: impl FnMut(&MatchSummary, &GameRecord),
) -> MatchSummary {
    drive(opts, done, 1, source, on_game)
}

/// Plays games `games` of a live match, a game at a time on each pair of seats, and returns
/// their records in order.
fn play_live_games(
    opts: &MatchOptions,
    live: &Live,
    games: std::ops::Range<u64>,
    seats: &mut [[Seat; 2]],
) -> Vec<GameRecord> {
    let next = std::sync::atomic::AtomicU64::new(games.start);
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for pair in seats.iter_mut() {
            let (next, done) = (&next, &done);
            scope.spawn(move || {
                loop {
                    let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if g >= games.end {
                        break;
                    }
                    let r = play_live_game(opts, live, g, pair, None);
                    done.lock().unwrap_or_else(|e| e.into_inner()).push(r);
                }
            });
        }
    });
    let mut records = done.into_inner().unwrap_or_else(|e| e.into_inner());
    records.sort_by_key(|r| r.index);
    records
}

/// Plays games `games` of a match on `opts.threads` threads and returns their records in
/// order: the unit of work a distributed runner would hand out (seeds in, records out; see
/// `tetris-tt batch`).
pub fn play_games(opts: &MatchOptions, games: std::ops::Range<u64>) -> Vec<GameRecord> {
    if let Some(live) = &opts.live {
        let mut seats: Vec<[Seat; 2]> = (0..opts.threads.max(1))
            .map(|_| Seat::pair(&opts.a, &opts.b, live))
            .collect();
        return play_live_games(opts, live, games, &mut seats);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .expect("a thread pool");
    pool.install(|| {
        games
            .into_par_iter()
            .map(|g| play_game(opts, g, None))
            .collect()
    })
}

/// Plays a match one game at a time on this thread, calling `observer` after every lock with
/// the game's number, the game, the side that locked and what the lock did (for a live view),
/// and `on_game` after every game as [`run_match`] does. The same games as [`run_match`].
pub fn run_match_with(
    opts: &MatchOptions,
    mut observer: impl FnMut(u64, &Versus, usize, &LockReport),
    on_game: impl FnMut(&MatchSummary, &GameRecord),
) -> MatchSummary {
    if let Some(live) = &opts.live {
        let mut seats = Seat::pair(&opts.a, &opts.b, live);
        let play = |games: std::ops::Range<u64>| {
            games
                .map(|g| {
                    let mut obs = |v: &Versus, side: usize, r: &LockReport| observer(g, v, side, r);
                    play_live_game(opts, live, g, &mut seats, Some(&mut obs))
                })
                .collect()
        };
        return drive(opts, &[], 1, play, on_game);
    }
    drive(
        opts,
        &[],
        1,
        |games| {
            games
                .map(|g| {
                    let mut obs = |v: &Versus, side: usize, r: &LockReport| observer(g, v, side, r);
                    play_game(opts, g, Some(&mut obs))
                })
                .collect()
        },
        on_game,
    )
}

/// Plays chunks of games with `play` and counts them in order until the match is over.
fn drive(
    opts: &MatchOptions,
    done: &[GameRecord],
    chunk: u64,
    mut play: impl FnMut(std::ops::Range<u64>) -> Vec<GameRecord>,
    mut on_game: impl FnMut(&MatchSummary, &GameRecord),
) -> MatchSummary {
    let start = Instant::now();
    let total = opts.games.div_ceil(2) * 2;
    let mut summary = MatchSummary {
        live: opts.live.is_some(),
        ..MatchSummary::default()
    };
    let mut next = 0;
    for r in done.iter().take(total as usize) {
        assert_eq!(r.index, next, "resumed games are games 0, 1, ... in order");
        summary.add(r, opts);
        next += 1;
        if summary.decided() {
            // The test had decided before the match was stopped: nothing more to play.
            next = total;
            break;
        }
    }
    summary.resumed = summary.games;
    let simulated_before = summary.simulated_seconds;
    'games: while next < total {
        let end = (next + chunk).min(total);
        let records = play(next..end);
        for r in &records {
            summary.add(r, opts);
            on_game(&summary, r);
            if summary.decided() {
                break 'games;
            }
        }
        if records.len() < (end - next) as usize {
            // A source that failed: the match ends with the games it gave.
            break;
        }
        next = end;
    }
    summary.timing(
        start.elapsed().as_secs_f64(),
        opts.threads.max(1),
        simulated_before,
    );
    summary
}
