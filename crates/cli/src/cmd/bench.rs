//! `tetris-tt bench`: the fixed, seeded workload, cache on and off, as one JSON line.

use super::play;
use crate::summary;
use clap::Args;
use search::{Config, Weights};

#[derive(Args)]
pub(crate) struct BenchArgs {
    /// Seed of the workload.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Runs of the game with the cache on and with it off, alternately (the median of each
    /// is reported, and the lowest and highest ratio of a run pair).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    repeat: u32,
    /// Pieces of self-play.
    #[arg(long, default_value_t = 200)]
    pieces: u64,
}

/// Runs the command.
pub(crate) fn run(a: BenchArgs) -> Result<(), String> {
    let game = |use_cache: bool| {
        play::play(play::PlayOptions {
            seed: a.seed,
            pieces: a.pieces,
            config: Config {
                use_cache,
                ..Config::default()
            },
            weights: Weights::default(),
            render: false,
            progress: false,
            moves: None,
            board: None,
            fumen_out: None,
            pps: 0.0,
        })
    };
    // Cache on and off alternately, the same game each time; the median of each.
    let (mut on, mut off) = (Vec::new(), Vec::new());
    for _ in 0..a.repeat {
        on.push(game(true)?);
        off.push(game(false)?);
    }
    // Each cache-on run and the cache-off run right after it are one pair measured in
    // one moment of a shared machine: the spread of their ratios shows the noise that
    // the ratio of medians hides.
    let spread = on
        .iter()
        .zip(&off)
        .map(|(n, f)| f.search_seconds / n.search_seconds.max(1e-9))
        .fold([f64::INFINITY, f64::NEG_INFINITY], |[lo, hi], r| {
            [lo.min(r), hi.max(r)]
        });
    let median = |runs: &mut Vec<summary::Summary>| {
        runs.sort_by(|x, y| x.search_seconds.total_cmp(&y.search_seconds));
        runs.swap_remove(runs.len() / 2)
    };
    let (on, off) = (median(&mut on), median(&mut off));
    if on.moves_digest != off.moves_digest {
        return Err("the cache changed a move: this is a bug".into());
    }
    let per_move = |s: &summary::Summary| s.search_seconds * 1000.0 / s.pieces.max(1) as f64;
    let mut v = serde_json::to_value(&on).map_err(|e| e.to_string())?;
    v["cache_off"] = serde_json::json!({
        "search_seconds": off.search_seconds,
        "ms_per_move": per_move(&off),
        "evaluations": off.evaluations,
        "nps": off.nps,
    });
    v["ms_per_move"] = serde_json::json!(per_move(&on));
    v["cache_speedup"] = serde_json::json!(off.search_seconds / on.search_seconds.max(1e-9));
    v["cache_speedup_pairs"] = serde_json::json!(spread);
    v["evaluations_saved"] =
        serde_json::json!(1.0 - on.evaluations as f64 / off.evaluations.max(1) as f64);
    v["repeat"] = serde_json::json!(a.repeat);
    println!("{v}");
    Ok(())
}
