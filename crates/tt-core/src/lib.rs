//! The transposition table of tetris-tt: buckets of two slots with a per-bucket LRU marker,
//! sized at compile time by `TETRIS_TT_BITS`.
//!
//! [`Table`] maps 64-bit keys to `Copy` values. It knows nothing about Tetris. Its capacity is
//! [`ENTRIES`] = 2^[`BITS`] slots in [`BUCKETS`] buckets of two. A lookup that hits moves the
//! bucket's marker to the other slot; a store does the same; a miss with both slots full
//! replaces the marked slot. [`Table::probe`] is the usual entry point: it cannot forget to
//! store after a miss.
//!
//! ```
//! use tt_core::Table;
//!
//! let mut table: Table<u32> = Table::new();
//! let mut evaluations = 0;
//! let mut eval = |key: u64| {
//!     evaluations += 1;
//!     (key % 1000) as u32
//! };
//! assert_eq!(table.probe(42, || eval(42)), 42); // miss: evaluated and stored
//! assert_eq!(table.probe(42, || eval(42)), 42); // hit: reused
//! assert_eq!(evaluations, 1);
//! assert_eq!(table.occupancy(), 1);
//! table.clear();
//! assert_eq!(table.occupancy(), 0);
//! ```
//!
//! Lookups and stores take `&self`: several threads share one table without a lock, and what
//! a race can and cannot do is stated on [`Table`]. Values are plain data (`bytemuck::Pod`) of
//! at most 8 bytes.
//!
//! With the cargo feature `stats`, `Table::stats` counts lookups, hits, misses, stores and
//! replacements. Without it the counters (and that method) do not exist.
#![deny(missing_docs)]

mod pages;

pub use pages::{Buckets, HUGE};

use bytemuck::{Pod, Zeroable};
use std::marker::PhantomData;
use std::mem::size_of;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, AtomicUsize};

/// log2 of the number of slots per table, from the `TETRIS_TT_BITS` environment variable at
/// build time (default 15). This crate is the only one that reads the variable; `option_env!`
/// makes cargo rebuild it (and its dependents) when the variable changes.
pub const BITS: u32 = parse_bits(option_env!("TETRIS_TT_BITS"));
/// Slots per table: 2^[`BITS`].
pub const ENTRIES: usize = 1 << BITS;
/// Buckets per table: [`ENTRIES`] / 2.
pub const BUCKETS: usize = ENTRIES / 2;
/// The smallest accepted `TETRIS_TT_BITS` (one bucket).
pub const MIN_BITS: u32 = 1;
/// The largest accepted `TETRIS_TT_BITS`.
pub const MAX_BITS: u32 = 32;
/// The default `TETRIS_TT_BITS`.
pub const DEFAULT_BITS: u32 = 15;

const fn parse_bits(v: Option<&str>) -> u32 {
    let Some(s) = v else {
        return DEFAULT_BITS;
    };
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 2 {
        panic!("TETRIS_TT_BITS must be a whole number from 1 to 32");
    }
    let mut n = 0u32;
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            panic!("TETRIS_TT_BITS must be a whole number from 1 to 32");
        }
        n = n * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    if n < MIN_BITS || n > MAX_BITS {
        panic!("TETRIS_TT_BITS must be a whole number from 1 to 32");
    }
    n
}

/// The stored form of key 0. Zero marks an empty slot, so a real zero key is stored as
/// `ZERO_KEY` instead; the two then share a slot identity, which is as likely to matter as any
/// other 64-bit key collision.
pub const ZERO_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

#[inline(always)]
fn stored(key: u64) -> u64 {
    if key == 0 { ZERO_KEY } else { key }
}

/// Which bucket a key belongs to: the high bits of the key, by multiply-shift ("fastrange"),
/// which works for any bucket count including one. The whole key is stored in the slot, so
/// the bits used here are not lost.
#[inline(always)]
pub fn bucket_of(key: u64) -> usize {
    ((stored(key) as u128 * BUCKETS as u128) >> 64) as usize
}

