//! Properties of move generation, line clears, the roof and the hash on random boards.

mod common;

use board::{Board, HEIGHT, Piece, Rules, Spawn, WIDTH, count, generate};
use proptest::collection::vec;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashSet};

/// Random cells below a random height: many holes and overhangs.
fn noisy() -> impl Strategy<Value = Board> {
    (0usize..=16).prop_flat_map(|h| {
        vec(any::<bool>(), WIDTH * h).prop_map(move |cells| {
            let mut cols = [0u64; WIDTH];
            for (i, &c) in cells.iter().enumerate() {
                if c {
                    cols[i % WIDTH] |= 1 << (i / WIDTH);
                }
            }
            Board::from_columns(cols)
        })
    })
}

/// A ragged skyline with holes punched under it, and ledges over the top (overhangs).
fn ragged(max_height: u32) -> impl Strategy<Value = Board> {
    (
        vec(0..=max_height, WIDTH),
        vec((0..WIDTH, 0..max_height.max(1)), 0..10),
        vec((0..WIDTH, 0..max_height + 4, 1usize..4), 0..4),
    )
        .prop_map(|(heights, holes, ledges)| {
            let mut cols = [0u64; WIDTH];
            for (x, &h) in heights.iter().enumerate() {
                cols[x] = (1u64 << h) - 1;
            }
            for (x, y) in holes {
                cols[x] &= !(1u64 << y);
            }
            for (x, y, len) in ledges {
                for c in cols.iter_mut().skip(x).take(len) {
                    *c |= 1 << y;
                }
            }
            Board::from_columns(cols)
        })
}

/// A skyline with no overhang at all (the shortcut that skips the flood), up to just past
/// the height where the shortcut stops.
fn surface() -> impl Strategy<Value = Board> {
    vec(0u32..=19, WIDTH).prop_map(|heights| {
        let cols: [u64; WIDTH] = std::array::from_fn(|x| (1u64 << heights[x]) - 1);
        Board::from_columns(cols)
    })
}

fn boards() -> impl Strategy<Value = Board> {
    prop_oneof![
        noisy(),
        surface(),
        ragged(8),
        ragged(14),
        // Tall: spawn may be blocked or pushed up a row.
        ragged(22),
    ]
}

