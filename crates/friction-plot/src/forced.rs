//! Charts of the force-driven block: the displacement against the applied force and against
//! time (pre-sliding, Canudas de Wit et al. 1995, Fig. 2), and the breakaway force and the
//! displacement at breakaway against the force rate on a log axis (the same paper's Fig. 4).

use crate::axes::range_of;
use crate::thin::{thin, thin_path};
use crate::{axis_range, padded_range, ChartSpec, Series, PALETTE};
use friction_core::experiments::stickslip::forced::{Breakaway, BreakawayCurve, ForcedSeries};

/// A run as drawn: (palette slot, legend label, run); the slot is the model's place among the
/// selected models, so its colour matches the legend.
pub type SlottedRun<'a> = (usize, &'a str, &'a ForcedSeries);

fn curve(slot: usize, label: &str, points: Vec<(f64, f64)>) -> Series {
    Series {
        label: label.to_string(),
        color: PALETTE[slot % PALETTE.len()],
        points,
        dashed: false,
    }
}

/// The natural scale of a pre-sliding displacement \[m\]: a micrometre (LuGre's bristles
/// deflect F/σ0 ≈ 10 µm at 1 N), the axis of a law that holds the block at x = 0 exactly.
pub const PRESLIDING_SCALE: f64 = 1e-6;

fn chart(title: &str, x_label: &str, y_label: &str, series: Vec<Series>) -> ChartSpec {
    chart_scaled(title, x_label, y_label, series, 0.0)
}

fn chart_scaled(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: Vec<Series>,
    y_scale: f64,
) -> ChartSpec {
    // the panels share one legend band above them (`figure::shared_legend`): no headroom
    let x_range = range_of(series.iter().flat_map(|s| s.points.iter().map(|p| &p.0)));
    let (ylo, yhi) =
        crate::axes::finite_bounds(series.iter().flat_map(|s| s.points.iter().map(|p| &p.1)));
    let y_range = axis_range(ylo, yhi, y_scale);
    ChartSpec {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        x_range,
        y_range,
        x_log: false,
        series,
        notes: Vec::new(),
        y_scale,
    }
}

/// Displacement against applied force, and displacement against time.
pub fn presliding_charts(runs: &[SlottedRun<'_>]) -> Vec<ChartSpec> {
    let path = |f: fn(&ForcedSeries) -> (&[f64], &[f64]), thinning: fn(&[f64], &[f64]) -> _| {
        runs.iter()
            .map(|&(slot, label, r)| {
                let (a, b) = f(r);
                curve(slot, label, thinning(a, b))
            })
            .collect::<Vec<_>>()
    };
    vec![
        chart_scaled(
            "Displacement against applied force",
            "applied force u [N]",
            "displacement x [m]",
            path(|r| (&r.u, &r.x), thin_path),
            PRESLIDING_SCALE,
        ),
        chart_scaled(
            "Displacement against time",
            "time t [s]",
            "displacement x [m]",
            path(|r| (&r.t, &r.x), thin),
            PRESLIDING_SCALE,
        ),
    ]
}

/// Breakaway force against force rate, and the displacement at the breakaway peak, on a log
/// rate axis; one curve per model with points (`labels` in model order). A law without a peak
/// (Coulomb, Dahl) has no displacement at breakaway: the point where its F levels off depends on
/// where the solver's steps fall, so it is left out of the second panel (the readout flags it).
pub fn breakaway_charts(labels: &[String], curves: &[BreakawayCurve]) -> Vec<ChartSpec> {
    let series = |pick: fn(&Breakaway) -> f64, peaks_only: bool| {
        curves
            .iter()
            .map(|c| {
                let label = labels.get(c.model).map_or("", |l| l.as_str());
                let pts = c
                    .points
                    .iter()
                    .filter(|b| !(peaks_only && b.no_peak))
                    .map(|b| (b.rate, pick(b)))
                    .collect::<Vec<_>>();
                curve(c.model, label, pts)
            })
            .filter(|s| !s.points.is_empty())
            .collect::<Vec<_>>()
    };
    // rates span decades: the axis is logarithmic, padded by a factor each side
    let rates = curves.iter().flat_map(|c| c.points.iter().map(|b| b.rate));
    let (lo, hi) = rates
        .filter(|r| r.is_finite() && *r > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), r| {
            (lo.min(r), hi.max(r))
        });
    let x_range = if lo.is_finite() && hi > 0.0 {
        let pad = (hi / lo).powf(0.05).max(1.5);
        (lo / pad, hi * pad)
    } else {
        (0.1, 10.0)
    };
    let log_chart = |title: &str, y_label: &str, s: Vec<Series>| {
        let mut c = chart(title, "force rate ρ [N/s]", y_label, s);
        let ys = c.series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
        let (ylo, yhi) = ys
            .filter(|y| y.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
                (a.min(y), b.max(y))
            });
        c.y_range = padded_range(ylo, yhi);
        c.x_range = x_range;
        c.x_log = true;
        c
    };
    let mut displacement = log_chart(
        "Displacement at the breakaway peak against force rate",
        "displacement at the peak x_b [m]",
        series(|b| b.x, true),
    );
    displacement.notes = no_peak_notes(labels, curves);
    vec![
        log_chart(
            "Breakaway force against force rate",
            "breakaway force F_b [N]",
            series(|b| b.force, false),
        ),
        displacement,
    ]
}

