//! Game state and the exact attack rules of rules.md.

use board::{Board, Piece, Placement, Spin};

/// Lines sent for 0..=4 plain line clears.
const CLEAR_ATTACK: [u32; 5] = [0, 0, 1, 2, 4];
/// Lines sent for a T-spin mini clearing 0, 1, 2 lines.
const MINI_ATTACK: [u32; 3] = [0, 0, 1];
/// Lines sent for a full T-spin clearing 0..=3 lines.
const TSPIN_ATTACK: [u32; 4] = [0, 2, 4, 6];
/// Combo bonus by the number of consecutive clearing placements before this one.
pub const COMBO_ATTACK: [u32; 12] = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5];
/// Lines sent for a perfect clear, on top of the rest.
pub const PERFECT_CLEAR_ATTACK: u32 = 10;

/// What a game carries from one placement to the next besides the board and pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Carried {
    /// Whether a back-to-back chain is active (the last clear was a tetris or a T-spin clear).
    pub b2b: bool,
    /// Consecutive clearing placements so far (0 = the last placement cleared nothing).
    pub combo: u32,
}

/// The result of locking one placement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Lines cleared.
    pub lines: u32,
    /// The spin kind of the placement.
    pub spin: Spin,
    /// Lines of attack sent.
    pub attack: u32,
    /// Whether the board is empty afterwards (and lines were cleared).
    pub perfect_clear: bool,
    /// Whether this clear got the back-to-back bonus.
    pub b2b_bonus: bool,
    /// The carried state afterwards.
    pub carried: Carried,
}

/// Applies the attack, back-to-back and combo rules to a placement that cleared `lines` lines
/// with spin `spin`, leaving `board_after` (already cleared), from carried state `before`.
pub fn score_clear(lines: u32, spin: Spin, board_after: &Board, before: Carried) -> Outcome {
    if lines == 0 {
        return Outcome {
            lines,
            spin,
            attack: 0,
            perfect_clear: false,
            b2b_bonus: false,
            carried: Carried {
                b2b: before.b2b,
                combo: 0,
            },
        };
    }
    let l = lines.min(4) as usize;
    let (base, keeps_b2b) = match spin {
        Spin::None => (CLEAR_ATTACK[l], l == 4),
        Spin::Mini => (MINI_ATTACK[l.min(2)], true),
        Spin::Full => (TSPIN_ATTACK[l.min(3)], true),
    };
    let b2b_bonus = keeps_b2b && before.b2b;
    let combo_bonus = COMBO_ATTACK[(before.combo as usize).min(COMBO_ATTACK.len() - 1)];
    let perfect_clear = board_after.is_empty();
    let attack = base
        + b2b_bonus as u32
        + combo_bonus
        + if perfect_clear {
            PERFECT_CLEAR_ATTACK
        } else {
            0
        };
    Outcome {
        lines,
        spin,
        attack,
        perfect_clear,
        b2b_bonus,
        carried: Carried {
            b2b: keeps_b2b,
            combo: before.combo + 1,
        },
    }
}

/// Locks `p` on `board` (clearing lines) and scores it.
pub fn lock(board: &mut Board, p: &Placement, before: Carried) -> Outcome {
    let cleared = board.place(p.piece, p.rotation, p.x as i32, p.y as i32);
    score_clear(cleared.count_ones(), p.spin, board, before)
}

/// Everything the engine needs to know about a game to suggest a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    /// The board.
    pub board: Board,
    /// The piece to place now.
    pub current: Piece,
    /// The held piece, if any.
    pub hold: Option<Piece>,
    /// The known pieces after the current one, next first.
    pub queue: Vec<Piece>,
    /// Back-to-back and combo.
    pub carried: Carried,
    /// Pieces placed in this game so far.
    pub pieces_placed: u64,
}

impl GameState {
    /// A fresh game: empty board, nothing held, no chains.
    pub fn new(current: Piece, queue: Vec<Piece>) -> GameState {
        GameState {
            board: Board::new(),
            current,
            hold: None,
            queue,
            carried: Carried::default(),
            pieces_placed: 0,
        }
    }

