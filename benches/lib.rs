//! Named positions shared by the criterion benches in `benches/benches/`.
//!
//! ```
//! let boards = benches::named_boards();
//! assert_eq!(boards[0].0, "empty");
//! ```
#![deny(missing_docs)]

use board::{Board, Piece};
use game::GameState;

/// The board positions every bench uses, by name: `empty`, `tspin`, `dt-cannon`, `terrible`
/// (from the move-generation cases file).
pub fn named_boards() -> Vec<(&'static str, Board)> {
    [
        ("empty", ""),
        (
            "tspin",
            "#.........\n#.........\n##......##\n###....###\n####...###\n####..####\n###...####\n####.#####",
        ),
        (
            "dt-cannon",
            "........##\n####..####\n###...####\n###.######\n###..#####\n##...#####\n###.######\n###.######\n####.#####",
        ),
        (
            "terrible",
            "########..\n########..\n#.........\n#.........\n#..#######\n#..#######\n#........#\n#........#\n########.#\n########.#\n.........#\n.........#",
        ),
    ]
    .into_iter()
    .map(|(name, text)| (name, text.parse().expect("bench boards are valid")))
    .collect()
}

/// The named boards as game states with the queue T, then I O L J S Z: the positions the search
/// benches start from.
pub fn named_states() -> Vec<(&'static str, GameState)> {
    named_boards()
        .into_iter()
        .map(|(name, board)| {
            let queue = vec![Piece::I, Piece::O, Piece::L, Piece::J, Piece::S, Piece::Z];
            (
                name,
                GameState {
                    board,
                    ..GameState::new(Piece::T, queue)
                },
            )
        })
        .collect()
}
