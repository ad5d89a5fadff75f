//! Friction Lab charts: one chart description, drawn by plotters on any `DrawingBackend`.
//!
//! The same [`draw_chart`] renders to the page's `<canvas>` (plotters-canvas) and to SVG (the CLI's
//! `--svg` and the native tests), so what the tests check is what users see. All sizes (fonts,
//! margins, line widths) are multiplied by [`Style::scale`], the device-pixel ratio, because
//! plotters-canvas draws in device pixels and knows nothing about HiDPI.

#[cfg(feature = "svg")]
pub mod backend;
pub mod curve;
pub mod export;
pub mod figure;
pub mod fit;
pub mod forced;
pub mod frbd;
pub mod panels;
#[cfg(feature = "png")]
pub mod png;
pub mod prescribed;
pub mod readout;
pub mod robot;
pub mod stickslip;
pub mod ticks;

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
    /// Legend text; empty: no legend entry of its own.
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
    /// Lines of text drawn in a box inside the plot, about what the chart cannot show (a model
    /// whose quantity does not exist, so that its curve is missing); empty for none.
    pub notes: Vec<String>,
    /// The size of a meaningful y value in axis units (a loop's bounding box for its area, a
    /// micrometre for a pre-sliding displacement), or 0 where the builder knows none: y data
    /// spread less than [`FLAT_SPAN`] of it are round-off and drawn flat, and an all-zero
    /// series gets an axis of about ±`y_scale` ([`axis_range`]). The page fits its axes with
    /// it too, so canvas and SVG agree.
    pub y_scale: f64,
}

/// How a chart is drawn on a device.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Device-pixel ratio: every size is multiplied by it.
    pub scale: f64,
    /// Whether the chart draws its own legend (false in a figure whose panels share one legend
    /// band, [`figure::shared_legend`]).
    pub legend: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            scale: 1.0,
            legend: true,
        }
    }
}

impl Style {
    fn px(&self, css_px: f64) -> u32 {
        (css_px * self.scale).round().max(1.0) as u32
    }
}

/// Error from drawing (the backend's message).
pub type DrawError = Box<dyn std::error::Error>;

/// [`axis_range`] of data whose natural scale is unknown.
pub fn padded_range(lo: f64, hi: f64) -> (f64, f64) {
    axis_range(lo, hi, 0.0)
}

/// The axis range for data spanning `lo..hi`, padded by 5 % each side, for a quantity whose
/// meaningful values are about `scale` (0: unknown).
///
/// Degenerate data never get an axis that magnifies round-off: a range narrower than
/// [`FLAT_SPAN`] of the larger of its magnitude and `scale` is drawn as a constant, on an axis
/// of ±50 % around it with ordinary ticks (zooming into such a spread drew Coulomb's constant
/// breakaway force as a rising curve on an axis reading "×10⁻¹⁴ + 0.98099…", and the sweep's
/// loop area of a static law as a zigzag of 10⁻¹⁷ N·m/s); a constant zero (to that resolution)
/// gets a symmetric axis of `scale` rounded up to 1, 2 or 5 × 10ⁿ, or ±1 in the axis unit
/// where the scale is unknown (an exact zero drew "displacement x [×10⁻¹³ m]"). Every
/// computation here runs at a relative tolerance of 1e-8 or looser, so 1e-9 of a value is
/// noise.
pub fn axis_range(lo: f64, hi: f64, scale: f64) -> (f64, f64) {
    let scale = if scale.is_finite() { scale.abs() } else { 0.0 };
    if !(lo.is_finite() && hi.is_finite()) {
        let half = nice_half(scale);
        return (-half, half);
    }
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    let span = hi - lo;
    let size = lo.abs().max(hi.abs());
    if span > FLAT_SPAN * size.max(scale) {
        let pad = 0.05 * span;
        return (lo - pad, hi + pad);
    }
    let mid = 0.5 * (lo + hi);
    if mid == 0.0 || mid.abs() <= FLAT_SPAN * scale {
        let half = nice_half(scale);
        return (-half, half);
    }
    let pad = 0.5 * mid.abs();
    (mid - pad, mid + pad)
}

/// Half-width of the axis of an all-zero series: `scale` rounded up to 1, 2 or 5 × 10ⁿ, or 1
/// (the axis unit) for an unknown scale.
fn nice_half(scale: f64) -> f64 {
    if !(scale > 0.0 && scale.is_finite()) {
        return 1.0;
    }
    let p = 10f64.powi(scale.log10().floor() as i32);
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&h| h >= scale * (1.0 - 1e-12))
        .unwrap_or(10.0 * p)
}

/// Relative spread of a data range below which [`padded_range`] treats it as constant.
pub const FLAT_SPAN: f64 = 1e-9;

