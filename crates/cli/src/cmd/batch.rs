//! `tetris-tt batch`: games of a match as JSON lines, the unit of work a distributed runner
//! hands out.

use crate::settings::{self, ArenaArgs};
use arena::MatchOptions;
use clap::Args;
use std::io::Write;

#[derive(Args)]
pub(crate) struct BatchArgs {
    /// Engine A's settings (JSON); without it, the defaults.
    #[arg(long, value_name = "FILE")]
    a: Option<String>,
    /// Engine B's settings (JSON); without it, the defaults.
    #[arg(long, value_name = "FILE")]
    b: Option<String>,
    /// Match seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The first game to play (games 2k and 2k+1 are pair k).
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Games to play.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: u64,
    #[command(flatten)]
    arena: ArenaArgs,
    /// The match as a spec file (JSON, an `arena::MatchSpec`, as a dispatching `versus` or
    /// `tune` writes it in its requests) instead of --a, --b, --seed and the rules options;
    /// refused when this build reads it back as another match.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["a", "b", "seed", "preset", "rules_file", "think"])]
    spec: Option<String>,
}

/// Plays games `first..first + games` of the match `opts` and prints one JSON line per game.
pub(crate) fn batch(opts: &MatchOptions, first: u64, games: u64) -> Result<(), String> {
    let out = std::io::stdout();
    let mut out = out.lock();
    for g in arena::play_games(opts, first..first + games) {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&g).map_err(|e| e.to_string())?
        )
        .map_err(|e| format!("cannot write: {e}"))?;
    }
    Ok(())
}

/// Runs the command.
pub(crate) fn run(a: BatchArgs) -> Result<(), String> {
    if let Some(path) = &a.spec {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read spec file {path}: {e}"))?;
        let spec: arena::MatchSpec =
            serde_json::from_str(&text).map_err(|e| format!("spec file {path}: {e}"))?;
        let threads = a
            .arena
            .options(Default::default(), Default::default())?
            .threads;
        let opts = spec
            .options(threads)
            .map_err(|e| format!("spec file {path}: {e}"))?;
        return batch(&opts, a.first, a.games);
    }
    let opts = arena::MatchOptions {
        seed: a.seed,
        ..a.arena.options(
            settings::read_settings(a.a.as_deref())?,
            settings::read_settings(a.b.as_deref())?,
        )?
    };
    batch(&opts, a.first, a.games)
}
