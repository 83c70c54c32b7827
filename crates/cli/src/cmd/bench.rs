//! `tetris-tt bench`: the fixed, seeded workload, cache on and off, and on each number of
//! search threads asked for, as one JSON line.

use super::play;
use crate::out::outln;
use crate::summary::Summary;
use clap::Args;
use clap::builder::TypedValueParser as _;
use search::{Config, MAX_BEAM_WIDTH, MAX_SEARCH_THREADS, Weights};

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
    /// Beam width [default: 128].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_BEAM_WIDTH as i64).map(|v| v as usize))]
    beam: Option<usize>,
    /// Think as the TBP bot does in the background (`"widen": true`): every move searches a
    /// pass of width 8, then the beam, twice the beam and so on up to this width (the bot's
    /// `max_width`, 8192 by default), each pass to its end, and plays the widest pass's move.
    /// The moves are those of `--beam` at this width; the work is the whole ladder.
    #[arg(long, value_name = "MAX", value_parser = clap::value_parser!(u32).range(1..=MAX_BEAM_WIDTH as i64).map(|v| v as usize))]
    widen: Option<usize>,
    /// Search threads to measure, a list such as 1,2,4: the same game on each, alternately,
    /// with its time per move, nodes per second and speed-up over the first (the moves must
    /// be the same on every count). The cache-off runs use the first.
    #[arg(long, value_name = "LIST", default_value = "1", value_parser = parse_threads)]
    search_threads: Threads,
}

/// A list of search-thread counts.
#[derive(Clone)]
pub(crate) struct Threads(Vec<usize>);

fn parse_threads(s: &str) -> Result<Threads, String> {
    let counts = s
        .split(',')
        .map(|t| match t.trim().parse::<usize>() {
            Ok(n) if (1..=MAX_SEARCH_THREADS).contains(&n) => Ok(n),
            _ => Err(format!(
                "search threads must be whole numbers from 1 to {MAX_SEARCH_THREADS}, got {t:?}"
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Threads(counts))
}

/// The workload's settings, and the passes of every move when it widens.
fn workload(a: &BenchArgs) -> Result<(Config, Option<Vec<usize>>), String> {
    let beam = a.beam.unwrap_or(search::DEFAULT_BEAM_WIDTH);
    let config = Config {
        beam_width: beam,
        max_width: a.widen.unwrap_or(Config::default().max_width),
        ..Config::default()
    };
    let widths = match a.widen {
        Some(w) if w < beam => {
            return Err(format!(
                "--widen must be at least the beam width ({beam}), got {w}"
            ));
        }
        Some(_) => Some(config.bot_widths(true)),
        None => None,
    };
    Ok((config, widths))
}

/// Runs the command.
pub(crate) fn run(a: BenchArgs) -> Result<(), String> {
    let counts = &a.search_threads.0;
    // One pool per count, each exactly that many threads strong, made before any game.
    let pools = counts
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| format!("cannot start {n} search threads: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (base, widths) = workload(&a)?;
    let game = |use_cache: bool, k: usize| {
        let config = Config {
            use_cache,
            search_threads: counts[k],
            ..base.clone()
        };
        pools[k].install(|| {
            play::play(play::PlayOptions {
                seed: a.seed,
                pieces: a.pieces,
                config,
                weights: Weights::default(),
                render: false,
                progress: false,
                moves: None,
                board: None,
                fumen_out: None,
                pps: 0.0,
                widths: widths.clone(),
            })
        })
    };
    // Each round plays the game on every count with the cache on, then once with it off, so
    // that the runs compared are measured at nearly the same moment of a shared machine.
    let mut on: Vec<Vec<Summary>> = vec![Vec::new(); counts.len()];
    let mut off = Vec::new();
    for _ in 0..a.repeat {
        for (k, runs) in on.iter_mut().enumerate() {
            runs.push(game(true, k)?);
        }
        off.push(game(false, 0)?);
    }
    let first = &on[0];
    let cache_spread = spread(&off, first);
    let thread_spreads: Vec<[f64; 2]> = on.iter().map(|runs| spread(first, runs)).collect();
    let mut medians: Vec<Summary> = on.into_iter().map(median).collect();
    let off = median(off);
    if medians.iter().any(|m| m.moves_digest != off.moves_digest) {
        let why = if medians[0].moves_digest != off.moves_digest {
            "the cache changed a move"
        } else {
            "the number of search threads changed a move"
        };
        return Err(format!("{why}: this is a bug"));
    }
    let per_move = |s: &Summary| s.search_seconds * 1000.0 / s.pieces.max(1) as f64;
    let threads: Vec<serde_json::Value> = medians
        .iter()
        .zip(counts)
        .zip(&thread_spreads)
        .map(|((m, &n), pairs)| {
            serde_json::json!({
                "search_threads": n,
                "ms_per_move": per_move(m),
                "nps": m.nps,
                "speedup": medians_ratio(&medians[0], m),
                "speedup_pairs": pairs,
                "evaluations": m.evaluations,
            })
        })
        .collect();
    let on = medians.swap_remove(0);
    let mut v = serde_json::to_value(&on).map_err(|e| e.to_string())?;
    v["cache_off"] = serde_json::json!({
        "search_seconds": off.search_seconds,
        "ms_per_move": per_move(&off),
        "evaluations": off.evaluations,
        "nps": off.nps,
    });
    v["ms_per_move"] = serde_json::json!(per_move(&on));
    v["cache_speedup"] = serde_json::json!(medians_ratio(&off, &on));
    v["cache_speedup_pairs"] = serde_json::json!(cache_spread);
    v["evaluations_saved"] =
        serde_json::json!(1.0 - on.evaluations as f64 / off.evaluations.max(1) as f64);
    v["search_threads"] = serde_json::json!(threads);
    v["repeat"] = serde_json::json!(a.repeat);
    v["widths"] = serde_json::json!(widths);
    outln!("{v}");
    Ok(())
}

/// How many times faster `b` ran than `a` (search time).
fn medians_ratio(a: &Summary, b: &Summary) -> f64 {
    a.search_seconds / b.search_seconds.max(1e-9)
}

/// The lowest and highest of `a[i]`'s search time over `b[i]`'s: runs of one round were measured in
/// one moment of a shared machine, and the spread of their ratios shows the noise that the
/// ratio of medians hides.
fn spread(a: &[Summary], b: &[Summary]) -> [f64; 2] {
    a.iter()
        .zip(b)
        .map(|(x, y)| medians_ratio(x, y))
        .fold([f64::INFINITY, f64::NEG_INFINITY], |[lo, hi], r| {
            [lo.min(r), hi.max(r)]
        })
}

/// The run with the median search time.
fn median(mut runs: Vec<Summary>) -> Summary {
    runs.sort_by(|x, y| x.search_seconds.total_cmp(&y.search_seconds));
    runs.swap_remove(runs.len() / 2)
}
