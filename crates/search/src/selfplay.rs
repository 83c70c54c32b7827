//! Self-play: an engine playing a seeded [`game::Game`] alone. The harness behind the `play`
//! and `bench` commands and the tests.

use crate::engine::{Budget, Engine, Plan};
use crate::eval::Evaluator;
use game::{Game, Outcome};

/// One move of a self-play game.
#[derive(Clone, Debug)]
pub struct Step {
    /// The engine's plan (the move played is `plan.placement`, holding if `plan.uses_hold`).
    pub plan: Plan,
    /// What the move did.
    pub outcome: Outcome,
}

/// Asks the engine for a move in `game` and plays it. `None` when the game is over (it was
/// already, or the engine finds no placement, which also marks it topped out).
pub fn step<E: Evaluator>(engine: &mut Engine<E>, game: &mut Game) -> Option<Step> {
    step_within(engine, game, Budget::Fixed)
}

/// [`step`] with the search given `budget` instead of one pass at the configured width: for
/// example every pass of the TBP bot's background thinking
/// ([`crate::Config::bot_widths`]), as `tetris-tt bench --widen` plays.
pub fn step_within<E: Evaluator>(
    engine: &mut Engine<E>,
    game: &mut Game,
    budget: Budget<'_>,
) -> Option<Step> {
    if game.is_over() {
        return None;
    }
    let Some(plan) = engine.search(game.state(), budget) else {
        game.top_out();
        return None;
    };
    let outcome = game
        .play(&plan.placement, plan.uses_hold)
        .expect("the engine only suggests the current, the held or the next piece");
    Some(Step { plan, outcome })
}
