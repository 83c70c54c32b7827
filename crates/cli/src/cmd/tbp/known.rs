//! The game as the bot knows it, and how each front-end message changes it.
//!
//! The front end is the authority: a move it plays is adopted when its cells fit the board,
//! whether or not this engine's move generator reaches it; a move that does not fit means the
//! bot no longer knows the game, and it waits for the next `start`.

use board::{Board, HEIGHT, Piece, Placement, Rotation, Rules, Spin, WIDTH, generate};
use game::{BagState, Carried, GameState, PieceSet, score_clear};
use serde_json::Value;

/// The largest combo count taken from a `start`; larger ones are absurd (a game has never had
/// a combo of a thousand) and are clamped with a warning.
pub(crate) const MAX_COMBO: u64 = 1000;

/// The game as the bot knows it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Known {
    pub(crate) board: Board,
    pub(crate) hold: Option<Piece>,
    /// Current piece first; empty when the front end has not yet told the next piece.
    pub(crate) queue: Vec<Piece>,
    pub(crate) carried: Carried,
    pub(crate) pieces_placed: u64,
    /// What is known of a 7-bag at the end of the queue, when the front end says so.
    pub(crate) bag: Option<BagState>,
}

/// What a `play` did to the known game.
#[derive(Debug, PartialEq)]
pub(crate) enum Played {
    /// The move is one the move generator reaches, with its spin.
    Reached,
    /// The move was adopted although this engine would not play it so; the text says why.
    Adopted(String),
}

impl Known {
    /// The state to search from, or why there is none.
    pub(crate) fn state(&self) -> Result<GameState, &'static str> {
        let (&current, queue) = self
            .queue
            .split_first()
            .ok_or("the queue is empty (waiting for new_piece)")?;
        Ok(GameState {
            board: self.board,
            current,
            hold: self.hold,
            queue: queue.to_vec(),
            carried: self.carried,
            pieces_placed: self.pieces_placed,
            bag: self.bag,
            incoming: 0,
        })
    }

    /// Appends a piece the front end announced, and follows the bag.
    pub(crate) fn new_piece(&mut self, p: Piece) -> Option<String> {
        self.queue.push(p);
        let bag = self.bag?;
        match bag.draw(p) {
            Some(next) => {
                self.bag = Some(next);
                None
            }
            None => {
                self.bag = None;
                Some(format!(
                    "new_piece {p} cannot come from the 7-bag state the front end gave; the bag is no longer followed"
                ))
            }
        }
    }

    /// Plays the front end's move. `hold` is the message's own hold flag when it has one;
    /// otherwise, as the protocol says, a hold happened when the piece differs from the current
    /// piece. Returns `Err` with the reason when the move cannot be applied: the bot then no
    /// longer knows the game.
    pub(crate) fn play(
        &mut self,
        mv: &Placement,
        hold: Option<bool>,
        rules: Rules,
    ) -> Result<Played, String> {
        let Some(&current) = self.queue.first() else {
            return Err("play while the current piece is unknown".into());
        };
        let hold = hold.unwrap_or(mv.piece != current);
        // The piece the move must place, and how many known pieces it uses up.
        let (expected, taken) = match (hold, self.hold) {
            (false, _) => (Some(current), 1),
            (true, Some(h)) => (Some(h), 1),
            // A first hold plays the next piece; if it was not announced yet, trust the move.
            (true, None) => (self.queue.get(1).copied(), self.queue.len().min(2)),
        };
        if let Some(e) = expected
            && e != mv.piece
        {
            return Err(format!(
                "play of {} {}, but the piece to place is {e} (current {current}, hold {}); the queue is not the game's",
                mv.piece,
                if hold { "with hold" } else { "without hold" },
                self.hold.map_or("empty".to_string(), |p| p.to_string())
            ));
        }
        if !self
            .board
            .fits(mv.piece, mv.rotation, mv.x as i32, mv.y as i32)
        {
            return Err(format!(
                "play of {} {} at ({}, {}) does not fit this board",
                mv.piece, mv.rotation, mv.x, mv.y
            ));
        }
        let mut want = mv.cells();
        want.sort_unstable();
        let reached: Vec<Spin> = generate(&self.board, mv.piece, rules)
            .iter()
            .filter(|p| {
                let mut c = p.cells();
                c.sort_unstable();
                c == want
            })
            .map(|p| p.spin)
            .collect();
        let played = if reached.contains(&mv.spin) {
            Played::Reached
        } else if let Some(ours) = reached.first() {
            Played::Adopted(format!(
                "the front end calls it spin {}, this engine's rules say {ours}; following the front end",
                mv.spin
            ))
        } else {
            Played::Adopted(format!(
                "{} {} at ({}, {}) is not reachable under {} rules",
                mv.piece,
                mv.rotation,
                mv.x,
                mv.y,
                rules.name()
            ))
        };
        let cleared = self
            .board
            .place(mv.piece, mv.rotation, mv.x as i32, mv.y as i32);
        let outcome = score_clear(cleared.count_ones(), mv.spin, &self.board, self.carried);
        self.carried = outcome.carried;
        if hold {
            self.hold = Some(current);
        }
        self.queue.drain(..taken);
        self.pieces_placed += 1;
        Ok(played)
    }
}

