//! Proof that building on an earlier search of the same position changes no answer. When a
//! new preview arrives while the bot thinks, the engine searches the position again with the
//! longer queue, going on from the levels the earlier search completed instead of from the
//! root. Every pass must still give what a search from scratch gives at its width: the same
//! move, line, score and alternatives. The earlier searches here are cut off by node budgets
//! of every size, so that they leave finished passes and passes interrupted at every depth.

use game::{Game, GameState};
use search::{Budget, Config, Engine, Plan};
use std::sync::atomic::AtomicBool;

const WIDTHS: [usize; 5] = [8, 16, 32, 64, 128];

/// What a plan says, but for the work done (nodes, passes, time).
fn gist(p: &Plan) -> String {
    format!(
        "width {} {:?} {} {:?} {:?} {} {:?} depth {}",
        p.stats.width,
        p.placement,
        p.uses_hold,
        p.line,
        p.line_holds,
        p.score,
        p.alternatives,
        p.stats.search_depth
    )
}

/// Every pass of a search of `state` at `WIDTHS`, as (width, gist), and the nodes scored.
fn passes(engine: &mut Engine, state: &GameState) -> (Vec<(usize, String)>, u64) {
    let mut seen = Vec::new();
    let plan = engine
        .think(state, &WIDTHS, &AtomicBool::new(false), |p| {
            seen.push((p.stats.width, gist(p)));
            true
        })
        .expect("a move");
    (seen, plan.stats.nodes)
}

struct Counts {
    /// Positions where the second search built on the first.
    built_on: usize,
    /// ... of them with nothing in hold (the last level it had reads the new piece).
    empty_hold: usize,
    /// Positions where it could not (the new preview is a T, or nothing was kept).
    from_scratch: usize,
}

/// Plays a seeded game and, at each move, searches the position first with one preview less
/// (cut off by a node budget), then with the new preview, and checks every pass of that second
/// search against a search from scratch.
fn check_game(config: Config, seed: u64, moves: usize) -> Counts {
    let previews = config.previews;
    // The same seed gives the same pieces: one game shows one preview less than the other.
    let mut long = Game::new(seed, previews);
    let mut short = Game::new(seed, previews - 1);
    let mut player = Engine::with_config(Config {
        beam_width: 24,
        ..config.clone()
    });
    let mut built = Engine::with_config(config.clone());
    let mut scratch = Engine::with_config(config);
    let mut counts = Counts {
        built_on: 0,
        empty_hold: 0,
        from_scratch: 0,
    };
    for i in 0..moves {
        let (s, l) = (short.state().clone(), long.state().clone());
        assert!(l.queue.starts_with(&s.queue), "move {i}: the same pieces");
        // Budgets from a few hundred nodes (the first pass alone) to past all the passes.
        let budget = 200 + (i as u64 * 7_919) % 60_000;
        built.search(&s, Budget::Nodes(budget)).expect("a move");
        let (with_levels, built_nodes) = passes(&mut built, &l);
        let (fresh, fresh_nodes) = passes(&mut scratch, &l);
        for (width, g) in &with_levels {
            let want = fresh
                .iter()
                .find(|(w, _)| w == width)
                .unwrap_or_else(|| panic!("move {i}: a pass at width {width} from scratch"));
            assert_eq!(g, &want.1, "move {i}, width {width}, budget {budget}");
        }
        // The answer is the widest pass either way.
        assert_eq!(with_levels.last(), fresh.last(), "move {i}");
        // Nodes scored do not depend on the cache: fewer is work taken from the first search.
        assert!(built_nodes <= fresh_nodes, "move {i}");
        if built_nodes < fresh_nodes {
            counts.built_on += 1;
            assert_ne!(
                l.queue[s.queue.len()],
                board::Piece::T,
                "move {i}: built on levels whose scores read the new piece"
            );
            if l.hold.is_none() {
                counts.empty_hold += 1;
            }
        } else {
            counts.from_scratch += 1;
        }
        let plan = player.suggest(&l).expect("a move");
        long.play(&plan.placement, plan.uses_hold)
            .expect("a legal move");
        short
            .play(&plan.placement, plan.uses_hold)
            .expect("a legal move");
        if long.is_over() {
            break;
        }
    }
    counts
}

fn base() -> Config {
    Config {
        // Passes wider than this may be skipped when a kept one is nearly done.
        beam_width: 16,
        previews: 4,
        ..Config::default()
    }
}

#[test]
fn a_new_preview_changes_no_pass() {
    let counts = check_game(base(), 11, 60);
    // Every way is exercised: a test that never built on levels would prove nothing.
    assert!(
        counts.empty_hold >= 1,
        "with an empty hold {} times",
        counts.empty_hold
    );
    assert!(
        counts.built_on >= 10,
        "built on levels {} times",
        counts.built_on
    );
    assert!(
        counts.from_scratch >= 3,
        "from scratch {} times",
        counts.from_scratch
    );
}

/// Checks a seeded game under `config` and asserts that the second search built on the
/// first at least `minimum` times: a run that never did would prove nothing.
fn check_builds_on(config: Config, seed: u64, moves: usize, minimum: usize) {
    let counts = check_game(config, seed, moves);
    assert!(
        counts.built_on >= minimum,
        "built on levels {} times in {moves} moves, want {minimum}",
        counts.built_on
    );
}

#[test]
fn a_new_preview_changes_no_pass_without_the_cache_on_two_threads() {
    let config = Config {
        use_cache: false,
        search_threads: 2,
        ..base()
    };
    check_builds_on(config, 12, 30, 5);
}

#[test]
fn a_new_preview_changes_no_pass_when_two_pieces_are_speculated() {
    let config = Config {
        speculate_deep: 50,
        speculate_deep_from: 0,
        move_choice: search::MoveChoice::TopMean(4),
        ..base()
    };
    check_builds_on(config, 13, 30, 5);
}
