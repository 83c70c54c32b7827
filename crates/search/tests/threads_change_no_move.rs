//! Proof that the number of search threads only changes the speed: the same seeded games give
//! the same plans (move, line, score, alternatives, nodes scored) on 1, 2 and 4 threads, with
//! the cache on and off, speculating one piece or two, and under a node budget that stops
//! passes part-way through a depth. The test matrix runs it at every table size it builds.

use game::{Game, GameState};
use search::selfplay;
use search::{Budget, Config, Engine, Plan};

/// What a plan says, but for the work that depends on the threads (evaluations, time).
fn gist(p: &Plan) -> String {
    format!(
        "{:?} {} {:?} {:?} {} {:?} nodes {} width {} depth {}",
        p.placement,
        p.uses_hold,
        p.line,
        p.line_holds,
        p.score,
        p.alternatives,
        p.stats.nodes,
        p.stats.width,
        p.stats.search_depth
    )
}

/// Runs `f` in a pool of four threads, so that shares really run at once (and interleave,
/// on a machine with fewer cores).
fn in_pool<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .expect("a pool of four threads")
        .install(f)
}

fn self_play(config: Config, seed: u64, pieces: usize) -> Vec<String> {
    in_pool(|| {
        let mut engine = Engine::with_config(config);
        let mut game = Game::new(seed, engine.config().previews);
        let mut plans = Vec::new();
        for _ in 0..pieces {
            let Some(step) = selfplay::step(&mut engine, &mut game) else {
                break;
            };
            plans.push(gist(&step.plan));
        }
        plans
    })
}

fn base() -> Config {
    Config {
        beam_width: 24,
        previews: 4,
        ..Config::default()
    }
}

fn same_on_every_thread_count(config: Config, seed: u64, pieces: usize) {
    let one = self_play(config.clone(), seed, pieces);
    assert_eq!(one.len(), pieces, "the game lasts");
    for threads in [2, 4] {
        let many = self_play(
            Config {
                search_threads: threads,
                ..config.clone()
            },
            seed,
            pieces,
        );
        for (i, (a, b)) in one.iter().zip(&many).enumerate() {
            assert_eq!(a, b, "move {i} on {threads} threads");
        }
        assert_eq!(one.len(), many.len());
    }
}

#[test]
fn threads_change_no_move_with_the_cache() {
    same_on_every_thread_count(base(), 3, 40);
}

#[test]
fn threads_change_no_move_without_the_cache() {
    let config = Config {
        use_cache: false,
        ..base()
    };
    same_on_every_thread_count(config, 5, 30);
}

#[test]
fn threads_change_no_move_when_two_pieces_are_speculated() {
    let config = Config {
        speculate_deep: 50,
        speculate_deep_from: 0,
        ..base()
    };
    same_on_every_thread_count(config, 7, 25);
}

/// A node budget stops a pass where one thread would have stopped it, so a search under
/// `Budget::Nodes` answers the same on any number of threads: limits that end passes at
/// many points, within depths included.
#[test]
fn a_node_budget_answers_the_same_on_every_thread_count() {
    let state: GameState = Game::new(9, 5).state().clone();
    let plan = |threads: usize, limit: u64| {
        in_pool(|| {
            let mut engine = Engine::with_config(Config {
                max_width: 256,
                search_threads: threads,
                ..Config::default()
            });
            let p = engine.search(&state, Budget::Nodes(limit)).expect("a move");
            (gist(&p), p.stats.passes)
        })
    };
    let mut passes = Vec::new();
    for limit in (0..12).map(|i| 3_000 + i * 7_919) {
        let one = plan(1, limit);
        assert_eq!(one, plan(2, limit), "limit {limit}");
        assert_eq!(one, plan(4, limit), "limit {limit}");
        passes.push(one.1);
    }
    // The limits end different passes: the test covers passes cut short at several widths.
    passes.dedup();
    assert!(passes.len() >= 3, "passes finished: {passes:?}");
}

/// The default evaluator, but for a panic on its 500th position.
struct PanicsLater(search::DefaultEvaluator, std::sync::atomic::AtomicUsize);

impl search::Evaluator for PanicsLater {
    fn position(&self, board: &board::Board, hold: Option<board::Piece>) -> search::PositionEval {
        if self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 500 {
            panic!("the evaluator gave up");
        }
        self.0.position(board, hold)
    }
    fn context(
        &self,
        eval: &search::PositionEval,
        step: &search::StepContext<'_>,
    ) -> search::StepScore {
        self.0.context(eval, step)
    }
}

/// A panic in a search on several threads reaches the caller, wherever it happened.
#[test]
fn a_panic_on_several_threads_reaches_the_caller() {
    let state = Game::new(1, 5).state().clone();
    let caught = in_pool(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let config = Config {
                search_threads: 2,
                ..Config::default()
            };
            let evaluator = PanicsLater(search::DefaultEvaluator::default(), Default::default());
            Engine::new(config, evaluator).suggest(&state)
        }))
    });
    assert!(caught.is_err(), "the panic was lost");
}
