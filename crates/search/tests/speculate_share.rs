//! How many lines speculation scores: `Config::speculate_top` at least, or
//! `search::SPECULATED_SHARE` percent of the pass's beam width.

use game::Game;
use search::{Config, Engine, SPECULATED_SHARE, selfplay};

fn config(width: usize, top: usize) -> Config {
    Config {
        beam_width: width,
        previews: 3,
        speculate: true,
        speculate_top: top,
        ..Config::default()
    }
}

#[test]
fn speculated_lines_are_the_floor_or_the_share_whichever_is_more() {
    let d = Config::default();
    assert_eq!((d.speculate_top, SPECULATED_SHARE), (32, 25));
    // Up to the default width the floor decides.
    assert_eq!(d.speculated_lines(8), 32);
    assert_eq!(d.speculated_lines(128), 32);
    assert_eq!(d.speculated_lines(129), 32);
    assert_eq!(d.speculated_lines(512), 128);
    assert_eq!(d.speculated_lines(2048), 512);
    assert_eq!(config(8, 0).speculated_lines(3), 1, "at least one line");
    assert_eq!(
        config(8, 600).speculated_lines(2048),
        600,
        "a floor above the share"
    );
    // A width times the share past `usize` saturates instead of overflowing.
    assert_eq!(config(8, 0).speculated_lines(usize::MAX), usize::MAX / 100);
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
fn a_wide_beam_speculates_its_share() {
    // Width 64 at 25% is 16 lines: a floor of 4 or of 16 is the same engine, and a floor of
    // 32 scores more.
    let share = game(config(64, 4), 5, 12);
    assert_eq!(share.0.len(), 12);
    assert_eq!(share, game(config(64, 16), 5, 12));
    let more = game(config(64, 32), 5, 12);
    assert!(
        more.1 > share.1,
        "32 lines speculated score more candidates than 16: {} vs {}",
        more.1,
        share.1
    );
}
