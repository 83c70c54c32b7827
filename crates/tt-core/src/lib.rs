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
//! With the cargo feature `stats`, `Table::stats` counts lookups, hits, misses, stores and
//! replacements. Without it the counters (and that method) do not exist.
#![deny(missing_docs)]

mod pages;

pub use pages::{Buckets, HUGE};

use bitvec::prelude::{BitVec, Lsb0};
use bytemuck::Zeroable;
use std::marker::PhantomData;
use std::mem::size_of;

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

/// Two slots, keys first, for the [`Packed`] layout (the marker lives in a bit array).
///
/// ```text
/// Bucket<V> with an 8-byte V: 32 bytes, two to a 64-byte cache line
/// +-----------+-----------+-----------+-----------+
/// | key 0 u64 | key 1 u64 |  value 0  |  value 1  |
/// +-----------+-----------+-----------+-----------+
/// 0           8           16          24          32
/// ```
/// Keys first, so a probe compares both keys from the first 16 bytes; aligned to 32 bytes so a
/// bucket never straddles a cache line when `V` is at most 8 bytes.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub struct Bucket<V> {
    keys: [u64; 2],
    values: [V; 2],
}

// SAFETY: all-zero bytes are a valid `Bucket<V>` when they are a valid `V`: keys are plain
// integers and padding carries no validity requirement.
unsafe impl<V: Zeroable> Zeroable for Bucket<V> {}

const _: () = assert!(size_of::<Bucket<u64>>() == 32);
const _: () = assert!(align_of::<Bucket<u64>>() == 32);
const _: () = assert!(size_of::<Bucket<[f32; 2]>>() == 32);

/// A bucket with its marker byte inside, for the [`InBucket`] layout: 8-byte aligned, so with
/// an 8-byte `V` it is 40 bytes and some buckets straddle two cache lines.
///
/// ```text
/// +-----------+-----------+-----------+-----------+----+---------+
/// | key 0 u64 | key 1 u64 |  value 0  |  value 1  | mk | padding |
/// +-----------+-----------+-----------+-----------+----+---------+
/// 0           8           16          24          32   33        40
/// ```
#[derive(Clone, Copy)]
#[repr(C)]
pub struct MarkedBucket<V> {
    keys: [u64; 2],
    values: [V; 2],
    marker: u8,
}

// SAFETY: as for `Bucket`; a zero marker names slot 0.
unsafe impl<V: Zeroable> Zeroable for MarkedBucket<V> {}

const _: () = assert!(size_of::<MarkedBucket<u64>>() == 40);

/// Where the per-bucket markers live. The three layouts behave identically; they differ in
/// speed and bytes. The default is [`Folded`]: 32-byte buckets, one cache line per probe, and
/// no separate marker array. `InBucket`'s 40-byte buckets sometimes straddle two cache lines,
/// and `Packed`'s markers sit in a second array, a second line per probe (the measurements:
/// docs/decisions.md).
pub trait Layout<V: Copy + Zeroable>: private::Sealed {
    #[doc(hidden)]
    type Store;
    #[doc(hidden)]
    fn alloc(buckets: usize) -> Self::Store;
    #[doc(hidden)]
    fn keys(s: &Self::Store, i: usize) -> [u64; 2];
    /// The slot of bucket `i` holding `key` (a stored key, never 0), if any.
    #[doc(hidden)]
    #[inline(always)]
    fn find(s: &Self::Store, i: usize, key: u64) -> Option<usize> {
        slot_of(Self::keys(s, i), key)
    }
    /// Which slots of bucket `i` are occupied.
    #[doc(hidden)]
    #[inline(always)]
    fn occupied(s: &Self::Store, i: usize) -> [bool; 2] {
        Self::keys(s, i).map(|k| k != 0)
    }
    #[doc(hidden)]
    fn value(s: &Self::Store, i: usize, slot: usize) -> V;
    #[doc(hidden)]
    fn write(s: &mut Self::Store, i: usize, slot: usize, key: u64, value: V);
    #[doc(hidden)]
    fn marker(s: &Self::Store, i: usize) -> usize;
    #[doc(hidden)]
    fn set_marker(s: &mut Self::Store, i: usize, slot: usize);
    #[doc(hidden)]
    fn clear(s: &mut Self::Store);
    #[doc(hidden)]
    fn clear_bucket(s: &mut Self::Store, i: usize);
    #[doc(hidden)]
    fn bytes(s: &Self::Store) -> usize;
    #[doc(hidden)]
    fn bucket_addr(s: &Self::Store, i: usize) -> *const u8;
}

