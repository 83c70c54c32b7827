//! The bot against a seeded storm of junk lines mixed into a real game: it must never panic,
//! answer every `suggest` exactly once, and keep following the front end's game.
//!
//! The whole input is handed over at once, so this checks what the bot makes of each line,
//! not timing: the protocol thread reads the next line before the thinking thread is far into
//! a search. The timed storms in `storm` send lines with pauses and well-formed `rules`,
//! `stop` and `start` at any moment, which is what catches an answer waiting on a search that
//! was interrupted.

use super::{Options, run};
use board::{Board, Placement, Rules, generate};
use game::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::{Config, Engine, Weights};
use serde_json::{Value, json};

pub(super) fn letters(pieces: &[board::Piece]) -> Vec<String> {
    pieces.iter().map(|p| p.to_char().to_string()).collect()
}

pub(super) fn start_msg(g: &Game) -> Value {
    let s = g.state();
    let board: Vec<Value> = (0..40)
        .map(|y| {
            Value::Array(
                (0..10)
                    .map(|x| {
                        if s.board.occupied(x, y) {
                            json!("G")
                        } else {
                            Value::Null
                        }
                    })
                    .collect(),
            )
        })
        .collect();
    let mut queue = vec![s.current];
    queue.extend(&s.queue);
    json!({"type": "start", "hold": s.hold.map(|p| p.to_char().to_string()),
        "queue": letters(&queue), "combo": s.carried.combo, "back_to_back": s.carried.b2b,
        "board": board})
}

pub(super) fn play_msg(p: &Placement, hold: Option<bool>) -> Value {
    let mut m = json!({"type": "play", "move": {"location": {"type": p.piece.to_char().to_string(),
        "orientation": p.rotation.name(), "x": p.x, "y": p.y}, "spin": p.spin.name()}});
    if let Some(h) = hold {
        m["move"]["hold"] = json!(h);
    }
    m
}

/// A line that no front end could mean as a move of the game: the bot must warn and change
/// nothing. (A well-formed `start`, `play`, `stop` or `rules` is never junk: it is the game.)
pub(super) fn junk(rng: &mut ChaCha8Rng, real: &Value) -> Vec<u8> {
    let text = real.to_string();
    let wrong_values = [
        json!(null),
        json!(-1),
        json!(1e300),
        json!("Q"),
        json!("TT"),
        json!(""),
        json!([1, [2]]),
        json!({"a": 1}),
        json!(true),
        json!("\u{1F600}\u{0}"),
    ];
    match rng.random_range(0..9) {
        // Random bytes, not always UTF-8.
        0 => (0..rng.random_range(0..200))
            .map(|_| rng.random::<u8>())
            .filter(|&b| b != b'\n')
            .collect(),
        // A real message cut short: never valid JSON.
        1 => text.as_bytes()[..rng.random_range(1..text.len())].to_vec(),
        // A real message with a type no protocol has.
        2 => {
            let mut m = real.clone();
            m["type"] = json!(format!("junk{}", rng.random::<u32>()));
            m.to_string().into_bytes()
        }
        // A start with a field of the wrong type or size.
        3 => {
            let mut m = real.clone();
            m["type"] = json!("start");
            match rng.random_range(0..5) {
                0 => m["queue"] = wrong_values[rng.random_range(1..wrong_values.len())].clone(),
                1 => m["board"] = json!([[null, "G"]]),
                2 => m["hold"] = json!(rng.random_range(0..100)),
                3 => m["combo"] = json!("lots"),
                _ => m["back_to_back"] = json!("maybe"),
            }
            if m.get("queue").is_none() || m.get("board").is_none() {
                m["board"] = json!("not a board");
            }
            m.to_string().into_bytes()
        }
        // A play with an impossible location field.
        4 => {
            let field = ["type", "orientation", "x", "y"][rng.random_range(0..4)];
            let bad = match field {
                "x" | "y" => [json!(1000), json!(-1000), json!("left"), json!(3.5)][rng.random_range(0..4)].clone(),
                _ => [json!("Q"), json!("up"), json!(7), json!("")][rng.random_range(0..4)].clone(),
            };
            let mut m = json!({"type": "play", "move": {"location":
                {"type": "T", "orientation": "north", "x": 4, "y": 1}, "spin": "none"}});
            m["move"]["location"][field] = bad;
            m.to_string().into_bytes()
        }
        // new_piece with no piece.
        5 => json!({"type": "new_piece", "piece": wrong_values[rng.random_range(0..wrong_values.len())]})
            .to_string()
            .into_bytes(),
        // JSON that is not a message object.
        6 => ["[1,2,3]", "42", "\"suggest\"", "{\"type\": 5}", "{}", "null"][rng.random_range(0..6)]
            .as_bytes()
            .to_vec(),
        // Nesting deeper than any parser should follow.
        7 => {
            let depth = rng.random_range(100..3000);
            let mut s = "[".repeat(depth);
            s.push_str(&"]".repeat(depth));
            s.into_bytes()
        }
        // A play with a spin no protocol has.
        _ => json!({"type": "play", "move": {"location": {"type": "T", "orientation": "north",
            "x": 4, "y": 1}, "spin": "twirl"}})
        .to_string()
        .into_bytes(),
    }
}

