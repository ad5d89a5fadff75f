//! The page's lessons (`www/explain/lessons.json`) are the listed views' lessons
//! (`ViewDef::lesson` of every view in `friction_core::views::ALL`), written as JSON: the page
//! fetches them when its lesson box needs them instead of carrying the text in its wasm
//! (bench/results/wasm-size.md). This test fails when the file differs from the list;
//! `FL_BLESS=1 cargo test -p friction-cli --test www_lessons` rewrites it.

use friction_core::views::ALL;
use serde_json::{json, Map, Value};

/// The file as the list gives it: `{view: {text, equation, references: [{text, link}],
/// schematic, notes}}`, in the list's order.
fn expected() -> String {
    let mut all = Map::new();
    for v in ALL {
        let l = &v.lesson;
        let refs: Vec<Value> = l
            .references
            .iter()
            .map(|r| json!({ "text": r.text, "link": r.link }))
            .collect();
        all.insert(
            v.name.to_string(),
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
fn www_lessons_json_is_the_list_of_views() {
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
        "www/explain/lessons.json differs from the lessons of friction_core::views::ALL; \
         regenerate it: FL_BLESS=1 cargo test -p friction-cli --test www_lessons"
    );
}
