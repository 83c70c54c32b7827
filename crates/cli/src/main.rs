//! `tetris-tt`: watch the engine play, run it as a TBP bot, inspect move generation, and
//! benchmark it.

mod colorboard;
mod fumen_cmd;
mod movegen_cmd;
mod play;
mod summary;
mod tbp;
mod tune_cmd;
mod versus_cmd;

use board::{Piece, Rules};
use clap::builder::TypedValueParser as _;
use clap::{Args, Parser, Subcommand, ValueEnum};
use search::{Config, Weights};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

fn version() -> String {
    format!(
        "{} (TETRIS_TT_BITS={}, statistics {})",
        env!("CARGO_PKG_VERSION"),
        tt_core::BITS,
        if summary::STATS {
            "compiled in"
        } else {
            "not compiled in"
        }
    )
}

#[derive(Parser)]
#[command(
    name = "tetris-tt",
    version = version(),
    about = "A Tetris engine whose beam search keeps a transposition table per depth across moves.",
    after_help = "Examples:\n  \
        tetris-tt play                          watch a 1000-piece game\n  \
        tetris-tt play --no-render --json       play and print a JSON summary\n  \
        tetris-tt tbp --think-ms 100            run as a TBP bot\n  \
        tetris-tt movegen --piece T --board b.txt --json\n  \
        tetris-tt versus --b weak.json --games 40   a match in the arena\n  \
        tetris-tt bench                         the fixed benchmark workload"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Self-play a seeded 7-bag game and watch it.
    #[command(after_help = "Examples:\n  tetris-tt play --seed 3 --pieces 500\n  \
        tetris-tt play --no-render --json --moves moves.txt\n  \
        tetris-tt play --seeds 1-5 --beam 512 --threads 2    mean attack per piece over five games\n  \
        tetris-tt play --seeds 11-30 --pieces 500 --engine new.json --against old.json\n      \
        both settings on each seed: the mean difference and its 95% interval")]
    Play(PlayArgs),
    /// Run as a Tetris Bot Protocol bot on standard input and output.
    #[command(after_help = "Example:\n  tetris-tt tbp --think-ms 100\n\n\
        Point a TBP front end (for example Quadspace) at this command.")]
    Tbp(TbpArgs),
    /// Show every page of a fumen: its board, piece and comment.
    #[command(
        after_help = "Example:\n  tetris-tt fumen v115@VgA8IeA8IeB8FeE8DeG8CeG8BeG8CeH8AeE8JeAgH"
    )]
    Fumen(FumenArgs),
    /// Ask the engine for the best move in a position (a fumen or a text board).
    #[command(after_help = "Example:\n  \
        tetris-tt suggest --board v115@VgA8IeA8IeB8FeE8DeG8CeG8BeG8CeH8AeE8JeAgH --queue TIOLJS --fumen")]
    Suggest(SuggestArgs),
    /// Count the leaves of the placement tree of a queue (perft), the standard correctness
    /// count and speed test of a move generator.
    #[command(after_help = "Examples:\n  \
        tetris-tt perft IIIIII --no-spawn-rise        33325345 leaves\n  \
        tetris-tt perft IOLJSZT --no-spawn-rise --threads 2 --json")]
    Perft(PerftArgs),
    /// Print every placement of a piece on a board.
    #[command(
        after_help = "Example:\n  printf '#.........\\n##.....###\\n' | tetris-tt movegen --piece T --board - --json"
    )]
    Movegen(MovegenArgs),
    /// Play a match between two engine settings in the versus arena (simulated real time,
    /// garbage, paired games, Elo and SPRT).
    #[command(after_help = "Examples:\n  \
        echo '{\"beam_width\": 1}' > weak.json\n  \
        tetris-tt versus --b weak.json --games 40\n  \
        tetris-tt versus --a new.json --b old.json --games 2000 --sprt 0,10\n  \
        tetris-tt versus --render --games 2 --pps 8\n\n\
        Settings files hold one JSON object with the fields of search::Config and\n\
        search::Weights side by side (missing fields keep their defaults), plus the\n\
        arena's ponder, think_ms, widen and speed; see settings/README.md.")]
    Versus(VersusArgs),
    /// Tune the evaluator weights by SPSA in the arena, resumably.
    #[command(after_help = "Examples:\n  \
        tetris-tt tune --steps 100 --dir tune-run\n  \
        tetris-tt tune --steps 50 --params holes,height,t_slot[2] --pairs 16\n\n\
        Each step plays --pairs pairs of games between the weights moved +c and -c and\n\
        updates them. The run directory keeps checkpoint.json (resume by running again),\n\
        log.jsonl (one line per step) and weights.svg; the tuned weights are the\n\
        checkpoint's. Accept them only after an SPRT win in `versus`.")]
    Tune(TuneArgs),
    /// Play games of a match and print one JSON line per game: the unit of work a
    /// distributed runner hands out.
    #[command(
        after_help = "Example:\n  tetris-tt batch --a new.json --b old.json --seed 7 --first 40 --games 8"
    )]
    Batch(BatchArgs),
    /// Run the fixed, seeded benchmark workload and print one JSON line.
    #[command(after_help = "Example:\n  tetris-tt bench\n  tetris-tt bench --pieces 50")]
    Bench(BenchArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum RulesArg {
    /// Guideline SRS.
    Srs,
    /// The TETR.IO variant: symmetric I kicks and 180-degree turns.
    SrsPlus,
}

impl From<RulesArg> for Rules {
    fn from(r: RulesArg) -> Rules {
        match r {
            RulesArg::Srs => Rules::Srs,
            RulesArg::SrsPlus => Rules::SrsPlus,
        }
    }
}

#[derive(Args, Clone)]
struct EngineArgs {
    /// Engine settings as one JSON object: the fields of search::Config and search::Weights
    /// side by side (the same files `versus --a/--b` read). The options below override it.
    #[arg(long, value_name = "FILE")]
    engine: Option<String>,
    /// Beam width (states kept per depth) [default: 128].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000).map(|v| v as usize))]
    beam: Option<usize>,
    /// Preview pieces the search uses after the current one [default: 5].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=30).map(|v| v as usize))]
    previews: Option<usize>,
    /// Rotation system [default: srs].
    #[arg(long, value_enum)]
    rules: Option<RulesArg>,
    /// Turn the evaluation cache off (the moves stay the same; only the work changes).
    #[arg(long)]
    no_cache: bool,
    /// Evaluator weights as JSON (fields as in search::Weights; missing fields keep their
    /// defaults); replaces the weights of --engine.
    #[arg(long, value_name = "FILE")]
    weights: Option<String>,
}

impl EngineArgs {
    /// The settings: --engine's file (or the defaults), then the options on top.
    fn settings(&self) -> Result<(Config, Weights), String> {
        self.settings_from(self.engine.as_deref(), &Config::default())
    }

    /// The settings of `file` over `defaults` (the search settings the file leaves out keep
    /// their values there), with the options on top.
    fn settings_from(
        &self,
        file: Option<&str>,
        defaults: &Config,
    ) -> Result<(Config, Weights), String> {
        let base = versus_cmd::read_settings_over(file, defaults)?;
        let mut config = base.config;
        if let Some(b) = self.beam {
            config.beam_width = b;
        }
        if let Some(p) = self.previews {
            config.previews = p;
        }
        if let Some(r) = self.rules {
            config.rules = r.into();
        }
        if self.no_cache {
            config.use_cache = false;
        }
        let weights = match &self.weights {
            None => base.weights,
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read weights file {path}: {e}"))?;
                let w: Weights =
                    serde_json::from_str(&text).map_err(|e| format!("weights file {path}: {e}"))?;
                w.check().map_err(|e| format!("weights file {path}: {e}"))?;
                w
            }
        };
        Ok((config, weights))
    }
}

