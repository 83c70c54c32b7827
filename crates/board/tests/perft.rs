//! perft: the placement tree's leaf counts, against published counts and against a perft
//! written on the slow breadth-first reference generator.

mod common;

use board::{Board, Perft, PerftOptions, Piece, Rules, Spawn, perft};
use std::collections::BTreeSet;

fn queue(s: &str) -> Vec<Piece> {
    s.chars().map(|c| Piece::from_char(c).unwrap()).collect()
}

fn no_rise() -> PerftOptions {
    PerftOptions {
        spawn: Spawn::NoRise,
        threads: 2,
        ..PerftOptions::default()
    }
}

fn fast(q: &str, opts: &PerftOptions) -> Perft {
    perft(&Board::new(), &queue(q), opts, |_, _| {})
}

/// perft on the reference generator, distinct by cells: the slow, obvious count.
fn slow(board: &Board, q: &[Piece], rise: bool) -> u64 {
    let by_cells: BTreeSet<Vec<(i32, i32)>> =
        common::reference_spawning(board, q[0], Rules::Srs, rise)
            .into_iter()
            .map(|(cells, _)| cells)
            .collect();
    if q.len() == 1 {
        return by_cells.len() as u64;
    }
    by_cells
        .iter()
        .map(|cells| {
            let mut b = *board;
            for &(x, y) in cells {
                b.set(x as usize, y as usize);
            }
            b.clear_lines();
            slow(&b, &q[1..], rise)
        })
        .sum()
}

/// Published by the fastest open generator (no rise): depth 6 of IIIIII.
#[test]
fn perft_iiiiii_depth_6_is_33_325_345() {
    let p = fast("IIIIII", &no_rise());
    assert_eq!(p.leaves, 33_325_345);
    assert_eq!(p.by_depth, [17, 289, 5_069, 92_025, 1_725_571, 33_325_345]);
    // Under rules.md's rise to row 20, a few more placements survive a blocked row 19.
    let rise = fast(
        "IIIIII",
        &PerftOptions {
            threads: 2,
            ..PerftOptions::default()
        },
    );
    assert_eq!(rise.leaves, 33_325_413);
}

/// Depth-5 counts of the seven rotations of IOLJSZT (no rise). The table of published counts
/// has no depth-5 entries: these were computed with the slow reference
/// (`cargo test --release -p board --test perft -- --ignored`) and agree with the depth-7
/// published counts the fast generator reproduces (docs/performance.md).
macro_rules! depth_5 {
    ($($name:ident: $q:literal => $n:literal,)*) => {
        $(
            #[test]
            fn $name() {
                assert_eq!(fast($q, &no_rise()).leaves, $n);
            }
        )*

        #[test]
        #[ignore = "the slow reference takes minutes; run with --release --ignored"]
        fn depth_5_counts_agree_with_the_slow_reference() {
            $(
                assert_eq!(slow(&Board::new(), &queue($q), false), $n, "{}", $q);
            )*
        }
    };
}

depth_5! {
    perft_ioljs_depth_5: "IOLJS" => 3_497_187,
    perft_tiolj_depth_5: "TIOLJ" => 7_451_934,
    perft_ztiol_depth_5: "ZTIOL" => 3_699_006,
    perft_sztio_depth_5: "SZTIO" => 1_863_501,
    perft_jszti_depth_5: "JSZTI" => 7_304_823,
    perft_ljszt_depth_5: "LJSZT" => 14_907_945,
    perft_oljsz_depth_5: "OLJSZ" => 3_646_593,
}

/// The fast count equals the reference count at depth 3 for every rotation, with and without
/// rise, and with spin kinds told apart the leaves can only grow.
#[test]
fn shallow_counts_equal_the_slow_reference() {
    for q in ["IOL", "TIO", "ZTI", "SZT", "JSZ", "LJS", "OLJ", "TTT"] {
        let rise = PerftOptions::default();
        assert_eq!(
            fast(q, &rise).leaves,
            slow(&Board::new(), &queue(q), true),
            "{q}"
        );
        assert_eq!(
            fast(q, &no_rise()).leaves,
            slow(&Board::new(), &queue(q), false),
            "{q}"
        );
        let spins = fast(
            q,
            &PerftOptions {
                spins: true,
                ..rise
            },
        );
        assert!(spins.leaves >= fast(q, &rise).leaves);
    }
}

/// The published depth-7 counts: 2.6 to 2.9 billion leaves each, minutes of work, so they run
/// on demand (`cargo test --release -p board --test perft -- --ignored depth_7`).
#[test]
#[ignore = "billions of leaves; run with --release --ignored"]
fn perft_depth_7_published_counts() {
    for (q, n) in [
        ("IOLJSZT", 2_647_076_135u64),
        ("TIOLJSZ", 2_785_677_550),
        ("ZTIOLJS", 2_741_273_038),
        ("SZTIOLJ", 2_740_055_656),
        ("JSZTIOL", 2_801_460_686),
        ("LJSZTIO", 2_852_978_763),
        ("OLJSZTI", 2_689_379_684),
    ] {
        assert_eq!(fast(q, &no_rise()).leaves, n, "{q}");
    }
}
