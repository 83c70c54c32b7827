//! Quick self-play: `cargo run --release -p search --example selfplay -- SEED PIECES WIDTH`.
//! Prints pieces, lines, attack, attack per piece, median ms per move, nodes per second and
//! the cache hit rate.

use search::{Config, Engine, selfplay::Game};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let seed = args.first().copied().unwrap_or(1);
    let pieces = args.get(1).copied().unwrap_or(200);
    let width = args
        .get(2)
        .copied()
        .unwrap_or(search::DEFAULT_BEAM_WIDTH as u64) as usize;
    let mut engine = Engine::with_config(Config {
        beam_width: width,
        ..Config::default()
    });
    let mut game = Game::new(seed, 5);
    let mut times = Vec::new();
    let (mut nodes, mut lookups, mut hits, mut secs) = (0u64, 0u64, 0u64, 0f64);
    let mut per_depth = [(0u64, 0u64); 8];
    for _ in 0..pieces {
        let Some(step) = game.step(&mut engine) else {
            break;
        };
        let s = &step.plan.stats;
        times.push(s.elapsed.as_secs_f64() * 1000.0);
        nodes += s.nodes;
        lookups += s.lookups();
        hits += s.hits();
        secs += s.elapsed.as_secs_f64();
        for (d, c) in s.depth.iter().enumerate() {
            per_depth[d].0 += c.hits;
            per_depth[d].1 += c.lookups;
        }
    }
    times.sort_by(f64::total_cmp);
    let rates: Vec<String> = per_depth
        .iter()
        .filter(|(_, l)| *l > 0)
        .map(|(h, l)| format!("{:.2}", *h as f64 / *l as f64))
        .collect();
    println!("hit rate by depth: {}", rates.join(" "));
    let t = game.totals();
    println!(
        "seed {seed} pieces {} lines {} attack {} app {:.3} topped_out {} median_ms {:.2} nps {:.0} hit_rate {:.3}",
        t.pieces,
        t.lines,
        t.attack,
        t.attack as f64 / t.pieces.max(1) as f64,
        t.topped_out,
        times.get(times.len() / 2).copied().unwrap_or(0.0),
        nodes as f64 / secs,
        hits as f64 / lookups.max(1) as f64
    );
}
