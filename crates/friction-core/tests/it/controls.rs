//! The page's controls through the real views (unit tests see only test views): which keys
//! are structural, and the explorer's presets.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use friction_core::experiments::curve::{composite_figure, PARAMS};
use friction_core::registry;
use friction_core::scenario::{ControlKind, Scenario};
use friction_core::views;

/// Everything the page builds its fields from, except the values.
fn shape(s: &Scenario) -> Vec<String> {
    s.controls()
        .into_iter()
        .map(|c| {
            format!(
                "{}|{}|{}|{}|{}|{:?}|{:?}|{:?}",
                c.key, c.label, c.unit, c.min, c.max, c.kind, c.group, c.role
            )
        })
        .collect()
}

/// Values worth trying for a control: the ends of its range, each option, other list lengths.
fn candidates(kind: &ControlKind, min: f64, max: f64, value: &str) -> Vec<String> {
    let n = value.split(',').count();
    let list = |x: f64, len: usize| vec![x.to_string(); len].join(",");
    match kind {
        ControlKind::Number => vec![
            min.to_string(),
            max.to_string(),
            ((min + max) / 2.0).to_string(),
        ],
        ControlKind::List { max_len, .. } => vec![
            list(min, n),
            list(max, n),
            list(min, 1),
            list(max, *max_len),
        ],
        ControlKind::Choice { options } => options.iter().map(|o| o.0.to_string()).collect(),
        ControlKind::MultiChoice { options, max_len } => vec![
            options[1].0.to_string(),
            options
                .iter()
                .take(*max_len)
                .map(|o| o.0)
                .collect::<Vec<_>>()
                .join(","),
        ],
    }
}

/// A starting point per view and model family, including models with per-model fields.
fn scenarios() -> Vec<String> {
    let mut out = Vec::new();
    for v in views::ALL {
        out.push(format!("view={}", v.name));
    }
    for m in ["frbd-gkv", "frbd-elastic", "frbd-kv"] {
        out.push(format!("view=hysteresis&model={m}"));
        out.push(format!("view=relaxation&model={m}"));
    }
    out.extend(
        [
            "view=hysteresis&funit=rad&freqs=10,100",
            "view=hysteresis&sigma1=80",
            "view=robot&model=frbd-gkv&ref=step",
            "view=explorer&model=lugre,lugre-rational,hollars",
            "view=stickslip&model=reset-integrator,lugre",
        ]
        .map(String::from),
    );
    out
}

#[test]
fn structural_is_true_exactly_for_the_keys_whose_value_changes_the_controls() {
    let mut declared = BTreeSet::new();
    let mut observed = BTreeSet::new();
    for q in scenarios() {
        let s = Scenario::parse(&q).unwrap();
        let before = shape(&s);
        for c in s.controls() {
            if c.structural {
                declared.insert(c.key);
            }
            for value in candidates(&c.kind, c.min, c.max, &c.value) {
                let mut t = s.clone();
                if t.set(c.key, &value).is_err() {
                    continue;
                }
                if shape(&t) != before {
                    assert!(
                        c.structural,
                        "{q}: {}={value} changes the controls but is not structural",
                        c.key
                    );
                    observed.insert(c.key);
                }
            }
        }
    }
    // and no key is declared structural without reason
    assert_eq!(declared, observed);
    assert_eq!(
        declared,
        BTreeSet::from(["view", "model", "n", "funit", "freqs", "ref"])
    );
}

#[test]
fn the_explorer_offers_one_preset_per_composite_figure() {
    let explorer = views::ALL.iter().find(|v| v.name == "explorer").unwrap();
    let presets = explorer.presets.expect("the explorer has presets");
    assert_eq!(presets.heading, "Scenarios and composite paper figures");
    // the class scenarios first, then one preset per figure
    let list: Vec<_> = (presets.list)()
        .into_iter()
        .filter(|p| composite_figure(p.id).is_some())
        .collect();
    let with_figure: Vec<&str> = registry::registry()
        .filter(|e| composite_figure(e.info.id).is_some())
        .map(|e| e.info.id)
        .collect();
    assert_eq!(list.iter().map(|p| p.id).collect::<Vec<_>>(), with_figure);
    for p in &list {
        // the button's text is the paper's acronym, the start of the model's name
        let name = registry::find(p.id).unwrap().info.name;
        assert!(name.starts_with(&format!("{}: ", p.label)), "{name}");
        assert_eq!(p.name, format!("Composite paper figure for {name}"));
        // the preset's query gives the model alone with the figure's values
        let mut s = Scenario::parse("view=explorer&model=lugre&vmax=0.02").unwrap();
        for (k, v) in &p.query {
            s.set(k, v).unwrap();
        }
        assert_eq!(s.get("model").unwrap(), p.id);
        let want = composite_figure(p.id).unwrap();
        for (spec, x) in PARAMS.iter().zip(want) {
            assert_eq!(s.view_value(spec.key), Some(x), "{} {}", p.id, spec.key);
        }
    }
    let sv = list.iter().find(|p| p.id == "sv").unwrap();
    assert_eq!(
        sv.description,
        format!(
            "{}: F against displacement (symmetric sweep), Fex = 15 N",
            registry::find("sv").unwrap().info.name
        )
    );
    let av = list.iter().find(|p| p.id == "av").unwrap();
    assert!(
        av.description
            .ends_with(": F against velocity on [-1, 1] m/s, Fex = 15 N"),
        "{}",
        av.description
    );
    // every view offers class presets (presets.rs checks them all)
}
