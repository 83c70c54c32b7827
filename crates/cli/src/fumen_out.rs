//! A played game as fumen pages: where each piece went and what its lock did.

use board::Placement;
use fumen::PiecePlace;

/// The longest fumen string written: 8,000 characters keeps a string inside the request-line
/// limit of common web servers (8,190 bytes by default), so fumen.zui.jp and other viewers
/// open it from a URL, and inside what chat services take in one message with room to spare.
pub(crate) const MAX_FUMEN_LEN: usize = 8000;

/// A placement as a fumen piece.
pub(crate) fn place(p: &Placement) -> PiecePlace {
    PiecePlace {
        piece: p.piece,
        rotation: p.rotation,
        x: p.x,
        y: p.y,
    }
}

/// A page comment for a move: what it sent and the chains after it.
pub(crate) fn comment(o: &game::Outcome, attack: u32) -> String {
    let mut c = format!("attack {attack}, combo {}", o.carried.combo);
    if o.carried.b2b {
        c.push_str(", b2b");
    }
    if o.perfect_clear {
        c.push_str(", perfect clear");
    }
    c
}