/// One bucket: two key words, then two value words, 32 bytes aligned to 32, so a bucket
/// never straddles a cache line and two share one.
///
/// ```text
/// +---------------------------+-----------------+-----------+-----------+
/// | check 0 | occ | marker    | check 1 | occ   |  value 0  |  value 1  |
/// +---------------------------+-----------------+-----------+-----------+
/// 0                           8                 16          24          32
/// ```
///
/// A key's top `k = log2(BUCKETS)` bits are its bucket number (multiply-shift), so a key word
/// holds the key shifted left by `k`, XORed with a scrambled copy of the slot's value (the
/// check that rejects a torn entry, see [`Table`]). With `k >= 2` the two low bits are an
/// occupied flag (bit 1) and, in slot 0, the marker (bit 0). Tables of one or two buckets
/// (`TETRIS_TT_BITS` 1 or 2) have no bits to spare: their flags and markers sit in a byte per
/// bucket beside the buckets, and the key words hold the whole key.
#[repr(C, align(32))]
pub struct Bucket {
    words: [AtomicU64; 4],
}

// SAFETY: all-zero bytes are a valid `Bucket`: it is four `AtomicU64`, which have the
// representation of `u64`, and zero is an empty bucket.
unsafe impl Zeroable for Bucket {}

const _: () = assert!(size_of::<Bucket>() == 32);
const _: () = assert!(align_of::<Bucket>() == 32);

/// Bits of a key fixed by its bucket number.
const FIXED: u32 = BUCKETS.trailing_zeros();
/// Whether the key words have room for the flag and the marker.
const FOLDS: bool = FIXED >= 2;
const MARK: u64 = 1;
const OCCUPIED: u64 = 2;
/// The bits of a folded key word that hold neither the flag nor the marker.
const CHECKED: u64 = if FOLDS { !(MARK | OCCUPIED) } else { !0 };

/// A key's top `FIXED` bits, given its bucket number. Written as two shifts so that it also
/// compiles for a one-bucket table (`FIXED` = 0), where one shift by 64 would overflow.
#[inline(always)]
fn bucket_bits(i: usize) -> u64 {
    ((i as u64) << (63 - FIXED)) << 1
}

/// The value's share of a key word: the value word times an odd constant, so that every bit
/// of the value reaches the word's checked bits. A key word written for one value and read
/// beside another then fails the key comparison: the two products would have to agree in
/// every checked bit, which only values whose difference is `d` times the constant's inverse,
/// for `d` = ±1, ±2 or ±3, do (and none at all where the whole word is checked).
#[inline(always)]
fn scramble(value: u64) -> u64 {
    value.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The key word of `key` (stored form, never 0) with `value` beside it, flags clear.
#[inline(always)]
fn key_word(key: u64, value: u64) -> u64 {
    ((key << FIXED) ^ scramble(value)) & CHECKED
}

/// The key a key word holds, given its bucket and the value beside it.
#[inline(always)]
fn key_of(word: u64, value: u64, i: usize) -> u64 {
    bucket_bits(i) | (((word ^ scramble(value)) & CHECKED) >> FIXED)
}

/// A value of at most 8 bytes as a word, its bytes first and the rest zero.
#[inline(always)]
fn to_word<V: Pod>(v: V) -> u64 {
    let mut w = [0u8; 8];
    w[..size_of::<V>()].copy_from_slice(bytemuck::bytes_of(&v));
    u64::from_ne_bytes(w)
}

/// The value [`to_word`] made `w` from.
#[inline(always)]
fn from_word<V: Pod>(w: u64) -> V {
    bytemuck::pod_read_unaligned(&w.to_ne_bytes()[..size_of::<V>()])
}
/// Counters kept with the cargo feature `stats`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Lookups (probes).
    pub lookups: u64,
    /// Lookups that found their key.
    pub hits: u64,
    /// Lookups that did not.
    pub misses: u64,
    /// Values stored.
    pub stores: u64,
    /// Stores that evicted an occupied slot.
    pub replacements: u64,
}

impl Stats {
    /// hits / lookups, 0 when there were none.
    pub fn hit_rate(&self) -> f64 {
        ratio(self.hits, self.lookups)
    }

