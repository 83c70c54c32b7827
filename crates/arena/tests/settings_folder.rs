//! The settings files shipped in `settings/` load, and `default.json` is today's default.

use arena::EngineSettings;
use game::versus::VersusConfig;
use std::path::PathBuf;

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../settings")
}

#[test]
fn every_settings_file_loads_within_its_bounds() {
    let mut engines = 0;
    let mut rules = 0;
    for entry in std::fs::read_dir(folder()).expect("settings/ exists") {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("rules") {
            let r: VersusConfig =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            r.check().unwrap_or_else(|e| panic!("{name}: {e}"));
            rules += 1;
        } else {
            EngineSettings::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            engines += 1;
        }
    }
    assert!(
        engines >= 8 && rules >= 1,
        "{engines} engine files, {rules} rules files"
    );
}

#[test]
fn default_json_is_the_default_with_every_field() {
    let text = std::fs::read_to_string(folder().join("default.json")).unwrap();
    assert_eq!(
        EngineSettings::from_json(&text).unwrap(),
        EngineSettings::default()
    );
    // Every field of Config and Weights is spelled out.
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    for v in [
        serde_json::to_value(search::Config::default()).unwrap(),
        serde_json::to_value(search::Weights::default()).unwrap(),
    ] {
        for k in v.as_object().unwrap().keys() {
            assert!(file.get(k).is_some(), "default.json lacks {k}");
        }
    }
}

#[test]
fn the_no_clock_file_is_what_play_starts_from_at_its_width() {
    let text = std::fs::read_to_string(folder().join("no-clock-strong.json")).unwrap();
    let s = EngineSettings::from_json(&text).unwrap();
    assert_eq!(
        s.config,
        search::Config {
            beam_width: 2048,
            max_width: 2048,
            ..search::Config::without_clock()
        }
    );
}
