//! The core's modules form layers: a module may use only modules of lower layers (and itself).
//!
//! Why a test: the contracts (`params`, `model`, `job`) must not depend on the lists above them
//! (the registry of 47 models, the list of views), or every new model or view would touch the
//! contract and imports would run in circles. This reads every source file of each top-level
//! module, collects the `crate::<module>` paths used in code (comments and doc links are not
//! dependencies) and fails on any use of a module at the same or a higher layer.
//!
//! Inside a folder the files need no order, but they must not import each other in a circle
//! (`closed_loop.rs` ↔ `forced.rs` was one): the second test follows the `super::<sibling>` and
//! `crate::<folder path>::<sibling>` paths of every folder's files and fails on any cycle.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Bottom to top. Modules on one line may not use each other.
const LAYERS: &[&[&str]] = &[
    &["params"],
    &["model", "stribeck"],
    &["integrate"],
    &["statics", "dynamics", "frbd"],
    &["registry"],
    &["experiments"],
    &["job"],
    &["views"],
    &["scenario"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn sources(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .expect("readable source folder")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for p in entries {
            sources(&p, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The top-level modules named as `crate::<module>` in the code (not the comments) of `text`.
fn used_modules(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
            rest = after;
        }
        // `use crate::{a, b}` names several modules at once
        if let Some(i) = code.find("crate::{") {
            let inner = &code[i + "crate::{".len()..];
            for part in inner.split([',', '}']) {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

#[test]
fn no_module_uses_a_module_of_its_own_or_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut violations = Vec::new();
    let mut seen = BTreeSet::new();
    for entry in std::fs::read_dir(&src).expect("src") {
        let path = entry.expect("entry").path();
        let module = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 name")
            .to_string();
        if module == "lib" {
            continue;
        }
        let layer = layer_of(&module)
            .unwrap_or_else(|| panic!("module {module} is in no layer: add it to LAYERS"));
        seen.insert(module.clone());
        let mut files = Vec::new();
        sources(&path, &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).expect("readable");
            for used in used_modules(&text) {
                if used == module {
                    continue;
                }
                match layer_of(&used) {
                    Some(l) if l < layer => {}
                    Some(_) => violations.push(format!(
                        "{} ({module}) uses crate::{used}, which is not below it",
                        f.strip_prefix(&src).unwrap_or(&f).display()
                    )),
                    None => {}
                }
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
    for layer in LAYERS {
        for m in *layer {
            assert!(
                seen.contains(*m),
                "LAYERS names {m}, which no longer exists"
            );
        }
    }
}

/// The names `prefix` is followed by in the code (not the comments) of `text`: `prefix` + name
/// and each name of a group `prefix{a, b::c}`.
fn names_after(text: &str, prefix: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find(prefix) {
            // `super::super::x` seen from `super::` is not a sibling of this level
            let before = &rest[..i];
            let after = &rest[i + prefix.len()..];
            rest = after;
            if before.ends_with("::") || before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            if let Some(group) = after.strip_prefix('{') {
                let group = group.split('}').next().unwrap_or("");
                for part in group.split(',') {
                    let name = ident(part.split("::").next().unwrap_or(""));
                    if !name.is_empty() {
                        out.insert(name);
                    }
                }
            } else {
                let name = ident(after);
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    }
    out
}

/// The module names of a folder's entries (`x.rs` and `x/`, not `mod.rs`), each with its files.
fn siblings(dir: &Path) -> Vec<(String, Vec<PathBuf>)> {
    let mut out: Vec<(String, Vec<PathBuf>)> = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable source folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        let Some(stem) = p.file_stem().and_then(|s| s.to_str()).map(str::to_string) else {
            continue;
        };
        if stem == "mod" || (p.is_file() && p.extension().is_none_or(|e| e != "rs")) {
            continue;
        }
        let mut files = Vec::new();
        sources(&p, &mut files);
        match out.iter_mut().find(|(n, _)| *n == stem) {
            Some((_, f)) => f.extend(files),
            None => out.push((stem, files)),
        }
    }
    out
}

/// The import circles among the files of `dir` (path `module` from the crate root) and of every
/// folder below it, each as `a -> b -> a`.
fn circles(dir: &Path, module: &str, found: &mut Vec<String>) {
    let nodes = siblings(dir);
    let names: Vec<&str> = nodes.iter().map(|(n, _)| n.as_str()).collect();
    // edges: sibling i uses sibling j
    let mut edges = vec![BTreeSet::new(); nodes.len()];
    for (i, (_, files)) in nodes.iter().enumerate() {
        for f in files {
            let text = std::fs::read_to_string(f).expect("readable");
            // module depth of the file below `dir`: x.rs and x/mod.rs are 1, x/y.rs 2, …
            let rel = f.strip_prefix(dir).expect("below dir");
            let mut depth = rel.components().count();
            if rel.file_name().is_some_and(|n| n == "mod.rs") {
                depth -= 1;
            }
            let mut used = names_after(&text, &"super::".repeat(depth));
            used.extend(names_after(&text, &format!("crate::{module}::")));
            for u in used {
                if let Some(j) = names.iter().position(|n| *n == u) {
                    if j != i {
                        edges[i].insert(j);
                    }
                }
            }
        }
    }
    // a circle: a path from a sibling back to itself (each reported from its smallest member)
    for start in 0..nodes.len() {
        let mut stack = vec![(start, vec![start])];
        while let Some((at, path)) = stack.pop() {
            for &next in &edges[at] {
                if next == start {
                    let mut c: Vec<&str> = path.iter().map(|&k| names[k]).collect();
                    c.push(names[start]);
                    found.push(format!("{module}: {}", c.join(" -> ")));
                } else if next > start && !path.contains(&next) {
                    let mut p = path.clone();
                    p.push(next);
                    stack.push((next, p));
                }
            }
        }
    }
    for (name, _) in &nodes {
        let sub = dir.join(name);
        if sub.is_dir() {
            circles(&sub, &format!("{module}::{name}"), found);
        }
    }
}

#[test]
fn no_files_of_a_folder_import_each_other_in_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for (name, _) in siblings(&src) {
        let dir = src.join(&name);
        if dir.is_dir() {
            circles(&dir, &name, &mut found);
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn the_circle_check_sees_a_circle() {
    let dir = std::env::temp_dir().join(format!("layers-circle-{}", std::process::id()));
    let sub = dir.join("exp");
    std::fs::create_dir_all(&sub).expect("temp folder");
    std::fs::write(sub.join("mod.rs"), "mod a;\nmod b;\nmod c;\n").expect("write");
    std::fs::write(sub.join("a.rs"), "use super::b::X;\n// super::c::Y\n").expect("write");
    std::fs::write(sub.join("b.rs"), "use super::{c::Z, d};\n").expect("write");
    std::fs::write(sub.join("c.rs"), "fn f() { crate::exp::a::g(); }\n").expect("write");
    let mut found = Vec::new();
    circles(&sub, "exp", &mut found);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(found, ["exp: a -> b -> c -> a"]);
}

#[test]
fn the_check_sees_an_upward_use() {
    // the parser behind the layer test finds plain, grouped and nested paths, not comments
    let used = used_modules(
        "use crate::views::ALL;\nuse crate::{job, params::ParamSpec};\n// crate::scenario\n\
         let x = crate::registry::find(\"a\");",
    );
    let names: Vec<&str> = used.iter().map(String::as_str).collect();
    assert_eq!(names, ["job", "params", "registry", "views"]);
}