/// Where the plotting area of a drawn chart lies, in backend (device) pixels, and how data map
/// onto it.
///
/// The page draws axes, text and legend once with plotters ([`draw_frame`]) and strokes the
/// curves itself on an overlay canvas through this transform, so that a slider move does not
/// pay for text layout again (see `shared/spec/RENDERING.md`).
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
    /// labels drawn ([`ticks::labels`]), for read-outs and tests of what a reader sees.
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

    /// Maps `points` to pixels and thins them to what a stroke can show, appending to `out`.
    ///
    /// Runs of points inside one pixel column (`min_px` wide) become at most four: the first,
    /// the lowest, the highest and the last, in their order. A dense oscillation (the
    /// stick-slip saw-tooth, a bristle snapping thousands of times) is therefore drawn as its
    /// envelope rather than as a zig-zag Skia must stroke segment by segment at the compositor
    /// commit (20 ms per path for four stick-slip models). Points closer than `min_px` to the
    /// last kept one are then dropped (the last point is always kept). Non-finite points break
    /// the path: they are passed through as `(NaN, NaN)` once.
    pub fn decimate(&self, points: &[(f64, f64)], min_px: f64, out: &mut Vec<(f64, f64)>) {
        let mut thin = Thinner {
            min2: min_px * min_px,
            last: None,
            out,
        };
        let mut col: Option<Column> = None;
        for (i, &(x, y)) in points.iter().enumerate() {
            let p = self.to_px(x, y);
            if !(p.0.is_finite() && p.1.is_finite()) {
                if let Some(c) = col.take() {
                    c.emit(&mut thin, false);
                }
                thin.pen_up();
                continue;
            }
            let k = (p.0 / min_px).floor();
            match col.as_mut() {
                Some(c) if c.index == k => c.add(i, p),
                _ => {
                    if let Some(c) = col.replace(Column::new(k, i, p)) {
                        c.emit(&mut thin, false);
                    }
                }
            }
        }
        if let Some(c) = col {
            c.emit(&mut thin, true);
        }
    }
}

/// The points of one pixel column that [`PlotTransform::decimate`] keeps: first, lowest,
/// highest and last, each with its index in the input so they are emitted in order.
struct Column {
    index: f64,
    first: (usize, (f64, f64)),
    low: (usize, (f64, f64)),
    high: (usize, (f64, f64)),
    last: (usize, (f64, f64)),
}

impl Column {
    fn new(index: f64, i: usize, p: (f64, f64)) -> Self {
        Column {
            index,
            first: (i, p),
            low: (i, p),
            high: (i, p),
            last: (i, p),
        }
    }

    fn add(&mut self, i: usize, p: (f64, f64)) {
        if p.1 < self.low.1 .1 {
            self.low = (i, p);
        }
        if p.1 > self.high.1 .1 {
            self.high = (i, p);
        }
        self.last = (i, p);
    }

    /// Hands the column's points to `thin` in input order; `end` keeps the very last point.
    fn emit(self, thin: &mut Thinner<'_>, end: bool) {
        let (a, b) = if self.low.0 <= self.high.0 {
            (self.low, self.high)
        } else {
            (self.high, self.low)
        };
        let mut prev = usize::MAX;
        for (i, p) in [self.first, a, b] {
            if i != prev {
                thin.keep(p, false);
                prev = i;
            }
        }
        if self.last.0 != prev || end {
            thin.keep(self.last.1, end);
        }
    }
}

/// The spacing rule of [`PlotTransform::decimate`]: a point is kept when it is at least
/// `min_px` from the last kept one, or when forced.
struct Thinner<'a> {
    min2: f64,
    last: Option<(f64, f64)>,
    out: &'a mut Vec<(f64, f64)>,
}

impl Thinner<'_> {
    fn keep(&mut self, p: (f64, f64), force: bool) {
        let far = self.last.is_none_or(|q| {
            let (dx, dy) = (p.0 - q.0, p.1 - q.1);
            dx * dx + dy * dy >= self.min2
        });
        if far || (force && self.last != Some(p)) {
            self.out.push(p);
            self.last = Some(p);
        }
    }

    /// A non-finite point: the path breaks once.
    fn pen_up(&mut self) {
        if self.last.take().is_some() {
            self.out.push((f64::NAN, f64::NAN));
        }
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
    let xf = ticks::TickFormat::new(mapx(x0), mapx(x1), n_x);
    let yf = ticks::TickFormat::new(y0, y1, n_y);
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

/// The legend box in a corner of the plotting `area`: one line per entry, its colour sample
/// to the left.
///
/// Drawn as plotters' series-label box draws it (same geometry: 10 px margin, 30 px for the
/// samples, lines 1.25 font sizes apart, 5 px from the corner), but its texts are measured
/// through the backend ([`backend::EitherBackend`]'s cached measurer): plotters measures each
/// label twice per draw by a DOM `<span>`, a layout of the whole page each, which made the
/// first redraws after a slider move 4-15 ms.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, ShapeStyle)],
    corner: Corner,
    font: &TextStyle<'_>,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let labels: Vec<&str> = entries.iter().map(|(l, _)| l.as_str()).collect();
    let measured = measure_text_box(area, &labels, SAMPLE_W, font)?;
    let rows = draw_text_box(
        area,
        &labels,
        measured,
        SAMPLE_W,
        Place::Corner(corner),
        font,
    )?;
    for ((_, sample), (x, mid)) in entries.iter().zip(rows) {
        let x0 = x - SAMPLE_W;
        area.draw(&PathElement::new(vec![(x0, mid), (x0 + 20, mid)], *sample))?;
    }
    Ok(())
}

/// Room left of a legend label for its colour sample \[px\].
const SAMPLE_W: i32 = 30;

/// Where a text box goes in the plotting area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// 5 px from a corner.
    Corner(Corner),
    /// In the middle (a plot with nothing else in it).
    Centre,
}