/// The slot whose word equals `key`, slot 0 first.
#[inline(always)]
fn slot_of(words: [u64; 2], key: u64) -> Option<usize> {
    if words[0] == key {
        Some(0)
    } else if words[1] == key {
        Some(1)
    } else {
        None
    }
}

mod private {
    pub trait Sealed {}
    impl Sealed for super::Packed {}
    impl Sealed for super::InBucket {}
    impl Sealed for super::Folded {}
}

/// Markers in a packed bit array (bitvec), one bit per bucket; buckets stay 32 bytes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Packed;

/// The marker as a byte inside each bucket ([`MarkedBucket`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct InBucket;

impl<V: Copy + Zeroable> Layout<V> for Packed {
    type Store = (Buckets<Bucket<V>>, BitVec<u64, Lsb0>);
    fn alloc(buckets: usize) -> Self::Store {
        (Buckets::zeroed(buckets), BitVec::repeat(false, buckets))
    }
    #[inline(always)]
    fn keys(s: &Self::Store, i: usize) -> [u64; 2] {
        s.0[i].keys
    }
    #[inline(always)]
    fn value(s: &Self::Store, i: usize, slot: usize) -> V {
        s.0[i].values[slot]
    }
    #[inline(always)]
    fn write(s: &mut Self::Store, i: usize, slot: usize, key: u64, value: V) {
        let b = &mut s.0[i];
        b.keys[slot] = key;
        b.values[slot] = value;
    }
    #[inline(always)]
    fn marker(s: &Self::Store, i: usize) -> usize {
        s.1[i] as usize
    }
    #[inline(always)]
    fn set_marker(s: &mut Self::Store, i: usize, slot: usize) {
        s.1.set(i, slot != 0);
    }
    fn clear(s: &mut Self::Store) {
        s.0.fill(Bucket::zeroed());
        s.1.fill(false);
    }
    #[inline(always)]
    fn clear_bucket(s: &mut Self::Store, i: usize) {
        s.0[i] = Bucket::zeroed();
        s.1.set(i, false);
    }
    fn bytes(s: &Self::Store) -> usize {
        std::mem::size_of_val(&*s.0) + std::mem::size_of_val(s.1.as_raw_slice())
    }
    #[inline(always)]
    fn bucket_addr(s: &Self::Store, i: usize) -> *const u8 {
        (&s.0[i] as *const Bucket<V>).cast()
    }
}

impl<V: Copy + Zeroable> Layout<V> for InBucket {
    type Store = Buckets<MarkedBucket<V>>;
    fn alloc(buckets: usize) -> Self::Store {
        Buckets::zeroed(buckets)
    }
    #[inline(always)]
    fn keys(s: &Self::Store, i: usize) -> [u64; 2] {
        s[i].keys
    }
    #[inline(always)]
    fn value(s: &Self::Store, i: usize, slot: usize) -> V {
        s[i].values[slot]
    }
    #[inline(always)]
    fn write(s: &mut Self::Store, i: usize, slot: usize, key: u64, value: V) {
        let b = &mut s[i];
        b.keys[slot] = key;
        b.values[slot] = value;
    }
    #[inline(always)]
    fn marker(s: &Self::Store, i: usize) -> usize {
        s[i].marker as usize
    }
    #[inline(always)]
    fn set_marker(s: &mut Self::Store, i: usize, slot: usize) {
        s[i].marker = slot as u8;
    }
    fn clear(s: &mut Self::Store) {
        s.fill(MarkedBucket::zeroed());
    }
    #[inline(always)]
    fn clear_bucket(s: &mut Self::Store, i: usize) {
        s[i] = MarkedBucket::zeroed();
    }
    fn bytes(s: &Self::Store) -> usize {
        std::mem::size_of_val(&**s)
    }
    #[inline(always)]
    fn bucket_addr(s: &Self::Store, i: usize) -> *const u8 {
        (&s[i] as *const MarkedBucket<V>).cast()
    }
}

