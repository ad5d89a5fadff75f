//! Two stacked canvases: plotters draws the frame (axes, text, legend) on the background only
//! when it changes; the curves are stroked on the overlay with path calls every frame.

use friction_plot::figure::grid_for;
use friction_plot::legend::{draw_legend_band, legend_band_height};
use friction_plot::{draw_frame, ChartSpec, PlotTransform, Series, Style};
use plotters::prelude::*;
use wasm_bindgen::{JsError, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, OffscreenCanvas};

use crate::ctx2d::{Ctx2dBackend, Target};
use crate::Canvas;
use friction_plot::backend::EitherBackend;
use std::cell::Cell;

/// Line widths in CSS px. Thin lines are much cheaper to paint in software (measured: 1-device-px
/// lines 3–4× cheaper than 2-px) and still clearly visible; the legend samples on the background
/// use the same colours.
const LOOP_WIDTH: f64 = 1.5;
const REF_WIDTH: f64 = 1.25;

/// Share of a panel's area above which a curve's stroke is drawn one device pixel wide.
///
/// A wider stroke is rasterised by Skia as the outline of the whole path, filled with
/// antialiasing: a dense self-crossing path (the F–v orbit of a long stick-slip run, thousands
/// of segments) took 300–800 ms of one compositor commit. A one-pixel line takes Skia's
/// hairline path (≈ 60× faster, measured here on 8000 segments) and, where the curve would ink
/// this much of the panel anyway, shows the same band.
const DENSE_INK: f64 = 0.25;

/// Whether a plot of this CSS size \[px\] is too small for a legend inside a chart (it would
/// cover the curves): under 520 × 360, e.g. a 400 × 300 embedded figure.
pub(crate) fn small_plot((w, h): (i32, i32)) -> bool {
    w < 520 || h < 360
}

/// The panel of `transforms` (drawn at `dpr`) whose plotting area holds (`x`, `y`) CSS px, its
/// transform and the point in device pixels.
pub(crate) fn panel_at(
    transforms: &[PlotTransform],
    dpr: f64,
    x: f64,
    y: f64,
) -> Option<(usize, PlotTransform, (f64, f64))> {
    let p = (x * dpr, y * dpr);
    transforms.iter().enumerate().find_map(|(i, t)| {
        let (l, top, r, bottom) = t.clip;
        (p.0 >= l && p.0 <= r && p.1 >= top && p.1 <= bottom).then_some((i, *t, p))
    })
}

/// Length of the drawn segments of a decimated path \[device px\] (breaks skipped).
fn path_length(points: &[(f64, f64)]) -> f64 {
    points
        .windows(2)
        .filter(|w| !(w[0].0.is_nan() || w[1].0.is_nan()))
        .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
        .sum()
}

/// The page's plot: background + overlay canvas of the same size, stacked by CSS, holding one
/// or more chart panels (a view with several panels passes them all to [`Surface::draw_panels`]).
pub struct Surface {
    bg: Target,
    fg: Target,
    fg_ctx: CanvasRenderingContext2d,
    dpr: f64,
    /// Device pixels per CSS pixel as the page gave them, for canvases in a worker (which has
    /// no window to ask).
    given_dpr: Option<f64>,
    bg_key: String,
    transforms: Vec<PlotTransform>,
    /// The key of a first drawing split over frames, while its panels are not all drawn
    /// ([`Surface::draw_panels`]'s `slice_ms`); `transforms` holds the panels drawn so far.
    partial: Option<String>,
    /// The key of a first drawing to come and how many of its panels
    /// [`Surface::rehearse`] laid out.
    rehearsed: Option<(String, usize)>,
    /// Pixel points of the curve being stroked; reused so frames do not allocate for it.
    scratch: Vec<(f64, f64)>,
    /// The canvases' CSS size \[px\] as last read, until [`Surface::resized`]: reading it
    /// (`clientWidth`) in a frame whose DOM changed forces a layout of the whole page, a
    /// second one after the browser's own. Given by the page for canvases in a worker.
    css: Option<(i32, i32)>,
}

fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

fn plot_err(e: impl ToString) -> JsError {
    JsError::new(&e.to_string())
}