    /// replacements / stores, 0 when there were none.
    pub fn replacement_ratio(&self) -> f64 {
        ratio(self.replacements, self.stores)
    }

    /// Adds another set of counters to this one.
    pub fn add(&mut self, o: &Stats) {
        self.lookups += o.lookups;
        self.hits += o.hits;
        self.misses += o.misses;
        self.stores += o.stores;
        self.replacements += o.replacements;
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// The transposition table: [`ENTRIES`] slots in [`BUCKETS`] buckets of two. Each bucket
/// has a marker naming the slot to evict next; a hit or a store moves it to the other slot, and
/// a miss with both slots full replaces the marked slot. Key 0 marks an empty slot (see
/// [`ZERO_KEY`]), so all-zero memory is an empty table: a table of any size is allocated as
/// untouched zero pages and costs no time to create.
///
/// # Several threads at once
///
/// [`Table::lookup`], [`Table::probe`] and [`Vacant::insert`] take `&self`: threads probe and
/// store into one table together, without a lock. Every word is an atomic read or written
/// whole (relaxed; on x86-64 a plain load or store), and a key word carries a check of its
/// value, so an entry read while another thread rewrites it either shows one writer's key and
/// value together, or matches no key. What a race can do:
///
/// - A probe never returns a value stored under another key (a stress test races threads on
///   a table of one bucket). A torn entry reads as a miss.
/// - A store can be lost: two threads missing the same bucket may fill the same slot, the
///   later one wins, or a marker moved by a hit can overwrite a store racing into slot 0,
///   leaving that slot matching no key until it is replaced. A lost store costs an
///   evaluation later, never a wrong one.
/// - Markers are moved without a lock, so under a race the slot evicted next may not be the
///   one used longest ago. Eviction changes the work, not the values.
/// - Two threads missing one key both evaluate it (and both store it).
///
/// [`Table::clear`] takes `&mut self`: it runs between searches, when no thread probes.
pub struct Table<V: Pod> {
    buckets: Buckets<Bucket>,
    /// Per bucket of a table too small to fold them into its key words (one or two buckets):
    /// bit 0 the marker, bits 1 and 2 slot 0's and slot 1's occupied flags.
    flags: [AtomicU8; 2],
    /// Buckets that went from empty to occupied since the last clear, while they fit: `clear`
    /// then zeroes just these instead of the whole table. [`TOUCH_LOG`] entries, in
    /// [`TOUCH_SHARDS`] shards of [`SHARD_LOG`], one per thread (see [`log_shard`]).
    touched: Box<[AtomicU32]>,
    /// Per shard, how many first touches it counted since the last clear; past [`SHARD_LOG`]
    /// that shard has overflowed, it counts no further, and `clear` sweeps the whole table.
    touches: Box<[TouchCount]>,
    #[cfg(feature = "stats")]
    stats: Counters,
    _value: PhantomData<V>,
}

/// How many first-touched buckets a table remembers for a cheap `clear`: one in eight. Past
/// that, zeroing the whole table in one sweep is as cheap as visiting the buckets one by one.
pub const TOUCH_LOG: usize = if BUCKETS / 8 > 0 { BUCKETS / 8 } else { 1 };

/// The shards of the touch log: 16 once each can hold 64 buckets, else one.
pub const TOUCH_SHARDS: usize = if TOUCH_LOG >= 16 * 64 { 16 } else { 1 };

/// Shards handed out to threads so far.
static SHARDS_GIVEN: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's shard of every table's touch log, handed out at its first store.
    static LOG_SHARD: usize = SHARDS_GIVEN.fetch_add(1, Relaxed) % TOUCH_SHARDS;
}

/// The touch-log shard of the calling thread. Each thread counts and logs its first touches in
/// a shard of its own (the threads share shards only past [`TOUCH_SHARDS`] of them), so
/// threads storing into one table at once write no line of the log in common: with one count
/// per table, every store of every thread into an empty bucket was an atomic add on the same
/// contended cache line, which cost a search on two threads more than the table saved.
#[inline]
fn log_shard() -> usize {
    LOG_SHARD.with(|s| *s)
}

/// The buckets one shard of the touch log holds.
pub const SHARD_LOG: usize = TOUCH_LOG / TOUCH_SHARDS;

/// One shard's count of first touches, alone on its cache lines (two, for the processors that
/// fetch lines in pairs).
#[derive(Default)]
#[repr(align(128))]
struct TouchCount(AtomicUsize);

/// The free or marked slot a miss will fill. Store into it with [`Vacant::insert`].
#[must_use = "a miss must be followed by a store: call insert"]
pub struct Vacant<'a, V: Pod> {
    table: &'a Table<V>,
    bucket: usize,
    slot: usize,
    key: u64,
    /// Whether the bucket was empty when the miss looked at it.
    empty: bool,
}

