//! Named positions shared by the criterion benches in `benches/benches/`.
//!
//! ```
//! let boards = benches::named_boards();
//! assert_eq!(boards[0].0, "empty");
//! ```
#![deny(missing_docs)]

use board::Board;

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