fn rules() -> impl Strategy<Value = Rules> {
    prop_oneof![Just(Rules::Srs), Just(Rules::SrsPlus)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// On a board without overhangs, placements come one per (orientation, column) in the
    /// order orientation, then column, exactly as the breadth-first reference finds them.
    #[test]
    fn surface_boards_give_the_reference_placements_in_flood_order(
        board in surface(),
        rules in rules(),
    ) {
        for piece in Piece::ALL {
            let got = generate(&board, piece, rules);
            let keys: BTreeSet<common::Key> = got.iter().map(common::key_of).collect();
            prop_assert_eq!(&keys, &common::reference(&board, piece, rules), "{}", piece);
            if piece != Piece::T {
                let order: Vec<(u8, i8)> = got.iter().map(|p| (p.rotation as u8, p.x)).collect();
                let mut sorted = order.clone();
                sorted.sort();
                sorted.dedup();
                prop_assert_eq!(order, sorted, "{}", piece);
            }
        }
    }
}

fn piece() -> impl Strategy<Value = Piece> {
    (0usize..7).prop_map(|i| Piece::ALL[i])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn placements_are_in_bounds_free_and_resting(board in boards(), rules in rules()) {
        for piece in Piece::ALL {
            let ps = generate(&board, piece, rules);
            let mut keys = HashSet::new();
            for p in &ps {
                let pos = p.position();
                prop_assert!(pos.fits(&board), "{p:?} overlaps or leaves the board");
                prop_assert!(pos.is_resting(&board), "{p:?} can move down");
                for (x, y) in p.cells() {
                    prop_assert!((0..WIDTH as i8).contains(&x) && (0..HEIGHT as i8).contains(&y));
                }
                prop_assert_eq!(p.canonical(), *p, "placements come in canonical orientation");
                prop_assert!(keys.insert(common::key_of(p)), "{p:?} listed twice");
            }
        }
    }

    #[test]
    fn placements_equal_the_breadth_first_reference(board in boards(), rules in rules()) {
        for piece in Piece::ALL {
            let fast: BTreeSet<_> = generate(&board, piece, rules).iter().map(common::key_of).collect();
            let slow = common::reference(&board, piece, rules);
            let missing: Vec<_> = slow.difference(&fast).collect();
            let extra: Vec<_> = fast.difference(&slow).collect();
            prop_assert!(
                missing.is_empty() && extra.is_empty(),
                "{piece:?} {rules:?}\n{board}missing {missing:?}\nextra {extra:?}"
            );
        }
    }

    /// `generate` reuses one set of flood arrays per thread on open boards: over a run of
    /// boards (open and closed) and pieces in any order, nothing an earlier call left in them
    /// leaks into a later list.
    #[test]
    fn generation_in_a_run_lists_the_reference_placements(
        runs in vec((boards(), piece(), rules()), 1..8),
    ) {
        for (board, piece, rules) in runs {
            let fast: BTreeSet<_> = generate(&board, piece, rules).iter().map(common::key_of).collect();
            let slow = common::reference(&board, piece, rules);
            prop_assert_eq!(fast, slow, "{:?} {:?}\n{}", piece, rules, board);
        }
    }

    #[test]
    fn count_is_the_number_of_reference_placements(
        board in boards(),
        rules in rules(),
        rise in any::<bool>(),
    ) {
        let spawn = if rise { Spawn::Rise } else { Spawn::NoRise };
        for piece in Piece::ALL {
            let slow = common::reference_spawning(&board, piece, rules, rise);
            let by_cells: BTreeSet<_> = slow.iter().map(|(cells, _)| cells.clone()).collect();
            prop_assert_eq!(
                count(&board, piece, rules, spawn, false) as usize,
                by_cells.len(),
                "{:?} {:?} rise {}\n{}", piece, rules, rise, board
            );
            prop_assert_eq!(
                count(&board, piece, rules, spawn, true) as usize,
                slow.len(),
                "{:?} {:?} rise {} with spins\n{}", piece, rules, rise, board
            );
        }
    }

    /// One `Counter` reused over a run of boards (open and closed, with and without
    /// overhangs) and pieces in any order counts exactly what `count` counts: nothing an
    /// earlier board left in its arrays leaks into a later count.
    #[test]
    fn a_reused_counter_counts_what_count_counts(
        runs in vec((boards(), piece(), rules(), any::<bool>(), any::<bool>()), 1..12),
    ) {
        let mut counter = board::Counter::new();
        for (board, piece, rules, rise, spins) in runs {
            let spawn = if rise { Spawn::Rise } else { Spawn::NoRise };
            prop_assert_eq!(
                counter.count(&board, piece, rules, spawn, spins),
                count(&board, piece, rules, spawn, spins),
                "{:?} {:?} rise {} spins {}\n{}", piece, rules, rise, spins, board
            );
        }
    }

    #[test]
    fn t_reach_is_the_reference_reachable_set(board in boards(), rules in rules()) {
        let reach = board::t_reach(&board, rules);
        let mut fast = BTreeSet::new();
        for (r, by_x) in reach.iter().enumerate() {
            for (x, &rows) in by_x.iter().enumerate() {
                for y in 0..HEIGHT as i32 {
                    if rows >> y & 1 != 0 {
                        fast.insert((r, x as i32, y));
                    }
                }
            }
        }
        prop_assert_eq!(fast, common::reachable(&board, Piece::T, rules), "{:?}\n{}", rules, board);
    }

    #[test]
    fn full_tspin_rows_are_the_full_spins_generate_lists(board in boards(), rules in rules()) {
        let mut listed = [[0u64; WIDTH]; 4];
        for p in generate(&board, Piece::T, rules) {
            if p.spin == board::Spin::Full {
                listed[p.rotation as usize][p.x as usize] |= 1 << p.y;
            }
        }
        prop_assert_eq!(board::full_tspin_rows(&board, rules), listed, "{:?}\n{}", rules, board);
    }

    #[test]
    fn input_sequences_replay_to_their_placement(board in boards(), rules in rules(), piece in piece()) {
        for p in generate(&board, piece, rules) {
            let inputs = p.inputs(&board, rules);
            prop_assert!(inputs.is_some(), "{p:?} has no input sequence");
            let inputs = inputs.unwrap();
            let got = common::replay(&board, piece, rules, &inputs);
            prop_assert_eq!(got, Some(common::key_of(&p)), "{:?} via {:?}", p, inputs);
        }
    }

    #[test]
    fn roof_stays_exact_through_placements_and_clears(
        start in ragged(10),
        choices in vec((piece(), any::<prop::sample::Index>(), 0..WIDTH, 0u32..3), 1..40),
    ) {
        let mut board = start;
        for (piece, which, hole, garbage) in choices {
            let ps = generate(&board, piece, Rules::Srs);
            if ps.is_empty() {
                break;
            }
            let p = ps[which.index(ps.len())];
            let before = board.cell_count();
            let cleared = board.place(p.piece, p.rotation, p.x as i32, p.y as i32);
            prop_assert_eq!(board.cell_count() + cleared.count_ones() * WIDTH as u32, before + 4);
            prop_assert_eq!(board.full_rows(), 0);
            prop_assert_eq!(board.roof(), naive_roof(&board));
            board.push_garbage(hole, garbage);
            prop_assert_eq!(board.roof(), naive_roof(&board));
            if board.clear_lines() != 0 {
                prop_assert_eq!(board.roof(), naive_roof(&board));
            }
        }
    }

    #[test]
    fn equal_boards_hash_alike_built_two_ways(board in boards()) {
        // Cell by cell, and through the text round trip.
        let mut rebuilt = Board::new();
        for x in 0..WIDTH {
            for y in 0..HEIGHT {
                if board.occupied(x as i32, y as i32) {
                    rebuilt.set(x, y);
                }
            }
        }
        prop_assert_eq!(rebuilt, board);
        prop_assert_eq!(rebuilt.hash64(), board.hash64());
        let reparsed: Board = board.to_string().parse().unwrap();
        prop_assert_eq!(reparsed, board);
        prop_assert_eq!(reparsed.hash64(), board.hash64());
    }

    #[test]
    fn distinct_boards_hash_differently(a in boards(), b in boards(), x in 0..WIDTH, y in 0..20usize) {
        if a != b {
            prop_assert_ne!(a.hash64(), b.hash64());
        }
        // A one-cell difference too.
        let mut c = a;
        if !c.occupied(x as i32, y as i32) {
            c.set(x, y);
            prop_assert_ne!(c.hash64(), a.hash64());
        }
    }
}

fn naive_roof(board: &Board) -> u32 {
    (0..HEIGHT as i32)
        .filter(|&y| (0..WIDTH as i32).any(|x| board.occupied(x, y)))
        .map(|y| y as u32 + 1)
        .max()
        .unwrap_or(0)
}
