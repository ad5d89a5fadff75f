//! Drawing a chart with plotters: the frame (caption, axes, ticks, descriptions), the curves, the
//! legend and the notes, and where the plotting area landed ([`PlotTransform`]).

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::legend::{draw_legend, legend_corner, legend_label, notes_place};
use crate::text::{draw_text_box, fit_axis_label, fit_caption, measure_text_box, wrap_words};
use crate::ticks::{round_sig, tick, tick_count, TickFormat};
use crate::{ChartSpec, DrawError, Style};

/// Where the plotting area of a drawn chart lies, in backend (device) pixels, and how data map
/// onto it.
///
/// The page draws axes, text and legend once with plotters ([`draw_frame`]) and strokes the
/// curves itself on an overlay canvas through this transform, so that a slider move does not
/// pay for text layout again (measured: text measurement forces a page layout, ≈ 0.6–0.8 ms a
/// redraw).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlotTransform {
    /// Pixel x of the left and right ends of the x range.
    pub px: (f64, f64),
    /// Pixel y of the bottom and top ends of the y range (bottom > top).
    pub py: (f64, f64),
    /// Data x range (log10 of it when `x_log`).
    pub x_range: (f64, f64),
    /// Data y range.
    pub y_range: (f64, f64),
    /// Whether x is mapped through log10.
    pub x_log: bool,
    /// Plotting-area rectangle (left, top, right, bottom) in pixels, for clipping.
    pub clip: (f64, f64, f64, f64),
    /// How many tick labels were asked of plotters on (x, y): with the ranges they give the
    /// labels drawn ([`crate::ticks::labels`]), for read-outs and tests of what a reader sees.
    pub n_ticks: (usize, usize),
}

impl PlotTransform {
    /// Data point to pixel coordinates (not rounded; non-finite for non-finite input or
    /// x ≤ 0 on a log axis).
    pub fn to_px(&self, x: f64, y: f64) -> (f64, f64) {
        let x = if self.x_log { x.log10() } else { x };
        let fx = (x - self.x_range.0) / (self.x_range.1 - self.x_range.0);
        let fy = (y - self.y_range.0) / (self.y_range.1 - self.y_range.0);
        (
            self.px.0 + fx * (self.px.1 - self.px.0),
            self.py.0 + fy * (self.py.1 - self.py.0),
        )
    }

    /// Pixel coordinates to fractions of the plotting area: (0, 0) at the lower-left end of
    /// the ranges, (1, 1) at the upper right.
    pub fn to_unit(&self, px: f64, py: f64) -> (f64, f64) {
        (
            (px - self.px.0) / (self.px.1 - self.px.0),
            (py - self.py.0) / (self.py.1 - self.py.0),
        )
    }
}

/// Draws `spec` on `root` (clears it first): axes, labels, curves and legend.
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
    draw_impl(root, spec, style, true).map(|_| ())
}

/// Draws everything of `spec` except the curves themselves (caption, axes, ticks, labels and
/// the legend with every series' entry) and returns where the curves go.
///
/// Same layout as [`draw_chart`], so an overlay stroked through the returned transform lands
/// exactly where plotters would have drawn the curves.
pub fn draw_frame<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    style: &Style,
) -> Result<PlotTransform, DrawError>
where
    DB::ErrorType: 'static,
{
    draw_impl(root, spec, style, false)
}