#[derive(Args)]
struct PlayArgs {
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
    /// only its times change).
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
enum TimingArg {
    /// No clock: no move costs time.
    None,
    /// The ppt arena's frame costs (`search::FrameCosts::default()`).
    Ppt,
}

impl PlayArgs {
    /// A self-play side's settings from `file`: a game without a clock starts from the
    /// settings that pay when time is free (`Config::without_clock`: no time terms, a second
    /// look past the queue from width 2048), then the file and the options go on top.
    fn settings(&self, file: Option<&str>) -> Result<(Config, Weights), String> {
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
    fn defaults(self) -> Config {
        match self {
            TimingArg::None => Config::without_clock(),
            TimingArg::Ppt => Config::default(),
        }
    }
}

#[derive(Args)]
struct FumenArgs {
    /// A fumen string (v115@...) or a fumen URL.
    fumen: String,
}

#[derive(Args)]
struct SuggestArgs {
    /// The board: a text board file, - for standard input, or a fumen string. Without it the
    /// board is empty.
    #[arg(long, value_name = "FILE|FUMEN")]
    board: Option<String>,
    /// With a fumen board, the page to read (default: the last).
    #[arg(long, value_name = "N")]
    page: Option<usize>,
    /// The current piece and the previews, for example TIOLJS.
    #[arg(long)]
    queue: String,
    /// The held piece.
    #[arg(long, value_parser = parse_piece_arg)]
    hold: Option<Piece>,
    /// A back-to-back chain is active.
    #[arg(long)]
    b2b: bool,
    /// Clears in a row so far.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    combo: u32,
    /// Think this long (the beam widens); without it, one search at the fixed width.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=60_000))]
    think_ms: Option<u64>,
    /// Also print the planned line as a fumen string, to paste into a viewer.
    #[arg(long)]
    fumen: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Args)]
struct TbpArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Answer no earlier than N ms after a suggest request, with the best pass found by then.
    /// Without it the bot answers as soon as the configured width has finished (at once when
    /// it already has), and within 400 ms in any case.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=60_000))]
    think_ms: Option<u64>,
    /// Stop thinking at the configured width instead of widening the beam while waiting:
    /// every answer is then exactly that width's search, whatever the timing.
    #[arg(long)]
    fixed: bool,
}

