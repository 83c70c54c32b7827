//! The thinking thread: it owns the engine and searches the position it is given, pass after
//! pass, until the protocol thread pauses it or gives it another position.
//!
//! The mailbox holds what the thread should be doing, not a list of orders: the position to
//! think about (the target), whether thinking about it is paused, and the control steps
//! (clear the tables, change the rotation system) still to run. A control step stops a search
//! in progress; once the steps have run the thread goes back to the target unless it is paused
//! or finished. So a search is never lost to an interruption, and [`Worker::answer`] always has
//! something that will end its wait: a pass, the end of the search, or its hard deadline.

use board::Rules;
use game::GameState;
use search::{Config, DefaultEvaluator, Engine, Plan, Weights};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A step the thread runs before it goes back to its target.
enum Control {
    /// Forget the game: clear every table and the prediction.
    Reset,
    /// Change the rotation system.
    Rules(Rules),
}

#[derive(Default)]
struct State {
    controls: VecDeque<Control>,
    /// The position to think about, with its generation.
    target: Option<(u64, GameState)>,
    /// Whether thinking about the target is paused (its answer was taken, or the protocol
    /// thread is about to change the position).
    paused: bool,
    /// Whether the thread is running a step or a search.
    busy: bool,
    /// The generation of the current position (the target's, or a reset's).
    generation: u64,
    /// The last finished pass of that position.
    result: Option<Plan>,
    /// Whether every pass of that position is done (or it has no move).
    finished: bool,
    quit: bool,
}

impl State {
    /// Whether the thread has nothing left to do until it is told something new.
    fn idle(&self) -> bool {
        !self.busy
            && self.controls.is_empty()
            && (self.paused || self.finished || self.target.is_none())
    }
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

    /// Stops the search in progress and wakes the thread.
    fn interrupt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.changed.notify_all();
    }
}