fn draw_impl<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    spec: &ChartSpec,
    style: &Style,
    lines: bool,
) -> Result<PlotTransform, DrawError>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let font = |size: f64| (FontFamily::SansSerif, style.px(size)).into_font();
    let (x0, x1) = spec.x_range;
    let (y0, y1) = spec.y_range;
    let log = spec.x_log && x0 > 0.0 && x1 > x0;
    let mapx = move |x: f64| if log { x.log10() } else { x };
    let (width_px, height_px) = root.dim_in_pixel();
    let sizes = FrameSizes::for_panel(
        width_px as f64 / style.scale,
        height_px as f64 / style.scale,
    );
    let (title, title_size) = fit_caption(root, &spec.title, sizes.caption, style);
    // Axis descriptions fit the panel: the rotated y label is centred on the plot's height (the
    // area less the caption, the x label area and the margins) and would otherwise run into
    // the caption; the x label is centred on the plot's width, so it reaches the panel's right
    // edge when it is as wide as the area less the y label area.
    let plot_w = width_px as f64 - style.scale * (sizes.y_area + 4.0);
    let plot_h =
        height_px as f64 - style.scale * (sizes.x_area + 2.0 * sizes.margin + 1.6 * title_size);
    let n_x = tick_count(width_px, style, 70.0);
    let n_y = tick_count(height_px, style, 32.0);
    // labels always distinct: more digits, or an offset and power of ten noted in the
    // description (ticks.rs); a log axis keeps its 10^u labels
    let xf = TickFormat::new(mapx(x0), mapx(x1), n_x);
    let yf = TickFormat::new(y0, y1, n_y);
    let x_desc = if log {
        spec.x_label.clone()
    } else {
        xf.describe(&spec.x_label)
    };
    let desc_size = sizes.desc;
    let x_label = fit_axis_label(root, &x_desc, plot_w, desc_size, style);
    let y_label = fit_axis_label(root, &yf.describe(&spec.y_label), plot_h, desc_size, style);
    let mut chart = ChartBuilder::on(root)
        .caption(&title, font(title_size))
        .margin(style.px(sizes.margin))
        .x_label_area_size(style.px(sizes.x_area))
        .y_label_area_size(style.px(sizes.y_area))
        .build_cartesian_2d(mapx(x0)..mapx(x1), y0..y1)?;
    let xfmt = move |v: &f64| {
        if log {
            // ticks between decades fall on 10^0.5 etc.: 3.16, not 3.1623
            tick(round_sig(10f64.powf(*v), 3))
        } else {
            xf.label(*v)
        }
    };
    let yfmt = move |v: &f64| yf.label(*v);
    chart
        .configure_mesh()
        .x_desc(x_label.as_str())
        .y_desc(y_label.as_str())
        .axis_desc_style(font(desc_size))
        .label_style(font(12.0))
        .light_line_style(RGBColor(0xEE, 0xEE, 0xEE))
        .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
        .x_labels(n_x)
        .y_labels(n_y)
        .x_label_formatter(&xfmt)
        .y_label_formatter(&yfmt)
        .draw()?;
    let a = chart.backend_coord(&(mapx(x0), y0));
    let b = chart.backend_coord(&(mapx(x1), y1));
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let transform = PlotTransform {
        px: (a.0 as f64, b.0 as f64),
        py: (a.1 as f64, b.1 as f64),
        x_range: (mapx(x0), mapx(x1)),
        y_range: (y0, y1),
        x_log: log,
        clip: (
            xr.start as f64,
            yr.start as f64,
            xr.end as f64,
            yr.end as f64,
        ),
        n_ticks: (n_x, n_y),
    };
    // Legend labels that would make the box wider than the plot are shortened with "…": the
    // box is anchored at a corner, so an overlong one pushes the colour samples out of view.
    let max_chars = {
        let plot_w = (xr.end - xr.start).max(0) as f64;
        let char_w = 0.6 * 12.0 * style.scale;
        (((0.9 * plot_w) - 40.0 * style.scale) / char_w)
            .floor()
            .max(6.0) as usize
    };
    let mut legend_entries = Vec::with_capacity(spec.series.len());
    for s in &spec.series {
        let color = s.color;
        let label = legend_label(&s.label, max_chars);
        let width = style.px(if s.dashed { 1.5 } else { 2.0 });
        let line_style = color.stroke_width(width);
        // A non-finite point breaks the line (as the page's overlay does, `decimate`): one
        // stroke per finite run, the first carrying the legend entry.
        let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
        for &(x, y) in s.points.iter().take(if lines { usize::MAX } else { 0 }) {
            let p = (mapx(x), y);
            if p.0.is_finite() && p.1.is_finite() {
                if let Some(r) = runs.last_mut() {
                    r.push(p);
                }
            } else if runs.last().is_some_and(|r| !r.is_empty()) {
                runs.push(Vec::new());
            }
        }
        for (i, run) in runs.into_iter().enumerate() {
            if i > 0 && run.is_empty() {
                continue;
            }
            if s.dashed {
                chart.draw_series(DashedLineSeries::new(
                    run,
                    style.px(6.0),
                    style.px(4.0),
                    line_style,
                ))?;
            } else {
                chart.draw_series(LineSeries::new(run, line_style))?;
            }
        }
        // a series without a label is drawn without a legend entry (stick sets sharing one)
        if !s.label.is_empty() {
            legend_entries.push((label, color.stroke_width(width)));
        }
    }
    let area = chart.plotting_area().strip_coord_spec();
    let label_font = font(12.0).into_text_style(&area.dim_in_pixel());
    let legend = (style.legend && !spec.series.is_empty()).then(|| legend_corner(spec));
    if let Some(corner) = legend {
        draw_legend(&area, &legend_entries, corner, &label_font)?;
    }
    if !spec.notes.is_empty() {
        // no colour sample: the legend's 40 px are text room here
        let lines: Vec<String> = spec
            .notes
            .iter()
            .flat_map(|n| wrap_words(n, max_chars + 5))
            .collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let grey = label_font.color(&RGBColor(0x44, 0x44, 0x44));
        let measured = measure_text_box(&area, &lines, 0, &grey)?;
        let (aw, ah) = area.dim_in_pixel();
        let size = (
            f64::from(measured.0 + 5) / f64::from(aw.max(1)),
            f64::from(measured.1 + 5) / f64::from(ah.max(1)),
        );
        let place = notes_place(spec, legend, size);
        draw_text_box(&area, &lines, measured, 0, place, &grey)?;
    }
    root.present()?;
    Ok(transform)
}

