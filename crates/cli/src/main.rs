//! `tetris-tt`: watch the engine play, run it as a TBP bot, inspect move generation, and
//! benchmark it.

mod cmd;
mod colorboard;
mod dispatch;
mod fumen_out;
mod out;
mod settings;
mod summary;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

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
    Play(cmd::play::PlayArgs),
    /// Run as a Tetris Bot Protocol bot on standard input and output.
    #[command(after_help = "Example:\n  tetris-tt tbp --think-ms 100\n\n\
        Point a TBP front end (for example Quadspace) at this command.")]
    Tbp(cmd::tbp::TbpArgs),
    /// Show every page of a fumen: its board, piece and comment.
    #[command(
        after_help = "Example:\n  tetris-tt fumen v115@VgA8IeA8IeB8FeE8DeG8CeG8BeG8CeH8AeE8JeAgH"
    )]
    Fumen(cmd::fumen::FumenArgs),
    /// Ask the engine for the best move in a position (a fumen or a text board).
    #[command(after_help = "Example:\n  \
        tetris-tt suggest --board v115@VgA8IeA8IeB8FeE8DeG8CeG8BeG8CeH8AeE8JeAgH --queue TIOLJS --fumen")]
    Suggest(cmd::suggest::SuggestArgs),
    /// Count the leaves of the placement tree of a queue (perft), the standard correctness
    /// count and speed test of a move generator.
    #[command(after_help = "Examples:\n  \
        tetris-tt perft IIIIII --no-spawn-rise        33325345 leaves\n  \
        tetris-tt perft IOLJSZT --no-spawn-rise --threads 2 --json")]
    Perft(cmd::perft::PerftArgs),
    /// Print every placement of a piece on a board.
    #[command(
        after_help = "Example:\n  printf '#.........\\n##.....###\\n' | tetris-tt movegen --piece T --board - --json"
    )]
    Movegen(cmd::movegen::MovegenArgs),
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
    Versus(cmd::versus::VersusArgs),
    /// Tune the evaluator weights by SPSA in the arena, resumably.
    #[command(after_help = "Examples:\n  \
        tetris-tt tune --steps 100 --dir tune-run\n  \
        tetris-tt tune --steps 50 --params holes,height,t_slot[2] --pairs 16\n\n\
        Each step plays --pairs pairs of games between the weights moved +c and -c and\n\
        updates them. The run directory keeps checkpoint.json (resume by running again),\n\
        log.jsonl (one line per step) and weights.svg; the tuned weights are the\n\
        checkpoint's. Accept them only after an SPRT win in `versus`.")]
    Tune(cmd::tune::TuneArgs),
    /// Play games of a match and print one JSON line per game: the unit of work a
    /// distributed runner hands out.
    #[command(
        after_help = "Example:\n  tetris-tt batch --a new.json --b old.json --seed 7 --first 40 --games 8"
    )]
    Batch(cmd::batch::BatchArgs),
    /// Run the fixed, seeded benchmark workload and print one JSON line.
    #[command(
        after_help = "Examples:\n  tetris-tt bench\n  tetris-tt bench --pieces 50\n  \
        tetris-tt bench --widen 8192 --pieces 20    the TBP bot's background thinking"
    )]
    Bench(cmd::bench::BenchArgs),
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
        Command::Play(a) => cmd::play::run(a),
        Command::Tbp(a) => cmd::tbp::command(a),
        Command::Fumen(a) => cmd::fumen::run(a),
        Command::Suggest(a) => cmd::suggest::run(a),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Movegen(a) => cmd::movegen::run(a),
        Command::Versus(a) => cmd::versus::run(a),
        Command::Tune(a) => cmd::tune::run(a),
        Command::Batch(a) => cmd::batch::run(a),
        Command::Bench(a) => cmd::bench::run(a),
    }
}
