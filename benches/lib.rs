//! Named positions shared by the criterion benches in `benches/benches/`.
//!
//! ```
//! let boards = benches::named_boards();
//! assert_eq!(boards[0].0, "empty");
//! ```
//!
//! [`played_boards`] gives the boards a search meets: every placement of every piece on the
//! positions of a seeded self-play game.
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

/// The boards a search evaluates, as a fixed corpus: on each position of a `pieces`-piece
/// self-play game (seed 1, default settings), every placement of every piece, locked and its
/// lines cleared. Deterministic, so a bench over it measures the same work every run.
pub fn played_boards(pieces: usize) -> Vec<Board> {
    use search::{Config, Engine, selfplay};
    let mut engine = Engine::with_config(Config::default());
    let mut game = game::Game::new(1, engine.config().previews);
    let mut out = Vec::new();
    let mut placements = Vec::new();
    for _ in 0..pieces {
        let state = game.state().clone();
        for piece in Piece::ALL {
            board::generate_into(&state.board, piece, board::Rules::Srs, &mut placements);
            for p in placements.iter().filter(|p| !p.locks_out()) {
                out.push(game::locked(&state.board, p, state.carried).0);
            }
        }
        if selfplay::step(&mut engine, &mut game).is_none() {
            break;
        }
    }
    out
}