fn js(e: JsValue) -> JsError {
    JsError::new(&format!("{e:?}"))
}

impl Surface {
    /// Wraps the two canvases (the overlay must sit exactly on top of the background).
    pub fn new(bg: HtmlCanvasElement, fg: HtmlCanvasElement) -> Result<Surface, JsError> {
        Surface::on(Target::Page(bg), Target::Page(fg))
    }

    /// The same on two `OffscreenCanvas`es (a page's canvases transferred to its painter
    /// worker); their CSS size and pixel ratio come from [`Surface::set_css`].
    pub(crate) fn offscreen(bg: OffscreenCanvas, fg: OffscreenCanvas) -> Result<Surface, JsError> {
        Surface::on(Target::Offscreen(bg), Target::Offscreen(fg))
    }

    fn on(bg: Target, fg: Target) -> Result<Surface, JsError> {
        let fg_ctx = fg.context()?;
        bg.context()?;
        Ok(Surface {
            bg,
            fg,
            fg_ctx,
            dpr: 1.0,
            given_dpr: None,
            bg_key: String::new(),
            transforms: Vec::new(),
            partial: None,
            rehearsed: None,
            scratch: Vec::with_capacity(4096),
            css: None,
        })
    }

    /// Where each panel's curves went at the last drawing.
    pub fn transforms(&self) -> Vec<PlotTransform> {
        self.transforms.clone()
    }

    /// Device pixels per CSS pixel at the last drawing.
    pub fn dpr(&self) -> f64 {
        self.dpr
    }

    /// The panel whose plotting area holds (`x`, `y`) CSS px, its transform and the point in
    /// device pixels.
    pub fn panel_at(&self, x: f64, y: f64) -> Option<(usize, PlotTransform, (f64, f64))> {
        panel_at(&self.transforms, self.dpr, x, y)
    }

    /// Matches both backing stores to the CSS size × devicePixelRatio.
    /// Whether the plot is too small for a legend inside a chart (it would cover the curves):
    /// under 520 × 360 CSS px, e.g. a 400 × 300 embedded figure.
    pub fn small(&mut self) -> bool {
        small_plot(self.css_size())
    }

    /// Whether nothing was drawn on this surface yet: its first drawing runs the chart code
    /// cold, so the caller gives it a frame of its own.
    pub fn never_drawn(&self) -> bool {
        self.bg_key.is_empty() && self.partial.is_none()
    }

    /// Whether the background was never drawn whole: a first drawing is still to come, or part
    /// of one ([`Surface::rehearse`] prepares it).
    pub fn first_drawing_due(&self) -> bool {
        self.bg_key.is_empty()
    }

    /// The page says the canvases may have changed size: the next drawing reads it again.
    pub fn resized(&mut self) {
        if let Target::Page(_) = self.bg {
            self.css = None;
        }
    }

    /// The canvases' CSS size \[px\] and device pixels per CSS pixel, as the page measured
    /// them (canvases in a worker cannot).
    pub(crate) fn set_css(&mut self, css: (i32, i32), dpr: f64) {
        self.css = Some(css);
        self.given_dpr = Some(dpr);
    }

    fn css_size(&mut self) -> (i32, i32) {
        let bg = &self.bg;
        *self.css.get_or_insert_with(|| match bg {
            Target::Page(c) => (c.client_width(), c.client_height()),
            Target::Offscreen(_) => (1, 1),
        })
    }

    /// Sizes both canvases to the plot; returns whether either changed size.
    fn fit(&mut self) -> bool {
        let (w, h) = self.css_size();
        let dpr = self
            .given_dpr
            .unwrap_or_else(|| {
                web_sys::window()
                    .map(|w| w.device_pixel_ratio())
                    .unwrap_or(1.0)
            })
            .max(1.0);
        let device = |css: i32| (css.max(1) as f64 * dpr).round() as u32;
        let size = (device(w), device(h));
        let bg = self.bg.set_size(size);
        let fg = self.fg.set_size(size);
        self.dpr = dpr;
        bg || fg
    }

