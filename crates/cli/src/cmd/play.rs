//! `tetris-tt play`: seeded self-play, one game or a list of seeds, live or as a summary; and
//! the game loop that `bench` times.

use crate::colorboard::{ColorBoard, draw_cell, mini};
use crate::out::outln;
use crate::settings::{self, EngineArgs};
use crate::summary::{Recorder, Summary};
use clap::{Args, ValueEnum};
use game::Game;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use search::selfplay::{self, Step};
use search::{Budget, Config, DefaultEvaluator, Engine, Weights};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::io::Write;
use std::time::Instant;

/// What to play and how to show it.
pub(crate) struct PlayOptions {
    pub(crate) seed: u64,
    pub(crate) pieces: u64,
    pub(crate) config: Config,
    pub(crate) weights: Weights,
    pub(crate) render: bool,
    pub(crate) progress: bool,
    pub(crate) moves: Option<Box<dyn Write + Send>>,
    /// The board to start from (empty when `None`).
    pub(crate) board: Option<board::Board>,
    /// Write the game here as fumen.
    pub(crate) fumen_out: Option<String>,
    /// Pieces per second while rendering (0: unpaced).
    pub(crate) pps: f64,
    /// Search every pass of these widths for each move, as the TBP bot thinks in the
    /// background, and play the last pass's move; `None`: one pass at the configured width.
    pub(crate) widths: Option<Vec<usize>>,
}

/// Plays one game and returns its summary.
pub(crate) fn play(mut opts: PlayOptions) -> Result<Summary, String> {
    let mut engine = Engine::new(
        opts.config.clone(),
        DefaultEvaluator::new(opts.weights.clone()),
    );
    let mut game = Game::new(opts.seed, opts.config.previews);
    let mut colors = ColorBoard::new();
    if let Some(b) = opts.board {
        game.state_mut().board = b;
        colors.sync(&b, 0);
    }
    let mut fumen = opts.fumen_out.as_ref().map(|_| fumen::GameWriter::new());
    let mut rec = Recorder::new();
    let bar = if opts.progress {
        let b = ProgressBar::new(opts.pieces);
        b.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} pieces {msg} [{elapsed_precise}]")
                .map_err(|e| e.to_string())?,
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let stdout = std::io::stdout();
    for i in 0..opts.pieces {
        let before = game.state().board;
        let step = match &opts.widths {
            None => selfplay::step(&mut engine, &mut game),
            Some(widths) => selfplay::step_within(
                &mut engine,
                &mut game,
                Budget::Passes {
                    widths,
                    firm: widths.len(),
                    limit: None,
                    deadline: None,
                },
            ),
        };
        let Some(step) = step else {
            break;
        };
        if let Some(w) = fumen.as_mut() {
            let o = &step.outcome;
            w.push(
                &before,
                0,
                crate::fumen_out::place(&step.plan.placement),
                crate::fumen_out::comment(o, o.attack),
            );
        }
        rec.add(&step, game.state().board.roof());
        colors.place(&step.plan.placement);
        if let Some(w) = opts.moves.as_mut() {
            let p = step.plan.placement;
            writeln!(w, "{} {} {} {} {}", p.piece, p.rotation, p.x, p.y, p.spin)
                .map_err(|e| format!("cannot write the moves file: {e}"))?;
        }
        if opts.render {
            let frame = frame(&game, &colors, &step, &rec, start.elapsed().as_secs_f64());
            let mut out = stdout.lock();
            // Home the cursor and clear below: a redraw without flicker.
            let _ = write!(out, "\x1b[H\x1b[J{frame}");
            let _ = out.flush();
            if opts.pps > 0.0 {
                // Paced to be watched: piece i + 1 shows at (i + 1) / pps seconds.
                let due = start + std::time::Duration::from_secs_f64((i + 1) as f64 / opts.pps);
                if let Some(wait) = due.checked_duration_since(Instant::now()) {
                    std::thread::sleep(wait);
                }
            }
        }
        bar.inc(1);
        let t = game.totals();
        bar.set_message(format!(
            "app {:.2}  hit {:.0}%",
            t.attack as f64 / t.pieces.max(1) as f64,
            rec.hit_rate() * 100.0
        ));
    }
    bar.finish_and_clear();
    if let Some(w) = opts.moves.as_mut() {
        w.flush()
            .map_err(|e| format!("cannot write the moves file: {e}"))?;
    }
    if let (Some(path), Some(w)) = (&opts.fumen_out, &fumen) {
        let text: String = w
            .strings(crate::fumen_out::MAX_FUMEN_LEN)
            .into_iter()
            .map(|s| s + "\n")
            .collect();
        std::fs::write(path, text).map_err(|e| format!("cannot write fumen file {path}: {e}"))?;
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(rec.summary(&engine, opts.seed, game.totals(), seconds))
}

/// Several self-play games with the same settings, one per seed (`play --seeds`).
#[derive(serde::Serialize, Debug)]
pub(crate) struct Series {
    /// The seeds, in the order given.
    pub(crate) seeds: Vec<u64>,
    /// Mean attack per piece over the games (each game weighs the same).
    pub(crate) mean_app: f64,
    pub(crate) min_app: f64,
    pub(crate) max_app: f64,
    /// Games that topped out.
    pub(crate) topped_out: usize,
    /// Every game's summary, in the order of `seeds`.
    pub(crate) games: Vec<Summary>,
}

/// Plays one game per seed on `threads` threads and summarises them. The games do not share
/// anything, so each one's moves are those of `play --seed` with the same settings.
pub(crate) fn play_seeds(
    seeds: &[u64],
    threads: usize,
    pieces: u64,
    config: &Config,
    weights: &Weights,
    board: Option<board::Board>,
    progress: bool,
) -> Result<Series, String> {
    let bar = if progress {
        let b = ProgressBar::new(seeds.len() as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise}]")
                .map_err(|e| e.to_string())?,
        );
        b
    } else {
        ProgressBar::hidden()
    };
    // The arena's way of running independent games: a pool of `threads`, results in order;
    // each game's search splits its work among `search_threads` of them.
    let n = threads.max(1).saturating_mul(config.search_threads.max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| format!("cannot start {n} threads: {e}"))?;
    let games = pool.install(|| {
        seeds
            .par_iter()
            .map(|&seed| {
                let summary = play(PlayOptions {
                    seed,
                    pieces,
                    config: config.clone(),
                    weights: weights.clone(),
                    render: false,
                    progress: false,
                    moves: None,
                    board,
                    fumen_out: None,
                    pps: 0.0,
                    widths: None,
                });
                bar.inc(1);
                summary
            })
            .collect::<Result<Vec<_>, _>>()
    })?;
    bar.finish_and_clear();
    let apps: Vec<f64> = games.iter().map(|g| g.app).collect();
    let n = apps.len().max(1) as f64;
    Ok(Series {
        seeds: seeds.to_vec(),
        mean_app: apps.iter().sum::<f64>() / n,
        min_app: apps.iter().copied().fold(f64::INFINITY, f64::min),
        max_app: apps.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        topped_out: games.iter().filter(|g| g.topped_out).count(),
        games,
    })
}

