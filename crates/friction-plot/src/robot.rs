//! Charts of the robot-arm tracking experiment (letter §IV-B): angle and reference, tracking
//! error, friction and its estimate, and the Lyapunov function, all against time.

use crate::axes::range_of;
use crate::thin::thin;
use crate::{make_legend_room, ChartSpec, Series, PALETTE};
use friction_core::experiments::robot_arm::RobotRun;

/// Floor of W on the log chart relative to W(0): below it W is at the level of the solver's
/// error (rtol 1e-8 on states whose squares make W), where it wiggles by rounding and would
/// look like a rise that is not there.
pub const W_FLOOR_REL: f64 = 1e-12;

fn series(label: &str, color: usize, t: &[f64], y: &[f64], dashed: bool) -> Series {
    Series {
        label: label.to_string(),
        color: PALETTE[color % PALETTE.len()],
        points: thin(t, y),
        dashed,
    }
}

fn time_chart(title: &str, y_label: &str, t: &[f64], series: Vec<Series>) -> ChartSpec {
    let y_range = range_of(series.iter().flat_map(|s| s.points.iter().map(|p| &p.1)));
    let mut spec = ChartSpec {
        title: title.to_string(),
        x_label: "time t [s]".to_string(),
        y_label: y_label.to_string(),
        x_range: range_of(t.iter()),
        y_range,
        x_log: false,
        series,
        notes: Vec::new(),
        y_scale: 0.0,
    };
    make_legend_room(&mut spec);
    spec
}

/// Joint angle q and reference q_d against time.
pub fn angle_chart(r: &RobotRun) -> ChartSpec {
    time_chart(
        "Joint angle and reference",
        "angle [rad]",
        &r.t,
        vec![
            series("q", 0, &r.t, &r.q, false),
            series("q_d (reference)", 1, &r.t, &r.qd, true),
        ],
    )
}

/// Tracking error q̃ = q − q_d against time.
pub fn error_chart(r: &RobotRun) -> ChartSpec {
    let e: Vec<f64> = r.q.iter().zip(&r.qd).map(|(q, d)| q - d).collect();
    time_chart(
        "Tracking error",
        "q̃ = q − q_d [rad]",
        &r.t,
        vec![series("q̃", 0, &r.t, &e, false)],
    )
}

/// Joint friction F and the observer's estimate F̂ against time.
pub fn friction_chart(r: &RobotRun) -> ChartSpec {
    time_chart(
        "Joint friction and its estimate",
        "torque [N·m]",
        &r.t,
        vec![
            series("F (plant)", 0, &r.t, &r.f, false),
            series("F̂ (observer)", 2, &r.t, &r.fhat, true),
        ],
    )
}

/// log₁₀ of the Lyapunov function W against time (W spans twenty decades when the observer is
/// on, and the charts have no log y-axis, so the values are logged here).
pub fn lyapunov_chart(r: &RobotRun) -> ChartSpec {
    let w0 = r.w.first().copied().unwrap_or(1.0);
    let floor = (w0 * W_FLOOR_REL).max(f64::MIN_POSITIVE);
    // Floored, thinned, then logged: the log is monotone, so each bucket keeps the same points,
    // and a logarithm per point of a long run (350 000 points: 5 ms natively, more in wasm)
    // was most of the four charts' build at the page's stop of a long run.
    let floored: Vec<f64> = r.w.iter().map(|w| w.max(floor)).collect();
    let mut w = series("W", 3, &r.t, &floored, false);
    for p in &mut w.points {
        p.1 = p.1.log10();
    }
    time_chart(
        "Lyapunov function W = ½ m s² + V(x − x̂)/k₂",
        "log₁₀ (W / 1 J), floor 10⁻¹² W(0)",
        &r.t,
        vec![w],
    )
}

/// The four charts of the view, in display order.
pub fn all_charts(r: &RobotRun) -> Vec<ChartSpec> {
    vec![
        angle_chart(r),
        error_chart(r),
        friction_chart(r),
        lyapunov_chart(r),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{draw_chart, Style};
    use friction_core::experiments::robot_arm::{run, Arm};
    use friction_core::scenario::Scenario;
    use plotters::prelude::*;

    #[test]
    fn robot_charts_render_finite_labelled_curves() {
        let (arm, model) = Scenario::parse("view=robot&tend=3")
            .expect("parses")
            .robot_config()
            .expect("builds");
        for observer in [true, false] {
            let arm = Arm { observer, ..arm };
            let r = run(&arm, &model).expect("runs");
            let charts = all_charts(&r);
            assert_eq!(charts.len(), 4);
            for c in &charts {
                assert!(c.y_range.0 < c.y_range.1 && c.y_range.0.is_finite());
                for s in &c.series {
                    assert!(s.points.len() > 10 && s.points.len() <= crate::thin::MAX_POINTS + 1);
                    assert!(s.points.iter().all(|p| p.0.is_finite() && p.1.is_finite()));
                }
                let mut svg = String::new();
                {
                    let root = SVGBackend::with_string(&mut svg, (600, 380)).into_drawing_area();
                    draw_chart(&root, c, &Style::default()).expect("draws");
                }
                assert!(svg.contains(&c.series[0].label), "{}", c.title);
            }
            // with the observer W falls by many decades; without it stays within a few
            let lw = &charts[3].series[0].points;
            let drop = lw[0].1 - lw[lw.len() - 1].1;
            assert!(if observer { drop > 8.0 } else { drop < 4.0 }, "{drop}");
            // nothing drawn below the floor, so no solver noise on the chart
            assert!(lw.iter().all(|p| p.1 >= lw[0].1 - 12.0 - 1e-9));
        }
    }

    #[test]
    fn a_long_runs_lyapunov_chart_is_thinned_then_logged_with_the_same_extremes() {
        let (arm, model) = Scenario::parse("view=robot&tend=40")
            .expect("parses")
            .robot_config()
            .expect("builds");
        for observer in [true, false] {
            let r = run(&Arm { observer, ..arm }, &model).expect("runs");
            assert!(
                r.t.len() > 2 * crate::thin::MAX_POINTS,
                "{} points",
                r.t.len()
            );
            // the points of logging every point first, as the chart did before
            let floor = r.w[0] * W_FLOOR_REL;
            let logged: Vec<f64> = r.w.iter().map(|w| w.max(floor).log10()).collect();
            assert!(
                lyapunov_chart(&r).series[0].points == crate::thin::thin(&r.t, &logged),
                "observer {observer}"
            );
        }
    }
}