    /// Sizes both canvases to the plot and has the browser allocate their pixels now, in a
    /// task before the frame that draws on them.
    ///
    /// Why: the first operation on a new or resized canvas allocates and clears its whole
    /// bitmap: 3-7 ms each for 1280 × 839 here, 5-26 ms under load, paid by the first
    /// `fillRect` of the drawing's frame, in tasks over 50 ms at load (issue 39). A one-pixel
    /// clear allocates it as a whole fill would and changes nothing: a resized canvas is blank.
    ///
    /// Only before a first drawing: a picture stays as it is until the frame that redraws it,
    /// since resizing a canvas blanks it for whoever reads it in between (the page's tests and
    /// `data-done`, which says the picture is drawn).
    pub fn allocate(&mut self) -> Result<(), JsError> {
        if self.first_drawing_due() && self.fit() {
            self.bg.context()?.clear_rect(0.0, 0.0, 1.0, 1.0);
            self.fg_ctx.clear_rect(0.0, 0.0, 1.0, 1.0);
        }
        Ok(())
    }

    /// Everything the background of these panels depends on, the canvas size included.
    fn key(&self, panels: &[(&ChartSpec, &[Series])], legend: Option<&[Series]>) -> String {
        let (w, h) = self.bg.size();
        let mut key = format!("{w}x{h}@{}", self.dpr);
        for (frame, _) in panels {
            key.push('#');
            key.push_str(&frame_key(frame));
        }
        for s in legend.unwrap_or_default() {
            key.push_str(&format!(
                "#legend:{}:{}:{}",
                s.label,
                hex(s.color),
                s.dashed
            ));
        }
        key
    }

    /// Lays out the frames of a first drawing still to come without drawing them: the same
    /// chart code runs on a throwaway SVG document of the canvas's size, for up to `slice_ms`
    /// (at least one panel). Returns whether panels are left for another call.
    ///
    /// Why: a surface's first drawing paid, in one frame, for V8 compiling the chart code at its
    /// first call, for the browser resolving each new font size (a synchronous call to the
    /// browser process, up to 39 ms during load) and for shaping each label the first time.
    /// A rehearsal in tasks of its own before that frame leaves the drawing itself: the code is
    /// compiled, the fonts are known and every text's size is in the backend's cache, which the
    /// canvas shares with SVG ([`friction_plot::backend`]). It changes no pixel and no state the
    /// drawing reads, so a drawing is the same with or without one (issue 39).
    pub fn rehearse(
        &mut self,
        panels: &[(&ChartSpec, &[Series])],
        legend: Option<&[Series]>,
        slice_ms: f64,
    ) -> Result<bool, JsError> {
        if !self.bg_key.is_empty() {
            return Ok(false);
        }
        let t0 = crate::lab::now();
        self.allocate()?;
        let key = self.key(panels, legend);
        // panels a split drawing already drew, or an earlier rehearsal laid out
        let drawn = match &self.partial {
            Some(k) if *k == key => self.transforms.len(),
            _ => 0,
        };
        let rehearsed = match &self.rehearsed {
            Some((k, n)) if *k == key => *n,
            _ => 0,
        };
        let from = drawn.max(rehearsed);
        if from >= panels.len() {
            return Ok(false);
        }
        // The first rehearsal only runs the chart code, for V8 to compile it, with text sizes
        // estimated: compiling and a new font size's lookup (up to 40 ms at load) in one task
        // were again over 50 ms.
        let compile_only = !CHART_CODE_RUN.with(Cell::get);
        let (mut svg, mut laid) = (String::new(), Vec::new());
        let size = self.bg.size();
        let slice = if compile_only { 0.0 } else { slice_ms };
        let mut lay_out = || {
            draw_frames(
                EitherBackend::svg(&mut svg, size).into_drawing_area(),
                panels,
                legend,
                self.dpr,
                from,
                Some((t0, slice)),
                &mut laid,
            )
        };
        if compile_only {
            friction_plot::backend::estimating_text(lay_out)?;
            return Ok(true);
        }
        let all = lay_out()?;
        self.rehearsed = Some((key, from + laid.len()));
        Ok(!all)
    }

