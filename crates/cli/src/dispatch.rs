//! `--dispatch` on `versus` and `tune`: the games are played elsewhere, by a runner that reads
//! requests on this process's standard output and answers with the games on its standard input.
//!
//! The protocol (docs/cluster.md): a request is one line, `{"tetris_tt_request": {"spec": S,
//! "first": F, "games": G}}`, where `S` is an [`arena::MatchSpec`]; the runner plays games
//! `F..F+G` of that match (`tetris-tt batch --spec`) and writes their records, one JSON line
//! each, in game order. The command reads only as many as it needs: a match whose SPRT decides
//! stops reading, prints its summary and exits, and the runner sees its output end. Any other
//! line on standard output is the command's own (its summary).

use arena::{GameRecord, MatchOptions, MatchSpec};
use std::io::{BufRead, Write};

/// The request and answer channels of a dispatching command.
pub(crate) struct Dispatcher {
    input: std::io::StdinLock<'static>,
    line: String,
}

impl Dispatcher {
    /// Standard input and output as the channels.
    pub(crate) fn new() -> Dispatcher {
        Dispatcher {
            input: std::io::stdin().lock(),
            line: String::new(),
        }
    }

    /// Asks the runner for games `games` of the match `opts`.
    pub(crate) fn request(
        &mut self,
        opts: &MatchOptions,
        games: std::ops::Range<u64>,
    ) -> Result<(), String> {
        let spec = MatchSpec::of(opts)?;
        let line = serde_json::json!({
            "tetris_tt_request": {
                "spec": spec,
                "first": games.start,
                "games": games.end - games.start,
            }
        });
        let mut out = std::io::stdout().lock();
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write a request to the runner: {e}"))
    }

    /// Reads the next game from the runner, which must be game `index`.
    pub(crate) fn game(&mut self, index: u64) -> Result<GameRecord, String> {
        self.line.clear();
        let n = self
            .input
            .read_line(&mut self.line)
            .map_err(|e| format!("cannot read game {index} from the runner: {e}"))?;
        if n == 0 {
            return Err(format!("the runner closed its answers before game {index}"));
        }
        let g: GameRecord = serde_json::from_str(&self.line).map_err(|e| {
            format!("the runner's answer for game {index} is not a game record: {e}")
        })?;
        if g.index != index {
            return Err(format!(
                "the runner answered game {} where game {index} belongs",
                g.index
            ));
        }
        Ok(g)
    }

    /// Asks for games `games` and reads them all.
    pub(crate) fn games(
        &mut self,
        opts: &MatchOptions,
        games: std::ops::Range<u64>,
    ) -> Result<Vec<GameRecord>, String> {
        self.request(opts, games.clone())?;
        games.map(|i| self.game(i)).collect()
    }
}
