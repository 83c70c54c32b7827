//! The rules of one Tetris game, above the board and below any player: the game state, locking
//! with the exact attack, back-to-back and combo rules, randomizers, and a seeded game that
//! feeds a player its pieces.
//!
//! [`GameState`] is what a player sees (board, current piece, hold, previews, back-to-back and
//! combo); [`GameState::play`] applies one move with its hold flag. [`Game`] adds a seeded
//! 7-bag and the totals: it is the self-play harness and one side of a versus match.
//!
//! ```
//! use board::{Rules, generate};
//! use game::Game;
//!
//! let mut game = Game::new(7, 5);
//! let current = game.state().current;
//! let moves = generate(&game.state().board, current, Rules::Srs);
//! let outcome = game.play(&moves[0], false)?;
//! assert_eq!(outcome.lines, 0);
//! assert_eq!(game.totals().pieces, 1);
//! assert_eq!(game.state().queue.len(), 5);
//! # Ok::<(), game::PlayError>(())
//! ```
#![deny(missing_docs)]

mod frames;
mod randomizer;
mod solo;
mod state;
pub mod versus;

pub use frames::{FrameCosts, MAX_FRAME_COST};
pub use randomizer::{Bag, BagState, PieceSet};
pub use solo::{Game, Totals};
pub use state::{
    COMBO_ATTACK, Carried, GameState, Outcome, PERFECT_CLEAR_ATTACK, PlayError, lock, locked,
    score_clear,
};
