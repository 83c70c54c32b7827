//! The game summary shared by `play --json` and `bench`.

use search::{DepthCounters, Engine, Evaluator, selfplay::Step};
use serde::Serialize;
use std::hash::{BuildHasher, Hasher};

/// Table figures of a whole game.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct TtSummary {
    pub(crate) bits: u32,
    pub(crate) depths: usize,
    pub(crate) entries_per_table: usize,
    pub(crate) bytes: usize,
    pub(crate) lookups: u64,
    pub(crate) hits: u64,
    /// Every miss stores, so this is lookups - hits (the `stats` build counts it directly).
    pub(crate) stores: u64,
    /// Stores that evicted an entry: only a build with statistics knows.
    pub(crate) replacements: Option<u64>,
    pub(crate) hit_rate: f64,
    pub(crate) replacement_ratio: Option<f64>,
    /// Lookups and hits at each depth of the search (0 = the current piece), all passes.
    pub(crate) by_depth: Vec<DepthSummary>,
}

/// Table lookups and hits at one depth over a whole game.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct DepthSummary {
    pub(crate) lookups: u64,
    pub(crate) hits: u64,
    pub(crate) hit_rate: f64,
}

/// One JSON object per game.
#[derive(Serialize, Debug, Clone)]
pub(crate) struct Summary {
    pub(crate) seed: u64,
    pub(crate) pieces: u64,
    pub(crate) lines: u64,
    pub(crate) attack: u64,
    pub(crate) app: f64,
    pub(crate) topped_out: bool,
    pub(crate) seconds: f64,
    /// Seconds spent searching (the sum of every move's search time).
    pub(crate) search_seconds: f64,
    pub(crate) pps: f64,
    pub(crate) nodes: u64,
    pub(crate) nps: f64,
    pub(crate) evaluations: u64,
    pub(crate) median_move_ms: f64,
    pub(crate) memory_bytes: usize,
    pub(crate) beam: usize,
    pub(crate) previews: usize,
    pub(crate) cache: bool,
    /// A hash of every move played, in order: equal digests mean equal games.
    pub(crate) moves_digest: String,
    /// Line clears by kind.
    pub(crate) clears: Clears,
    /// The highest the stack got.
    pub(crate) max_height: u32,
    pub(crate) tt: TtSummary,
}

/// Line clears of a game by kind.
#[derive(Serialize, Debug, Clone, Default)]
pub(crate) struct Clears {
    pub(crate) single: u64,
    pub(crate) double: u64,
    pub(crate) triple: u64,
    pub(crate) tetris: u64,
    pub(crate) tspin_mini: u64,
    pub(crate) tspin_single: u64,
    pub(crate) tspin_double: u64,
    pub(crate) tspin_triple: u64,
    pub(crate) perfect_clear: u64,
    /// Clears that got the back-to-back bonus.
    pub(crate) back_to_back: u64,
}

impl Clears {
    fn add(&mut self, o: &game::Outcome) {
        use board::Spin;
        if o.lines == 0 {
            return;
        }
        let slot = match (o.spin, o.lines) {
            (Spin::None, 1) => &mut self.single,
            (Spin::None, 2) => &mut self.double,
            (Spin::None, 3) => &mut self.triple,
            (Spin::None, _) => &mut self.tetris,
            (Spin::Mini, _) => &mut self.tspin_mini,
            (Spin::Full, 1) => &mut self.tspin_single,
            (Spin::Full, 2) => &mut self.tspin_double,
            (Spin::Full, _) => &mut self.tspin_triple,
        };
        *slot += 1;
        self.perfect_clear += o.perfect_clear as u64;
        self.back_to_back += o.b2b_bonus as u64;
    }
}

/// Accumulates per-move figures.
pub(crate) struct Recorder {
    clears: Clears,
    max_height: u32,
    nodes: u64,
    evaluations: u64,
    lookups: u64,
    hits: u64,
    by_depth: Vec<DepthCounters>,
    search_seconds: f64,
    move_ms: Vec<f64>,
    digest: foldhash::fast::FoldHasher<'static>,
}

impl Recorder {
    pub(crate) fn new() -> Recorder {
        Recorder {
            clears: Clears::default(),
            max_height: 0,
            nodes: 0,
            evaluations: 0,
            lookups: 0,
            hits: 0,
            by_depth: Vec::new(),
            search_seconds: 0.0,
            move_ms: Vec::new(),
            digest: foldhash::fast::FixedState::with_seed(0).build_hasher(),
        }
    }

