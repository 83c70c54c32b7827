//! How many lines speculation scores: `Config::speculate_top` at least, or
//! `Config::speculate_share` percent of the pass's beam width.

use game::Game;
use search::{Config, Engine, selfplay};

fn config(width: usize, top: usize, share: usize) -> Config {
    Config {
        beam_width: width,
        previews: 3,
        speculate: true,
        speculate_top: top,
        speculate_share: share,
        ..Config::default()
    }
}

#[test]
fn speculated_lines_are_the_floor_or_the_share_whichever_is_more() {
    let d = Config::default();
    assert_eq!((d.speculate_top, d.speculate_share), (32, 25));
    // Up to the default width the floor decides: the default engine is unchanged there.
    assert_eq!(d.speculated_lines(8), 32);
    assert_eq!(d.speculated_lines(128), 32);
    assert_eq!(d.speculated_lines(129), 32);
    assert_eq!(d.speculated_lines(512), 128);
    assert_eq!(d.speculated_lines(2048), 512);
    assert_eq!(config(2048, 32, 0).speculated_lines(2048), 32);
    assert_eq!(config(8, 0, 0).speculated_lines(8), 1, "at least one line");
    assert_eq!(config(8, 0, 100).speculated_lines(1000), 1000);
    // A width times a share past `usize` saturates instead of overflowing.
    assert_eq!(
        config(8, 0, 100).speculated_lines(usize::MAX),
        usize::MAX / 100
    );
}

/// The moves and the work of a self-play game of `moves` pieces.
fn game(cfg: Config, seed: u64, moves: usize) -> (Vec<(board::Placement, bool)>, u64) {
    let mut engine = Engine::with_config(cfg);
    let mut game = Game::new(seed, 3);
    let mut nodes = 0;
    let placements = (0..moves)
        .map_while(|_| selfplay::step(&mut engine, &mut game))
        .map(|s| {
            nodes += s.plan.stats.nodes;
            (s.plan.placement, s.plan.uses_hold)
        })
        .collect();
    (placements, nodes)
}

#[test]
fn a_share_at_or_below_the_floor_changes_nothing() {
    // Width 32 at 25% is 8 lines, the floor: the same game, the same work, as without a share.
    let with = game(config(32, 8, 25), 3, 30);
    assert_eq!(with.0.len(), 30);
    assert_eq!(with, game(config(32, 8, 0), 3, 30));
}

#[test]
fn a_wide_beam_speculates_its_share() {
    // Width 64 at 25% is 16 lines: exactly the engine that speculates 16 lines, and more work
    // than the floor of 4.
    let share = game(config(64, 4, 25), 5, 12);
    assert_eq!(share, game(config(64, 16, 0), 5, 12));
    let floor = game(config(64, 4, 0), 5, 12);
    assert!(
        share.1 > floor.1,
        "16 lines speculated score more candidates than 4: {} vs {}",
        share.1,
        floor.1
    );
}
