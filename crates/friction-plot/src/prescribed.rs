//! Charts of the prescribed-motion and frequency-sweep views.
//!
//! Every panel of a view lists the same entries (one per loop slot or model, in the slot's
//! PALETTE colour), so the page and the SVG export show one legend band above the panels.
//! Curves made of several pieces (a model's states, the virgin curve before a pre-sliding loop)
//! are one series with NaN breaks between the pieces, which `draw_chart` and the page's overlay
//! both draw as separate strokes.

use crate::{axis_range, padded_range, ChartSpec, Series, PALETTE};
use friction_core::experiments::hysteresis::FreqUnit;
use friction_core::experiments::prescribed::{Cycle, Excitation, SweepPoint};

fn colour(slot: usize) -> plotters::style::RGBColor {
    PALETTE[slot % PALETTE.len()]
}

/// Bounds of the finite points of all series: (xlo, xhi, ylo, yhi).
fn bounds(series: &[Series]) -> (f64, f64, f64, f64) {
    let mut b = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y) in series.iter().flat_map(|s| s.points.iter()) {
        if x.is_finite() && y.is_finite() {
            b = (b.0.min(x), b.1.max(x), b.2.min(y), b.3.max(y));
        }
    }
    b
}

fn chart(title: &str, x_label: &str, y_label: &str, series: Vec<Series>) -> ChartSpec {
    let (x0, x1, y0, y1) = bounds(&series);
    ChartSpec {
        title: title.into(),
        x_label: x_label.into(),
        y_label: y_label.into(),
        x_range: padded_range(x0, x1),
        y_range: padded_range(y0, y1),
        x_log: false,
        series,
        notes: Vec::new(),
        y_scale: 0.0,
    }
}

fn series(label: &str, slot: usize, points: Vec<(f64, f64)>) -> Series {
    Series {
        label: label.to_string(),
        color: colour(slot),
        points,
        dashed: false,
    }
}

/// The three panels of the prescribed-motion view: F against v, F against x (with the virgin
/// curve from x = 0 for a displacement excitation) and the states over one cycle against t/T,
/// each state scaled to its largest magnitude over the cycle (states of different models and
/// units share one axis; the CSV has them in their units).
pub fn prescribed_charts(
    excitation: Excitation,
    labels: &[String],
    cycles: &[(usize, Cycle)],
) -> Vec<ChartSpec> {
    let label = |slot: usize| labels.get(slot).map_or("", String::as_str);
    let fv = cycles
        .iter()
        .map(|(slot, c)| {
            series(
                label(*slot),
                *slot,
                c.v.iter().copied().zip(c.f.iter().copied()).collect(),
            )
        })
        .collect();
    let fx = cycles
        .iter()
        .map(|(slot, c)| {
            let mut pts = Vec::with_capacity(c.t.len() * 5 / 4 + 1);
            if excitation.is_displacement() {
                // the virgin curve: the first quarter cycle from rest, x from 0 to x_amp
                let quarter = (c.t.len() - 1) / 4;
                pts.extend((0..=quarter).map(|k| (c.x[k], c.first[k])));
                pts.push((f64::NAN, f64::NAN));
            }
            pts.extend(c.x.iter().copied().zip(c.f.iter().copied()));
            series(label(*slot), *slot, pts)
        })
        .collect();
    let states = cycles
        .iter()
        .map(|(slot, c)| {
            let period = c.t.last().copied().unwrap_or(1.0);
            let mut pts = Vec::new();
            for s in &c.states {
                let top = s.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
                let scale = if top > 0.0 { 1.0 / top } else { 0.0 };
                if !pts.is_empty() {
                    pts.push((f64::NAN, f64::NAN));
                }
                pts.extend(c.t.iter().zip(s).map(|(&t, &v)| (t / period, v * scale)));
            }
            series(label(*slot), *slot, pts)
        })
        .collect();
    let x_label = if excitation.is_displacement() {
        "displacement x [m]"
    } else {
        "displacement since the cycle's start x [m]"
    };
    let mut st = chart(
        "Internal states over one cycle",
        "time in the cycle t/T",
        "state / its largest |value|",
        states,
    );
    st.x_range = (0.0, 1.0);
    st.y_range = (-1.08, 1.08);
    // a static law has no state to draw: the panel says so rather than stay silently empty
    let stateless: Vec<&str> = cycles
        .iter()
        .filter(|(_, c)| c.states.is_empty())
        .map(|(slot, _)| label(*slot))
        .collect();
    if !stateless.is_empty() && stateless.len() == cycles.len() {
        st.notes
            .push("No internal state: a static law, F = F(v)".into());
    } else {
        for l in stateless {
            let line = format!("{l}: no internal state (a static law)");
            if !st.notes.contains(&line) {
                st.notes.push(line);
            }
        }
    }
    vec![
        chart(
            "Friction force against velocity",
            "relative velocity v [m/s]",
            "friction force F [N]",
            fv,
        ),
        chart(
            "Friction force against displacement",
            x_label,
            "friction force F [N]",
            fx,
        ),
        st,
    ]
}

