//! Timed storms against the real thinking thread: seeded random message sequences (a real
//! game's flow mixed with well-formed `rules`, `stop` and `start` at any moment, repeated
//! `suggest`s and junk lines), sent line by line with random pauses the way a front end over a
//! pipe sends them. Every `suggest` must get exactly one `suggestion` within the safety
//! deadline, and every run must end.
//!
//! The pauses are the point: a stream handed over all at once lets the protocol thread read
//! the next line before the thinking thread has started on the previous one, so a search is
//! rarely interrupted in the middle. With pauses, a `rules` or `stop` lands while a search
//! runs, which is where an answer could once wait forever.
//!
//! `TETRIS_TT_STORM=SEEDS,LINES` sets the size (default 6 seeds of 800 lines, to keep the
//! debug test run short; the release check runs 20 seeds of 3,000 lines).

use super::fuzz::{junk, play_msg, start_msg};
use super::{Options, SAFETY, run};
use game::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::{Config, Engine, Weights};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// The longest a suggestion may take past the safety deadline: stopping the search and
/// writing the line, on a machine whose other core runs the rest of the test suite. The
/// promise to front ends is 400 ms; arenas forfeit at 500 ms.
const SLACK: Duration = Duration::from_millis(120);

/// How long the front end waits before calling the bot hung.
const HUNG: Duration = Duration::from_secs(5);

/// The bot's standard input: one line per read, as a pipe delivers them.
struct Pipe {
    lines: Receiver<Vec<u8>>,
    rest: Vec<u8>,
}

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.rest.is_empty() {
            match self.lines.recv() {
                Ok(line) => self.rest = line,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.rest.len());
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest.drain(..n);
        Ok(n)
    }
}

/// The bot's standard output: each whole line goes to the front end.
struct Screen {
    lines: Sender<String>,
    partial: Vec<u8>,
}

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let line = String::from_utf8(std::mem::take(&mut self.partial))
                    .expect("the bot writes UTF-8");
                let _ = self.lines.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The front end's side of one storm.
struct FrontEnd {
    to_bot: Sender<Vec<u8>>,
    from_bot: Receiver<String>,
    seed: u64,
    suggests: usize,
    worst: Duration,
}

impl FrontEnd {
    fn line(&mut self, bytes: &[u8]) {
        let mut l = bytes.to_vec();
        l.push(b'\n');
        self.to_bot.send(l).expect("the bot reads its input");
    }

    /// Fails on any suggestion that no suggest asked for.
    fn no_stray_suggestion(&mut self) {
        while let Ok(l) = self.from_bot.try_recv() {
            let v: Value = serde_json::from_str(&l).expect("the bot writes JSON");
            assert_ne!(
                v["type"], "suggestion",
                "seed {}: a suggestion nobody asked for",
                self.seed
            );
        }
    }