/// What [`Worker::answer`] found.
pub(crate) struct Answer {
    /// The best finished pass, `None` when the position has no move or no pass finished.
    pub(crate) plan: Option<Plan>,
    /// Whether the wait ended at its hard deadline with the search still running.
    pub(crate) late: bool,
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
        // The search threads, a pool of the bot's own whose thread the thinking loop runs on
        // (see `SearchThreads::run`). Should the system refuse them, the search shares
        // rayon's global pool instead, with the same answers.
        let threads = crate::settings::SearchThreads::start(&config).unwrap_or_else(|e| {
            eprintln!("warning: {e}; searching in rayon's global pool");
            crate::settings::SearchThreads::default()
        });
        let engine = Engine::new(config, DefaultEvaluator::new(weights));
        // The passes of each position: 8 (a quick answer), the configured width (the minimum
        // quality of an answer), then wider up to the configured maximum.
        let handle = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("tetris-tt-think".into())
                .spawn(move || threads.run(|| think(engine, &shared, &widths)))
                .expect("a thread can be started")
        };
        Worker {
            shared,
            handle: Some(handle),
            full,
            generation: 0,
        }
    }

    /// Stops thinking about the current position (the search returns within a fraction of a
    /// millisecond) and waits until the thread is idle. The last finished pass stays
    /// available.
    pub(crate) fn pause(&self) {
        let mut s = self.shared.lock();
        s.paused = true;
        self.shared.interrupt();
        while s.busy {
            s = self
                .shared
                .changed
                .wait(s)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Starts searching `state` (after the control steps asked for before).
    pub(crate) fn search(&mut self, state: GameState) {
        self.generation += 1;
        let mut s = self.shared.lock();
        s.generation = self.generation;
        s.target = Some((self.generation, state));
        s.paused = false;
        s.result = None;
        s.finished = false;
        self.shared.interrupt();
    }

    /// Clears the engine's tables and prediction (a new game, or a lost one).
    pub(crate) fn reset(&mut self) {
        self.generation += 1;
        let mut s = self.shared.lock();
        s.generation = self.generation;
        s.target = None;
        s.result = None;
        s.finished = true;
        s.controls.push_back(Control::Reset);
        self.shared.interrupt();
    }

    /// Changes the rotation system. A search in progress starts again under the new rules
    /// (its passes so far were under the old ones); an answered position stays answered.
    pub(crate) fn set_rules(&self, rules: Rules) {
        let mut s = self.shared.lock();
        if !s.paused && !s.finished {
            s.result = None;
        }
        s.controls.push_back(Control::Rules(rules));
        self.shared.interrupt();
    }

    /// The answer to a request made at `asked`: the best finished pass of the current
    /// position, once it is good enough. Without `think` that is as soon as the configured
    /// width has finished, or at `asked + safety` whatever has; with it, no earlier than
    /// `asked + think` (the best pass by then). The wait never ends later than
    /// `asked + max(think, safety)`: past that, it takes what there is (`late` says so).
    /// The thread is paused before the answer is taken, so the engine's prediction is that
    /// answer's.
    pub(crate) fn answer(
        &self,
        asked: Instant,
        think: Option<Duration>,
        safety: Duration,
    ) -> Answer {
        let soft = asked + think.unwrap_or(safety);
        let hard = asked + think.map_or(safety, |t| t.max(safety));
        let mut late = false;
        let mut s = self.shared.lock();
        loop {
            let now = Instant::now();
            let full = s
                .result
                .as_ref()
                .is_some_and(|p| p.stats.width >= self.full);
            let ready = match think {
                None => full || (now >= soft && s.result.is_some()),
                Some(_) => now >= soft && (s.result.is_some() || s.finished),
            };
            // Nothing more will come: every width is done, the search was paused (a second
            // suggest on the same position), or there is no position.
            if ready || s.idle() {
                break;
            }
            if now >= hard {
                late = true;
                break;
            }
            let until = if now < soft { soft } else { hard };
            s = self
                .shared
                .changed
                .wait_timeout(s, until.saturating_duration_since(now))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        drop(s);
        self.pause();
        Answer {
            plan: self.shared.lock().result.clone(),
            late,
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        {
            let mut s = self.shared.lock();
            s.quit = true;
            self.shared.interrupt();
        }
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// What the thread takes on next.
enum Work {
    Control(Control),
    Search(u64, GameState),
}

/// The thread's loop.
fn think(mut engine: Engine, shared: &Shared, widths: &[usize]) {
    loop {
        let work = {
            let mut s = shared.lock();
            s.busy = false;
            shared.changed.notify_all();
            let work = loop {
                if s.quit {
                    return;
                }
                if let Some(c) = s.controls.pop_front() {
                    break Work::Control(c);
                }
                if !s.paused
                    && !s.finished
                    && let Some((generation, state)) = &s.target
                {
                    break Work::Search(*generation, state.clone());
                }
                s = shared.changed.wait(s).unwrap_or_else(|e| e.into_inner());
            };
            // Work is taken under the lock, where stops are asked for: clearing the stop here
            // never loses one meant for this work.
            shared.stop.store(false, Ordering::Relaxed);
            s.busy = true;
            work
        };
        match work {
            Work::Control(Control::Reset) => engine.reset(),
            Work::Control(Control::Rules(r)) => engine.set_rules(r),
            Work::Search(generation, state) => {
                let plan = engine.think(&state, widths, &shared.stop, |plan| {
                    let mut s = shared.lock();
                    // A stop asked for under the lock (a pause for an answer, a new position,
                    // new rules) makes this pass stale: the answer is the result as it stands,
                    // and refusing the pass keeps the engine's prediction that answer's.
                    let fresh = s.generation == generation && !shared.stop.load(Ordering::Relaxed);
                    if fresh {
                        s.result = Some(plan.clone());
                        shared.changed.notify_all();
                    }
                    fresh
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
