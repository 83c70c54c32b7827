//! Board, pieces, SRS rotation and exact move generation for tetris-tt.
//!
//! [`Board`] is a 10x40 bitboard, one `u64` per column, with its roof (the height of the
//! tallest column) kept exact by every operation and a 64-bit [`Board::hash64`] over the rows
//! below the roof. [`generate`] returns every placement of a piece reachable from spawn by
//! shifts, turns with SRS kicks (or the TETR.IO variant, see [`Rules`]), soft drops and hard
//! drops, mid-air included, each with its 3-corner spin kind.
//!
//! ```
//! use board::{Board, Piece, Rules, Spin, generate};
//!
//! // Rows top first; `G` (garbage), `#` or a piece letter is filled, `.` empty.
//! let board: Board = "
//!     G.........
//!     G.........
//!     GG......GG
//!     GGG....GGG
//!     GGGG...GGG
//!     GGGG..GGGG
//!     GGG...GGGG
//!     GGGG.GGGGG
//! ".parse()?;
//! let placements = generate(&board, Piece::T, Rules::Srs);
//! assert_eq!(placements.len(), 38);
//! let full = placements.iter().filter(|p| p.spin == Spin::Full).count();
//! assert_eq!(full, 2);
//! // Every placement can be reached by a sequence of inputs from spawn.
//! let inputs = placements[0].inputs(&board, Rules::Srs).unwrap();
//! assert!(!inputs.is_empty());
//! # Ok::<(), board::ParseBoardError>(())
//! ```
#![deny(missing_docs)]

mod board;
mod movegen;
mod perft;
mod piece;
mod position;
mod text;

pub use board::{Board, HEIGHT, WIDTH};
pub use movegen::{
    Counter, Placement, Spawn, count, full_tspin_rows, generate, generate_into, generate_with,
    t_reach,
};
pub use perft::{Perft, PerftOptions, perft};
pub use piece::{Kicks, Offset, Piece, Rotation, Rules, Spin, Turn, kicks};
pub use position::{Input, LOCK_OUT_ROW, Moved, OPEN_ROOF, PiecePos, SPAWN_X, SPAWN_Y};
pub use text::{ParseBoardError, ParseBoardErrorKind};