    /// Draws panels in a grid (1 → 1×1, 2 → 1×2, 3–4 → 2×2, 5–6 → 2×3, …), under one legend
    /// band when `legend` is given (the panels then draw none of their own). Each panel's frame
    /// (its series give only the legend) goes on the background, redrawn only if any frame, the
    /// legend or the canvas size changed; the curves are stroked on the overlay every call.
    ///
    /// With `slice_ms`, a first drawing (onto a blank background) stops after the panel that
    /// spent it and goes on at the next call with the same frames: a surface's first drawing
    /// runs the chart code and the text measuring cold, and six panels of it in one frame made
    /// a task of 60-100 ms on the main thread at load (issue 39). A panel whose frame is not
    /// drawn yet gets no curves. Later redraws are whole, so a picture is never half old.
    pub fn draw_panels(
        &mut self,
        panels: &[(&ChartSpec, &[Series])],
        legend: Option<&[Series]>,
        slice_ms: Option<f64>,
    ) -> Result<Drawing, JsError> {
        let t0 = crate::lab::now();
        self.fit();
        let key = self.key(panels, legend);
        let mut drawing = Drawing {
            background: false,
            complete: true,
        };
        if key != self.bg_key || self.transforms.len() != panels.len() {
            // a split first drawing goes on where it stopped if nothing it drew has changed
            let from = match &self.partial {
                Some(k) if *k == key => self.transforms.len(),
                _ => 0,
            };
            let backend = Canvas::Main(Ctx2dBackend::on(&self.bg)?);
            if from == 0 {
                self.transforms.clear();
            }
            // only onto a blank background: a redraw in slices would show old frames beside new
            let split = slice_ms.filter(|_| self.bg_key.is_empty()).map(|s| (t0, s));
            let mut drawn = Vec::new();
            drawing.complete = draw_frames(
                backend.into_drawing_area(),
                panels,
                legend,
                self.dpr,
                from,
                split,
                &mut drawn,
            )?;
            self.transforms.extend(drawn);
            if drawing.complete {
                self.bg_key = key;
                self.partial = None;
                self.rehearsed = None;
            } else {
                self.partial = Some(key);
            }
            drawing.background = true;
        }
        let ctx = &self.fg_ctx;
        ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            .map_err(js)?;
        let (w, h) = self.fg.size();
        ctx.clear_rect(0.0, 0.0, f64::from(w), f64::from(h));
        ctx.set_line_join("round");
        let dash = js_sys::Array::of2(&(6.0 * self.dpr).into(), &(4.0 * self.dpr).into());
        let solid = js_sys::Array::new();
        for ((_, curves), t) in panels.iter().zip(&self.transforms) {
            ctx.save();
            ctx.begin_path();
            let (l, top, r, bottom) = t.clip;
            ctx.rect(l, top, r - l, bottom - top);
            ctx.clip();
            for s in curves.iter() {
                self.scratch.clear();
                t.decimate(&s.points, 1.0, &mut self.scratch);
                if self.scratch.len() < 2 {
                    continue;
                }
                ctx.set_stroke_style_str(&hex(s.color));
                let w = if s.dashed { REF_WIDTH } else { LOOP_WIDTH } * self.dpr;
                let area = (r - l) * (bottom - top);
                let dense = path_length(&self.scratch) * w > DENSE_INK * area;
                ctx.set_line_width(if dense { 1.0 } else { w });
                ctx.set_line_dash(if s.dashed { &dash } else { &solid })
                    .map_err(js)?;
                ctx.begin_path();
                let mut pen_up = true;
                for &(x, y) in &self.scratch {
                    if x.is_nan() {
                        pen_up = true;
                    } else if pen_up {
                        ctx.move_to(x, y);
                        pen_up = false;
                    } else {
                        ctx.line_to(x, y);
                    }
                }
                ctx.stroke();
            }
            ctx.restore();
        }
        Ok(drawing)
    }
}

thread_local! {
    /// The chart code ran once in this thread (compiled: a later rehearsal measures text).
    static CHART_CODE_RUN: Cell<bool> = const { Cell::new(false) };
}

