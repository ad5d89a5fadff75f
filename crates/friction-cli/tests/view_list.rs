//! The list of views (`friction_core::views`) proves itself: every listed view has a CLI
//! example that runs through the `friction-lab` binary and prints the CSV header its definition
//! states, `--metrics` columns exactly where it declares them, a chart (`friction-plot` draws
//! its declared number of panels, and `--svg` writes them), and a lesson; and what is built
//! from the list (`CATALOG`, the `--help` text, the page's lessons file) names exactly the
//! listed views, so removing a line removes the view everywhere.
//!
//! The test adds nothing to the list: it reads it.

#![allow(clippy::unwrap_used)]

mod common;
use common::run;

use friction_core::scenario::Scenario;
use friction_core::views::{ALL, CATALOG};

#[test]
fn every_listed_view_has_an_example_that_runs_with_its_stated_columns() {
    for v in ALL {
        let q = v.example.query;
        assert!(!q.is_empty(), "{} has no example", v.name);
        assert!(
            q.split('&').any(|kv| kv == format!("view={}", v.name)),
            "the example of {} is not of that view: {q}",
            v.name
        );
        let (code, out, err) = run(&[q]);
        assert_eq!(code, 0, "{q}: {err}");
        assert_eq!(out.lines().next(), Some(v.example.csv), "{q}");
        assert!(out.lines().count() > 1, "{q}: no rows");
        let (code, out, err) = run(&[q, "--metrics"]);
        match v.metrics {
            Some(columns) => {
                assert_eq!(code, 0, "{q} --metrics: {err}");
                assert_eq!(out.lines().next(), Some(columns), "{q} --metrics");
            }
            None => {
                assert_eq!(code, 2, "{q} --metrics: {out}");
                assert!(err.contains("--metrics is not defined"), "{q}: {err}");
            }
        }
    }
}

#[test]
fn every_listed_view_draws_its_panels_from_its_example() {
    let dir = std::env::temp_dir().join(format!("view-list-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for v in ALL {
        let q = v.example.query;
        // the CLI's own path: parse, run the job to its end, chart it
        let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e:?}"));
        let mut job = s.job().unwrap();
        while !job.done() {
            job.advance(&|| 0.0);
        }
        assert_eq!(job.error(), None, "{q}");
        let charts = friction_plot::panels::charts(&job.output());
        assert_eq!(charts.len(), v.panels, "{q}: panels");
        for c in &charts {
            assert!(
                c.series.iter().any(|s| !s.points.is_empty()),
                "{q}: {}",
                c.title
            );
        }
        let svg = dir.join(format!("{}.svg", v.name));
        let (code, _, err) = run(&[q, "--svg", svg.to_str().unwrap()]);
        assert_eq!(code, 0, "{q} --svg: {err}");
        let doc = std::fs::read_to_string(&svg).unwrap();
        assert!(
            doc.starts_with("<svg") && doc.contains("<polyline"),
            "{q}: svg"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_listed_view_has_a_lesson() {
    for v in ALL {
        let l = &v.lesson;
        assert!(!l.text.is_empty(), "{} has no lesson", v.name);
        assert!(l.equation.starts_with("<math"), "{}", v.name);
        assert!(!l.references.is_empty(), "{}", v.name);
    }
}

#[test]
fn what_is_built_from_the_list_names_exactly_the_listed_views() {
    let names: Vec<&str> = ALL.iter().map(|v| v.name).collect();
    // and the fit workspace, which the list cannot hold: it runs outside the core's views
    let catalog: Vec<&str> = CATALOG
        .iter()
        .filter(|v| !v.runs_outside())
        .map(|v| v.name)
        .collect();
    assert_eq!(catalog, names, "CATALOG");

    // --help: one example per listed view, in the list's order, and no other
    let (code, help, _) = run(&["--help"]);
    assert_eq!(code, 0);
    let examples: Vec<&str> = help
        .lines()
        .filter_map(|l| l.strip_prefix("  'view="))
        .filter_map(|l| l.split(['&', '\'']).next())
        .collect();
    assert_eq!(examples, names, "--help");
    for v in ALL {
        assert!(
            help.contains(&format!("'{}'", v.example.query)),
            "{}",
            v.name
        );
        if let Some(m) = v.metrics {
            assert!(help.contains(&format!("--metrics: {m}\n")), "{}", v.name);
        }
    }

    // the page's lessons file: a lesson for each listed view and no other (its content is
    // checked by tests/www_lessons.rs)
    let json = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../www/explain/lessons.json"
    ))
    .unwrap();
    let lessons: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&json).unwrap();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(
        lessons.keys().map(String::as_str).collect::<Vec<_>>(),
        sorted
    );
}
