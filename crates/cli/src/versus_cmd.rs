//! `tetris-tt versus`: a match between two engine settings in the arena.

use crate::colorboard::{ColorBoard, draw_cell};
use arena::sprt::Sprt;
use arena::{EngineSettings, MatchOptions, MatchSummary, SideSummary, ThinkCharge};
use game::versus::{LockReport, Versus, VersusConfig};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::io::Write;
use std::time::{Duration, Instant};

/// Reads engine settings from a JSON file (`None`: the defaults).
pub(crate) fn read_settings(path: Option<&str>) -> Result<EngineSettings, String> {
    read_settings_over(path, &search::Config::default())
}

/// As [`read_settings`], with the search settings the file leaves out taken from `base`.
pub(crate) fn read_settings_over(
    path: Option<&str>,
    base: &search::Config,
) -> Result<EngineSettings, String> {
    let Some(path) = path else {
        return Ok(EngineSettings {
            config: base.clone(),
            ..EngineSettings::default()
        });
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read settings file {path}: {e}"))?;
    EngineSettings::from_json_over(&text, base).map_err(|e| format!("settings file {path}: {e}"))
}

/// The rules: a preset, then a JSON file of `VersusConfig` fields on top of the defaults.
pub(crate) fn read_rules(preset: &str, file: Option<&str>) -> Result<VersusConfig, String> {
    if let Some(path) = file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read rules file {path}: {e}"))?;
        let rules: VersusConfig =
            serde_json::from_str(&text).map_err(|e| format!("rules file {path}: {e}"))?;
        rules
            .check()
            .map_err(|e| format!("rules file {path}: {e}"))?;
        return Ok(rules);
    }
    VersusConfig::preset(preset).ok_or_else(|| {
        format!(
            "unknown preset {preset:?}: use one of {}",
            VersusConfig::PRESETS.join(", ")
        )
    })
}

