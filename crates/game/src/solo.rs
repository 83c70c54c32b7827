//! One player's game fed by a seeded 7-bag: the harness behind self-play, the benches and each
//! side of a versus match.

use crate::randomizer::{Bag, BagState};
use crate::state::{GameState, Outcome, PlayError};
use board::{PiecePos, Placement};

/// Totals of a game so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Pieces placed.
    pub pieces: u64,
    /// Lines cleared.
    pub lines: u64,
    /// Lines of attack sent (before countering).
    pub attack: u64,
    /// Whether the game ended by topping out.
    pub topped_out: bool,
}

/// A seeded game: the bag, the state with its previews, and the totals.
///
/// The state shows exactly `previews` pieces after the current one. The piece after a move
/// comes from the bag even when no preview shows it.
#[derive(Clone, Debug)]
pub struct Game {
    bag: Bag,
    state: GameState,
    previews: usize,
    totals: Totals,
}

impl Game {
    /// A new game from `seed`, showing `previews` pieces after the current one.
    pub fn new(seed: u64, previews: usize) -> Game {
        let mut bag = Bag::new(seed);
        let current = bag.next_piece();
        let queue = (0..previews).map(|_| bag.next_piece()).collect();
        let state = GameState {
            bag: Some(bag.state()),
            ..GameState::new(current, queue)
        };
        Game {
            bag,
            state,
            previews,
            totals: Totals::default(),
        }
    }

    /// The state a player sees.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Mutable state, for tests and front ends that add garbage between moves.
    pub fn state_mut(&mut self) -> &mut GameState {
        &mut self.state
    }

    /// What a player knows of the bag at the end of the queue.
    pub fn bag_state(&self) -> BagState {
        self.bag.state()
    }

    /// The number of previews shown.
    pub fn previews(&self) -> usize {
        self.previews
    }

    /// The totals so far.
    pub fn totals(&self) -> &Totals {
        &self.totals
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.totals.topped_out
    }

    /// Marks the game lost (a garbage push-over, or a player with no move).
    pub fn top_out(&mut self) {
        self.totals.topped_out = true;
    }

    /// Plays `p`, holding first when `hold` is set (see [`GameState::play`]), and refills the
    /// previews. A lock out or a blocked spawn afterwards ends the game. On an error nothing
    /// changes.
    pub fn play(&mut self, p: &Placement, hold: bool) -> Result<Outcome, PlayError> {
        let outcome = self.place(p, hold)?;
        self.spawn_next();
        Ok(outcome)
    }

    /// Like [`Self::play`] but without looking at the next spawn, for a caller that changes the
    /// board first (garbage arrives after a lock and before the next piece spawns); it calls
    /// [`Self::spawn_next`] afterwards. A lock out still ends the game.
    pub fn place(&mut self, p: &Placement, hold: bool) -> Result<Outcome, PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        let s = &self.state;
        let (expected, taken) = match (hold, s.hold) {
            (false, _) => (s.current, 1),
            (true, Some(h)) => (h, 1),
            (true, None) => (
                s.queue.first().copied().unwrap_or_else(|| self.bag.peek()),
                2,
            ),
        };
        if p.piece != expected {
            return Err(PlayError::WrongPiece {
                expected,
                found: p.piece,
            });
        }
        while self.state.queue.len() < taken {
            let next = self.bag.next_piece();
            self.state.queue.push(next);
        }
        let outcome = self.state.play(p, hold)?;
        while self.state.queue.len() < self.previews {
            let next = self.bag.next_piece();
            self.state.queue.push(next);
        }
        self.state.bag = Some(self.bag.state());
        self.totals.pieces += 1;
        self.totals.lines += outcome.lines as u64;
        self.totals.attack += outcome.attack as u64;
        if p.locks_out() {
            self.totals.topped_out = true;
        }
        Ok(outcome)
    }

    /// Spawns the current piece: a blocked spawn ends the game. Returns whether the game goes
    /// on.
    pub fn spawn_next(&mut self) -> bool {
        if PiecePos::spawn(&self.state.board, self.state.current).is_none() {
            self.totals.topped_out = true;
        }
        !self.totals.topped_out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{Rules, generate};

    #[test]
    fn the_state_shows_the_bag_at_the_end_of_the_queue() {
        for previews in [0, 1, 5] {
            let mut g = Game::new(3, previews);
            let mut seen = vec![g.state().current];
            seen.extend(&g.state().queue);
            for _ in 0..20 {
                // What the player knows: every piece seen so far, bag by bag.
                let mut bag = crate::BagState {
                    left: crate::PieceSet::EMPTY,
                };
                for &p in &seen {
                    bag = bag.draw(p).unwrap();
                }
                assert_eq!(g.state().bag, Some(bag));
                let p = generate(&g.state().board, g.state().current, Rules::Srs)
                    .into_iter()
                    .min_by_key(|p| p.cells().iter().map(|c| c.1).max())
                    .unwrap();
                g.play(&p, false).unwrap();
                seen.extend(g.state().queue.last().copied().filter(|_| previews > 0));
                if previews == 0 {
                    seen.push(g.state().current);
                }
            }
        }
    }
}
