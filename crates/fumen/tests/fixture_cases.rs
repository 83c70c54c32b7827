//! Every case of `tests/data/fumen-cases.txt` (strings made and decoded by the reference
//! JavaScript library), each under its own test name: the pages decode to exactly the listed
//! boards and pieces, and encoding them again gives a string that decodes to the same pages.

use fumen::{Page, decode, encode};

/// One case: the string and each page's text as the fixture writes it.
fn case(name: &str) -> (String, Vec<String>) {
    let text = include_str!("data/fumen-cases.txt");
    let mut lines = text.lines().skip_while(|l| *l != format!("FUMEN {name}"));
    lines.next().unwrap_or_else(|| panic!("no case {name}"));
    let fumen = lines.next().unwrap().to_string();
    let mut pages: Vec<String> = Vec::new();
    for l in lines {
        if l == "END" {
            break;
        }
        if l.starts_with("PAGE ") {
            pages.push(String::new());
        } else {
            let p = pages.last_mut().expect("a page before its rows");
            p.push_str(l);
            p.push('\n');
        }
    }
    (fumen, pages)
}

/// A page in the fixture's format: rows top first ('(empty)' for none), then the piece.
fn render(page: &Page) -> String {
    let board = page.field.board();
    let mut out = String::new();
    if board.roof() == 0 {
        out.push_str("(empty)\n");
    }
    for y in (0..board.roof() as i32).rev() {
        for x in 0..10 {
            out.push(if board.occupied(x, y) { '#' } else { '.' });
        }
        out.push('\n');
    }
    if let Some(p) = page.piece {
        out.push_str(&format!(
            "PIECE {} {} {} {}\n",
            p.piece, p.rotation, p.x, p.y
        ));
    }
    out
}

fn check(name: &str) {
    let (s, want) = case(name);
    let pages = decode(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
    let got: Vec<String> = pages.iter().map(render).collect();
    assert_eq!(got, want, "{name}");
    let again = encode(&pages);
    assert_eq!(decode(&again).unwrap(), pages, "{name}: {again}");
    // The reference library writes the same string.
    assert_eq!(again, s, "{name}");
}

#[test]
fn tspin() {
    check("TSPIN");
}

#[test]
fn dtcannon() {
    check("DTCANNON");
}

#[test]
fn public_game_0() {
    check("PUBLIC_GAME_0");
}

#[test]
fn public_game_1() {
    check("PUBLIC_GAME_1");
}

#[test]
fn every_case_of_the_file_has_a_test() {
    let text = include_str!("data/fumen-cases.txt");
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("FUMEN "))
        .collect();
    assert_eq!(
        names,
        ["TSPIN", "DTCANNON", "PUBLIC_GAME_0", "PUBLIC_GAME_1"]
    );
}
