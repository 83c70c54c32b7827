//! The house rules a reader relies on, checked over the repository's own files: no words of
//! the team's working process, no pair of source files that import each other, no function
//! longer than 100 lines unless a comment says why its length is one idea, and no decision
//! record without its commit.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file under `dir` whose name ends in one of `exts` (and the CI script), skipping build
/// output and hidden folders other than `.ci`.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if (name != "target" && !name.starts_with('.')) || name == ".ci" {
                files(&path, exts, out);
            }
        } else if exts.iter().any(|e| name.ends_with(e)) || name == "run" {
            out.push(path);
        }
    }
}

/// Words of the working process that mean nothing to a reader of the repository: a numbered
/// work step or issue, or a named stretch of the team's time. Built from parts so that this
/// file does not match itself.
fn process_words(text: &str) -> Vec<String> {
    let numbered = [
        ["st", "op"].concat(),
        ["st", "ops"].concat(),
        ["iss", "ue"].concat(),
    ];
    let plain = [["ses", "sion"].concat(), ["work ", "period"].concat()];
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '#'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut found = Vec::new();
    for pair in words.windows(2) {
        let number = pair[1].trim_start_matches('#');
        if numbered.iter().any(|w| w == pair[0])
            && !number.is_empty()
            && number.chars().all(|c| c.is_ascii_digit())
        {
            found.push(format!("{} {}", pair[0], pair[1]));
        }
    }
    for w in &plain {
        if lower.contains(w.as_str()) {
            found.push(w.clone());
        }
    }
    found
}

#[test]
fn no_words_of_the_working_process_in_any_file() {
    let mut all = Vec::new();
    files(
        &root(),
        &[
            ".rs", ".md", ".toml", ".json", ".py", ".txt", ".sh", ".jsonl",
        ],
        &mut all,
    );
    assert!(all.len() > 50, "the walk found only {} files", all.len());
    let mut bad = Vec::new();
    for path in all {
        // A file that is not text (none should be) has no words to check.
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for w in process_words(&text) {
            bad.push(format!("{}: {w:?}", path.display()));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_word_check_finds_what_it_looks_for() {
    let step = ["st", "op 12"].concat();
    let numbered = ["iss", "ue #7"].concat();
    assert_eq!(process_words(&format!("after {step} we")).len(), 1);
    assert_eq!(process_words(&numbered).len(), 1);
    assert!(process_words("stop the search; an issue of timing").is_empty());
}

/// The files of its own crate that a source file imports (`use crate::a::...`).
fn imports(path: &Path, src: &Path) -> BTreeSet<PathBuf> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let line = line.trim();
        let Some(rest) = line
            .strip_prefix("use crate::")
            .or_else(|| line.strip_prefix("pub(crate) use crate::"))
        else {
            continue;
        };
        let module: Vec<&str> = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .next()
            .unwrap_or("")
            .split("::")
            .filter(|s| !s.is_empty())
            .collect();
        for n in (1..=module.len()).rev() {
            let rel: PathBuf = module[..n].iter().collect();
            for candidate in [
                src.join(&rel).with_extension("rs"),
                src.join(&rel).join("mod.rs"),
            ] {
                if candidate.exists() {
                    out.insert(candidate);
                }
            }
        }
    }
    out
}

#[test]
fn no_two_source_files_import_each_other() {
    let mut checked = 0;
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let src = entry.unwrap().path().join("src");
        let mut rs = Vec::new();
        files(&src, &[".rs"], &mut rs);
        for a in &rs {
            for b in imports(a, &src) {
                assert!(
                    b == *a || !imports(&b, &src).contains(a),
                    "{} and {} import each other",
                    a.display(),
                    b.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} imports seen");
}

/// Functions of more than 100 lines, with the line they start on, that have no comment
/// beginning `// One idea:` on the lines just before them or inside them.
fn long_functions(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let t = t
            .strip_prefix("pub(crate) ")
            .or(t.strip_prefix("pub "))
            .unwrap_or(t);
        let Some(rest) = t.strip_prefix("fn ") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (mut depth, mut started, mut end) = (0i32, false, i);
        for (j, l) in lines.iter().enumerate().skip(i) {
            depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
            started |= l.contains('{');
            if (started && depth <= 0) || (!started && l.trim_end().ends_with(';')) {
                end = j;
                break;
            }
        }
        if end - i + 1 > 100 {
            let said = lines[i.saturating_sub(8)..=end]
                .iter()
                .any(|l| l.trim_start().starts_with("// One idea:"));
            if !said {
                out.push((i + 1, name));
            }
        }
    }
    out
}

#[test]
fn long_functions_say_why() {
    let mut rs = Vec::new();
    for dir in ["crates", "xtask", "benches"] {
        files(&root().join(dir), &[".rs"], &mut rs);
    }
    assert!(rs.len() > 30);
    let mut bad = Vec::new();
    for path in rs {
        let text = std::fs::read_to_string(&path).unwrap();
        for (line, name) in long_functions(&text) {
            bad.push(format!("{}:{line} fn {name}", path.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "over 100 lines without `// One idea:`:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_length_check_counts_lines() {
    let body = "    x();\n".repeat(120);
    let long = format!("fn long() {{\n{body}}}\n");
    assert_eq!(long_functions(&long), vec![(1, "long".to_string())]);
    let said = format!("// One idea: a table.\nfn long() {{\n{body}}}\n");
    assert!(long_functions(&said).is_empty());
    assert!(long_functions("fn short() {\n}\n").is_empty());
}

/// The rows of a decision record's tables whose last cell (the commit) names no commit: no
/// word of 7 to 40 hexadecimal digits.
fn rows_without_a_commit(text: &str) -> Vec<String> {
    let names_a_commit = |cell: &str| {
        cell.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| (7..=40).contains(&w.len()) && w.chars().all(|c| c.is_ascii_hexdigit()))
    };
    text.lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---") && !l.starts_with("| decision |"))
        .filter(|l| {
            let last = l.trim_end().trim_end_matches('|').rsplit('|').next();
            !last.is_some_and(names_a_commit)
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn every_decision_names_its_commit() {
    let text = std::fs::read_to_string(root().join("docs/decisions.md")).unwrap();
    assert!(text.lines().filter(|l| l.starts_with("| ")).count() > 50);
    let bad = rows_without_a_commit(&text);
    assert!(bad.is_empty(), "rows without a commit:\n{}", bad.join("\n"));
}

#[test]
fn the_commit_check_finds_what_it_looks_for() {
    let placeholder = "| a change | 1 M -> 2 M | COMMIT |";
    assert_eq!(rows_without_a_commit(placeholder), vec![placeholder]);
    assert!(rows_without_a_commit("| a change | 1 M | measured on 45bb88a |").is_empty());
    assert!(rows_without_a_commit("| a change | 1 M | 8d66f52, reverted |").is_empty());
    assert!(rows_without_a_commit("| decision | measured | commit |\n|---|---|---|").is_empty());
}
