//! Regression tests for defects found in review. Each test names the defect it pins.

use board::{Board, Piece};
use game::GameState;
use game::{Bag, Game};
use search::selfplay;
use search::{Config, DefaultEvaluator, Engine, Evaluator, PositionEval, StepContext, StepScore};

/// The default evaluation, plus a large bonus for a T in hold: the engine then wants to bank
/// the T whenever it can.
struct LovesHeldT(DefaultEvaluator);

impl Evaluator for LovesHeldT {
    fn position(&self, board: &Board, hold: Option<Piece>) -> PositionEval {
        let mut e = self.0.position(board, hold);
        if hold == Some(Piece::T) {
            e.value += 100_000;
        }
        e
    }
    fn context(&self, eval: &PositionEval, step: &StepContext<'_>) -> StepScore {
        self.0.context(eval, step)
    }
}

/// Lost hold option: with an empty hold and the next piece equal to the current one, holding
/// banks the current piece and plays the next: a different state (hold filled, queue two
/// ahead). The search skipped it.
#[test]
fn lost_hold_option_hold_into_empty_with_an_equal_next_piece_is_searched() {
    let config = Config {
        beam_width: 8,
        previews: 1,
        ..Config::default()
    };
    let mut engine = Engine::new(config, LovesHeldT(DefaultEvaluator::default()));
    let state = GameState::new(Piece::T, vec![Piece::T]);
    let plan = engine.suggest(&state).expect("an empty board has moves");
    assert!(
        plan.uses_hold,
        "the only way to a held T is to hold the first T and play the second"
    );
    assert_eq!(plan.placement.piece, Piece::T);
    // And the game can play it: the hold takes the first T, the queue advances by two.
    let mut s = state.clone();
    s.queue.push(Piece::O);
    s.play(&plan.placement, plan.uses_hold)
        .expect("a legal hold");
    assert_eq!(
        (s.current, s.hold, s.queue.len()),
        (Piece::O, Some(Piece::T), 0)
    );
}

/// Replays a game from its plans against an independent referee holding the 7-bag sequence:
/// every placed piece must be the one the rules give (current, or by hold the held piece or the
/// next one), and the state the game shows must be the referee's.
fn check_real_seven_bag_game(seed: u64, previews: usize, pieces: usize) {
    let config = Config {
        beam_width: 4,
        previews,
        ..Config::default()
    };
    let mut engine = Engine::with_config(config);
    let mut game = Game::new(seed, previews);
    // The referee: every piece of the sequence, and how many have come into play.
    let mut bag = Bag::new(seed);
    let sequence: Vec<Piece> = (0..pieces + previews + 2)
        .map(|_| bag.next_piece())
        .collect();
    let mut current = sequence[0];
    let mut hold: Option<Piece> = None;
    let mut next = 1;
    for i in 0..pieces {
        let s = game.state();
        assert_eq!(
            (s.current, s.hold, s.queue.as_slice()),
            (current, hold, &sequence[next..next + previews]),
            "previews {previews}, piece {i}: the game shows another state than the referee"
        );
        let step = selfplay::step(&mut engine, &mut game)
            .unwrap_or_else(|| panic!("previews {previews}: topped out at piece {i}"));
        let p = step.plan.placement.piece;
        if step.plan.uses_hold {
            match hold {
                Some(h) => {
                    assert_eq!(p, h, "a hold swap plays the held piece");
                    hold = Some(current);
                    current = sequence[next];
                    next += 1;
                }
                None => {
                    assert_eq!(p, sequence[next], "a first hold plays the next piece");
                    hold = Some(current);
                    current = sequence[next + 1];
                    next += 2;
                }
            }
        } else {
            assert_eq!(p, current, "without hold the current piece is played");
            current = sequence[next];
            next += 1;
        }
    }
}

/// Stale current piece: `play --previews 0` repeated one piece forever, and with one preview a
/// hold into an empty hold left a phantom copy. Every preview count plays a real 7-bag game.
#[test]
fn stale_current_piece_every_preview_count_plays_a_real_seven_bag_game() {
    for previews in 0..=6 {
        for seed in [1, 2] {
            check_real_seven_bag_game(seed, previews, 30);
        }
    }
}
