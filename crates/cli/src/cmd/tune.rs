//! `tetris-tt tune`: SPSA on the evaluator weights in the arena, resumable from its directory.

use crate::out::outln;
use crate::settings::{self, ArenaArgs};
use arena::{EngineSettings, MatchOptions};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::io::Write;
use std::path::{Path, PathBuf};
use tune::{Checkpoint, Spsa, StepLog};

/// Where a tuning run keeps its files.
pub(crate) struct TuneFiles {
    pub(crate) checkpoint: PathBuf,
    pub(crate) log: PathBuf,
    pub(crate) svg: PathBuf,
}

/// A tuning run's settings for a fresh start (ignored when resuming).
pub(crate) struct Fresh {
    pub(crate) params: Option<String>,
    pub(crate) pairs: u64,
    pub(crate) seed: u64,
    pub(crate) rate: f64,
}

fn read_log(path: &Path) -> Result<Vec<StepLog>, String> {
    match std::fs::read_to_string(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        Ok(text) => text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).map_err(|e| format!("{}: {e}", path.display())))
            .collect(),
    }
}

/// One `--params` item: `name`, or `name:c` with its perturbation (default: a tenth of the
/// weight, at least 5).
fn param(all: &[tune::Param], item: &str) -> Result<tune::Param, String> {
    let (name, c) = match item.split_once(':') {
        None => (item, None),
        Some((name, c)) => match c.parse::<f64>() {
            Ok(c) if c > 0.0 && c.is_finite() => (name, Some(c)),
            _ => return Err(format!("--params: bad perturbation in {item:?}")),
        },
    };
    let mut p = all
        .iter()
        .find(|p| p.name == name)
        .cloned()
        .ok_or_else(|| format!("--params: no weight named {name:?}"))?;
    if let Some(c) = c {
        p.c = c;
    }
    Ok(p)
}

/// The run's checkpoint when it has one, or a fresh run's state.
fn open_run(
    files: &TuneFiles,
    settings: &EngineSettings,
    fresh: &Fresh,
) -> Result<Checkpoint, String> {
    if files.checkpoint.exists() {
        return Checkpoint::load(&files.checkpoint);
    }
    let all = tune::all_params(&settings.weights);
    let params = match &fresh.params {
        None => all,
        Some(list) => list
            .split(',')
            .map(|item| param(&all, item.trim()))
            .collect::<Result<Vec<_>, String>>()?,
    };
    let mut spsa = Spsa::new(params, fresh.seed);
    spsa.rate = fresh.rate;
    Ok(Checkpoint {
        spsa,
        base: settings.weights.clone(),
        pairs: fresh.pairs,
        match_seed: fresh.seed,
    })
}

/// A step's games (all of `opts`): played here, or by the runner.
fn step_games(
    opts: &MatchOptions,
    dispatch: Option<&mut crate::dispatch::Dispatcher>,
) -> Result<Vec<arena::GameRecord>, String> {
    match dispatch {
        None => Ok(arena::play_games(opts, 0..opts.games)),
        Some(d) => d.games(opts, 0..opts.games),
    }
}