/// Sizes of a chart's frame \[CSS px\], chosen from the panel's size alone so that the panels
/// of one figure (all the same size) get the same fonts.
#[derive(Debug, Clone, Copy, PartialEq)]
struct FrameSizes {
    /// Margin on every side.
    margin: f64,
    /// Height below the plot for the x tick labels and description.
    x_area: f64,
    /// Width left of the plot for the y tick labels and description.
    y_area: f64,
    /// Largest caption font size (it shrinks further on a narrow panel, [`fit_caption`]).
    caption: f64,
    /// Font size of both axis descriptions.
    desc: f64,
}

impl FrameSizes {
    /// The sizes for a panel `w` × `h` CSS px. A short or narrow panel is drawn compact: the
    /// six stick-slip panels on a phone in landscape are ~180 × 130 px, and the full frame (a
    /// 27 px caption, 44 px below the plot, 2 × 12 px margins) left them a plot 35 px high.
    fn for_panel(w: f64, h: f64) -> Self {
        if h < 200.0 || w < 240.0 {
            FrameSizes {
                margin: 6.0,
                x_area: 34.0,
                y_area: 60.0,
                caption: 14.0,
                desc: 11.0,
            }
        } else {
            FrameSizes {
                margin: 12.0,
                x_area: 44.0,
                y_area: 64.0,
                caption: 17.0,
                desc: 13.0,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::stribeck_chart;

    #[test]
    fn stribeck_chart_renders_to_svg_with_labels_and_curve_colour() {
        let spec = stribeck_chart(&friction_core::stribeck::Stribeck::TABLE_I, 1.0, 0.05, 400);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
            draw_chart(&root, &spec, &Style::default()).expect("draw");
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
    fn frame_transform_maps_range_ends_onto_the_plotting_area() {
        let spec = stribeck_chart(&friction_core::stribeck::Stribeck::TABLE_I, 1.0, 0.05, 50);
        let mut svg = String::new();
        let t = {
            let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
            draw_frame(&root, &spec, &Style::default()).expect("draw")
        };
        // no curve stroked (only the 2-point legend sample), but the legend entry is there
        let longest = svg
            .split("<polyline")
            .filter(|p| p.contains("#0072B2"))
            .map(|p| p.split('>').next().unwrap_or("").matches(',').count())
            .max()
            .unwrap_or(0);
        assert!(longest <= 2, "curve polyline drawn with {longest} points");
        assert!(svg.contains("F = p·sgn(v)·μ(v)"));
        let (l, top, r, bottom) = t.clip;
        let (xa, ya) = t.to_px(spec.x_range.0, spec.y_range.0);
        let (xb, yb) = t.to_px(spec.x_range.1, spec.y_range.1);
        assert!(
            (xa - l).abs() <= 1.0 && (xb - r).abs() <= 1.5,
            "{xa} {xb} vs {l} {r}"
        );
        assert!(
            (ya - bottom).abs() <= 1.5 && (yb - top).abs() <= 1.0,
            "{ya} {yb} vs {top} {bottom}"
        );
        assert!(l > 40.0 && r < 800.0 && top > 20.0 && bottom < 500.0);
        // the middle of the data range maps to the middle of the area
        let (xm, ym) = t.to_px(0.0, 0.5 * (spec.y_range.0 + spec.y_range.1));
        assert!((xm - 0.5 * (xa + xb)).abs() < 1e-9 && (ym - 0.5 * (ya + yb)).abs() < 1e-9);
    }
}
