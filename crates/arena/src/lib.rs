//! The versus arena: two engines play each other in simulated real time, game after game, in
//! parallel and reproducibly, with the statistics that tell a real improvement from noise.
//!
//! A match plays every piece sequence twice with the engines' sides swapped
//! ([`play_game`], [`run_match`]); engines think through the same [`search::Engine`] API a TBP
//! bot uses, with their per-depth tables carried from move to move (garbage arriving is a
//! mismatch that clears them). Thinking is charged by a deterministic rule ([`ThinkCharge`]),
//! so a match replays move for move from its seed. [`sprt`] turns pair scores into Elo with an
//! error bar and a sequential probability ratio test. A [`live`] match instead seats Tetris Bot
//! Protocol bots (any program, or engines served as bots) and plays in real time, as the
//! arenas bots meet in do.
//!
//! ```
//! use arena::{EngineSettings, MatchOptions, run_match};
//!
//! let small = EngineSettings::from_json(r#"{"beam_width": 4, "previews": 2}"#)?;
//! let opts = MatchOptions {
//!     a: small.clone(),
//!     b: small,
//!     games: 2,
//!     versus: game::versus::VersusConfig { max_pieces: 30, ..Default::default() },
//!     ..MatchOptions::default()
//! };
//! let m = run_match(&opts, |_, _| {});
//! assert_eq!(m.games, 2);
//! // Equal engines on swapped sides: whatever one game's sequences favour, the other game
//! // gives back, so the pair scores one half.
//! assert_eq!(m.score, 0.5);
//! # Ok::<(), String>(())
//! ```
#![deny(missing_docs)]

mod checkpoint;
pub mod live;
mod run;
mod settings;
mod spec;
pub mod sprt;

pub use checkpoint::{Checkpoint, fingerprint};
pub use live::{BotCommand, Forfeit, Live, ServeTbp};
pub use run::{
    Forfeits, GameLine, GameRecord, Latency, MatchOptions, MatchSummary, MoveRecord, Observer,
    Outcome, SideLine, SideRecord, SideSummary, SprtSummary, ThinkCharge, play_game, play_games,
    run_match, run_match_by, run_match_from, run_match_with,
};
pub use settings::EngineSettings;
pub use spec::MatchSpec;
