//! One transposition table per search depth, carried from one search to the next.
//!
//! [`DepthTables`] holds a [`tt_core::Table`] for each depth of the search horizon. After the
//! engine picks a move it records the position it expects next with
//! [`DepthTables::predict`]. The next search starts with [`DepthTables::begin`]: if the
//! observed position equals the prediction, what was depth d+1 is now depth d, so the tables
//! rotate by one and only the vacated deepest table is cleared; if it is the position the
//! last search began from (the same root searched again), every table is kept as it is;
//! otherwise every table is cleared. It is generic over the position type (anything `Eq +
//! Clone`) and knows nothing about Tetris.
//!
//! ```
//! use tt_depth::{DepthTables, Transition};
//!
//! let mut tt: DepthTables<u32, &str> = DepthTables::new(3);
//! assert_eq!(tt.begin(&"board A"), Transition::Fresh);
//! tt.table(1).probe(7, || 70); // a position two plies ahead
//! tt.predict("board B");
//! assert_eq!(tt.begin(&"board B"), Transition::Rotated);
//! assert_eq!(tt.table(0).lookup(7).ok(), Some(70)); // one ply closer now
//! tt.predict("board C");
//! assert_eq!(tt.begin(&"board B"), Transition::Kept); // the same root again
//! assert_eq!(tt.table(0).lookup(7).ok(), Some(70));
//! assert_eq!(tt.begin(&"garbage arrived"), Transition::Cleared);
//! assert!(tt.table(0).lookup(7).is_err());
//! ```
#![deny(missing_docs)]

use bytemuck::Pod;
use std::collections::VecDeque;
use std::fmt::Write;
use tt_core::Table;

/// What [`DepthTables::begin`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transition {
    /// There was no prediction: the search starts with empty tables.
    Fresh,
    /// The observed position matched the prediction: depth d+1 became depth d and the deepest
    /// table was cleared.
    Rotated,
    /// The observed position differed from the prediction: every table was cleared.
    Cleared,
    /// The observed position is the one the last search began from: every table was kept as
    /// it was, and the prediction too.
    Kept,
}

struct Slot<V: Pod> {
    table: Table<V>,
    /// A name that travels with the table through rotations (A, B, C, ...), for rendering.
    id: usize,
}

/// The per-depth stack of tables with its prediction. See the crate documentation.
///
/// Invariants: there is exactly one table per depth of the horizon; `begin` never allocates
/// (a rotation moves one table from the front of a ring to the back and clears it); only
/// `new` and a growing `set_horizon` allocate tables.
pub struct DepthTables<V: Pod, P: Eq + Clone> {
    slots: VecDeque<Slot<V>>,
    prediction: Option<P>,
    /// The position the last `begin` observed.
    root: Option<P>,
    next_id: usize,
    /// Table ids by depth before the last `begin`, and what it did: for [`Self::render`].
    before: Vec<usize>,
    last: Option<Transition>,
    rotations: u64,
    clears: u64,
    #[cfg(feature = "stats")]
    depth_stats: Vec<tt_core::Stats>,
}

impl<V: Pod, P: Eq + Clone> DepthTables<V, P> {
    /// `horizon` empty tables (at least one), and no prediction.
    pub fn new(horizon: usize) -> Self {
        let mut t = DepthTables {
            slots: VecDeque::new(),
            prediction: None,
            root: None,
            next_id: 0,
            before: Vec::new(),
            last: None,
            rotations: 0,
            clears: 0,
            #[cfg(feature = "stats")]
            depth_stats: Vec::new(),
        };
        t.set_horizon(horizon);
        t
    }

    /// The number of depths (tables).
    pub fn horizon(&self) -> usize {
        self.slots.len()
    }

    /// Changes the number of depths. Growing adds empty tables at the deep end (this
    /// allocates); shrinking drops the deepest tables. The tables that stay keep their
    /// contents and their depths, and the prediction is kept. A horizon of 0 is taken as 1.
    pub fn set_horizon(&mut self, horizon: usize) {
        let horizon = horizon.max(1);
        self.slots.truncate(horizon);
        while self.slots.len() < horizon {
            self.slots.push_back(Slot {
                table: Table::new(),
                id: self.next_id,
            });
            self.next_id += 1;
        }
        // Size the layout buffer now so `begin` never grows it.
        self.before
            .reserve(horizon.saturating_sub(self.before.len()));
        #[cfg(feature = "stats")]
        self.depth_stats.resize(horizon, tt_core::Stats::default());
    }

    /// Prepares the tables for a search from `observed`; see [`Transition`]. The prediction
    /// stays until [`Self::predict`] replaces it or [`Self::reset`] forgets it (a search that
    /// is interrupted before it predicts leaves it as it was; once the tables have rotated to
    /// it, it is the root, and the same root again keeps the tables).
    pub fn begin(&mut self, observed: &P) -> Transition {
        self.remember_layout();
        #[cfg(feature = "stats")]
        self.harvest_stats();
        if self.root.as_ref() == Some(observed) {
            self.last = Some(Transition::Kept);
            return Transition::Kept;
        }
        self.root = Some(observed.clone());
        let t = match &self.prediction {
            Some(p) if p == observed => {
                self.slots.rotate_left(1);
                if let Some(deepest) = self.slots.back_mut() {
                    deepest.table.clear();
                }
                self.rotations += 1;
                Transition::Rotated
            }
            Some(_) => {
                self.clear_all();
                Transition::Cleared
            }
            None => {
                self.clear_all();
                Transition::Fresh
            }
        };
        self.last = Some(t);
        t
    }