/// The marker folded into a key word: 32-byte, 32-aligned buckets (one cache line each, two
/// to a line) and nothing else.
///
/// A key's top `k = log2(BUCKETS)` bits are its bucket number (multiply-shift), so a slot
/// stores the key shifted left by `k` bits and nothing is lost. With `k >= 2` the two low bits
/// freed are an occupied flag (bit 1, so every stored key is non-zero) and, in slot 0, the
/// marker (bit 0). Tables of one or two buckets (`TETRIS_TT_BITS` 1 or 2) have no bits to spare:
/// their markers sit beside the buckets and slots hold the plain key.
///
/// ```text
/// +------------------------+-------------------+-----------+-----------+
/// | key 0 << k | occ | mk  | key 1 << k | occ  |  value 0  |  value 1  |
/// +------------------------+-------------------+-----------+-----------+
/// 0                        8                   16          24          32
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Folded;

/// Bits of a key fixed by its bucket number.
const FIXED: u32 = BUCKETS.trailing_zeros();
/// Whether the key words have room for the flag and the marker.
const FOLDS: bool = FIXED >= 2;
const MARK: u64 = 1;
const OCCUPIED: u64 = 2;

/// A key's top `FIXED` bits, given its bucket number. Written as two shifts so that it also
/// compiles for a one-bucket table (`FIXED` = 0), where one shift by 64 would overflow; it is
/// only called where the key words fold (`FIXED >= 2`).
#[inline(always)]
fn bucket_bits(i: usize) -> u64 {
    ((i as u64) << (63 - FIXED)) << 1
}

