//! The deadline modes. No timing is asserted: deadlines are either already past or a minute
//! away, so the outcome does not depend on the machine's speed.

mod common;

use game::Game;
use search::{Budget, Config, Engine};
use std::time::{Duration, Instant};

fn config() -> Config {
    Config {
        beam_width: 48,
        previews: 4,
        max_width: 32,
        ..Config::default()
    }
}

#[test]
fn a_past_deadline_still_gets_the_first_pass() {
    let game = Game::new(8, 4);
    let mut engine = Engine::with_config(config());
    let plan = engine
        .search(
            game.state(),
            Budget::Until(Instant::now() - Duration::from_secs(1)),
        )
        .expect("a move");
    assert_eq!((plan.stats.passes, plan.stats.width), (1, 8));
    assert_eq!(plan.placement, plan.line[0]);
}

#[test]
fn widening_passes_reuse_what_earlier_passes_cached() {
    let game = Game::new(8, 4);
    let mut engine = Engine::with_config(config());
    let plan = engine
        .search(
            game.state(),
            Budget::Until(Instant::now() + Duration::from_secs(60)),
        )
        .expect("a move");
    // Widths 8, 16 and 32 (the maximum) all finish.
    assert_eq!((plan.stats.passes, plan.stats.width), (3, 32));
    // A single cold pass at width 32 evaluates nearly everything it scores; the widening
    // passes find most of their positions already evaluated.
    let mut cold = Engine::with_config(Config {
        beam_width: 32,
        ..config()
    });
    let single = cold.suggest(game.state()).unwrap();
    if tt_core::BITS >= 12 {
        // With room for a pass's positions, the widening passes hit where the cold pass
        // evaluated.
        assert!(plan.stats.hits() > single.stats.hits());
        assert!(plan.stats.evaluations < plan.stats.nodes);
    } else {
        // A smaller table cannot hold a pass (1 bit is two slots), so hit counts say little
        // here; the widening's reuse is checked below with a search that fits any table.
        assert!(plan.stats.evaluations <= plan.stats.nodes);
    }
    // A search that fits a table of any size: one candidate per depth. The first pass
    // evaluates each depth's one position; the two wider passes find all of them cached.
    let shaft = common::shaft_of_os(4);
    let mut engine = Engine::with_config(config());
    let fits = engine
        .search(
            &shaft,
            Budget::Until(Instant::now() + Duration::from_secs(60)),
        )
        .expect("the shaft has room");
    assert_eq!(fits.stats.passes, 3);
    // A depth stops probing once it has missed half its table's slots in a search. In a
    // two-slot table (TETRIS_TT_BITS=1) that is after its first miss, so the wider passes
    // evaluate again; in every larger table they hit.
    let expected = if tt_core::ENTRIES / 2 > 1 {
        (15, 5, 10)
    } else {
        (15, 15, 0)
    };
    assert_eq!(
        (fits.stats.nodes, fits.stats.evaluations, fits.stats.hits()),
        expected
    );
    // The last pass is the fixed-width search: same move.
    assert_eq!(plan.placement, single.placement);
}

/// The passes of the TBP bot without widening: a width-8 pass, then the configured width,
/// which stops at a deadline; the first always finishes.
#[test]
fn firm_passes_finish_and_later_ones_stop_at_the_deadline() {
    let game = Game::new(12, 4);
    let mut a = Engine::with_config(config());
    let mut b = Engine::with_config(config());
    let plain = a.suggest(game.state()).unwrap();
    let passes = |deadline| Budget::Passes {
        widths: &[8, 48],
        firm: 1,
        limit: None,
        deadline: Some(deadline),
    };
    let within = b
        .search(
            game.state(),
            passes(Instant::now() + Duration::from_secs(60)),
        )
        .unwrap();
    assert_eq!(plain.placement, within.placement);
    assert_eq!(within.stats.width, 48);
    // Out of time: the width-8 pass answers.
    let mut c = Engine::with_config(config());
    let late = c
        .search(
            game.state(),
            passes(Instant::now() - Duration::from_secs(1)),
        )
        .unwrap();
    assert_eq!((late.stats.passes, late.stats.width), (1, 8));
}