    /// Plays `p` (which must be a legal placement of the current piece, or of the piece that
    /// holding would bring out) and advances the queue. Returns the outcome, or `None` when
    /// `p`'s piece is neither the current piece nor reachable by holding, or when no piece is
    /// left to bring out.
    pub fn play(&mut self, p: &Placement) -> Option<Outcome> {
        if p.piece != self.current {
            // Holding: swap with the held piece, or bring out the next one.
            let out = match self.hold {
                Some(h) => h,
                None => *self.queue.first()?,
            };
            if out != p.piece {
                return None;
            }
            if self.hold.is_none() {
                self.queue.remove(0);
            }
            self.hold = Some(self.current);
        }
        let outcome = lock(&mut self.board, p, self.carried);
        self.carried = outcome.carried;
        self.pieces_placed += 1;
        if !self.queue.is_empty() {
            self.current = self.queue.remove(0);
        }
        Some(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_with_rows(rows: u32) -> Board {
        let mut b = Board::new();
        for y in 0..rows as usize {
            for x in 0..10 {
                b.set(x, y);
            }
        }
        b.set(0, rows as usize); // leave something so it is not a perfect clear
        b.clear_lines();
        b
    }

    #[test]
    fn plain_clears_follow_the_table() {
        let b = board_with_rows(0);
        let c = Carried::default();
        let sent: Vec<u32> = (1..=4)
            .map(|l| score_clear(l, Spin::None, &b, c).attack)
            .collect();
        assert_eq!(sent, vec![0, 1, 2, 4]);
    }

    #[test]
    fn spins_follow_the_table() {
        let b = board_with_rows(0);
        let c = Carried::default();
        assert_eq!(score_clear(1, Spin::Mini, &b, c).attack, 0);
        assert_eq!(score_clear(2, Spin::Mini, &b, c).attack, 1);
        let full: Vec<u32> = (1..=3)
            .map(|l| score_clear(l, Spin::Full, &b, c).attack)
            .collect();
        assert_eq!(full, vec![2, 4, 6]);
    }

    #[test]
    fn back_to_back_chain() {
        let b = board_with_rows(0);
        let tetris = score_clear(4, Spin::None, &b, Carried::default());
        assert!(tetris.carried.b2b);
        assert!(!tetris.b2b_bonus);
        let again = score_clear(
            4,
            Spin::None,
            &b,
            Carried {
                b2b: true,
                combo: 0,
            },
        );
        assert_eq!(again.attack, 5);
        // A mini keeps the chain; a plain double breaks it; no clear leaves it (and ends the
        // combo).
        let in_chain = |lines, spin| {
            score_clear(
                lines,
                spin,
                &b,
                Carried {
                    b2b: true,
                    combo: 3,
                },
            )
        };
        assert!(in_chain(1, Spin::Mini).carried.b2b);
        assert!(!in_chain(2, Spin::None).carried.b2b);
        assert_eq!(
            in_chain(0, Spin::None).carried,
            Carried {
                b2b: true,
                combo: 0
            }
        );
    }

    #[test]
    fn combo_table() {
        let b = board_with_rows(0);
        let sent: Vec<u32> = (0..14)
            .map(|combo| score_clear(1, Spin::None, &b, Carried { b2b: false, combo }).attack)
            .collect();
        assert_eq!(sent, vec![0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5]);
    }

    #[test]
    fn perfect_clear_adds_ten() {
        let empty = Board::new();
        let o = score_clear(4, Spin::None, &empty, Carried::default());
        assert!(o.perfect_clear);
        assert_eq!(o.attack, 14);
    }

    #[test]
    fn play_handles_hold() {
        use board::{Rules, generate};
        let mut g = GameState::new(Piece::T, vec![Piece::I, Piece::O]);
        // Holding with an empty hold brings out I and keeps T.
        let i = generate(&g.board, Piece::I, Rules::Srs)[0];
        g.play(&i).unwrap();
        assert_eq!(
            (g.current, g.hold, g.queue.clone()),
            (Piece::O, Some(Piece::T), vec![])
        );
        // O is neither current-held nor the hold: a Z placement is refused.
        let z = generate(&g.board, Piece::Z, Rules::Srs)[0];
        assert_eq!(g.play(&z), None);
        assert_eq!(g.pieces_placed, 1);
    }
}
