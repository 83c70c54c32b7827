//! The arena as an instrument: it sees strength, it is fair to equal engines, and it replays.

use arena::{EngineSettings, MatchOptions, Outcome, run_match};

fn settings(json: &str) -> EngineSettings {
    EngineSettings::from_json(json).unwrap()
}

/// Equal engines score one half within the error (exactly, since a pair plays each piece
/// sequence from both sides), and the same seed replays the same games move for move, on one
/// thread or two.
#[test]
fn equal_engines_score_one_half_and_a_seed_replays_the_match() {
    let small = settings(r#"{"beam_width": 16, "previews": 3}"#);
    let opts = MatchOptions {
        a: small.clone(),
        b: small,
        games: 6,
        seed: 11,
        threads: 2,
        ..MatchOptions::default()
    };
    let m = run_match(&opts, |_, _| {});
    assert_eq!(m.games, 6);
    assert!(
        (m.score - 0.5).abs() <= m.elo_error.max(1e-9),
        "{}",
        m.score
    );
    assert_eq!(m.score, 0.5);
    let again = run_match(
        &MatchOptions {
            threads: 1,
            ..opts.clone()
        },
        |_, _| {},
    );
    assert_eq!(
        m.digest, again.digest,
        "the same seed replays the same games"
    );
    assert_eq!(m.game_list, again.game_list);
    let other = run_match(&MatchOptions { seed: 12, ..opts }, |_, _| {});
    assert_ne!(m.digest, other.digest, "another seed, other games");
}

/// A deliberately weakened engine (beam width 1) loses at least 90% of 40 games to the default
/// engine: the arena sees strength. (Measured: it loses all of them.)
#[test]
fn a_beam_of_one_loses_nine_games_in_ten_to_the_default() {
    let opts = MatchOptions {
        a: EngineSettings::default(),
        b: settings(r#"{"beam_width": 1}"#),
        games: 40,
        seed: 1,
        threads: 2,
        ..MatchOptions::default()
    };
    let mut seen = 0;
    let m = run_match(&opts, |_, g| {
        seen += 1;
        assert!(g.sides[0].stats.pieces > 0 && g.sides[1].stats.pieces > 0);
    });
    assert_eq!((m.games, seen), (40, 40));
    let weak_wins = m
        .game_list
        .iter()
        .filter(|g| g.outcome == Outcome::B)
        .count();
    assert!(weak_wins <= 4, "the weak engine won {weak_wins} of 40");
    assert!(
        m.elo > 0.0 && m.elo - m.elo_error > 0.0,
        "{} ± {}",
        m.elo,
        m.elo_error
    );
}

/// An SPRT between clearly different engines stops early, on the right side, at a pair
/// boundary; the same match without the test plays every game.
#[test]
fn the_sprt_stops_early_on_a_clear_difference() {
    let opts = MatchOptions {
        a: settings(r#"{"beam_width": 16, "previews": 3}"#),
        b: settings(r#"{"beam_width": 1, "previews": 3}"#),
        games: 200,
        seed: 3,
        threads: 2,
        sprt: Some(arena::sprt::Sprt {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        }),
        ..MatchOptions::default()
    };
    let m = run_match(&opts, |_, _| {});
    let t = m.sprt.as_ref().unwrap();
    assert_eq!(t.verdict, arena::sprt::Verdict::H1, "llr {}", m.llr);
    assert!(m.llr >= t.upper);
    assert!(m.games < 200 && m.games % 2 == 0, "{} games", m.games);
}

/// A pondering engine (one that thinks in the background, as `tetris-tt tbp` does) is charged
/// only for the thinking past the line-clear and spawn delays before each request.
#[test]
fn pondering_pays_only_for_thinking_past_the_delays() {
    let game = |ponder: bool| {
        let s = settings(&format!(
            r#"{{"beam_width": 4, "previews": 2, "ponder": {ponder}}}"#
        ));
        let opts = MatchOptions {
            a: s,
            b: settings(r#"{"beam_width": 4, "previews": 2}"#),
            games: 2,
            think: arena::ThinkCharge::PerMove { ms: 100.0 },
            versus: game::versus::VersusConfig {
                max_pieces: 60,
                ..Default::default()
            },
            ..MatchOptions::default()
        };
        run_match(&opts, |_, _| {})
    };
    let (pays, ponders) = (game(false), game(true));
    // 100 ms is 25 frames; the spawn delay alone (7 frames) is free for a pondering engine.
    assert_eq!(pays.a.think_frames_per_piece, 25.0);
    assert!(
        ponders.a.think_frames_per_piece <= 18.0,
        "{}",
        ponders.a.think_frames_per_piece
    );
    assert!(ponders.a.pps > pays.a.pps);
}

/// An engine with a think budget widens its search until the budget is spent, by the
/// match's node charge: it is charged about its budget per move, and the match replays.
#[test]
fn a_think_budget_is_spent_by_nodes_and_replays() {
    let opts = MatchOptions {
        a: settings(r#"{"previews": 2, "think_ms": 12}"#),
        b: settings(r#"{"previews": 2, "think_ms": 2}"#),
        games: 2,
        think: arena::ThinkCharge::Nodes {
            nodes_per_ms: 1000.0,
        },
        versus: game::versus::VersusConfig {
            max_pieces: 40,
            ..Default::default()
        },
        ..MatchOptions::default()
    };
    assert_eq!(opts.check(), Ok(()));
    let m = run_match(&opts, |_, _| {});
    // 12 ms is 3 frames of 4 ms; the search stops within a frame after its budget (the
    // limit is checked every 16 parents), and a part of a frame is charged as a frame.
    let a = m.a.think_frames_per_piece;
    assert!((3.0..=4.0).contains(&a), "{a}");
    // 2 ms: half a frame, charged as one, or two with the overshoot.
    let b = m.b.think_frames_per_piece;
    assert!((1.0..=2.0).contains(&b), "{b}");
    assert_eq!(m.digest, run_match(&opts, |_, _| {}).digest);
    // A fixed charge per move says nothing of what a search costs: a budget is refused.
    let fixed = MatchOptions {
        think: arena::ThinkCharge::PerMove { ms: 5.0 },
        ..opts
    };
    assert!(fixed.check().unwrap_err().contains("think_ms"));
}

/// An engine that widens through its free delays (`widen`, as the TBP bot thinks in the
/// background) searches more than the same engine at its fixed width and pays nothing more
/// for it than the frame every answer takes to be seen; with a think budget on top it pays
/// exactly that budget per move, never the pass it abandons when the budget runs out.
#[test]
fn widening_through_the_free_delays_is_free_and_a_budget_on_top_costs_exactly_itself() {
    let run = |a: &str| {
        let opts = MatchOptions {
            a: settings(a),
            b: settings(r#"{"beam_width": 4, "previews": 2, "ponder": true}"#),
            games: 2,
            think: arena::ThinkCharge::Nodes {
                nodes_per_ms: 1000.0,
            },
            versus: game::versus::VersusConfig {
                max_pieces: 30,
                ..Default::default()
            },
            ..MatchOptions::default()
        };
        assert_eq!(opts.check(), Ok(()));
        let m = run_match(&opts, |_, _| {});
        assert_eq!(m.digest, run_match(&opts, |_, _| {}).digest, "it replays");
        m
    };
    let fixed = run(r#"{"beam_width": 4, "previews": 2, "ponder": true}"#);
    let widen = run(r#"{"beam_width": 4, "previews": 2, "ponder": true, "widen": true}"#);
    // The fixed width-4 search fits in the spawn delay (7 frames, 28 ms, 28,000 candidates at
    // this charge), and so does everything the widening engine does: each pays only the one
    // frame in which a front end sees its answer.
    assert_eq!(fixed.a.think_frames_per_piece, 1.0);
    assert_eq!(widen.a.think_frames_per_piece, 1.0);
    assert_ne!(widen.digest, fixed.digest, "the wider passes change moves");
    // 8 ms more is two 4 ms frames past the free delays on a move whose budget runs out; the
    // pass abandoned then is not charged (it would make a third frame). A move whose passes
    // all finish sooner (at three pieces deep the tree is small) answers sooner.
    let budget =
        run(r#"{"beam_width": 4, "previews": 2, "ponder": true, "widen": true, "think_ms": 8}"#);
    let b = budget.a.think_frames_per_piece;
    assert!((1.5..=2.0).contains(&b), "{b}");
    // A fixed charge per move says nothing of what widening costs: refused.
    let per_move = MatchOptions {
        a: settings(r#"{"ponder": true, "widen": true}"#),
        think: arena::ThinkCharge::PerMove { ms: 5.0 },
        ..MatchOptions::default()
    };
    assert!(per_move.check().unwrap_err().contains("widen"));
}

/// `speed` is the same engine on a faster machine: a side at speed 2 under a charge of 1,000
/// candidates a millisecond plays exactly as that side at speed 1 under 2,000 (the same budget
/// in candidates, the same charge in time), and speed needs a node charge.
#[test]
fn speed_scales_a_sides_node_rate() {
    let opts = |rate: f64, a: &str, b: &str| MatchOptions {
        a: settings(a),
        b: settings(b),
        games: 2,
        think: arena::ThinkCharge::Nodes { nodes_per_ms: rate },
        versus: game::versus::VersusConfig {
            max_pieces: 30,
            ..Default::default()
        },
        ..MatchOptions::default()
    };
    let fast_a = opts(
        1000.0,
        r#"{"previews": 2, "think_ms": 8, "speed": 2}"#,
        r#"{"previews": 2, "think_ms": 2}"#,
    );
    let slow_b = opts(
        2000.0,
        r#"{"previews": 2, "think_ms": 8}"#,
        r#"{"previews": 2, "think_ms": 2, "speed": 0.5}"#,
    );
    assert_eq!(fast_a.check(), Ok(()));
    let (x, y) = (run_match(&fast_a, |_, _| {}), run_match(&slow_b, |_, _| {}));
    assert_eq!(x.digest, y.digest);
    assert_eq!(x.game_list, y.game_list);
    // Without the speed, A has half the candidates: other games.
    let plain = opts(
        1000.0,
        r#"{"previews": 2, "think_ms": 8}"#,
        r#"{"previews": 2, "think_ms": 2}"#,
    );
    assert_ne!(run_match(&plain, |_, _| {}).digest, x.digest);
    // The same with engines that widen through their free delays, the budget and the charge
    // of an answer that comes after it both scaled (beam 4, so that a pass often finishes
    // past the budget and is charged by when it finished).
    let widen = r#""beam_width": 4, "previews": 2, "ponder": true, "widen": true, "think_ms": 6"#;
    let fast_widen = opts(
        1000.0,
        &format!("{{{widen}, \"speed\": 2}}"),
        &format!("{{{widen}}}"),
    );
    let slow_widen = opts(
        2000.0,
        &format!("{{{widen}}}"),
        &format!("{{{widen}, \"speed\": 0.5}}"),
    );
    let (x, y) = (
        run_match(&fast_widen, |_, _| {}),
        run_match(&slow_widen, |_, _| {}),
    );
    assert_eq!(x.game_list, y.game_list);
    assert!(x.a.think_frames_per_piece > 1.0, "some answers come late");
    let wall = MatchOptions {
        think: arena::ThinkCharge::WallClock,
        ..fast_a
    };
    assert!(wall.check().unwrap_err().contains("speed"));
}

/// A node charge counts each search thread as a core of its own: a side searching on two
/// threads plays exactly as that side on one thread at speed 2 (the threads change no move,
/// and its candidates cost half the time), widening through its free delays included.
#[test]
fn search_threads_scale_a_sides_node_rate() {
    let opts = |a: &str| MatchOptions {
        a: settings(a),
        b: settings(r#"{"previews": 2, "think_ms": 2}"#),
        games: 2,
        think: arena::ThinkCharge::Nodes {
            nodes_per_ms: 1000.0,
        },
        versus: game::versus::VersusConfig {
            max_pieces: 30,
            ..Default::default()
        },
        ..MatchOptions::default()
    };
    for a in [
        r#""previews": 2, "think_ms": 8"#,
        r#""beam_width": 4, "previews": 2, "ponder": true, "widen": true, "think_ms": 6"#,
    ] {
        let threads = opts(&format!("{{{a}, \"search_threads\": 2}}"));
        let speed = opts(&format!("{{{a}, \"speed\": 2}}"));
        let one = opts(&format!("{{{a}}}"));
        let (x, y) = (run_match(&threads, |_, _| {}), run_match(&speed, |_, _| {}));
        assert_eq!(x.game_list, y.game_list, "{a}");
        assert_ne!(run_match(&one, |_, _| {}).game_list, x.game_list, "{a}");
    }
}