/// Runs `steps` SPSA steps, resuming from the checkpoint when it exists. Both engines of each
/// batch use `settings` (its config is what gets tuned at), with the perturbed weights.
pub(crate) fn tune(
    files: &TuneFiles,
    settings: &EngineSettings,
    template: &MatchOptions,
    fresh: &Fresh,
    steps: u64,
    progress: bool,
    mut dispatch: Option<&mut crate::dispatch::Dispatcher>,
) -> Result<Checkpoint, String> {
    let mut cp = open_run(files, settings, fresh)?;
    let mut log = read_log(&files.log)?;
    let start: Vec<f64> = tune::all_params(&cp.base)
        .into_iter()
        .filter(|p| cp.spsa.params.iter().any(|q| q.name == p.name))
        .map(|p| p.value)
        .collect();
    for dir in [&files.checkpoint, &files.log, &files.svg] {
        if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
    }
    let bar = if progress {
        let b = ProgressBar::new(steps);
        b.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} steps {msg} [{elapsed_precise}]")
                .expect("a valid template"),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    for _ in 0..steps {
        let pairs = cp.pairs;
        let seed = cp.match_seed;
        let mut failed = Ok(());
        let entry = tune::step(&mut cp, |plus, minus, k| {
            let opts = MatchOptions {
                a: EngineSettings {
                    weights: plus.clone(),
                    ..settings.clone()
                },
                b: EngineSettings {
                    weights: minus.clone(),
                    ..settings.clone()
                },
                games: 2 * pairs,
                seed: seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                ..template.clone()
            };
            let games = step_games(&opts, dispatch.as_deref_mut()).unwrap_or_else(|e| {
                failed = Err(e);
                Vec::new()
            });
            let score = games.iter().map(|g| g.score()).sum::<f64>() / games.len().max(1) as f64;
            (score, games.len() as u64)
        })?;
        // A step whose games did not all come is not saved: the run resumes before it.
        failed?;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&files.log)
            .map_err(|e| format!("cannot write {}: {e}", files.log.display()))?;
        writeln!(
            f,
            "{}",
            serde_json::to_string(&entry).map_err(|e| e.to_string())?
        )
        .map_err(|e| format!("cannot write {}: {e}", files.log.display()))?;
        cp.save(&files.checkpoint)?;
        log.push(entry);
        tune::plot(&files.svg, &cp.spsa.params, &start, &log)?;
        bar.inc(1);
        bar.set_message(format!(
            "step {} score {:.3}",
            cp.spsa.step,
            log.last().map_or(0.5, |l| l.score)
        ));
    }
    bar.finish_and_clear();
    Ok(cp)
}

#[derive(Args)]
pub(crate) struct TuneArgs {
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
    /// Have a runner play each step's games: write the request as a JSON line on standard
    /// output and read the games back on standard input (what the Ray runner in python/
    /// drives; protocol in docs/cluster.md). The run's files are the same.
    #[arg(long)]
    dispatch: bool,
}

/// Runs the command.
pub(crate) fn run(a: TuneArgs) -> Result<(), String> {
    if !(a.rate > 0.0 && a.rate.is_finite()) {
        return Err(format!("--rate {}: use a positive number", a.rate));
    }
    let settings = settings::read_settings(a.engine.as_deref())?;
    let template = a.arena.options(settings.clone(), settings.clone())?;
    let dir = std::path::Path::new(&a.dir);
    let files = TuneFiles {
        checkpoint: dir.join("checkpoint.json"),
        log: dir.join("log.jsonl"),
        svg: dir.join("weights.svg"),
    };
    let cp = tune(
        &files,
        &settings,
        &template,
        &Fresh {
            params: a.params,
            pairs: a.pairs,
            seed: a.seed,
            rate: a.rate,
        },
        a.steps,
        std::io::stderr().is_terminal(),
        a.dispatch.then(crate::dispatch::Dispatcher::new).as_mut(),
    )?;
    outln!(
        "{}",
        serde_json::to_string(&cp.weights()?).map_err(|e| e.to_string())?
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::param;
    use search::Weights;

    #[test]
    fn a_params_item_names_a_weight_and_may_set_its_perturbation() {
        let all = tune::all_params(&Weights::default());
        let plain = param(&all, "holes").unwrap();
        let default_c = all.iter().find(|p| p.name == "holes").unwrap().c;
        assert_eq!(plain.c, default_c);
        assert_eq!(param(&all, "t_slot[2]:40").unwrap().c, 40.0);
        for bad in ["holes:0", "holes:-3", "holes:x", "holes:inf", "nonsense:5"] {
            assert!(param(&all, bad).is_err(), "{bad} was accepted");
        }
    }
}
