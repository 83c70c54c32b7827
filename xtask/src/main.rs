//! Project automation, run as `cargo xtask <command>`.
//!
//! - `bench-matrix [--bits 10,12,15,18,20,22] [--threads 1,2] [--pieces N] [--quick]`: builds the CLI in
//!   release (with table statistics) once per `TETRIS_TT_BITS` value, each in its own target
//!   directory (`target/matrix/bits-N`, so a rerun rebuilds nothing), runs `tetris-tt bench`
//!   with each, prints one table, writes CSV, JSON and an SVG plot under
//!   `target/bench-matrix/`, and fails if the games differ: eviction must never change a move,
//!   and neither may the number of search threads (each size plays the game on every count).
//! - `test-matrix [--bits 1,2,15,22]`: runs the tests of tt-core, tt-depth and search at each
//!   value, in the workspace's own target directory: the dependencies built for the plain test
//!   run are reused, and only those three crates are rebuilt for each value.

use clap::{Parser, Subcommand};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

#[derive(Parser)]
#[command(name = "xtask")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Build and benchmark the CLI at several TETRIS_TT_BITS values.
    BenchMatrix {
        /// Comma-separated TETRIS_TT_BITS values.
        #[arg(long, value_delimiter = ',', default_value = "10,12,15,18,20,22")]
        bits: Vec<u32>,
        /// Pieces of self-play per run (default 200; 40 with --quick).
        #[arg(long)]
        pieces: Option<u64>,
        /// Comma-separated search-thread counts: each size plays the game on each count (the
        /// moves must not change) and reports its time per move.
        #[arg(long, value_delimiter = ',', default_value = "1")]
        threads: Vec<usize>,
        /// A short run for CI: fewer pieces, a faster-building profile.
        #[arg(long)]
        quick: bool,
        /// Runs of the game with the cache on and off, alternately, per size; the medians are
        /// reported (default 3; 1 with --quick). On a noisy machine one pair's ratio can be
        /// off by a third: 21 gives medians that repeat within a few hundredths.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
        repeat: Option<u32>,
        /// Bench the TBP bot's background thinking instead: each move widens up to this width
        /// (`tetris-tt bench --widen`), the workload whose repeated evaluations a larger table
        /// keeps.
        #[arg(long, value_name = "MAX")]
        widen: Option<u32>,
    },
    /// Run the tests of tt-core, tt-depth and search at several TETRIS_TT_BITS values.
    TestMatrix {
        /// Comma-separated TETRIS_TT_BITS values.
        #[arg(long, value_delimiter = ',', default_value = "1,2,15,22")]
        bits: Vec<u32>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::BenchMatrix {
            bits,
            threads,
            pieces,
            quick,
            repeat,
            widen,
        } => bench_matrix(
            &bits,
            &threads,
            pieces.unwrap_or(if quick { 40 } else { 200 }),
            repeat.unwrap_or(if quick { 1 } else { 3 }),
            quick,
            widen,
        ),
        Cmd::TestMatrix { bits } => test_matrix(&bits),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Cargo (through the `CARGO` variable) at the workspace root, building with
/// `TETRIS_TT_BITS=bits` in that value's own target directory.
fn cargo_at(bits: u32) -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root())
        .env("TETRIS_TT_BITS", bits.to_string())
        .env("CARGO_TARGET_DIR", target_dir(bits));
    c
}

/// Cargo at the workspace root with `TETRIS_TT_BITS=bits`, in the usual target directory.
fn sized(bits: u32) -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root())
        .env("TETRIS_TT_BITS", bits.to_string());
    c
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn target_dir(bits: u32) -> PathBuf {
    root()
        .join("target")
        .join("matrix")
        .join(format!("bits-{bits}"))
}