impl<V: Pod> Vacant<'_, V> {
    /// Stores `value` under the missed key (evicting the marked slot's entry if both were
    /// full) and moves the marker to the other slot. Returns `value`.
    #[inline(always)]
    pub fn insert(self, value: V) -> V {
        let t = self.table;
        #[cfg(feature = "stats")]
        {
            Counters::add(&t.stats.stores);
            if t.occupied(self.bucket)[self.slot] {
                Counters::add(&t.stats.replacements);
            }
        }
        if self.empty {
            t.log_touch(self.bucket);
        }
        t.write(self.bucket, self.slot, self.key, to_word(value));
        value
    }

    /// The slot (0 or 1) the store will go to.
    pub fn slot(&self) -> usize {
        self.slot
    }

    /// Whether the store will evict an entry.
    pub fn evicts(&self) -> bool {
        self.table.occupied(self.bucket)[self.slot]
    }
}

/// One bucket's contents, for inspection and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BucketView<V> {
    /// The key and value of each slot, `None` when empty.
    pub slots: [Option<(u64, V)>; 2],
    /// The slot to evict next.
    pub marker: usize,
}

impl<V: Pod> Default for Table<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Pod> Table<V> {
    /// A value is kept in one 8-byte word.
    const VALUE_FITS: () = assert!(size_of::<V>() <= 8, "a table's values are 8 bytes at most");

    /// An empty table of [`ENTRIES`] slots.
    pub fn new() -> Self {
        let () = Self::VALUE_FITS;
        Table {
            buckets: Buckets::zeroed(BUCKETS),
            flags: Default::default(),
            touched: (0..TOUCH_LOG).map(|_| AtomicU32::new(0)).collect(),
            touches: (0..TOUCH_SHARDS).map(|_| TouchCount::default()).collect(),
            #[cfg(feature = "stats")]
            stats: Counters::default(),
            _value: PhantomData,
        }
    }

    /// Bucket `i`'s words: key 0, key 1, value 0, value 1.
    #[inline(always)]
    fn words(&self, i: usize) -> [u64; 4] {
        self.buckets[i].words.each_ref().map(|w| w.load(Relaxed))
    }

    /// Which slots of bucket `i` are occupied.
    #[inline(always)]
    fn occupied(&self, i: usize) -> [bool; 2] {
        if FOLDS {
            let w = self.words(i);
            [w[0] & OCCUPIED != 0, w[1] & OCCUPIED != 0]
        } else {
            let f = self.flags[i].load(Relaxed);
            [f & 2 != 0, f & 4 != 0]
        }
    }

    /// The marker of bucket `i`.
    #[inline(always)]
    fn marker(&self, i: usize) -> usize {
        if FOLDS {
            (self.buckets[i].words[0].load(Relaxed) & MARK) as usize
        } else {
            (self.flags[i].load(Relaxed) & MARK as u8) as usize
        }
    }

    /// Points bucket `i`'s marker at `slot`. Written only when it changes, and without a lock:
    /// racing a store into slot 0, it may undo that store (see the type's docs).
    #[inline(always)]
    fn set_marker(&self, i: usize, slot: usize) {
        if FOLDS {
            let w = &self.buckets[i].words[0];
            let old = w.load(Relaxed);
            let new = (old & !MARK) | slot as u64;
            if new != old {
                w.store(new, Relaxed);
            }
        } else {
            let f = &self.flags[i];
            let old = f.load(Relaxed);
            f.store((old & !1) | slot as u8, Relaxed);
        }
    }

