//! The thinking thread: it owns the engine and searches the position it is given, pass after
//! pass, until the protocol thread pauses it or gives it another position.

use board::Rules;
use game::GameState;
use search::{Config, DefaultEvaluator, Engine, Plan, Weights};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the thread is asked to do next.
enum Job {
    /// Search this position (generation, state).
    Search(u64, GameState),
    /// Forget the game: clear every table and the prediction.
    Reset,
    /// Change the rotation system.
    Rules(Rules),
}

#[derive(Default)]
struct State {
    jobs: Vec<Job>,
    /// Whether the thread is working on a job.
    busy: bool,
    /// The generation of the position being searched (or last searched).
    generation: u64,
    /// The last finished pass of that position.
    result: Option<Plan>,
    /// Whether every pass of that position is done (the thread is idle on it).
    finished: bool,
    quit: bool,
}

struct Shared {
    state: Mutex<State>,
    changed: Condvar,
    stop: AtomicBool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic on the thinking thread poisons the lock; what it guards stays consistent
        // (every write is one assignment), so carry on with it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The thinking thread and its mailbox.
pub(crate) struct Worker {
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
    /// The configured width.
    full: usize,
    generation: u64,
}

impl Worker {
    /// Starts the thread with an engine of these settings. `widen` lets it keep widening
    /// after the configured width while nobody asks for its answer.
    pub(crate) fn start(config: Config, weights: Weights, widen: bool) -> Worker {
        let full = config.beam_width.max(1);
        let widths = config.bot_widths(widen);
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let engine = Engine::new(config, DefaultEvaluator::new(weights));
        // The passes of each position: 8 (a quick answer), the configured width (the minimum
        // quality of an answer), then wider up to the configured maximum.
        let handle = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("tetris-tt-think".into())
                .spawn(move || think(engine, &shared, &widths))
                .expect("a thread can be started")
        };
        Worker {
            shared,
            handle: Some(handle),
            full,
            generation: 0,
        }
    }

    /// Stops the current search (it returns within a fraction of a millisecond) and waits
    /// until the thread is idle. The last finished pass stays available.
    pub(crate) fn pause(&self) {
        let mut s = self.shared.lock();
        s.jobs.retain(|j| !matches!(j, Job::Search(..)));
        self.shared.stop.store(true, Ordering::Relaxed);
        while s.busy {
            s = self
                .shared
                .changed
                .wait(s)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    fn send(&self, job: Job) {
        let mut s = self.shared.lock();
        // Only the newest position is worth searching.
        if matches!(job, Job::Search(..)) {
            s.jobs.retain(|j| !matches!(j, Job::Search(..)));
        }
        s.jobs.push(job);
        self.shared.stop.store(true, Ordering::Relaxed);
        self.shared.changed.notify_all();
    }

    /// Starts searching `state` (after what was asked before).
    pub(crate) fn search(&mut self, state: GameState) {
        self.generation += 1;
        {
            let mut s = self.shared.lock();
            s.generation = self.generation;
            s.result = None;
            s.finished = false;
        }
        self.send(Job::Search(self.generation, state));
    }

    /// Clears the engine's tables and prediction (a new game, or a lost one).
    pub(crate) fn reset(&mut self) {
        self.generation += 1;
        {
            let mut s = self.shared.lock();
            s.generation = self.generation;
            s.result = None;
            s.finished = true;
        }
        self.send(Job::Reset);
    }

    /// Changes the rotation system.
    pub(crate) fn set_rules(&self, rules: Rules) {
        self.send(Job::Rules(rules));
    }

    /// The answer to a request made at `asked`: the best finished pass of the current
    /// position, once it is good enough. Without `think` that is as soon as the configured
    /// width has finished, or at `asked + safety` whatever has; with it, no earlier than
    /// `asked + think` (the best pass by then). The thread is paused before the answer is
    /// taken, so the engine's prediction is that answer's. `None` when the position has no
    /// move.
    pub(crate) fn answer(
        &self,
        asked: Instant,
        think: Option<Duration>,
        safety: Duration,
    ) -> Option<Plan> {
        let mut s = self.shared.lock();
        loop {
            let now = Instant::now();
            let full = s
                .result
                .as_ref()
                .is_some_and(|p| p.stats.width >= self.full);
            let ready = match think {
                None => full || (now >= asked + safety && s.result.is_some()),
                Some(t) => now >= asked + t && (s.result.is_some() || s.finished),
            };
            // Nothing more will come: every width is done, or the search was paused (a
            // second suggest on the same position).
            let idle = !s.busy && s.jobs.is_empty();
            if ready || (idle && (s.finished || s.result.is_some())) {
                break;
            }
            let until = match think {
                None => asked + safety,
                Some(t) => asked + t,
            };
            let wait = until
                .saturating_duration_since(now)
                .max(Duration::from_millis(1));
            s = self
                .shared
                .changed
                .wait_timeout(s, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        drop(s);
        self.pause();
        self.shared.lock().result.clone()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        {
            let mut s = self.shared.lock();
            s.quit = true;
            self.shared.stop.store(true, Ordering::Relaxed);
            self.shared.changed.notify_all();
        }
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The thread's loop.
fn think(mut engine: Engine, shared: &Shared, widths: &[usize]) {
    loop {
        let job = {
            let mut s = shared.lock();
            s.busy = false;
            shared.changed.notify_all();
            loop {
                if s.quit {
                    return;
                }
                if !s.jobs.is_empty() {
                    break;
                }
                s = shared.changed.wait(s).unwrap_or_else(|e| e.into_inner());
            }
            // Jobs are taken under the lock, where stops are asked for: clearing the stop
            // here never loses one meant for this job.
            shared.stop.store(false, Ordering::Relaxed);
            s.busy = true;
            s.jobs.remove(0)
        };
        match job {
            Job::Reset => engine.reset(),
            Job::Rules(r) => engine.set_rules(r),
            Job::Search(generation, state) => {
                let plan = engine.think(&state, widths, &shared.stop, |plan| {
                    let mut s = shared.lock();
                    if s.generation == generation {
                        s.result = Some(plan.clone());
                        shared.changed.notify_all();
                    }
                });
                let mut s = shared.lock();
                if s.generation == generation && !shared.stop.load(Ordering::Relaxed) {
                    // Every width is done (or there is no move at all).
                    s.finished = true;
                    if plan.is_none() {
                        s.result = None;
                    }
                }
            }
        }
    }
}