/// A white, grey-bordered box of `lines` at `place` in `area` (10 px margin, lines 1.25 font
/// sizes apart, `lead` px left of the texts), as [`measure_text_box`] `measured` it; returns
/// each line's left edge and vertical middle, for the legend's samples.
fn draw_text_box<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    lines: &[&str],
    measured: BoxSize,
    lead: i32,
    place: Place,
    font: &TextStyle<'_>,
) -> Result<Vec<(i32, i32)>, DrawError>
where
    DB::ErrorType: 'static,
{
    let (w, h, sizes) = measured;
    let (aw, ah) = area.dim_in_pixel();
    let (aw, ah) = (aw as i32, ah as i32);
    let (x, y) = match place {
        Place::Corner(Corner::UpperRight) => (aw - w - 5, 5),
        Place::Corner(Corner::UpperLeft) => (5, 5),
        Place::Corner(Corner::LowerRight) => (aw - w - 5, ah - h - 5),
        Place::Corner(Corner::LowerLeft) => (5, ah - h - 5),
        Place::Centre => ((aw - w) / 2, (ah - h) / 2),
    };
    let bg = WHITE.mix(0.85).filled();
    area.draw(&Rectangle::new([(x, y), (x + w, y + h)], bg))?;
    let border = RGBColor(0xBB, 0xBB, 0xBB);
    area.draw(&Rectangle::new([(x, y), (x + w, y + h)], border))?;
    let (tx, ty) = (x + lead + BOX_MARGIN, y + BOX_MARGIN);
    let line_h = font.font.get_size() * 1.25;
    let row_y = |i: usize| (f64::from(ty) + i as f64 * line_h).round() as i32;
    // all texts first, then the caller's samples: the order plotters draws a legend in (the
    // same SVG)
    for (i, line) in lines.iter().enumerate() {
        area.draw(&Text::new(*line, (tx, row_y(i)), font.clone()))?;
    }
    Ok(sizes
        .iter()
        .enumerate()
        .map(|(i, (_, th))| (tx, (row_y(i) + row_y(i) + th) / 2))
        .collect())
}

/// Space between a text box's border and its texts \[px\].
const BOX_MARGIN: i32 = 10;

/// Width and height of a text box, and each line's text size \[px\].
type BoxSize = (i32, i32, Vec<(i32, i32)>);

/// Width and height of [`draw_text_box`]'s box for `lines`, and each line's text size \[px\].
fn measure_text_box<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    lines: &[&str],
    lead: i32,
    font: &TextStyle<'_>,
) -> Result<BoxSize, DrawError>
where
    DB::ErrorType: 'static,
{
    let line_h = font.font.get_size() * 1.25;
    let line_y = |i: usize| (i as f64 * line_h).round() as i32;
    let mut sizes = Vec::with_capacity(lines.len());
    for line in lines {
        let (w, h) = area.estimate_text_size(line, font)?;
        sizes.push((w as i32, h as i32));
    }
    let text_w = sizes.iter().map(|s| s.0).max().unwrap_or(0).max(0);
    let text_h = sizes
        .iter()
        .enumerate()
        .map(|(i, s)| line_y(i) + s.1)
        .max()
        .unwrap_or(0)
        .max(0);
    Ok((
        text_w + lead + 2 * BOX_MARGIN,
        text_h + 2 * BOX_MARGIN,
        sizes,
    ))
}

/// Where a chart's notes go: the middle of an empty plot, else the corner with the fewest data
/// points under a box of `size` (fractions of the plot's width and height) that the chart's own
/// legend (`legend`) does not take.
fn notes_place(spec: &ChartSpec, legend: Option<Corner>, size: (f64, f64)) -> Place {
    if spec.series.iter().all(|s| s.points.is_empty()) {
        return Place::Centre;
    }
    let counts = corner_counts_for(spec, size.0, size.1, 8);
    let best = (0..4)
        .filter(|&i| Some(CORNERS[i]) != legend)
        .min_by_key(|&i| (counts[i], i))
        .unwrap_or(0);
    Place::Corner(CORNERS[best])
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

/// The caption and its font size \[CSS px\] for a chart `root` wide: `size` (17 px on a
/// full-size panel), smaller down to 12 px on a narrow panel, then the caption's head before
/// a definition or gloss (`"Lyapunov function W = ½ m s² + V(x̃)"` → `"Lyapunov function W"`)
/// if that fits, and only then cut with "…", so captions of neighbouring panels do not run
/// into each other (six stick-slip panels in an embedded frame are ~180 px wide each).
fn fit_caption<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    size: f64,
    style: &Style,
) -> (String, f64) {
    let room = root.dim_in_pixel().0 as f64 - style.scale * 8.0;
    let (text, fitted) = fit_text(root, title, room, size, style);
    if text == title {
        return (text, fitted);
    }
    for head in [" (", " = "]
        .iter()
        .filter_map(|sep| head_before(title, sep))
    {
        let (short, short_size) = fit_text(root, head, room, size, style);
        if short == head {
            return (short, short_size);
        }
    }
    (text, fitted)
}

/// The part of `text` before `sep` (a gloss, a definition or a qualifier follows it), trimmed;
/// `None` without `sep` or with nothing before it.
fn head_before<'a>(text: &'a str, sep: &str) -> Option<&'a str> {
    let (head, _) = text.split_once(sep)?;
    let head = head.trim_end();
    (!head.trim_start().is_empty()).then_some(head)
}

