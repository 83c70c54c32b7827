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
            bot.send(r#"{"type":"play","move":{"location":{"type":"O","orientation":"upside","x":4,"y":0},"spin":"none"}}"#);
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

/// The bot thinking on two search threads plays the game it plays on one (`--fixed`: every
/// answer is the configured width's pass, whatever the timing).
#[test]
fn two_search_threads_play_the_same_game() {
    let args = ["--beam", "16", "--previews", "3", "--fixed"];
    let (one, _) = game(&args, 30, 7, false);
    let (two, _) = game(
        &[&args[..], &["--search-threads", "2"]].concat(),
        30,
        7,
        false,
    );
    assert_eq!(two.board, one.board);
    assert_eq!(two.lines, one.lines);
}

#[test]
fn garbage_through_a_new_start_and_malformed_lines_are_survived() {
    let (sim, stderr) = game(&["--beam", "16", "--previews", "3"], 40, 6, true);
    assert!(sim.lines > 0);
    // Every bad line got one clear line on standard error, and no panic.
    assert!(stderr.contains("not a JSON object"), "{stderr}");
    assert!(stderr.contains("without a \"type\""), "{stderr}");
    assert!(stderr.contains("orientation must be"), "{stderr}");
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
    // The bot thinks from the moment it knows a position: a new piece after the play searches
    // the same position again and keeps the tables the play rotated ("Rotated (kept since)").
    assert!(transitions[0].contains("Fresh"), "{transitions:?}");
    assert!(transitions[1].contains("Rotated"), "{transitions:?}");
    assert!(transitions[2].contains("Rotated"), "{transitions:?}");
    assert!(transitions[3].contains("Cleared"), "{transitions:?}");
}

/// A 40-row start message for `board` with `queue`, an empty hold and no chains.
fn start_on(board: &Board, queue: &[Piece]) -> String {
    start_msg(board, None, queue, Carried::default(), 40)
}

fn play_msg(p: &Placement) -> String {
    json!({"type": "play", "move": {
        "location": {"type": p.piece.to_char().to_string(), "orientation": p.rotation.name(),
            "x": p.x, "y": p.y},
        "spin": p.spin.name()}})
    .to_string()
}

const QUEUE: [Piece; 6] = [Piece::I, Piece::T, Piece::O, Piece::L, Piece::J, Piece::S];

/// Front end authority: a play that this engine's move generator does not reach (another kick
/// table, a front-end quirk) was ignored, and the bot went on with a board the game did not
/// have. When the cells fit, the bot adopts the move and warns.
#[test]
fn front_end_authority_an_unreachable_play_whose_cells_fit_is_adopted() {
    // Row 0 is open in columns 0..4 under row 1: an I lying there is unreachable.
    let board: Board = "#########.\n....######".parse().unwrap();
    let cave = Placement {
        piece: Piece::I,
        rotation: Rotation::North,
        x: 1,
        y: 0,
        spin: Spin::None,
    };
    assert!(!generate(&board, Piece::I, Rules::Srs).contains(&cave));
    let mut bot = Bot::start(&["--beam", "8", "--previews", "2"]);
    bot.recv();
    bot.send(&start_on(&board, &QUEUE));
    bot.send(&play_msg(&cave));
    // The front end's board: the I fills row 0, which clears.
    let mut front = board;
    let cleared = lock(&mut front, &cave, Carried::default());
    assert_eq!(cleared.lines, 1);
    bot.send(r#"{"type":"suggest"}"#);
    let s = bot.recv();
    let moves = s["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    // Every suggested move is legal on the front end's board, for T (or O by a first hold).
    for m in moves {
        let mv = parse_move(m);
        assert!(
            generate(&front, mv.piece, Rules::Srs).contains(&mv),
            "{mv:?} is not legal on the front end's board\n{front}"
        );
    }
    let (ok, stderr) = bot.finish();
    assert!(ok, "{stderr}");
    assert!(stderr.contains("adopted"), "{stderr}");
}

/// Front end authority: a play whose cells do not fit the bot's board means the bot no longer
/// knows the game. It warns, answers suggestions with no move instead of playing on a board
/// the game does not have, and follows again from the next start.
#[test]
fn front_end_authority_a_play_that_does_not_fit_waits_for_the_next_start() {
    let board: Board = "#########.".parse().unwrap();
    let mut bot = Bot::start(&["--beam", "8", "--previews", "2"]);
    bot.recv();
    bot.send(&start_on(&board, &QUEUE));
    let overlapping = Placement {
        piece: Piece::I,
        rotation: Rotation::North,
        x: 1,
        y: 0,
        spin: Spin::None,
    };
    bot.send(&play_msg(&overlapping));
    bot.send(r#"{"type":"suggest"}"#);
    let s = bot.recv();
    assert_eq!(s["type"], "suggestion");
    assert_eq!(s["moves"].as_array().unwrap().len(), 0, "{s}");
    bot.send(&start_on(&board, &QUEUE[1..]));
    bot.send(r#"{"type":"suggest"}"#);
    let s = bot.recv();
    assert!(!s["moves"].as_array().unwrap().is_empty(), "{s}");
    let (ok, stderr) = bot.finish();
    assert!(ok, "{stderr}");
    assert!(stderr.contains("does not fit"), "{stderr}");
}

/// Finds a placement that SRS+ (the TETR.IO variant) reaches and guideline SRS does not.
fn srs_plus_only() -> (Board, Placement) {
    let boards = [
        "#.........\n#.........\n##......##\n###....###\n####...###\n####..####\n###...####\n####.#####",
        "........##\n####..####\n###...####\n###.######\n###..#####\n##...#####\n###.######\n###.######\n####.#####",
        "########..\n########..\n#.........\n#.........\n#..#######\n#..#######\n#........#\n#........#\n########.#\n########.#\n.........#\n.........#",
    ];
    for text in boards {
        let board: Board = text.parse().unwrap();
        for piece in Piece::ALL {
            let srs = generate(&board, piece, Rules::Srs);
            let cells = |p: &Placement| {
                let mut c = p.cells();
                c.sort();
                c
            };
            if let Some(p) = generate(&board, piece, Rules::SrsPlus)
                .into_iter()
                .find(|p| srs.iter().all(|q| cells(q) != cells(p)))
            {
                return (board, p);
            }
        }
    }
    panic!("no board of the list separates SRS from SRS+");
}

/// `rules` is read: a rotation system named by the front end replaces `--rules`, and one the
/// bot does not know is refused with `unsupported_rules`, as the protocol asks.
#[test]
fn rules_a_named_rotation_system_is_honoured() {
    let (board, p) = srs_plus_only();
    let mut queue = vec![p.piece];
    queue.extend(QUEUE);
    for (rules, adopted) in [
        (r#"{"type":"rules"}"#, true),
        (r#"{"type":"rules","kicks":"srs_plus"}"#, false),
    ] {
        let mut bot = Bot::start(&["--beam", "8", "--previews", "2"]);
        bot.recv();
        bot.send(rules);
        assert_eq!(bot.recv()["type"], "ready");
        bot.send(&start_on(&board, &queue));
        bot.send(&play_msg(&p));
        let (ok, stderr) = bot.finish();
        assert!(ok, "{stderr}");
        assert_eq!(stderr.contains("adopted"), adopted, "{rules}: {stderr}");
    }
    let mut bot = Bot::start(&[]);
    bot.recv();
    bot.send(r#"{"type":"rules","kicks":"arika"}"#);
    let answer = bot.recv();
    assert_eq!(
        (answer["type"].as_str(), answer["reason"].as_str()),
        (Some("error"), Some("unsupported_rules"))
    );
    bot.finish();
}

/// Overflow: a start with an absurd combo count made the next clear overflow `combo + 1` (a
/// panic in debug builds, which these tests use). The bot warns and keeps playing.
#[test]
fn overflow_an_absurd_combo_in_start_is_clamped_with_a_warning() {
    let board: Board = "#########.\n#########.".parse().unwrap();
    let mut bot = Bot::start(&["--beam", "8", "--previews", "2"]);
    bot.recv();
    let mut start: Value = serde_json::from_str(&start_on(&board, &QUEUE)).unwrap();
    start["combo"] = json!(4294967295u64);
    bot.send(&start.to_string());
    bot.send(r#"{"type":"suggest"}"#);
    let s = bot.recv();
    let best = parse_move(&s["moves"][0]);
    bot.send(&play_msg(&best));
    bot.send(r#"{"type":"suggest"}"#);
    assert_eq!(bot.recv()["type"], "suggestion");
    let (ok, stderr) = bot.finish();
    assert!(ok, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("combo"), "{stderr}");
}
