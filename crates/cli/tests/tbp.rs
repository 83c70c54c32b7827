//! Drives the built `tetris-tt tbp` through whole games over pipes. A simulator plays the
//! front end: it checks that every suggested move is legal (with its spin label), plays it,
//! feeds new pieces from a 7-bag, sends garbage through a new `start`, and mixes in malformed
//! and impossible lines that the bot must survive.

use board::{Board, Piece, Placement, Rotation, Rules, Spin, generate};
use game::Bag;
use game::{Carried, lock};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Bot {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Bot {
    fn start(args: &[&str]) -> Bot {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tetris-tt"))
            .arg("tbp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Bot {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn recv(&mut self) -> Value {
        let mut line = String::new();
        let n = self.stdout.read_line(&mut line).unwrap();
        assert!(n > 0, "the bot closed its output");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("bot sent non-JSON {line:?}: {e}"))
    }

    /// Closes standard input and returns (exit success, stderr).
    fn finish(self) -> (bool, String) {
        drop(self.stdin);
        let out = self.child.wait_with_output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

fn board_json(board: &Board, rows: usize) -> Value {
    let rows: Vec<Value> = (0..rows as i32)
        .map(|y| {
            Value::Array(
                (0..10)
                    .map(|x| {
                        if board.occupied(x, y) {
                            json!("G")
                        } else {
                            Value::Null
                        }
                    })
                    .collect(),
            )
        })
        .collect();
    Value::Array(rows)
}

fn start_msg(
    board: &Board,
    hold: Option<Piece>,
    queue: &[Piece],
    carried: Carried,
    rows: usize,
) -> String {
    json!({
        "type": "start",
        "hold": hold.map(|p| p.to_char().to_string()),
        "queue": queue.iter().map(|p| p.to_char().to_string()).collect::<Vec<_>>(),
        "combo": carried.combo,
        "back_to_back": carried.b2b,
        "board": board_json(board, rows),
        "opponents": [],
    })
    .to_string()
}

fn parse_move(v: &Value) -> Placement {
    let loc = &v["location"];
    Placement {
        piece: Piece::from_char(loc["type"].as_str().unwrap().chars().next().unwrap()).unwrap(),
        rotation: Rotation::from_name(loc["orientation"].as_str().unwrap()).unwrap(),
        x: loc["x"].as_i64().unwrap() as i8,
        y: loc["y"].as_i64().unwrap() as i8,
        spin: Spin::from_name(v["spin"].as_str().unwrap()).unwrap(),
    }
}

/// The front end's state.
struct Sim {
    board: Board,
    hold: Option<Piece>,
    queue: Vec<Piece>,
    carried: Carried,
    bag: Bag,
    lines: u32,
}

impl Sim {
    fn new(seed: u64) -> Sim {
        let mut bag = Bag::new(seed);
        let queue = (0..6).map(|_| bag.next_piece()).collect();
        Sim {
            board: Board::new(),
            hold: None,
            queue,
            carried: Carried::default(),
            bag,
            lines: 0,
        }
    }

    /// Panics unless `mv` is a legal placement of the current piece or the one holding brings
    /// out, spin label included.
    fn check(&self, mv: &Placement) {
        let current = self.queue[0];
        let out = self.hold.unwrap_or(self.queue[1]);
        assert!(
            mv.piece == current || mv.piece == out,
            "{mv:?} is neither {current} nor {out}"
        );
        let legal = generate(&self.board, mv.piece, Rules::Srs);
        let mut want = mv.cells();
        want.sort();
        assert!(
            legal.iter().any(|p| {
                let mut c = p.cells();
                c.sort();
                c == want && p.spin == mv.spin
            }),
            "illegal suggestion {mv:?} on\n{}",
            self.board
        );
    }

    /// Checks the move and plays it. Returns the pieces to announce with new_piece.
    fn play(&mut self, mv: &Placement) -> Vec<Piece> {
        self.check(mv);
        let current = self.queue[0];
        let mut consumed = 1;
        if mv.piece != current {
            match self.hold {
                Some(h) => assert_eq!(h, mv.piece, "hold swap must bring out the held piece"),
                None => {
                    assert_eq!(
                        self.queue[1], mv.piece,
                        "first hold brings out the next piece"
                    );
                    consumed = 2;
                }
            }
            self.hold = Some(current);
        }
        self.queue.drain(..consumed);
        let outcome = lock(&mut self.board, mv, self.carried);
        self.carried = outcome.carried;
        self.lines += outcome.lines;
        let fresh: Vec<Piece> = (0..consumed).map(|_| self.bag.next_piece()).collect();
        self.queue.extend(&fresh);
        fresh
    }
}

fn game(args: &[&str], pieces: usize, garbage_every: usize, noise: bool) -> (Sim, String) {
    let mut bot = Bot::start(args);
    let info = bot.recv();
    assert_eq!(info["type"], "info");
    assert!(info["name"].is_string());
    bot.send(r#"{"type":"rules","randomizer":"seven_bag"}"#);
    assert_eq!(bot.recv()["type"], "ready");
    let mut sim = Sim::new(42);
    bot.send(&start_msg(&sim.board, None, &sim.queue, sim.carried, 40));
    for i in 0..pieces {
        if garbage_every > 0 && i > 0 && i % garbage_every == 0 {
            // Garbage arrives: the front end sends a new start, with no stop, and only the
            // bottom 20 rows this time.
            sim.board.push_garbage(i % 10, 2);
            bot.send(&start_msg(
                &sim.board,
                sim.hold,
                &sim.queue,
                sim.carried,
                20,
            ));
        }
        if noise && i % 5 == 2 {
            bot.send("{not json");
            bot.send(r#"{"no_type": true}"#);
            bot.send(r#"{"type":"play","move":{"location":{"type":"O","orientation":"north","x":-5,"y":0},"spin":"none"}}"#);
            bot.send(r#"{"type":"new_piece","piece":"Q"}"#);
            bot.send(r#"{"type":"something_new","payload":[1,2,3]}"#);
        }
        bot.send(r#"{"type":"suggest"}"#);
        let s = bot.recv();
        assert_eq!(s["type"], "suggestion");
        let moves = s["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "empty suggestion at piece {i}");
        assert!(s["move_info"]["nodes"].as_u64().unwrap() > 0);
        // Every listed move is legal; the first is played.
        for m in moves.iter().skip(1) {
            sim.check(&parse_move(m));
        }
        let mv = parse_move(&moves[0]);
        let fresh = sim.play(&mv);
        // Real front ends send new_piece before play.
        for p in fresh {
            bot.send(&json!({"type": "new_piece", "piece": p.to_char().to_string()}).to_string());
        }
        bot.send(&json!({"type": "play", "move": moves[0]}).to_string());
    }
    bot.send(r#"{"type":"stop"}"#);
    bot.send(r#"{"type":"quit"}"#);
    let (ok, stderr) = bot.finish();
    assert!(ok, "bot exited with an error: {stderr}");
    (sim, stderr)
}

#[test]
fn a_whole_game_is_legal_and_clears_lines() {
    let (sim, _) = game(&["--beam", "16", "--previews", "3"], 60, 0, false);
    assert!(sim.lines >= 16, "only {} lines in 60 pieces", sim.lines);
}

#[test]
fn garbage_through_a_new_start_and_malformed_lines_are_survived() {
    let (sim, stderr) = game(&["--beam", "16", "--previews", "3"], 40, 6, true);
    assert!(sim.lines > 0);
    // Every bad line got one clear line on standard error, and no panic.
    assert!(stderr.contains("not a JSON object"), "{stderr}");
    assert!(stderr.contains("without a \"type\""), "{stderr}");
    assert!(
        stderr.contains("not a legal placement") || stderr.contains("impossible"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn quit_before_rules_and_end_of_input_exit_cleanly() {
    let mut bot = Bot::start(&[]);
    assert_eq!(bot.recv()["type"], "info");
    bot.send(r#"{"type":"quit"}"#);
    let (ok, stderr) = bot.finish();
    assert!(ok && stderr.is_empty(), "{stderr}");

    let mut bot = Bot::start(&[]);
    assert_eq!(bot.recv()["type"], "info");
    bot.send(r#"{"type":"suggest"}"#); // before start: a stderr line, no crash
    let (ok, stderr) = bot.finish();
    assert!(ok, "{stderr}");
    assert!(stderr.contains("suggest before start"), "{stderr}");
}

#[test]
fn loose_fields_are_read_loosely() {
    let mut bot = Bot::start(&["--beam", "8", "--previews", "2"]);
    assert_eq!(bot.recv()["type"], "info");
    bot.send(r#"{"type":"rules"}"#);
    assert_eq!(bot.recv()["type"], "ready");
    // back_to_back as a number, 20 rows, extra fields.
    let rows: Vec<Value> = (0..20)
        .map(|_| Value::Array(vec![Value::Null; 10]))
        .collect();
    let start = json!({"type":"start","hold":null,"queue":["T","I","O"],"combo":0,"back_to_back":1,
        "board":rows,"randomizer":{"type":"seven_bag","bag_state":["S","Z"]},"extra":{"a":1}});
    bot.send(&start.to_string());
    bot.send(r#"{"type":"suggest","some_field":true}"#);
    let s = bot.recv();
    // The best move, then up to four distinct alternatives.
    let moves = s["moves"].as_array().unwrap();
    assert!((2..=5).contains(&moves.len()), "{moves:?}");
    for (i, a) in moves.iter().enumerate() {
        assert!(moves[..i].iter().all(|b| b != a), "duplicate move {a}");
    }
    let (ok, stderr) = bot.finish();
    assert!(ok, "{stderr}");
}

#[test]
fn the_cache_rotates_when_the_front_end_plays_the_suggestion() {
    let mut bot = Bot::start(&["--beam", "8", "--previews", "3"]);
    bot.recv();
    let mut sim = Sim::new(5);
    bot.send(&start_msg(&sim.board, None, &sim.queue, sim.carried, 40));
    let mut transitions = Vec::new();
    for _ in 0..3 {
        bot.send(r#"{"type":"suggest"}"#);
        let s = bot.recv();
        transitions.push(s["move_info"]["extra"].as_str().unwrap().to_string());
        let mv = parse_move(&s["moves"][0]);
        let fresh = sim.play(&mv);
        bot.send(&json!({"type": "play", "move": s["moves"][0]}).to_string());
        for p in fresh {
            bot.send(&json!({"type": "new_piece", "piece": p.to_char().to_string()}).to_string());
        }
    }
    // A start with a different board (garbage) clears the tables.
    sim.board.push_garbage(3, 1);
    bot.send(&start_msg(
        &sim.board,
        sim.hold,
        &sim.queue,
        sim.carried,
        40,
    ));
    bot.send(r#"{"type":"suggest"}"#);
    transitions.push(
        bot.recv()["move_info"]["extra"]
            .as_str()
            .unwrap()
            .to_string(),
    );
    bot.finish();
    assert!(transitions[0].ends_with("Fresh"), "{transitions:?}");
    assert!(transitions[1].ends_with("Rotated"), "{transitions:?}");
    assert!(transitions[2].ends_with("Rotated"), "{transitions:?}");
    assert!(transitions[3].ends_with("Cleared"), "{transitions:?}");
}