    /// Records the position expected at the next [`Self::begin`].
    pub fn predict(&mut self, expected: P) {
        self.prediction = Some(expected);
    }

    /// The recorded prediction, if any.
    pub fn prediction(&self) -> Option<&P> {
        self.prediction.as_ref()
    }

    /// Clears every table and forgets the prediction and the last root (a new game).
    pub fn reset(&mut self) {
        self.remember_layout();
        self.prediction = None;
        self.root = None;
        self.clear_all();
        self.last = None;
    }

    /// Notes which table sits at which depth, reusing the buffer (no allocation per move).
    fn remember_layout(&mut self) {
        self.before.clear();
        self.before.extend(self.slots.iter().map(|s| s.id));
    }

    fn clear_all(&mut self) {
        for s in &mut self.slots {
            s.table.clear();
        }
        self.clears += 1;
    }

    /// The table for `depth` (0 = the current piece). Panics past the horizon.
    #[inline]
    pub fn table(&mut self, depth: usize) -> &mut Table<V> {
        &mut self.slots[depth].table
    }

    /// The table for `depth`, read-only.
    pub fn table_ref(&self, depth: usize) -> &Table<V> {
        &self.slots[depth].table
    }

    /// How many searches began with a rotation.
    pub fn rotations(&self) -> u64 {
        self.rotations
    }

    /// How many times every table was cleared (mismatch, no prediction or reset).
    pub fn clears(&self) -> u64 {
        self.clears
    }

    /// The exact heap bytes of all tables and of this stack's own buffers.
    pub fn bytes(&self) -> usize {
        self.slots.iter().map(|s| s.table.bytes()).sum::<usize>()
            + self.slots.capacity() * std::mem::size_of::<Slot<V>>()
            + self.before.capacity() * std::mem::size_of::<usize>()
            + self.stats_bytes()
    }

    #[cfg(feature = "stats")]
    fn stats_bytes(&self) -> usize {
        self.depth_stats.capacity() * std::mem::size_of::<tt_core::Stats>()
    }

    #[cfg(not(feature = "stats"))]
    fn stats_bytes(&self) -> usize {
        0
    }

    #[cfg(feature = "stats")]
    fn harvest_stats(&mut self) {
        for (d, s) in self.slots.iter_mut().enumerate() {
            self.depth_stats[d].add(&s.table.stats());
            s.table.reset_stats();
        }
    }

    /// Table counters by depth (not by table: counts stay with the depth they were made at
    /// when tables rotate), since creation.
    #[cfg(feature = "stats")]
    pub fn stats(&self) -> Vec<tt_core::Stats> {
        self.slots
            .iter()
            .zip(&self.depth_stats)
            .map(|(s, acc)| {
                let mut total = *acc;
                total.add(&s.table.stats());
                total
            })
            .collect()
    }

    /// The stack as text, one line per depth, with the keys each table holds (sorted) and
    /// where the table was before the last `begin`:
    ///
    /// ```text
    /// depth 0 [ table B ] keys {2}   was depth 1
    /// depth 1 [ table A ] keys {}    cleared, was depth 0
    /// ```
    ///
    /// This format is part of the public contract: snapshot tests may depend on it. It walks
    /// every table, so it is for tests and debugging.
    pub fn render(&self) -> String {
        let mut out = String::new();
        match self.last {
            Some(t) => writeln!(out, "last begin: {t:?}").unwrap(),
            None => writeln!(out, "last begin: none").unwrap(),
        }
        let rows: Vec<(String, String)> = self
            .slots
            .iter()
            .enumerate()
            .map(|(d, s)| {
                let mut keys: Vec<u64> = s.table.entries().map(|(k, _)| k).collect();
                keys.sort_unstable();
                let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
                let left = format!(
                    "depth {d} [ table {} ] keys {{{}}}",
                    table_name(s.id),
                    keys.join(", ")
                );
                let was = self.before.iter().position(|&id| id == s.id);
                let right = match (was, self.last) {
                    (None, _) => "new".to_string(),
                    // The table that left depth 0 went to the back and was cleared.
                    (Some(0), Some(Transition::Rotated)) => "cleared, was depth 0".to_string(),
                    (Some(w), Some(Transition::Rotated)) => format!("was depth {w}"),
                    (Some(w), Some(Transition::Kept)) if w == d => "kept".to_string(),
                    (Some(w), _) if w == d => "cleared".to_string(),
                    (Some(w), _) => format!("cleared, was depth {w}"),
                };
                (left, right)
            })
            .collect();
        let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
        for (l, r) in rows {
            writeln!(out, "{l:width$}   {r}").unwrap();
        }
        out
    }
}

fn table_name(id: usize) -> String {
    let letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    if id < letters.len() {
        (letters[id] as char).to_string()
    } else {
        format!("#{id}")
    }
}
