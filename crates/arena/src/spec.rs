//! A match as a portable request: everything that decides its games, as JSON that a worker on
//! another machine turns back into the same match.
//!
//! A [`MatchSpec`] holds both engines' settings (every field written out), the rules, the seed,
//! the think charge and whether moves are recorded, and the match's [`fingerprint`]. Turning a
//! spec back into options ([`MatchSpec::options`]) recomputes the fingerprint and refuses a
//! spec whose options come out different (a build whose settings gained a field, a number
//! that did not survive the trip), so games played from a spec are the games the match that
//! wrote it would have played: `tetris-tt batch --spec` plays them, and `--dispatch` on
//! `versus` and `tune` writes the requests that carry a spec.
//!
//! A live match is not a spec: its games depend on the bots and the wall clock, not only on
//! options.

use crate::checkpoint::fingerprint;
use crate::run::{MatchOptions, ThinkCharge};
use crate::settings::EngineSettings;
use game::versus::VersusConfig;
use serde::{Deserialize, Serialize};

/// Everything that decides a match's games, in JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchSpec {
    /// Engine A's settings, as [`EngineSettings::to_json`] writes them.
    pub a: serde_json::Value,
    /// Engine B's settings.
    pub b: serde_json::Value,
    /// The rules and timing.
    pub versus: VersusConfig,
    /// The match seed.
    pub seed: u64,
    /// How thinking is charged.
    pub think: ThinkCharge,
    /// Whether every move is kept in the records.
    pub record: bool,
    /// The match's [`fingerprint`], which the options rebuilt from this spec must have.
    pub fingerprint: String,
}

impl MatchSpec {
    /// The spec of a match. A live match has none.
    pub fn of(opts: &MatchOptions) -> Result<MatchSpec, String> {
        if opts.live.is_some() {
            return Err("a live match cannot be handed out: its games depend on the bots and the wall clock".into());
        }
        Ok(MatchSpec {
            a: opts.a.to_json()?,
            b: opts.b.to_json()?,
            versus: opts.versus.clone(),
            seed: opts.seed,
            think: opts.think,
            record: opts.record,
            fingerprint: fingerprint(opts),
        })
    }

    /// The match again, playing on `threads` threads; an error when the settings or rules do
    /// not read back, or when the options do not have the spec's fingerprint.
    pub fn options(&self, threads: usize) -> Result<MatchOptions, String> {
        let a = EngineSettings::from_json(&self.a.to_string()).map_err(|e| format!("a: {e}"))?;
        let b = EngineSettings::from_json(&self.b.to_string()).map_err(|e| format!("b: {e}"))?;
        self.versus.check().map_err(|e| format!("versus: {e}"))?;
        let opts = MatchOptions {
            versus: self.versus.clone(),
            a,
            b,
            seed: self.seed,
            threads: threads.max(1),
            think: self.think,
            record: self.record,
            ..MatchOptions::default()
        };
        opts.check()?;
        let found = fingerprint(&opts);
        if found != self.fingerprint {
            return Err(format!(
                "the spec reads back as another match (fingerprint {found}, the spec says {}): it was written by another build",
                self.fingerprint
            ));
        }
        Ok(opts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> MatchOptions {
        let mut a = EngineSettings::from_json(r#"{"beam_width": 6, "holes": -9}"#).unwrap();
        a.think_ms = Some(3.5);
        MatchOptions {
            a,
            b: EngineSettings::from_json(r#"{"ponder": true, "widen": true}"#).unwrap(),
            seed: 77,
            think: ThinkCharge::Nodes {
                nodes_per_ms: 1234.5,
            },
            versus: VersusConfig::preset("ppt-surge").unwrap(),
            record: true,
            ..MatchOptions::default()
        }
    }

    #[test]
    fn a_spec_reads_back_as_the_same_match() {
        let o = opts();
        let text = serde_json::to_string(&MatchSpec::of(&o).unwrap()).unwrap();
        let spec: MatchSpec = serde_json::from_str(&text).unwrap();
        let back = spec.options(3).unwrap();
        assert_eq!(fingerprint(&back), fingerprint(&o));
        assert_eq!((back.a, back.b), (o.a, o.b));
        assert_eq!(back.versus, o.versus);
        assert_eq!(
            (back.seed, back.think, back.record),
            (o.seed, o.think, o.record)
        );
        assert_eq!(back.threads, 3);
    }

    #[test]
    fn a_spec_that_reads_back_as_another_match_is_refused() {
        let mut spec = MatchSpec::of(&opts()).unwrap();
        spec.seed += 1;
        let e = spec.options(1).unwrap_err();
        assert!(e.contains("another match"), "{e}");
        let mut spec = MatchSpec::of(&opts()).unwrap();
        spec.a["beam_width"] = serde_json::json!(0);
        assert!(spec.options(1).unwrap_err().starts_with("a: "));
        let mut spec = MatchSpec::of(&opts()).unwrap();
        spec.b["no_such_field"] = serde_json::json!(1);
        assert!(spec.options(1).unwrap_err().contains("no_such_field"));
        let text = serde_json::to_string(&MatchSpec::of(&opts()).unwrap()).unwrap();
        let extra = text.replacen('{', r#"{"games": 4,"#, 1);
        assert!(serde_json::from_str::<MatchSpec>(&extra).is_err());
    }

    #[test]
    fn a_live_match_has_no_spec() {
        let o = MatchOptions {
            live: Some(crate::Live::default()),
            ..MatchOptions::default()
        };
        assert!(MatchSpec::of(&o).unwrap_err().contains("live"));
    }
}
