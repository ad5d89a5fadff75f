//! Charts of the force-driven block: the displacement against the applied force and against
//! time (pre-sliding, Canudas de Wit et al. 1995, Fig. 2), and the breakaway force and the
//! displacement at breakaway against the force rate on a log axis (the same paper's Fig. 4).

use crate::stickslip::{range_of, thin, thin_path};
use crate::{ChartSpec, Series, PALETTE};
use friction_core::experiments::stickslip::forced::ForcedSeries;

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

fn chart(title: &str, x_label: &str, y_label: &str, series: Vec<Series>) -> ChartSpec {
    // the panels share one legend band above them (`figure::shared_legend`): no headroom
    let x_range = range_of(series.iter().flat_map(|s| s.points.iter().map(|p| &p.0)));
    let y_range = range_of(series.iter().flat_map(|s| s.points.iter().map(|p| &p.1)));
    ChartSpec {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        x_range,
        y_range,
        x_log: false,
        series,
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
        chart(
            "Displacement against applied force",
            "applied force u [N]",
            "displacement x [m]",
            path(|r| (&r.u, &r.x), thin_path),
        ),
        chart(
            "Displacement against time",
            "time t [s]",
            "displacement x [m]",
            path(|r| (&r.t, &r.x), thin),
        ),
    ]
}
