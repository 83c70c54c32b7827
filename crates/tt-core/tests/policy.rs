//! The replacement policy, case by case.

use tt_core::{BUCKETS, Table, ZERO_KEY, bucket_of};

// Keys 1, 2 and 3 share bucket 0 at every TETRIS_TT_BITS: the bucket comes from the high bits.
const A: u64 = 1;
const B: u64 = 2;
const C: u64 = 3;

fn miss_then_store(t: &mut Table<u32>, key: u64, v: u32) -> usize {
    match t.lookup(key) {
        Ok(_) => panic!("{key} should miss"),
        Err(vacant) => {
            let slot = vacant.slot();
            vacant.insert(v);
            slot
        }
    }
}

#[test]
fn hit_in_slot_0() {
    let mut t = Table::<u32>::new();
    assert_eq!(bucket_of(A), bucket_of(B));
    assert_eq!(miss_then_store(&mut t, A, 10), 0);
    assert_eq!(miss_then_store(&mut t, B, 20), 1);
    assert_eq!(
        t.bucket(0).marker,
        0,
        "store into slot 1 moves the marker to slot 0"
    );
    assert_eq!(t.lookup(A).ok(), Some(10));
    assert_eq!(
        t.bucket(0).marker,
        1,
        "a hit in slot 0 moves the marker to slot 1"
    );
}

#[test]
fn hit_in_slot_1() {
    let mut t = Table::<u32>::new();
    miss_then_store(&mut t, A, 10);
    miss_then_store(&mut t, B, 20);
    assert_eq!(t.lookup(A).ok(), Some(10));
    assert_eq!(t.bucket(0).marker, 1);
    assert_eq!(t.lookup(B).ok(), Some(20));
    assert_eq!(
        t.bucket(0).marker,
        0,
        "a hit in slot 1 moves the marker to slot 0"
    );
}

#[test]
fn fill_a_free_slot() {
    let t = Table::<u32>::new();
    match t.lookup(A) {
        Ok(_) => panic!("empty table hit"),
        Err(v) => {
            assert_eq!(v.slot(), 0);
            assert!(!v.evicts());
            v.insert(10);
        }
    }
    assert_eq!(
        t.bucket(0).marker,
        1,
        "a store into slot 0 moves the marker to slot 1"
    );
    match t.lookup(B) {
        Ok(_) => panic!("B was never stored"),
        Err(v) => {
            assert_eq!(v.slot(), 1, "the free slot is used, not the marked one");
            assert!(!v.evicts());
            v.insert(20);
        }
    }
    assert_eq!(t.occupancy(), 2);
}

#[test]
fn replace_the_marked_slot() {
    let mut t = Table::<u32>::new();
    miss_then_store(&mut t, A, 10);
    miss_then_store(&mut t, B, 20);
    // A was used last, so B (slot 1) is the one to evict.
    assert_eq!(t.lookup(A).ok(), Some(10));
    match t.lookup(C) {
        Ok(_) => panic!("C was never stored"),
        Err(v) => {
            assert_eq!(v.slot(), 1);
            assert!(v.evicts());
            v.insert(30);
        }
    }
    assert_eq!(t.lookup(B).map_err(|_| ()), Err(()), "B was evicted");
    assert_eq!(t.lookup(A).ok(), Some(10));
    assert_eq!(t.lookup(C).ok(), Some(30));
    assert_eq!(t.occupancy(), 2);
}

#[test]
fn clear_resets_entries_and_markers() {
    let mut t = Table::<u32>::new();
    miss_then_store(&mut t, A, 10);
    assert_eq!(t.bucket(0).marker, 1);
    t.clear();
    assert_eq!(t.occupancy(), 0);
    assert_eq!(t.bucket(0).marker, 0);
    assert_eq!(t.bucket(0).slots, [None, None]);
    assert!(t.lookup(A).is_err());
}