/// The rules and costs of arena games, shared by versus, tune and batch.
#[derive(Args, Clone)]
struct ArenaArgs {
    /// Games played at once (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024).map(|v| v as usize))]
    threads: Option<usize>,
    /// The rules and timing: ppt (4 ms frames, as bot arenas run), ppt-60hz, or ppt-surge (ppt
    /// with attack growing 5% a second after a minute, so every game ends).
    #[arg(long, default_value = "ppt")]
    preset: String,
    /// Rules from a JSON file of game::versus::VersusConfig fields (missing ones keep the
    /// ppt values); replaces --preset.
    #[arg(long, value_name = "FILE")]
    rules_file: Option<String>,
    /// How thinking is charged: nodes:N (N nodes per millisecond), ms:X (X ms per move), or
    /// wall (measured time; not reproducible).
    #[arg(long, default_value = "nodes:2000")]
    think: String,
}

impl ArenaArgs {
    /// Match options with these rules and two engines; games and seed to be filled in.
    fn options(
        &self,
        a: arena::EngineSettings,
        b: arena::EngineSettings,
    ) -> Result<arena::MatchOptions, String> {
        let opts = arena::MatchOptions {
            versus: versus_cmd::read_rules(&self.preset, self.rules_file.as_deref())?,
            a,
            b,
            threads: self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            think: versus_cmd::parse_think(&self.think)?,
            ..arena::MatchOptions::default()
        };
        opts.check()?;
        Ok(opts)
    }
}

