//! One module per command, each with its arguments and its `run`.

pub(crate) mod batch;
pub(crate) mod bench;
pub(crate) mod fumen;
pub(crate) mod movegen;
pub(crate) mod perft;
pub(crate) mod play;
pub(crate) mod suggest;
pub(crate) mod tbp;
pub(crate) mod tune;
pub(crate) mod versus;
