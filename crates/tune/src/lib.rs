//! Tuning evaluator weights in the versus arena with SPSA (simultaneous perturbation
//! stochastic approximation, Spall 1992), as chess engines tune on Fishtest.
//!
//! Each step perturbs every tuned weight at once by `±c` (a random sign per weight), plays a
//! batch of paired games between the two perturbed engines, and moves every weight along its
//! sign by an amount proportional to the batch result. The state after each step is a
//! [`Checkpoint`] (resumable), and each step is logged as one JSON line. A batch is a plain
//! `arena::play_games` call, the same unit `tetris-tt batch` runs from the command line, so a
//! distributed runner could hand steps out later.
//!
//! ```
//! use tune::{Param, Spsa};
//!
//! let mut spsa = Spsa::new(vec![Param::new("holes", -170.0, 20.0)], 7);
//! let (plus, minus) = spsa.perturb();
//! assert_eq!((plus[0] - minus[0]).abs(), 2.0 * 20.0);
//! // The perturbed engine that scored 75% pulls the weight its way.
//! let before = spsa.params[0].value;
//! spsa.update(0.75);
//! let moved = spsa.params[0].value - before;
//! assert_eq!(moved.signum(), (plus[0] - minus[0]).signum());
//! assert_eq!(spsa.step, 1);
//! ```
#![deny(missing_docs)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::Weights;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One tuned weight: a field of `search::Weights` by name (`holes`, or `t_slot[2]` for an
/// element of an array field).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The field, as in the weights JSON; `name[i]` for element `i` of an array.
    pub name: String,
    /// The current value (weights are integers; this is rounded when used).
    pub value: f64,
    /// The perturbation at step 0 (shrinking as steps go on).
    pub c: f64,
}

impl Param {
    /// A parameter starting at `value`, perturbed by `c`.
    pub fn new(name: &str, value: f64, c: f64) -> Param {
        Param {
            name: name.to_string(),
            value,
            c,
        }
    }
}

/// Every numeric field of `weights` as a parameter, perturbed by a tenth of its size (at
/// least 5).
pub fn all_params(weights: &Weights) -> Vec<Param> {
    let Ok(Value::Object(m)) = serde_json::to_value(weights) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut push = |name: String, v: f64| out.push(Param::new(&name, v, (v.abs() / 10.0).max(5.0)));
    for (k, v) in m {
        match v {
            Value::Number(n) => push(k, n.as_f64().unwrap_or(0.0)),
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    push(format!("{k}[{i}]"), x.as_f64().unwrap_or(0.0));
                }
            }
            _ => {}
        }
    }
    out
}

/// `base` with the parameters set to `values` (rounded to integers).
pub fn weights_with(base: &Weights, params: &[Param], values: &[f64]) -> Result<Weights, String> {
    let mut v = serde_json::to_value(base).map_err(|e| e.to_string())?;
    for (p, &x) in params.iter().zip(values) {
        // A step never takes a weight past its bound (Weights::check): it stays at the bound.
        let field = p.name.split_once('[').map_or(p.name.as_str(), |(f, _)| f);
        let bound = i64::from(if Weights::SQUARED.contains(&field) {
            search::MAX_SQUARED_WEIGHT
        } else {
            search::MAX_WEIGHT
        });
        let x = Value::from((x.round() as i64).clamp(-bound, bound));
        let slot = match p.name.split_once('[') {
            None => v.get_mut(&p.name),
            Some((field, rest)) => {
                let i: usize = rest
                    .trim_end_matches(']')
                    .parse()
                    .map_err(|_| format!("bad parameter name {:?}", p.name))?;
                v.get_mut(field).and_then(|a| a.get_mut(i))
            }
        };
        *slot.ok_or_else(|| format!("no weight named {:?}", p.name))? = x;
    }
    serde_json::from_value(v).map_err(|e| e.to_string())
}

/// SPSA state: the parameters, the step, and the gains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    /// The parameters and their current values.
    pub params: Vec<Param>,
    /// Steps taken.
    pub step: u64,
    /// Seed of the perturbation signs (step `k`'s signs depend only on it and `k`).
    pub seed: u64,
    /// Learning rate: a step whose batch is won outright moves each weight by `rate * c_k`.
    pub rate: f64,
    /// Stability constant: the rate decays as `(1 + k / stability)^-alpha`.
    pub stability: f64,
    /// Decay exponent of the rate (0.602 in Spall's recommendation).
    pub alpha: f64,
    /// Decay exponent of the perturbation (0.101).
    pub gamma: f64,
}