/// Why a model's curve is missing from the displacement panel, or has gaps: one line per model
/// whose F had no peak at some of the rates run so far.
fn no_peak_notes(labels: &[String], curves: &[BreakawayCurve]) -> Vec<String> {
    curves
        .iter()
        .filter_map(|c| {
            let label = labels.get(c.model).map_or("", |l| l.as_str());
            let flat = c.points.iter().filter(|b| b.no_peak).count();
            match flat {
                0 => None,
                f if f == c.points.len() => Some(format!("{label}: F has no peak, so no x_b")),
                f => Some(format!(
                    "{label}: no peak at {f} of {} rates",
                    c.points.len()
                )),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{draw_chart, Style};
    use plotters::prelude::*;

    fn point(rate: f64, no_peak: bool) -> Breakaway {
        Breakaway {
            rate,
            force: 1.0,
            time: 1.0 / rate,
            applied: 1.0,
            x: if no_peak { 3e-3 } else { 5e-5 / rate },
            slid: no_peak,
            no_peak,
        }
    }

    #[test]
    fn the_displacement_panel_says_which_models_had_no_peak() {
        let labels = ["LuGre", "Dahl", "Mixed"].map(String::from);
        let curves = [
            BreakawayCurve {
                model: 0,
                points: vec![point(0.1, false), point(1.0, false)],
            },
            BreakawayCurve {
                model: 1,
                points: vec![point(0.1, true), point(1.0, true)],
            },
            BreakawayCurve {
                model: 2,
                points: vec![point(0.1, true), point(1.0, false)],
            },
        ];
        let charts = breakaway_charts(&labels, &curves);
        assert!(charts[0].notes.is_empty(), "F_b is drawn for every model");
        assert_eq!(
            charts[1].notes,
            [
                "Dahl: F has no peak, so no x_b",
                "Mixed: no peak at 1 of 2 rates"
            ]
        );
        // Dahl's curve is left out of the panel, the note says why, on every backend
        let names: Vec<_> = charts[1].series.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(names, ["LuGre", "Mixed"]);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (500, 400)).into_drawing_area();
            draw_chart(&root, &charts[1], &Style::default()).expect("draw");
        }
        assert!(svg.contains("Dahl: F has no peak, so no x_b"), "{svg}");
        // a panel with no curve at all: the note in the middle of it
        let only_dahl = breakaway_charts(&labels, &curves[1..2]);
        assert!(only_dahl[1].series.is_empty());
        assert_eq!(notes_place_of(&only_dahl[1]), "centre");
    }

    fn notes_place_of(spec: &crate::ChartSpec) -> &'static str {
        match crate::legend::notes_place(spec, None, (0.4, 0.2)) {
            crate::text::Place::Centre => "centre",
            crate::text::Place::Corner(_) => "corner",
        }
    }
}
