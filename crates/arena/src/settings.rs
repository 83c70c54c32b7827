//! One engine's settings for a match, as one flat JSON object.

use search::{Config, DefaultEvaluator, Engine, Weights};
use serde_json::{Map, Value};

/// An engine's settings: its `Config`, its `Weights`, and what it may see.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineSettings {
    /// Search settings.
    pub config: Config,
    /// Evaluator weights.
    pub weights: Weights,
    /// Whether it thinks in the background, as `tetris-tt tbp` does: it starts on a position
    /// as soon as its last piece locks, so the line-clear and spawn delays before the request
    /// are free thinking time, and it pays only for the thinking past them.
    pub ponder: bool,
    /// A think budget in milliseconds per move: instead of one search at its fixed width the
    /// engine widens its beam pass by pass (8, 16, 32, ... up to `max_width`), as the TBP bot
    /// does with `--think-ms`, until the search has cost this much by the match's think
    /// charge: `think_ms * N` candidates under `--think nodes:N` (reproducible), or this much
    /// wall time under `--think wall`. A fixed charge per move (`ms:X`) says nothing about
    /// how much searching costs, so a budget is refused there ([`crate::MatchOptions::check`]).
    pub think_ms: Option<f64>,
    /// With `ponder`: think through the delays before its turn the way the TBP bot does in
    /// the background, widening pass by pass ([`search::Config::bot_widths`]: 8, the beam
    /// width, then twice as wide and so on) for as long as the delays since its last lock
    /// last, plus `think_ms` if set. The passes up to the beam width always finish; thinking
    /// past the free delays is charged as usual.
    pub widen: bool,
    /// How many times as fast as the match's think charge this engine's machine is: under
    /// `--think nodes:N` it scores `speed * N` candidates a millisecond, so a budget buys that
    /// many more and a search is charged that much less. `None` is 1. Only with a node charge
    /// ([`crate::MatchOptions::check`]). For effort ladders: the same engine on faster machines.
    /// The rate is also per search thread (`search_threads`): a node charge counts each
    /// thread as a core of its own.
    pub speed: Option<f64>,
}

/// The field names of a serializable value's JSON object.
fn fields<T: serde::Serialize>(v: &T) -> Vec<String> {
    match serde_json::to_value(v) {
        Ok(Value::Object(m)) => m.into_iter().map(|(k, _)| k).collect(),
        _ => Vec::new(),
    }
}

/// A struct from its JSON fields. On an error the message names the field that causes it
/// (serde's own message for a value of the wrong type does not).
fn from_fields<T: serde::de::DeserializeOwned>(fields: Map<String, Value>) -> Result<T, String> {
    serde_json::from_value(Value::Object(fields.clone())).map_err(|e| {
        let culprit = fields.iter().find(|(k, v)| {
            let one = Map::from_iter([((*k).clone(), (*v).clone())]);
            serde_json::from_value::<T>(Value::Object(one)).is_err()
        });
        match culprit {
            Some((k, v)) => format!("{k}: {e} (the file has {v})"),
            None => e.to_string(),
        }
    })
}

impl EngineSettings {
    /// Reads settings from one JSON object whose fields are those of `Config` and `Weights`
    /// side by side, plus the arena's own fields (`ponder`, `think_ms`, `widen`, `speed`), for example `{"beam_width": 1, "holes": -200}`.
    /// Missing fields keep their defaults; an unknown field is an error (a typo would
    /// otherwise silently test the default), and so is a value outside its bounds
    /// ([`Config::check`], [`Weights::check`]), before anything is allocated.
    pub fn from_json(text: &str) -> Result<EngineSettings, String> {
        Self::from_json_over(text, &Config::default())
    }