impl Spsa {
    /// A fresh run with Spall's exponents, a rate of 1 and a stability constant of 10 steps.
    pub fn new(params: Vec<Param>, seed: u64) -> Spsa {
        Spsa {
            params,
            step: 0,
            seed,
            rate: 1.0,
            stability: 10.0,
            alpha: 0.602,
            gamma: 0.101,
        }
    }

    fn signs(&self) -> Vec<f64> {
        let mut rng =
            ChaCha8Rng::seed_from_u64(self.seed ^ self.step.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        self.params
            .iter()
            .map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 })
            .collect()
    }

    fn c_k(&self, p: &Param) -> f64 {
        p.c / (self.step as f64 + 1.0).powf(self.gamma)
    }

    /// The two perturbed value vectors of this step: (plus, minus).
    pub fn perturb(&self) -> (Vec<f64>, Vec<f64>) {
        let signs = self.signs();
        let plus = self
            .params
            .iter()
            .zip(&signs)
            .map(|(p, s)| p.value + s * self.c_k(p))
            .collect();
        let minus = self
            .params
            .iter()
            .zip(&signs)
            .map(|(p, s)| p.value - s * self.c_k(p))
            .collect();
        (plus, minus)
    }

    /// Applies a batch result: `score` is the plus engine's mean score against the minus
    /// engine (0 to 1). Advances the step.
    pub fn update(&mut self, score: f64) {
        let signs = self.signs();
        let r = 2.0 * (score - 0.5);
        let a = self.rate / (1.0 + self.step as f64 / self.stability).powf(self.alpha);
        let cks: Vec<f64> = self.params.iter().map(|p| self.c_k(p)).collect();
        for ((p, s), ck) in self.params.iter_mut().zip(&signs).zip(cks) {
            p.value += a * ck * r * s;
        }
        self.step += 1;
    }

    /// The current values.
    pub fn values(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.value).collect()
    }
}

/// What a tuning run saves after each step: enough to resume it exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The SPSA state.
    pub spsa: Spsa,
    /// The weights the parameters are applied to.
    pub base: Weights,
    /// Pairs of games per step.
    pub pairs: u64,
    /// The match seed; step `k` plays games from it and `k`.
    pub match_seed: u64,
}

impl Checkpoint {
    /// Writes the checkpoint atomically (a temporary file, then a rename).
    pub fn save(&self, path: &std::path::Path) -> Result<(), String> {
        let tmp = path.with_extension("tmp");
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Reads a checkpoint.
    pub fn load(path: &std::path::Path) -> Result<Checkpoint, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let cp: Checkpoint =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let bad = |e: String| format!("{}: {e}", path.display());
        cp.base.check().map_err(bad)?;
        if !(1..=100_000).contains(&cp.pairs) {
            return Err(bad(format!(
                "pairs must be in 1..=100000, not {}",
                cp.pairs
            )));
        }
        Ok(cp)
    }

    /// The current weights.
    pub fn weights(&self) -> Result<Weights, String> {
        weights_with(&self.base, &self.spsa.params, &self.spsa.values())
    }
}

/// One logged step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepLog {
    /// The step (0-based).
    pub step: u64,
    /// The plus engine's score against the minus engine.
    pub score: f64,
    /// Games played.
    pub games: u64,
    /// Parameter values after the update, in order.
    pub values: Vec<f64>,
    /// Wall seconds the batch took.
    pub seconds: f64,
}