    /// Sends a suggest and waits for its suggestion; returns its moves.
    fn suggest(&mut self) -> Vec<Value> {
        self.no_stray_suggestion();
        let sent = Instant::now();
        self.line(br#"{"type":"suggest"}"#);
        self.suggests += 1;
        loop {
            let left = HUNG.saturating_sub(sent.elapsed());
            match self.from_bot.recv_timeout(left) {
                Ok(l) => {
                    let v: Value = serde_json::from_str(&l).expect("the bot writes JSON");
                    if v["type"] == "suggestion" {
                        let took = sent.elapsed();
                        self.worst = self.worst.max(took);
                        assert!(
                            took <= SAFETY + SLACK,
                            "seed {}: suggest {} answered after {took:?}",
                            self.seed,
                            self.suggests
                        );
                        return v["moves"].as_array().cloned().unwrap_or_default();
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "seed {}: suggest {} not answered within {HUNG:?}: the bot hung",
                    self.seed, self.suggests
                ),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("seed {}: the bot ended during a suggest", self.seed)
                }
            }
        }
    }

    fn pause(&self, rng: &mut ChaCha8Rng) {
        let ms = match rng.random_range(0..10) {
            0..6 => return,
            6..9 => rng.random_range(0..3),
            _ => rng.random_range(3..25),
        };
        std::thread::sleep(Duration::from_millis(ms));
    }
}

/// The bot on a thread of its own, over channels: what to send it, what it writes (a line at
/// a time), and whether it ended without an I/O error.
fn start_bot(options: Options) -> (Sender<Vec<u8>>, Receiver<String>, Receiver<bool>) {
    let (to_bot, bot_in) = channel();
    let (bot_out, from_bot) = channel();
    let (done_tx, done) = channel();
    std::thread::spawn(move || {
        let r = run(
            std::io::BufReader::new(Pipe {
                lines: bot_in,
                rest: Vec::new(),
            }),
            Screen {
                lines: bot_out,
                partial: Vec::new(),
            },
            options,
        );
        let _ = done_tx.send(r.is_ok());
    });
    (to_bot, from_bot, done)
}

/// One storm of about `lines` lines; returns the slowest answer.
// One idea: one scripted front end; each arm of the match is one kind of message.
fn storm(seed: u64, lines: usize, options: Options) -> Duration {
    let (to_bot, from_bot, done) = start_bot(options);
    let mut fe = FrontEnd {
        to_bot,
        from_bot,
        seed,
        suggests: 0,
        worst: Duration::ZERO,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut player = Engine::with_config(Config {
        beam_width: 4,
        previews: 2,
        ..Config::default()
    });
    let mut game_seed = seed * 1000;
    let mut game = Game::new(game_seed, 5);
    fe.line(br#"{"type":"rules","randomizer":"seven_bag"}"#);
    fe.line(start_msg(&game).to_string().as_bytes());
    let mut sent = 2;
    // After a `stop` with no `start`, the next turn of the game starts it again first.
    let mut stopped = false;
    while sent < lines {
        fe.pause(&mut rng);
        sent += 1;
        match rng.random_range(0..100) {
            // The game goes on: a suggest, the new pieces, the front end's own move.
            0..40 => {
                if stopped {
                    fe.line(start_msg(&game).to_string().as_bytes());
                    stopped = false;
                    sent += 1;
                }
                fe.suggest();
                let Some(plan) = player.suggest(game.state()) else {
                    continue;
                };
                let before = game.state().clone();
                game.play(&plan.placement, plan.uses_hold)
                    .expect("the player's move is legal");
                let taken = if plan.uses_hold && before.hold.is_none() {
                    2
                } else {
                    1
                };
                let fresh = game.state().queue[game.state().queue.len() - taken..].to_vec();
                for p in fresh {
                    fe.pause(&mut rng);
                    fe.line(
                        json!({"type": "new_piece", "piece": p.to_char().to_string()})
                            .to_string()
                            .as_bytes(),
                    );
                }
                let flag =
                    (plan.uses_hold && plan.placement.piece == before.current).then_some(true);
                fe.pause(&mut rng);
                fe.line(play_msg(&plan.placement, flag).to_string().as_bytes());
                sent += 2;
                if game.is_over() || game.totals().pieces >= 40 {
                    game_seed += 1;
                    game = Game::new(game_seed, 5);
                    player.reset();
                    fe.line(br#"{"type":"stop"}"#);
                    fe.line(start_msg(&game).to_string().as_bytes());
                    sent += 2;
                }
            }
            // Rules in mid-game, with or without a rotation system or a randomizer.
            40..48 => {
                let rules = [
                    json!({"type": "rules"}),
                    json!({"type": "rules", "randomizer": "seven_bag"}),
                    json!({"type": "rules", "randomizer": "uniform"}),
                    json!({"type": "rules", "randomizer": 4}),
                    json!({"type": "rules", "rotation_system": "srs_plus"}),
                ];
                fe.line(
                    rules[rng.random_range(0..rules.len())]
                        .to_string()
                        .as_bytes(),
                );
            }
            // The game stops and starts again (from the same position).
            48..53 => {
                fe.line(br#"{"type":"stop"}"#);
                stopped = true;
                if rng.random_bool(0.7) {
                    fe.pause(&mut rng);
                    fe.line(start_msg(&game).to_string().as_bytes());
                    stopped = false;
                    sent += 1;
                }
            }
            // Garbage arrives: a new start of the same game.
            53..60 => {
                fe.line(start_msg(&game).to_string().as_bytes());
                stopped = false;
            }
            // A suggest on its own (a second one, or one before any start).
            60..65 => {
                fe.suggest();
            }
            // Junk of every kind.
            _ => {
                let real = start_msg(&game);
                fe.line(&junk(&mut rng, &real));
            }
        }
    }
    fe.suggest();
    fe.line(br#"{"type":"quit"}"#);
    match done.recv_timeout(HUNG) {
        Ok(ok) => assert!(ok, "seed {seed}: the bot ended with an I/O error"),
        Err(_) => panic!("seed {seed}: the bot did not end after quit"),
    }
    fe.no_stray_suggestion();
    fe.worst
}

fn size() -> (u64, usize) {
    let Ok(v) = std::env::var("TETRIS_TT_STORM") else {
        return (6, 800);
    };
    let (s, l) = v.split_once(',').expect("TETRIS_TT_STORM is SEEDS,LINES");
    (
        s.trim()
            .parse()
            .expect("TETRIS_TT_STORM's SEEDS is a number"),
        l.trim()
            .parse()
            .expect("TETRIS_TT_STORM's LINES is a number"),
    )
}

/// The thinking thread kept busy: it widens in the background up to 1,024, so a message
/// almost always lands in the middle of a search.
fn busy_bot() -> Options {
    Options {
        config: Config {
            beam_width: 16,
            max_width: 1024,
            previews: 3,
            ..Config::default()
        },
        weights: Weights::default(),
        think: None,
        widen: true,
    }
}

#[test]
fn every_suggest_is_answered_in_time_under_timed_random_storms() {
    let (seeds, lines) = size();
    let mut worst = Duration::ZERO;
    for seed in 1..=seeds {
        worst = worst.max(storm(seed, lines, busy_bot()));
    }
    eprintln!("{seeds} storms of {lines} lines: slowest answer {worst:?}");
}

#[test]
fn every_suggest_is_answered_in_time_when_thinking_for_a_set_time() {
    let (seeds, lines) = size();
    for seed in 101..101 + seeds.div_ceil(3) {
        storm(
            seed,
            lines / 2,
            Options {
                think: Some(Duration::from_millis(5)),
                ..busy_bot()
            },
        );
    }
}

/// The stall file: a stream that once left the bot waiting forever in about one run of ten.
/// Replayed with the default settings and small random pauses between lines.
#[test]
fn the_stall_file_never_hangs() {
    let text = include_str!("../../../tests/data/tbp-stall.jsonl");
    let runs: u64 = std::env::var("TETRIS_TT_STALL_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    for run_no in 0..runs {
        let mut rng = ChaCha8Rng::seed_from_u64(run_no);
        let (to_bot, from_bot, done) = start_bot(Options {
            config: Config::default(),
            weights: Weights::default(),
            think: None,
            widen: true,
        });
        let mut suggests = 0;
        for l in text.lines() {
            if rng.random_bool(0.5) {
                std::thread::sleep(Duration::from_micros(rng.random_range(0..3000)));
            }
            let mut b = l.as_bytes().to_vec();
            b.push(b'\n');
            suggests += usize::from(l.contains(r#""suggest""#));
            to_bot.send(b).expect("the bot reads its input");
        }
        assert!(
            done.recv_timeout(Duration::from_secs(30)).is_ok(),
            "run {run_no}: the bot did not end"
        );
        let answered = from_bot
            .try_iter()
            .filter(|l| l.contains(r#""suggestion""#))
            .count();
        assert_eq!(
            answered, suggests,
            "run {run_no}: one suggestion per suggest"
        );
    }
}
