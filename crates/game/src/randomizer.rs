//! Randomizers: the seeded 7-bag piece stream, and what a player can know of a bag.

use board::Piece;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// A set of piece kinds, one bit per piece (bit `Piece as u8`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PieceSet(u8);

impl PieceSet {
    /// No piece.
    pub const EMPTY: PieceSet = PieceSet(0);
    /// All seven pieces.
    pub const ALL: PieceSet = PieceSet(0x7f);

    /// Whether `p` is in the set.
    #[inline]
    pub fn contains(self, p: Piece) -> bool {
        self.0 >> p as u8 & 1 != 0
    }

    /// Adds `p`.
    #[inline]
    pub fn insert(&mut self, p: Piece) {
        self.0 |= 1 << p as u8;
    }

    /// Removes `p`; returns whether it was there.
    #[inline]
    pub fn remove(&mut self, p: Piece) -> bool {
        let had = self.contains(p);
        self.0 &= !(1 << p as u8);
        had
    }

    /// The number of pieces in the set.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The pieces, in `Piece::ALL` order.
    pub fn iter(self) -> impl Iterator<Item = Piece> {
        Piece::ALL.into_iter().filter(move |&p| self.contains(p))
    }
}

impl FromIterator<Piece> for PieceSet {
    fn from_iter<I: IntoIterator<Item = Piece>>(iter: I) -> Self {
        let mut s = PieceSet::EMPTY;
        for p in iter {
            s.insert(p);
        }
        s
    }
}

/// What a player knows of a 7-bag randomizer at the end of the known queue: the pieces still in
/// the current bag. The next unknown piece is one of them, or any piece when the bag is empty
/// (a fresh bag starts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BagState {
    /// Pieces left in the current bag.
    pub left: PieceSet,
}

impl BagState {
    /// The pieces the next unknown piece can be.
    pub fn possible(self) -> PieceSet {
        if self.left.is_empty() {
            PieceSet::ALL
        } else {
            self.left
        }
    }

    /// The state after `p` is drawn. `None` when a 7-bag cannot give `p` now (the knowledge
    /// was wrong).
    pub fn draw(self, p: Piece) -> Option<BagState> {
        let mut left = self.possible();
        left.remove(p).then_some(BagState { left })
    }
}

/// A seeded 7-bag randomizer: the seven pieces in a random order, then the next seven. The same
/// seed gives the same sequence on every machine (ChaCha8).
#[derive(Clone, Debug)]
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
        let p = self.peek();
        self.bag.pop();
        p
    }

    /// The piece [`Self::next_piece`] will return, without drawing it. (An empty bag is
    /// refilled now rather than on the next draw, which changes nothing in the sequence.)
    pub fn peek(&mut self) -> Piece {
        if self.bag.is_empty() {
            self.bag.extend_from_slice(&Piece::ALL);
            self.bag.shuffle(&mut self.rng);
            self.bag.reverse();
        }
        *self.bag.last().expect("refilled above")
    }

    /// What a player who has seen every piece drawn so far knows of the bag: the pieces left
    /// in the current bag (a bag refilled by [`Self::peek`] counts as not yet started).
    pub fn state(&self) -> BagState {
        let left: PieceSet = self.bag.iter().copied().collect();
        BagState {
            left: if left == PieceSet::ALL {
                PieceSet::EMPTY
            } else {
                left
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_seven_pieces_are_one_of_each() {
        let mut bag = Bag::new(9);
        for _ in 0..20 {
            let set: PieceSet = (0..7).map(|_| bag.next_piece()).collect();
            assert_eq!(set, PieceSet::ALL);
        }
    }

    #[test]
    fn the_bag_state_follows_the_draws() {
        let mut bag = Bag::new(4);
        let mut known = BagState {
            left: PieceSet::EMPTY,
        };
        for i in 0..30 {
            assert_eq!(bag.state(), known, "after {i} draws");
            let p = bag.next_piece();
            assert!(known.possible().contains(p));
            known = known.draw(p).expect("a 7-bag can give it");
        }
        // A piece the bag cannot give is refused.
        let state = BagState {
            left: [Piece::T, Piece::I].into_iter().collect(),
        };
        assert_eq!(state.draw(Piece::O), None);
        assert_eq!(state.draw(Piece::T).unwrap().left.len(), 1);
    }
}
