//! A quick perft from the empty board, for measuring the generator:
//! `cargo run --release -p board --example perft -- IOLJSZT [norise]`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(queue) = args.get(1) else {
        eprintln!("usage: perft QUEUE [norise]");
        std::process::exit(2);
    };
    let queue: Option<Vec<board::Piece>> = queue.chars().map(board::Piece::from_char).collect();
    let Some(queue) = queue else {
        eprintln!("the queue is made of I O T L J S Z");
        std::process::exit(2);
    };
    let spawn = if args.get(2).map(String::as_str) == Some("norise") {
        board::Spawn::NoRise
    } else {
        board::Spawn::Rise
    };
    let opts = board::PerftOptions {
        spawn,
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let r = board::perft(&board::Board::new(), &queue, &opts, |_, _| {});
    let s = t.elapsed().as_secs_f64();
    println!("{r:?} {s:.2} s {:.1} M leaves/s", r.leaves as f64 / s / 1e6);
}
