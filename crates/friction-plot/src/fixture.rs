//! A chart for the drawing tests: the steady-state Stribeck law F = p·sgn(v)·μ(v) of the FrBD
//! letter's Table I, computed by the core (until issue 38 the page's walking-skeleton chart).

use crate::{padded_range, ChartSpec, Series, PALETTE};

/// `n` points of F = p·sgn(v)·μ(v) for |v| ≤ `v_max`, on axes that hold its peaks.
pub(crate) fn stribeck_chart(
    s: &friction_core::stribeck::Stribeck,
    p: f64,
    v_max: f64,
    n: usize,
) -> ChartSpec {
    let n = n.max(2);
    let pts: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let v = -v_max + 2.0 * v_max * i as f64 / (n - 1) as f64;
            (v, p * s.steady(v, 0.0))
        })
        .collect();
    let ymax = p * s.mu_s.max(s.mu_d);
    ChartSpec {
        title: "Steady-state Stribeck friction".into(),
        x_label: "relative velocity v [m/s]".into(),
        y_label: "friction force F [N]".into(),
        x_range: (-v_max, v_max),
        y_range: padded_range(-ymax, ymax),
        x_log: false,
        series: vec![Series {
            label: "F = p·sgn(v)·μ(v)".into(),
            color: PALETTE[0],
            points: pts,
            dashed: false,
        }],
        notes: Vec::new(),
        y_scale: 0.0,
    }
}
