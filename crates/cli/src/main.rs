//! The `tetris-tt` binary: self-play, the TBP bot, move-generation inspection and the bench
//! command will live here (issue 6).

fn main() {
    eprintln!("tetris-tt: no subcommands yet");
    std::process::exit(2);
}