    /// As [`EngineSettings::from_json`], but the `Config` fields the text leaves out keep
    /// their values in `base` instead of `Config::default()`: for example
    /// [`Config::without_clock`] under a self-play game's settings file.
    pub fn from_json_over(text: &str, base: &Config) -> Result<EngineSettings, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let Value::Object(all) = value else {
            return Err("settings must be one JSON object".into());
        };
        // Every field of `Config`, holding the base's values: the file's fields replace them.
        let mut config = match serde_json::to_value(base) {
            Ok(Value::Object(m)) => m,
            _ => return Err("engine settings: the base settings are not a JSON object".into()),
        };
        let weight_fields = fields(&Weights::default());
        let mut weights = Map::new();
        let mut ponder = false;
        let mut think_ms = None;
        let mut widen = false;
        let mut speed = None;
        for (k, v) in all {
            if config.contains_key(&k) {
                config.insert(k, v);
            } else if weight_fields.contains(&k) {
                weights.insert(k, v);
            } else if k == "ponder" {
                ponder = v.as_bool().ok_or("ponder must be true or false")?;
            } else if k == "speed" {
                speed = match v.as_f64() {
                    Some(x) if x > 0.0 && x.is_finite() => Some(x),
                    _ => return Err(format!("speed must be a number above 0, not {v}")),
                };
            } else if k == "widen" {
                widen = v.as_bool().ok_or("widen must be true or false")?;
            } else if k == "think_ms" {
                think_ms = match v.as_f64() {
                    Some(ms) if ms > 0.0 && ms.is_finite() => Some(ms),
                    _ => {
                        return Err(format!(
                            "think_ms must be a number of milliseconds above 0, not {v}"
                        ));
                    }
                };
            } else {
                return Err(format!(
                    "unknown field {k:?} (fields are those of search::Config and search::Weights, ponder, think_ms, widen and speed)"
                ));
            }
        }
        if widen && !ponder {
            return Err(
                "widen needs ponder: an engine widens through the delays it thinks in".into(),
            );
        }
        let config: Config = from_fields(config)?;
        config.check()?;
        let weights: Weights = from_fields(weights)?;
        weights.check()?;
        Ok(EngineSettings {
            config,
            weights,
            ponder,
            think_ms,
            widen,
            speed,
        })
    }

    /// The settings as one flat JSON object, every field written out, which
    /// [`EngineSettings::from_json`] reads back to equal settings (the form a match request
    /// carries to another machine).
    pub fn to_json(&self) -> Result<Value, String> {
        let mut all = Map::new();
        for part in [
            serde_json::to_value(&self.config),
            serde_json::to_value(&self.weights),
        ] {
            match part {
                Ok(Value::Object(m)) => all.extend(m),
                _ => return Err("engine settings: not a JSON object".into()),
            }
        }
        all.insert("ponder".into(), Value::Bool(self.ponder));
        all.insert("widen".into(), Value::Bool(self.widen));
        for (k, v) in [("think_ms", self.think_ms), ("speed", self.speed)] {
            if let Some(v) = v {
                all.insert(k.into(), serde_json::json!(v));
            }
        }
        Ok(Value::Object(all))
    }

    /// A fresh engine with these settings.
    pub fn engine(&self) -> Engine {
        Engine::new(
            self.config.clone(),
            DefaultEvaluator::new(self.weights.clone()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_fields_of_config_and_weights_with_defaults() {
        let s = EngineSettings::from_json(r#"{"beam_width": 1, "holes": -7}"#).unwrap();
        assert_eq!(s.config.beam_width, 1);
        assert_eq!(s.config.previews, Config::default().previews);
        assert_eq!(s.weights.holes, -7);
        assert_eq!(s.weights.height, Weights::default().height);
        assert_eq!(
            EngineSettings::from_json("{}").unwrap(),
            EngineSettings::default()
        );
        let e = EngineSettings::from_json(r#"{"beam_widht": 1}"#).unwrap_err();
        assert!(e.contains("beam_widht"), "{e}");
        assert!(EngineSettings::from_json(r#"{"beam_width": "wide"}"#).is_err());
        assert!(EngineSettings::from_json("[1]").is_err());
        assert!(EngineSettings::from_json(r#"{"use_hold": false, "rules": "srs-plus"}"#).is_ok());
        assert!(
            EngineSettings::from_json(r#"{"ponder": true}"#)
                .unwrap()
                .ponder
        );
        assert_eq!(
            EngineSettings::from_json(r#"{"think_ms": 8}"#)
                .unwrap()
                .think_ms,
            Some(8.0)
        );
        let w = EngineSettings::from_json(r#"{"ponder": true, "widen": true}"#).unwrap();
        assert!(w.widen && w.ponder);
        let e = EngineSettings::from_json(r#"{"widen": true}"#).unwrap_err();
        assert!(e.contains("widen needs ponder"), "{e}");
        assert!(EngineSettings::from_json(r#"{"ponder": true, "widen": 1}"#).is_err());
        for bad in ["0", "-1", "\"long\"", "null"] {
            let e = EngineSettings::from_json(&format!(r#"{{"think_ms": {bad}}}"#)).unwrap_err();
            assert!(e.contains("think_ms"), "{e}");
            let e = EngineSettings::from_json(&format!(r#"{{"speed": {bad}}}"#)).unwrap_err();
            assert!(e.contains("speed"), "{e}");
        }
        assert_eq!(
            EngineSettings::from_json(r#"{"speed": 4}"#).unwrap().speed,
            Some(4.0)
        );
        assert_eq!(EngineSettings::default().speed, None);
    }

    #[test]
    fn settings_written_as_json_read_back_equal() {
        let mut s = EngineSettings::from_json(
            r#"{"beam_width": 37, "holes": -7, "ponder": true, "widen": true, "think_ms": 2.5, "speed": 1.75}"#,
        )
        .unwrap();
        s.config.frame_costs.hard_drop += 1;
        for s in [s, EngineSettings::default()] {
            let text = s.to_json().unwrap().to_string();
            assert_eq!(EngineSettings::from_json(&text).unwrap(), s, "{text}");
            // Read over another base, every field still comes from the text.
            let over = EngineSettings::from_json_over(&text, &Config::without_clock()).unwrap();
            assert_eq!(over, s);
        }
    }

    #[test]
    fn fields_left_out_keep_the_base_values() {
        let base = Config::without_clock();
        let s =
            EngineSettings::from_json_over(r#"{"beam_width": 2048, "holes": -7}"#, &base).unwrap();
        assert_eq!(
            s.config,
            Config {
                beam_width: 2048,
                ..base.clone()
            }
        );
        assert_eq!(s.weights.holes, -7);
        // A field the file gives replaces the base's, even when it names the plain default.
        let s = EngineSettings::from_json_over(r#"{"speculate_deep": 0}"#, &base).unwrap();
        assert_eq!(s.config.speculate_deep, 0);
        assert_eq!(s.config.speculate_deep_from, 2048);
        assert_eq!(s.config.frame_costs, base.frame_costs);
        // The same checks as over the defaults.
        let e = EngineSettings::from_json_over(r#"{"beam_widht": 1}"#, &base).unwrap_err();
        assert!(e.contains("beam_widht"), "{e}");
        assert!(EngineSettings::from_json_over(r#"{"beam_width": "wide"}"#, &base).is_err());
        assert_eq!(
            EngineSettings::from_json_over("{}", &base).unwrap().config,
            base
        );
    }
}
