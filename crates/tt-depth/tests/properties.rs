//! Laws of the per-depth stack on random contents.

use proptest::prelude::*;
use tt_depth::{DepthTables, Transition};

type Stack = DepthTables<u64, u32>;

fn keys_at(tt: &Stack, depth: usize) -> Vec<u64> {
    let mut k: Vec<u64> = tt.table_ref(depth).entries().map(|(k, _)| k).collect();
    k.sort_unstable();
    k
}

/// Random keys stored at random depths (the table may evict some: the laws are about what is
/// actually stored).
fn fill(tt: &mut Stack, stores: &[(usize, u64)]) {
    for &(d, k) in stores {
        let d = d % tt.horizon();
        tt.table(d).probe(k, || k ^ 0xff);
    }
}

/// Horizons to try: up to 6, but at most 2 above 24 bits, where each written table takes
/// gigabytes.
fn horizons() -> std::ops::Range<usize> {
    if tt_core::BITS > 24 { 1..3 } else { 1..7 }
}

/// Moves per case: every matched move clears a table, which is gigabytes above 24 bits.
fn move_counts() -> std::ops::Range<usize> {
    if tt_core::BITS > 24 { 1..4 } else { 1..20 }
}

fn config() -> ProptestConfig {
    // Walking every table is slow at large TETRIS_TT_BITS; fewer cases there.
    ProptestConfig::with_cases(if tt_core::BITS > 16 { 12 } else { 128 })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_matched_rotation_moves_every_depth_up_one(
        horizon in horizons(),
        stores in prop::collection::vec((0usize..6, 1u64..u64::MAX), 0..60),
        board in any::<u32>(),
    ) {
        let mut tt = Stack::new(horizon);
        tt.begin(&board);
        fill(&mut tt, &stores);
        let before: Vec<Vec<u64>> = (0..horizon).map(|d| keys_at(&tt, d)).collect();
        tt.predict(board.wrapping_add(1));
        prop_assert_eq!(tt.begin(&board.wrapping_add(1)), Transition::Rotated);
        for d in 0..horizon - 1 {
            prop_assert_eq!(&keys_at(&tt, d), &before[d + 1], "depth {}", d);
            // Found by lookups too, with their values.
            for &k in &before[d + 1] {
                prop_assert_eq!(tt.table(d).lookup(k).ok(), Some(k ^ 0xff));
            }
        }
        prop_assert_eq!(tt.table_ref(horizon - 1).occupancy(), 0, "deepest table is empty");
    }

    #[test]
    fn a_mismatch_or_a_reset_empties_everything(
        horizon in horizons(),
        stores in prop::collection::vec((0usize..6, 1u64..u64::MAX), 1..60),
        board in any::<u32>(),
        other in any::<u32>(),
        reset in any::<bool>(),
    ) {
        prop_assume!(board != other);
        let mut tt = Stack::new(horizon);
        tt.begin(&board);
        fill(&mut tt, &stores);
        tt.predict(board);
        if reset {
            tt.reset();
            prop_assert_eq!(tt.prediction(), None);
            prop_assert_eq!(tt.begin(&board), Transition::Fresh);
        } else {
            prop_assert_eq!(tt.begin(&other), Transition::Cleared);
        }
        for d in 0..horizon {
            prop_assert_eq!(tt.table_ref(d).occupancy(), 0, "depth {}", d);
            for &(_, k) in &stores {
                prop_assert!(tt.table(d).lookup(k).is_err());
            }
        }
    }

    #[test]
    fn the_same_root_keeps_every_table_and_the_prediction(
        horizon in horizons(),
        stores in prop::collection::vec((0usize..6, 1u64..u64::MAX), 1..60),
        board in any::<u32>(),
        next in any::<u32>(),
    ) {
        prop_assume!(board != next);
        let mut tt = Stack::new(horizon);
        tt.begin(&board);
        fill(&mut tt, &stores);
        let before: Vec<Vec<u64>> = (0..horizon).map(|d| keys_at(&tt, d)).collect();
        tt.predict(next);
        prop_assert_eq!(tt.begin(&board), Transition::Kept);
        for (d, keys) in before.iter().enumerate() {
            prop_assert_eq!(&keys_at(&tt, d), keys, "depth {}", d);
        }
        prop_assert_eq!(tt.prediction(), Some(&next));
        prop_assert_eq!(tt.begin(&next), Transition::Rotated);
    }

    /// A search interrupted before it predicts leaves the prediction (now the root) in place:
    /// what comes next is a mismatch, not a fresh start.
    #[test]
    fn an_unpredicted_search_keeps_the_prediction(
        horizon in horizons(),
        board in any::<u32>(),
        next in any::<u32>(),
        garbage in any::<u32>(),
    ) {
        prop_assume!(board != next && next != garbage && board != garbage);
        let mut tt = Stack::new(horizon);
        tt.begin(&board);
        tt.predict(next);
        prop_assert_eq!(tt.begin(&next), Transition::Rotated);
        // No predict here: the search was interrupted.
        prop_assert_eq!(tt.begin(&next), Transition::Kept);
        prop_assert_eq!(tt.begin(&garbage), Transition::Cleared);
    }

    #[test]
    fn rotations_keep_the_byte_count(
        horizon in horizons(),
        moves in prop::collection::vec((any::<bool>(), any::<u64>()), move_counts()),
    ) {
        let mut tt = Stack::new(horizon);
        let bytes = tt.bytes();
        prop_assert_eq!(bytes >= horizon * tt_core::BUCKETS * 32, true);
        let mut board = 0u32;
        for (matched, key) in moves {
            tt.begin(&board);
            tt.table(0).probe(key, || 1);
            let next = board + 1;
            tt.predict(next);
            board = if matched { next } else { next + 1000 };
            prop_assert_eq!(tt.bytes(), bytes);
        }
    }
}

#[cfg(feature = "stats")]
#[test]
fn stats_stay_with_their_depth_across_rotations() {
    let mut tt = Stack::new(2);
    tt.begin(&0);
    tt.table(1).probe(5, || 5); // depth 1: one miss
    tt.predict(1);
    tt.begin(&1);
    tt.table(0).probe(5, || 5); // depth 0: one hit (the table came from depth 1)
    let s = tt.stats();
    assert_eq!((s[0].lookups, s[0].hits), (1, 1));
    assert_eq!((s[1].lookups, s[1].misses), (1, 1));
}
