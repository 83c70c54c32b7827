//! Match statistics: Elo with an error bar, and the sequential probability ratio test.
//!
//! Games come in pairs (one piece sequence, sides swapped), so the sample is the pair: its
//! score is the mean of its two games (0, 1/4, 1/2, 3/4 or 1 for engine A). The log-likelihood
//! ratio is the normal approximation of the generalised SPRT (Van den Bergh; used by Fishtest
//! on game pairs): with `n` pairs of mean score `s` and variance `v`, and `s0`, `s1` the scores
//! the two Elo hypotheses expect,
//!
//! ```text
//! LLR = n (s1 - s0) (2 s - s0 - s1) / (2 v)
//! ```
//!
//! The approximation needs a variance, and a handful of identical pairs has none; so `v` is
//! the sample variance shrunk towards 1/8 (the variance of a pair of independent fair games)
//! by two pseudo-pairs: `v = (n v_sample + 2/8) / (n + 2)`. Early pairs then cannot decide a
//! test alone, and the prior fades as pairs accumulate.
//!
//! The test stops when the LLR leaves `[ln(β/(1−α)), ln((1−β)/α)]`.

use serde::Serialize;

/// The expected score of a side that is `elo` stronger (logistic Elo).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that a score of `s` means (±infinity at 0 and 1).
pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Pseudo-pairs of prior variance in the LLR's variance estimate.
const PRIOR_PAIRS: f64 = 2.0;
/// The variance of the mean of two independent fair games (0 or 1 each): 1/8.
const PRIOR_VARIANCE: f64 = 0.125;

/// An SPRT between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Keep playing.
    Continue,
    /// The LLR fell below the lower bound: accept elo0 (A is not elo1 stronger).
    H0,
    /// The LLR rose above the upper bound: accept elo1.
    H1,
}

impl Sprt {
    /// The (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pair scores so far.
    pub fn llr(&self, pairs: &PairStats) -> f64 {
        if pairs.n == 0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let s = pairs.mean();
        let n = pairs.n as f64;
        let v = (n * pairs.variance() + PRIOR_PAIRS * PRIOR_VARIANCE) / (n + PRIOR_PAIRS);
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * v)
    }

    /// The verdict at this LLR.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lo, hi) = self.bounds();
        if llr <= lo {
            Verdict::H0
        } else if llr >= hi {
            Verdict::H1
        } else {
            Verdict::Continue
        }
    }
}

/// Running sums of pair scores.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairStats {
    /// Pairs.
    pub n: u64,
    /// Sum of pair scores.
    pub sum: f64,
    /// Sum of squared pair scores.
    pub sum_sq: f64,
}

impl PairStats {
    /// Adds one pair's score (the mean of its two games, from A's side).
    pub fn add(&mut self, score: f64) {
        self.n += 1;
        self.sum += score;
        self.sum_sq += score * score;
    }

    /// The mean pair score (0.5 with no pairs).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.5
        } else {
            self.sum / self.n as f64
        }
    }

    /// The variance of a pair score.
    pub fn variance(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let m = self.mean();
        (self.sum_sq / self.n as f64 - m * m).max(0.0)
    }
}

/// A's Elo over B from its score over `games` games, with the half-width of the 95% Wilson
/// interval on the score converted to Elo. Scores are clamped just inside (0, 1), so an
/// all-win match reports a large finite Elo with an honest, wide error bar.
pub fn elo_with_error(score: f64, games: u64) -> (f64, f64) {
    let clamp = |s: f64| s.clamp(1e-3, 1.0 - 1e-3);
    if games == 0 {
        return (0.0, f64::INFINITY);
    }
    let n = games as f64;
    let z = 1.96f64;
    let z2n = z * z / n;
    let center = (score + z2n / 2.0) / (1.0 + z2n);
    let half = z / (1.0 + z2n) * (score * (1.0 - score) / n + z2n / (4.0 * n)).sqrt();
    let lo = elo_of_score(clamp(center - half));
    let hi = elo_of_score(clamp(center + half));
    (elo_of_score(clamp(score)), (hi - lo) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_at_five_percent_are_the_textbook_values() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = t.bounds();
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        assert!((lo - -2.944_438_979).abs() < 1e-9, "{lo}");
        assert!((hi - 2.944_438_979).abs() < 1e-9, "{hi}");
    }

    #[test]
    fn llr_matches_a_hand_computation() {
        // Pairs scoring 1, 0.5, 0.75, 0.5: n = 4, mean 0.6875, E[x^2] = (1 + .25 + .5625 +
        // .25) / 4 = 0.515625, variance 0.515625 - 0.47265625 = 0.04296875.
        let mut p = PairStats::default();
        for s in [1.0, 0.5, 0.75, 0.5] {
            p.add(s);
        }
        assert!((p.variance() - 0.042_968_75).abs() < 1e-12);
        let t = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // s0 = 0.5; s1 = 1 / (1 + 10^(-0.05)) = 0.5287506...
        let s1 = 1.0 / (1.0 + 10f64.powf(-0.05));
        assert!((s1 - 0.528_750_564).abs() < 1e-8);
        // The variance shrunk by two pseudo-pairs of 1/8: (4 * 0.04296875 + 0.25) / 6 =
        // 0.0703125. LLR = 4 (s1 - 0.5) (2 * 0.6875 - 0.5 - s1) / (2 * 0.0703125) = 0.283161...
        let want = 4.0 * (s1 - 0.5) * (1.375 - 0.5 - s1) / (2.0 * 0.070_312_5);
        assert!((want - 0.283_160_648).abs() < 1e-8, "{want}");
        assert!((t.llr(&p) - want).abs() < 1e-12);
        assert_eq!(t.verdict(t.llr(&p)), Verdict::Continue);
        assert_eq!(t.verdict(3.0), Verdict::H1);
        assert_eq!(t.verdict(-3.0), Verdict::H0);
        // One winning pair cannot decide even a wide test; four in a row do.
        let wide = Sprt { elo1: 50.0, ..t };
        let mut wins = PairStats::default();
        wins.add(1.0);
        assert_eq!(wide.verdict(wide.llr(&wins)), Verdict::Continue);
        for _ in 0..3 {
            wins.add(1.0);
        }
        assert_eq!(wide.verdict(wide.llr(&wins)), Verdict::H1);
    }

    #[test]
    fn elo_and_its_error_bar() {
        assert!((elo_of_score(0.75) - 190.848_501_887).abs() < 1e-6);
        assert!((score_of_elo(elo_of_score(0.3)) - 0.3).abs() < 1e-12);
        // 100 games at 50%: Wilson centre 0.5, half-width 1.96 / (1 + 0.038416) *
        // sqrt(0.0025 + 0.00009604) = 0.09617, so Elo 0 ± 67.67.
        let (elo, err) = elo_with_error(0.5, 100);
        assert!(elo.abs() < 1e-9);
        let half = 1.96 / (1.0 + 0.038_416) * (0.0025f64 + 0.000_096_04).sqrt();
        assert!((err - elo_of_score(0.5 + half)).abs() < 1e-9, "{err}");
        assert!((err - 67.67).abs() < 0.01, "{err}");
        // Twenty wins in twenty games: a large Elo with a wide bar, never zero.
        let (elo, err) = elo_with_error(1.0, 20);
        assert!(elo > 1000.0);
        assert!(err > 300.0, "{err}");
    }
}
