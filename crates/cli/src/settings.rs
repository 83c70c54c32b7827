//! What several commands read: engine settings (a file, then the options on top), arena rules
//! and think charges, boards (text, file or fumen), queues and pieces; and how a command
//! prints its result.

use crate::out::outln;
use arena::{EngineSettings, ThinkCharge};
use board::{Board, Piece, Rules};
use clap::builder::TypedValueParser as _;
use clap::{Args, ValueEnum};
use game::versus::VersusConfig;
use search::{Config, Weights};

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum RulesArg {
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
pub(crate) struct EngineArgs {
    /// Engine settings as one JSON object: the fields of search::Config and search::Weights
    /// side by side (the same files `versus --a/--b` read). The options below override it.
    #[arg(long, value_name = "FILE")]
    pub(crate) engine: Option<String>,
    /// Beam width (states kept per depth) [default: 128].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000).map(|v| v as usize))]
    pub(crate) beam: Option<usize>,
    /// Preview pieces the search uses after the current one [default: 5].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=30).map(|v| v as usize))]
    pub(crate) previews: Option<usize>,
    /// Rotation system [default: srs].
    #[arg(long, value_enum)]
    pub(crate) rules: Option<RulesArg>,
    /// Turn the evaluation cache off (the moves stay the same; only the work changes).
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// Threads one search splits its work among (the moves stay the same; only the speed
    /// changes) [default: 1].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=search::MAX_SEARCH_THREADS as i64).map(|v| v as usize))]
    pub(crate) search_threads: Option<usize>,
    /// Evaluator weights as JSON (fields as in search::Weights; missing fields keep their
    /// defaults); replaces the weights of --engine.
    #[arg(long, value_name = "FILE")]
    pub(crate) weights: Option<String>,
}

impl EngineArgs {
    /// The settings: --engine's file (or the defaults), then the options on top.
    pub(crate) fn settings(&self) -> Result<(Config, Weights), String> {
        self.settings_from(self.engine.as_deref(), &Config::default())
    }

    /// The settings of `file` over `defaults` (the search settings the file leaves out keep
    /// their values there), with the options on top.
    pub(crate) fn settings_from(
        &self,
        file: Option<&str>,
        defaults: &Config,
    ) -> Result<(Config, Weights), String> {
        let base = read_settings_over(file, defaults)?;
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
        if let Some(t) = self.search_threads {
            config.search_threads = t;
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

/// The threads a search of `config` runs on: a rayon pool `search_threads` strong (none for a
/// search on one thread, and by default: the search then uses the pool it is called in,
/// rayon's global one outside any).
#[derive(Default)]
pub(crate) struct SearchThreads(Option<rayon::ThreadPool>);

impl SearchThreads {
    /// Starts the threads. Call it before the first search.
    pub(crate) fn start(config: &Config) -> Result<SearchThreads, String> {
        let n = config.search_threads;
        if n <= 1 {
            return Ok(SearchThreads(None));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("search-{i}"))
            .build()
            .map(|p| SearchThreads(Some(p)))
            .map_err(|e| format!("cannot start {n} search threads: {e}"))
    }

    /// Runs `f`, with its searches, on a thread of the pool. A search started from a thread
    /// outside its pool hands each parallel part to the pool and sleeps until it is done, so
    /// that every part waits for two threads to wake; from inside, the searching thread takes
    /// a share of each part itself and only the others are woken.
    pub(crate) fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.0 {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }
}

/// The rules and costs of arena games, shared by versus, tune and batch.
#[derive(Args, Clone)]
pub(crate) struct ArenaArgs {
    /// Games played at once (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024).map(|v| v as usize))]
    pub(crate) threads: Option<usize>,
    /// The rules and timing: ppt (4 ms frames, as bot arenas run), ppt-60hz, or ppt-surge (ppt
    /// with attack growing 5% a second after a minute, so every game ends).
    #[arg(long, default_value = "ppt")]
    preset: String,
    /// Rules from a JSON file of game::versus::VersusConfig fields (missing ones keep the
    /// ppt values); replaces --preset.
    #[arg(long, value_name = "FILE")]
    rules_file: Option<String>,
    /// How thinking is charged: nodes:N (N nodes per millisecond), ms:X (X ms per move), or
    /// wall (measured time; not reproducible). Every move costs at least one frame.
    #[arg(long, default_value = "nodes:2000")]
    think: String,
}

impl ArenaArgs {
    /// Match options with these rules and two engines; games and seed to be filled in.
    pub(crate) fn options(
        &self,
        a: arena::EngineSettings,
        b: arena::EngineSettings,
    ) -> Result<arena::MatchOptions, String> {
        let opts = arena::MatchOptions {
            versus: read_rules(&self.preset, self.rules_file.as_deref())?,
            a,
            b,
            threads: self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            think: parse_think(&self.think)?,
            ..arena::MatchOptions::default()
        };
        opts.check()?;
        Ok(opts)
    }
}

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

/// Reads a board from a text board file, standard input (`-`), or a fumen string (`v115@...`,
/// or a fumen URL), page `page` (default: the last). `None` is the empty board.
pub(crate) fn read_board(arg: Option<&str>, page: Option<usize>) -> Result<Board, String> {
    let Some(arg) = arg else {
        if page.is_some() {
            return Err("--page needs a fumen --board".into());
        }
        return Ok(Board::new());
    };
    if fumen::looks_like_fumen(arg) {
        return Ok(fumen_page(arg, page)?.field.board());
    }
    if page.is_some() {
        return Err("--page needs a fumen --board".into());
    }
    let text = match arg {
        "-" => std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read the board from standard input: {e}"))?,
        p => std::fs::read_to_string(p).map_err(|e| format!("cannot read board file {p}: {e}"))?,
    };
    if fumen::looks_like_fumen(&text) {
        return Ok(fumen_page(&text, page)?.field.board());
    }
    let where_ = if arg == "-" { "standard input" } else { arg };
    text.parse().map_err(|e| format!("{where_}: {e}"))
}

/// Page `page` (default: the last) of a fumen string.
pub(crate) fn fumen_page(s: &str, page: Option<usize>) -> Result<fumen::Page, String> {
    let mut pages = fumen::decode(s).map_err(|e| e.to_string())?;
    let n = pages.len();
    let i = page.unwrap_or(n - 1);
    if i >= n {
        return Err(format!(
            "--page {i}: the fumen has {n} pages (0 to {})",
            n - 1
        ));
    }
    Ok(pages.swap_remove(i))
}

/// Parses a queue of piece letters (`TIOLJ`).
pub(crate) fn parse_queue(s: &str) -> Result<Vec<Piece>, String> {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| {
            Piece::from_char(c.to_ascii_uppercase())
                .ok_or_else(|| format!("--queue {s:?}: {c:?} is not a piece (I O T L J S Z)"))
        })
        .collect()
}

pub(crate) fn parse_piece_arg(s: &str) -> Result<Piece, String> {
    let mut chars = s.chars();
    match (chars.next().map(|c| c.to_ascii_uppercase()), chars.next()) {
        (Some(c), None) => {
            Piece::from_char(c).ok_or(format!("unknown piece {s:?}: use one of I O T L J S Z"))
        }
        _ => Err(format!("unknown piece {s:?}: use one of I O T L J S Z")),
    }
}

/// Prints `value` as one JSON line with `json`, else as `human` writes it.
pub(crate) fn report<T: serde::Serialize>(
    json: bool,
    value: &T,
    human: fn(&T),
) -> Result<(), String> {
    if json {
        outln!(
            "{}",
            serde_json::to_string(value).map_err(|e| e.to_string())?
        );
    } else {
        human(value);
    }
    Ok(())
}

/// Checks a `--pps` value: a number of pieces per second, 0 for full speed.
pub(crate) fn check_pps(pps: f64) -> Result<(), String> {
    if pps >= 0.0 && pps.is_finite() {
        Ok(())
    } else {
        Err(format!(
            "--pps {pps}: use a number of pieces per second, 0 for full speed"
        ))
    }
}
