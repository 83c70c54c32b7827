//! `tetris-tt perft`: the leaves of the placement tree of a queue, the standard count and
//! speed test of a move generator.

use crate::out::outln;
use crate::settings::{self, RulesArg};
use clap::Args;
use clap::builder::TypedValueParser as _;
use std::io::IsTerminal;

#[derive(Args)]
pub(crate) struct PerftArgs {
    /// The pieces, first placed first (I O T L J S Z), for example IOLJSZT.
    queue: String,
    /// Rotation system.
    #[arg(long, value_enum, default_value = "srs")]
    rules: RulesArg,
    /// Count T placements by cells and spin kind (default: by cells).
    #[arg(long)]
    spins: bool,
    /// A piece whose spawn position (row 19) is blocked has no placements (default: it tries
    /// row 20, as rules.md says).
    #[arg(long)]
    no_spawn_rise: bool,
    /// Threads sharing the first piece's placements.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024).map(|v| v as usize))]
    threads: usize,
    /// Print one JSON object, with the count at every depth.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub(crate) fn run(a: PerftArgs) -> Result<(), String> {
    let queue = settings::parse_queue(&a.queue)?;
    if queue.is_empty() || queue.len() > 12 {
        return Err(format!("perft {:?}: give 1 to 12 pieces", a.queue));
    }
    let opts = board::PerftOptions {
        rules: a.rules.into(),
        spawn: if a.no_spawn_rise {
            board::Spawn::NoRise
        } else {
            board::Spawn::Rise
        },
        spins: a.spins,
        threads: a.threads,
    };
    let bar = if std::io::stderr().is_terminal() && queue.len() >= 6 {
        let b = indicatif::ProgressBar::new(0);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} first placements [{elapsed_precise}]",
            )
            .map_err(|e| e.to_string())?,
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let start = std::time::Instant::now();
    let p = board::perft(&board::Board::new(), &queue, &opts, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let rate = p.leaves as f64 / seconds.max(1e-9);
    if a.json {
        outln!(
            "{}",
            serde_json::json!({
                "queue": a.queue,
                "depth": queue.len(),
                "leaves": p.leaves,
                "by_depth": p.by_depth,
                "seconds": seconds,
                "leaves_per_second": rate,
                "rules": opts.rules.name(),
                "spins": a.spins,
                "spawn_rise": !a.no_spawn_rise,
                "threads": a.threads,
            })
        );
    } else {
        outln!(
            "perft {} = {} leaves in {:.3} s ({:.1} M leaves/s)",
            a.queue,
            p.leaves,
            seconds,
            rate / 1e6
        );
    }
    Ok(())
}