pub(crate) fn parse_piece(s: &str) -> Option<Piece> {
    let mut chars = s.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    Piece::from_char(c.to_ascii_uppercase())
}

/// A bool read loosely: true/false, or a number (non-zero is true); missing or null is `None`.
pub(crate) fn loose_bool(v: Option<&Value>) -> Result<Option<bool>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(Value::Number(n)) => Ok(Some(n.as_f64().is_some_and(|f| f != 0.0))),
        Some(other) => Err(format!("expected a bool, found {other}")),
    }
}

/// The randomizer named by a `rules` message (TBP randomizer extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Randomizer {
    /// Missing, "unknown" or not recognised: nothing is assumed about future pieces.
    Unknown,
    /// "uniform".
    Uniform,
    /// "seven_bag".
    SevenBag,
    /// "general_bag".
    GeneralBag,
}

/// What a `rules` message asks for.
#[derive(Debug, PartialEq)]
pub(crate) struct RulesMsg {
    pub(crate) randomizer: Randomizer,
    /// The rotation system, when the message names one.
    pub(crate) rules: Option<Rules>,
}

/// Reads a `rules` message. `Err` when it names a rotation system this engine cannot play.
pub(crate) fn parse_rules(msg: &Value) -> Result<RulesMsg, String> {
    let randomizer = match msg.get("randomizer").and_then(Value::as_str) {
        Some("uniform") => Randomizer::Uniform,
        Some("seven_bag") => Randomizer::SevenBag,
        Some("general_bag") => Randomizer::GeneralBag,
        _ => Randomizer::Unknown,
    };
    // No field name is standard yet; these are the ones front ends use.
    let named = ["kicks", "rotation_system", "rotation"]
        .iter()
        .find_map(|k| msg.get(*k).and_then(Value::as_str));
    let rules = match named.map(|s| s.to_ascii_lowercase()) {
        None => None,
        Some(s) => Some(match s.as_str() {
            "srs" | "guideline" => Rules::Srs,
            "srs_plus" | "srs+" | "srsplus" | "srs-plus" | "tetrio" | "tetr.io" => Rules::SrsPlus,
            other => return Err(format!("unknown rotation system {other:?}")),
        }),
    };
    Ok(RulesMsg { randomizer, rules })
}