    /// Writes `key` (stored form) and `value` into bucket `i`'s `slot` and points the marker
    /// at the other slot: the value first, then the key word that checks it.
    #[inline(always)]
    fn write(&self, i: usize, slot: usize, key: u64, value: u64) {
        let words = &self.buckets[i].words;
        words[2 + slot].store(value, Relaxed);
        let word = key_word(key, value);
        if FOLDS {
            // Slot 0's word carries the marker: a store there names slot 1 next.
            let flags = if slot == 0 { OCCUPIED | MARK } else { OCCUPIED };
            words[slot].store(word | flags, Relaxed);
            if slot == 1 {
                self.set_marker(i, 0);
            }
        } else {
            words[slot].store(word, Relaxed);
            let f = &self.flags[i];
            let occupied = (f.load(Relaxed) | (2 << slot)) & !1;
            f.store(occupied | (1 - slot) as u8, Relaxed);
        }
    }

    /// The slot of bucket `i` holding `key` (stored form), with its value, if any.
    #[inline(always)]
    fn find(&self, i: usize, key: u64) -> Option<(usize, u64)> {
        let w = self.words(i);
        if FOLDS {
            (0..2).find_map(|s| {
                (w[s] & !MARK == key_word(key, w[2 + s]) | OCCUPIED).then_some((s, w[2 + s]))
            })
        } else {
            let occupied = self.occupied(i);
            (0..2).find_map(|s| {
                (occupied[s] && w[s] == key_word(key, w[2 + s])).then_some((s, w[2 + s]))
            })
        }
    }

    /// Notes that bucket `i` was empty before a store.
    #[inline]
    fn log_touch(&self, i: usize) {
        let shard = log_shard();
        let count = &self.touches[shard].0;
        // Past its log, a shard stops counting: `clear` sweeps the whole table then anyway,
        // and a count only read stays in every core's cache.
        if count.load(Relaxed) > SHARD_LOG {
            return;
        }
        let n = count.fetch_add(1, Relaxed);
        if n < SHARD_LOG {
            self.touched[shard * SHARD_LOG + n].store(i as u32, Relaxed);
        }
    }

