//! Charts of the Rabinowicz stick-slip benchmark: x, ẋ, ẍ and F against time, F against the
//! relative velocity, and F against the displacement, with one curve per model run.

use crate::{make_legend_room, padded_range, ChartSpec, Series, PALETTE};
use friction_core::experiments::stickslip::StickSlipRun;

/// Points per curve above which a run is thinned (a 40 s run can hold ~50 000 steps; drawing
/// costs grow with points, RENDERING.md).
pub const MAX_POINTS: usize = 4000;

/// A time-series quantity of the benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// Position x [m].
    Position,
    /// Velocity ẋ [m/s].
    Velocity,
    /// Acceleration ẍ [m/s²].
    Acceleration,
    /// Model output F [N].
    Force,
}

impl Quantity {
    fn label(self) -> &'static str {
        match self {
            Quantity::Position => "position x [m]",
            Quantity::Velocity => "velocity ẋ [m/s]",
            Quantity::Acceleration => "acceleration ẍ [m/s²]",
            Quantity::Force => "friction force F [N]",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Quantity::Position => "Position against time",
            Quantity::Velocity => "Velocity against time",
            Quantity::Acceleration => "Acceleration against time",
            Quantity::Force => "Friction force against time",
        }
    }

    fn values(self, r: &StickSlipRun) -> &[f64] {
        match self {
            Quantity::Position => &r.x,
            Quantity::Velocity => &r.xdot,
            Quantity::Acceleration => &r.xddot,
            Quantity::Force => &r.force,
        }
    }
}

/// Pairs (a[i], b[i]) thinned to at most [`MAX_POINTS`], keeping in each bucket the points with
/// the smallest and largest b so that peaks (breakaway, extrema) survive.
pub(crate) fn thin(a: &[f64], b: &[f64]) -> Vec<(f64, f64)> {
    let n = a.len().min(b.len());
    if n <= MAX_POINTS {
        return (0..n).map(|i| (a[i], b[i])).collect();
    }
    let buckets = MAX_POINTS / 2;
    let mut out = Vec::with_capacity(MAX_POINTS + 2);
    for k in 0..buckets {
        let lo = k * n / buckets;
        let hi = ((k + 1) * n / buckets).max(lo + 1).min(n);
        let (mut imin, mut imax) = (lo, lo);
        for i in lo..hi {
            if b[i] < b[imin] {
                imin = i;
            }
            if b[i] > b[imax] {
                imax = i;
            }
        }
        let (i1, i2) = if imin <= imax {
            (imin, imax)
        } else {
            (imax, imin)
        };
        out.push((a[i1], b[i1]));
        if i2 != i1 {
            out.push((a[i2], b[i2]));
        }
    }
    out.push((a[n - 1], b[n - 1]));
    out
}

pub(crate) fn range_of<'a>(vals: impl Iterator<Item = &'a f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &v in vals {
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    padded_range(lo, hi)
}

fn chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    runs: &[(&str, &StickSlipRun)],
    pick: impl Fn(&StickSlipRun) -> (&[f64], &[f64]),
) -> ChartSpec {
    let series: Vec<Series> = runs
        .iter()
        .enumerate()
        .map(|(i, (label, r))| {
            let (a, b) = pick(r);
            Series {
                label: (*label).to_string(),
                color: PALETTE[i % PALETTE.len()],
                points: thin(a, b),
                dashed: false,
            }
        })
        .collect();
    let x_range = range_of(runs.iter().flat_map(|(_, r)| pick(r).0.iter()));
    let y_range = range_of(runs.iter().flat_map(|(_, r)| pick(r).1.iter()));
    let mut spec = ChartSpec {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        x_range,
        y_range,
        x_log: false,
        series,
    };
    make_legend_room(&mut spec);
    spec
}

/// `q` against time, one curve per (legend label, run).
pub fn time_chart(runs: &[(&str, &StickSlipRun)], q: Quantity) -> ChartSpec {
    chart(q.title(), "time t [s]", q.label(), runs, |r| {
        (&r.t, q.values(r))
    })
}

/// Friction force F against the relative velocity v = ẋ − v_b.
pub fn force_velocity_chart(runs: &[(&str, &StickSlipRun)]) -> ChartSpec {
    chart(
        "Friction force against relative velocity",
        "relative velocity v [m/s]",
        "friction force F [N]",
        runs,
        |r| (&r.v, &r.force),
    )
}

/// Friction force F against the displacement x.
pub fn force_displacement_chart(runs: &[(&str, &StickSlipRun)]) -> ChartSpec {
    chart(
        "Friction force against displacement",
        "position x [m]",
        "friction force F [N]",
        runs,
        |r| (&r.x, &r.force),
    )
}

/// All six charts of the view, in display order: x, ẋ, ẍ, F against t; F against v; F against x.
pub fn all_charts(runs: &[(&str, &StickSlipRun)]) -> Vec<ChartSpec> {
    vec![
        time_chart(runs, Quantity::Position),
        time_chart(runs, Quantity::Velocity),
        time_chart(runs, Quantity::Acceleration),
        time_chart(runs, Quantity::Force),
        force_velocity_chart(runs),
        force_displacement_chart(runs),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{draw_chart, Style};
    use friction_core::experiments::stickslip::{build_for_bench, run_bench, Bench, Workspace};
    use plotters::prelude::*;

    #[test]
    fn benchmark_charts_render_with_labels_and_keep_the_breakaway_peak() {
        let b = Bench {
            tend: 10.0,
            ..Bench::TABLE_6_1
        };
        let e = friction_core::model::find("lugre").expect("lugre registered");
        let m = build_for_bench(e, &b).expect("defaults build");
        let r = run_bench(&mut Workspace::default(), &b, m.as_ref()).expect("run finishes");
        let runs = [("LuGre", &r)];
        let charts = all_charts(&runs);
        assert_eq!(charts.len(), 6);
        let peak = r.force.iter().copied().fold(f64::INFINITY, f64::min);
        let drawn_peak = charts[3].series[0]
            .points
            .iter()
            .map(|p| p.1)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(peak, drawn_peak, "thinning lost the breakaway peak");
        for c in &charts {
            assert!(c.series[0].points.len() <= MAX_POINTS + 1);
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
                draw_chart(&root, c, &Style::default()).expect("draws");
            }
            assert!(
                svg.contains(&c.y_label) && svg.contains("LuGre"),
                "{}",
                c.title
            );
        }
    }
}
