//! Proof that the evaluation cache only saves work: the same seeded games give the same moves
//! with the cache on and off, at every TETRIS_TT_BITS (the move list is also a snapshot, which
//! `cargo xtask test-matrix` checks at several values), with an evaluator that would notice a
//! stale or misrotated table, and across garbage that clears the tables.

mod common;

use board::{Board, Piece, Placement};
use common::shaft_of_os;
use game::Game;
use search::selfplay;
use search::{
    Config, DefaultEvaluator, Engine, Evaluator, PositionEval, StepContext, StepScore, Transition,
};

fn config(use_cache: bool) -> Config {
    Config {
        beam_width: 24,
        previews: 4,
        use_cache,
        ..Config::default()
    }
}

fn play<E: Evaluator>(
    engine: &mut Engine<E>,
    seed: u64,
    pieces: usize,
    garbage_every: usize,
) -> Vec<Placement> {
    let mut game = Game::new(seed, engine.config().previews);
    let mut moves = Vec::new();
    for i in 0..pieces {
        if garbage_every > 0 && i > 0 && i % garbage_every == 0 {
            // Garbage arrives between moves: one row, hole moving along.
            game.state_mut().board.push_garbage(i % 10, 1);
        }
        let Some(step) = selfplay::step(engine, &mut game) else {
            break;
        };
        moves.push(step.plan.placement);
    }
    moves
}

fn render(moves: &[Placement]) -> String {
    moves
        .iter()
        .map(|p| format!("{} {} {} {} {}\n", p.piece, p.rotation, p.x, p.y, p.spin))
        .collect()
}

#[test]
fn seeded_self_play_is_identical_with_and_without_the_cache() {
    let on = play(&mut Engine::with_config(config(true)), 3, 60, 0);
    let off = play(&mut Engine::with_config(config(false)), 3, 60, 0);
    assert_eq!(on.len(), 60);
    assert_eq!(on, off);
    // The same list at every TETRIS_TT_BITS: eviction never changes the game.
    insta::assert_snapshot!(render(&on));
}

#[test]
fn the_same_seed_replays_the_same_game() {
    let a = play(&mut Engine::with_config(config(true)), 11, 30, 0);
    let b = play(&mut Engine::with_config(config(true)), 11, 30, 0);
    assert_eq!(a, b);
}

/// The default evaluation plus a term that depends on the absolute piece index of the
/// placement. Such a term can only live in the uncached context stage (the position stage sees
/// nothing but its key, by its signature), so caching and rotation must leave the moves alone.
struct DepthSensitive(DefaultEvaluator);

impl Evaluator for DepthSensitive {
    fn position(&self, board: &Board, hold: Option<Piece>) -> PositionEval {
        self.0.position(board, hold)
    }
    fn context(&self, eval: &PositionEval, step: &StepContext<'_>) -> StepScore {
        let mut s = self.0.context(eval, step);
        let mix = (step.pieces_placed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (step.depth as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9))
        .wrapping_mul(0x94d0_49bb_1331_11eb);
        s.leaf += (mix >> 54) as i32 - 512;
        s
    }
}

#[test]
fn a_depth_sensitive_evaluator_gives_identical_moves_with_rotation_on() {
    let mut on = Engine::new(config(true), DepthSensitive(DefaultEvaluator::default()));
    let mut off = Engine::new(config(false), DepthSensitive(DefaultEvaluator::default()));
    let a = play(&mut on, 5, 50, 0);
    let b = play(&mut off, 5, 50, 0);
    assert_eq!(a, b);
    // And the cache was really carried over: the tables rotated on most moves.
    assert!(
        on.tables().rotations() >= 40,
        "rotations: {}",
        on.tables().rotations()
    );
}

/// The default evaluator without its shortcut to another held piece
/// (`Evaluator::with_hold`): every board is evaluated through the table.
struct NoHoldShortcut(DefaultEvaluator);

impl Evaluator for NoHoldShortcut {
    fn position(&self, board: &Board, hold: Option<Piece>) -> PositionEval {
        self.0.position(board, hold)
    }
    fn context(&self, eval: &PositionEval, step: &StepContext<'_>) -> StepScore {
        self.0.context(eval, step)
    }
}

#[test]
fn the_hold_shortcut_changes_no_move_and_saves_evaluations() {
    for use_cache in [true, false] {
        let mut with = Engine::with_config(config(use_cache));
        let mut without = Engine::new(
            config(use_cache),
            NoHoldShortcut(DefaultEvaluator::default()),
        );
        let (mut saved, mut game_a, mut game_b) = (0i64, Game::new(7, 4), Game::new(7, 4));
        for _ in 0..40 {
            let a = selfplay::step(&mut with, &mut game_a).expect("a move");
            let b = selfplay::step(&mut without, &mut game_b).expect("a move");
            assert_eq!(a.plan.placement, b.plan.placement, "cache {use_cache}");
            assert_eq!(a.plan.stats.nodes, b.plan.stats.nodes);
            saved += b.plan.stats.evaluations as i64 - a.plan.stats.evaluations as i64;
        }
        // Speculation holds on most lines: the shortcut must have spared evaluations.
        assert!(saved > 0, "cache {use_cache}: saved {saved}");
    }
}

