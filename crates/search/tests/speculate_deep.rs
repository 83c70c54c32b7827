//! A second speculated piece (`Config::speculate_deep`): which lines look two pieces past the
//! queue, that the second piece is drawn from the bag after the first, that it has a table of
//! its own that only saves work, and that it is off by default.

use board::Piece;
use game::{BagState, Game};
use search::{Config, Engine, FrameCosts, selfplay};

fn config(deep: usize, use_cache: bool) -> Config {
    Config {
        beam_width: 16,
        previews: 3,
        speculate: true,
        speculate_top: 4,
        speculate_deep: deep,
        use_cache,
        ..Config::default()
    }
}

#[test]
fn deep_lines_are_a_share_of_the_speculated_lines() {
    let d = Config::default();
    assert_eq!(d.speculate_deep, 0, "off by default");
    assert_eq!(d.deep_lines(128), 0);
    assert!(!d.speculates_deep());
    let on = Config {
        speculate_deep: 25,
        ..Config::default()
    };
    assert!(on.speculates_deep());
    // 32 lines speculated at widths up to 128, a quarter of them twice.
    assert_eq!(on.deep_lines(128), 8);
    assert_eq!(on.deep_lines(512), 32);
    // At least one line once the share is above 0.
    assert_eq!(config(1, true).deep_lines(16), 1);
    assert_eq!(config(100, true).deep_lines(16), 4);
    // Without speculation there is no second piece and no table for it.
    let plain = Config {
        speculate: false,
        ..on
    };
    assert!(!plain.speculates_deep());
}

#[test]
fn a_game_without_a_clock_looks_twice_from_width_2048() {
    let free = Config::without_clock();
    // The default but for the clock and the second look.
    assert_eq!(
        free,
        Config {
            speculate_deep: 25,
            speculate_deep_from: 2048,
            frame_costs: FrameCosts::NONE,
            ..Config::default()
        }
    );
    assert_eq!(free.deep_lines(128), 0);
    assert_eq!(free.deep_lines(1024), 0);
    assert_eq!(free.deep_lines(2048), 128);
    // Its table exists only when a pass can be that wide.
    assert!(free.speculates_deep(), "max_width reaches 2048");
    let fixed_512 = Config {
        beam_width: 512,
        max_width: 512,
        ..free
    };
    assert!(!fixed_512.speculates_deep());
}

/// The moves of a seeded self-play game.
fn play(cfg: Config, seed: u64, pieces: usize) -> Vec<(board::Placement, bool)> {
    let mut engine = Engine::with_config(cfg);
    let mut game = Game::new(seed, 3);
    (0..pieces)
        .map_while(|_| selfplay::step(&mut engine, &mut game))
        .map(|s| (s.plan.placement, s.plan.uses_hold))
        .collect()
}

#[test]
fn the_second_piece_has_a_table_that_only_saves_work() {
    let on = play(config(50, true), 8, 30);
    assert_eq!(on.len(), 30);
    assert_eq!(on, play(config(50, false), 8, 30));

    let mut engine = Engine::with_config(config(50, true));
    let mut game = Game::new(8, 3);
    // Depths 0..4 are the current piece and three previews, then one table per speculated
    // piece. A line that held into the empty hold places its last known piece one depth
    // early, so its speculated pieces use the tables of depths 3 and 4; once the hold is full
    // every line runs the whole depth, and the last table is probed.
    let mut last = 0;
    for _ in 0..5 {
        let step = selfplay::step(&mut engine, &mut game).unwrap();
        let depth = &step.plan.stats.depth;
        assert_eq!(depth.len(), 6);
        assert!(depth[4].lookups > 0, "{depth:?}");
        last += depth[5].lookups;
    }
    assert!(last > 0, "the second speculated piece's table is probed");
    // One more table than with one speculated piece.
    let one = Engine::with_config(config(0, true));
    assert_eq!(engine.tables().horizon(), one.tables().horizon() + 1);
    assert!(engine.memory_bytes() > one.memory_bytes());
    let next = selfplay::step(&mut engine, &mut game).unwrap();
    assert_eq!(next.plan.stats.transition, search::Transition::Rotated);
}

#[test]
fn the_second_piece_comes_from_the_bag_after_the_first() {
    let base = Game::new(2, 3);
    let nodes = |deep: usize, left: &[Piece]| {
        let mut state = base.state().clone();
        state.bag = Some(BagState {
            left: left.iter().copied().collect(),
        });
        Engine::with_config(config(deep, true))
            .suggest(&state)
            .unwrap()
            .stats
            .nodes
    };
    // One piece past the queue: two possible pieces cost more than one.
    assert!(nodes(0, &[Piece::O]) < nodes(0, &[Piece::O, Piece::I]));
    // Two pieces: after O the bag is empty, so the second piece is any of seven; after O or I
    // from {O, I} it is the other one. So the one-piece bag now costs more.
    let single = nodes(100, &[Piece::O]);
    let pair = nodes(100, &[Piece::O, Piece::I]);
    assert!(single > pair, "{single} vs {pair}");
    assert!(single > nodes(0, &[Piece::O]));
}

#[test]
fn looking_two_pieces_ahead_changes_the_game() {
    // With every speculated line looking twice, the game differs from one look: the second
    // piece changes what lines are worth (the same seed and settings otherwise).
    let twice = play(config(100, true), 3, 20);
    let once = play(config(0, true), 3, 20);
    assert_eq!(twice.len(), 20);
    assert_ne!(twice, once);
}

#[test]
fn narrower_passes_than_speculate_deep_from_look_once() {
    let from = |from: usize| Config {
        speculate_deep: 25,
        speculate_deep_from: from,
        ..Config::default()
    };
    let d = from(2048);
    assert_eq!(d.deep_lines(1024), 0);
    assert_eq!(d.deep_lines(2047), 0);
    // 25% of 2048 is 512 lines speculated, a quarter of them twice.
    assert_eq!(d.deep_lines(2048), 128);
    assert_eq!(d.deep_lines(4096), from(0).deep_lines(4096));
    // The default widening reaches 8192, so the table is there for the wide passes.
    assert!(d.speculates_deep());
    // No pass can reach the threshold: no second piece, no table.
    let capped = Config {
        max_width: 1024,
        ..d.clone()
    };
    assert!(!capped.speculates_deep());
    assert_eq!(
        capped.deep_lines(4096),
        0,
        "no table, so no line looks twice"
    );
    assert_eq!(
        Engine::with_config(capped.clone()).tables().horizon(),
        Engine::with_config(Config::default()).tables().horizon()
    );
    // A fixed beam as wide as the threshold reaches it without widening.
    assert!(
        Config {
            beam_width: 2048,
            ..capped
        }
        .speculates_deep()
    );
}

#[test]
fn a_threshold_above_the_width_plays_the_one_look_game() {
    let with_from = |from: usize| Config {
        speculate_deep_from: from,
        ..config(100, true)
    };
    // Beam 16 passes below the threshold: the game of one look, though the table exists.
    let above = with_from(17);
    assert!(above.speculates_deep());
    assert_eq!(play(above, 3, 20), play(config(0, true), 3, 20));
    // At the threshold: the game of two looks at every width.
    assert_eq!(play(with_from(16), 3, 20), play(config(100, true), 3, 20));
}