#[derive(Args)]
struct VersusArgs {
    /// Engine A's settings (JSON); without it, the defaults.
    #[arg(long, value_name = "FILE")]
    a: Option<String>,
    /// Engine B's settings (JSON); without it, the defaults.
    #[arg(long, value_name = "FILE")]
    b: Option<String>,
    /// Games to play, in pairs with sides swapped (an SPRT may stop earlier).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: u64,
    /// Match seed: every game's pieces and garbage come from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    arena: ArenaArgs,
    /// Stop on a sequential probability ratio test between two Elo hypotheses.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// The SPRT's false positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The SPRT's false negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Draw both boards live, one game at a time.
    #[arg(long)]
    render: bool,
    /// Pieces per second while rendering (0: as fast as it runs).
    #[arg(long, default_value_t = 10.0)]
    pps: f64,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// Write every game to DIR as fumen: game-N-a.txt and game-N-b.txt, one file per side.
    #[arg(long, value_name = "DIR")]
    fumen_out: Option<String>,
    /// Keep every finished game in FILE (JSON lines); when FILE already holds games of this
    /// match (the same engines, rules, seed and think charge), count them and play on after
    /// them, so a stopped match loses nothing.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<String>,
}

#[derive(Args)]
struct TuneArgs {
    /// Engine settings both sides use (the config tuned at, and the starting weights).
    #[arg(long, value_name = "FILE")]
    engine: Option<String>,
    /// Steps to run now (a run resumes from its checkpoint).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    steps: u64,
    /// Directory of the run: checkpoint.json, log.jsonl and weights.svg.
    #[arg(long, value_name = "DIR", default_value = "tune-run")]
    dir: String,
    /// Pairs of games per step (new runs only).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pairs: u64,
    /// Weights to tune, comma-separated, each with an optional perturbation
    /// (`holes,t_slot[2]:40`); default every weight, perturbed by a tenth of its size (at
    /// least 5) (new runs only).
    #[arg(long)]
    params: Option<String>,
    /// Learning rate: a batch won outright moves each weight by its perturbation (new runs
    /// only).
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Seed of the perturbations and games (new runs only).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    arena: ArenaArgs,
}

#[derive(Args)]
struct BatchArgs {
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
}