    /// Adds a move; `height` is the stack height after it.
    pub(crate) fn add(&mut self, step: &Step, height: u32) {
        self.clears.add(&step.outcome);
        self.max_height = self.max_height.max(height);
        let s = &step.plan.stats;
        self.nodes += s.nodes;
        self.evaluations += s.evaluations;
        self.lookups += s.lookups();
        self.hits += s.hits();
        if self.by_depth.len() < s.depth.len() {
            self.by_depth
                .resize(s.depth.len(), DepthCounters::default());
        }
        for (acc, d) in self.by_depth.iter_mut().zip(&s.depth) {
            acc.lookups += d.lookups;
            acc.hits += d.hits;
        }
        self.search_seconds += s.elapsed.as_secs_f64();
        self.move_ms.push(s.elapsed.as_secs_f64() * 1000.0);
        let p = step.plan.placement;
        for b in [
            p.piece as u8,
            p.rotation as u8,
            p.x as u8,
            p.y as u8,
            p.spin as u8,
            step.plan.uses_hold as u8,
        ] {
            self.digest.write_u8(b);
        }
    }

    pub(crate) fn hit_rate(&self) -> f64 {
        if self.lookups == 0 {
            0.0
        } else {
            self.hits as f64 / self.lookups as f64
        }
    }

    pub(crate) fn nps(&self) -> f64 {
        if self.search_seconds > 0.0 {
            self.nodes as f64 / self.search_seconds
        } else {
            0.0
        }
    }

    pub(crate) fn summary<E: Evaluator>(
        &self,
        engine: &Engine<E>,
        seed: u64,
        totals: &game::Totals,
        seconds: f64,
    ) -> Summary {
        let mut ms = self.move_ms.clone();
        ms.sort_by(f64::total_cmp);
        let median = if ms.is_empty() { 0.0 } else { ms[ms.len() / 2] };
        let tables = engine.tables();
        let (stores, replacements) = table_counts(engine, self.lookups - self.hits);
        let config = engine.config();
        Summary {
            seed,
            pieces: totals.pieces,
            lines: totals.lines,
            attack: totals.attack,
            app: ratio(totals.attack, totals.pieces),
            topped_out: totals.topped_out,
            seconds,
            search_seconds: self.search_seconds,
            pps: if seconds > 0.0 {
                totals.pieces as f64 / seconds
            } else {
                0.0
            },
            nodes: self.nodes,
            nps: self.nps(),
            evaluations: self.evaluations,
            median_move_ms: median,
            memory_bytes: engine.memory_bytes(),
            beam: config.beam_width,
            previews: config.previews,
            cache: config.use_cache,
            moves_digest: format!("{:016x}", self.digest.finish()),
            clears: self.clears.clone(),
            max_height: self.max_height,
            tt: TtSummary {
                bits: tt_core::BITS,
                depths: tables.horizon(),
                entries_per_table: tt_core::ENTRIES,
                bytes: (0..tables.horizon())
                    .map(|d| tables.table_ref(d).bytes())
                    .sum(),
                lookups: self.lookups,
                hits: self.hits,
                stores,
                replacements,
                hit_rate: self.hit_rate(),
                replacement_ratio: replacements.map(|r| ratio(r, stores)),
                by_depth: self
                    .by_depth
                    .iter()
                    .map(|d| DepthSummary {
                        lookups: d.lookups,
                        hits: d.hits,
                        hit_rate: ratio(d.hits, d.lookups),
                    })
                    .collect(),
            },
        }
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

#[cfg(feature = "stats")]
fn table_counts<E: Evaluator>(engine: &Engine<E>, _misses: u64) -> (u64, Option<u64>) {
    let mut total = tt_core::Stats::default();
    for s in engine.tables().stats() {
        total.add(&s);
    }
    (total.stores, Some(total.replacements))
}

#[cfg(not(feature = "stats"))]
fn table_counts<E: Evaluator>(_engine: &Engine<E>, misses: u64) -> (u64, Option<u64>) {
    (misses, None)
}

/// Whether statistics are compiled in.
pub(crate) const STATS: bool = cfg!(feature = "stats");
