//! The engine's settings ([`Config`]), how a pass picks its move ([`MoveChoice`]), and the
//! bounds a settings file is held to.

use board::Rules;
use game::FrameCosts;
use game::versus::in_range;

/// The default beam width.
pub const DEFAULT_BEAM_WIDTH: usize = 128;
/// The default number of previews.
pub const DEFAULT_PREVIEWS: usize = 5;
/// The widest beam a setting may ask for (`beam_width`, `max_width`, `speculate_top`,
/// `speculate_deep_from`): the same bound as the command line's `--beam`. A search keeps about
/// one node of a few hundred bytes per beam slot and depth, so at this width and
/// [`MAX_PREVIEWS`] its beam takes some gigabytes; the tables are sized at build time.
pub const MAX_BEAM_WIDTH: usize = 1_000_000;
/// The most previews a setting may ask for (the command line's `--previews`). The search depth
/// is `1 + previews` plus up to two speculated pieces.
pub const MAX_PREVIEWS: usize = game::versus::MAX_PREVIEWS;
/// The share of a pass's beam width, in percent, that speculation scores when that is more
/// than `speculate_top`: a wider beam has more good lines for speculation to tell apart, and
/// its best few are the likeliest to be overrated. At the default width it is exactly
/// `speculate_top` (128 x 25% = 32).
pub const SPECULATED_SHARE: usize = 25;

/// How a pass picks the first move from its final level.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum MoveChoice {
    /// The first move of the best line (the best node of the final level).
    #[default]
    BestLeaf,
    /// The first move whose best `k` candidates have the highest mean score (the best line
    /// of that move is played): a move is worth what several of its lines promise, not what
    /// its single best leaf does, which is the one most likely to be overrated.
    TopMean(u8),
}

/// Engine settings. Loadable from JSON by field name; missing fields keep their defaults.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// States kept per depth.
    pub beam_width: usize,
    /// Preview pieces used after the current one; the search depth is `1 + previews`.
    pub previews: usize,
    /// The rotation system.
    pub rules: Rules,
    /// Whether the evaluation cache is used. Turning it off changes only the work done, never
    /// the move: it exists to prove exactly that.
    pub use_cache: bool,
    /// With a deadline, the widest beam a pass may use.
    pub max_width: usize,
    /// Whether the search may hold. Off only to make a deliberately weaker engine.
    pub use_hold: bool,
    /// Whether to search one piece past the known queue when the state says what the 7-bag
    /// can give next (the expected value over those pieces).
    pub speculate: bool,
    /// How many of the best lines speculation scores, at least ([`SPECULATED_SHARE`] of a
    /// wider beam).
    pub speculate_top: usize,
    /// The share of the speculated lines, in percent, that also speculate a second piece
    /// past the queue (with `speculate`): the best of them by their one-piece expectation,
    /// at least one when this is above 0. Each of the first piece's best children then takes
    /// the expectation over the second piece, and the move is chosen among these lines only.
    /// 0 (the default) speculates one piece; [`Config::without_clock`] sets 25 from width
    /// 2048. The second piece has a table of its own.
    pub speculate_deep: usize,
    /// The narrowest pass that speculates a second piece (with `speculate_deep`): narrower
    /// passes speculate one. 0 (the default) is every width. The second piece's table exists
    /// only when some pass can reach this width (`beam_width` or `max_width`).
    pub speculate_deep_from: usize,
    /// How the first move is picked from the final level of the search.
    pub move_choice: MoveChoice,
    /// What moves cost in frames, for the evaluator's time terms.
    pub frame_costs: FrameCosts,
    /// How many threads a search splits its work among: each depth's parents, and the lines
    /// it speculates on, are shared out, and the threads probe and store the same per-depth
    /// tables. The threads come from the rayon pool the search runs in (the global one,
    /// unless the caller installed another), so at most that pool's size run at once. The
    /// number changes the work's speed, never the move. 1 (the default) searches on the
    /// calling thread alone.
    pub search_threads: usize,
}

/// The most search threads a setting may ask for.
pub const MAX_SEARCH_THREADS: usize = 1024;

impl Default for Config {
    fn default() -> Self {
        Config {
            beam_width: DEFAULT_BEAM_WIDTH,
            previews: DEFAULT_PREVIEWS,
            rules: Rules::Srs,
            use_cache: true,
            max_width: 8192,
            use_hold: true,
            speculate: true,
            speculate_top: 32,
            speculate_deep: 0,
            speculate_deep_from: 0,
            move_choice: MoveChoice::BestLeaf,
            frame_costs: FrameCosts::default(),
            search_threads: 1,
        }
    }
}