/// Runs one step: plays the batch and updates the state. `play` takes the plus and minus
/// weights and the step, and returns the plus engine's score and the games played.
pub fn step(
    cp: &mut Checkpoint,
    mut play: impl FnMut(&Weights, &Weights, u64) -> (f64, u64),
) -> Result<StepLog, String> {
    let start = std::time::Instant::now();
    let (plus, minus) = cp.spsa.perturb();
    let wp = weights_with(&cp.base, &cp.spsa.params, &plus)?;
    let wm = weights_with(&cp.base, &cp.spsa.params, &minus)?;
    let k = cp.spsa.step;
    let (score, games) = play(&wp, &wm, k);
    cp.spsa.update(score);
    Ok(StepLog {
        step: k,
        score,
        games,
        values: cp.spsa.values(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Plots each parameter's path (as its change from the start, in units of its `c`) and the
/// batch scores with their running mean, one above the other, as an SVG.
pub fn plot(
    path: &std::path::Path,
    params: &[Param],
    start: &[f64],
    log: &[StepLog],
) -> Result<(), String> {
    use plotters::prelude::*;
    let draw = || -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::new(path, (1000, 800)).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, bottom) = root.split_vertically(500);
        let steps = log.len().max(2) as f64;
        let norm = |i: usize, v: f64| (v - start[i]) / params[i].c.max(1e-9);
        let (mut lo, mut hi) = (-1.0f64, 1.0f64);
        for l in log {
            for (i, &v) in l.values.iter().enumerate() {
                lo = lo.min(norm(i, v));
                hi = hi.max(norm(i, v));
            }
        }
        let mut chart = ChartBuilder::on(&top)
            .caption(
                "weights: change from the start, in units of c",
                ("sans-serif", 20),
            )
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..steps, lo..hi)?;
        chart.configure_mesh().x_desc("step").draw()?;
        for (i, p) in params.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    log.iter()
                        .map(|l| (l.step as f64 + 1.0, norm(i, l.values[i]))),
                    color,
                ))?
                .label(p.name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], color));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .label_font(("sans-serif", 10))
            .draw()?;
        let mut chart = ChartBuilder::on(&bottom)
            .caption(
                "batch score of plus vs minus (dots) and running mean",
                ("sans-serif", 20),
            )
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..steps, 0.0..1.0)?;
        chart
            .configure_mesh()
            .x_desc("step")
            .y_desc("score")
            .draw()?;
        chart.draw_series(
            log.iter()
                .map(|l| Circle::new((l.step as f64 + 1.0, l.score), 2, BLUE.filled())),
        )?;
        let mut sum = 0.0;
        chart.draw_series(LineSeries::new(
            log.iter().enumerate().map(|(i, l)| {
                sum += l.score;
                (l.step as f64 + 1.0, sum / (i + 1) as f64)
            }),
            &RED,
        ))?;
        root.present()?;
        Ok(())
    };
    draw().map_err(|e| format!("cannot draw {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_numeric_weight_is_a_parameter_and_round_trips() {
        let w = Weights::default();
        let params = all_params(&w);
        assert!(params.iter().any(|p| p.name == "holes"));
        assert!(params.iter().any(|p| p.name == "t_slot[3]"));
        let values: Vec<f64> = params.iter().map(|p| p.value).collect();
        assert_eq!(weights_with(&w, &params, &values).unwrap(), w);
        let mut moved = values.clone();
        let i = params.iter().position(|p| p.name == "t_slot[3]").unwrap();
        moved[i] += 7.4;
        let w2 = weights_with(&w, &params, &moved).unwrap();
        assert_eq!(w2.t_slot[3], w.t_slot[3] + 7);
        assert!(weights_with(&w, &[Param::new("nope", 1.0, 1.0)], &[1.0]).is_err());
    }

    #[test]
    fn spsa_climbs_a_known_slope() {
        // A fake match: the engine with more of "holes" wins more. SPSA must raise it, and
        // leave a parameter with no effect where it started, on average.
        let mut spsa = Spsa::new(
            vec![
                Param::new("holes", 0.0, 10.0),
                Param::new("height", 0.0, 10.0),
            ],
            3,
        );
        for _ in 0..200 {
            let (plus, minus) = spsa.perturb();
            let score = 0.5 + 0.02 * (plus[0] - minus[0]) / 10.0;
            spsa.update(score.clamp(0.0, 1.0));
        }
        assert!(spsa.params[0].value > 20.0, "{:?}", spsa.params);
        assert!(spsa.params[1].value.abs() < 5.0, "{:?}", spsa.params);
    }

    #[test]
    fn a_checkpoint_resumes_the_same_run() {
        let w = Weights::default();
        let params = all_params(&w);
        let fresh = || Checkpoint {
            spsa: Spsa::new(params.clone(), 5),
            base: w.clone(),
            pairs: 1,
            match_seed: 9,
        };
        // A fake batch: the score depends on the weights and the step.
        let play = |a: &Weights, b: &Weights, k: u64| {
            let d = (a.holes - b.holes) as f64 + k as f64;
            (0.5 + d.signum() * 0.25, 2)
        };
        let mut straight = fresh();
        for _ in 0..4 {
            step(&mut straight, play).unwrap();
        }
        let mut resumed = fresh();
        for _ in 0..2 {
            step(&mut resumed, play).unwrap();
        }
        let path = std::env::temp_dir().join(format!("tune-cp-{}.json", std::process::id()));
        resumed.save(&path).unwrap();
        let mut resumed = Checkpoint::load(&path).unwrap();
        std::fs::remove_file(&path).ok();
        for _ in 0..2 {
            step(&mut resumed, play).unwrap();
        }
        assert_eq!(resumed, straight);
    }
}
