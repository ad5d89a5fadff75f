//! The page's lessons (`www/explain/lessons.json`) are the core's lesson table
//! (`friction_core::views::lessons::LESSONS`), written as JSON: the page fetches them when its
//! lesson box needs them instead of carrying the text in its wasm (bench/results/wasm-size.md).
//! This test fails when the file differs from the table; `FL_BLESS=1 cargo test -p friction-cli
//! --test www_lessons` rewrites it.

use friction_core::views::lessons::LESSONS;
use serde_json::{json, Map, Value};

/// The file as the table gives it: `{view: {text, equation, references: [{text, link}],
/// schematic, notes}}`, the shape the wasm's former `lesson(view)` returned.
fn expected() -> String {
    let mut all = Map::new();
    for l in &LESSONS {
        let refs: Vec<Value> = l
            .references
            .iter()
            .map(|r| json!({ "text": r.text, "link": r.link }))
            .collect();
        all.insert(
            l.view.to_string(),
            json!({
                "text": l.text,
                "equation": l.equation,
                "references": refs,
                "schematic": l.schematic,
                "notes": l.notes,
            }),
        );
    }
    let mut s = serde_json::to_string_pretty(&Value::Object(all)).unwrap_or_default();
    s.push('\n');
    s
}

#[test]
fn www_lessons_json_is_the_core_table() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../www/explain/lessons.json"
    );
    let want = expected();
    if std::env::var_os("FL_BLESS").is_some() {
        std::fs::write(path, &want).expect("write www/explain/lessons.json");
        return;
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "www/explain/lessons.json differs from friction_core::views::lessons::LESSONS; \
         regenerate it: FL_BLESS=1 cargo test -p friction-cli --test www_lessons"
    );
}