impl Config {
    /// The settings for a game without a clock (solo self-play, as `tetris-tt play` plays):
    /// the defaults, except that no move costs time ([`FrameCosts::NONE`], so the time terms
    /// weigh nothing) and passes 2048 wide or more look a second piece past the queue
    /// (`speculate_deep` 25, `speculate_deep_from` 2048).
    ///
    /// The second look buys quality with think time: without a clock the time is free, under
    /// one it is charged, so [`Config::default`] (the real-time settings of the TBP bot and
    /// the arena) looks once. Narrower passes play exactly the default's moves. The
    /// measurements behind the choice are in `docs/decisions.md`.
    ///
    /// ```
    /// use search::{Config, FrameCosts};
    /// let c = Config::without_clock();
    /// assert_eq!(c.frame_costs, FrameCosts::NONE);
    /// assert_eq!(c.deep_lines(512), 0);
    /// assert_eq!(c.deep_lines(2048), 128); // a quarter of the 512 speculated lines
    /// ```
    pub fn without_clock() -> Config {
        Config {
            speculate_deep: 25,
            speculate_deep_from: 2048,
            frame_costs: FrameCosts::NONE,
            ..Config::default()
        }
    }

    /// How many of the best lines a pass of beam width `width` speculates on:
    /// `speculate_top`, or [`SPECULATED_SHARE`] percent of `width` if that is more; at least
    /// one.
    pub fn speculated_lines(&self, width: usize) -> usize {
        self.speculate_top
            .max(width.saturating_mul(SPECULATED_SHARE) / 100)
            .max(1)
    }

    /// How many lines of a pass of beam width `width` speculate a second piece:
    /// `speculate_deep` percent of [`Self::speculated_lines`], at least one unless it is 0.
    /// 0 for a pass narrower than `speculate_deep_from`, or when [`Self::speculates_deep`] is
    /// false.
    pub fn deep_lines(&self, width: usize) -> usize {
        if !self.speculates_deep() || width < self.speculate_deep_from {
            return 0;
        }
        (self
            .speculated_lines(width)
            .saturating_mul(self.speculate_deep)
            / 100)
            .max(1)
    }

    /// The widths of a search that thinks the way the TBP bot does in the background: 8 (a
    /// quick answer), `beam_width` (the least an answer is worth), then, with `widen`, twice
    /// and four times as wide and so on, up to `max_width`.
    pub fn bot_widths(&self, widen: bool) -> Vec<usize> {
        let full = self.beam_width.max(1);
        let mut widths = vec![8.min(full), full];
        widths.dedup();
        if widen {
            let mut w = full.saturating_mul(2);
            while w < self.max_width {
                widths.push(w);
                w = w.saturating_mul(2);
            }
            if self.max_width > full {
                widths.push(self.max_width);
            }
        }
        widths
    }

    /// Whether a second piece past the queue is ever speculated (and has its table): with
    /// `speculate`, a `speculate_deep` above 0, and a pass as wide as `speculate_deep_from`
    /// possible (`beam_width` or `max_width` reaches it).
    pub fn speculates_deep(&self) -> bool {
        self.speculate
            && self.speculate_deep > 0
            && self.beam_width.max(self.max_width) >= self.speculate_deep_from
    }

    /// Checks every field against the bounds the command line has for its twin
    /// ([`MAX_BEAM_WIDTH`], [`MAX_PREVIEWS`], [`game::MAX_FRAME_COST`], percentages up to
    /// 100), so that a settings file cannot ask for more memory than `--beam` can. The error
    /// names the field.
    ///
    /// ```
    /// use search::Config;
    /// assert!(Config::default().check().is_ok());
    /// let e = Config { beam_width: 1 << 40, ..Config::default() }.check().unwrap_err();
    /// assert!(e.starts_with("beam_width must be in 1..=1000000"));
    /// ```
    pub fn check(&self) -> Result<(), String> {
        let w = MAX_BEAM_WIDTH;
        in_range("beam_width", self.beam_width, 1, w)?;
        in_range("max_width", self.max_width, 1, w)?;
        in_range("previews", self.previews, 0, MAX_PREVIEWS)?;
        in_range("speculate_top", self.speculate_top, 0, w)?;
        in_range("speculate_deep", self.speculate_deep, 0, 100)?;
        in_range("speculate_deep_from", self.speculate_deep_from, 0, w)?;
        in_range("search_threads", self.search_threads, 1, MAX_SEARCH_THREADS)?;
        self.frame_costs.check("frame_costs.")
    }
}
