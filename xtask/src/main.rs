//! Project automation (`cargo xtask ...`): the TETRIS_TT_BITS bench and test matrices will live
//! here (issue 7).

fn main() {
    eprintln!("xtask: no subcommands yet");
    std::process::exit(2);
}
