//! Seeded 7-bag self-play: the harness behind the `play` and `bench` commands and the tests.

use crate::engine::{Engine, Plan};
use crate::eval::Evaluator;
use crate::state::{GameState, Outcome};
use board::Piece;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// A seeded 7-bag randomizer: the seven pieces in a random order, then the next seven. The same
/// seed gives the same sequence on every machine (ChaCha8).
pub struct Bag {
    rng: ChaCha8Rng,
    bag: Vec<Piece>,
}

impl Bag {
    /// A bag sequence from `seed`.
    pub fn new(seed: u64) -> Bag {
        Bag {
            rng: ChaCha8Rng::seed_from_u64(seed),
            bag: Vec::with_capacity(7),
        }
    }

    /// The next piece.
    pub fn next_piece(&mut self) -> Piece {
        if self.bag.is_empty() {
            self.bag.extend_from_slice(&Piece::ALL);
            self.bag.shuffle(&mut self.rng);
            self.bag.reverse();
        }
        self.bag.pop().expect("refilled above")
    }
}

/// One move of a self-play game.
#[derive(Clone, Debug)]
pub struct Step {
    /// The engine's plan (the move played is `plan.placement`).
    pub plan: Plan,
    /// What the move did.
    pub outcome: Outcome,
}

/// Totals of a game so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Pieces placed.
    pub pieces: u64,
    /// Lines cleared.
    pub lines: u64,
    /// Lines of attack sent.
    pub attack: u64,
    /// Whether the game ended by topping out.
    pub topped_out: bool,
}

/// A seeded self-play game: the bag, the state with its previews, and the totals.
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
        Game {
            bag,
            state: GameState::new(current, queue),
            previews,
            totals: Totals::default(),
        }
    }

    /// The state the engine sees next.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Mutable state, for tests and front ends that add garbage between moves.
    pub fn state_mut(&mut self) -> &mut GameState {
        &mut self.state
    }

    /// The totals so far.
    pub fn totals(&self) -> &Totals {
        &self.totals
    }

    /// Asks the engine for a move and plays it. `None` when the game is over (no placement, a
    /// blocked spawn, or a lock out), which also marks it topped out.
    pub fn step<E: Evaluator>(&mut self, engine: &mut Engine<E>) -> Option<Step> {
        if self.totals.topped_out {
            return None;
        }
        let Some(plan) = engine.suggest(&self.state) else {
            self.totals.topped_out = true;
            return None;
        };
        self.play(plan)
    }

    /// Plays a plan the engine made for the current state.
    pub fn play(&mut self, plan: Plan) -> Option<Step> {
        // The piece after the move comes from the bag even when no preview shows it: one
        // piece, or two for a hold into an empty hold.
        let taken = if plan.uses_hold && self.state.hold.is_none() {
            2
        } else {
            1
        };
        while self.state.queue.len() < taken {
            let p = self.bag.next_piece();
            self.state.queue.push(p);
        }
        let outcome = self
            .state
            .play(&plan.placement, plan.uses_hold)
            .expect("the engine only suggests the current, the held or the next piece");
        while self.state.queue.len() < self.previews {
            let p = self.bag.next_piece();
            self.state.queue.push(p);
        }
        self.totals.pieces += 1;
        self.totals.lines += outcome.lines as u64;
        self.totals.attack += outcome.attack as u64;
        if plan.placement.locks_out()
            || board::PiecePos::spawn(&self.state.board, self.state.current).is_none()
        {
            self.totals.topped_out = true;
        }
        Some(Step { plan, outcome })
    }
}