#[test]
fn garbage_between_moves_clears_the_tables_and_changes_nothing_else() {
    let mut on = Engine::new(config(true), DepthSensitive(DefaultEvaluator::default()));
    let mut off = Engine::new(config(false), DepthSensitive(DefaultEvaluator::default()));
    let a = play(&mut on, 9, 40, 7);
    let b = play(&mut off, 9, 40, 7);
    assert_eq!(a, b);

    // The statistics show the clear on the move after the garbage.
    let mut engine = Engine::with_config(config(true));
    let mut game = Game::new(2, 4);
    selfplay::step(&mut engine, &mut game).unwrap();
    let matched = selfplay::step(&mut engine, &mut game).unwrap();
    assert_eq!(matched.plan.stats.transition, Transition::Rotated);
    game.state_mut().board.push_garbage(0, 2);
    let after = selfplay::step(&mut engine, &mut game).unwrap();
    assert_eq!(after.plan.stats.transition, Transition::Cleared);
    assert_eq!(
        after.plan.stats.clears, 2,
        "one fresh start and one mismatch"
    );
    if tt_core::BITS >= 12 {
        // With room for a whole search (from 12 bits), after a matched move nearly every
        // depth-0 candidate was a depth-1 position of the last search.
        let d0 = &matched.plan.stats.depth[0];
        assert!(d0.hits * 10 >= d0.lookups * 9, "depth 0: {d0:?}");
        // After the garbage nothing is carried over: depth 0 only hits on positions that
        // repeat within this search.
        assert!(after.plan.stats.depth[0].hits * 2 < after.plan.stats.depth[0].lookups);
    } else {
        // Smaller tables cannot hold a search, so hit counts say little here. What holds at
        // every size: evaluations never exceed candidates, and the rotation direction is
        // checked by `rotation_direction_at_every_table_size` with a search sized to fit.
        assert!(after.plan.stats.evaluations <= after.plan.stats.nodes);
    }
}

/// Guards the direction of rotation at every TETRIS_TT_BITS, 1 included: after a matched
/// move, depth d must find exactly what depth d + 1 stored in the last search (one key each),
/// and the deepest depth starts empty. A rotation the wrong way, or tables indexed from the
/// wrong end, would make these lookups miss.
#[test]
fn rotation_direction_at_every_table_size() {
    let previews = 3;
    let mut engine = Engine::with_config(Config {
        beam_width: 4,
        previews,
        ..config(true)
    });
    let mut state = shaft_of_os(previews);
    let first = engine.suggest(&state).expect("the shaft has room");
    assert_eq!(
        first.stats.nodes,
        (previews + 1) as u64,
        "one candidate per depth"
    );
    assert!(
        first
            .stats
            .depth
            .iter()
            .all(|d| (d.lookups, d.hits) == (1, 0))
    );
    state.play(&first.placement, first.uses_hold).unwrap();
    state.queue.push(Piece::O);
    let second = engine.suggest(&state).expect("still room");
    assert_eq!(second.stats.transition, Transition::Rotated);
    let by_depth: Vec<(u64, u64)> = second
        .stats
        .depth
        .iter()
        .map(|d| (d.lookups, d.hits))
        .collect();
    assert_eq!(by_depth, vec![(1, 1), (1, 1), (1, 1), (1, 0)]);
}

#[test]
fn reset_forgets_the_prediction() {
    let mut engine = Engine::with_config(config(true));
    let mut game = Game::new(4, 4);
    selfplay::step(&mut engine, &mut game).unwrap();
    engine.reset();
    let step = selfplay::step(&mut engine, &mut game).unwrap();
    assert_eq!(step.plan.stats.transition, Transition::Fresh);
}

