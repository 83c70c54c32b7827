//! Game state and the exact attack rules (guideline table, back-to-back, combo, perfect clear).

use crate::randomizer::BagState;
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
            // Saturating: a front end may start a game with any combo count.
            combo: before.combo.saturating_add(1),
        },
    }
}

/// Locks `p` on `board` (clearing lines) and scores it.
pub fn lock(board: &mut Board, p: &Placement, before: Carried) -> Outcome {
    let (after, outcome) = locked(board, p, before);
    *board = after;
    outcome
}

/// `board` with `p` locked (lines cleared), and its score: [`lock`] into a new board.
#[inline]
pub fn locked(board: &Board, p: &Placement, before: Carried) -> (Board, Outcome) {
    let (after, cleared) = board.placed(p.piece, p.rotation, p.x as i32, p.y as i32);
    let outcome = score_clear(cleared.count_ones(), p.spin, &after, before);
    (after, outcome)
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
    /// What is known of a 7-bag randomizer at the end of the queue (`None`: nothing is known
    /// about the pieces after the queue).
    pub bag: Option<BagState>,
    /// Garbage lines known to be on their way to this board (0 when the player cannot see
    /// them, as in plain TBP).
    pub incoming: u32,
}

impl GameState {
    /// A fresh game: empty board, nothing held, no chains, nothing known beyond the queue.
    pub fn new(current: Piece, queue: Vec<Piece>) -> GameState {
        GameState {
            board: Board::new(),
            current,
            hold: None,
            queue,
            carried: Carried::default(),
            pieces_placed: 0,
            bag: None,
            incoming: 0,
        }
    }

    /// Plays `p` and advances the queue. `hold` says whether the hold key was pressed: then
    /// `p` must be the held piece (which swaps with the current one) or, with an empty hold,
    /// the next piece (the current one is banked and the queue advances by two). Without hold
    /// `p` must be the current piece.
    ///
    /// The piece after the move must be known: the queue must hold one piece, or two for a
    /// hold into an empty hold. On an error nothing changes.
    pub fn play(&mut self, p: &Placement, hold: bool) -> Result<Outcome, PlayError> {
        // (the piece the move places, pieces it takes from the queue)
        let (placed, taken) = match (hold, self.hold) {
            (false, _) => (self.current, 1),
            (true, Some(h)) => (h, 1),
            (true, None) => (*self.queue.first().ok_or(PlayError::UnknownPiece)?, 2),
        };
        if p.piece != placed {
            return Err(PlayError::WrongPiece {
                expected: placed,
                found: p.piece,
            });
        }
        if self.queue.len() < taken {
            return Err(PlayError::UnknownPiece);
        }
        if hold {
            self.hold = Some(self.current);
        }
        self.current = self.queue[taken - 1];
        self.queue.drain(..taken);
        let outcome = lock(&mut self.board, p, self.carried);
        self.carried = outcome.carried;
        self.pieces_placed += 1;
        Ok(outcome)
    }
}

/// Why [`GameState::play`] refused a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The move places another piece than the rules give.
    WrongPiece {
        /// The piece the move had to place (current, held, or next, by the hold flag).
        expected: Piece,
        /// The piece it placed.
        found: Piece,
    },
    /// The queue is too short to know the piece after the move.
    UnknownPiece,
    /// The game is already over.
    GameOver,
    /// The placement cannot be reached from spawn on this board.
    Unreachable,
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::WrongPiece { expected, found } => {
                write!(
                    f,
                    "the move places {found}, but the piece to place is {expected}"
                )
            }
            PlayError::UnknownPiece => write!(f, "the queue does not say which piece comes next"),
            PlayError::GameOver => write!(f, "the game is over"),
            PlayError::Unreachable => write!(f, "the placement cannot be reached from spawn"),
        }
    }
}

impl std::error::Error for PlayError {}

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
        let mut g = GameState::new(Piece::T, vec![Piece::I, Piece::O, Piece::S]);
        // Holding with an empty hold brings out I and keeps T.
        let i = generate(&g.board, Piece::I, Rules::Srs)[0];
        g.play(&i, true).unwrap();
        assert_eq!(
            (g.current, g.hold, g.queue.clone()),
            (Piece::O, Some(Piece::T), vec![Piece::S])
        );
        // O is current and T is held: a Z placement is refused either way, and nothing changes.
        let z = generate(&g.board, Piece::Z, Rules::Srs)[0];
        let before = g.clone();
        assert_eq!(
            g.play(&z, false),
            Err(PlayError::WrongPiece {
                expected: Piece::O,
                found: Piece::Z
            })
        );
        assert_eq!(
            g.play(&z, true),
            Err(PlayError::WrongPiece {
                expected: Piece::T,
                found: Piece::Z
            })
        );
        assert_eq!(g, before);
        // A swap plays T and banks O.
        let t = generate(&g.board, Piece::T, Rules::Srs)[0];
        g.play(&t, true).unwrap();
        assert_eq!(
            (g.current, g.hold, g.pieces_placed),
            (Piece::S, Some(Piece::O), 2)
        );
        // The queue is empty now: the piece after S is unknown, so S cannot be played yet.
        let s = generate(&g.board, Piece::S, Rules::Srs)[0];
        assert_eq!(g.play(&s, false), Err(PlayError::UnknownPiece));
        g.queue.push(Piece::L);
        assert!(g.play(&s, false).is_ok());
    }

    /// Overflow: a front end may start a game with any combo count; the next clear must not
    /// overflow (`combo + 1` panicked in debug builds at u32::MAX).
    #[test]
    fn overflow_a_clear_at_the_largest_combo_saturates() {
        let b = board_with_rows(0);
        let o = score_clear(
            1,
            Spin::None,
            &b,
            Carried {
                b2b: false,
                combo: u32::MAX,
            },
        );
        assert_eq!(o.carried.combo, u32::MAX);
        assert_eq!(o.attack, 5, "the combo table's last entry");
    }
}
