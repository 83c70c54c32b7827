//! A match's games on disk, so that a long match (an SPRT can take hours) survives being
//! stopped and resumes where it was.
//!
//! The file is JSON lines: a header naming the match (a fingerprint of everything that decides
//! its games: both engines' settings, the rules, the seed and the think charge), then one
//! [`GameRecord`] per game in the order the match counts them. Reopening the file for the same
//! match reads those games back; [`crate::run_match_from`] counts them and plays on from the
//! next one, and the summary is the one the uninterrupted match would have given. The number
//! of games and the SPRT's bounds are not part of the fingerprint: a resumed match may run
//! longer, or test other bounds, over the same games. The fingerprint cannot see the engine's
//! code, so resume with the same build.
//!
//! The match keeps its file open. If the file at the path is replaced or removed while the
//! match runs (a `git checkout` or `git stash` of a checkpoint kept in the repository), the
//! next game puts the match's whole file back first ([`Checkpoint::restored`] counts it), so no
//! game is written only to a file that nobody can see any more.

use crate::run::{GameRecord, MatchOptions};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{BufRead, BufReader, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The format of the file; a header with another version is refused.
const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    tetris_tt_checkpoint: u32,
    fingerprint: String,
    seed: u64,
}

/// An open checkpoint file, appending games as they finish.
pub struct Checkpoint {
    file: File,
    path: PathBuf,
    restored: u32,
}

/// A hash of everything that decides the games of `opts`: both settings, the rules, the seed
/// and how thinking is charged, and in a live match the bots' commands and answer limit.
pub fn fingerprint(opts: &MatchOptions) -> String {
    let mut text = format!(
        "{:?}|{:?}|{:?}|{}|{:?}",
        opts.a, opts.b, opts.versus, opts.seed, opts.think
    );
    if let Some(live) = &opts.live {
        // A live match's bots (commands) and answer limit decide its games too.
        text += &format!("|live {:?} {}", live.commands, live.answer_limit_ms);
    }
    let mut h = foldhash::fast::FixedState::with_seed(0xc4ec_4b01).build_hasher();
    h.write(text.as_bytes());
    format!("{:016x}", h.finish())
}

impl Checkpoint {
    /// Opens the checkpoint at `path` for the match `opts`: a new file gets its header; an
    /// existing one must be this match's, and its games (games 0, 1, ... in order) are returned.
    /// A last line cut short (the process stopped while writing it) is dropped from the file;
    /// any other unreadable line is an error, and nothing is written then.
    pub fn open(path: &Path, opts: &MatchOptions) -> Result<(Checkpoint, Vec<GameRecord>), String> {
        let shown = path.display();
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| format!("cannot open checkpoint {shown}: {e}"))?;
        let header = Header {
            tetris_tt_checkpoint: VERSION,
            fingerprint: fingerprint(opts),
            seed: opts.seed,
        };
        let mut games = Vec::new();
        // Bytes of whole, readable lines: where the next game goes.
        let mut good = 0u64;
        let mut reader = BufReader::new(&file);
        let mut line = String::new();
        let mut number = 0;
        loop {
            line.clear();
            let n = reader
                .read_line(&mut line)
                .map_err(|e| format!("cannot read checkpoint {shown}: {e}"))?;
            if n == 0 {
                break;
            }
            number += 1;
            let whole = line.ends_with('\n');
            let parsed = if number == 1 {
                serde_json::from_str::<Header>(&line)
                    .map_err(|e| e.to_string())
                    .and_then(|h| check_header(&h, &header))
                    .map(|()| None)
            } else {
                serde_json::from_str::<GameRecord>(&line)
                    .map_err(|e| e.to_string())
                    .and_then(|g| {
                        let want = games.len() as u64;
                        if g.index == want {
                            Ok(Some(g))
                        } else {
                            Err(format!("game {} where game {want} belongs", g.index))
                        }
                    })
            };
            match parsed {
                Ok(g) if whole => {
                    games.extend(g);
                    good += n as u64;
                }
                // A last line without its newline was being written when the process stopped.
                _ if !whole => break,
                Err(e) => return Err(format!("checkpoint {shown}, line {number}: {e}")),
                Ok(_) => unreachable!("a whole line"),
            }
        }
        drop(reader);
        let len = file
            .seek(std::io::SeekFrom::End(0))
            .map_err(|e| format!("cannot read checkpoint {shown}: {e}"))?;
        if good < len {
            file.set_len(good)
                .map_err(|e| format!("cannot repair checkpoint {shown}: {e}"))?;
        }
        let mut cp = Checkpoint {
            file,
            path: path.to_path_buf(),
            restored: 0,
        };
        if good == 0 {
            let text = serde_json::to_string(&header).expect("a header serialises");
            cp.write_line(&text)?;
        }
        Ok((cp, games))
    }

    /// Appends a finished game (in the order the match counts them) and flushes it to the OS.
    pub fn append(&mut self, game: &GameRecord) -> Result<(), String> {
        let text = serde_json::to_string(game).expect("a game record serialises");
        self.write_line(&text)
    }

    /// How many times the file at the path was found replaced or removed and put back.
    pub fn restored(&self) -> u32 {
        self.restored
    }

    fn write_line(&mut self, text: &str) -> Result<(), String> {
        self.keep_path()?;
        writeln!(self.file, "{text}")
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write checkpoint {}: {e}", self.path.display()))
    }
}

impl Checkpoint {
    /// Makes sure the path still names the file this match writes: if it names another file
    /// or none, the match's file (read through the handle it keeps) is written to a temporary
    /// file beside it and renamed over the path, and that file is the one written from now on.
    fn keep_path(&mut self) -> Result<(), String> {
        let shown = self.path.display();
        let ours = self
            .file
            .try_clone()
            .and_then(same_file::Handle::from_file)
            .map_err(|e| format!("cannot check checkpoint {shown}: {e}"))?;
        if same_file::Handle::from_path(&self.path).is_ok_and(|h| h == ours) {
            return Ok(());
        }
        let mut text = Vec::new();
        self.file
            .seek(std::io::SeekFrom::Start(0))
            .and_then(|_| self.file.read_to_end(&mut text))
            .map_err(|e| format!("cannot read the match's checkpoint {shown}: {e}"))?;
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(".restoring");
        std::fs::write(&tmp, &text)
            .and_then(|()| std::fs::rename(&tmp, &self.path))
            .map_err(|e| format!("cannot put checkpoint {shown} back: {e}"))?;
        self.file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(&self.path)
            .map_err(|e| format!("cannot reopen checkpoint {shown}: {e}"))?;
        self.restored += 1;
        Ok(())
    }
}

fn check_header(found: &Header, want: &Header) -> Result<(), String> {
    if found.tetris_tt_checkpoint != VERSION {
        return Err(format!(
            "checkpoint format {} (this build writes {VERSION})",
            found.tetris_tt_checkpoint
        ));
    }
    if found.fingerprint != want.fingerprint {
        return Err(format!(
            "it holds another match (fingerprint {}, seed {}; this match is {}, seed {}): the engines, rules, seed or think charge differ (a build whose engine settings gained a field or changed a default counts as other engines: resume with the build that wrote it)",
            found.fingerprint, found.seed, want.fingerprint, want.seed
        ));
    }
    Ok(())
}
