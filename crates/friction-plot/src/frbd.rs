//! Charts of the FrBD views: hysteresis loops (Fig. 3) and relaxation curves (Fig. 4).
//!
//! The page and the CLI's `--svg` both call these builders, so both draw the same chart.

use crate::{padded_range, ChartSpec, Series, PALETTE, REFERENCE};
use friction_core::experiments::hysteresis::{self, HysteresisConfig, Loop};
use friction_core::experiments::relaxation::Curve;
use friction_core::params::fmt_num;

/// F–v loops, one PALETTE colour per frequency (legend "25 Hz"), over the dashed grey
/// steady-state curve F = p·sgn_ε(v)·μ(v) on the loops' velocity range.
pub fn hysteresis_chart(cfg: &HysteresisConfig, loops: &[Loop]) -> ChartSpec {
    let (mut vlo, mut vhi) = (cfg.v_mean - cfg.v_amp, cfg.v_mean + cfg.v_amp);
    if vlo == vhi {
        vlo -= 1e-3;
        vhi += 1e-3;
    }
    let steady = hysteresis::steady_curve(&cfg.model, vlo, vhi, 400);
    let mut series: Vec<Series> = loops
        .iter()
        .enumerate()
        .map(|(i, l)| Series {
            label: format!("{} {}", fmt_num(l.freq), cfg.unit.label()),
            color: PALETTE[i % PALETTE.len()],
            points: l.v.iter().copied().zip(l.f.iter().copied()).collect(),
            dashed: false,
        })
        .collect();
    let (mut ylo, mut yhi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &(_, f) in steady
        .iter()
        .chain(series.iter().flat_map(|s| s.points.iter()))
    {
        if f.is_finite() {
            ylo = ylo.min(f);
            yhi = yhi.max(f);
        }
    }
    series.push(Series {
        label: "steady state p·sgn(v)·μ(v)".into(),
        color: REFERENCE,
        points: steady,
        dashed: true,
    });
    ChartSpec {
        title: format!("Frictional-lag hysteresis: {}", cfg.model.kind().name()),
        x_label: "relative velocity v [m/s]".into(),
        y_label: "friction force F [N]".into(),
        x_range: padded_range(vlo, vhi),
        y_range: padded_range(ylo, yhi),
        x_log: false,
        series,
        notes: Vec::new(),
        y_scale: 0.0,
    }
}

/// F(t) on a logarithmic time axis, one PALETTE colour per curve, with the dashed grey
/// steady-state level of eq. (14).
pub fn relaxation_chart(curves: &[Curve]) -> ChartSpec {
    let mut series: Vec<Series> = curves
        .iter()
        .enumerate()
        .map(|(i, c)| Series {
            label: c.label.clone(),
            color: PALETTE[i % PALETTE.len()],
            points: c.t.iter().copied().zip(c.f.iter().copied()).collect(),
            dashed: false,
        })
        .collect();
    let (t0, t1) = curves
        .first()
        .and_then(|c| Some((*c.t.first()?, *c.t.last()?)))
        .unwrap_or((1e-6, 1.0));
    let (mut ylo, mut yhi) = (0.0_f64, 0.0_f64);
    for c in curves {
        for &f in c.f.iter().chain(std::iter::once(&c.steady)) {
            if f.is_finite() {
                ylo = ylo.min(f);
                yhi = yhi.max(f);
            }
        }
    }
    if let Some(c) = curves.first() {
        series.push(Series {
            label: "steady state (eq. 14)".into(),
            color: REFERENCE,
            points: vec![(t0, c.steady), (t1, c.steady)],
            dashed: true,
        });
    }
    ChartSpec {
        title: "Relaxation at constant velocity".into(),
        x_label: "time t [s]".into(),
        y_label: "friction force F [N]".into(),
        x_range: (t0, t1),
        y_range: padded_range(ylo, yhi),
        x_log: true,
        series,
        notes: Vec::new(),
        y_scale: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{draw_chart, Style};
    use friction_core::experiments::{hysteresis, relaxation};
    use friction_core::scenario::Scenario;
    use plotters::prelude::*;

    fn svg_of(spec: &ChartSpec) -> String {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
            draw_chart(&root, spec, &Style::default()).expect("draw");
        }
        svg
    }

    #[test]
    fn hysteresis_chart_has_one_loop_per_frequency_and_the_reference() {
        let cfg = Scenario::default().hysteresis_config().expect("defaults");
        let loops = hysteresis::run(&cfg);
        let spec = hysteresis_chart(&cfg, &loops);
        assert_eq!(spec.series.len(), 4);
        assert_eq!(spec.series[0].label, "25 Hz");
        assert!(spec.series[3].dashed);
        let svg = svg_of(&spec);
        assert!(svg.contains("relative velocity v [m/s]") && svg.contains("100 Hz"));
        assert!(svg.contains("#0072B2") && svg.contains("#D55E00") && svg.contains("#009E73"));
    }

    #[test]
    fn relaxation_chart_is_log_in_time() {
        let s = Scenario::parse("view=relaxation&tend=2").expect("valid");
        let curves = relaxation::run(&s.relaxation_config().expect("defaults"));
        let spec = relaxation_chart(&curves);
        assert!(spec.x_log && spec.x_range.0 > 0.0);
        assert_eq!(spec.series.len(), 4);
        assert!(svg_of(&spec).contains("time t [s]"));
    }
}