impl<V: Copy + Zeroable> Layout<V> for Folded {
    /// The buckets, and the markers of tables too small to fold them.
    type Store = (Buckets<Bucket<V>>, [u8; 2]);
    fn alloc(buckets: usize) -> Self::Store {
        (Buckets::zeroed(buckets), [0; 2])
    }
    #[inline(always)]
    fn keys(s: &Self::Store, i: usize) -> [u64; 2] {
        let w = s.0[i].keys;
        if !FOLDS {
            return w;
        }
        w.map(|w| {
            if w & OCCUPIED == 0 {
                0
            } else {
                bucket_bits(i) | ((w & !(MARK | OCCUPIED)) >> FIXED)
            }
        })
    }
    /// Compares the probe's key in its stored form (shifted, flagged occupied) with the
    /// words as they are, the marker bit masked off: no key is decoded.
    #[inline(always)]
    fn find(s: &Self::Store, i: usize, key: u64) -> Option<usize> {
        let w = s.0[i].keys;
        let k = if FOLDS {
            (key << FIXED) | OCCUPIED
        } else {
            key
        };
        let w = if FOLDS { w.map(|w| w & !MARK) } else { w };
        slot_of(w, k)
    }
    #[inline(always)]
    fn occupied(s: &Self::Store, i: usize) -> [bool; 2] {
        let w = s.0[i].keys;
        if FOLDS {
            w.map(|w| w & OCCUPIED != 0)
        } else {
            w.map(|w| w != 0)
        }
    }
    #[inline(always)]
    fn value(s: &Self::Store, i: usize, slot: usize) -> V {
        s.0[i].values[slot]
    }
    #[inline(always)]
    fn write(s: &mut Self::Store, i: usize, slot: usize, key: u64, value: V) {
        let b = &mut s.0[i];
        b.keys[slot] = if FOLDS {
            (key << FIXED) | OCCUPIED | (b.keys[slot] & MARK)
        } else {
            key
        };
        b.values[slot] = value;
    }
    #[inline(always)]
    fn marker(s: &Self::Store, i: usize) -> usize {
        if FOLDS {
            (s.0[i].keys[0] & MARK) as usize
        } else {
            s.1[i] as usize
        }
    }
    #[inline(always)]
    fn set_marker(s: &mut Self::Store, i: usize, slot: usize) {
        if FOLDS {
            let w = &mut s.0[i].keys[0];
            *w = (*w & !MARK) | slot as u64;
        } else {
            s.1[i] = slot as u8;
        }
    }
    fn clear(s: &mut Self::Store) {
        s.0.fill(Bucket::zeroed());
        s.1 = [0; 2];
    }
    #[inline(always)]
    fn clear_bucket(s: &mut Self::Store, i: usize) {
        s.0[i] = Bucket::zeroed();
        if !FOLDS {
            s.1[i] = 0;
        }
    }
    fn bytes(s: &Self::Store) -> usize {
        std::mem::size_of_val(&*s.0)
    }
    #[inline(always)]
    fn bucket_addr(s: &Self::Store, i: usize) -> *const u8 {
        (&s.0[i] as *const Bucket<V>).cast()
    }
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

/// The transposition table: 2^[`BITS`] slots of `(u64 key, V)` in buckets of two.
///
/// Replacement is the seed's two-slot LRU, not Stockfish's depth-and-age scheme: each bucket
/// has a marker naming the slot to evict next; a hit or a store moves it to the other slot, and
/// a miss with both slots full replaces the marked slot. Key 0 marks an empty slot (see
/// [`ZERO_KEY`]), so all-zero memory is an empty table: a table of any size is allocated as
/// untouched zero pages and costs no time to create.
pub struct Table<V: Copy + Zeroable, L: Layout<V> = Folded> {
    store: L::Store,
    /// Buckets that went from empty to occupied since the last clear, while they fit: `clear`
    /// then zeroes just these instead of the whole table. Capacity [`TOUCH_LOG`], fixed.
    touched: Vec<u32>,
    /// More buckets were touched than the log holds: `clear` sweeps the whole table.
    overflowed: bool,
    #[cfg(feature = "stats")]
    stats: Stats,
    _layout: PhantomData<L>,
}

/// How many first-touched buckets a table remembers for a cheap `clear`: one in eight. Past
/// that, zeroing the whole table in one sweep is as cheap as visiting the buckets one by one.
pub const TOUCH_LOG: usize = if BUCKETS / 8 > 0 { BUCKETS / 8 } else { 1 };

/// The free or marked slot a miss will fill. Store into it with [`Vacant::insert`].
#[must_use = "a miss must be followed by a store: call insert"]
pub struct Vacant<'a, V: Copy + Zeroable, L: Layout<V>> {
    table: &'a mut Table<V, L>,
    bucket: usize,
    slot: usize,
    key: u64,
}

