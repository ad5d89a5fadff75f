//! `--metrics` never prints NaN or inf (issue 40): a metric a run does not define (no breakaway,
//! fewer than two maxima, not settled by t_end) is an empty cell, and the readout's notes say why.
//!
//! Links are sampled from the core's schema (`fuzzgen::legal_link`) among the views with
//! `--metrics`; each runs a few units of work, is held where it got (the CLI's stop at its budget
//! prints the metrics of the runs so far, the page's readout shows them) and, for the cheap ones,
//! to its end.

use crate::fuzzgen;

use friction_core::scenario::Scenario;
use fuzzgen::{legal_link, link_text, Rng};

/// The first cell of a metrics CSV that is not a finite number where a number is expected:
/// `NaN`, `inf`, `-inf` in any spelling.
fn bad_cell(csv: &str) -> Option<String> {
    csv.lines().skip(1).find_map(|l| {
        l.split(',')
            .find(|c| {
                let t = c.trim().to_ascii_lowercase();
                t.contains("nan")
                    || t.contains("inf")
                    || t.parse::<f64>().is_ok_and(|x| !x.is_finite())
            })
            .map(|_| l.to_string())
    })
}

/// Whether a metrics CSV has an empty cell where a value goes (a `unit` column is empty for
/// counts).
fn has_empty_value(csv: &str) -> bool {
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    lines.any(|l| {
        l.split(',')
            .zip(&head)
            .any(|(c, h)| c.is_empty() && *h != "unit")
    })
}

#[test]
fn metrics_have_no_nan_or_inf_over_random_legal_links() {
    let (mut runs, mut empty, mut finished) = (0, 0, 0);
    let mut case = 0u64;
    while runs < 3000 {
        case += 1;
        let mut r = Rng::new(90_000 + case);
        let q = link_text(&legal_link(&mut r));
        let (s, _) = Scenario::parse_lenient(&q);
        if s.view().metrics.is_none() {
            continue;
        }
        runs += 1;
        let mut job = s.job().unwrap_or_else(|e| panic!("{q}: {e}"));
        // a few units, often less than a whole run: the metrics of a run cut short
        let units = 1 + r.below(6);
        for _ in 0..units {
            if job.done() {
                break;
            }
            job.advance(&|| 0.0);
        }
        if job.done() {
            finished += 1;
        } else {
            job.hold(true);
        }
        let csv = job.csv(true);
        assert!(bad_cell(&csv).is_none(), "{q}:\n{csv}");
        // an empty cell is explained in the readout's notes
        if has_empty_value(&csv) {
            empty += 1;
            let notes = job.metric_notes();
            assert!(!notes.is_empty(), "{q}: empty cells and no note\n{csv}");
            let readout = job.readout().notes;
            for n in &notes {
                assert!(readout.contains(n), "{q}: {n} not in the readout's notes");
            }
        }
    }
    // the sample meets undefined metrics and finished runs
    assert!(
        empty > 100 && finished > 100,
        "{empty} with empty cells, {finished} finished"
    );
}