/// The human-readable lines of `play --seeds`: a line per game, then the summary.
pub(crate) fn print_series(s: &Series) {
    for g in &s.games {
        outln!(
            "seed {}: {} pieces, {} attack ({:.3} per piece){}, median {:.2} ms per move, moves digest {}",
            g.seed,
            g.pieces,
            g.attack,
            g.app,
            if g.topped_out { ", topped out" } else { "" },
            g.median_move_ms,
            g.moves_digest
        );
    }
    outln!(
        "{} games: mean attack per piece {:.3} (lowest {:.3}, highest {:.3}), {} topped out",
        s.games.len(),
        s.mean_app,
        s.min_app,
        s.max_app,
        s.topped_out
    );
}

/// Two settings on the same seeds (`play --seeds --against`): each side's games, and attack
/// per piece compared seed by seed.
#[derive(serde::Serialize, Debug)]
pub(crate) struct Paired {
    /// The games of `--engine` (with the options on top).
    pub(crate) a: Series,
    /// The games of `--against` (with the same options on top).
    pub(crate) b: Series,
    /// A's attack per piece minus B's, seed by seed.
    pub(crate) difference: Difference,
}

/// The paired difference of two series of the same seeds.
#[derive(serde::Serialize, Debug, PartialEq)]
pub(crate) struct Difference {
    /// Seeds compared.
    pub(crate) n: usize,
    /// The mean of A's minus B's attack per piece.
    pub(crate) mean: f64,
    /// The half-width of the mean's 95% interval (Student's t with n - 1 degrees of freedom);
    /// `None` with fewer than two seeds.
    pub(crate) interval_95: Option<f64>,
    /// Seeds where A's attack per piece is higher, lower, the same.
    pub(crate) higher: usize,
    pub(crate) lower: usize,
    pub(crate) level: usize,
}

