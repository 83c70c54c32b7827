//! A checkpointed match resumes where it stopped and ends as the uninterrupted match would.

use arena::{Checkpoint, EngineSettings, MatchOptions, MatchSummary, run_match, run_match_from};
use std::path::{Path, PathBuf};

fn small_match(games: u64) -> MatchOptions {
    let small = EngineSettings::from_json(r#"{"beam_width": 4, "previews": 2}"#).unwrap();
    let weak = EngineSettings::from_json(r#"{"beam_width": 1, "previews": 2}"#).unwrap();
    MatchOptions {
        a: small,
        b: weak,
        games,
        seed: 5,
        threads: 2,
        versus: game::versus::VersusConfig {
            max_pieces: 40,
            ..Default::default()
        },
        ..MatchOptions::default()
    }
}

/// An SPRT of 0 against `elo1` Elo, with both error rates `error`.
fn sprt(elo1: f64, error: f64) -> arena::sprt::Sprt {
    arena::sprt::Sprt {
        elo0: 0.0,
        elo1,
        alpha: error,
        beta: error,
    }
}

/// A fresh path in the temporary directory (removed first if a past run left it).
fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("tetris-tt-{}-{name}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Plays `opts` through the checkpoint at `path`, as `tetris-tt versus --checkpoint` does.
fn through(path: &Path, opts: &MatchOptions) -> (MatchSummary, usize) {
    let (mut cp, done) = Checkpoint::open(path, opts).unwrap();
    let m = run_match_from(opts, &done, |_, g| cp.append(g).unwrap());
    (m, done.len())
}

fn same_match(a: &MatchSummary, b: &MatchSummary) {
    assert_eq!(a.digest, b.digest);
    assert_eq!(a.game_list, b.game_list);
    assert_eq!((a.games, a.pairs), (b.games, b.pairs));
    assert_eq!((a.score, a.elo, a.llr), (b.score, b.elo, b.llr));
}

#[test]
fn a_match_stopped_and_resumed_is_the_uninterrupted_match() {
    let path = temp("resume");
    let whole = run_match(&small_match(8), |_, _| {});
    let (first, resumed) = through(&path, &small_match(4));
    assert_eq!((first.games, resumed), (4, 0));
    let (second, resumed) = through(&path, &small_match(8));
    assert_eq!((resumed, second.resumed), (4, 4));
    same_match(&second, &whole);
    // Header plus eight games; opening it again plays nothing more.
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 9);
    let (again, resumed) = through(&path, &small_match(8));
    assert_eq!((resumed, again.resumed), (8, 8));
    same_match(&again, &whole);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_last_line_cut_short_is_replayed_and_a_damaged_one_is_an_error() {
    let path = temp("cut");
    let whole = run_match(&small_match(6), |_, _| {});
    through(&path, &small_match(6));
    let text = std::fs::read_to_string(&path).unwrap();
    // The process stopped while writing game 5: its line has no end.
    let cut = &text[..text.len() - 20];
    std::fs::write(&path, cut).unwrap();
    let (m, resumed) = through(&path, &small_match(6));
    assert_eq!(resumed, 5);
    same_match(&m, &whole);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // A damaged line in the middle is not guessed at.
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3] = "{\"index\": 2, \"oops\"";
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let err = Checkpoint::open(&path, &small_match(6)).err().unwrap();
    assert!(err.contains("line 4"), "{err}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn another_matchs_checkpoint_is_refused() {
    let path = temp("other");
    through(&path, &small_match(2));
    let before = std::fs::read_to_string(&path).unwrap();
    let other = MatchOptions {
        seed: 6,
        ..small_match(2)
    };
    let err = Checkpoint::open(&path, &other).err().unwrap();
    assert!(err.contains("another match"), "{err}");
    // More games or another SPRT over the same games are the same match.
    let longer = MatchOptions {
        sprt: Some(sprt(50.0, 0.05)),
        ..small_match(4)
    };
    assert_eq!(Checkpoint::open(&path, &longer).unwrap().1.len(), 2);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    let _ = std::fs::remove_file(&path);
}

/// When the games in the file already decide the SPRT, the resumed match stops at once, at
/// the same game as the uninterrupted one.
#[test]
fn a_test_decided_in_the_checkpoint_plays_nothing_more() {
    let path = temp("decided");
    let opts = MatchOptions {
        sprt: Some(sprt(100.0, 0.1)),
        ..small_match(200)
    };
    let whole = run_match(&opts, |_, _| {});
    assert!(
        whole.decided() && whole.games < 200,
        "{} games",
        whole.games
    );
    let (first, _) = through(&path, &opts);
    same_match(&first, &whole);
    let mut played = 0;
    let (mut cp, done) = Checkpoint::open(&path, &opts).unwrap();
    let again = run_match_from(&opts, &done, |_, g| {
        played += 1;
        cp.append(g).unwrap();
    });
    assert_eq!(played, 0);
    same_match(&again, &whole);
    let _ = std::fs::remove_file(&path);
}

/// The file replaced (a `git checkout` of an older version) or removed while the match runs:
/// the next game puts the match's whole file back, and the file ends as the uninterrupted
/// match's does.
#[test]
fn a_checkpoint_replaced_or_removed_mid_match_is_put_back() {
    let path = temp("replaced");
    let opts = small_match(8);
    through(&path, &opts);
    let whole = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();

    let mut written = 0;
    let (mut cp, done) = Checkpoint::open(&path, &opts).unwrap();
    assert!(done.is_empty());
    let header = std::fs::read_to_string(&path).unwrap();
    run_match_from(&opts, &done, |_, g| {
        match written {
            // Replaced by another file holding only the header, as a checkout would.
            2 => {
                let tmp = path.with_extension("other");
                std::fs::write(&tmp, &header).unwrap();
                std::fs::rename(&tmp, &path).unwrap();
            }
            5 => std::fs::remove_file(&path).unwrap(),
            _ => {}
        }
        cp.append(g).unwrap();
        written += 1;
    });
    assert_eq!(cp.restored(), 2);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), whole);
    // And it resumes as a whole match: nothing left to play.
    let (_, resumed) = through(&path, &opts);
    assert_eq!(resumed, 8);
    let _ = std::fs::remove_file(&path);
}