#[test]
fn thinking_runs_every_width_until_stopped_and_reports_each_pass() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let game = Game::new(8, 4);
    let mut engine = Engine::with_config(config());
    let stop = AtomicBool::new(false);
    let mut widths = Vec::new();
    let last = engine
        .think(game.state(), &[8, 16, 48], &stop, |p| {
            widths.push(p.stats.width);
            true
        })
        .expect("three passes");
    assert_eq!(widths, vec![8, 16, 48]);
    // The last pass is the fixed-width search: the same move as a plain suggest.
    let plain = Engine::with_config(config()).suggest(game.state()).unwrap();
    assert_eq!(last.placement, plain.placement);
    // Asked to stop before it starts, nothing finishes (not even the first pass).
    stop.store(true, Ordering::Relaxed);
    let mut called = false;
    let none = Engine::with_config(config()).think(game.state(), &[8, 16], &stop, |_| {
        called = true;
        true
    });
    assert!(none.is_none() && !called);
}

#[test]
fn a_node_budget_widens_until_spent_and_replays_exactly() {
    let game = Game::new(8, 4);
    // Unlimited: every width up to the maximum finishes, and the last pass is the fixed
    // search at that width.
    let all = Engine::with_config(config())
        .search(game.state(), Budget::Nodes(u64::MAX))
        .unwrap();
    assert_eq!((all.stats.passes, all.stats.width), (3, 32));
    let fixed = Engine::with_config(Config {
        beam_width: 32,
        ..config()
    })
    .suggest(game.state())
    .unwrap();
    assert_eq!(all.placement, fixed.placement);
    // No budget at all: the width-8 pass still finishes, and nothing after it starts.
    let none = Engine::with_config(config())
        .search(game.state(), Budget::Nodes(0))
        .unwrap();
    assert_eq!((none.stats.passes, none.stats.width), (1, 8));
    let eight = Engine::with_config(Config {
        beam_width: 8,
        ..config()
    })
    .suggest(game.state())
    .unwrap();
    assert_eq!(none.placement, eight.placement);
    assert_eq!(none.stats.nodes, eight.stats.nodes);
    // A budget that ends inside the last pass: that pass is dropped, the one before answers,
    // and the work stops soon after the budget (the limit is checked every 16 parents).
    let two_passes = Engine::with_config(Config {
        max_width: 16,
        ..config()
    })
    .search(game.state(), Budget::Nodes(u64::MAX))
    .unwrap();
    let limit = two_passes.stats.nodes + 1;
    let cut = Engine::with_config(config())
        .search(game.state(), Budget::Nodes(limit))
        .unwrap();
    assert_eq!((cut.stats.passes, cut.stats.width), (2, 16));
    assert_eq!(cut.placement, two_passes.placement);
    assert!(cut.stats.nodes >= limit, "it spends its budget");
    assert!(
        cut.stats.nodes < all.stats.nodes,
        "it stops inside the last pass"
    );
    // Work, not time: the same budget gives the same search.
    let again = Engine::with_config(config())
        .search(game.state(), Budget::Nodes(limit))
        .unwrap();
    assert_eq!(
        (again.placement, again.stats.nodes),
        (cut.placement, cut.stats.nodes)
    );
}

#[test]
fn a_refused_pass_leaves_the_prediction_of_the_last_taken_one() {
    use std::sync::atomic::AtomicBool;
    let game = Game::new(8, 4);
    let stop = AtomicBool::new(false);
    let predicted = |widths: &[usize], take: usize| {
        let mut engine = Engine::with_config(config());
        let mut passes = 0;
        let plan = engine.think(game.state(), widths, &stop, |_| {
            passes += 1;
            passes <= take
        });
        let prediction = *engine.tables().prediction().expect("a pass was taken");
        (plan.expect("a pass was taken").placement, prediction)
    };
    let (narrow_move, narrow) = predicted(&[1], 1);
    let (wide_move, wide) = predicted(&[1, 48], 2);
    // The widths must disagree, or a stale prediction could not be told from the right one.
    assert_ne!(narrow_move, wide_move);
    assert_ne!(narrow, wide);
    // The second pass finishes but its caller refuses it (a stop raced it): the answer is the
    // first pass, and so is the board the next search expects.
    let (refused_move, refused) = predicted(&[1, 48], 1);
    assert_eq!(refused_move, narrow_move);
    assert_eq!(refused, narrow);
}