/// A's values minus B's, pair by pair (the same length): mean, 95% interval, signs.
pub(crate) fn paired_difference(a: &[f64], b: &[f64]) -> Difference {
    debug_assert_eq!(a.len(), b.len());
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = d.len();
    let mean = d.iter().sum::<f64>() / n.max(1) as f64;
    let interval_95 = (n >= 2).then(|| {
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        distrs::StudentsT::ppf(0.975, (n - 1) as f64) * (var / n as f64).sqrt()
    });
    Difference {
        n,
        mean,
        interval_95,
        higher: d.iter().filter(|&&x| x > 0.0).count(),
        lower: d.iter().filter(|&&x| x < 0.0).count(),
        level: d.iter().filter(|&&x| x == 0.0).count(),
    }
}

/// [`Paired`] from the two sides' series (the same seeds in the same order).
pub(crate) fn pair(a: Series, b: Series) -> Paired {
    let apps = |s: &Series| s.games.iter().map(|g| g.app).collect::<Vec<_>>();
    let difference = paired_difference(&apps(&a), &apps(&b));
    Paired { a, b, difference }
}

/// The human-readable lines of `play --seeds --against`: both sides seed by seed, then the
/// means and the difference.
pub(crate) fn print_paired(p: &Paired) {
    for (x, y) in p.a.games.iter().zip(&p.b.games) {
        outln!(
            "seed {}: {:.3} vs {:.3} ({:+.3}){}{}, moves digests {} / {}",
            x.seed,
            x.app,
            y.app,
            x.app - y.app,
            if x.topped_out { ", A topped out" } else { "" },
            if y.topped_out { ", B topped out" } else { "" },
            x.moves_digest,
            y.moves_digest
        );
    }
    for (name, s) in [("A (--engine)", &p.a), ("B (--against)", &p.b)] {
        outln!(
            "{name}: mean attack per piece {:.3} (lowest {:.3}, highest {:.3}), {} topped out",
            s.mean_app,
            s.min_app,
            s.max_app,
            s.topped_out
        );
    }
    let d = &p.difference;
    let interval = match d.interval_95 {
        Some(h) => format!(
            " ± {h:.3} (95%, Student's t, {} degree{} of freedom)",
            d.n - 1,
            if d.n == 2 { "" } else { "s" }
        ),
        None => String::from(" (one seed: no interval)"),
    };
    outln!(
        "A - B: {:+.3}{interval}; A higher on {} of {} seeds, lower on {}, level on {}",
        d.mean,
        d.higher,
        d.n,
        d.lower,
        d.level
    );
}

/// One screen: the board (20 rows, or up to the stack), hold and queue beside it, then the
/// figures.
pub(crate) fn frame(
    game: &Game,
    colors: &ColorBoard,
    step: &Step,
    rec: &Recorder,
    secs: f64,
) -> String {
    let state = game.state();
    let totals = game.totals();
    let rows = (state.board.roof() as usize).max(20);
    let mut side: Vec<String> = vec![String::from("HOLD")];
    for r in [1, 0] {
        side.push(state.hold.map(|p| mini(p, r, true)).unwrap_or_default());
    }
    side.push(String::new());
    side.push(String::from("NEXT"));
    for &p in state.queue.iter() {
        for r in [1, 0] {
            side.push(mini(p, r, true));
        }
        side.push(String::new());
    }
    let mut out = String::new();
    for (i, y) in (0..rows).rev().enumerate() {
        out.push('|');
        for x in 0..board::WIDTH {
            draw_cell(&mut out, colors.cell(x, y), true);
        }
        out.push('|');
        if let Some(s) = side.get(i) {
            let _ = write!(out, "  {s}");
        }
        out.push('\n');
    }
    out.push('+');
    out.push_str(&"-".repeat(2 * board::WIDTH));
    out.push_str("+\n");
    let o = &step.outcome;
    let _ = writeln!(
        out,
        "pieces {}  lines {}  attack {}  app {:.2}  b2b {}  combo {}",
        totals.pieces,
        totals.lines,
        totals.attack,
        totals.attack as f64 / totals.pieces.max(1) as f64,
        if state.carried.b2b { "yes" } else { "no" },
        state.carried.combo
    );
    let _ = writeln!(
        out,
        "last: {} {} {} {} spin {} -> {} lines, {} sent",
        step.plan.placement.piece,
        step.plan.placement.rotation,
        step.plan.placement.x,
        step.plan.placement.y,
        o.spin,
        o.lines,
        o.attack
    );
    let _ = writeln!(
        out,
        "pps {:.1}  nodes/s {:.2}M  cache hit rate {:.1}%",
        totals.pieces as f64 / secs.max(1e-9),
        rec.nps() / 1e6,
        rec.hit_rate() * 100.0
    );
    out
}

