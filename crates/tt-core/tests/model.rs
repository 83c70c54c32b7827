//! Model test: random operations on the real table and on a tiny obvious model of the
//! two-slot LRU policy, compared after every step. Keys are drawn so that most of them share
//! a handful of buckets.

use proptest::prelude::*;
use std::collections::BTreeMap;
use tt_core::{Table, ZERO_KEY, bucket_of};

#[derive(Clone, Debug)]
enum Op {
    /// Look up; store `value` on a miss.
    Probe(u64, u32),
    /// Look up; never store (the miss is dropped).
    Peek(u64),
    Clear,
}

/// Keys whose high bits (which pick the bucket) come from a set of four, so at most four
/// buckets are ever used, and whose low bits come from a set of six: many collide.
fn key() -> impl Strategy<Value = u64> {
    (0u64..4, 0u64..6).prop_map(|(hi, lo)| (hi << 61) | lo)
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (key(), any::<u32>()).prop_map(|(k, v)| Op::Probe(k, v)),
        3 => key().prop_map(Op::Peek),
        1 => Just(Op::Clear),
    ]
}

#[derive(Default, Clone, Debug, PartialEq)]
struct ModelBucket {
    slots: [Option<(u64, u32)>; 2],
    marker: usize,
}

#[derive(Default)]
struct Model {
    buckets: BTreeMap<usize, ModelBucket>,
}

impl Model {
    fn lookup(&mut self, key: u64) -> Result<u32, usize> {
        let key = if key == 0 { ZERO_KEY } else { key };
        let b = self.buckets.entry(bucket_of(key)).or_default();
        for s in 0..2 {
            if let Some((k, v)) = b.slots[s]
                && k == key
            {
                b.marker = 1 - s;
                return Ok(v);
            }
        }
        Err(if b.slots[0].is_none() {
            0
        } else if b.slots[1].is_none() {
            1
        } else {
            b.marker
        })
    }

    fn store(&mut self, key: u64, slot: usize, v: u32) {
        let key = if key == 0 { ZERO_KEY } else { key };
        let b = self.buckets.entry(bucket_of(key)).or_default();
        b.slots[slot] = Some((key, v));
        b.marker = 1 - slot;
    }
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut table = Table::<u32>::new();
    let mut model = Model::default();
    for op in ops {
        match *op {
            Op::Probe(k, v) => {
                let got = table.probe(k, || v);
                let want = match model.lookup(k) {
                    Ok(old) => old,
                    Err(slot) => {
                        model.store(k, slot, v);
                        v
                    }
                };
                prop_assert_eq!(got, want, "{:?}", op);
            }
            Op::Peek(k) => {
                let got = table.lookup(k).map_err(|vacant| vacant.slot());
                prop_assert_eq!(got, model.lookup(k), "{:?}", op);
            }
            Op::Clear => {
                table.clear();
                for b in model.buckets.values_mut() {
                    *b = ModelBucket::default();
                }
            }
        }
        // Every bucket the keys can reach, slot by slot and marker by marker.
        for (&i, b) in &model.buckets {
            let real = table.bucket(i);
            prop_assert_eq!(&real.slots, &b.slots, "bucket {} after {:?}", i, op);
            prop_assert_eq!(real.marker, b.marker, "marker {} after {:?}", i, op);
        }
    }
    // And nothing anywhere else.
    let stored: usize = model
        .buckets
        .values()
        .map(|b| b.slots.iter().flatten().count())
        .sum();
    prop_assert_eq!(table.occupancy(), stored);
    Ok(())
}

fn config() -> ProptestConfig {
    // Every Clear writes the whole table: at large TETRIS_TT_BITS (gigabytes) run fewer cases.
    ProptestConfig::with_cases(if tt_core::BITS > 20 { 12 } else { 256 })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_table_follows_the_model(ops in prop::collection::vec(op(), 1..60)) {
        run(&ops)?;
    }
}