impl<V: Copy + Zeroable, L: Layout<V>> Vacant<'_, V, L> {
    /// Stores `value` under the missed key (evicting the marked slot's entry if both were
    /// full) and moves the marker to the other slot. Returns `value`.
    #[inline]
    pub fn insert(self, value: V) -> V {
        let t = self.table;
        #[cfg(feature = "stats")]
        {
            t.stats.stores += 1;
            if L::occupied(&t.store, self.bucket)[self.slot] {
                t.stats.replacements += 1;
            }
        }
        if L::occupied(&t.store, self.bucket) == [false, false] {
            // First store into this bucket since the last clear.
            if t.touched.len() < t.touched.capacity() {
                t.touched.push(self.bucket as u32);
            } else {
                t.overflowed = true;
            }
        }
        L::write(&mut t.store, self.bucket, self.slot, self.key, value);
        L::set_marker(&mut t.store, self.bucket, 1 - self.slot);
        value
    }

    /// The slot (0 or 1) the store will go to.
    pub fn slot(&self) -> usize {
        self.slot
    }

    /// Whether the store will evict an entry.
    pub fn evicts(&self) -> bool {
        L::keys(&self.table.store, self.bucket)[self.slot] != 0
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

impl<V: Copy + Zeroable, L: Layout<V>> Default for Table<V, L> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Copy + Zeroable, L: Layout<V>> Table<V, L> {
    /// An empty table of [`ENTRIES`] slots.
    pub fn new() -> Self {
        Table {
            store: L::alloc(BUCKETS),
            touched: Vec::with_capacity(TOUCH_LOG),
            overflowed: false,
            #[cfg(feature = "stats")]
            stats: Stats::default(),
            _layout: PhantomData,
        }
    }

    /// Looks `key` up. A hit returns the value and moves the marker to the other slot. A miss
    /// returns the slot to fill: the first free one, else the marked one.
    #[inline]
    pub fn lookup(&mut self, key: u64) -> Result<V, Vacant<'_, V, L>> {
        let key = stored(key);
        let i = bucket_of(key);
        #[cfg(feature = "stats")]
        {
            self.stats.lookups += 1;
        }
        if let Some(s) = L::find(&self.store, i, key) {
            let v = L::value(&self.store, i, s);
            L::set_marker(&mut self.store, i, 1 - s);
            #[cfg(feature = "stats")]
            {
                self.stats.hits += 1;
            }
            return Ok(v);
        }
        #[cfg(feature = "stats")]
        {
            self.stats.misses += 1;
        }
        let occupied = L::occupied(&self.store, i);
        let slot = if !occupied[0] {
            0
        } else if !occupied[1] {
            1
        } else {
            L::marker(&self.store, i)
        };
        Err(Vacant {
            table: self,
            bucket: i,
            slot,
            key,
        })
    }

    /// Asks the processor to bring `key`'s bucket into its cache, so that a lookup a little
    /// later does not wait for memory. Only a hint: it changes nothing, and does nothing on
    /// processors without a prefetch instruction.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let _addr = L::bucket_addr(&self.store, bucket_of(stored(key)));
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
    pub fn probe(&mut self, key: u64, evaluate: impl FnOnce() -> V) -> V {
        match self.lookup(key) {
            Ok(v) => v,
            Err(vacant) => vacant.insert(evaluate()),
        }
    }

    /// Empties every slot and resets every marker to slot 0. Statistics are kept. The cost is
    /// proportional to the buckets used since the last clear while they are at most one in
    /// eight ([`TOUCH_LOG`]); past that it is one sweep of the whole table. Never allocates.
    pub fn clear(&mut self) {
        if self.overflowed {
            L::clear(&mut self.store);
        } else {
            for &i in &self.touched {
                L::clear_bucket(&mut self.store, i as usize);
            }
        }
        self.touched.clear();
        self.overflowed = false;
    }

    /// The number of slots: [`ENTRIES`].
    pub fn capacity(&self) -> usize {
        ENTRIES
    }

    /// The exact number of heap bytes this table owns (buckets, markers and the touch log).
    pub fn bytes(&self) -> usize {
        L::bytes(&self.store) + self.touched.capacity() * size_of::<u32>()
    }

    /// The number of occupied slots. Walks the whole table.
    pub fn occupancy(&self) -> usize {
        (0..BUCKETS)
            .map(|i| {
                let keys = L::keys(&self.store, i);
                (keys[0] != 0) as usize + (keys[1] != 0) as usize
            })
            .sum()
    }

    /// The contents of bucket `i` (keys as stored: a zero key shows as [`ZERO_KEY`]).
    pub fn bucket(&self, i: usize) -> BucketView<V> {
        let keys = L::keys(&self.store, i);
        let slot = |s: usize| (keys[s] != 0).then(|| (keys[s], L::value(&self.store, i, s)));
        BucketView {
            slots: [slot(0), slot(1)],
            marker: L::marker(&self.store, i),
        }
    }

    /// Every occupied slot's key and value, bucket by bucket.
    pub fn entries(&self) -> impl Iterator<Item = (u64, V)> + '_ {
        (0..BUCKETS).flat_map(move |i| self.bucket(i).slots.into_iter().flatten())
    }

    /// The counters since creation or the last [`Table::reset_stats`].
    #[cfg(feature = "stats")]
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Zeroes the counters.
    #[cfg(feature = "stats")]
    pub fn reset_stats(&mut self) {
        self.stats = Stats::default();
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
