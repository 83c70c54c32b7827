//! N pieces (default 60) of seeded self-play at the default settings, with the cache on or
//! off (`off` as the second argument): a steady workload for `valgrind --tool=callgrind
//! --cache-sim=yes` when comparing how the table's probes cost against the evaluations they
//! save.

use game::Game;
use search::{Config, Engine, selfplay};
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(60);
    let use_cache = args.next().as_deref() != Some("off");
    let mut engine = Engine::with_config(Config {
        use_cache,
        ..Config::default()
    });
    let mut game = Game::new(3, engine.config().previews);
    let (mut nodes, mut evaluations) = (0, 0);
    for _ in 0..n {
        let Some(step) = black_box(selfplay::step(&mut engine, &mut game)) else {
            break;
        };
        nodes += step.plan.stats.nodes;
        evaluations += step.plan.stats.evaluations;
    }
    println!("nodes {nodes} evaluations {evaluations}");
}
