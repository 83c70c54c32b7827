//! How the first move is picked from the search's final candidates (`Config::move_choice`).

use game::Game;
use search::{Config, Engine, MoveChoice, selfplay};

fn config(choice: MoveChoice) -> Config {
    Config {
        beam_width: 16,
        previews: 3,
        move_choice: choice,
        ..Config::default()
    }
}

/// The moves of a self-play game of `moves` pieces.
fn game(choice: MoveChoice, seed: u64, moves: usize) -> Vec<(board::Placement, bool)> {
    let mut engine = Engine::with_config(config(choice));
    let mut game = Game::new(seed, 3);
    (0..moves)
        .map_while(|_| selfplay::step(&mut engine, &mut game))
        .map(|s| (s.plan.placement, s.plan.uses_hold))
        .collect()
}

#[test]
fn the_mean_of_one_best_line_is_the_best_leaf() {
    for seed in 1..=3 {
        assert_eq!(
            game(MoveChoice::TopMean(1), seed, 40),
            game(MoveChoice::BestLeaf, seed, 40),
            "seed {seed}"
        );
    }
}

/// On every position of a game, a choice other than the best leaf plays the best line of the
/// move it picks: a line that scores no more than the best line, and whose first move is the
/// move played.
#[test]
fn other_choices_play_a_line_of_their_move_scoring_at_most_the_best() {
    let mut engine = Engine::with_config(config(MoveChoice::BestLeaf));
    let mut game = Game::new(5, 3);
    let mut differed = 0;
    for _ in 0..60 {
        let best = Engine::with_config(config(MoveChoice::BestLeaf))
            .suggest(game.state())
            .unwrap();
        for choice in [MoveChoice::TopMean(4), MoveChoice::TopMean(16)] {
            let other = Engine::with_config(config(choice))
                .suggest(game.state())
                .unwrap();
            assert!(other.score <= best.score, "{choice:?}");
            assert_eq!(other.placement, other.line[0]);
            assert_eq!(other.uses_hold, other.line_holds[0]);
            if other.placement != best.placement {
                differed += 1;
            }
        }
        if selfplay::step(&mut engine, &mut game).is_none() {
            break;
        }
    }
    assert!(
        differed > 0,
        "the mean of several lines picks another move somewhere"
    );
}

#[test]
fn a_move_choice_replays() {
    let a = game(MoveChoice::TopMean(4), 7, 30);
    assert_eq!(a, game(MoveChoice::TopMean(4), 7, 30));
    assert_eq!(a.len(), 30);
}
