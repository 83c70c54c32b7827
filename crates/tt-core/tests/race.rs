//! Threads racing on one table: a lookup never returns a value stored under another key.
//!
//! Every key has one right value, `value_of(key)`, and all the keys share one or two buckets,
//! so stores, hits (which move the marker in slot 0's word) and evictions of one bucket
//! interleave across threads all the time. A torn entry (one thread's key word beside
//! another's value) must read as a miss.

use std::sync::Barrier;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use tt_core::{Table, bucket_of};

const THREADS: usize = 8;
const ROUNDS: u64 = 200_000;

/// Keys whose high bits are equal (the bucket comes from them) and whose low bits differ.
fn key(n: u64) -> u64 {
    (0x5a5a << 48) | (n * 0x0001_0000_0001)
}

/// The only value `key` is ever stored with. Values of different keys differ in many bits.
fn value_of(key: u64) -> u64 {
    key.rotate_left(17) ^ 0xdead_beef_0bad_cafe
}

#[test]
fn a_lookup_never_returns_another_keys_value() {
    let keys: Vec<u64> = (1..=12).map(key).collect();
    assert!(
        keys.iter().all(|&k| bucket_of(k) == bucket_of(keys[0])),
        "the keys share one bucket"
    );
    let table = Table::<u64>::new();
    let hits = AtomicU64::new(0);
    let start = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for t in 0..THREADS as u64 {
            let (table, keys, hits, start) = (&table, &keys, &hits, &start);
            s.spawn(move || {
                start.wait();
                let mut state = t.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                let mut found = 0;
                for _ in 0..ROUNDS {
                    // xorshift: each thread its own order of keys.
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let k = keys[(state % keys.len() as u64) as usize];
                    match table.lookup(k) {
                        Ok(v) => {
                            assert_eq!(v, value_of(k), "key {k:#x} returned another key's value");
                            found += 1;
                        }
                        Err(vacant) => {
                            vacant.insert(value_of(k));
                        }
                    }
                }
                hits.fetch_add(found, Relaxed);
            });
        }
    });
    // Twelve keys in two slots: most lookups miss, but enough hit for the check to mean
    // something.
    let hits = hits.into_inner();
    assert!(hits > ROUNDS / 20, "only {hits} hits");
}

/// Threads storing into one table at once each log their first touches in a shard of their
/// own; `clear` must zero what every shard logged (a few stores a thread, so each log holds
/// them all), and the whole table once a shard overflows (many stores a thread).
#[test]
fn clear_empties_a_table_every_thread_stored_into() {
    let mut table = Table::<u64>::new();
    for per_thread in [
        (tt_core::SHARD_LOG / 4).max(1) as u64,
        4 * tt_core::SHARD_LOG as u64,
    ] {
        let start = Barrier::new(THREADS);
        std::thread::scope(|s| {
            for t in 0..THREADS as u64 {
                let (table, start) = (&table, &start);
                s.spawn(move || {
                    start.wait();
                    for n in 0..per_thread {
                        let k = (t * per_thread + n + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        table.probe(k, || value_of(k));
                    }
                });
            }
        });
        assert!(table.occupancy() > 0);
        table.clear();
        assert_eq!(table.occupancy(), 0, "{per_thread} stores a thread");
    }
}