#[test]
// One idea: one scripted front end, written as the game it plays.
fn ten_thousand_junk_lines_mixed_with_real_games_are_survived() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    // The front end's own player, to make real games.
    let mut player = Engine::with_config(Config {
        beam_width: 4,
        previews: 2,
        ..Config::default()
    });
    let mut seed = 1;
    let mut game = Game::new(seed, 5);
    let mut input: Vec<u8> = Vec::new();
    let line = |input: &mut Vec<u8>, bytes: &[u8]| {
        input.extend_from_slice(bytes);
        input.push(b'\n');
    };
    line(&mut input, br#"{"type":"rules","randomizer":"seven_bag"}"#);
    line(&mut input, start_msg(&game).to_string().as_bytes());
    // The front end's board at each suggest, to check the answers against.
    let mut boards: Vec<Board> = Vec::new();
    let mut junk_lines = 0;
    while junk_lines < 10_000 {
        for _ in 0..rng.random_range(0..80) {
            let real = start_msg(&game);
            line(&mut input, &junk(&mut rng, &real));
            junk_lines += 1;
        }
        line(&mut input, br#"{"type":"suggest"}"#);
        boards.push(game.state().board);
        let plan = player
            .suggest(game.state())
            .expect("the front end's player has a move");
        let before = game.state().clone();
        game.play(&plan.placement, plan.uses_hold).unwrap();
        let taken = if plan.uses_hold && before.hold.is_none() {
            2
        } else {
            1
        };
        let fresh = &game.state().queue[game.state().queue.len() - taken..];
        // The hold flag goes with the move only where the piece cannot tell.
        let flag = (plan.uses_hold && plan.placement.piece == before.current).then_some(true);
        for p in fresh.iter().copied() {
            line(
                &mut input,
                json!({"type": "new_piece", "piece": p.to_char().to_string()})
                    .to_string()
                    .as_bytes(),
            );
        }
        line(
            &mut input,
            play_msg(&plan.placement, flag).to_string().as_bytes(),
        );
        if game.is_over() || game.totals().pieces >= 60 {
            seed += 1;
            game = Game::new(seed, 5);
            player.reset();
            line(&mut input, br#"{"type":"stop"}"#);
            line(&mut input, start_msg(&game).to_string().as_bytes());
        }
    }
    line(&mut input, br#"{"type":"suggest"}"#);
    boards.push(game.state().board);

    let mut out: Vec<u8> = Vec::new();
    run(
        &input[..],
        &mut out,
        Options {
            config: Config {
                beam_width: 8,
                previews: 2,
                rules: Rules::Srs,
                ..Config::default()
            },
            weights: Weights::default(),
            think: None,
            widen: true,
        },
    )
    .expect("no I/O error");
    let answers: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v["type"] == "suggestion")
        .collect();
    assert_eq!(answers.len(), boards.len(), "one suggestion per suggest");
    for (i, (a, board)) in answers.iter().zip(&boards).enumerate() {
        let moves = a["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "suggestion {i}: the bot lost the game");
        for m in moves {
            let loc = &m["location"];
            let p = Placement {
                piece: board::Piece::from_char(
                    loc["type"].as_str().unwrap().chars().next().unwrap(),
                )
                .unwrap(),
                rotation: board::Rotation::from_name(loc["orientation"].as_str().unwrap()).unwrap(),
                x: loc["x"].as_i64().unwrap() as i8,
                y: loc["y"].as_i64().unwrap() as i8,
                spin: board::Spin::from_name(m["spin"].as_str().unwrap()).unwrap(),
            };
            assert!(
                generate(board, p.piece, Rules::Srs).contains(&p),
                "suggestion {i}: {p:?} is not legal on the front end's board\n{board}"
            );
        }
    }
}
