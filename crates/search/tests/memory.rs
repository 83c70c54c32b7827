//! `Engine::memory_bytes` is exact: a counting global allocator sees the same live bytes, on
//! one search thread and on several.

use game::Game;
use rayon::prelude::*;
use search::selfplay;
use search::{Config, Engine};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    /// Count only the thread under test and the search threads (the pool's threads set it
    /// when they start): the test harness's own threads allocate too, at moments of their
    /// choosing, which made this test fail one run in three.
    static WATCHING: Cell<bool> = const { Cell::new(false) };
}

fn track(delta: isize) {
    if WATCHING.with(Cell::get) {
        LIVE.fetch_add(delta, Ordering::SeqCst);
    }
}

// SAFETY: forwards every call to the system allocator unchanged; only counts live bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        track(layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        track(layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        track(new_size as isize - layout.size() as isize);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        track(-(layout.size() as isize));
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The bytes of the tables mapped with `mmap` instead of allocated: on Linux, bucket arrays of
/// at least `tt_core::HUGE` bytes (`TETRIS_TT_BITS` 18 and up) bypass the allocator.
fn mapped(engine: &Engine) -> usize {
    if !cfg!(target_os = "linux") {
        return 0;
    }
    // A bucket is 32 bytes (tt-core asserts it); the touch log beside it is allocated.
    let buckets = tt_core::BUCKETS * 32;
    if buckets >= tt_core::HUGE {
        engine.tables().horizon() * buckets
    } else {
        0
    }
}

/// Plays 15 moves with `config` and checks the engine's count against the allocator's after
/// creating it and after every search.
fn check(config: Config) {
    // The game's own buffers exist before the baseline and never grow (previews are fixed).
    let mut game = Game::new(1, config.previews);
    let threads = config.search_threads;
    let baseline = LIVE.load(Ordering::SeqCst);
    let mut engine = Engine::with_config(config);
    assert_eq!(
        (LIVE.load(Ordering::SeqCst) - baseline) as usize + mapped(&engine),
        engine.memory_bytes(),
        "fresh engine, {threads} search threads"
    );
    for _ in 0..15 {
        let step = selfplay::step(&mut engine, &mut game).expect("15 pieces do not top out");
        drop(step);
        assert_eq!(
            (LIVE.load(Ordering::SeqCst) - baseline) as usize + mapped(&engine),
            engine.memory_bytes(),
            "after a search, {threads} search threads"
        );
    }
    assert!(engine.memory_bytes() > 4 * tt_core::BUCKETS * 32);
    drop(engine);
    assert_eq!(LIVE.load(Ordering::SeqCst), baseline, "all returned");
}

// One test in this binary, so no other test allocates while it measures.
#[test]
fn memory_bytes_matches_the_allocator() {
    let config = Config {
        beam_width: 32,
        previews: 3,
        ..Config::default()
    };
    // The search threads count their allocations: the workers' buffers grow on them.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .start_handler(|_| WATCHING.with(|w| w.set(true)))
        .build()
        .expect("two threads");
    pool.install(|| {
        // Rayon's own first-use state on these threads (work-stealing handles) is not the
        // engine's: made before the baseline.
        // Every thread steals here (each item takes a while), then idles.
        rayon::scope(|s| s.spawn(|_| {}));
        (0..256).into_par_iter().for_each(|_| {
            std::thread::sleep(std::time::Duration::from_micros(200));
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        for threads in [1, 2] {
            check(Config {
                search_threads: threads,
                ..config.clone()
            });
        }
    });
}