/// The human-readable summary printed after a game.
pub(crate) fn print_summary(s: &Summary) {
    outln!(
        "seed {}: {} pieces, {} lines, {} attack ({:.3} per piece){}",
        s.seed,
        s.pieces,
        s.lines,
        s.attack,
        s.app,
        if s.topped_out { ", topped out" } else { "" }
    );
    outln!(
        "{:.2} s, {:.1} pieces/s, median {:.2} ms per move, {} nodes, {:.2}M nodes/s",
        s.seconds,
        s.pps,
        s.median_move_ms,
        s.nodes,
        s.nps / 1e6
    );
    outln!(
        "cache: {} tables x 2^{} entries ({} bytes), hit rate {:.1}%, {} evaluations{}",
        s.tt.depths,
        s.tt.bits,
        s.tt.bytes,
        s.tt.hit_rate * 100.0,
        s.evaluations,
        match s.tt.replacement_ratio {
            Some(r) => format!(", replacements/stores {r:.3}"),
            None => String::new(),
        }
    );
    outln!(
        "memory {} bytes, moves digest {}",
        s.memory_bytes,
        s.moves_digest
    );
}

#[derive(Args)]
pub(crate) struct PlayArgs {
    /// Seed of the 7-bag randomizer.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play one game per seed instead, with the same settings, and summarise them (mean,
    /// lowest and highest attack per piece, top-outs): a list such as 1-5 or 11,13,20-25.
    #[arg(long, value_name = "LIST", value_parser = parse_seed_list, conflicts_with_all = ["seed", "moves", "fumen_out"])]
    seeds: Option<SeedList>,
    /// With --seeds, also play every seed with these settings (a file as for --engine; the
    /// options below apply to both sides) and compare attack per piece seed by seed: each
    /// side's mean, and the mean difference with its 95% interval.
    #[arg(long, value_name = "FILE", requires = "seeds")]
    against: Option<String>,
    /// With --seeds, games played at once (each game's moves are the same at any number;
    /// only its times change). Each game's search has --search-threads of its own.
    #[arg(long, default_value_t = 1, requires = "seeds", value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Pieces to play.
    #[arg(long, default_value_t = 1000)]
    pieces: u64,
    #[command(flatten)]
    engine: EngineArgs,
    /// Do not draw the board; show a progress bar on standard error instead.
    #[arg(long)]
    no_render: bool,
    /// Print the final summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// Write each placement to FILE: PIECE ORIENTATION X Y SPIN.
    #[arg(long, value_name = "FILE")]
    moves: Option<String>,
    /// Start from this board: a text board file, - for standard input, or a fumen string.
    #[arg(long, value_name = "FILE|FUMEN")]
    board: Option<String>,
    /// With a fumen board, the page to start from (default: the last).
    #[arg(long, value_name = "N")]
    page: Option<usize>,
    /// Write the game to FILE as fumen, one string per line (a page per piece; long games
    /// are split into strings of at most 8,000 characters).
    #[arg(long, value_name = "FILE")]
    fumen_out: Option<String>,
    /// Pieces per second while drawing the board (0: as fast as it plays).
    #[arg(long, default_value_t = 10.0)]
    pps: f64,
    /// The game's clock, which sets what the engine's time terms weigh (as the arena's preset
    /// does in `versus`): `none`, a solo game where time costs nothing (the settings start
    /// from `search::Config::without_clock`, which also looks a second piece past the queue
    /// from beam 2048), or `ppt`, the ppt arena's frame costs and the settings that the TBP
    /// bot and `suggest` use.
    #[arg(long, value_enum, default_value_t = TimingArg::None)]
    timing: TimingArg,
}

/// The clock of a self-play game.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimingArg {
    /// No clock: no move costs time.
    None,
    /// The ppt arena's frame costs (`search::FrameCosts::default()`).
    Ppt,
}

