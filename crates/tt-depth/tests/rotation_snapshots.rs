//! The rotation semantics as text snapshots. These renderings are part of the public
//! contract. Every table holds at most two keys so the snapshots are the same at every
//! TETRIS_TT_BITS, one bucket included.

use tt_depth::DepthTables;

type Stack = DepthTables<u32, &'static str>;

struct Script {
    tt: Stack,
    out: String,
}

impl Script {
    fn new(horizon: usize) -> Script {
        let mut s = Script {
            tt: Stack::new(horizon),
            out: String::new(),
        };
        s.out += &format!("new({horizon})\n{}\n", s.tt.render());
        s
    }

    fn store(&mut self, depth: usize, keys: &[u64]) {
        for &k in keys {
            self.tt.table(depth).probe(k, || k as u32);
        }
    }

    fn begin(&mut self, board: &'static str) {
        let t = self.tt.begin(&board);
        self.out += &format!("begin({board:?}) -> {t:?}\n{}\n", self.tt.render());
    }

    fn predict(&mut self, board: &'static str) {
        self.tt.predict(board);
        self.out += &format!("predict({board:?})\n");
    }

    fn reset(&mut self) {
        self.tt.reset();
        self.out += &format!("reset()\n{}\n", self.tt.render());
    }

    fn set_horizon(&mut self, h: usize) {
        self.tt.set_horizon(h);
        self.out += &format!("set_horizon({h})\n{}\n", self.tt.render());
    }

    fn filled(&mut self, horizon: usize) {
        for d in 0..horizon {
            let base = 10 * (d as u64 + 1);
            self.store(d, &[base + 1, base + 2]);
        }
        self.out += &format!("store 2 keys at every depth\n{}\n", self.tt.render());
    }
}

#[test]
fn matched_prediction_rotates() {
    let mut s = Script::new(3);
    s.begin("b0");
    s.filled(3);
    s.predict("b1");
    s.begin("b1");
    insta::assert_snapshot!(s.out);
}

#[test]
fn the_same_root_again_keeps_every_table() {
    // A second search from the position the last one began at (a front end asking twice, or
    // a new preview arriving) keeps the tables and the prediction.
    let mut s = Script::new(3);
    s.begin("b0");
    s.filled(3);
    s.predict("b1");
    s.begin("b0");
    s.begin("b1");
    insta::assert_snapshot!(s.out);
}

#[test]
fn mismatch_clears_every_table() {
    let mut s = Script::new(3);
    s.begin("b0");
    s.filled(3);
    s.predict("b1");
    s.begin("b1 plus garbage");
    insta::assert_snapshot!(s.out);
}

#[test]
fn reset_clears_and_forgets_the_prediction() {
    let mut s = Script::new(3);
    s.begin("b0");
    s.filled(3);
    s.predict("b1");
    s.reset();
    // The prediction is gone: even the predicted board starts fresh.
    s.begin("b1");
    insta::assert_snapshot!(s.out);
}

#[test]
fn several_matched_moves_in_a_row() {
    let mut s = Script::new(3);
    s.begin("b0");
    s.filled(3);
    for (next, key) in [("b1", 100), ("b2", 200), ("b3", 300)] {
        s.predict(next);
        s.begin(next);
        s.store(2, &[key]);
    }
    s.out += &format!("final\n{}", s.tt.render());
    insta::assert_snapshot!(s.out);
}

#[test]
fn horizon_of_one() {
    let mut s = Script::new(1);
    s.begin("b0");
    s.filled(1);
    s.predict("b1");
    s.begin("b1");
    insta::assert_snapshot!(s.out);
}

#[test]
fn changing_the_horizon() {
    let mut s = Script::new(2);
    s.begin("b0");
    s.filled(2);
    s.set_horizon(4);
    s.store(3, &[41]);
    s.predict("b1");
    s.begin("b1");
    s.set_horizon(2);
    s.predict("b2");
    s.begin("b2");
    insta::assert_snapshot!(s.out);
}