/// The four panels of the frequency sweep against frequency on a log axis over the swept
/// `range` (fixed while the points arrive): peak F, minimum F, loop area and energy per cycle.
pub fn sweep_charts(
    unit: FreqUnit,
    range: (f64, f64),
    labels: &[String],
    points: &[(usize, &[SweepPoint])],
) -> Vec<ChartSpec> {
    let x_label = match unit {
        FreqUnit::Hz => "frequency f [Hz]",
        FreqUnit::Rad => "angular frequency ω [rad/s]",
    };
    // `scale`: the size of a meaningful value at a point (0: none known): spreads below 1e-9
    // of it (a static law's loop area, 1e-17 N·m/s of round-off) lie flat at 0 on an axis of
    // about ±scale instead of filling the panel as a zigzag (`axis_range`).
    let panel =
        |title: &str, y_label: &str, y: fn(&SweepPoint) -> f64, scale: fn(&SweepPoint) -> f64| {
            let series: Vec<Series> = points
                .iter()
                .map(|&(i, pts)| {
                    let label = labels.get(i).map_or("", String::as_str);
                    series(label, i, pts.iter().map(|p| (p.freq, y(p))).collect())
                })
                .collect();
            let (_, _, y0, y1) = bounds(&series);
            let y_scale = points
                .iter()
                .flat_map(|&(_, pts)| pts.iter().map(scale))
                .filter(|r| r.is_finite())
                .fold(0.0f64, f64::max);
            let (lo, hi) = range;
            ChartSpec {
                title: title.into(),
                x_label: x_label.into(),
                y_label: y_label.into(),
                x_range: if hi > lo && lo > 0.0 {
                    (lo, hi)
                } else {
                    padded_range(lo, hi)
                },
                y_range: axis_range(y0, y1, y_scale),
                x_log: true,
                series,
                notes: Vec::new(),
                y_scale,
            }
        };
    vec![
        panel(
            "Peak friction force",
            "peak F [N]",
            |p| p.metrics.fmax,
            |_| 0.0,
        ),
        panel(
            "Minimum friction force",
            "min F [N]",
            |p| p.metrics.fmin,
            |_| 0.0,
        ),
        panel(
            "Loop area ∮F dv",
            "loop area [N·m/s]",
            |p| p.metrics.area,
            // the loop's bounding box, (F_max − F_min)·2 v_amp
            |p| (p.metrics.fmax - p.metrics.fmin).abs() * 2.0 * p.v_amp.abs(),
        ),
        panel(
            "Energy per cycle ∮F dx",
            "energy [J]",
            |p| p.metrics.energy,
            |_| 0.0,
        ),
    ]
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may panic on a broken invariant
mod tests {
    use super::*;
    use crate::{draw_chart, Style};
    use friction_core::scenario::Scenario;
    use plotters::prelude::*;

    fn svg_of(spec: &ChartSpec) -> String {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
            draw_chart(&root, spec, &Style::default()).unwrap();
        }
        svg
    }

    fn finished(q: &str) -> Box<dyn friction_core::job::Job> {
        let mut job = Scenario::parse(q).unwrap().job().unwrap();
        while !job.done() {
            job.advance(&|| 0.0);
        }
        job
    }

    /// Polylines stroked in `colour` and the most points in one of them.
    fn strokes(svg: &str, colour: &str) -> (usize, usize) {
        let lines: Vec<usize> = svg
            .split("<polyline")
            .skip(1)
            .filter(|p| p.contains(colour))
            .map(|p| p.split('>').next().unwrap_or("").matches(',').count())
            .collect();
        (lines.len(), lines.iter().copied().max().unwrap_or(0))
    }

    #[test]
    fn three_panels_with_one_entry_per_model_and_states_stroked_apart() {
        let job = finished("view=prescribed&model=lugre,gms&excite=1");
        let charts = crate::panels::panels(&job.output());
        assert_eq!(charts.len(), 3);
        for (c, legend) in &charts {
            assert_eq!(c.series.len(), 2, "{}", c.title);
            let labels: Vec<&str> = legend.iter().map(|s| s.label.as_str()).collect();
            assert_eq!(labels, ["LuGre", "Generalized Maxwell-Slip"]);
        }
        let states = &charts[2].0;
        assert_eq!(states.x_range, (0.0, 1.0));
        // GMS: ten elements, each its own stroke (NaN breaks, not chords back to t = 0)
        let svg = svg_of(states);
        let (n, longest) = strokes(&svg, "#D55E00");
        assert_eq!(n, 10 + 1, "ten strokes and the legend sample");
        assert!(longest >= 400, "{longest}");
        // F–x: the virgin curve from x = 0, then the loop, as two strokes
        let (n, _) = strokes(&svg_of(&charts[1].0), "#0072B2");
        assert_eq!(n, 2 + 1);
        // (small displacements: a power of ten joins the unit, "[×10⁻⁵ m]")
        assert!(svg_of(&charts[1].0).contains("displacement x ["));
    }

    #[test]
    fn one_model_at_several_frequencies_is_keyed_by_frequency() {
        let job = finished("view=prescribed&model=frbd-gm&rad=1");
        let charts = crate::panels::panels(&job.output());
        let labels: Vec<&str> = charts[0].1.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["25 rad/s", "50 rad/s", "100 rad/s"]);
        assert_eq!(charts[0].0.series.len(), 3);
    }

    #[test]
    fn sweep_panels_are_logarithmic_over_the_swept_range() {
        let job = finished("view=sweep&model=frbd-gm,lugre&nf=5&fmin=10&fmax=1000");
        let charts = crate::panels::panels(&job.output());
        assert_eq!(charts.len(), 4);
        for (c, legend) in &charts {
            assert!(c.x_log && c.x_range == (10.0, 1000.0), "{}", c.title);
            assert_eq!(c.series.len(), 2);
            assert_eq!(c.series[0].points.len(), 5);
            assert_eq!(legend.len(), 2);
        }
        let svg = svg_of(&charts[2].0);
        assert!(svg.contains("frequency f [Hz]") && svg.contains("Loop area"));
    }

    #[test]
    fn a_static_laws_round_off_loop_area_lies_flat() {
        // Coulomb's loops have no area: what the quadrature leaves is ~1e-14 N·m/s of
        // round-off, which a fitted axis drew as a zigzag filling the panel
        let job = finished("view=sweep&model=coulomb&nf=6");
        let charts = crate::panels::panels(&job.output());
        let area = &charts[2].0;
        let worst = area.series[0]
            .points
            .iter()
            .map(|p| p.1.abs())
            .fold(0.0f64, f64::max);
        let (lo, hi) = area.y_range;
        assert!(worst < 1e-12, "round-off only: {worst}");
        assert!(hi - lo > 1e4 * worst && lo < 0.0 && hi > 0.0, "{lo} {hi}");
        // a model with real loops keeps an axis fitted to them
        let job = finished("view=sweep&model=lugre&nf=6");
        let charts = crate::panels::panels(&job.output());
        let area = &charts[2].0;
        let (a0, a1) = area.series[0]
            .points
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                (a.min(p.1), b.max(p.1))
            });
        let (lo, hi) = area.y_range;
        assert!(hi - lo < 1.2 * (a1 - a0), "{lo} {hi} around {a0} {a1}");
        // the force panels keep their own ranges (no zero forced in)
        assert!(charts[0].0.y_range.0 > 0.0, "{:?}", charts[0].0.y_range);
    }
}
