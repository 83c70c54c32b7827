//! One search from scratch on every named board, N times (default 3): a steady workload for
//! `valgrind --tool=callgrind` when comparing versions of the search's hot loop.

use search::{Config, Engine};
use std::hint::black_box;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let mut nodes = 0;
    for _ in 0..n {
        for (_, state) in benches::named_states() {
            let mut engine = Engine::with_config(Config::default());
            nodes += black_box(engine.suggest(&state)).map_or(0, |p| p.stats.nodes);
        }
    }
    println!("{nodes}");
}
