//! The other subcommands, run as a user would: output shape, reproducibility and errors.

use serde_json::Value;
use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// The command started with all three streams piped.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tetris-tt"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = spawn(args);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Standard output of a run that succeeded (its standard error shown if it did not).
fn text_of(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn json_of(out: &Output) -> Value {
    serde_json::from_str(&text_of(out)).unwrap()
}

const SMALL: &[&str] = &["--beam", "16", "--previews", "3", "--no-render", "--json"];

/// `play --seeds` plays exactly the games of `play --seed` for each seed (in the order given,
/// whatever the threads) and its summary is their mean, lowest and highest.
#[test]
fn play_seeds_summarises_the_games_play_seed_plays() {
    let series = json_of(&run(
        &[
            &[
                "play",
                "--seeds",
                "5,2-3",
                "--threads",
                "2",
                "--pieces",
                "20",
            ],
            SMALL,
        ]
        .concat(),
        "",
    ));
    assert_eq!(series["seeds"], serde_json::json!([5, 2, 3]));
    let games = series["games"].as_array().expect("games");
    assert_eq!(games.len(), 3);
    let mut apps = Vec::new();
    for (game, seed) in games.iter().zip(["5", "2", "3"]) {
        let single = json_of(&run(
            &[&["play", "--seed", seed, "--pieces", "20"], SMALL].concat(),
            "",
        ));
        assert_eq!(game["seed"].to_string(), seed);
        assert_eq!(game["moves_digest"], single["moves_digest"], "seed {seed}");
        assert_eq!(game["app"], single["app"], "seed {seed}");
        apps.push(single["app"].as_f64().unwrap());
    }
    let mean = apps.iter().sum::<f64>() / 3.0;
    assert!((series["mean_app"].as_f64().unwrap() - mean).abs() < 1e-12);
    let lowest = apps.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = apps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(series["min_app"].as_f64(), Some(lowest));
    assert_eq!(series["max_app"].as_f64(), Some(highest));
    assert_eq!(series["topped_out"], 0);
}

/// `play --seeds --against` plays each seed with both settings, each game exactly as `play
/// --seed` plays it, the options applying to both sides, and compares them seed by seed.
#[test]
fn play_seeds_against_pairs_the_games_of_both_settings() {
    let dir = std::env::temp_dir().join(format!("tetris-tt-against-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a_file = dir.join("a.json");
    let b_file = dir.join("b.json");
    // The files differ in one setting; --beam 16 (in SMALL) applies to both.
    std::fs::write(&a_file, r#"{"use_hold": false}"#).unwrap();
    std::fs::write(&b_file, r#"{"beam_width": 2}"#).unwrap();
    let (a_path, b_path) = (a_file.to_str().unwrap(), b_file.to_str().unwrap());
    let paired = json_of(&run(
        &[
            &[
                "play",
                "--seeds",
                "2-4",
                "--pieces",
                "20",
                "--engine",
                a_path,
                "--against",
                b_path,
            ],
            SMALL,
        ]
        .concat(),
        "",
    ));
    let mut diffs = Vec::new();
    for (side, file) in [("a", a_path), ("b", b_path)] {
        let games = paired[side]["games"].as_array().expect("games");
        assert_eq!(games.len(), 3);
        for (game, seed) in games.iter().zip(["2", "3", "4"]) {
            let single = json_of(&run(
                &[
                    &["play", "--seed", seed, "--pieces", "20", "--engine", file],
                    SMALL,
                ]
                .concat(),
                "",
            ));
            assert_eq!(
                game["moves_digest"], single["moves_digest"],
                "{side} seed {seed}"
            );
            assert_eq!(game["beam"], 16, "--beam applies to {side}");
        }
    }
    for i in 0..3 {
        let app = |side: &str| paired[side]["games"][i]["app"].as_f64().unwrap();
        diffs.push(app("a") - app("b"));
    }
    assert_ne!(
        paired["a"]["games"][0]["moves_digest"], paired["b"]["games"][0]["moves_digest"],
        "the two settings play different games"
    );
    let d = &paired["difference"];
    assert_eq!(d["n"], 3);
    let mean = diffs.iter().sum::<f64>() / 3.0;
    assert!((d["mean"].as_f64().unwrap() - mean).abs() < 1e-12);
    let counted = ["higher", "lower", "level"].map(|k| d[k].as_u64().unwrap());
    assert_eq!(
        counted[0],
        diffs.iter().filter(|&&x| x > 0.0).count() as u64
    );
    assert_eq!(counted.iter().sum::<u64>(), 3);
    assert!(d["interval_95"].as_f64().unwrap() >= 0.0);

    // A bad --against file fails at once, in one line, before any game; --against needs --seeds.
    let missing = dir.join("missing.json");
    let out = run(
        &[
            "play",
            "--seeds",
            "1-3",
            "--pieces",
            "2000",
            "--against",
            missing.to_str().unwrap(),
            "--no-render",
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("missing.json"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let out = run(&["play", "--against", b_path, "--pieces", "5"], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--seeds"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A bad seed list is one line on standard error and exit code 2, never a panic.
#[test]
fn play_seeds_refuses_bad_lists_in_one_line() {
    for (list, says) in [
        ("3-1", "low to high"),
        ("x", "is not a seed"),
        ("1,,2", "is not a seed"),
        ("4-", "is not a seed"),
        ("1,2,1", "listed twice"),
        ("0-100000", "at most 100,000"),
    ] {
        let out = run(
            &["play", "--seeds", list, "--pieces", "5", "--no-render"],
            "",
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{list}: {err}");
        assert!(err.contains(says), "{list}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{list}: {err}");
        assert!(out.stdout.is_empty(), "{list}");
    }
    // --threads is for --seeds, and the message names what is missing.
    let out = run(&["play", "--threads", "2", "--pieces", "5"], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--seeds"), "{err}");
    let out = run(
        &["play", "--seeds", "1", "--seed", "2", "--pieces", "5"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn play_json_has_every_summary_field_and_replays_by_seed() {
    let args = [&["play", "--seed", "4", "--pieces", "25"], SMALL].concat();
    let a = json_of(&run(&args, ""));
    for f in [
        "seed",
        "pieces",
        "lines",
        "attack",
        "app",
        "topped_out",
        "seconds",
        "pps",
        "nodes",
        "nps",
        "memory_bytes",
    ] {
        assert!(a.get(f).is_some(), "missing {f}");
    }
    for f in [
        "bits",
        "depths",
        "entries_per_table",
        "bytes",
        "lookups",
        "hits",
        "stores",
        "replacements",
        "hit_rate",
    ] {
        assert!(a["tt"].get(f).is_some(), "missing tt.{f}");
    }
    assert_eq!(a["pieces"], 25);
    assert_eq!(a["tt"]["bits"], tt_core::BITS);
    // Hits by depth: one entry per table, summing to the totals.
    let by_depth = a["tt"]["by_depth"].as_array().expect("tt.by_depth");
    assert_eq!(Some(by_depth.len() as u64), a["tt"]["depths"].as_u64());
    let sum = |f: &str| by_depth.iter().map(|d| d[f].as_u64().unwrap()).sum::<u64>();
    assert_eq!(Some(sum("lookups")), a["tt"]["lookups"].as_u64());
    assert_eq!(Some(sum("hits")), a["tt"]["hits"].as_u64());
    assert!(by_depth[0]["lookups"].as_u64().unwrap() > 0);
    let b = json_of(&run(&args, ""));
    assert_eq!(a["moves_digest"], b["moves_digest"], "same seed, same game");
    let no_cache = json_of(&run(&[&args[..], &["--no-cache"]].concat(), ""));
    assert_eq!(
        a["moves_digest"], no_cache["moves_digest"],
        "the cache changes no move"
    );
    assert_eq!(no_cache["tt"]["lookups"], 0);
    let threads = json_of(&run(&[&args[..], &["--search-threads", "2"]].concat(), ""));
    assert_eq!(
        a["moves_digest"], threads["moves_digest"],
        "the search threads change no move"
    );
}

/// `suggest` on several search threads gives the answer it gives on one: the move, its line,
/// its score, the nodes searched (all but the time it took).
#[test]
fn suggest_answers_the_same_on_every_search_thread_count() {
    let answer = |threads: &str| {
        let out = run(
            &[
                "suggest",
                "--board",
                TSPIN_FUMEN,
                "--queue",
                "TIOLJ",
                "--beam",
                "64",
                "--search-threads",
                threads,
            ],
            "",
        );
        // "searched N nodes in T ms (...)": the time is the one thing that may differ.
        text_of(&out)
            .lines()
            .map(|l| l.split(" in ").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let one = answer("1");
    assert!(one[0].starts_with("best: "), "{one:?}");
    assert!(one.iter().any(|l| l.starts_with("searched ")), "{one:?}");
    for threads in ["2", "3"] {
        assert_eq!(answer(threads), one, "{threads} search threads");
    }
}

#[test]
fn play_writes_one_line_per_move() {
    let dir = std::env::temp_dir().join(format!("tetris-tt-moves-{}", std::process::id()));
    let path = dir.to_string_lossy().to_string();
    let args = [&["play", "--pieces", "12", "--moves", &path], SMALL].concat();
    json_of(&run(&args, ""));
    let text = std::fs::read_to_string(&dir).unwrap();
    std::fs::remove_file(&dir).ok();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12);
    for l in lines {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), 5, "{l}");
        assert!("IOTLJSZ".contains(f[0]));
        assert!(["north", "east", "south", "west"].contains(&f[1]));
        assert!(["none", "mini", "full"].contains(&f[4]));
    }
}

#[test]
fn bench_prints_one_json_line() {
    let out = run(&["bench", "--pieces", "5", "--repeat", "3"], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["pieces"], 5);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    // The lowest and highest ratio of a run pair (cache on, then off), in that order.
    let pairs: Vec<f64> = v["cache_speedup_pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(pairs.len(), 2);
    assert!(pairs[0] > 0.0 && pairs[0] <= pairs[1], "{pairs:?}");
    assert!(v["cache_speedup"].as_f64().unwrap() > 0.0);
}

#[test]
fn bench_widen_plays_the_widest_pass_and_counts_every_pass() {
    let bench = |args: &[&str]| -> Value {
        let base = ["bench", "--pieces", "8", "--repeat", "1"];
        let out = run(&[&base[..], args].concat(), "");
        assert!(
            out.status.success(),
            "{:?}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let ladder = bench(&["--beam", "16", "--widen", "64"]);
    let fixed = bench(&["--beam", "64"]);
    assert_eq!(ladder["widths"], serde_json::json!([8, 16, 32, 64]));
    assert_eq!(fixed["widths"], Value::Null);
    // Every move's last pass is a search at width 64, so the game is the one of `--beam 64`;
    // the narrower passes before it are work on top.
    assert_eq!(ladder["moves_digest"], fixed["moves_digest"]);
    let nodes = |v: &Value| v["nodes"].as_u64().unwrap();
    assert!(
        nodes(&ladder) > nodes(&fixed),
        "{} {}",
        nodes(&ladder),
        nodes(&fixed)
    );
}

#[test]
fn movegen_lists_every_placement() {
    let board = "#.........\n#.........\n##......##\n###....###\n####...###\n####..####\n###...####\n####.#####\n";
    let out = run(
        &["movegen", "--piece", "T", "--board", "-", "--json"],
        board,
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 38);
    assert_eq!(rows.iter().filter(|r| r["spin"] == "full").count(), 2);
    for r in &rows {
        assert_eq!(r["cells"].as_array().unwrap().len(), 4);
        assert!(!r["inputs"].as_array().unwrap().is_empty());
    }
    let text_mode = run(&["movegen", "--piece", "o"], "");
    assert!(
        String::from_utf8(text_mode.stdout)
            .unwrap()
            .contains("9 placements of O")
    );
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    for (args, stdin, needle) in [
        (vec!["movegen", "--piece", "X"], "", "unknown piece"),
        (
            vec!["movegen", "--piece", "T", "--board", "-"],
            "..x.......\n",
            "line 1",
        ),
        (
            vec!["movegen", "--piece", "T", "--board", "-"],
            ".........\n",
            "expected 10 cells",
        ),
        (
            vec!["movegen", "--piece", "T", "--board", "/no/such/file"],
            "",
            "cannot read board file",
        ),
        (vec!["play", "--beam", "0"], "", "--beam"),
        (
            vec!["bench", "--widen", "64"],
            "",
            "--widen must be at least",
        ),
        (vec!["play", "--rules", "tgm"], "", "--rules"),
        (vec!["frobnicate"], "", "frobnicate"),
        (
            vec!["play", "--weights", "/no/such/weights.json"],
            "",
            "cannot read weights file",
        ),
        (vec!["versus", "--sprt", "10,0"], "", "--sprt"),
        (vec!["versus", "--sprt", "zero"], "", "--sprt"),
        (vec!["versus", "--preset", "tgm"], "", "unknown preset"),
        (vec!["versus", "--think", "fast"], "", "--think"),
        (
            vec!["versus", "--a", "/no/such/a.json"],
            "",
            "cannot read settings",
        ),
        (vec!["versus", "--games", "0"], "", "--games"),
        (vec!["versus", "--pps=-1"], "", "--pps"),
    ] {
        let out = run(&args, stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn an_sprt_takes_a_negative_lower_bound_without_an_equals_sign() {
    let a = temp_file(
        "sprt.json",
        r#"{"beam_width": 1, "previews": 2, "use_hold": false}"#,
    );
    let args = [
        "versus", "--a", &a, "--b", &a, "--games", "2", "--sprt", "-10,20", "--json",
    ];
    let out = run(&args, "");
    std::fs::remove_file(&a).ok();
    let m = json_of(&out);
    assert_eq!(m["sprt"]["elo0"], -10.0);
    assert_eq!(m["sprt"]["elo1"], 20.0);
    // An option in the value's place is taken as the value, and refused in one line.
    let out = run(&["versus", "--sprt", "--json"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--sprt"), "{err}");
}

#[test]
fn weights_load_from_a_file_and_change_the_play() {
    let dir = std::env::temp_dir().join(format!("tetris-tt-weights-{}.json", std::process::id()));
    std::fs::write(&dir, r#"{"holes": 500, "height": 50}"#).unwrap();
    let path = dir.to_string_lossy().to_string();
    let base = [&["play", "--pieces", "15"], SMALL].concat();
    let normal = json_of(&run(&base, ""));
    let odd = json_of(&run(&[&base[..], &["--weights", &path]].concat(), ""));
    std::fs::write(&dir, r#"{"holes": "many"}"#).unwrap();
    let bad = run(&[&base[..], &["--weights", &path]].concat(), "");
    std::fs::remove_file(&dir).ok();
    assert_ne!(
        normal["moves_digest"], odd["moves_digest"],
        "rewarding holes changes the game"
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("weights file"));
}

#[test]
fn play_timing_sets_the_clock_the_time_terms_weigh() {
    // `none` (the default): no move costs time, so the time weights change nothing.
    let zero = temp_file("zero-time.json", r#"{"frames": -50, "clear_frames": -50}"#);
    let base = [&["play", "--seed", "2", "--pieces", "40"], SMALL].concat();
    let untimed = json_of(&run(&base, ""));
    let untimed_weighted = json_of(&run(&[&base[..], &["--engine", &zero]].concat(), ""));
    // `ppt`: the arena's frame costs, under which heavy time weights change the game.
    let ppt = json_of(&run(&[&base[..], &["--timing", "ppt"]].concat(), ""));
    let ppt_weighted = json_of(&run(
        &[&base[..], &["--timing", "ppt", "--engine", &zero]].concat(),
        "",
    ));
    let bad = run(&[&base[..], &["--timing", "blitz"]].concat(), "");
    std::fs::remove_file(&zero).ok();
    assert_eq!(
        untimed["moves_digest"], untimed_weighted["moves_digest"],
        "without a clock the time weights multiply zero"
    );
    assert_ne!(
        ppt["moves_digest"], ppt_weighted["moves_digest"],
        "with the ppt clock the time weights count"
    );
    assert_ne!(untimed["moves_digest"], ppt["moves_digest"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--timing"));
}

#[test]
fn version_names_the_table_size() {
    let out = run(&["--version"], "");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("TETRIS_TT_BITS={}", tt_core::BITS)),
        "{text}"
    );
    assert!(text.contains("statistics"), "{text}");
}

/// A game without a clock starts from `search::Config::without_clock`, which looks a second
/// piece past the queue from width 2048: a settings file that only lowers that threshold to
/// this test's beam turns the look on, and one that also sets `speculate_deep` 0 turns it off.
/// Under the ppt clock the defaults look once. `--against` reads its file the same way.
#[test]
fn play_without_a_clock_starts_from_the_settings_that_look_twice() {
    let from16 = temp_file("deep-from-16.json", r#"{"speculate_deep_from": 16}"#);
    let off = temp_file(
        "deep-off.json",
        r#"{"speculate_deep_from": 16, "speculate_deep": 0}"#,
    );
    let base = [&["play", "--seed", "2", "--pieces", "40"], SMALL].concat();
    let digest = |extra: &[&str]| {
        json_of(&run(&[&base[..], extra].concat(), ""))["moves_digest"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let plain = digest(&[]);
    let twice = digest(&["--engine", &from16]);
    let turned_off = digest(&["--engine", &off]);
    let ppt = digest(&["--timing", "ppt"]);
    let ppt_from16 = digest(&["--timing", "ppt", "--engine", &from16]);
    let paired = json_of(&run(
        &[
            &[
                "play",
                "--seeds",
                "2",
                "--pieces",
                "40",
                "--engine",
                &from16,
                "--against",
                &off,
            ],
            SMALL,
        ]
        .concat(),
        "",
    ));
    std::fs::remove_file(&from16).ok();
    std::fs::remove_file(&off).ok();
    assert_ne!(twice, plain, "the second look changes the game");
    assert_eq!(
        turned_off, plain,
        "beam 16 is below 2048: the one-look game, as with the look off"
    );
    assert_eq!(ppt_from16, ppt, "under a clock the defaults look once");
    assert_eq!(paired["a"]["games"][0]["moves_digest"], twice.as_str());
    assert_eq!(paired["b"]["games"][0]["moves_digest"], plain.as_str());
}

fn temp_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("tetris-tt-{name}-{}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().to_string()
}

#[test]
fn versus_prints_both_sides_and_the_match_figures_and_replays_by_seed() {
    let a = temp_file("a.json", r#"{"beam_width": 8, "previews": 2}"#);
    let b = temp_file(
        "b.json",
        r#"{"beam_width": 1, "previews": 2, "use_hold": false}"#,
    );
    let args = [
        "versus",
        "--a",
        &a,
        "--b",
        &b,
        "--games",
        "4",
        "--seed",
        "5",
        "--threads",
        "2",
        "--sprt",
        "0,50",
        "--json",
    ];
    let m = json_of(&run(&args, ""));
    for f in [
        "games",
        "pairs",
        "score",
        "elo",
        "elo_error",
        "llr",
        "sprt",
        "digest",
        "game_list",
    ] {
        assert!(m.get(f).is_some(), "missing {f}");
    }
    for side in ["a", "b"] {
        for f in [
            "wins",
            "app",
            "apm",
            "pps",
            "lines_sent",
            "lines_received",
            "lines_cancelled",
            "mean_height",
            "max_height",
            "topped_out",
            "pushed_over",
        ] {
            assert!(m[side].get(f).is_some(), "missing {side}.{f}");
        }
    }
    assert_eq!(m["games"], 4);
    assert_eq!(m["game_list"].as_array().unwrap().len(), 4);
    let wins = m["a"]["wins"].as_u64().unwrap() + m["b"]["wins"].as_u64().unwrap();
    assert_eq!(wins + m["a"]["draws"].as_u64().unwrap(), 4);
    let again = json_of(&run(&args, ""));
    assert_eq!(m["digest"], again["digest"], "same seed, same match");
    // The text summary names both sides.
    let text = run(&args[..args.len() - 1], "");
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("attack per minute") && text.contains("SPRT"),
        "{text}"
    );
    // A settings file with an unknown field is refused.
    let typo = temp_file("typo.json", r#"{"beam_widht": 8}"#);
    let bad = run(&["versus", "--a", &typo], "");
    for f in [a, b, typo] {
        std::fs::remove_file(f).ok();
    }
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("beam_widht"));
}

#[test]
fn tune_runs_steps_resumes_from_its_checkpoint_and_batch_prints_games() {
    let dir = std::env::temp_dir().join(format!("tetris-tt-tune-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    let dir_s = dir.to_string_lossy().to_string();
    let engine = temp_file("tune-engine.json", r#"{"beam_width": 4, "previews": 1}"#);
    let rules = temp_file("tune-rules.json", r#"{"max_pieces": 30}"#);
    let args = |steps: &str| {
        vec![
            "tune".to_string(),
            "--engine".into(),
            engine.clone(),
            "--rules-file".into(),
            rules.clone(),
            "--dir".into(),
            dir_s.clone(),
            "--steps".into(),
            steps.into(),
            "--pairs".into(),
            "1".into(),
            "--params".into(),
            "holes,height,t_slot[2]:40".into(),
            "--threads".into(),
            "2".into(),
        ]
    };
    let run_args = |a: Vec<String>| {
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        run(&refs, "")
    };
    let first = json_of(&run_args(args("2")));
    assert!(first.get("holes").is_some(), "{first}");
    let log = std::fs::read_to_string(dir.join("log.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 2);
    let step: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(step["values"].as_array().unwrap().len(), 3);
    assert_eq!(step["games"], 2);
    assert!(dir.join("weights.svg").exists() && dir.join("checkpoint.json").exists());
    // Running again resumes: two more steps, four log lines, step 4 in the checkpoint.
    run_args(args("2"));
    let log = std::fs::read_to_string(dir.join("log.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 4);
    let cp: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("checkpoint.json")).unwrap())
            .unwrap();
    assert_eq!(cp["spsa"]["step"], 4);
    assert_eq!(cp["spsa"]["params"][2]["c"], 40.0);
    let bad = run(
        &[
            "tune",
            "--params",
            "holes,nonsense",
            "--dir",
            &format!("{dir_s}-bad"),
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("nonsense"));

    // batch: one JSON line per game, numbered from --first.
    let out = run(
        &[
            "batch",
            "--a",
            &engine,
            "--b",
            &engine,
            "--rules-file",
            &rules,
            "--first",
            "6",
            "--games",
            "3",
            "--seed",
            "4",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        games
            .iter()
            .map(|g| g["index"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        vec![6, 7, 8]
    );
    for f in [engine, rules] {
        std::fs::remove_file(f).ok();
    }
    std::fs::remove_dir_all(&dir).ok();
}

const TSPIN_FUMEN: &str = "v115@VgA8IeA8IeB8FeE8DeG8CeG8BeG8CeH8AeE8JeAgH";
const TSPIN_TEXT: &str = "#.........\n#.........\n##......##\n###....###\n####...###\n####..####\n###...####\n####.#####\n";

#[test]
fn fumen_shows_every_page_as_the_reference_decodes_it() {
    let cases = include_str!("../../fumen/tests/data/fumen-cases.txt");
    let block: Vec<&str> = cases
        .lines()
        .skip_while(|l| *l != "FUMEN PUBLIC_GAME_0")
        .skip(1)
        .take_while(|l| *l != "END")
        .collect();
    let out = run(&["fumen", block[0]], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let want: String = block[1..].iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(text, want);
}

#[test]
fn fumen_reads_a_long_game_from_its_file_and_numbers_its_pages_on() {
    let one = "v115@vhAAgH";
    let two = format!("{TSPIN_FUMEN}\n\n{one}\n");
    let path = temp_file("two-fumens.txt", &two);
    let shown = text_of(&run(&["fumen", &path], ""));
    let from_stdin = text_of(&run(&["fumen", "-"], &two));
    assert_eq!(shown, from_stdin);
    let first = text_of(&run(&["fumen", TSPIN_FUMEN], ""));
    let pages = first.matches("PAGE ").count();
    assert!(shown.starts_with(&first), "{shown}");
    assert!(shown.contains(&format!("PAGE {pages}\n")), "{shown}");
    // The file's lines joined into one argument: one clear line, not a decoding error deep in
    // the second fumen.
    let joined = run(&["fumen", &two], "");
    assert_eq!(joined.status.code(), Some(2));
    let err = String::from_utf8(joined.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("more than one fumen"), "{err}");
    // A bad line names its place.
    let bad = temp_file("bad-fumen.txt", &format!("{one}\nv115@vhAx1B\n"));
    let out = run(&["fumen", &bad], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("line 2: not a valid fumen"), "{err}");
    for f in [path, bad] {
        std::fs::remove_file(f).ok();
    }
}

#[test]
fn a_fumen_board_works_wherever_a_text_board_does() {
    let from_text = run(
        &["movegen", "--piece", "T", "--board", "-", "--json"],
        TSPIN_TEXT,
    );
    let from_fumen = run(
        &["movegen", "--piece", "T", "--board", TSPIN_FUMEN, "--json"],
        "",
    );
    assert!(from_fumen.status.success());
    assert_eq!(from_text.stdout, from_fumen.stdout);
    let first: Value = serde_json::from_str(
        String::from_utf8(from_fumen.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert!(first["frames"].as_u64().is_some(), "{first}");
    // --page picks a page; one past the end is refused.
    let page0 = run(
        &[
            "movegen",
            "--piece",
            "T",
            "--board",
            TSPIN_FUMEN,
            "--page",
            "0",
        ],
        "",
    );
    assert!(page0.status.success());
    let past = run(
        &[
            "movegen",
            "--piece",
            "T",
            "--board",
            TSPIN_FUMEN,
            "--page",
            "1",
        ],
        "",
    );
    assert_eq!(past.status.code(), Some(2));
    // A malformed fumen: one line, exit code 2, wherever it is read.
    for args in [
        vec!["fumen", "v115@vhAx1B"],
        vec!["movegen", "--piece", "T", "--board", "v115@!!"],
        vec!["suggest", "--board", "v115@", "--queue", "T"],
        vec!["play", "--board", "v115@AAAA", "--pieces", "1"],
    ] {
        let out = run(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("fumen"), "{args:?}: {err}");
    }
}

#[test]
fn suggest_answers_a_fumen_position_with_its_line_as_a_fumen() {
    let out = run(
        &[
            "suggest",
            "--board",
            TSPIN_FUMEN,
            "--queue",
            "TIOL",
            "--beam",
            "32",
            "--fumen",
        ],
        "",
    );
    let text = text_of(&out);
    assert!(text.starts_with("best: "), "{text}");
    // The T-spin double is there to take.
    assert!(text.lines().next().unwrap().contains("spin=full"), "{text}");
    let fumen_line = text
        .lines()
        .find(|l| l.starts_with("v115@"))
        .expect("a fumen line");
    let shown = run(&["fumen", fumen_line], "");
    let shown = String::from_utf8(shown.stdout).unwrap();
    // The first page is the asked board with the best move.
    assert!(
        shown.starts_with(&format!("PAGE 0\n{TSPIN_TEXT}PIECE T ")),
        "{shown}"
    );
    assert!(shown.contains("COMMENT attack 4"), "{shown}");
}

#[test]
fn a_game_written_as_fumen_reads_back_move_for_move() {
    let dir = std::env::temp_dir();
    let fumen_path = dir.join(format!("tetris-tt-game-{}.fumen", std::process::id()));
    let moves_path = dir.join(format!("tetris-tt-game-{}.moves", std::process::id()));
    let (f, m) = (
        fumen_path.to_string_lossy().to_string(),
        moves_path.to_string_lossy().to_string(),
    );
    let args = [
        &[
            "play",
            "--pieces",
            "40",
            "--seed",
            "9",
            "--fumen-out",
            &f,
            "--moves",
            &m,
        ],
        SMALL,
    ]
    .concat();
    json_of(&run(&args, ""));
    let strings = std::fs::read_to_string(&fumen_path).unwrap();
    let moves = std::fs::read_to_string(&moves_path).unwrap();
    std::fs::remove_file(&fumen_path).ok();
    std::fs::remove_file(&moves_path).ok();
    let mut pages = Vec::new();
    for s in strings.lines() {
        assert!(s.len() <= 8000);
        let shown = run(&["fumen", s], "");
        assert!(shown.status.success());
        pages.extend(
            String::from_utf8(shown.stdout)
                .unwrap()
                .split("PAGE ")
                .skip(1)
                .map(str::to_string)
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(pages.len(), 40);
    // Replay the moves file: before each move, the board is the page's, and the page's piece
    // is the move.
    let mut board = board::Board::new();
    for (page, line) in pages.iter().zip(moves.lines()) {
        let f: Vec<&str> = line.split(' ').collect();
        let rows: String = page
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with("PIECE") && !l.starts_with("COMMENT"))
            .map(|l| format!("{l}\n"))
            .collect();
        let shown: board::Board = if rows == "(empty)\n" {
            board::Board::new()
        } else {
            rows.parse().unwrap()
        };
        assert_eq!(shown, board, "page {page}");
        assert!(
            page.contains(&format!("PIECE {} {} {} {}", f[0], f[1], f[2], f[3])),
            "{page} vs {line}"
        );
        let piece = board::Piece::from_char(f[0].chars().next().unwrap()).unwrap();
        let rot = board::Rotation::from_name(f[1]).unwrap();
        board.place(piece, rot, f[2].parse().unwrap(), f[3].parse().unwrap());
    }
}

#[test]
fn versus_writes_every_game_of_both_sides_as_fumen() {
    let dir = std::env::temp_dir().join(format!("tetris-tt-vs-fumen-{}", std::process::id()));
    let d = dir.to_string_lossy().to_string();
    let small = temp_file("vs-small.json", r#"{"beam_width": 4, "previews": 2}"#);
    let rules = temp_file("vs-rules.json", r#"{"max_pieces": 25}"#);
    let out = run(
        &[
            "versus",
            "--a",
            &small,
            "--b",
            &small,
            "--rules-file",
            &rules,
            "--games",
            "2",
            "--fumen-out",
            &d,
            "--json",
        ],
        "",
    );
    let m = json_of(&out);
    for g in 0..2 {
        for side in ["a", "b"] {
            let path = dir.join(format!("game-{g}-{side}.txt"));
            // The whole file, however many fumen lines it has.
            let shown = run(&["fumen", &path.to_string_lossy()], "");
            assert!(shown.status.success());
            let shown = String::from_utf8(shown.stdout).unwrap();
            let pages = shown.matches("PAGE ").count() as u64;
            let placed = m["game_list"][g][format!("{side}_pieces")]
                .as_u64()
                .unwrap();
            assert_eq!(pages, placed, "game {g} side {side}");
            // Every page says when its piece locked, in order, then what the piece did.
            let mut last = 0.0;
            for c in shown.lines().filter_map(|l| l.strip_prefix("COMMENT ")) {
                let (time, rest) = c.split_once(" s").expect(c);
                let t: f64 = time.parse().expect(c);
                assert!(t >= last, "{c} after {last} s");
                last = t;
                assert!(rest.contains("; attack "), "{c}");
            }
            let seconds = m["game_list"][g]["seconds"].as_f64().unwrap();
            assert!(
                last > 0.0 && last <= seconds + 0.05,
                "{last} s of {seconds}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    for f in [small, rules] {
        std::fs::remove_file(f).ok();
    }
}

#[test]
fn perft_counts_a_queue_and_refuses_a_bad_one() {
    let m = json_of(&run(
        &[
            "perft",
            "IIIII",
            "--no-spawn-rise",
            "--threads",
            "2",
            "--json",
        ],
        "",
    ));
    assert_eq!(m["leaves"], 1_725_571);
    assert_eq!(
        m["by_depth"],
        serde_json::json!([17, 289, 5_069, 92_025, 1_725_571])
    );
    let text = String::from_utf8(run(&["perft", "TT", "--spins"], "").stdout).unwrap();
    assert!(text.starts_with("perft TT = "), "{text}");
    for bad in ["IQ", ""] {
        let out = run(&["perft", bad], "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn versus_refuses_a_think_budget_under_a_fixed_charge_and_a_bad_budget() {
    let budget = temp_file("budget.json", r#"{"think_ms": 8}"#);
    let bad = temp_file("bad-budget.json", r#"{"think_ms": -3}"#);
    let fixed = run(
        &["versus", "--a", &budget, "--games", "2", "--think", "ms:5"],
        "",
    );
    let negative = run(&["versus", "--a", &bad, "--games", "2"], "");
    std::fs::remove_file(&budget).ok();
    std::fs::remove_file(&bad).ok();
    for (out, says) in [(fixed, "think_ms needs"), (negative, "think_ms must be")] {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(says) && !err.contains("panicked"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// `versus --checkpoint`: a match stopped after two games and run again for four plays only
/// the last two, and its summary is the four-game match's; a file of another match, or a
/// damaged one, is a one-line error; a checkpoint cannot be rendered.
#[test]
fn versus_resumes_from_its_checkpoint() {
    let small = temp_file("cp-small.json", r#"{"beam_width": 4, "previews": 2}"#);
    let rules = temp_file("cp-rules.json", r#"{"max_pieces": 25}"#);
    let cp = std::env::temp_dir().join(format!("tetris-tt-cp-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&cp);
    let c = cp.to_string_lossy().to_string();
    let args = |games: &'static str, seed: &'static str, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "versus",
            "--a",
            &small,
            "--b",
            &small,
            "--rules-file",
            &rules,
            "--games",
            games,
            "--seed",
            seed,
            "--json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let go = |v: Vec<String>| run(&v.iter().map(String::as_str).collect::<Vec<_>>(), "");
    let whole = json_of(&go(args("4", "3", &[])));
    let first = json_of(&go(args("2", "3", &["--checkpoint", &c])));
    assert_eq!(
        (first["games"].as_u64(), first["resumed"].as_u64()),
        (Some(2), Some(0))
    );
    let out = go(args("4", "3", &["--checkpoint", &c]));
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains("resuming after the 2 games"), "{err}");
    let resumed = json_of(&out);
    assert_eq!(resumed["resumed"], 2);
    for f in ["games", "digest", "game_list", "score", "elo"] {
        assert_eq!(resumed[f], whole[f], "{f}");
    }
    // Another seed is another match.
    let other = go(args("4", "4", &["--checkpoint", &c]));
    let err = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("another match") && !err.contains("panicked"),
        "{err}"
    );
    // A damaged game line.
    let text = std::fs::read_to_string(&cp).unwrap();
    std::fs::write(&cp, text.replacen("\"index\":1", "\"index\":\"one\"", 1)).unwrap();
    let damaged = go(args("4", "3", &["--checkpoint", &c]));
    let err = String::from_utf8_lossy(&damaged.stderr);
    assert_eq!(damaged.status.code(), Some(2), "{err}");
    assert!(err.contains("line 3"), "{err}");
    let rendered = go(args("4", "3", &["--checkpoint", &c, "--render"]));
    let err = String::from_utf8_lossy(&rendered.stderr);
    assert_eq!(rendered.status.code(), Some(2), "{err}");
    assert!(err.contains("--render"), "{err}");
    for f in [small, rules, c] {
        std::fs::remove_file(f).ok();
    }
}

/// `args` is refused: exit code 2, one line naming the file and the field, and no game
/// played (the TBP bot's greeting aside).
fn refused(args: &[&str], text: &str, field: &str, path: &str, greets: bool) {
    let out = run(args, "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?} with {text}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?} with {text}: {err}");
    assert!(
        err.contains(path) && err.contains(field),
        "{args:?} with {text}: the error names neither the file nor {field}: {err}"
    );
    assert!(out.stdout.is_empty() || greets, "{args:?}: a game started");
}

/// A settings file is held to the bounds of the command line: every field out of range, in
/// every command that reads such a file, is one line naming the file and the field, and exit
/// code 2, before any game starts (a beam of 10^12 once grew to 700 MB in 8 s).
#[test]
// One idea: two tables of bad files and the commands that read them.
fn out_of_range_settings_files_are_refused_by_field_before_any_game() {
    let dir = std::env::temp_dir().join(format!("tetris-tt-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // (field as the error names it, the file's text).
    let engine_fields: &[(&str, &str)] = &[
        ("beam_width", r#"{"beam_width": 1000000000000}"#),
        ("beam_width", r#"{"beam_width": 2147483648}"#),
        ("beam_width", r#"{"beam_width": 0}"#),
        ("beam_width", r#"{"beam_width": -1}"#),
        ("max_width", r#"{"max_width": 1000001}"#),
        ("previews", r#"{"previews": 31}"#),
        ("speculate_top", r#"{"speculate_top": 2000000}"#),
        ("speculate_deep", r#"{"speculate_deep": 1000}"#),
        (
            "speculate_deep_from",
            r#"{"speculate_deep_from": 4000000000}"#,
        ),
        ("frame_costs.shift", r#"{"frame_costs": {"shift": 601}}"#),
        (
            "frame_costs.line_clear[4]",
            r#"{"frame_costs": {"line_clear": [0, 1, 2, 3, 100000]}}"#,
        ),
        ("holes", r#"{"holes": 10001}"#),
        ("holes_sq", r#"{"holes_sq": -1001}"#),
        (
            "well_column[3]",
            r#"{"well_column": [0, 0, 0, 99999, 0, 0, 0, 0, 0, 0]}"#,
        ),
        ("frames", r#"{"frames": -2000000000}"#),
        ("think_ms", r#"{"think_ms": -5}"#),
        ("speed", r#"{"speed": 0}"#),
    ];
    let engine_commands: &[&[&str]] = &[
        &["versus", "--games", "2", "--b"],
        &["versus", "--games", "2", "--a"],
        &["batch", "--games", "2", "--b"],
        &["play", "--pieces", "5", "--no-render", "--engine"],
        &["play", "--seeds", "1-2", "--pieces", "5", "--against"],
        &["tbp", "--engine"],
        &["suggest", "--queue", "TIOLJS", "--engine"],
        &[
            "tune",
            "--steps",
            "1",
            "--dir",
            "/nonexistent/never-written",
            "--engine",
        ],
    ];
    let mut checked = 0;
    for (i, (field, text)) in engine_fields.iter().enumerate() {
        let path = dir.join(format!("engine{i}.json"));
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        for cmd in engine_commands {
            let mut args: Vec<&str> = cmd.to_vec();
            args.push(path);
            let started = std::time::Instant::now();
            refused(&args, text, field, path, cmd[0] == "tbp");
            // Refused before anything is allocated or played (generous for a loaded machine).
            assert!(
                started.elapsed().as_secs() < 20,
                "{args:?} took {:?}",
                started.elapsed()
            );
            checked += 1;
        }
    }
    let rules_fields: &[(&str, &str)] = &[
        ("frame_ms", r#"{"frame_ms": 0}"#),
        ("frame_ms", r#"{"frame_ms": 1e9}"#),
        ("spawn_delay", r#"{"spawn_delay": 100000}"#),
        (
            "frame_costs.hard_drop",
            r#"{"frame_costs": {"hard_drop": 601}}"#,
        ),
        (
            "frame_costs.line_clear[2]",
            r#"{"frame_costs": {"line_clear": [0, 1, 700, 0, 0]}}"#,
        ),
        (
            "attack.combo[2]",
            r#"{"attack": {"combo": [0, 0, 4000000000]}}"#,
        ),
        (
            "attack.tspin[3]",
            r#"{"attack": {"tspin": [0, 2, 4, 101]}}"#,
        ),
        ("messiness", r#"{"messiness": 1.5}"#),
        ("previews", r#"{"previews": 100}"#),
        ("max_pieces", r#"{"max_pieces": 0}"#),
        ("margin_rate", r#"{"margin_rate": -1}"#),
        ("garbage_delay", r#"{"garbage_delay": 4294967295}"#),
    ];
    for (i, (field, text)) in rules_fields.iter().enumerate() {
        let path = dir.join(format!("rules{i}.json"));
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        for cmd in [
            &["versus", "--games", "2", "--rules-file"][..],
            &["batch", "--games", "2", "--rules-file"][..],
        ] {
            let mut args: Vec<&str> = cmd.to_vec();
            args.push(path);
            refused(&args, text, field, path, false);
            checked += 1;
        }
    }
    assert_eq!(
        checked,
        engine_fields.len() * engine_commands.len() + 2 * rules_fields.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A reader that goes away (`tetris-tt play --json | head -c 1`, a closed pipe) ends the
/// command quietly with success, not with a panic.
#[test]
fn a_closed_output_pipe_ends_the_command_quietly() {
    let args = [&["play", "--seed", "1", "--pieces", "20"], SMALL].concat();
    let mut child = spawn(&args);
    // Closed before the game (many milliseconds) can have printed its summary.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Any other failure to write the result is one line on standard error and exit code 2.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_for_the_output_is_one_line_and_exit_code_2() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tetris-tt"))
        .args(["perft", "TIO"])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("tetris-tt: cannot write to standard output"),
        "{stderr}"
    );
}