/// Draws the frames of `panels` in a grid on `root`, under one legend band when `legend` is
/// given, from panel `from` (0: the background is filled and the band drawn first), pushing
/// each panel's transform onto `transforms`. With `split` (start time, slice \[ms\]) it stops
/// after the panel that spent the slice; returns whether the last panel is drawn.
///
/// One function for the canvas and for [`Surface::rehearse`]'s SVG, so a rehearsal runs exactly
/// the code, the fonts and the texts of the drawing it prepares.
fn draw_frames(
    root: DrawingArea<EitherBackend<'_, Ctx2dBackend>, plotters::coord::Shift>,
    panels: &[(&ChartSpec, &[Series])],
    legend: Option<&[Series]>,
    dpr: f64,
    from: usize,
    split: Option<(f64, f64)>,
    transforms: &mut Vec<PlotTransform>,
) -> Result<bool, JsError> {
    if from == 0 {
        root.fill(&WHITE).map_err(plot_err)?;
    }
    let style = Style {
        scale: dpr,
        legend: legend.is_none(),
    };
    let root = match legend {
        Some(entries) => {
            let h = legend_band_height(&root, entries, &style);
            let (band, rest) = root.split_vertically(h);
            if from == 0 {
                draw_legend_band(&band, entries, &style).map_err(plot_err)?;
            }
            rest
        }
        None => root,
    };
    let (w, h) = root.dim_in_pixel();
    let (rows, cols) = grid_for(panels.len(), w as f64, h as f64);
    let areas = root.split_evenly((rows, cols));
    CHART_CODE_RUN.with(|c| c.set(true));
    for ((frame, _), area) in panels.iter().zip(&areas).skip(from) {
        transforms.push(draw_frame(area, frame, &style).map_err(plot_err)?);
        let spent = split.is_some_and(|(t0, s)| crate::lab::now() - t0 >= s);
        if spent && from + transforms.len() < panels.len() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// What one [`Surface::draw_panels`] call drew.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drawing {
    /// The background (frames, text, legend) was redrawn, wholly or in part.
    pub background: bool,
    /// Every panel is drawn; false while a first drawing split over frames goes on.
    pub complete: bool,
}

/// Everything the background depends on; the background is redrawn only when this changes.
fn frame_key(s: &ChartSpec) -> String {
    let mut k = format!(
        "{}|{}|{}|{:?}|{:?}|{}",
        s.title, s.x_label, s.y_label, s.x_range, s.y_range, s.x_log
    );
    for se in &s.series {
        k.push_str(&format!("|{}:{}:{}", se.label, hex(se.color), se.dashed));
    }
    k
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use super::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_test::*;

    fn context(c: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, JsError> {
        Target::Page(c.clone()).context()
    }

    wasm_bindgen_test_configure!(run_in_browser);

    fn canvas() -> HtmlCanvasElement {
        let doc = web_sys::window().unwrap().document().unwrap();
        let c: HtmlCanvasElement = doc.create_element("canvas").unwrap().dyn_into().unwrap();
        c.style().set_property("width", "800px").unwrap();
        c.style().set_property("height", "600px").unwrap();
        doc.body().unwrap().append_child(&c).unwrap();
        c
    }

    /// One panel: the core's steady-state Stribeck law of the FrBD letter's Table I, 300 points.
    fn stribeck_chart() -> ChartSpec {
        let law = friction_core::stribeck::Stribeck::TABLE_I;
        let points: Vec<(f64, f64)> = (0..300)
            .map(|i| {
                let v = -0.05 + 0.1 * i as f64 / 299.0;
                (v, law.steady(v, 0.0))
            })
            .collect();
        ChartSpec {
            title: "Steady-state Stribeck friction".into(),
            x_label: "relative velocity v [m/s]".into(),
            y_label: "friction force F [N]".into(),
            x_range: (-0.05, 0.05),
            y_range: friction_plot::padded_range(-law.mu_s.max(law.mu_d), law.mu_s.max(law.mu_d)),
            x_log: false,
            series: vec![Series {
                label: "F = p·sgn(v)·μ(v)".into(),
                color: friction_plot::PALETTE[0],
                points,
                dashed: false,
            }],
            notes: Vec::new(),
            y_scale: 0.0,
        }
    }

    /// The pixels of a canvas.
    fn pixels(c: &HtmlCanvasElement) -> Vec<u8> {
        context(c)
            .unwrap()
            .get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64)
            .unwrap()
            .data()
            .0
    }

    #[wasm_bindgen_test]
    fn four_panels_each_get_their_curve_in_their_own_quadrant() {
        let (bg, fg) = (canvas(), canvas());
        let mut s = Surface::new(bg, fg.clone()).unwrap();
        let frames: Vec<ChartSpec> = (0..4).map(|_| stribeck_chart()).collect();
        let list: Vec<(&ChartSpec, &[Series])> =
            frames.iter().map(|f| (f, f.series.as_slice())).collect();
        assert!(s.draw_panels(&list, None, None).unwrap().background);
        assert!(
            !s.draw_panels(&list, None, None).unwrap().background,
            "unchanged frames are not redrawn"
        );
        let ctx = context(&fg).unwrap();
        let (w, h) = (fg.width() as f64, fg.height() as f64);
        for (qx, qy) in [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)] {
            let d = ctx
                .get_image_data(qx * w, qy * h, w / 2.0, h / 2.0)
                .unwrap()
                .data();
            let blue = d
                .chunks(4)
                .filter(|p| p[3] > 100 && p[2] > 120 && p[0] < 80)
                .count();
            assert!(blue > 100, "quadrant ({qx}, {qy}) has its curve: {blue} px");
        }
    }

    #[wasm_bindgen_test]
    fn a_first_drawing_split_over_calls_ends_as_one_drawn_at_once() {
        let frames: Vec<ChartSpec> = (0..6).map(|_| stribeck_chart()).collect();
        let list: Vec<(&ChartSpec, &[Series])> =
            frames.iter().map(|f| (f, f.series.as_slice())).collect();
        let legend = frames[0].series.as_slice();
        let (bg1, fg1) = (canvas(), canvas());
        let mut whole = Surface::new(bg1.clone(), fg1.clone()).unwrap();
        let d = whole.draw_panels(&list, Some(legend), None).unwrap();
        assert!(d.background && d.complete);
        // a slice of 0 ms: one panel per call, and no curves on a panel before its frame
        let (bg2, fg2) = (canvas(), canvas());
        let mut split = Surface::new(bg2.clone(), fg2.clone()).unwrap();
        for n in 1..6 {
            let d = split.draw_panels(&list, Some(legend), Some(0.0)).unwrap();
            assert!(d.background && !d.complete, "call {n} is not the last");
            assert_eq!(split.transforms().len(), n, "panels drawn after call {n}");
            assert!(!split.never_drawn(), "a split drawing has begun");
        }
        assert!(
            pixels(&fg2) != pixels(&fg1),
            "the sixth panel has no curve yet"
        );
        let d = split.draw_panels(&list, Some(legend), Some(0.0)).unwrap();
        assert!(
            d.background && d.complete,
            "the sixth call draws the last panel"
        );
        assert!(pixels(&bg1) == pixels(&bg2), "the same background");
        assert!(pixels(&fg1) == pixels(&fg2), "the same curves");
        // a later change of the frames redraws the whole background in one call, slice or not
        let mut moved = frames.clone();
        moved[3].x_range = (-0.1, 0.1);
        let list: Vec<(&ChartSpec, &[Series])> =
            moved.iter().map(|f| (f, f.series.as_slice())).collect();
        let d = split.draw_panels(&list, Some(legend), Some(0.0)).unwrap();
        assert!(d.background && d.complete, "a redraw is never split");
        whole.draw_panels(&list, Some(legend), None).unwrap();
        assert!(pixels(&bg1) == pixels(&bg2), "the same redrawn background");
    }

    fn blank(c: &HtmlCanvasElement) -> bool {
        pixels(c).iter().all(|&b| b == 0)
    }

    #[wasm_bindgen_test]
    fn allocating_sizes_blank_canvases_and_leaves_a_drawn_picture_alone() {
        let frames = [stribeck_chart()];
        let list: Vec<(&ChartSpec, &[Series])> =
            frames.iter().map(|f| (f, f.series.as_slice())).collect();
        let (bg, fg) = (canvas(), canvas());
        let mut s = Surface::new(bg.clone(), fg.clone()).unwrap();
        s.allocate().unwrap();
        let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
        for c in [&bg, &fg] {
            assert_eq!(
                c.width(),
                (800.0 * dpr).round() as u32,
                "sized to the CSS box"
            );
        }
        assert!(blank(&bg) && blank(&fg), "allocating draws nothing");
        assert!(s.draw_panels(&list, None, None).unwrap().background);
        let (bg2, fg2) = (canvas(), canvas());
        let mut plain = Surface::new(bg2.clone(), fg2.clone()).unwrap();
        plain.draw_panels(&list, None, None).unwrap();
        assert!(pixels(&bg) == pixels(&bg2), "the same background");
        assert!(pixels(&fg) == pixels(&fg2), "the same curves");
        // the plot shrinks after its first drawing: the picture stays until the redraw
        let (drawn_bg, drawn_fg) = (pixels(&bg), pixels(&fg));
        for c in [&bg, &fg] {
            c.style().set_property("width", "640px").unwrap();
        }
        s.resized();
        s.allocate().unwrap();
        assert_eq!(bg.width(), (800.0 * dpr).round() as u32, "not resized");
        assert!(
            pixels(&bg) == drawn_bg && pixels(&fg) == drawn_fg,
            "not blanked"
        );
        assert!(s.draw_panels(&list, None, None).unwrap().background);
        assert_eq!(
            bg.width(),
            (640.0 * dpr).round() as u32,
            "resized by the redraw"
        );
    }

    #[wasm_bindgen_test]
    fn a_rehearsal_draws_nothing_and_the_drawing_after_it_is_the_same() {
        let frames: Vec<ChartSpec> = (0..3).map(|_| stribeck_chart()).collect();
        let list: Vec<(&ChartSpec, &[Series])> =
            frames.iter().map(|f| (f, f.series.as_slice())).collect();
        let legend = frames[0].series.as_slice();
        let (bg1, fg1) = (canvas(), canvas());
        let mut plain = Surface::new(bg1.clone(), fg1.clone()).unwrap();
        plain.draw_panels(&list, Some(legend), None).unwrap();
        // as at a page's load: the chart code not yet run, so the first call only runs it
        CHART_CODE_RUN.with(|c| c.set(false));
        let (bg2, fg2) = (canvas(), canvas());
        let mut s = Surface::new(bg2.clone(), fg2.clone()).unwrap();
        let mut calls = 1;
        // 0 ms slices: one panel per call after the call that only runs the code
        while s.rehearse(&list, Some(legend), 0.0).unwrap() {
            calls += 1;
            assert!(calls < 10, "a rehearsal ends");
        }
        assert_eq!(
            calls,
            1 + list.len(),
            "the code's run, then a panel per call"
        );
        assert!(blank(&bg2) && blank(&fg2), "a rehearsal draws nothing");
        assert!(s.never_drawn() && s.first_drawing_due());
        let d = s.draw_panels(&list, Some(legend), None).unwrap();
        assert!(d.background && d.complete);
        assert!(pixels(&bg1) == pixels(&bg2), "the same background");
        assert!(pixels(&fg1) == pixels(&fg2), "the same curves");
        assert!(
            !s.rehearse(&list, Some(legend), 0.0).unwrap(),
            "nothing left to rehearse"
        );
        // a split first drawing is rehearsed from the panel it stopped at
        let (bg3, fg3) = (canvas(), canvas());
        let mut t = Surface::new(bg3.clone(), fg3).unwrap();
        let d = t.draw_panels(&list, Some(legend), Some(0.0)).unwrap();
        assert!(!d.complete);
        assert!(
            t.rehearse(&list, Some(legend), 0.0).unwrap(),
            "panel 2 laid out, 3 left"
        );
        assert!(
            !t.rehearse(&list, Some(legend), 0.0).unwrap(),
            "panel 3 laid out"
        );
        while !t
            .draw_panels(&list, Some(legend), Some(0.0))
            .unwrap()
            .complete
        {}
        assert!(
            pixels(&bg1) == pixels(&bg3),
            "the same background, split and rehearsed"
        );
    }
}