fn check_bits(bits: &[u32]) -> Result<(), String> {
    if bits.is_empty() {
        return Err("--bits needs at least one value".into());
    }
    if let Some(b) = bits.iter().find(|b| !(1..=32).contains(*b)) {
        return Err(format!("TETRIS_TT_BITS={b} is outside 1..=32"));
    }
    Ok(())
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let status = cmd
        .status()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

fn test_matrix(bits: &[u32]) -> Result<(), String> {
    check_bits(bits)?;
    for (i, &b) in bits.iter().enumerate() {
        eprintln!("[{}/{}] tests at TETRIS_TT_BITS={b}", i + 1, bits.len());
        run(
            sized(b).args([
                "test",
                "-p",
                "tt-core",
                "-p",
                "tt-depth",
                "-p",
                "search",
                "--all-features",
            ]),
            &format!("tests at TETRIS_TT_BITS={b}"),
        )?;
    }
    eprintln!("all tests passed at TETRIS_TT_BITS={bits:?}");
    Ok(())
}

/// One row of the matrix.
#[derive(Serialize, Clone, Debug)]
struct Row {
    bits: u32,
    bytes_per_table: u64,
    table_bytes: u64,
    hit_rate: f64,
    replacement_ratio: f64,
    evaluations: u64,
    nps: f64,
    median_move_ms: f64,
    moves_digest: String,
    pieces: u64,
    app: f64,
    ms_per_move: f64,
    ms_per_move_cache_off: f64,
    cache_speedup: f64,
    /// The lowest and highest ratio of one on/off pair.
    speedup_low: f64,
    speedup_high: f64,
    repeat: u64,
    evaluations_saved: f64,
    /// Milliseconds a move on each search-thread count, as `count:ms` separated by `;`.
    ms_per_move_by_threads: String,
}

fn bench_matrix(
    bits: &[u32],
    threads: &[usize],
    pieces: u64,
    repeat: u32,
    quick: bool,
    widen: Option<u32>,
) -> Result<(), String> {
    check_bits(bits)?;
    if threads.is_empty() {
        return Err("--threads needs at least one count".into());
    }
    let threads_list = threads
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    // --quick builds with the `matrix-quick` profile: release speed, parallel codegen, no debug
    // info, so the builds fit a CI budget.
    let profile = if quick { "matrix-quick" } else { "release" };
    let started = Instant::now();
    let mut rows = Vec::new();
    for (i, &b) in bits.iter().enumerate() {
        eprintln!(
            "[{}/{}] TETRIS_TT_BITS={b}: building ({profile})",
            i + 1,
            bits.len()
        );
        run(
            cargo_at(b).args([
                "build",
                "--quiet",
                "--profile",
                profile,
                "-p",
                "cli",
                "--features",
                "stats",
            ]),
            &format!("build at TETRIS_TT_BITS={b}"),
        )?;
        let dir = if profile == "release" {
            "release"
        } else {
            profile
        };
        let exe = target_dir(b).join(dir).join("tetris-tt");
        eprintln!(
            "[{}/{}] TETRIS_TT_BITS={b}: {pieces} pieces of self-play",
            i + 1,
            bits.len()
        );
        let mut args = vec![
            "bench".to_string(),
            "--pieces".into(),
            pieces.to_string(),
            "--repeat".into(),
            repeat.to_string(),
            "--search-threads".into(),
            threads_list.clone(),
        ];
        if let Some(w) = widen {
            args.extend(["--widen".to_string(), w.to_string()]);
        }
        rows.push(row(b, &bench_json(&exe, &args, b)?)?);
    }
    let reference = rows[0].moves_digest.clone();
    let differs: Vec<u32> = rows
        .iter()
        .filter(|r| r.moves_digest != reference)
        .map(|r| r.bits)
        .collect();
    print_table(&rows, &reference);
    let out_dir = root().join("target").join("bench-matrix");
    write_files(&out_dir, &rows)?;
    eprintln!(
        "wrote {} (csv, json, svg) in {:.0} s",
        out_dir.display(),
        started.elapsed().as_secs_f64()
    );
    if differs.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the moves differ at TETRIS_TT_BITS={differs:?}: eviction changed the game"
        ))
    }
}

/// Runs `exe` with `args` (a `bench` line) and reads its JSON.
fn bench_json(exe: &Path, args: &[String], bits: u32) -> Result<Value, String> {
    let out = Command::new(exe)
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !out.status.success() {
        return Err(format!(
            "bench at TETRIS_TT_BITS={bits} failed ({})",
            out.status
        ));
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("bench at TETRIS_TT_BITS={bits} printed no JSON: {e}"))
}

fn row(bits: u32, v: &Value) -> Result<Row, String> {
    let num = |path: &[&str]| -> Result<f64, String> {
        let mut x = v;
        for p in path {
            x = &x[*p];
        }
        x.as_f64()
            .ok_or(format!("bench output lacks {}", path.join(".")))
    };
    let depths = num(&["tt", "depths"])?;
    let table_bytes = num(&["tt", "bytes"])? as u64;
    Ok(Row {
        bits,
        bytes_per_table: (table_bytes as f64 / depths.max(1.0)) as u64,
        table_bytes,
        hit_rate: num(&["tt", "hit_rate"])?,
        replacement_ratio: num(&["tt", "replacement_ratio"]).unwrap_or(f64::NAN),
        evaluations: num(&["evaluations"])? as u64,
        nps: num(&["nps"])?,
        median_move_ms: num(&["median_move_ms"])?,
        moves_digest: v["moves_digest"].as_str().unwrap_or("?").to_string(),
        pieces: num(&["pieces"])? as u64,
        app: num(&["app"])?,
        ms_per_move: num(&["ms_per_move"])?,
        ms_per_move_cache_off: num(&["cache_off", "ms_per_move"])?,
        cache_speedup: num(&["cache_speedup"])?,
        speedup_low: v["cache_speedup_pairs"][0]
            .as_f64()
            .ok_or("bench output lacks cache_speedup_pairs")?,
        speedup_high: v["cache_speedup_pairs"][1]
            .as_f64()
            .ok_or("bench output lacks cache_speedup_pairs")?,
        repeat: num(&["repeat"])? as u64,
        evaluations_saved: num(&["evaluations_saved"])?,
        ms_per_move_by_threads: v["search_threads"]
            .as_array()
            .ok_or("bench output lacks search_threads")?
            .iter()
            .map(|t| {
                format!(
                    "{}:{:.2}",
                    t["search_threads"].as_u64().unwrap_or(0),
                    t["ms_per_move"].as_f64().unwrap_or(f64::NAN)
                )
            })
            .collect::<Vec<_>>()
            .join(";"),
    })
}