/// An axis description to fit `room` device pixels at `size` CSS px: the whole label if it
/// fits, else its short form (`"friction force F [N]"` → `"F [N]"`, see
/// [`short_label`]), cut with "…" only if even that is too long.
///
/// The size is the panel's ([`FrameSizes`]), not shrunk per label, so that neighbouring panels
/// keep one font; a phone in landscape had cut the rotated "position x [m]" to "posi…", which
/// names neither the quantity nor the unit.
fn fit_axis_label<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    label: &str,
    room: f64,
    size: f64,
    style: &Style,
) -> String {
    if text_width(root, label, size, style) <= room {
        return label.to_string();
    }
    let short = short_label(label).unwrap_or_else(|| label.to_string());
    cut_to_fit(root, &short, room, size, style)
}

/// The short form of an axis label: its symbol and unit bracket, or its head before a
/// qualifying clause. `words symbol [unit]` → `symbol [unit]` (`"relative velocity v [m/s]"` →
/// `"v [m/s]"`); a definition `symbol = formula [unit]` → `symbol [unit]` (`"q̃ = q − q_d [rad]"`
/// → `"q̃ [rad]"`); a label without a unit bracket loses what follows its first comma
/// (`"log₁₀ (W / 1 J), floor 10⁻¹² W(0)"` → `"log₁₀ (W / 1 J)"`). `None` when none of these
/// applies, or when the words are not a name the symbol stands for: a phrase ending in a
/// preposition (`"displacement at F_b [m]"`, where F_b is not the displacement).
fn short_label(label: &str) -> Option<String> {
    const BINDING: [&str; 8] = ["at", "of", "to", "per", "in", "on", "for", "from"];
    let Some(open) = label.find('[') else {
        return head_before(label, ", ").map(str::to_string);
    };
    let head = label[..open].trim_end();
    if let Some((symbol, formula)) = head.split_once(" = ") {
        let symbol = symbol.trim();
        return (!symbol.is_empty() && !symbol.contains(' ') && !formula.trim().is_empty())
            .then(|| format!("{symbol} {}", &label[open..]));
    }
    let (words, symbol) = head.rsplit_once(' ')?;
    let words = words.trim();
    let is_name = words
        .chars()
        .all(|c| c.is_alphabetic() || c == ' ' || c == '\'' || c == '-');
    let last = words.rsplit(' ').next().unwrap_or("");
    if words.is_empty() || symbol.is_empty() || !is_name || BINDING.contains(&last) {
        return None;
    }
    Some(format!("{symbol} {}", &label[open..]))
}

/// `text` and its font size [CSS px] to fit `room` device pixels: `size`, smaller down to 10 px
/// (12 px for sizes above 14, i.e. captions), then cut with "…".
fn fit_text<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
    room: f64,
    size: f64,
    style: &Style,
) -> (String, f64) {
    let smallest = if size > 14.0 { 12.0 } else { 10.0 };
    let mut size = size;
    while size > smallest && text_width(root, text, size, style) > room {
        size -= 1.0;
    }
    (cut_to_fit(root, text, room, size, style), size)
}

/// Width in device pixels of `text` at `size` CSS px as the backend lays it out (about 0.55 em
/// per character if it cannot say).
pub(crate) fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    size: f64,
    style: &Style,
) -> f64 {
    let font: TextStyle<'_> = (FontFamily::SansSerif, style.px(size)).into_font().into();
    area.estimate_text_size(text, &font)
        .map(|(w, _)| w as f64)
        .unwrap_or(0.55 * size * style.scale * text.chars().count() as f64)
}

/// `text`, cut with "…" until it is at most `room` device pixels wide at `size` CSS px (at
/// least four characters stay).
pub(crate) fn cut_to_fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    room: f64,
    size: f64,
    style: &Style,
) -> String {
    let mut out = text.to_string();
    let mut n = text.chars().count();
    while n > 4 && text_width(area, &out, size, style) > room {
        n -= 1;
        out = fit_label(text, n);
    }
    out
}

/// Number of tick labels along an axis `len_px` device pixels long: one per `spacing` CSS px,
/// 3 to 8, so that labels of a narrow panel do not overlap.
fn tick_count(len_px: u32, style: &Style, spacing: f64) -> usize {
    ((len_px as f64 / style.scale / spacing) as usize).clamp(3, 8)
}

/// A corner of the plotting area for the legend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corner {
    /// Top right (preferred).
    UpperRight,
    /// Top left.
    UpperLeft,
    /// Bottom right.
    LowerRight,
    /// Bottom left.
    LowerLeft,
}