/// Speculation past the queue (one piece, over what the 7-bag can give) goes through a table
/// of its own: the moves are the same with the cache off, and after a matched move the search
/// finds the pieces it speculated on one move ago.
#[test]
fn speculation_changes_no_move_with_the_cache_and_its_table_rotates() {
    let spec = |use_cache| Config {
        speculate: true,
        speculate_top: 8,
        ..config(use_cache)
    };
    let on = play(&mut Engine::with_config(spec(true)), 6, 40, 0);
    let off = play(&mut Engine::with_config(spec(false)), 6, 40, 0);
    assert_eq!(on, off);
    let mut engine = Engine::with_config(spec(true));
    let mut game = Game::new(6, 4);
    let first = selfplay::step(&mut engine, &mut game).unwrap();
    // Depths 0..5 are the current piece and four previews; one more table for speculation.
    assert_eq!(first.plan.stats.depth.len(), 6);
    let plain = Engine::with_config(Config {
        speculate: false,
        ..config(true)
    })
    .suggest(&Game::new(6, 4).state().clone())
    .unwrap();
    assert!(
        first.plan.stats.nodes > plain.stats.nodes,
        "speculation scores more"
    );
    let second = selfplay::step(&mut engine, &mut game).unwrap();
    assert_eq!(second.plan.stats.transition, Transition::Rotated);
    if tt_core::BITS >= 12 {
        // The same position searched by a fresh engine: the rotated tables hit more.
        let fresh = Engine::with_config(spec(true))
            .suggest(&second_state(6))
            .unwrap();
        assert!(
            second.plan.stats.hits() > fresh.stats.hits(),
            "{} vs {}",
            second.plan.stats.hits(),
            fresh.stats.hits()
        );
    }
}

/// The state of seed `seed`'s game (four previews) after its first move, as a speculating
/// engine plays it.
fn second_state(seed: u64) -> game::GameState {
    let mut engine = Engine::with_config(Config {
        speculate: true,
        speculate_top: 8,
        ..config(true)
    });
    let mut game = Game::new(seed, 4);
    selfplay::step(&mut engine, &mut game).unwrap();
    game.state().clone()
}

/// Speculation only tries the pieces the bag can still give.
#[test]
fn speculation_tries_only_the_pieces_the_bag_can_give() {
    let base = Game::new(2, 4);
    let nodes = |left: Option<&[Piece]>| {
        let mut state = base.state().clone();
        state.bag = left.map(|l| game::BagState {
            left: l.iter().copied().collect(),
        });
        let mut engine = Engine::with_config(Config {
            speculate: true,
            speculate_top: 4,
            ..config(true)
        });
        engine.suggest(&state).unwrap().stats.nodes
    };
    let none = nodes(None);
    let one = nodes(Some(&[Piece::O]));
    let two = nodes(Some(&[Piece::O, Piece::I]));
    let all = nodes(Some(&[]));
    assert!(
        none < one && one < two && two < all,
        "{none} {one} {two} {all}"
    );
}

/// Once a depth has stored half as many evaluations in one search as its table has slots, it
/// stops probing for the rest of that search: its other children are evaluated without a
/// probe (further stores would only evict the better parents' children and what the rotation
/// brought). A beam wide enough to pass the cap at the default size and below (32,768 slots
/// at 15 bits) shows it, and the answer is still the cache-off engine's.
#[test]
fn a_depth_stops_probing_once_it_has_filled_half_its_table() {
    let wide = |use_cache| Config {
        beam_width: 512,
        previews: 5,
        use_cache,
        ..Config::default()
    };
    let state = Game::new(4, 5).state().clone();
    let on = Engine::with_config(wide(true)).suggest(&state).unwrap();
    let off = Engine::with_config(wide(false)).suggest(&state).unwrap();
    assert_eq!((&on.line, on.score), (&off.line, off.score));
    let cap = (tt_core::ENTRIES / 2) as u64;
    // The cap is checked before each batch (one piece's placements on one board), so a depth
    // can pass it by at most one batch; no piece has 400 placements on one board.
    let misses: Vec<u64> = on.stats.depth.iter().map(|c| c.lookups - c.hits).collect();
    for (d, &m) in misses.iter().enumerate() {
        assert!(m < cap + 400, "depth {d}: {m} stores, cap {cap}");
    }
    let stored: u64 = misses.iter().sum();
    if cap > 16_384 {
        // Tables larger than the default hold this whole search (a depth stores at most about
        // 24,000 here): no depth reaches the cap, and every evaluation was probed and stored.
        assert!(misses.iter().all(|&m| m < cap), "{misses:?}, cap {cap}");
        assert_eq!(on.stats.evaluations, stored);
        return;
    }
    assert!(
        misses.iter().any(|&m| m >= cap),
        "no depth reached the cap: {misses:?}, cap {cap}"
    );
    // Every store is an evaluation; the children past the cap were evaluated unprobed.
    assert!(
        on.stats.evaluations > stored,
        "{} evaluations, {stored} stores",
        on.stats.evaluations
    );
    // The table never adds work; it saves some where it holds enough of a search to hit
    // (a 16-slot table, as in the 4-bit test build, may hold nothing that comes back).
    assert!(on.stats.evaluations <= off.stats.evaluations);
    if tt_core::BITS >= 12 {
        assert!(on.stats.evaluations < off.stats.evaluations);
    }
}