#[derive(Args)]
struct MovegenArgs {
    /// The piece: I, O, T, L, J, S or Z.
    #[arg(long, value_parser = parse_piece_arg)]
    piece: Piece,
    /// The board: a text board file (rows top first, '#' filled, '.' empty), - for standard
    /// input, or a fumen string. Without it the board is empty.
    #[arg(long, value_name = "FILE|FUMEN")]
    board: Option<String>,
    /// With a fumen board, the page to read (default: the last).
    #[arg(long, value_name = "N")]
    page: Option<usize>,
    /// Rotation system.
    #[arg(long, value_enum, default_value = "srs")]
    rules: RulesArg,
    /// One JSON object per placement (with its cheapest inputs in ppt frames).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct PerftArgs {
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

#[derive(Args)]
struct BenchArgs {
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

/// Prints `value` as one JSON line with `json`, else as `human` writes it.
fn report<T: serde::Serialize>(json: bool, value: &T, human: fn(&T)) -> Result<(), String> {
    if json {
        println!(
            "{}",
            serde_json::to_string(value).map_err(|e| e.to_string())?
        );
    } else {
        human(value);
    }
    Ok(())
}

/// The seeds of `play --seeds`, in the order given.
#[derive(Clone, Debug)]
struct SeedList(Vec<u64>);

/// Parses `1-5`, `11,13,20-25`: seeds and inclusive ranges, each seed once.
fn parse_seed_list(s: &str) -> Result<SeedList, String> {
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

fn parse_piece_arg(s: &str) -> Result<Piece, String> {
    let mut chars = s.chars();
    match (chars.next().map(|c| c.to_ascii_uppercase()), chars.next()) {
        (Some(c), None) => {
            Piece::from_char(c).ok_or(format!("unknown piece {s:?}: use one of I O T L J S Z"))
        }
        _ => Err(format!("unknown piece {s:?}: use one of I O T L J S Z")),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version print to standard output and succeed.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        // A bad argument: one line, exit code 2.
        Err(e) => {
            let text = e.to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let first = lines.next().unwrap_or("invalid arguments");
            // "the following required arguments were not provided:" names them on the next line.
            let named = match lines.next() {
                Some(next) if first.ends_with(':') => format!(" {next}"),
                _ => String::new(),
            };
            eprintln!("tetris-tt: {}{named}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tetris-tt: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Play(a) => {
            let moves: Option<Box<dyn Write>> = match &a.moves {
                Some(path) => Some(Box::new(std::io::BufWriter::new(
                    std::fs::File::create(path)
                        .map_err(|e| format!("cannot create moves file {path}: {e}"))?,
                ))),
                None => None,
            };
            let render = !a.no_render && !a.json && std::io::stdout().is_terminal();
            let (config, weights) = a.settings(a.engine.engine.as_deref())?;
            if !(a.pps >= 0.0 && a.pps.is_finite()) {
                return Err(format!(
                    "--pps {}: use a number of pieces per second, 0 for full speed",
                    a.pps
                ));
            }
            let board = match &a.board {
                None if a.page.is_some() => return Err("--page needs a fumen --board".into()),
                None => None,
                Some(b) => Some(movegen_cmd::read_board(Some(b), a.page)?),
            };
            if let Some(SeedList(seeds)) = &a.seeds {
                let series = |config: &Config, weights: &Weights| {
                    play::play_seeds(
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
                    return report(a.json, &series(&config, &weights)?, play::print_series);
                };
                // Read before any game is played: a bad file fails at once.
                let (b_config, b_weights) = a.settings(Some(against))?;
                let paired = play::pair(series(&config, &weights)?, series(&b_config, &b_weights)?);
                return report(a.json, &paired, play::print_paired);
            }
            let summary = play::play(play::PlayOptions {
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
            })?;
            report(a.json, &summary, play::print_summary)
        }
        Command::Bench(a) => {
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
            let per_move =
                |s: &summary::Summary| s.search_seconds * 1000.0 / s.pieces.max(1) as f64;
            let mut v = serde_json::to_value(&on).map_err(|e| e.to_string())?;
            v["cache_off"] = serde_json::json!({
                "search_seconds": off.search_seconds,
                "ms_per_move": per_move(&off),
                "evaluations": off.evaluations,
                "nps": off.nps,
            });
            v["ms_per_move"] = serde_json::json!(per_move(&on));
            v["cache_speedup"] =
                serde_json::json!(off.search_seconds / on.search_seconds.max(1e-9));
            v["cache_speedup_pairs"] = serde_json::json!(spread);
            v["evaluations_saved"] =
                serde_json::json!(1.0 - on.evaluations as f64 / off.evaluations.max(1) as f64);
            v["repeat"] = serde_json::json!(a.repeat);
            println!("{v}");
            Ok(())
        }
        Command::Versus(a) => {
            if !(a.pps >= 0.0 && a.pps.is_finite()) {
                return Err(format!(
                    "--pps {}: use a number of pieces per second, 0 for full speed",
                    a.pps
                ));
            }
            let opts = arena::MatchOptions {
                games: a.games,
                seed: a.seed,
                record: a.fumen_out.is_some(),
                sprt: a
                    .sprt
                    .as_deref()
                    .map(|s| versus_cmd::parse_sprt(s, a.alpha, a.beta))
                    .transpose()?,
                ..a.arena.options(
                    versus_cmd::read_settings(a.a.as_deref())?,
                    versus_cmd::read_settings(a.b.as_deref())?,
                )?
            };
            if a.render && a.checkpoint.is_some() {
                return Err("--checkpoint cannot be used with --render (a rendered match is for watching; run the long match without it)".into());
            }
            let render = a.render && std::io::stdout().is_terminal();
            if a.render && !render {
                eprintln!("tetris-tt: --render needs a terminal; showing progress instead");
            }
            if let Some(dir) = &a.fumen_out {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create --fumen-out directory {dir}: {e}"))?;
            }
            let summary = versus_cmd::run(
                &opts,
                &versus_cmd::Show {
                    render,
                    pps: a.pps,
                    progress: !render,
                    fumen_out: a.fumen_out.clone(),
                    checkpoint: a.checkpoint.clone(),
                },
            )?;
            report(a.json, &summary, versus_cmd::print_summary)
        }
        Command::Tune(a) => {
            if !(a.rate > 0.0 && a.rate.is_finite()) {
                return Err(format!("--rate {}: use a positive number", a.rate));
            }
            let settings = versus_cmd::read_settings(a.engine.as_deref())?;
            let template = a.arena.options(settings.clone(), settings.clone())?;
            let dir = std::path::Path::new(&a.dir);
            let files = tune_cmd::TuneFiles {
                checkpoint: dir.join("checkpoint.json"),
                log: dir.join("log.jsonl"),
                svg: dir.join("weights.svg"),
            };
            let cp = tune_cmd::tune(
                &files,
                &settings,
                &template,
                &tune_cmd::Fresh {
                    params: a.params,
                    pairs: a.pairs,
                    seed: a.seed,
                    rate: a.rate,
                },
                a.steps,
                std::io::stderr().is_terminal(),
            )?;
            println!(
                "{}",
                serde_json::to_string(&cp.weights()?).map_err(|e| e.to_string())?
            );
            Ok(())
        }
        Command::Batch(a) => {
            let opts = arena::MatchOptions {
                seed: a.seed,
                ..a.arena.options(
                    versus_cmd::read_settings(a.a.as_deref())?,
                    versus_cmd::read_settings(a.b.as_deref())?,
                )?
            };
            tune_cmd::batch(&opts, a.first, a.games)
        }
        Command::Fumen(a) => {
            print!("{}", fumen_cmd::show(&a.fumen)?);
            Ok(())
        }
        Command::Suggest(a) => {
            let (config, weights) = a.engine.settings()?;
            let answer = fumen_cmd::suggest(fumen_cmd::Question {
                board: movegen_cmd::read_board(a.board.as_deref(), a.page)?,
                queue: fumen_cmd::parse_queue(&a.queue)?,
                hold: a.hold,
                carried: game::Carried {
                    b2b: a.b2b,
                    combo: a.combo,
                },
                think: a.think_ms.map(Duration::from_millis),
                config,
                weights,
                fumen: a.fumen,
            })?;
            print!("{answer}");
            Ok(())
        }
        Command::Perft(a) => {
            let queue = fumen_cmd::parse_queue(&a.queue)?;
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
                println!(
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
                println!(
                    "perft {} = {} leaves in {:.3} s ({:.1} M leaves/s)",
                    a.queue,
                    p.leaves,
                    seconds,
                    rate / 1e6
                );
            }
            Ok(())
        }
        Command::Movegen(a) => {
            let board = movegen_cmd::read_board(a.board.as_deref(), a.page)?;
            print!(
                "{}",
                movegen_cmd::render(&board, a.piece, a.rules.into(), a.json)
            );
            Ok(())
        }
        Command::Tbp(a) => {
            let stdin = std::io::stdin();
            let stdout = std::io::stdout();
            let (config, weights) = a.engine.settings()?;
            tbp::run(
                stdin.lock(),
                stdout.lock(),
                tbp::Options {
                    widen: !a.fixed,
                    config,
                    weights,
                    think: a.think_ms.map(Duration::from_millis),
                },
            )
            .map_err(|e| format!("tbp: {e}"))
        }
    }
}
