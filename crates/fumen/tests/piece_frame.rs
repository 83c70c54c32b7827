//! Fumen stores some orientations of I, O, S and Z one cell away from the rotation centre of
//! the `board` (TBP) frame. The mapping, checked both ways on every piece and orientation.

use board::{Piece, Rotation};
use fumen::{Field, Page, PiecePlace, decode, encode, from_stored, to_stored};
use proptest::prelude::*;

fn placements() -> impl Strategy<Value = PiecePlace> {
    (0usize..7, 0usize..4, 0i8..10, 0i8..23)
        .prop_map(|(p, r, x, y)| PiecePlace {
            piece: Piece::ALL[p],
            rotation: Rotation::ALL[r],
            x,
            y,
        })
        .prop_filter("inside the field", PiecePlace::in_field)
}

fn sorted(mut c: [(i8, i8); 4]) -> [(i8, i8); 4] {
    c.sort();
    c
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Stored and back is the identity, and so is a whole string.
    #[test]
    fn the_mapping_round_trips(p in placements()) {
        let (x, y) = to_stored(&p);
        prop_assert_eq!(from_stored(p.piece, p.rotation, x, y), p);
        let pages = vec![Page::new(Field::default(), Some(p))];
        let back = decode(&encode(&pages)).unwrap();
        prop_assert_eq!(back[0].piece, Some(p));
    }

    /// What fumen stores is always a cell of the piece (its centre for T, J and L; the top-left
    /// cell for O), and orientations that cover the same cells store the same position.
    #[test]
    fn the_stored_position_is_a_cell_shared_by_twins(p in placements()) {
        let stored = to_stored(&p);
        prop_assert!(p.cells().contains(&stored), "{:?} stores {:?}", p, stored);
        if matches!(p.piece, Piece::T | Piece::J | Piece::L) {
            prop_assert_eq!(stored, (p.x, p.y));
        }
        if p.piece == Piece::O {
            let top_left = p.cells().iter().copied().min_by_key(|&(x, y)| (x, -y)).unwrap();
            prop_assert_eq!(stored, top_left);
        }
        for r in Rotation::ALL {
            for dx in -2..=2 {
                for dy in -2..=2 {
                    let twin = PiecePlace { rotation: r, x: p.x + dx, y: p.y + dy, ..p };
                    if twin.in_field() && sorted(twin.cells()) == sorted(p.cells()) {
                        prop_assert_eq!(to_stored(&twin), stored, "{:?} and {:?}", p, twin);
                    }
                }
            }
        }
    }

    /// A locked piece fills exactly its cells (the `board` frame's) on the next page.
    #[test]
    fn a_locked_piece_fills_its_own_cells(p in placements()) {
        // One page with the piece, then a page that changes nothing ("vh": no field change,
        // "A": no repeat, "AgH": no piece), which shows what the first page left.
        let s = encode(&[Page::new(Field::default(), Some(p))]);
        let next = decode(&(s + "vhAAgH")).unwrap();
        prop_assert_eq!(next.len(), 2);
        let board = next[1].field.board();
        let mut filled = Vec::new();
        for y in 0..23 {
            for x in 0..10 {
                if board.occupied(x, y) {
                    filled.push((x as i8, y as i8));
                }
            }
        }
        // Full rows would clear; a single piece never fills a row.
        prop_assert_eq!(sorted(filled.try_into().unwrap()), sorted(p.cells()));
    }
}
