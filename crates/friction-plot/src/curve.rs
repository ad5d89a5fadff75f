//! Chart builder of the `curve` / `explorer` views: F against v (or X) for up to four models.

use crate::{padded_range, ChartSpec, Series, PALETTE};
use friction_core::experiments::curve::{CurveResult, Sweep};

/// Suffix of the legend label of a model's stick set.
pub const STICK_LABEL: &str = " — stick set (dashed)";

/// The one legend entry of several models' stick sets (each drawn in its model's colour): one
/// entry per set doubled the legend of the curve views' four-law example, which on a phone left
/// the chart a strip 40 px high under an eight-line legend band.
pub const STICK_SETS_LABEL: &str = "stick sets (dashed, in each law's colour)";

/// Builds the chart of a curve result: one coloured line per model, provisional models marked
/// in the legend, axis ranges padded around the finite data.
///
/// A law with a stick branch also gets its stick set as a dashed outline in its colour (as the
/// thesis draws them): the vertical segment F_lo…F_hi at v = 0, or the band over Karnopp's
/// window, so the stiction level F_s shows although the curve at one F_e never reaches it.
/// Several stick sets share one legend entry ([`STICK_SETS_LABEL`]).
pub fn curve_chart(r: &CurveResult) -> ChartSpec {
    let (title, x_label) = match r.sweep {
        Sweep::Velocity => (
            "Friction force vs relative velocity",
            "relative velocity v [m/s]",
        ),
        Sweep::Displacement => ("Friction force vs displacement", "displacement X [m]"),
    };
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for b in &r.blocks {
        let outline = stick_outline(&b.stick);
        for &(x, y) in b.points.iter().chain(&outline) {
            if x.is_finite() && y.is_finite() {
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
    }
    let mut series = Vec::new();
    // after every model's line, in the order of the page's legend (models, then stick sets)
    let mut sticks = Vec::new();
    for (i, b) in r.blocks.iter().enumerate() {
        let label = friction_core::registry::find(b.model)
            .map_or_else(|| b.name.to_string(), |e| e.info.label());
        let color = PALETTE[i % PALETTE.len()];
        series.push(Series {
            label: label.clone(),
            color,
            points: b.points.clone(),
            dashed: false,
        });
        if !b.stick.is_empty() {
            sticks.push(Series {
                label: format!("{label}{STICK_LABEL}"),
                color,
                points: stick_outline(&b.stick),
                dashed: true,
            });
        }
    }
    if sticks.len() > 1 {
        // one legend entry for all of them; a series without a label has none
        for s in &mut sticks {
            s.label.clear();
        }
        sticks.push(Series {
            label: STICK_SETS_LABEL.into(),
            color: crate::REFERENCE,
            points: Vec::new(),
            dashed: true,
        });
    }
    series.append(&mut sticks);
    let x_range = if x0 < x1 {
        (x0, x1)
    } else {
        padded_range(x0, x1)
    };
    ChartSpec {
        title: title.into(),
        x_label: x_label.into(),
        y_label: "friction force F [N]".into(),
        x_range,
        y_range: padded_range(y0, y1),
        x_log: false,
        series,
        notes: Vec::new(),
        y_scale: 0.0,
    }
}

/// Marks model curves that lie on an earlier one (Dahl and Karnopp at the explorer's defaults
/// differ only at v = 0): the later one is dashed and its label, in the chart and in the
/// legend alike, says `(coincides with …)`, so that a reader sees two models where one line
/// seems to be. The first `models` series of `spec` are the models' curves, in legend order.
pub fn mark_coinciding(spec: &mut ChartSpec, legend: &mut [Series], models: usize) {
    let n = models.min(spec.series.len()).min(legend.len());
    let span = (spec.y_range.1 - spec.y_range.0).abs();
    for j in 1..n {
        let Some(i) =
            (0..j).find(|&i| coincide(&spec.series[i].points, &spec.series[j].points, span))
        else {
            continue;
        };
        let label = format!(
            "{} (coincides with {})",
            spec.series[j].label, spec.series[i].label
        );
        spec.series[j].label.clone_from(&label);
        spec.series[j].dashed = true;
        if let Some(l) = legend.get_mut(j) {
            l.label = label;
            l.dashed = true;
        }
    }
}

/// Whether two curves on the same abscissae agree within 0.5 % of the y span at 95 % or more of
/// their points (a stick point at v = 0 may differ).
fn coincide(a: &[(f64, f64)], b: &[(f64, f64)], span: f64) -> bool {
    if a.len() < 3 || a.len() != b.len() || span.is_nan() || span <= 0.0 {
        return false;
    }
    let close = a
        .iter()
        .zip(b)
        .filter(|(p, q)| p.0 == q.0 && (p.1 - q.1).abs() <= 5e-3 * span)
        .count();
    close * 20 >= a.len() * 19
}

/// The closed outline of a stick set (v, F_lo, F_hi): along the upper ends, back along the lower
/// ends, and up to the start; a set at one velocity is its vertical segment.
fn stick_outline(stick: &[(f64, f64, f64)]) -> Vec<(f64, f64)> {
    let mut pts: Vec<(f64, f64)> = stick.iter().map(|&(v, _, hi)| (v, hi)).collect();
    pts.extend(stick.iter().rev().map(|&(v, lo, _)| (v, lo)));
    if stick.len() > 1 {
        pts.push(pts[0]);
    }
    pts
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may panic on a broken invariant
mod tests {
    use super::*;
    use crate::{draw_chart, Style};
    use friction_core::experiments::curve;
    use friction_core::registry::find;
    use plotters::prelude::*;

    #[test]
    fn overlay_of_two_laws_renders_with_labels_and_colours() {
        let ms = vec![
            find("linear-stiction").unwrap().build_default().unwrap(),
            find("hollars").unwrap().build_default().unwrap(),
        ];
        let r = curve::run(&[-0.005, 0.005, 401.0], &ms).unwrap();
        let spec = curve_chart(&r);
        assert_eq!(spec.series.len(), 2);
        assert!(spec.y_range.1 > 1.4715 && spec.y_range.0 < -1.4715);
        assert_eq!(spec.x_range, (-0.005, 0.005));
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
            draw_chart(&root, &spec, &Style::default()).unwrap();
        }
        assert!(svg.contains("relative velocity v [m/s]"));
        assert!(svg.contains("Linear with stiction"));
        assert!(svg.contains("provisional"));
        assert!(svg.contains("#0072B2") && svg.contains("#D55E00"));
    }

    #[test]
    fn karnopp_stick_band_is_a_dashed_outline_in_its_colour_up_to_fs() {
        let ms = vec![
            find("karnopp").unwrap().build_default().unwrap(),
            find("lugre").unwrap().build_default().unwrap(),
        ];
        let r = curve::run(&[], &ms).unwrap();
        let spec = curve_chart(&r);
        // both lines, then Karnopp's stick set (LuGre has no stick branch), as the page lists them
        assert_eq!(spec.series.len(), 3);
        let stick = &spec.series[2];
        assert!(stick.dashed && stick.color == spec.series[0].color);
        assert_eq!(stick.label, "Karnopp (1985) — stick set (dashed)");
        let (lo, hi) = stick
            .points
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
        assert_eq!((lo, hi), (-1.4715, 1.4715));
        assert!(stick.points.iter().all(|p| p.0.abs() < 1e-4));
        assert_eq!(stick.points.first(), stick.points.last(), "closed outline");
        assert!(spec.y_range.0 < -1.4715 && spec.y_range.1 > 1.4715);
        // the page's legend lists it as well
        let out = friction_core::job::Output::Curve {
            models: vec![ms[0].info(), ms[1].info()],
            result: &r,
        };
        let (_, legend) = &crate::panels::panels(&out)[0];
        assert_eq!(legend.len(), 3);
        assert!(legend[2].dashed && legend[2].label == stick.label);
        // several stick sets: drawn each in its law's colour, listed once
        let four: Vec<_> = ["karnopp", "coulomb-viscous", "tustin", "hess-soom"]
            .iter()
            .map(|id| find(id).unwrap().build_default().unwrap())
            .collect();
        let r4 = curve::run(&[], &four).unwrap();
        let spec = curve_chart(&r4);
        let sticks: Vec<_> = spec.series[4..].iter().collect();
        assert_eq!(sticks.len(), 5, "four outlines and their one legend entry");
        assert!(sticks[..4].iter().all(|s| s.dashed && s.label.is_empty()));
        assert_eq!(sticks[4].label, STICK_SETS_LABEL);
        assert!(sticks[4].points.is_empty());
        let out = friction_core::job::Output::Curve {
            models: four.iter().map(|m| m.info()).collect(),
            result: &r4,
        };
        let (_, legend) = &crate::panels::panels(&out)[0];
        let labels: Vec<&str> = legend.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels.len(), 5, "{labels:?}");
        assert_eq!(labels[4], STICK_SETS_LABEL);
        // an exact stick at v = 0 is a vertical segment
        let t = vec![find("tustin").unwrap().build_default().unwrap()];
        let spec = curve_chart(&curve::run(&[], &t).unwrap());
        assert_eq!(spec.series[1].points, vec![(0.0, 1.4715), (0.0, -1.4715)]);
    }

    #[test]
    fn coinciding_curves_are_told_apart() {
        let ms = vec![
            find("dahl").unwrap().build_default().unwrap(),
            find("karnopp").unwrap().build_default().unwrap(),
            find("lugre").unwrap().build_default().unwrap(),
        ];
        let r = curve::run(&[], &ms).unwrap();
        let out = friction_core::job::Output::Curve {
            models: ms.iter().map(|m| m.info()).collect(),
            result: &r,
        };
        let (spec, legend) = &crate::panels::panels(&out)[0];
        assert!(
            !spec.series[0].dashed && spec.series[1].dashed,
            "Karnopp is dashed"
        );
        assert_eq!(spec.series[1].label, legend[1].label);
        assert!(
            legend[1].label.contains("coincides with Dahl"),
            "{}",
            legend[1].label
        );
        assert!(!legend[2].label.contains("coincides"), "LuGre differs");
    }

    #[test]
    fn displacement_sweep_has_its_own_axis() {
        let ms = vec![find("sd").unwrap().build_default().unwrap()];
        let p = curve::composite_figure("sd").unwrap();
        let spec = curve_chart(&curve::run(&p, &ms).unwrap());
        assert_eq!(spec.x_label, "displacement X [m]");
        assert!(spec.x_range.0 < -4.6 && spec.x_range.1 > 4.6);
    }
}
