//! Two stacked canvases: plotters draws the frame (axes, text, legend) on the background only
//! when it changes; the curves are stroked on the overlay with path calls every frame.

use friction_plot::{draw_frame, ChartSpec, PlotTransform, Series, Style};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::{JsCast, JsError, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::fit_canvas_to_dpr;

/// Line widths in CSS px. Thin lines are much cheaper to paint in software (RENDERING.md) and
/// still clearly visible; the legend samples on the background use the same colours.
const LOOP_WIDTH: f64 = 1.5;
const REF_WIDTH: f64 = 1.25;

/// The page's plot: background + overlay canvas of the same size, stacked by CSS.
pub struct Surface {
    bg: HtmlCanvasElement,
    fg: HtmlCanvasElement,
    fg_ctx: CanvasRenderingContext2d,
    dpr: f64,
    bg_key: String,
    transform: Option<PlotTransform>,
    /// Pixel points of the curve being stroked; reused so frames do not allocate for it.
    scratch: Vec<(f64, f64)>,
}

fn context(c: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, JsError> {
    c.get_context("2d")
        .ok()
        .flatten()
        .and_then(|x| x.dyn_into::<CanvasRenderingContext2d>().ok())
        .ok_or_else(|| JsError::new("canvas has no 2d context"))
}

fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

fn js(e: JsValue) -> JsError {
    JsError::new(&format!("{e:?}"))
}

impl Surface {
    /// Wraps the two canvases (the overlay must sit exactly on top of the background).
    pub fn new(bg: HtmlCanvasElement, fg: HtmlCanvasElement) -> Result<Surface, JsError> {
        let fg_ctx = context(&fg)?;
        context(&bg)?;
        Ok(Surface {
            bg,
            fg,
            fg_ctx,
            dpr: 1.0,
            bg_key: String::new(),
            transform: None,
            scratch: Vec::with_capacity(4096),
        })
    }

    /// Matches both backing stores to the CSS size × devicePixelRatio.
    fn fit(&mut self) {
        self.dpr = fit_canvas_to_dpr(&self.bg);
        fit_canvas_to_dpr(&self.fg);
    }

    /// Draws `frame` (its series give only the legend) on the background if anything about it
    /// or the canvas size changed, then strokes `curves` on the overlay. Returns whether the
    /// background was redrawn.
    pub fn draw(&mut self, frame: &ChartSpec, curves: &[Series]) -> Result<bool, JsError> {
        self.fit();
        let key = frame_key(frame, self.bg.width(), self.bg.height(), self.dpr);
        let mut redrew = false;
        if key != self.bg_key || self.transform.is_none() {
            let backend = CanvasBackend::with_canvas_object(self.bg.clone())
                .ok_or_else(|| JsError::new("canvas has no 2d context"))?;
            let root = backend.into_drawing_area();
            let t = draw_frame(&root, frame, &Style { scale: self.dpr })
                .map_err(|e| JsError::new(&e.to_string()))?;
            self.transform = Some(t);
            self.bg_key = key;
            redrew = true;
        }
        let Some(t) = self.transform else {
            return Ok(redrew);
        };
        let ctx = &self.fg_ctx;
        ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            .map_err(js)?;
        ctx.clear_rect(0.0, 0.0, self.fg.width() as f64, self.fg.height() as f64);
        ctx.save();
        ctx.begin_path();
        let (l, top, r, bottom) = t.clip;
        ctx.rect(l, top, r - l, bottom - top);
        ctx.clip();
        ctx.set_line_join("round");
        let dash = js_sys::Array::of2(&(6.0 * self.dpr).into(), &(4.0 * self.dpr).into());
        let solid = js_sys::Array::new();
        for s in curves {
            self.scratch.clear();
            t.decimate(&s.points, 1.0, &mut self.scratch);
            if self.scratch.len() < 2 {
                continue;
            }
            ctx.set_stroke_style_str(&hex(s.color));
            let w = if s.dashed { REF_WIDTH } else { LOOP_WIDTH };
            ctx.set_line_width(w * self.dpr);
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
        Ok(redrew)
    }
}

/// Everything the background depends on; the background is redrawn only when this changes.
fn frame_key(s: &ChartSpec, w: u32, h: u32, dpr: f64) -> String {
    let mut k = format!(
        "{w}x{h}@{dpr}|{}|{}|{}|{:?}|{:?}|{}",
        s.title, s.x_label, s.y_label, s.x_range, s.y_range, s.x_log
    );
    for se in &s.series {
        k.push_str(&format!("|{}:{}:{}", se.label, hex(se.color), se.dashed));
    }
    k
}