/// `text` broken at spaces into lines of at most `max_chars` characters (a longer word cut with
/// "…"), so that a note stays whole in a narrow panel rather than losing its end.
fn wrap_words(text: &str, max_chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let (n, w) = (line.chars().count(), word.chars().count());
        if n > 0 && n + 1 + w > max_chars {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&fit_label(word, max_chars));
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `label` cut to at most `max_chars` characters, the last being "…" when it was cut.
pub(crate) fn fit_label(label: &str, max_chars: usize) -> String {
    if label.chars().count() <= max_chars {
        return label.to_string();
    }
    let mut s: String = label.chars().take(max_chars.saturating_sub(1)).collect();
    s.truncate(s.trim_end().len());
    s.push('…');
    s
}

/// A legend entry of at most `max_chars` characters: the label, else the part before its
/// parenthetical gloss (`"q_d (reference)"` → `"q_d"`, `"LuGre (Canudas de Wit)"` →
/// `"LuGre"`), which still names the series where `"q_d (re…"` reads as a cut formula; else
/// the label cut with "…".
fn legend_label(label: &str, max_chars: usize) -> String {
    if label.chars().count() <= max_chars {
        return label.to_string();
    }
    match head_before(label, " (") {
        Some(head) if head.chars().count() <= max_chars => head.to_string(),
        _ => fit_label(label, max_chars),
    }
}

/// Height of the legend box as a fraction of a typical plotting area (about 280 CSS px tall on
/// the page): one 15 px line per series plus padding, at most 35 %.
/// Entries of a chart's own legend: its series that have a label.
fn legend_len(spec: &ChartSpec) -> usize {
    spec.series.iter().filter(|s| !s.label.is_empty()).count()
}

fn legend_height_fraction(n_series: usize) -> f64 {
    ((15.0 * n_series as f64 + 20.0) / 280.0).min(0.35)
}

/// Raises the top of the y range so that the legend fits above the data when every corner of
/// the plot holds curve points (time signals that oscillate over the whole chart).
///
/// Leaves the chart alone when a corner is already free, so charts with room keep their tight
/// range.
pub fn make_legend_room(spec: &mut ChartSpec) {
    if spec.series.is_empty() || corner_counts(spec).contains(&0) {
        return;
    }
    let (y0, y1) = spec.y_range;
    let h = legend_height_fraction(legend_len(spec)) + 0.03;
    let top = y0 + (y1 - y0) / (1.0 - h);
    if top.is_finite() {
        spec.y_range = (y0, top);
    }
}

/// The corner whose legend-sized box (40 % of the plot wide, one line per series tall) covers
/// the fewest data points, so the legend does not hide curves (relaxation curves end in the
/// top right, hysteresis loops sit low at high velocity). Ties go to the first of upper right,
/// upper left, lower right, lower left.
pub fn legend_corner(spec: &ChartSpec) -> Corner {
    let counts = corner_counts(spec);
    let best = (0..4).min_by_key(|&i| (counts[i], i)).unwrap_or(0);
    CORNERS[best]
}

/// The corners in [`corner_counts`]' order.
const CORNERS: [Corner; 4] = [
    Corner::UpperRight,
    Corner::UpperLeft,
    Corner::LowerRight,
    Corner::LowerLeft,
];

/// Data points under a legend box in each corner: upper right, upper left, lower right, lower
/// left.
fn corner_counts(spec: &ChartSpec) -> [usize; 4] {
    corner_counts_for(spec, 0.4, legend_height_fraction(legend_len(spec)), 1)
}

/// Data points under a box `w` × `h` (fractions of the plot's width and height) in each corner,
/// in [`corner_counts`]' order, with `sub` − 1 more points on each segment between two (a
/// curve of few points can cross a corner between them).
fn corner_counts_for(spec: &ChartSpec, w: f64, h: f64, sub: usize) -> [usize; 4] {
    let (x0, x1) = spec.x_range;
    let (y0, y1) = spec.y_range;
    let log = spec.x_log && x0 > 0.0 && x1 > x0;
    let fx = |x: f64| {
        if log {
            (x.log10() - x0.log10()) / (x1.log10() - x0.log10())
        } else {
            (x - x0) / (x1 - x0)
        }
    };
    let mut counts = [0usize; 4];
    let mut count = |u: f64, v: f64| {
        if !(u.is_finite() && v.is_finite()) {
            return;
        }
        let (right, left, top, bottom) = (u > 1.0 - w, u < w, v > 1.0 - h, v < h);
        for (i, hit) in [right && top, left && top, right && bottom, left && bottom]
            .into_iter()
            .enumerate()
        {
            if hit {
                counts[i] += 1;
            }
        }
    };
    for s in &spec.series {
        let mut last: Option<(f64, f64)> = None;
        for &(x, y) in &s.points {
            let (u, v) = (fx(x), (y - y0) / (y1 - y0));
            if let Some((u0, v0)) = last.filter(|_| sub > 1) {
                for k in 1..sub {
                    let f = k as f64 / sub as f64;
                    count(u0 + f * (u - u0), v0 + f * (v - v0));
                }
            }
            count(u, v);
            last = Some((u, v));
        }
    }
    counts
}

/// Bounds of all finite points of `series`: (x_lo, x_hi, y_lo, y_hi) (x ≤ 0 kept: log axes do
/// not use the x bounds). The page fits its axes to these ([`fitted_axes`]).
pub fn data_bounds(series: &[Series]) -> (f64, f64, f64, f64) {
    let (mut xlo, mut xhi, mut ylo, mut yhi) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for s in series {
        for &(x, y) in &s.points {
            if x.is_finite() && y.is_finite() {
                xlo = xlo.min(x);
                xhi = xhi.max(x);
                ylo = ylo.min(y);
                yhi = yhi.max(y);
            }
        }
    }
    (xlo, xhi, ylo, yhi)
}

/// The (x, y) ranges the page gives a chart when it first fits its axes to the data (a new
/// link, a reset; [`stable_range`] with no current range): a log x axis keeps the spec's.
pub fn fitted_axes(spec: &ChartSpec) -> ((f64, f64), (f64, f64)) {
    let (xlo, xhi, ylo, yhi) = data_bounds(&spec.series);
    let x = if spec.x_log {
        spec.x_range
    } else {
        stable_range(None, xlo, xhi, 0.0, false)
    };
    (x, stable_range(None, ylo, yhi, spec.y_scale, false))
}

/// Keeps the current axis range while the data stay inside it, so the plot does not jump while
/// a slider moves; otherwise returns the padded range of the data.
///
/// With `tighten`, a range more than about three times wider than the data is also refitted
/// (used when a slider is released, so the scale follows big changes once the hand stops).
///
/// `scale` is the quantity's natural scale ([`ChartSpec::y_scale`] on a y axis; 0: unknown),
/// as in [`axis_range`].
pub fn stable_range(
    current: Option<(f64, f64)>,
    lo: f64,
    hi: f64,
    scale: f64,
    tighten: bool,
) -> (f64, f64) {
    let fresh = axis_range(lo, hi, scale);
    let Some((c0, c1)) = current else {
        return fresh;
    };
    if !(lo.is_finite() && hi.is_finite()) {
        return (c0, c1);
    }
    let inside = lo >= c0 && hi <= c1;
    let loose = (c1 - c0) > 3.0 * (fresh.1 - fresh.0);
    if inside && !(tighten && loose) {
        (c0, c1)
    } else {
        fresh
    }
}

/// `v` rounded to `digits` significant digits.
fn round_sig(v: f64, digits: i32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(digits - 1 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
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
        notes: Vec::new(),
        y_scale: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_wrap_at_spaces_and_keep_every_word() {
        let text = "Dahl: F has no peak, so no x_b";
        assert_eq!(wrap_words(text, 40), [text]);
        let lines = wrap_words(text, 14);
        assert_eq!(lines, ["Dahl: F has no", "peak, so no", "x_b"]);
        assert!(lines.iter().all(|l| l.chars().count() <= 14));
        assert_eq!(lines.join(" "), text);
        assert_eq!(
            wrap_words("Bliman-Sorine-2: no peak", 8),
            ["Bliman-…", "no peak"]
        );
        assert!(wrap_words("", 8).is_empty());
    }

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

    #[test]
    fn decimation_keeps_ends_and_spacing() {
        let t = PlotTransform {
            px: (0.0, 1000.0),
            py: (500.0, 0.0),
            x_range: (0.0, 1.0),
            y_range: (0.0, 1.0),
            x_log: false,
            clip: (0.0, 0.0, 1000.0, 500.0),
            n_ticks: (5, 5),
        };
        let pts: Vec<(f64, f64)> = (0..=10_000).map(|i| (i as f64 / 10_000.0, 0.5)).collect();
        let mut out = Vec::new();
        t.decimate(&pts, 1.0, &mut out);
        assert!((990..=1002).contains(&out.len()), "{} points", out.len());
        assert_eq!(out[0], (0.0, 250.0));
        assert_eq!(*out.last().expect("non-empty"), (1000.0, 250.0));
        assert!(out
            .windows(2)
            .all(|w| w[1].0 - w[0].0 >= 1.0 - 1e-9 || w[1].0 == 1000.0));
        // a NaN breaks the path once
        let mut out = Vec::new();
        t.decimate(
            &[(0.0, 0.0), (f64::NAN, 0.0), (f64::NAN, 1.0), (1.0, 1.0)],
            1.0,
            &mut out,
        );
        assert_eq!(out.len(), 3);
        assert!(out[1].0.is_nan());
    }

    #[test]
    fn a_dense_oscillation_is_drawn_as_its_envelope() {
        let t = PlotTransform {
            px: (0.0, 100.0),
            py: (100.0, 0.0),
            x_range: (0.0, 1.0),
            y_range: (-1.0, 1.0),
            x_log: false,
            clip: (0.0, 0.0, 100.0, 100.0),
            n_ticks: (5, 5),
        };
        // a saw-tooth of 1,000 teeth over 100 px: 20,000 points
        let pts: Vec<(f64, f64)> = (0..20_000)
            .map(|i| (i as f64 / 19_999.0, if i % 20 < 10 { -0.9 } else { 0.9 }))
            .collect();
        let mut out = Vec::new();
        t.decimate(&pts, 1.0, &mut out);
        assert!(out.len() <= 4 * 101, "{} points", out.len());
        for col in 0..100 {
            let ys: Vec<f64> = out
                .iter()
                .filter(|p| p.0.floor() as usize == col)
                .map(|p| p.1)
                .collect();
            let (lo, hi) = ys
                .iter()
                .fold((f64::MAX, f64::MIN), |(a, b), &y| (a.min(y), b.max(y)));
            assert!(
                (lo - 5.0).abs() < 1e-9 && (hi - 95.0).abs() < 1e-9,
                "column {col}: {ys:?}"
            );
        }
        assert_eq!(*out.last().expect("non-empty"), t.to_px(1.0, 0.9));
    }

    #[test]
    fn a_long_legend_label_on_a_small_chart_keeps_its_colour_sample_inside() {
        use plotters::prelude::*;
        let mut spec = stribeck_chart(&friction_core::stribeck::Stribeck::TABLE_I, 1.0, 0.05, 50);
        let long = "Modified Stribeck elasto-slip element from the friction library";
        spec.series[0].label = long.to_string();
        let mut svg = String::new();
        let t = {
            let root = SVGBackend::with_string(&mut svg, (260, 300)).into_drawing_area();
            draw_frame(&root, &spec, &Style::default()).expect("draw")
        };
        assert!(!svg.contains(long), "the full label does not fit");
        assert!(svg.contains("Modified"), "the label's start is shown");
        assert!(svg.contains('…'));
        // the 2-point legend sample of the curve's colour lies inside the plotting area
        let sample = svg
            .split("<polyline")
            .find(|p| p.contains("#0072B2"))
            .and_then(|p| p.split("points=\"").nth(1))
            .and_then(|p| p.split(',').next())
            .and_then(|x| x.trim().parse::<f64>().ok())
            .expect("legend sample");
        assert!(
            sample >= t.clip.0,
            "sample at x = {sample}, plot starts at {}",
            t.clip.0
        );
    }

    #[test]
    fn short_labels_keep_symbol_and_unit() {
        assert_eq!(
            short_label("friction force F [×10⁻⁴ + 1.499 N]").as_deref(),
            Some("F [×10⁻⁴ + 1.499 N]")
        );
        assert_eq!(
            short_label("relative velocity v [m/s]").as_deref(),
            Some("v [m/s]")
        );
        assert_eq!(
            short_label("displacement since the cycle's start x [m]").as_deref(),
            Some("x [m]")
        );
        assert_eq!(short_label("x [m]"), None);
        assert_eq!(short_label("displacement at F_b [m]"), None);
        assert_eq!(
            short_label("displacement at the peak x_b [×10⁻⁵ m]").as_deref(),
            Some("x_b [×10⁻⁵ m]")
        );
        assert_eq!(short_label("q̃ = q − q_d [rad]").as_deref(), Some("q̃ [rad]"));
        assert_eq!(
            short_label("log₁₀ (W / 1 J), floor 10⁻¹² W(0)").as_deref(),
            Some("log₁₀ (W / 1 J)")
        );
        assert_eq!(short_label("a b = c [m]"), None);
        assert_eq!(short_label("ratio"), None);
        assert_eq!(short_label("[m]"), None);
    }

    #[test]
    fn long_legend_labels_are_cut_to_fit() {
        assert_eq!(fit_label("LuGre", 10), "LuGre");
        assert_eq!(fit_label("Generalized Maxwell-Slip", 12), "Generalized…");
        assert_eq!(fit_label("Modified Stribeck", 9), "Modified…");
        assert_eq!(fit_label("αβγδεζηθ", 4).chars().count(), 4);
        assert_eq!(legend_label("q_d (reference)", 15), "q_d (reference)");
        assert_eq!(legend_label("q_d (reference)", 8), "q_d");
        assert_eq!(legend_label("F̂ (observer)", 8), "F̂");
        assert_eq!(legend_label("Generalized Maxwell-Slip", 12), "Generalized…");
        assert_eq!(
            legend_label("steady state p·sgn(v)·μ(v)", 12),
            "steady stat…"
        );
    }

    #[test]
    fn captions_and_tick_counts_fit_narrow_panels() {
        let title = "Friction force against relative velocity";
        let mut s = String::new();
        let wide = SVGBackend::with_string(&mut s, (600, 400)).into_drawing_area();
        assert_eq!(
            fit_caption(&wide, title, 17.0, &Style::default()),
            (title.to_string(), 17.0)
        );
        drop(wide);
        let mut s = String::new();
        let narrow = SVGBackend::with_string(&mut s, (180, 300)).into_drawing_area();
        let (text, size) = fit_caption(&narrow, title, 17.0, &Style::default());
        assert_eq!(size, 12.0);
        assert!(
            text.ends_with('…') && text.chars().count() < title.chars().count(),
            "{text}"
        );
        // a definition or gloss goes before anything is cut
        let lyapunov = "Lyapunov function W = ½ m s² + V(x̃) + ½ k₂⁻¹ e²";
        assert_eq!(
            fit_caption(&narrow, lyapunov, 17.0, &Style::default()).0,
            "Lyapunov function W"
        );
        // twice the device pixels at DPR 2: the same fit
        drop(narrow);
        let mut s = String::new();
        let hidpi = SVGBackend::with_string(&mut s, (360, 600)).into_drawing_area();
        let two = Style {
            scale: 2.0,
            ..Style::default()
        };
        assert_eq!(fit_caption(&hidpi, title, 17.0, &two).1, 12.0);
        // an axis description longer than its side shrinks to 10 px, then is cut
        let mut s = String::new();
        let area = SVGBackend::with_string(&mut s, (300, 200)).into_drawing_area();
        let label = "acceleration ẍ [m/s²]";
        assert_eq!(
            fit_text(&area, label, 400.0, 13.0, &Style::default()),
            (label.into(), 13.0)
        );
        let (short, size) = fit_text(&area, label, 90.0, 13.0, &Style::default());
        assert_eq!(size, 10.0);
        assert!(short.ends_with('…'), "{short}");
        // as an axis description it keeps its symbol and unit instead
        assert_eq!(
            fit_axis_label(&area, label, 90.0, 13.0, &Style::default()),
            "ẍ [m/s²]"
        );
        assert_eq!(
            fit_axis_label(&area, label, 400.0, 13.0, &Style::default()),
            label
        );
        let cut = fit_axis_label(&area, label, 30.0, 13.0, &Style::default());
        assert!(cut.ends_with('…'), "{cut}");
        drop(area);
        assert_eq!(tick_count(180, &Style::default(), 70.0), 3);
        assert_eq!(tick_count(360, &two, 70.0), 3);
        assert_eq!(tick_count(900, &Style::default(), 70.0), 8);
    }

    #[test]
    fn legend_room_is_made_only_when_every_corner_is_taken() {
        let sine = |label: &str| Series {
            label: label.into(),
            color: PALETTE[0],
            points: (0..=400)
                .map(|i| {
                    let t = 0.1 * i as f64;
                    (t, t.sin())
                })
                .collect(),
            dashed: false,
        };
        let mut spec = ChartSpec {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            x_range: (0.0, 40.0),
            y_range: (-1.1, 1.1),
            x_log: false,
            series: vec![sine("a"), sine("b"), sine("c"), sine("d")],
            notes: Vec::new(),
            y_scale: 0.0,
        };
        assert!(corner_counts(&spec).iter().all(|&c| c > 0));
        make_legend_room(&mut spec);
        assert_eq!(spec.y_range.0, -1.1);
        assert!(spec.y_range.1 > 1.5, "{:?}", spec.y_range);
        assert_eq!(corner_counts(&spec)[0], 0);
        assert_eq!(legend_corner(&spec), Corner::UpperRight);
        // a chart with a free corner keeps its range
        let before = spec.y_range;
        make_legend_room(&mut spec);
        assert_eq!(spec.y_range, before);
    }

    #[test]
    fn round_off_spreads_are_drawn_flat() {
        // Coulomb's breakaway force over twelve rates: 0.981 with a 6e-14 N spread
        let (lo, hi) = padded_range(0.981_000_000_000_000_4, 0.981_000_000_000_061);
        assert!(
            (lo - 0.4905).abs() < 1e-9 && (hi - 1.4715).abs() < 1e-9,
            "{lo} {hi}"
        );
        assert_eq!(padded_range(2.0, 2.0), (1.0, 3.0));
        // an exact zero: a symmetric axis in the quantity's unit, or of its natural scale
        assert_eq!(padded_range(0.0, 0.0), (-1.0, 1.0));
        assert_eq!(axis_range(0.0, 0.0, 1e-6), (-1e-6, 1e-6));
        assert_eq!(axis_range(0.0, 0.0, 0.03), (-0.05, 0.05));
        // round-off about zero of a quantity whose values are about 0.04 (a loop area)
        assert_eq!(axis_range(-3.7e-18, 1.9e-17, 0.04), (-0.05, 0.05));
        // a tiny constant that is not round-off of its scale keeps its ±50 %
        let (lo, hi) = axis_range(3e-7, 3e-7, 1e-6);
        assert!((lo - 1.5e-7).abs() < 1e-20 && (hi - 4.5e-7).abs() < 1e-20);
        // a real spread, however small beside the values, keeps its 5 % pads
        let (lo, hi) = padded_range(1.4990, 1.4991);
        assert!((lo - 1.498995).abs() < 1e-12 && (hi - 1.499105).abs() < 1e-12);
        let (lo, hi) = padded_range(-1e-14, 3e-14);
        assert!((lo + 1.2e-14).abs() < 1e-27 && (hi - 3.2e-14).abs() < 1e-27);
    }

    #[test]
    fn stable_range_holds_until_data_leave_it() {
        let cur = Some((0.0, 10.0));
        assert_eq!(stable_range(cur, 1.0, 9.0, 0.0, false), (0.0, 10.0));
        assert_eq!(stable_range(cur, 4.0, 5.0, 0.0, false), (0.0, 10.0));
        assert_eq!(
            stable_range(cur, 4.0, 5.0, 0.0, true),
            padded_range(4.0, 5.0)
        );
        assert_eq!(
            stable_range(cur, -1.0, 5.0, 0.0, false),
            padded_range(-1.0, 5.0)
        );
        assert_eq!(
            stable_range(None, 1.0, 2.0, 0.0, false),
            padded_range(1.0, 2.0)
        );
        assert_eq!(stable_range(cur, f64::NAN, 2.0, 0.0, false), (0.0, 10.0));
    }

    #[test]
    fn legend_goes_to_the_emptiest_corner() {
        let mut spec = stribeck_chart(&friction_core::stribeck::Stribeck::TABLE_I, 1.0, 0.05, 400);
        // odd Stribeck curve: it peaks just right of zero and falls, so a one-line legend box
        // is free in the upper right (and in the upper left, where the curve is negative)
        assert_eq!(corner_counts(&spec)[0], 0);
        assert_eq!(legend_corner(&spec), Corner::UpperRight);
        spec.series[0].points = (0..100).map(|i| (0.0005 * i as f64, 1.4)).collect();
        spec.x_range = (0.0, 0.05);
        spec.y_range = (0.0, 1.5);
        assert_eq!(legend_corner(&spec), Corner::LowerRight);
        spec.series[0].points.clear();
        assert_eq!(legend_corner(&spec), Corner::UpperRight);
    }

    #[test]
    fn log_ticks_are_rounded_to_two_digits() {
        assert_eq!(tick(round_sig(10f64.powf(0.5), 2)), "3.2");
        assert_eq!(tick(round_sig(10f64.powf(2.5), 2)), "320");
        assert_eq!(tick(round_sig(1e-6, 2)), "1e-6");
        assert_eq!(round_sig(0.0, 2), 0.0);
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick(0.015), "0.015");
        assert_eq!(tick(2.0), "2");
        assert_eq!(tick(1e-4), "1e-4");
        assert_eq!(tick(-0.5), "-0.5");
        // log-axis ticks between decades
        assert_eq!(tick(round_sig(10f64.powf(0.5), 3)), "3.16");
        assert_eq!(tick(round_sig(10f64.powf(1.5), 3)), "31.6");
        assert_eq!(tick(round_sig(10f64.powf(-4.0), 3)), "1e-4");
    }
}
