//! Scenarios shared by the search tests.

use board::{Board, Piece};
use game::GameState;

/// A shaft two columns wide between walls as tall as the board, with only O pieces (one of
/// them held): every O has exactly one placement (the walls block every shift while they are
/// at least 20 rows tall, and each O clears two rows of them), so every depth of a search has
/// one candidate and one key. Such a search fits a table of any size.
pub(crate) fn shaft_of_os(previews: usize) -> GameState {
    let mut board = Board::new();
    for x in (0..4).chain(6..10) {
        for y in 0..board::HEIGHT {
            board.set(x, y);
        }
    }
    GameState {
        board,
        hold: Some(Piece::O),
        ..GameState::new(Piece::O, vec![Piece::O; previews + 2])
    }
}
