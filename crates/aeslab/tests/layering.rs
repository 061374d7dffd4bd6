//! The library's modules form a DAG (see `src/lib.rs`): a module may name only the modules
//! below it. This test reads every source file and checks every path it names — `crate::X`,
//! `$crate::X` in macro bodies, `super::…` that climbs out of a module, and the groups of
//! `use crate::{…}` — against the allowed edges. Comments are left out (they may name any
//! module).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What each top-level module may name besides itself. Everything may name the bottom
/// (`cpu`, `ct`, `error`, `aead_glue`, and the crate root's `Block` and `Error`).
const ALLOWED: &[(&str, &[&str])] = &[
    ("cpu", &[]),
    ("ct", &[]),
    ("error", &[]),
    ("aead_glue", &[]),
    ("simd", &[]),
    ("aes", &["simd"]),
    ("ghash", &["simd"]),
    ("ctr", &["aes", "simd"]),
    ("aez", &["aes", "simd"]),
    ("gcm", &["ctr", "ghash", "aes", "simd"]),
    ("ace", &["simd"]),
    ("lib", &["ace", "aead_glue", "aes", "aez", "cpu", "ct", "ctr", "error", "gcm", "ghash", "simd"]),
];

/// Names everything may use: the bottom modules and the root's items.
const BOTTOM: &[&str] = &["cpu", "ct", "error", "aead_glue", "Block", "Error"];

/// The module path of a source file under `src/` (`src/aes/insn/x86.rs` → aes, insn, x86;
/// a `mod.rs` is its directory; `src/lib.rs` is the root, `lib`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts == ["lib"] {
        return vec!["lib".into()];
    }
    parts
}

/// The text without `//` comments (doc comments included); string literals are kept.
fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|line| {
            let mut in_str = false;
            let bytes = line.as_bytes();
            for i in 0..bytes.len() {
                match bytes[i] {
                    b'"' if i == 0 || bytes[i - 1] != b'\\' => in_str = !in_str,
                    b'/' if !in_str && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
                    _ => {}
                }
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifier starting at `at` in `s`.
fn ident_at(s: &str, at: usize) -> &str {
    let end = s[at..].find(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(s.len(), |e| at + e);
    &s[at..end]
}

/// Every top-level name `text` reaches from the module at `path`.
fn references(text: &str, path: &[String]) -> BTreeSet<String> {
    let text = strip_comments(text);
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        // `crate::` and `$crate::` alike; skip identifiers that merely end in "crate".
        let before = text[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = at + "crate::".len();
        if text[rest..].starts_with('{') {
            // `use crate::{a, b::c, d::{e, f}}`: the names at the group's top level.
            let mut depth = 0;
            let mut start = true;
            for (i, c) in text[rest..].char_indices() {
                match c {
                    '{' => {
                        depth += 1;
                        start = depth == 1;
                    }
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => start = true,
                    c if depth == 1 && start && (c.is_alphanumeric() || c == '_') => {
                        out.insert(ident_at(&text, rest + i).to_string());
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident_at(&text, rest).to_string());
        }
    }
    // `super::` from a module's root file reaches the crate root; from deeper files it stays
    // inside (each `super` climbs one level of `path`).
    for (at, _) in text.match_indices("super::") {
        if text[..at].ends_with("super::") {
            continue; // counted from the first `super` of a chain
        }
        let mut levels = 0;
        let mut rest = at;
        while text[rest..].starts_with("super::") {
            levels += 1;
            rest += "super::".len();
        }
        if levels >= path.len() {
            out.insert(ident_at(&text, rest).to_string());
        }
    }
    out.retain(|n| !n.is_empty() && n != "self");
    out
}

/// The breaches of the order in one file: the names its module may not use. A name that is
/// no module (a new item at the crate root) counts too: the root holds only `Block` and
/// `Error`.
fn breaches(text: &str, path: &[String]) -> Vec<String> {
    let top = path[0].as_str();
    let allowed = ALLOWED
        .iter()
        .find(|(m, _)| *m == top)
        .map(|(_, a)| *a)
        .unwrap_or_else(|| panic!("module `{top}` is not in the layering table"));
    references(text, path).into_iter().filter(|n| n != top && !BOTTOM.contains(&n.as_str()) && !allowed.contains(&n.as_str())).collect()
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_module_names_only_modules_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    assert!(files.len() > 20, "{files:?}");
    let mut failures = Vec::new();
    for file in &files {
        let path = module_path(&src, file);
        let text = std::fs::read_to_string(file).unwrap();
        for name in breaches(&text, &path) {
            failures.push(format!("{}: module `{}` names `{name}`", file.strip_prefix(&src).unwrap().display(), path[0]));
        }
    }
    assert!(failures.is_empty(), "the module order is broken:\n{}", failures.join("\n"));
}

/// The checker itself finds what it must: each kind of path that climbs the order, and not
/// what only looks like one.
#[test]
fn the_checker_flags_upward_paths_in_every_form() {
    let aes = vec!["aes".to_string(), "insn".to_string()];
    assert_eq!(breaches("use crate::ctr::FaceLevel;", &aes), ["ctr"]);
    assert_eq!(breaches("macro_rules! m { () => { $crate::gcm::Gcm::new() } }", &aes), ["gcm"]);
    assert_eq!(breaches("use crate::{Block, aez::{Aez, extract}, simd::Reg};", &aes), ["aez"]);
    assert_eq!(breaches("use super::super::ctr::x;", &aes), ["ctr"]);
    let aes_root = vec!["aes".to_string()];
    assert_eq!(breaches("use super::ghash::GhashKey;", &aes_root), ["ghash"]);
    // Allowed: itself, what is below, the bottom, `super` inside the module, and comments.
    assert!(breaches("use crate::aes::Backend; use crate::simd::Reg; use crate::{Block, Error, cpu};", &aes).is_empty());
    assert!(breaches("use super::key_schedule::RoundKeys; // crate::gcm is above", &aes).is_empty());
    assert!(breaches("/// See `crate::ctr`.\nfn f() {}", &aes).is_empty());
    assert!(breaches("let my_crate::x = 1;", &aes).is_empty());
}