/// `nodes:N` (N nodes per charged millisecond), `ms:X` (X ms per move) or `wall`.
pub(crate) fn parse_think(s: &str) -> Result<ThinkCharge, String> {
    let bad = || format!("--think {s:?}: use nodes:N, ms:X or wall");
    match s.split_once(':') {
        None if s == "wall" => Ok(ThinkCharge::WallClock),
        Some(("nodes", n)) => n
            .parse::<f64>()
            .ok()
            .filter(|n| *n > 0.0 && n.is_finite())
            .map(|nodes_per_ms| ThinkCharge::Nodes { nodes_per_ms })
            .ok_or_else(bad),
        Some(("ms", n)) => n
            .parse::<f64>()
            .ok()
            .filter(|n| *n >= 0.0 && n.is_finite())
            .map(|ms| ThinkCharge::PerMove { ms })
            .ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// `ELO0,ELO1`.
pub(crate) fn parse_sprt(s: &str, alpha: f64, beta: f64) -> Result<Sprt, String> {
    let bad = || format!("--sprt {s:?}: use ELO0,ELO1 with ELO0 < ELO1, for example 0,10");
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    let (elo0, elo1) = (
        a.trim().parse::<f64>().map_err(|_| bad())?,
        b.trim().parse::<f64>().map_err(|_| bad())?,
    );
    if elo0 >= elo1 || !elo0.is_finite() || !elo1.is_finite() {
        return Err(bad());
    }
    if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
        return Err("--alpha and --beta must be between 0 and 0.5".into());
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

/// How a match is shown while it runs.
pub(crate) struct Show {
    /// Draw both boards live (one game at a time).
    pub(crate) render: bool,
    /// Pieces per second while rendering (0: as fast as it runs).
    pub(crate) pps: f64,
    /// Show a progress bar.
    pub(crate) progress: bool,
    /// Write each game's sides as fumen files into this directory.
    pub(crate) fumen_out: Option<String>,
    /// Keep the games in this checkpoint file, resuming after the ones it holds.
    pub(crate) checkpoint: Option<String>,
}

/// Writes a recorded game as two fumen files, `game-N-a.txt` and `game-N-b.txt`: a page per
/// piece with the garbage that came in, one string per line.
fn write_fumens(dir: &str, g: &arena::GameRecord) -> Result<(), String> {
    for (side, name) in g.sides.iter().zip(["a", "b"]) {
        let mut w = fumen::GameWriter::new();
        let mut garbage = 0;
        for m in &side.moves {
            w.push(
                &m.board,
                garbage,
                crate::fumen_cmd::place(&m.placement),
                crate::fumen_cmd::comment(&m.outcome, m.attack),
            );
            garbage = m.received;
        }
        let path = std::path::Path::new(dir).join(format!("game-{}-{name}.txt", g.index));
        let text: String = w
            .strings(crate::fumen_cmd::MAX_FUMEN_LEN)
            .into_iter()
            .map(|s| s + "\n")
            .collect();
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Runs the match and returns its summary.
pub(crate) fn run(opts: &MatchOptions, show: &Show) -> Result<MatchSummary, String> {
    let mut written: Result<(), String> = Ok(());
    let mut write = |g: &arena::GameRecord| {
        if let (Some(dir), Ok(())) = (&show.fumen_out, &written) {
            written = write_fumens(dir, g);
        }
    };
    if show.render {
        let m = run_rendered(opts, show.pps, &mut write);
        return written.map(|()| m);
    }
    let (mut checkpoint, done) = match &show.checkpoint {
        Some(path) => {
            let (c, done) = arena::Checkpoint::open(std::path::Path::new(path), opts)?;
            if !done.is_empty() {
                eprintln!(
                    "tetris-tt: resuming after the {} games in {path}",
                    done.len()
                );
            }
            (Some(c), done)
        }
        None => (None, Vec::new()),
    };
    let mut kept: Result<(), String> = Ok(());
    let bar = if show.progress {
        let b = ProgressBar::new(opts.games.div_ceil(2) * 2);
        b.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed_precise}]")
                .expect("a valid template"),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    // Without a terminal (a log file), a plain line every 20 games instead of the bar.
    let lines = show.progress && !std::io::IsTerminal::is_terminal(&std::io::stderr());
    bar.inc(done.len().min(opts.games.div_ceil(2) as usize * 2) as u64);
    let m = arena::run_match_from(opts, &done, |m, g| {
        write(g);
        if let (Some(c), Ok(())) = (&mut checkpoint, &kept) {
            let before = c.restored();
            kept = c.append(g);
            if c.restored() > before {
                let path = show.checkpoint.as_deref().unwrap_or_default();
                bar.suspend(|| {
                    eprintln!(
                        "tetris-tt: warning: checkpoint {path} was replaced or removed while the match ran; put its games back (the match's file, now {} games)",
                        m.games
                    )
                });
            }
        }
        bar.inc(1);
        bar.set_message(progress_message(m));
        if lines && m.games % 20 == 0 {
            eprintln!("{} games: {}", m.games, progress_message(m));
        }
    });
    bar.finish_and_clear();
    kept.and(written).map(|()| m)
}

fn progress_message(m: &MatchSummary) -> String {
    let mut s = format!(
        "A {}-{}-{} ({:.1}%)  Elo {:+.1} ± {:.1}",
        m.a.wins,
        m.a.losses,
        m.a.draws,
        m.score * 100.0,
        m.elo,
        m.elo_error
    );
    if let Some(t) = &m.sprt {
        let _ = write!(s, "  LLR {:.2} [{:.2}, {:.2}]", m.llr, t.lower, t.upper);
    }
    s
}

/// One game at a time on this thread, drawing both boards after every lock.
fn run_rendered(
    opts: &MatchOptions,
    pps: f64,
    on_game: &mut dyn FnMut(&arena::GameRecord),
) -> MatchSummary {
    let serial = MatchOptions {
        threads: 1,
        ..opts.clone()
    };
    let start = Instant::now();
    let mut shown = 0u64;
    let mut boards = [ColorBoard::new(), ColorBoard::new()];
    let mut last_game = u64::MAX;
    // The match runs game by game; the observer draws each lock.
    let mut header = String::new();
    arena::run_match_with(
        &serial,
        |index, v: &Versus, side, r: &LockReport| {
            if index != last_game {
                last_game = index;
                boards = [ColorBoard::new(), ColorBoard::new()];
                header = format!("game {}  (A plays side {})", index + 1, index % 2);
            }
            boards[side].place(&r.placement);
            boards[side].sync(&v.side(side).game().state().board, r.received);
            let frame = draw(v, &boards, &header, index);
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "\x1b[H\x1b[J{frame}");
            let _ = out.flush();
            shown += 1;
            if pps > 0.0 {
                let due = start + Duration::from_secs_f64(shown as f64 / pps);
                if let Some(wait) = due.checked_duration_since(Instant::now()) {
                    std::thread::sleep(wait);
                }
            }
        },
        |_, g| on_game(g),
    )
}

/// Both boards side by side, each with its incoming garbage as a bar on its left.
fn draw(v: &Versus, boards: &[ColorBoard; 2], header: &str, index: u64) -> String {
    let cfg = v.config();
    let rows = (0..2)
        .map(|s| v.side(s).game().state().board.roof() as usize)
        .max()
        .unwrap_or(0)
        .max(20);
    let mut out = format!("{header}\n");
    let names = if index.is_multiple_of(2) {
        ["A", "B"]
    } else {
        ["B", "A"]
    };
    let _ = writeln!(
        out,
        "   {:<24}     {:<24}",
        format!("side 0: {}", names[0]),
        format!("side 1: {}", names[1])
    );
    for y in (0..rows).rev() {
        for (s, colors) in boards.iter().enumerate() {
            let incoming = v.side(s).incoming_lines() as usize;
            out.push_str(if y < incoming {
                "\x1b[31m█\x1b[0m"
            } else {
                " "
            });
            out.push_str(" |");
            for x in 0..board::WIDTH {
                draw_cell(&mut out, colors.cell(x, y), true);
            }
            out.push_str("|   ");
        }
        out.push('\n');
    }
    for s in 0..2 {
        let st = v.side(s).stats();
        let secs = st.last_lock as f64 * cfg.frame_ms / 1000.0;
        let _ = write!(
            out,
            "  pieces {:<4} attack {:<4} sent {:<4} got {:<4} t {:>6.1}s   ",
            st.pieces, st.attack, st.sent, st.received, secs
        );
    }
    out.push('\n');
    out
}

fn row(out: &mut String, name: &str, a: String, b: String) {
    let _ = writeln!(out, "  {name:<26}{a:>12}{b:>12}");
}

/// The human-readable summary.
pub(crate) fn print_summary(m: &MatchSummary) {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} games ({} pairs): A {} wins, B {} wins, {} draws; A scores {:.1}%, Elo {:+.1} ± {:.1}",
        m.games,
        m.pairs,
        m.a.wins,
        m.b.wins,
        m.a.draws,
        m.score * 100.0,
        m.elo,
        m.elo_error
    );
    if let Some(t) = &m.sprt {
        let _ = writeln!(
            out,
            "SPRT [{}, {}] (alpha {}, beta {}): LLR {:.3} in [{:.3}, {:.3}]: {}",
            t.test.elo0,
            t.test.elo1,
            t.test.alpha,
            t.test.beta,
            m.llr,
            t.lower,
            t.upper,
            match t.verdict {
                arena::sprt::Verdict::H1 => "H1 accepted (A is stronger)",
                arena::sprt::Verdict::H0 => "H0 accepted",
                arena::sprt::Verdict::Continue => "undecided",
            }
        );
    }
    let _ = writeln!(out, "  {:<26}{:>12}{:>12}", "", "A", "B");
    let f = |g: fn(&SideSummary) -> String| (g(&m.a), g(&m.b));
    let lines: [(&str, (String, String)); 18] = [
        ("wins", f(|s| s.wins.to_string())),
        ("attack per piece", f(|s| format!("{:.3}", s.app))),
        ("attack per minute", f(|s| format!("{:.1}", s.apm))),
        ("pieces per second", f(|s| format!("{:.2}", s.pps))),
        ("lines cleared", f(|s| s.lines.to_string())),
        ("lines sent", f(|s| s.lines_sent.to_string())),
        ("lines received", f(|s| s.lines_received.to_string())),
        ("lines cancelled", f(|s| s.lines_cancelled.to_string())),
        ("mean stack height", f(|s| format!("{:.2}", s.mean_height))),
        ("max stack height", f(|s| s.max_height.to_string())),
        (
            "line-clear frames/piece",
            f(|s| format!("{:.2}", s.clear_frames_per_piece)),
        ),
        (
            "input frames/piece",
            f(|s| format!("{:.2}", s.input_frames_per_piece)),
        ),
        (
            "think frames/piece",
            f(|s| format!("{:.2}", s.think_frames_per_piece)),
        ),
        ("lost: topped out", f(|s| s.topped_out.to_string())),
        ("lost: pushed over", f(|s| s.pushed_over.to_string())),
        ("lost: no move", f(|s| s.no_move.to_string())),
        ("draws", f(|s| s.draws.to_string())),
        ("pieces", f(|s| s.pieces.to_string())),
    ];
    for (name, (a, b)) in lines {
        row(&mut out, name, a, b);
    }
    let _ = writeln!(
        out,
        "{:.1} s, {:.1} games/min, {:.1}x real time per game; match digest {}",
        m.wall_seconds, m.games_per_minute, m.speed_vs_real_time, m.digest
    );
    print!("{out}");
}
