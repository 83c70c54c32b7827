//! Live matches: `tetris-tt versus` as the front end of external TBP bots, in real time.
//!
//! The external bots are `tests/bots/test_bot.py` (random legal moves, or a fault on purpose at
//! a given request) and `tetris-tt tbp` itself. Games run on 1 ms frames with a piece limit, so
//! a match takes seconds; the engine sides are small (beam 16, three previews) so that a test
//! build answers well within the limit.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

const ENGINE: &str = r#"{"beam_width": 16, "previews": 3}"#;

fn tetris_tt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tetris-tt"))
}

/// A scratch directory with the engine settings and 1 ms frames with a piece limit.
fn scratch(name: &str, max_pieces: u32) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetris-tt-live-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("engine.json"), ENGINE).unwrap();
    std::fs::write(
        dir.join("rules.json"),
        format!(r#"{{"frame_ms": 1.0, "max_pieces": {max_pieces}}}"#),
    )
    .unwrap();
    dir
}

/// The test bot in `mode`, with a tag on its command line that names this test's processes.
fn test_bot(mode: &str, tag: &str) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bots/test_bot.py");
    format!("python3 {} {mode} {tag}", script.display())
}

/// Runs `versus --json` in `dir` with `args` and returns the summary; the command must succeed.
fn versus(dir: &PathBuf, args: &[&str]) -> Value {
    let out = tetris_tt()
        .current_dir(dir)
        .args(["versus", "--json", "--rules-file", "rules.json"])
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "versus failed: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"))
}

fn forfeits(side: &Value) -> u64 {
    side["forfeits"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum()
}

/// The processes whose command line holds `tag`.
fn processes_tagged(tag: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(tag) {
                found.push(cmd);
            }
        }
    }
    found
}

#[test]
fn a_bot_playing_random_legal_moves_loses_nearly_every_game() {
    let dir = scratch("random", 200);
    let bot = test_bot("random 0", "tag-random");
    let m = versus(
        &dir,
        &[
            "--a",
            "engine.json",
            "--b-cmd",
            &bot,
            "--games",
            "20",
            "--threads",
            "2",
        ],
    );
    assert_eq!(m["games"], 20);
    assert_eq!(m["live"], true);
    let a_wins = m["a"]["wins"].as_u64().unwrap();
    assert!(a_wins >= 19, "the random bot lost only {} of 20", a_wins);
    // It lost by the rules of the game: every move it made was legal.
    assert_eq!((forfeits(&m["a"]), forfeits(&m["b"])), (0, 0), "{m}");
    assert!(m["b"]["topped_out"].as_u64().unwrap() + m["b"]["pushed_over"].as_u64().unwrap() >= 19);
    // Latency is measured for both sides, answer by answer.
    for side in ["a", "b"] {
        let l = &m[side]["latency"];
        assert!(l["answers"].as_u64().unwrap() >= 20 * 5, "{side}: {l}");
        assert!(l["median_ms"].as_f64().unwrap() <= l["p90_ms"].as_f64().unwrap());
        assert!(l["p90_ms"].as_f64().unwrap() <= l["worst_ms"].as_f64().unwrap());
    }
    let game = &m["game_list"][0];
    assert!(game["b"]["pps"].as_f64().unwrap() > 0.0, "{game}");
    assert!(
        game["b"]["latency"]["answers"].as_u64().unwrap() > 0,
        "{game}"
    );
    assert!(processes_tagged("tag-random").is_empty());
}