impl PlayArgs {
    /// A self-play side's settings from `file`: a game without a clock starts from the
    /// settings that pay when time is free (`Config::without_clock`: no time terms, a second
    /// look past the queue from width 2048), then the file and the options go on top.
    pub(crate) fn settings(&self, file: Option<&str>) -> Result<(Config, Weights), String> {
        let defaults = self.timing.defaults();
        let (mut config, weights) = self.engine.settings_from(file, &defaults)?;
        // The game sets the clock, whatever the settings file says (as in the arena).
        config.frame_costs = defaults.frame_costs;
        // Self-play searches at its fixed width and never widens, so no table is kept for a
        // pass wider than the beam.
        config.max_width = config.beam_width;
        Ok((config, weights))
    }
}

impl TimingArg {
    /// The settings a game with this clock starts from, before the settings file.
    pub(crate) fn defaults(self) -> Config {
        match self {
            TimingArg::None => Config::without_clock(),
            TimingArg::Ppt => Config::default(),
        }
    }
}

/// The seeds of `play --seeds`, in the order given.
#[derive(Clone, Debug)]
pub(crate) struct SeedList(Vec<u64>);

/// Parses `1-5`, `11,13,20-25`: seeds and inclusive ranges, each seed once.
pub(crate) fn parse_seed_list(s: &str) -> Result<SeedList, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("{t:?} is not a seed (a whole number from 0)"))
    };
    let mut seeds = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for item in s.split(',') {
        let (lo, hi) = match item.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(item)?;
                (n, n)
            }
        };
        if lo > hi {
            return Err(format!("{item:?}: a range goes from low to high"));
        }
        if seeds.len() as u64 + (hi - lo) >= 100_000 {
            return Err("at most 100,000 seeds".into());
        }
        for seed in lo..=hi {
            if !seen.insert(seed) {
                return Err(format!("seed {seed} is listed twice"));
            }
            seeds.push(seed);
        }
    }
    Ok(SeedList(seeds))
}

/// Runs the command.
pub(crate) fn run(a: PlayArgs) -> Result<(), String> {
    let moves: Option<Box<dyn Write + Send>> = match &a.moves {
        Some(path) => Some(Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create moves file {path}: {e}"))?,
        ))),
        None => None,
    };
    let render = !a.no_render && !a.json && std::io::stdout().is_terminal();
    let (config, weights) = a.settings(a.engine.engine.as_deref())?;
    settings::check_pps(a.pps)?;
    let board = match &a.board {
        None if a.page.is_some() => return Err("--page needs a fumen --board".into()),
        None => None,
        Some(b) => Some(settings::read_board(Some(b), a.page)?),
    };
    if let Some(SeedList(seeds)) = &a.seeds {
        let series = |config: &Config, weights: &Weights| {
            play_seeds(
                seeds,
                a.threads as usize,
                a.pieces,
                config,
                weights,
                board,
                !a.json,
            )
        };
        let Some(against) = &a.against else {
            return settings::report(a.json, &series(&config, &weights)?, print_series);
        };
        // Read before any game is played: a bad file fails at once.
        let (b_config, b_weights) = a.settings(Some(against))?;
        let paired = pair(series(&config, &weights)?, series(&b_config, &b_weights)?);
        return settings::report(a.json, &paired, print_paired);
    }
    let options = PlayOptions {
        seed: a.seed,
        pieces: a.pieces,
        config,
        weights,
        render,
        progress: !render,
        moves,
        board,
        fumen_out: a.fumen_out.clone(),
        pps: a.pps,
        widths: None,
    };
    let summary = settings::SearchThreads::start(&options.config)?.run(|| play(options))?;
    settings::report(a.json, &summary, print_summary)
}

#[cfg(test)]
mod tests {
    use super::paired_difference;

    #[test]
    fn the_paired_interval_is_students_t_on_the_differences() {
        // Differences 1..=5: mean 3, standard deviation sqrt(2.5), t(0.975, 4) = 2.7764.
        let d = paired_difference(&[2.0, 4.0, 6.0, 8.0, 10.0], &[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!((d.n, d.higher, d.lower, d.level), (5, 5, 0, 0));
        assert!((d.mean - 3.0).abs() < 1e-12);
        let h = d.interval_95.expect("five seeds have an interval");
        assert!((h - 2.7764 * (2.5f64 / 5.0).sqrt()).abs() < 1e-3, "{h}");
        // Signs and ties; one pair has no interval.
        let d = paired_difference(&[1.0, 1.0, 0.5], &[0.5, 1.0, 1.0]);
        assert_eq!((d.higher, d.lower, d.level), (1, 1, 1));
        assert_eq!(d.mean, 0.0);
        assert_eq!(paired_difference(&[1.0], &[0.5]).interval_95, None);
    }
}