#[test]
fn zero_key_is_storable() {
    let t = Table::<u32>::new();
    assert_eq!(t.probe(0, || 7), 7);
    assert_eq!(t.probe(0, || 99), 7, "key 0 is found again");
    assert_eq!(t.occupancy(), 1);
    assert_eq!(t.entries().collect::<Vec<_>>(), vec![(ZERO_KEY, 7)]);
}

/// Clearing after a few stores zeroes just those buckets; after many, the whole table. Both
/// leave it empty.
#[test]
fn clear_after_few_and_many_stores() {
    let mut t = Table::<u32>::new();
    for round in [1u64, 3 * tt_core::TOUCH_LOG as u64] {
        for k in 1..=round {
            t.probe(k.wrapping_mul(0x9e37_79b9_7f4a_7c15), || k as u32);
        }
        assert!(t.occupancy() > 0);
        t.clear();
        assert_eq!(t.occupancy(), 0, "after {round} stores");
        for b in 0..BUCKETS.min(64) {
            assert_eq!(t.bucket(b).marker, 0);
        }
    }
}

#[test]
fn probe_evaluates_only_on_a_miss() {
    let t = Table::<u32>::new();
    let mut calls = 0;
    for _ in 0..3 {
        t.probe(A, || {
            calls += 1;
            5
        });
    }
    assert_eq!(calls, 1);
}

#[test]
fn bytes_are_exact() {
    let log = tt_core::TOUCH_LOG * 4 + tt_core::TOUCH_SHARDS * 128;
    assert_eq!(Table::<u64>::new().bytes(), BUCKETS * 32 + log);
}

#[test]
fn a_single_bucket_table_still_works() {
    // With TETRIS_TT_BITS=1 every key lands in bucket 0; otherwise keys spread out. Either way
    // each bucket must end up holding exactly the last two distinct keys sent to it, with
    // their own values, and every other key must be gone.
    let t = Table::<u32>::new();
    let keys: Vec<u64> = (1..=100u64).map(|k| k.rotate_right(7)).collect();
    for (i, &k) in keys.iter().enumerate() {
        t.probe(k, || i as u32);
    }
    let mut expected: Vec<(u64, u32)> = Vec::new();
    for b in 0..BUCKETS {
        let sent: Vec<(u64, u32)> = keys
            .iter()
            .enumerate()
            .filter(|&(_, &k)| bucket_of(k) == b)
            .map(|(i, &k)| (k, i as u32))
            .collect();
        expected.extend(&sent[sent.len().saturating_sub(2)..]);
    }
    let mut kept: Vec<(u64, u32)> = t.entries().collect();
    kept.sort_unstable();
    expected.sort_unstable();
    assert_eq!(kept, expected);
    if BUCKETS == 1 {
        assert_eq!(kept.len(), 2);
        assert!(kept.contains(&(keys[98], 98)) && kept.contains(&(keys[99], 99)));
    }
    // The evicted keys miss (and are stored again).
    let evicted = keys
        .iter()
        .find(|k| !kept.iter().any(|(s, _)| s == *k))
        .copied();
    if let Some(k) = evicted {
        assert!(t.lookup(k).is_err(), "{k} was evicted");
    } else {
        // Nothing was evicted: only possible when the table has room for every key.
        assert!(
            2 * BUCKETS >= keys.len(),
            "{BUCKETS} buckets cannot hold 100 keys"
        );
    }
}

#[cfg(feature = "stats")]
#[test]
fn stats_count_hits_misses_stores_and_replacements() {
    let mut t = Table::<u32>::new();
    t.probe(A, || 1); // miss, store
    t.probe(A, || 1); // hit
    t.probe(B, || 2); // miss, store
    t.probe(C, || 3); // miss, store, replacement
    let s = t.stats();
    assert_eq!(
        (s.lookups, s.hits, s.misses, s.stores, s.replacements),
        (4, 1, 3, 3, 1)
    );
    assert_eq!(s.hit_rate(), 0.25);
    assert!((s.replacement_ratio() - 1.0 / 3.0).abs() < 1e-12);
    t.reset_stats();
    assert_eq!(t.stats(), tt_core::Stats::default());
}