fn print_table(rows: &[Row], reference: &str) {
    println!(
        "| bits | bytes/table | table bytes | hit rate | repl/store | evaluations saved | ms/move cache on | ms/move cache off | speedup (median) | pairs | ms/move by search threads | moves digest |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let flag = if r.moves_digest == reference {
            ""
        } else {
            " DIFFERS"
        };
        println!(
            "| {} | {} | {} | {:.3} | {:.3} | {:.1}% | {:.2} | {:.2} | {:.2}x | {} from {:.2} to {:.2} | {} | {}{} |",
            r.bits,
            r.bytes_per_table,
            r.table_bytes,
            r.hit_rate,
            r.replacement_ratio,
            r.evaluations_saved * 100.0,
            r.ms_per_move,
            r.ms_per_move_cache_off,
            r.cache_speedup,
            r.repeat,
            r.speedup_low,
            r.speedup_high,
            r.ms_per_move_by_threads,
            r.moves_digest,
            flag
        );
    }
}

fn write_files(dir: &Path, rows: &[Row]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    // The CSV has the JSON's fields, so the two never disagree.
    let objects: Vec<serde_json::Map<String, Value>> = rows
        .iter()
        .map(|r| match serde_json::to_value(r) {
            Ok(Value::Object(m)) => Ok(m),
            other => Err(format!("cannot serialise a row: {other:?}")),
        })
        .collect::<Result<_, _>>()?;
    let header: Vec<&String> = objects
        .first()
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    let mut csv = header
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(",")
        + "\n";
    for m in &objects {
        let cells: Vec<String> = header
            .iter()
            .map(|k| match &m[k.as_str()] {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            })
            .collect();
        csv += &(cells.join(",") + "\n");
    }
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))
    };
    write("bench-matrix.csv", &csv)?;
    write(
        "bench-matrix.json",
        &serde_json::to_string_pretty(rows).map_err(|e| e.to_string())?,
    )?;
    plot(&dir.join("bench-matrix.svg"), rows).map_err(|e| format!("cannot draw the plot: {e}"))
}

/// Hit rate (left axis) and the cache's speedup over no cache (right axis) against bits.
fn plot(path: &Path, rows: &[Row]) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let root = SVGBackend::new(path, (800, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let lo = rows.iter().map(|r| r.bits).min().unwrap_or(1) as f64;
    let hi = rows.iter().map(|r| r.bits).max().unwrap_or(1) as f64;
    let (lo, hi) = if lo == hi {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    };
    let speedup_max = rows
        .iter()
        .map(|r| r.cache_speedup.max(r.speedup_high))
        .fold(0.0, f64::max)
        .max(1.5)
        * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .caption("tetris-tt bench-matrix", ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .right_y_label_area_size(60)
        .build_cartesian_2d(lo..hi, 0.0..1.0)?
        .set_secondary_coord(lo..hi, 0.0..speedup_max);
    chart
        .configure_mesh()
        .x_desc("TETRIS_TT_BITS")
        .y_desc("cache hit rate")
        .draw()?;
    chart
        .configure_secondary_axes()
        .y_desc("cache on vs off: speedup (x)")
        .draw()?;
    chart
        .draw_series(LineSeries::new(
            rows.iter().map(|r| (r.bits as f64, r.hit_rate)),
            &BLUE,
        ))?
        .label("hit rate")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
    chart
        .draw_secondary_series(LineSeries::new(
            rows.iter().map(|r| (r.bits as f64, r.cache_speedup)),
            &RED,
        ))?
        .label("speedup (median; bars: lowest to highest pair)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
    // Each size's spread of pair ratios, as a vertical bar.
    chart.draw_secondary_series(rows.iter().map(|r| {
        let x = r.bits as f64;
        PathElement::new(vec![(x, r.speedup_low), (x, r.speedup_high)], RED.mix(0.5))
    }))?;
    // Break-even: below this line the cache costs more than it saves.
    chart.draw_secondary_series(LineSeries::new([(lo, 1.0), (hi, 1.0)], BLACK.mix(0.3)))?;
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
