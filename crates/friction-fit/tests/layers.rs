//! The fit crate's modules form layers: a module may use only modules of lower layers (and
//! itself), as in the core (`crates/friction-core/tests/layers.rs`).
//!
//! Why a test: the words of the report (`format`) and the record (`data`) sit at the bottom,
//! the stages of the fit above them, the report on top; an import circle (the fit through a
//! number formatter back to the report) makes every change touch all of them. This reads every
//! source file of each top-level module, collects the `crate::<module>` paths used in code and
//! fails on any use of a module at the same or a higher layer.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Bottom to top. Modules on one line may not use each other.
const LAYERS: &[&[&str]] = &[
    &["format", "stats"],
    &["data"],
    &["spec"],
    &["load"],
    &["eval"],
    &["guess", "lm"],
    &["fit"],
    &["profile"],
    &["report"],
    &["example"],
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
