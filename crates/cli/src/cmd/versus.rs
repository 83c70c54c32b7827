//! `tetris-tt versus`: a match between two engine settings in the arena.

use crate::colorboard::{ColorBoard, draw_cell};
use crate::out::out;
use crate::settings::{self, ArenaArgs};
use arena::sprt::Sprt;
use arena::{MatchOptions, MatchSummary, SideSummary};
use clap::Args;
use game::versus::{LockReport, Versus};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::io::Write;
use std::time::{Duration, Instant};

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
    /// Have a runner play the games (`--dispatch`): requests out, games in.
    pub(crate) dispatch: bool,
}

/// Writes a recorded game as two fumen files, `game-N-a.txt` and `game-N-b.txt`: a page per
/// piece with the garbage that came in, one string per line. Each page's comment says when
/// the piece locked and what came in before it, so that the two sides' files of a game can
/// be read side by side.
fn write_fumens(dir: &str, g: &arena::GameRecord, frame_ms: f64) -> Result<(), String> {
    for (side, name) in g.sides.iter().zip(["a", "b"]) {
        let mut w = fumen::GameWriter::new();
        let mut garbage = 0;
        for m in &side.moves {
            w.push(
                &m.board,
                garbage,
                crate::fumen_out::place(&m.placement),
                versus_comment(m, garbage, frame_ms),
            );
            garbage = m.received;
        }
        let path = std::path::Path::new(dir).join(format!("game-{}-{name}.txt", g.index));
        let text: String = w
            .strings(crate::fumen_out::MAX_FUMEN_LEN)
            .into_iter()
            .map(|s| s + "\n")
            .collect();
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// A versus page's comment: the lock's time, the garbage rows that came in before the
/// piece, then what the piece did, for example `12.3 s, 4 garbage in; attack 2, combo 1, 1
/// cancelled`.
fn versus_comment(m: &arena::MoveRecord, garbage_in: u32, frame_ms: f64) -> String {
    let mut c = format!("{:.1} s", m.frame as f64 * frame_ms / 1000.0);
    if garbage_in > 0 {
        c.push_str(&format!(", {garbage_in} garbage in"));
    }
    c.push_str("; ");
    c.push_str(&crate::fumen_out::comment(&m.outcome, m.attack));
    if m.cancelled > 0 {
        c.push_str(&format!(", {} cancelled", m.cancelled));
    }
    c
}

/// Runs the match and returns its summary.
pub(crate) fn run_match(opts: &MatchOptions, show: &Show) -> Result<MatchSummary, String> {
    let mut written: Result<(), String> = Ok(());
    let mut write = |g: &arena::GameRecord| {
        if let (Some(dir), Ok(())) = (&show.fumen_out, &written) {
            written = write_fumens(dir, g, opts.versus.frame_ms);
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
    let mut dispatcher = show.dispatch.then(crate::dispatch::Dispatcher::new);
    let mut failed: Result<(), String> = Ok(());
    let total = opts.games.div_ceil(2) * 2;
    let on_game = |m: &MatchSummary, g: &arena::GameRecord| {
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
        if lines && m.games.is_multiple_of(20) {
            eprintln!("{} games: {}", m.games, progress_message(m));
        }
    };
    let m = match &mut dispatcher {
        None => arena::run_match_from(opts, &done, on_game),
        Some(d) => {
            // The runner is asked once for every game still to play, then read game by game:
            // a decided SPRT stops reading.
            let source = |games: std::ops::Range<u64>| {
                let got = (|| {
                    if games.start == done.len() as u64 {
                        d.request(opts, games.start..total)?;
                    }
                    d.game(games.start)
                })();
                match got {
                    Ok(g) => vec![g],
                    Err(e) => {
                        failed = Err(e);
                        Vec::new()
                    }
                }
            };
            arena::run_match_by(opts, &done, source, on_game)
        }
    };
    bar.finish_and_clear();
    kept.and(written).and(failed).map(|()| m)
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
    let live = opts.live.is_some();
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
            // A live game keeps its own time: holding the view back would hold the bots back.
            if pps > 0.0 && !live {
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

/// The rows only a live match has: forfeits by kind and answer latency.
fn live_rows(out: &mut String, m: &MatchSummary) {
    let forfeits = |s: &SideSummary| {
        let f = &s.forfeits;
        [f.illegal, f.not_in_queue, f.timeout, f.crash, f.junk]
    };
    let names = [
        "lost: illegal move",
        "lost: piece not in queue",
        "lost: no answer in time",
        "lost: crashed",
        "lost: junk output",
    ];
    for (k, name) in names.into_iter().enumerate() {
        let (a, b) = (forfeits(&m.a)[k], forfeits(&m.b)[k]);
        row(out, name, a.to_string(), b.to_string());
    }
    let lat = |s: &SideSummary, get: fn(&arena::Latency) -> f64| {
        s.latency
            .map_or("-".to_string(), |l| format!("{:.2}", get(&l)))
    };
    for (name, get) in [
        (
            "answer ms: median",
            (|l| l.median_ms) as fn(&arena::Latency) -> f64,
        ),
        ("answer ms: 90th percentile", |l| l.p90_ms),
        ("answer ms: worst", |l| l.worst_ms),
    ] {
        row(out, name, lat(&m.a, get), lat(&m.b, get));
    }
    let _ = writeln!(
        out,
        "live: thinking was wall time, so the games depend on the bots' timing and the machine's load; the same seed gives the same pieces and garbage, not the same games"
    );
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
    if m.live {
        live_rows(&mut out, m);
    }
    let _ = writeln!(
        out,
        "{:.1} s, {:.1} games/min, {:.1}x real time per game; match digest {}",
        m.wall_seconds, m.games_per_minute, m.speed_vs_real_time, m.digest
    );
    out!("{out}");
}

#[derive(Args)]
pub(crate) struct VersusArgs {
    /// Engine A's settings (JSON); without it, the defaults.
    #[arg(long, value_name = "FILE")]
    a: Option<String>,
    /// Engine B's settings (JSON); without it, the defaults.
    #[arg(long, value_name = "FILE")]
    b: Option<String>,
    /// Side A is an external TBP bot: this program and its arguments (split as a shell splits
    /// words). The match is then live (see --live).
    #[arg(long, value_name = "COMMAND", conflicts_with = "a")]
    a_cmd: Option<String>,
    /// Side B is an external TBP bot (as --a-cmd).
    #[arg(long, value_name = "COMMAND", conflicts_with = "b")]
    b_cmd: Option<String>,
    /// Play in real time with every side a TBP bot: engine sides run as `tetris-tt tbp` would
    /// with their settings (widen: as the bot's default; without: as --fixed), on this
    /// process's threads. Thinking is then the wall time a bot takes to answer (--think is not
    /// used), so games do not replay move for move. Implied by --a-cmd and --b-cmd.
    #[arg(long)]
    live: bool,
    /// In a live match, a bot that has not answered a suggest request within this many ms
    /// loses the game.
    #[arg(long, value_name = "MS", default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    answer_limit_ms: u64,
    /// In a live match, let external bots write to standard error (by default it is discarded).
    #[arg(long)]
    bot_stderr: bool,
    /// Games to play, in pairs with sides swapped (an SPRT may stop earlier).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    games: u64,
    /// Match seed: every game's pieces and garbage come from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    arena: ArenaArgs,
    /// Stop on a sequential probability ratio test between two Elo hypotheses.
    // A negative ELO0 (`--sprt -10,20`) is a value, not an option.
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
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
    /// Have a runner play the games: write each request for games as a JSON line on standard
    /// output and read the games back on standard input (what the Ray runner in python/
    /// drives; protocol in docs/cluster.md). Checkpoint, SPRT and summary work as usual.
    #[arg(long, conflicts_with_all = ["render", "live", "a_cmd", "b_cmd"])]
    dispatch: bool,
}

/// Runs the command.
pub(crate) fn run(a: VersusArgs) -> Result<(), String> {
    settings::check_pps(a.pps)?;
    let commands = [a.a_cmd.as_deref(), a.b_cmd.as_deref()]
        .map(|c| c.map(arena::BotCommand::parse).transpose());
    let [ca, cb] = commands;
    let commands = [
        ca.map_err(|e| format!("--a-cmd: {e}"))?,
        cb.map_err(|e| format!("--b-cmd: {e}"))?,
    ];
    let live = (a.live || commands.iter().any(Option::is_some)).then(|| arena::Live {
        commands,
        answer_limit_ms: a.answer_limit_ms as f64,
        serve: Some(crate::cmd::tbp::serve()),
        bot_stderr: a.bot_stderr,
    });
    let mut opts = arena::MatchOptions {
        games: a.games,
        seed: a.seed,
        record: a.fumen_out.is_some(),
        sprt: a
            .sprt
            .as_deref()
            .map(|s| parse_sprt(s, a.alpha, a.beta))
            .transpose()?,
        ..a.arena.options(
            settings::read_settings(a.a.as_deref())?,
            settings::read_settings(a.b.as_deref())?,
        )?
    };
    if let Some(live) = live {
        // A command that cannot run is an error now, not a match of forfeits.
        for (side, c) in ["--a-cmd", "--b-cmd"].iter().zip(&live.commands) {
            if let Some(c) = c {
                let name = arena::live::check_bot(c).map_err(|e| format!("{side}: {e}"))?;
                eprintln!("tetris-tt: {side} is {name}");
            }
        }
        // One game at a time by default: each bot has a core, as in the arenas bots meet in.
        if a.arena.threads.is_none() {
            opts.threads = 1;
        }
        opts.live = Some(live);
        opts.check()?;
    }
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
    let summary = run_match(
        &opts,
        &Show {
            render,
            pps: a.pps,
            progress: !render,
            fumen_out: a.fumen_out.clone(),
            checkpoint: a.checkpoint.clone(),
            dispatch: a.dispatch,
        },
    )?;
    settings::report(a.json, &summary, print_summary)
}
