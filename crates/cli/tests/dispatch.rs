//! `--dispatch` on `versus` and `tune`: a runner plays the games (`batch --spec`) and hands them
//! back, and everything the command writes is what it writes when it plays them itself.
//!
//! The runner here is a few lines of test code doing what the Ray runner in `python/` does on
//! many machines: read each request, play its games with `tetris-tt batch --spec`, and write
//! the records back in order.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn tetris_tt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tetris-tt"))
}

/// A scratch directory with small engines and 30-piece games (fast in a test build).
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tetris-tt-dispatch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.json"), r#"{"beam_width": 4, "previews": 2}"#).unwrap();
    std::fs::write(
        dir.join("b.json"),
        r#"{"beam_width": 2, "previews": 1, "holes": -40}"#,
    )
    .unwrap();
    std::fs::write(dir.join("rules.json"), r#"{"max_pieces": 30}"#).unwrap();
    dir
}

/// What the runner does with a request.
enum Answer {
    /// Every game, as `batch` prints it.
    All,
    /// The first `n` games, then it closes the command's input.
    First(usize),
    /// The first game's record with another index.
    WrongIndex,
}

/// Runs `tetris-tt args` with `--dispatch` in `dir`, answering its requests; returns its exit
/// status, its own output lines (not the requests), its standard error and the requests.
fn dispatched(dir: &Path, args: &[&str], answer: Answer) -> (bool, String, String, Vec<Value>) {
    let mut child = tetris_tt()
        .current_dir(dir)
        .args(args)
        .arg("--dispatch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take();
    let output = BufReader::new(child.stdout.take().unwrap());
    let mut own = String::new();
    let mut requests = Vec::new();
    for line in output.lines() {
        let line = line.unwrap();
        let Some(request) = serde_json::from_str::<Value>(&line)
            .ok()
            .and_then(|v| v.get("tetris_tt_request").cloned())
        else {
            own += &line;
            own.push('\n');
            continue;
        };
        let spec = dir.join(format!("spec-{}.json", requests.len()));
        std::fs::write(&spec, request["spec"].to_string()).unwrap();
        let first = request["first"].as_u64().unwrap();
        let games = request["games"].as_u64().unwrap();
        requests.push(request);
        let out = tetris_tt()
            .current_dir(dir)
            .args(["batch", "--threads", "2", "--spec"])
            .arg(&spec)
            .args(["--first", &first.to_string(), "--games", &games.to_string()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let records: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
        assert_eq!(records.len() as u64, games);
        let sent: Vec<String> = match answer {
            Answer::All => records.iter().map(|r| r.to_string()).collect(),
            Answer::First(n) => records[..n].iter().map(|r| r.to_string()).collect(),
            Answer::WrongIndex => {
                let mut v: Value = serde_json::from_str(records[0]).unwrap();
                v["index"] = serde_json::json!(first + 1);
                vec![v.to_string()]
            }
        };
        if let Some(w) = &mut input {
            for r in sent {
                // The command stops reading once it has what it needs (a decided SPRT).
                if writeln!(w, "{r}").is_err() {
                    break;
                }
            }
        }
        if !matches!(answer, Answer::All) {
            input = None;
        }
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        own,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        requests,
    )
}

fn plain(dir: &Path, args: &[&str]) -> String {
    let out = tetris_tt().current_dir(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A summary without what depends on the wall clock.
fn games_of(summary: &str) -> Value {
    let mut v: Value = serde_json::from_str(summary).unwrap();
    for k in [
        "wall_seconds",
        "games_per_minute",
        "speed_vs_real_time",
        "resumed",
    ] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

const MATCH: [&str; 8] = [
    "versus",
    "--a",
    "a.json",
    "--b",
    "b.json",
    "--rules-file",
    "rules.json",
    "--json",
];

#[test]
fn a_dispatched_match_writes_the_summary_and_checkpoint_of_the_match_played_here() {
    let dir = scratch("match");
    let args = |file: &'static str| [&MATCH[..], &["--games", "6", "--checkpoint", file]].concat();
    let here = plain(&dir, &args("here.jsonl"));
    let (ok, own, err, requests) = dispatched(&dir, &args("there.jsonl"), Answer::All);
    assert!(ok, "{err}");
    assert_eq!(games_of(&own), games_of(&here));
    assert_eq!(
        std::fs::read(dir.join("there.jsonl")).unwrap(),
        std::fs::read(dir.join("here.jsonl")).unwrap(),
        "the checkpoint files differ"
    );
    // One request, for every game.
    assert_eq!(requests.len(), 1);
    assert_eq!(
        (requests[0]["first"].as_u64(), requests[0]["games"].as_u64()),
        (Some(0), Some(6))
    );
    // Resumed for two more games, it asks only for those.
    let more = |file: &'static str| [&MATCH[..], &["--games", "8", "--checkpoint", file]].concat();
    let here = plain(&dir, &more("here.jsonl"));
    let (ok, own, err, requests) = dispatched(&dir, &more("there.jsonl"), Answer::All);
    assert!(ok, "{err}");
    assert_eq!(games_of(&own), games_of(&here));
    assert_eq!(requests.len(), 1);
    assert_eq!(
        (requests[0]["first"].as_u64(), requests[0]["games"].as_u64()),
        (Some(6), Some(2))
    );
}

#[test]
fn a_dispatched_sprt_stops_where_the_match_played_here_stops() {
    let dir = scratch("sprt");
    // B places holes on purpose, and games run to 200 pieces, so the test decides in a few.
    std::fs::write(
        dir.join("b.json"),
        r#"{"beam_width": 1, "previews": 0, "holes": 100}"#,
    )
    .unwrap();
    std::fs::write(dir.join("rules.json"), r#"{"max_pieces": 200}"#).unwrap();
    let args = [
        &MATCH[..],
        &[
            "--games",
            "200",
            "--sprt=-50,50",
            "--alpha",
            "0.2",
            "--beta",
            "0.2",
        ],
    ]
    .concat();
    let here = plain(&dir, &args);
    let (ok, own, err, _) = dispatched(&dir, &args, Answer::All);
    assert!(ok, "{err}");
    let (h, d) = (games_of(&here), games_of(&own));
    assert_eq!(d, h);
    let games = h["games"].as_u64().unwrap();
    assert!(
        games < 200,
        "the test must decide before the last game to test stopping: {games}"
    );
    assert_ne!(h["sprt"]["verdict"], "continue");
}

#[test]
fn a_runner_that_stops_answering_or_answers_the_wrong_game_is_an_error_and_the_games_it_gave_are_kept()
 {
    let dir = scratch("fail");
    let args = |file: &'static str| [&MATCH[..], &["--games", "6", "--checkpoint", file]].concat();
    let (ok, _, err, _) = dispatched(&dir, &args("cut.jsonl"), Answer::First(3));
    assert!(!ok);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("closed its answers before game 3"), "{err}");
    // The three games that came are in the checkpoint: the match resumes after them.
    let kept = std::fs::read_to_string(dir.join("cut.jsonl")).unwrap();
    assert_eq!(kept.lines().count(), 1 + 3);
    let resumed = plain(&dir, &args("cut.jsonl"));
    let whole = plain(&dir, &args("whole.jsonl"));
    assert_eq!(games_of(&resumed), games_of(&whole));
    let (ok, _, err, _) = dispatched(&dir, &args("wrong.jsonl"), Answer::WrongIndex);
    assert!(!ok);
    assert!(
        err.contains("answered game 1 where game 0 belongs"),
        "{err}"
    );
}

#[test]
fn a_dispatched_tuning_run_writes_the_files_of_the_run_played_here() {
    let dir = scratch("tune");
    let args = |run: &'static str| {
        [
            &[
                "tune",
                "--engine",
                "a.json",
                "--rules-file",
                "rules.json",
                "--steps",
                "2",
                "--pairs",
                "2",
                "--params",
                "holes,height",
                "--dir",
            ][..],
            &[run],
        ]
        .concat()
    };
    let here = plain(&dir, &args("here"));
    let (ok, own, err, requests) = dispatched(&dir, &args("there"), Answer::All);
    assert!(ok, "{err}");
    assert_eq!(own, here, "the final weights differ");
    assert_eq!(requests.len(), 2, "a request per step");
    let read = |run: &str, f: &str| std::fs::read_to_string(dir.join(run).join(f)).unwrap();
    assert_eq!(
        read("there", "checkpoint.json"),
        read("here", "checkpoint.json")
    );
    let log = |run: &str| -> Vec<Value> {
        read(run, "log.jsonl")
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                v.as_object_mut().unwrap().remove("seconds");
                v
            })
            .collect()
    };
    assert_eq!(log("there"), log("here"));
    // A step whose games do not all come is not saved.
    let (ok, _, err, _) = dispatched(&dir, &args("cut"), Answer::First(1));
    assert!(!ok);
    assert!(err.contains("closed its answers before game 1"), "{err}");
    assert!(!dir.join("cut").join("checkpoint.json").exists());
}
