//! Standard output for the commands' results.
//!
//! `println!` panics when standard output is gone, as when a result is piped into `head`; a
//! command's output goes through [`out!`] and [`outln!`] instead. A reader that has closed the
//! pipe ends the program quietly with success, as Unix tools end on a broken pipe; any other
//! failure to write (a full disk, say) is a one-line error and exit code 2, as every other
//! error of the command line.

use std::io::{ErrorKind, Write};

/// Writes `text` to standard output and flushes it; see the module's rules for a failure.
pub(crate) fn write_out(text: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(text).and_then(|()| out.flush()) {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("tetris-tt: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

/// `print!` to standard output, ending the program on a closed pipe instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write_out(format_args!($($arg)*))
    };
}

/// `println!` to standard output, ending the program on a closed pipe instead of panicking.
macro_rules! outln {
    () => {
        $crate::out::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};