#[test]
fn bots_that_crash_hang_cheat_or_print_junk_lose_their_games_and_the_match_goes_on() {
    let dir = scratch("faults", 60);
    // Each fault comes at the bot's third request of every game, so every game of the match
    // meets it: the bot must be ended and started again for the second game.
    for (mode, kind) in [
        ("crash", "crash"),
        ("hang", "timeout"),
        ("illegal", "illegal"),
        ("wrong", "not_in_queue"),
        ("junk", "junk"),
    ] {
        let tag = format!("tag-fault-{mode}");
        let bot = test_bot(&format!("{mode} 3"), &tag);
        let m = versus(
            &dir,
            &[
                "--a",
                "engine.json",
                "--b-cmd",
                &bot,
                "--games",
                "2",
                "--answer-limit-ms",
                "300",
            ],
        );
        assert_eq!(m["games"], 2, "{mode}");
        assert_eq!(m["a"]["wins"], 2, "{mode}: {m}");
        assert_eq!(m["b"]["forfeits"][kind], 2, "{mode}: {m}");
        assert_eq!(forfeits(&m["a"]), 0, "{mode}");
        for g in m["game_list"].as_array().unwrap() {
            assert_eq!(g["b"]["forfeit"], kind, "{mode}: {g}");
            // Two moves were played before the fault, in each game.
            assert_eq!(g["b_pieces"], 2, "{mode}: {g}");
        }
        // No bot outlives the match, not even one that ignores quit.
        assert_eq!(processes_tagged(&tag), Vec::<String>::new(), "{mode}");
    }
}

/// A game can end while a bot is still thinking; its late answer must not be taken as the
/// answer to the next game's first request (it places a piece of the old game).
#[test]
fn an_answer_owed_when_a_game_ends_is_not_read_in_the_next_game() {
    let dir = scratch("owed", 200);
    // The slow bot takes 60 frames a move, the random one a few: the random one tops out
    // first, nearly always while the slow one is thinking.
    let fast = test_bot("random 0", "tag-owed-fast");
    let slow = test_bot("slow 60", "tag-owed-slow");
    let m = versus(&dir, &["--a-cmd", &fast, "--b-cmd", &slow, "--games", "6"]);
    assert_eq!(m["games"], 6);
    assert_eq!((forfeits(&m["a"]), forfeits(&m["b"])), (0, 0), "{m}");
    assert!(m["b"]["wins"].as_u64().unwrap() >= 4, "{m}");
}

#[test]
fn a_bot_that_cannot_start_is_a_one_line_error_before_the_match() {
    let dir = scratch("missing", 60);
    let junk = test_bot("junk 1", "tag-junk-start");
    for (cmd, says) in [
        ("./no-such-bot", "--b-cmd: cannot start ./no-such-bot"),
        ("true", "--b-cmd: true: exited before its info"),
    ] {
        let out = tetris_tt()
            .current_dir(&dir)
            .args(["versus", "--a", "engine.json", "--b-cmd", cmd])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{cmd}");
        assert!(stderr.contains(says), "{cmd}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    // A bot that starts but misbehaves later is still only a forfeit.
    let m = versus(
        &dir,
        &["--a", "engine.json", "--b-cmd", &junk, "--games", "2"],
    );
    assert_eq!(m["b"]["forfeits"]["junk"], 2, "{m}");
}

#[test]
fn an_external_tetris_tt_bot_plays_the_same_engine_in_process_about_even() {
    let dir = scratch("mirror", 120);
    let external = format!(
        "{} tbp --engine engine.json --fixed",
        env!("CARGO_BIN_EXE_tetris-tt")
    );
    let m = versus(
        &dir,
        &[
            "--a-cmd",
            &external,
            "--b",
            "engine.json",
            "--games",
            "12",
            "--threads",
            "2",
        ],
    );
    assert_eq!(m["games"], 12);
    assert_eq!((forfeits(&m["a"]), forfeits(&m["b"])), (0, 0), "{m}");
    // The same engine on both sides: neither wins nearly everything, and they attack alike.
    let score = m["score"].as_f64().unwrap();
    assert!((0.15..=0.85).contains(&score), "score {score}: {m}");
    let (a, b) = (
        m["a"]["app"].as_f64().unwrap(),
        m["b"]["app"].as_f64().unwrap(),
    );
    assert!(
        a > 0.0 && b > 0.0 && a / b < 2.0 && b / a < 2.0,
        "APP {a} and {b}"
    );
}

#[test]
fn bad_bot_commands_are_one_line_errors() {
    for (args, says) in [
        (vec!["--b-cmd", ""], "--b-cmd: an empty bot command"),
        (vec!["--a-cmd", "bot 'unbalanced"], "--a-cmd: cannot split"),
        (vec!["--b-cmd", "x", "--b", "y.json"], "cannot be used with"),
        (vec!["--live", "--answer-limit-ms", "0"], "answer-limit-ms"),
    ] {
        let out = tetris_tt().arg("versus").args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}
