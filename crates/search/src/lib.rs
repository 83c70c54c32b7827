//! The tetris-tt AI: game state, two-stage evaluation, beam search through a per-depth
//! evaluation cache, and the [`Engine`] that carries the cache from move to move.
//!
//! For each candidate placement the search builds the resulting board and looks it up in the
//! depth's table under (board, roof, hold after the placement). A miss runs the expensive
//! [`Evaluator::position`], which by its signature sees only that key, and stores it; a hit
//! reuses it. The cheap [`Evaluator::context`] (lines, spin, attack, depth, back-to-back, combo,
//! pending pieces) is never cached. Between
//! moves the engine compares the new board with the one it predicted and rotates or clears the
//! tables.
//!
//! ```
//! use game::Game;
//! use search::{Config, Engine, selfplay};
//!
//! let mut engine = Engine::with_config(Config { beam_width: 16, previews: 2, ..Config::default() });
//! let mut game = Game::new(7, 2);
//! for _ in 0..5 {
//!     let step = selfplay::step(&mut engine, &mut game).expect("five pieces never top out");
//!     assert!(step.plan.stats.nodes > 0);
//! }
//! assert_eq!(game.totals().pieces, 5);
//! ```
#![deny(missing_docs)]

mod beam;
mod config;
mod engine;
mod eval;
pub mod selfplay;

pub use beam::{DepthCounters, position_key};
pub use config::{
    Config, DEFAULT_BEAM_WIDTH, DEFAULT_PREVIEWS, MAX_BEAM_WIDTH, MAX_PREVIEWS, MAX_SEARCH_THREADS,
    MoveChoice, SPECULATED_SHARE,
};
pub use engine::{Budget, Engine, Plan, SearchStats};
pub use eval::{
    DefaultEvaluator, Evaluator, MAX_SQUARED_WEIGHT, MAX_WEIGHT, PositionEval, StepContext,
    StepScore, Weights,
};
pub use game::{FrameCosts, MAX_FRAME_COST};
pub use tt_depth::Transition;
