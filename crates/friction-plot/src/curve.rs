//! Chart builder of the `curve` / `explorer` views: F against v (or X) for up to four models.

use crate::{padded_range, ChartSpec, Series, PALETTE};
use friction_core::experiments::curve::{CurveResult, Sweep};

/// Builds the chart of a curve result: one coloured line per model, provisional models marked
/// in the legend, axis ranges padded around the finite data.
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
        for &(x, y) in &b.points {
            if x.is_finite() && y.is_finite() {
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
    }
    let series = r
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| Series {
            label: friction_core::registry::find(b.model)
                .map_or_else(|| b.name.to_string(), |e| e.info.label()),
            color: PALETTE[i % PALETTE.len()],
            points: b.points.clone(),
            dashed: false,
        })
        .collect();
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
    }
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
    fn displacement_sweep_has_its_own_axis() {
        let ms = vec![find("sd").unwrap().build_default().unwrap()];
        let p = curve::composite_figure("sd").unwrap();
        let spec = curve_chart(&curve::run(&p, &ms).unwrap());
        assert_eq!(spec.x_label, "displacement X [m]");
        assert!(spec.x_range.0 < -4.6 && spec.x_range.1 > 4.6);
    }
}