    /// Looks `key` up. A hit returns the value and moves the marker to the other slot. A miss
    /// returns the slot to fill: the first free one, else the marked one.
    #[inline(always)]
    pub fn lookup(&self, key: u64) -> Result<V, Vacant<'_, V>> {
        let key = stored(key);
        let i = bucket_of(key);
        #[cfg(feature = "stats")]
        Counters::add(&self.stats.lookups);
        if let Some((s, v)) = self.find(i, key) {
            self.set_marker(i, 1 - s);
            #[cfg(feature = "stats")]
            Counters::add(&self.stats.hits);
            return Ok(from_word(v));
        }
        #[cfg(feature = "stats")]
        Counters::add(&self.stats.misses);
        let occupied = self.occupied(i);
        let slot = if !occupied[0] {
            0
        } else if !occupied[1] {
            1
        } else {
            self.marker(i)
        };
        Err(Vacant {
            table: self,
            bucket: i,
            slot,
            key,
            empty: occupied == [false, false],
        })
    }

    /// Asks the processor to bring `key`'s bucket into its cache, so that a lookup a little
    /// later does not wait for memory. Only a hint: it changes nothing, and does nothing on
    /// processors without a prefetch instruction.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let _addr: *const Bucket = &self.buckets[bucket_of(stored(key))];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `_mm_prefetch` only needs SSE, which every x86-64 processor has; a prefetch
        // never faults and never changes memory, and the address is inside our own bucket
        // array anyway. It pays because it hides the probe's miss to memory (docs/decisions.md).
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(_addr.cast());
        }
    }

    /// Returns the value for `key`, computing and storing it with `evaluate` on a miss.
    #[inline]
    pub fn probe(&self, key: u64, evaluate: impl FnOnce() -> V) -> V {
        match self.lookup(key) {
            Ok(v) => v,
            Err(vacant) => vacant.insert(evaluate()),
        }
    }

    /// Empties every slot and resets every marker to slot 0. Statistics are kept. The cost is
    /// proportional to the buckets used since the last clear while each thread's shard of the
    /// touch log ([`SHARD_LOG`] of them) holds that thread's first stores; past that it is one
    /// sweep of the whole table. Never allocates.
    pub fn clear(&mut self) {
        if self.touches.iter_mut().any(|c| *c.0.get_mut() > SHARD_LOG) {
            self.buckets.fill_with(Bucket::zeroed);
        } else {
            let logs = self.touched.chunks_exact_mut(SHARD_LOG);
            for (count, log) in self.touches.iter_mut().zip(logs) {
                for entry in &mut log[..*count.0.get_mut()] {
                    self.buckets[*entry.get_mut() as usize] = Bucket::zeroed();
                }
            }
        }
        self.flags = Default::default();
        self.touches.iter_mut().for_each(|c| *c.0.get_mut() = 0);
    }

    /// The number of slots: [`ENTRIES`].
    pub fn capacity(&self) -> usize {
        ENTRIES
    }

    /// The exact number of heap bytes this table owns (buckets and the touch log).
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(&*self.buckets)
            + std::mem::size_of_val(&*self.touched)
            + std::mem::size_of_val(&*self.touches)
    }

    /// The number of occupied slots. Walks the whole table.
    pub fn occupancy(&self) -> usize {
        (0..BUCKETS)
            .map(|i| self.occupied(i).into_iter().filter(|&o| o).count())
            .sum()
    }

    /// The contents of bucket `i` (keys as stored: a zero key shows as [`ZERO_KEY`]).
    pub fn bucket(&self, i: usize) -> BucketView<V> {
        let w = self.words(i);
        let occupied = self.occupied(i);
        let slot = |s: usize| occupied[s].then(|| (key_of(w[s], w[2 + s], i), from_word(w[2 + s])));
        BucketView {
            slots: [slot(0), slot(1)],
            marker: self.marker(i),
        }
    }

    /// Every occupied slot's key and value, bucket by bucket.
    pub fn entries(&self) -> impl Iterator<Item = (u64, V)> + '_ {
        (0..BUCKETS).flat_map(move |i| self.bucket(i).slots.into_iter().flatten())
    }

    /// The counters since creation or the last [`Table::reset_stats`].
    #[cfg(feature = "stats")]
    pub fn stats(&self) -> Stats {
        self.stats.read()
    }

    /// Zeroes the counters.
    #[cfg(feature = "stats")]
    pub fn reset_stats(&mut self) {
        self.stats = Counters::default();
    }
}

/// The counters behind [`Stats`], shared by the threads that probe a table.
#[cfg(feature = "stats")]
#[derive(Default)]
struct Counters {
    lookups: AtomicU64,
    hits: AtomicU64,
    misses: AtomicU64,
    stores: AtomicU64,
    replacements: AtomicU64,
}

#[cfg(feature = "stats")]
impl Counters {
    #[inline]
    fn add(c: &AtomicU64) {
        c.fetch_add(1, Relaxed);
    }

    fn read(&self) -> Stats {
        Stats {
            lookups: self.lookups.load(Relaxed),
            hits: self.hits.load(Relaxed),
            misses: self.misses.load(Relaxed),
            stores: self.stores.load(Relaxed),
            replacements: self.replacements.load(Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_in_range_and_consistent() {
        assert!((MIN_BITS..=MAX_BITS).contains(&BITS));
        assert_eq!(ENTRIES, 2 * BUCKETS);
    }

    #[test]
    fn parse_accepts_the_range() {
        assert_eq!(parse_bits(None), 15);
        assert_eq!(parse_bits(Some("1")), 1);
        assert_eq!(parse_bits(Some("28")), 28);
    }

    #[test]
    #[should_panic(expected = "TETRIS_TT_BITS")]
    fn parse_rejects_zero() {
        parse_bits(Some("0"));
    }

    #[test]
    #[should_panic(expected = "TETRIS_TT_BITS")]
    fn parse_rejects_junk() {
        parse_bits(Some("1x"));
    }
}
