//! Rotations and clears allocate nothing: a counting global allocator watches them.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use tt_depth::DepthTables;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Count only on the thread under test, not the test harness's own threads.
    static WATCHING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if WATCHING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn repeated_rotations_and_clears_do_not_allocate() {
    // Six depths as the engine uses them; at 25 bits and more, six written tables would not fit
    // in this machine's memory, so two.
    let horizon = if tt_core::BITS > 24 { 2 } else { 6 };
    let mut tt: DepthTables<u64, u64> = DepthTables::new(horizon);
    // Warm up: the first begin sizes the render buffer.
    tt.begin(&0);
    tt.predict(1);
    tt.begin(&1);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    WATCHING.with(|w| w.set(true));
    // Each rotation writes a whole table: fewer moves where that is gigabytes.
    let moves = if tt_core::BITS > 24 { 20 } else { 200 };
    for board in 1..moves {
        for d in 0..horizon {
            tt.table(d).probe(board * 10 + d as u64, || board);
        }
        // Mostly matched, sometimes garbage arrives.
        let next = if board % 17 == 0 {
            board + 5000
        } else {
            board + 1
        };
        tt.predict(board + 1);
        tt.begin(&next);
    }
    tt.reset();
    WATCHING.with(|w| w.set(false));
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(after - before, 0, "allocations during rotations");
}