/// Reads a `start` message. Returns the game and any warnings (values it had to correct).
// One idea: the fields of one `start` message, read and checked in the protocol's order.
pub(crate) fn parse_start(msg: &Value) -> Result<(Known, Vec<String>), String> {
    let mut warnings = Vec::new();
    let hold = match msg.get("hold") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            Some(parse_piece(s).ok_or_else(|| format!("start: unknown hold piece {s:?}"))?)
        }
        Some(other) => {
            return Err(format!(
                "start: hold must be a piece letter or null, found {other}"
            ));
        }
    };
    let queue = msg
        .get("queue")
        .and_then(Value::as_array)
        .ok_or("start without a \"queue\" list")?
        .iter()
        .map(|v| {
            v.as_str()
                .and_then(parse_piece)
                .ok_or_else(|| format!("start: unknown queue piece {v}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let combo = match msg.get("combo") {
        None | Some(Value::Null) => 0,
        Some(v) => v
            .as_u64()
            .or_else(|| v.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
            .ok_or_else(|| format!("start: combo must be a number, found {v}"))?,
    };
    if combo > MAX_COMBO {
        warnings.push(format!(
            "start: combo {combo} is absurd; read as {MAX_COMBO}"
        ));
    }
    let b2b = loose_bool(msg.get("back_to_back"))
        .map_err(|e| format!("start: back_to_back: {e}"))?
        .unwrap_or(false);
    let rows = msg
        .get("board")
        .and_then(Value::as_array)
        .ok_or("start without a \"board\" list of rows")?;
    if rows.len() > HEIGHT {
        return Err(format!(
            "start: board has {} rows, at most {HEIGHT}",
            rows.len()
        ));
    }
    let mut cols = [0u64; WIDTH];
    for (y, row) in rows.iter().enumerate() {
        let cells = row
            .as_array()
            .ok_or_else(|| format!("start: board row {y} is not a list"))?;
        if cells.len() != WIDTH {
            return Err(format!(
                "start: board row {y} has {} cells, expected {WIDTH}",
                cells.len()
            ));
        }
        for (x, c) in cells.iter().enumerate() {
            if !c.is_null() {
                cols[x] |= 1 << y;
            }
        }
    }
    let bag = match msg.get("randomizer") {
        Some(r) if r.get("type").and_then(Value::as_str) == Some("seven_bag") => {
            // The protocol's field is bag_state; an older draft called it bag.
            match r
                .get("bag_state")
                .or_else(|| r.get("bag"))
                .and_then(Value::as_array)
            {
                Some(list) => {
                    let pieces: Option<Vec<Piece>> = list
                        .iter()
                        .map(|v| v.as_str().and_then(parse_piece))
                        .collect();
                    match pieces {
                        Some(p) => Some(BagState {
                            left: p.into_iter().collect::<PieceSet>(),
                        }),
                        None => {
                            warnings.push(
                                "start: unreadable bag_state; the bag is not followed".into(),
                            );
                            None
                        }
                    }
                }
                None => None,
            }
        }
        _ => None,
    };
    Ok((
        Known {
            board: Board::from_columns(cols),
            hold,
            queue,
            carried: Carried {
                b2b,
                combo: combo.min(MAX_COMBO) as u32,
            },
            pieces_placed: 0,
            bag,
        },
        warnings,
    ))
}

/// Reads a move (`location` and `spin`) and its hold flag, if the front end gives one (in the
/// move or beside it in the message).
pub(crate) fn parse_move(msg: &Value) -> Result<(Placement, Option<bool>), String> {
    let v = msg.get("move").ok_or("play without a \"move\"")?;
    let loc = v.get("location").ok_or("move without a \"location\"")?;
    let piece = loc
        .get("type")
        .and_then(Value::as_str)
        .and_then(parse_piece)
        .ok_or("move: location.type must be a piece letter")?;
    let rotation = loc
        .get("orientation")
        .and_then(Value::as_str)
        .and_then(Rotation::from_name)
        .ok_or("move: location.orientation must be north, east, south or west")?;
    let coord = |k: &str| -> Result<i8, String> {
        loc.get(k)
            .and_then(Value::as_i64)
            .filter(|v| (-10..50).contains(v))
            .map(|v| v as i8)
            .ok_or(format!("move: location.{k} must be a small integer"))
    };
    let spin = match v.get("spin").and_then(Value::as_str) {
        None => Spin::None,
        Some(s) => Spin::from_name(s).ok_or(format!("move: unknown spin {s:?}"))?,
    };
    let hold = loose_bool(v.get("hold").or_else(|| msg.get("hold")))
        .map_err(|e| format!("move: hold: {e}"))?;
    Ok((
        Placement {
            piece,
            rotation,
            x: coord("x")?,
            y: coord("y")?,
            spin,
        },
        hold,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn known(board: &str, queue: &[Piece], hold: Option<Piece>) -> Known {
        Known {
            board: board.parse().unwrap(),
            hold,
            queue: queue.to_vec(),
            carried: Carried::default(),
            pieces_placed: 0,
            bag: None,
        }
    }

    fn at(piece: Piece, rotation: Rotation, x: i8, y: i8) -> Placement {
        Placement {
            piece,
            rotation,
            x,
            y,
            spin: Spin::None,
        }
    }

    /// Hold misread: with queue T T and an empty hold, a front end that says it held and
    /// played the second T was taken as not holding (the piece alone looked like no hold).
    #[test]
    fn hold_misread_an_explicit_hold_of_an_equal_next_piece_is_a_hold() {
        let mut k = known("", &[Piece::T, Piece::T, Piece::O], None);
        let t = at(Piece::T, Rotation::North, 4, 0);
        assert_eq!(k.play(&t, Some(true), Rules::Srs), Ok(Played::Reached));
        assert_eq!((k.hold, k.queue.clone()), (Some(Piece::T), vec![Piece::O]));
        // Without a flag the protocol's rule applies: the same piece means no hold.
        let mut k = known("", &[Piece::T, Piece::T, Piece::O], None);
        k.play(&t, None, Rules::Srs).unwrap();
        assert_eq!((k.hold, k.queue.clone()), (None, vec![Piece::T, Piece::O]));
        // The flag is read from the move or from the message.
        let msg = json!({"type":"play","move":{"location":{"type":"T","orientation":"north","x":4,"y":0},"spin":"none","hold":true}});
        assert_eq!(parse_move(&msg).unwrap().1, Some(true));
        let msg = json!({"type":"play","hold":1,"move":{"location":{"type":"T","orientation":"north","x":4,"y":0}}});
        assert_eq!(parse_move(&msg).unwrap().1, Some(true));
    }

    #[test]
    fn front_end_authority_an_unreachable_move_that_fits_is_adopted_with_its_effects() {
        // Row 0 is open under row 1 in columns 0..4: an I there is unreachable; it clears row 0.
        let mut k = known("#########.\n....######", &[Piece::I, Piece::T], None);
        k.carried = Carried {
            b2b: true,
            combo: 2,
        };
        let cave = at(Piece::I, Rotation::North, 1, 0);
        let played = k.play(&cave, None, Rules::Srs).unwrap();
        assert!(matches!(played, Played::Adopted(_)), "{played:?}");
        assert_eq!(k.board, "#########.".parse::<Board>().unwrap());
        // A single breaks back-to-back and extends the combo.
        assert_eq!(
            k.carried,
            Carried {
                b2b: false,
                combo: 3
            }
        );
        assert_eq!((k.queue.clone(), k.pieces_placed), (vec![Piece::T], 1));
    }

    #[test]
    fn front_end_authority_a_move_that_does_not_fit_changes_nothing() {
        let mut k = known("#########.", &[Piece::I, Piece::T], None);
        let before = k.clone();
        let err = k
            .play(&at(Piece::I, Rotation::North, 1, 0), None, Rules::Srs)
            .unwrap_err();
        assert!(err.contains("does not fit"), "{err}");
        assert_eq!(k, before);
        // A piece that contradicts the queue is refused too.
        let err = k
            .play(
                &at(Piece::O, Rotation::North, 4, 5),
                Some(false),
                Rules::Srs,
            )
            .unwrap_err();
        assert!(err.contains("the piece to place is I"), "{err}");
        assert_eq!(k, before);
    }

    /// The front end's spin label decides the attack and back-to-back in its game.
    #[test]
    fn front_end_authority_the_front_ends_spin_label_is_followed() {
        let mut k = known("#.........\n#.........", &[Piece::I, Piece::T], None);
        let mut flat = at(Piece::I, Rotation::North, 5, 0);
        flat.spin = Spin::Full;
        let played = k.play(&flat, None, Rules::Srs).unwrap();
        assert!(
            matches!(&played, Played::Adopted(why) if why.contains("spin")),
            "{played:?}"
        );
    }

    #[test]
    fn loose_fields_back_to_back_as_a_number_is_true() {
        let rows: Vec<Value> = (0..20)
            .map(|_| Value::Array(vec![Value::Null; 10]))
            .collect();
        for (v, b2b) in [
            (json!(1), true),
            (json!(0), false),
            (json!(true), true),
            (Value::Null, false),
        ] {
            let msg = json!({"type":"start","hold":null,"queue":["T"],"combo":0,"back_to_back":v,"board":rows});
            let (k, warnings) = parse_start(&msg).unwrap();
            assert_eq!(k.carried.b2b, b2b, "back_to_back {v}");
            assert!(warnings.is_empty());
        }
    }

    #[test]
    fn overflow_an_absurd_combo_is_clamped_with_a_warning() {
        let msg = json!({"type":"start","hold":null,"queue":["T"],"combo":4294967295u64,"back_to_back":false,"board":[]});
        let (k, warnings) = parse_start(&msg).unwrap();
        assert_eq!(k.carried.combo, MAX_COMBO as u32);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn rules_randomizer_and_rotation_system_are_read() {
        let r =
            parse_rules(&json!({"type":"rules","randomizer":"seven_bag","kicks":"SRS+"})).unwrap();
        assert_eq!(
            r,
            RulesMsg {
                randomizer: Randomizer::SevenBag,
                rules: Some(Rules::SrsPlus)
            }
        );
        let r = parse_rules(&json!({"type":"rules","randomizer":"dealer's choice"})).unwrap();
        assert_eq!(
            r,
            RulesMsg {
                randomizer: Randomizer::Unknown,
                rules: None
            }
        );
        assert!(parse_rules(&json!({"type":"rules","rotation_system":"ars"})).is_err());
    }

    #[test]
    fn the_bag_state_of_start_is_followed_through_new_pieces() {
        let msg = json!({"type":"start","hold":null,"queue":["T","I"],"combo":0,"back_to_back":false,
            "board":[],"randomizer":{"type":"seven_bag","bag_state":["S","Z"]}});
        let (mut k, _) = parse_start(&msg).unwrap();
        assert_eq!(k.bag.unwrap().possible().len(), 2);
        assert_eq!(k.new_piece(Piece::S), None);
        assert_eq!(
            k.bag.unwrap().possible().iter().collect::<Vec<_>>(),
            vec![Piece::Z]
        );
        assert_eq!(k.new_piece(Piece::Z), None);
        assert_eq!(k.bag.unwrap().possible(), PieceSet::ALL);
        // A piece the bag cannot give: the bag is dropped with a warning.
        assert_eq!(k.new_piece(Piece::O), None);
        assert!(k.new_piece(Piece::O).is_some());
        assert_eq!(k.bag, None);
    }
}
