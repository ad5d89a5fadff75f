//! Friction Lab charts: one chart description, drawn by plotters on any `DrawingBackend`.
//!
//! The same [`draw_chart`] renders to the page's `<canvas>` (plotters-canvas) and to SVG (the CLI's
//! `--svg` and the native tests), so what the tests check is what users see. All sizes (fonts,
//! margins, line widths) are multiplied by [`Style::scale`], the device-pixel ratio, because
//! plotters-canvas draws in device pixels and knows nothing about HiDPI.

pub mod curve;
pub mod stickslip;

use plotters::coord::Shift;
use plotters::prelude::*;

/// Colour-blind-safe palette (Okabe & Ito 2008), in legend order.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
];

/// Grey used for reference curves (steady state).
pub const REFERENCE: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// One curve of a chart.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Stroke colour.
    pub color: RGBColor,
    /// Data points (x, y) in axis units.
    pub points: Vec<(f64, f64)>,
    /// Dashed reference curve instead of a solid line.
    pub dashed: bool,
}

/// A whole chart: axes, labels and curves.
#[derive(Debug, Clone)]
pub struct ChartSpec {
    /// Caption above the plot.
    pub title: String,
    /// x-axis label with unit, e.g. `"relative velocity v [m/s]"`.
    pub x_label: String,
    /// y-axis label with unit.
    pub y_label: String,
    /// x-axis range (for a log axis both ends must be > 0).
    pub x_range: (f64, f64),
    /// y-axis range.
    pub y_range: (f64, f64),
    /// Logarithmic x axis.
    pub x_log: bool,
    /// Curves, drawn in order.
    pub series: Vec<Series>,
}

/// Device-dependent drawing sizes.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Device-pixel ratio: every size is multiplied by it.
    pub scale: f64,
}

impl Default for Style {
    fn default() -> Self {
        Style { scale: 1.0 }
    }
}

impl Style {
    fn px(&self, css_px: f64) -> u32 {
        (css_px * self.scale).round().max(1.0) as u32
    }
}

/// Error from drawing (the backend's message).
pub type DrawError = Box<dyn std::error::Error>;

/// Pads a data range by 5 % each side and guards against empty or non-finite ranges.
pub fn padded_range(lo: f64, hi: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) {
        return (-1.0, 1.0);
    }
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    let span = hi - lo;
    let pad = if span > 0.0 {
        0.05 * span
    } else {
        0.5 * lo.abs().max(1e-12)
    };
    (lo - pad, hi + pad)
}

/// Draws `spec` on `root` (clears it first).
///
/// A logarithmic x axis is drawn as a linear axis in log10(x) with ticks labelled 10^u, so that
/// one code path serves both (plotters' generic coordinate types make helpers awkward).
pub fn draw_chart<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    style: &Style,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let font = |size: f64| ("sans-serif", style.px(size)).into_font();
    let (x0, x1) = spec.x_range;
    let (y0, y1) = spec.y_range;
    let log = spec.x_log && x0 > 0.0 && x1 > x0;
    let mapx = move |x: f64| if log { x.log10() } else { x };
    let mut chart = ChartBuilder::on(root)
        .caption(&spec.title, font(17.0))
        .margin(style.px(12.0))
        .x_label_area_size(style.px(44.0))
        .y_label_area_size(style.px(64.0))
        .build_cartesian_2d(mapx(x0)..mapx(x1), y0..y1)?;
    // Snap values that are zero up to rounding (e.g. 6.9e-18 on a symmetric axis) to "0".
    let (xspan, yspan) = ((mapx(x1) - mapx(x0)).abs(), (y1 - y0).abs());
    let snap = |v: f64, span: f64| if v.abs() < 1e-9 * span { 0.0 } else { v };
    let xfmt = move |v: &f64| {
        if log {
            tick(10f64.powf(*v))
        } else {
            tick(snap(*v, xspan))
        }
    };
    let yfmt = move |v: &f64| tick(snap(*v, yspan));
    chart
        .configure_mesh()
        .x_desc(spec.x_label.as_str())
        .y_desc(spec.y_label.as_str())
        .axis_desc_style(font(13.0))
        .label_style(font(12.0))
        .light_line_style(RGBColor(0xEE, 0xEE, 0xEE))
        .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
        .x_labels(8)
        .y_labels(8)
        .x_label_formatter(&xfmt)
        .y_label_formatter(&yfmt)
        .draw()?;
    for s in &spec.series {
        let color = s.color;
        let width = style.px(if s.dashed { 1.5 } else { 2.0 });
        let line_style = color.stroke_width(width);
        let pts = s
            .points
            .iter()
            .map(|&(x, y)| (mapx(x), y))
            .filter(|(x, y)| x.is_finite() && y.is_finite());
        let legend = move |(x, y): (i32, i32)| {
            PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(width))
        };
        if s.dashed {
            chart
                .draw_series(DashedLineSeries::new(
                    pts,
                    style.px(6.0),
                    style.px(4.0),
                    line_style,
                ))?
                .label(s.label.as_str())
                .legend(legend);
        } else {
            chart
                .draw_series(LineSeries::new(pts, line_style))?
                .label(s.label.as_str())
                .legend(legend);
        }
    }
    if !spec.series.is_empty() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(0xBB, 0xBB, 0xBB))
            .label_font(font(12.0))
            .draw()?;
    }
    root.present()?;
    Ok(())
}

/// Tick label: short, no float noise (`0.015`, `1e-4`).
pub fn tick(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        let s = format!("{v:.1e}");
        return s.replace(".0e", "e");
    }
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// The walking-skeleton chart: the steady-state Stribeck law F = p·sgn(v)·μ(v) of the FrBD letter.
pub fn stribeck_chart(
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stribeck_chart_renders_to_svg_with_labels_and_curve_colour() {
        let spec = stribeck_chart(&friction_core::stribeck::Stribeck::TABLE_I, 1.0, 0.05, 400);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
            draw_chart(&root, &spec, &Style::default()).unwrap();
        }
        assert!(svg.contains("relative velocity v [m/s]"));
        assert!(svg.contains("friction force F [N]"));
        assert!(svg.contains("#0072B2"), "curve colour missing");
        // the curve reaches the static peak p·μ_s = 1.5 N: its polyline has hundreds of points
        let longest = svg
            .split("<polyline")
            .filter(|p| p.contains("#0072B2"))
            .map(|p| p.split('>').next().unwrap_or("").matches(',').count())
            .max()
            .unwrap_or(0);
        assert!(longest > 100, "curve polyline has {longest} points");
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick(0.015), "0.015");
        assert_eq!(tick(2.0), "2");
        assert_eq!(tick(1e-4), "1e-4");
        assert_eq!(tick(-0.5), "-0.5");
    }
}
