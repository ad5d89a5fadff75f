//! A canvas of the page or one transferred to a worker, and a plotters backend drawing on the
//! 2-d context of either.
//!
//! Why not plotters-canvas: it takes only a page's `HtmlCanvasElement` (it checks the context
//! with `instanceof CanvasRenderingContext2D`, a class a worker has not), and the plot is drawn
//! in a worker on `OffscreenCanvas`es when the page has one (issue 39: the canvas's raster
//! then happens off the main thread). The drawing calls below are plotters-canvas 0.3.1's
//! (MIT, © 2019 Hao Hou), on a context of either kind.
//!
//! One context type for both: `OffscreenCanvasRenderingContext2D` has every method used here
//! under the same name, and web-sys calls methods structurally (`ctx.fillRect(…)`, checked in
//! the generated bindings), so an offscreen context is used through `CanvasRenderingContext2d`
//! without a check of its class.

use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use wasm_bindgen::{JsCast, JsError, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, OffscreenCanvas};

/// A canvas to draw on: the page's, or an `OffscreenCanvas` (in the view painter's worker).
#[derive(Clone)]
pub(crate) enum Target {
    Page(HtmlCanvasElement),
    Offscreen(OffscreenCanvas),
}

/// `$body` with `$c` bound to the canvas of either kind (the two share these members' names
/// but no Rust type).
macro_rules! on_canvas {
    ($target:expr, $c:ident => $body:expr) => {
        match $target {
            Target::Page($c) => $body,
            Target::Offscreen($c) => $body,
        }
    };
}

impl Target {
    /// The backing store's size \[device px\].
    pub(crate) fn size(&self) -> (u32, u32) {
        on_canvas!(self, c => (c.width(), c.height()))
    }

    /// Sets the backing store's size; returns whether it changed (the bitmap is then new and
    /// blank). An unchanged size is not set again: setting it clears the canvas.
    pub(crate) fn set_size(&self, (w, h): (u32, u32)) -> bool {
        let (w0, h0) = self.size();
        if w0 != w {
            on_canvas!(self, c => c.set_width(w));
        }
        if h0 != h {
            on_canvas!(self, c => c.set_height(h));
        }
        (w0, h0) != (w, h)
    }

    /// The canvas's 2-d context (see the module's note on one type for both kinds).
    pub(crate) fn context(&self) -> Result<CanvasRenderingContext2d, JsError> {
        let ctx = match self {
            Target::Page(c) => c
                .get_context("2d")
                .ok()
                .flatten()
                .and_then(|x| x.dyn_into::<CanvasRenderingContext2d>().ok()),
            Target::Offscreen(c) => c
                .get_context("2d")
                .ok()
                .flatten()
                .map(|x| x.unchecked_into::<CanvasRenderingContext2d>()),
        };
        ctx.ok_or_else(|| JsError::new("canvas has no 2d context"))
    }
}

/// plotters' backend on a canvas's 2-d context (either kind of [`Target`]).
pub struct Ctx2dBackend {
    ctx: CanvasRenderingContext2d,
    size: (u32, u32),
}

/// A drawing call the context refused (its JS error as text).
#[derive(Debug)]
pub struct CanvasError(String);

impl std::fmt::Display for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "canvas error: {}", self.0)
    }
}

impl std::error::Error for CanvasError {}

fn error_cast(e: JsValue) -> DrawingErrorKind<CanvasError> {
    DrawingErrorKind::DrawingError(CanvasError(format!("{e:?}")))
}

fn css_color(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    format!("rgba({r},{g},{b},{})", c.alpha)
}

impl Ctx2dBackend {
    /// A backend on `target`'s 2-d context, of its current size.
    pub(crate) fn on(target: &Target) -> Result<Ctx2dBackend, JsError> {
        Ok(Ctx2dBackend {
            ctx: target.context()?,
            size: target.size(),
        })
    }

    /// A backend on a page's canvas (an export's, drawn off the page).
    pub fn with_canvas_object(canvas: HtmlCanvasElement) -> Option<Ctx2dBackend> {
        Ctx2dBackend::on(&Target::Page(canvas)).ok()
    }

    /// Starts a path through `points`: the first moved to, the rest joined by lines.
    fn trace(&self, points: impl IntoIterator<Item = BackendCoord>) {
        self.ctx.begin_path();
        let mut points = points.into_iter();
        if let Some(start) = points.next() {
            self.ctx.move_to(f64::from(start.0), f64::from(start.1));
            for next in points {
                self.ctx.line_to(f64::from(next.0), f64::from(next.1));
            }
        }
    }

    /// The fill colour for a filled shape, else the line's colour and width.
    fn set_paint(&self, style: &impl BackendStyle, fill: bool) {
        if fill {
            self.ctx.set_fill_style_str(&css_color(style.color()));
        } else {
            self.set_line_style(style);
        }
    }

    fn set_line_style(&self, style: &impl BackendStyle) {
        self.ctx.set_stroke_style_str(&css_color(style.color()));
        self.ctx.set_line_width(style.stroke_width() as f64);
    }
}

/// Moves a vertical or horizontal line to the middle of its pixels, as plotters-canvas does:
/// a one-pixel line on a pixel edge is drawn two pixels wide and grey.
fn fine_hor_ver_lines(from: BackendCoord, end: BackendCoord) -> ((f64, f64), (f64, f64)) {
    let mut from = (f64::from(from.0), f64::from(from.1));
    let mut end = (f64::from(end.0), f64::from(end.1));
    if from.0 == end.0 {
        from.0 -= 0.5;
        end.0 -= 0.5;
    }
    if from.1 == end.1 {
        from.1 -= 0.5;
        end.1 -= 0.5;
    }
    (from, end)
}

impl DrawingBackend for Ctx2dBackend {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        Ok(())
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if color.alpha == 0.0 {
            return Ok(());
        }
        self.ctx.set_fill_style_str(&css_color(color));
        self.ctx
            .fill_rect(f64::from(point.0), f64::from(point.1), 1.0, 1.0);
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let (from, to) = fine_hor_ver_lines(from, to);
        self.set_line_style(style);
        self.ctx.begin_path();
        self.ctx.move_to(from.0, from.1);
        self.ctx.line_to(to.0, to.1);
        self.ctx.stroke();
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let (x, y) = (f64::from(upper_left.0), f64::from(upper_left.1));
        let w = f64::from(bottom_right.0 - upper_left.0);
        let h = f64::from(bottom_right.1 - upper_left.1);
        self.set_paint(style, fill);
        if fill {
            self.ctx.fill_rect(x, y, w, h);
        } else {
            self.ctx.stroke_rect(x, y, w, h);
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        self.set_line_style(style);
        self.trace(path);
        self.ctx.stroke();
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        self.ctx.set_fill_style_str(&css_color(style.color()));
        self.trace(path);
        self.ctx.close_path();
        self.ctx.fill();
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        self.set_paint(style, fill);
        self.ctx.begin_path();
        self.ctx
            .arc(
                f64::from(center.0),
                f64::from(center.1),
                f64::from(radius),
                0.0,
                std::f64::consts::TAU,
            )
            .map_err(error_cast)?;
        if fill {
            self.ctx.fill();
        } else {
            self.ctx.stroke();
        }
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let (mut x, mut y) = (f64::from(pos.0), f64::from(pos.1));
        let degrees: f64 = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 90.0,
            FontTransform::Rotate180 => 180.0,
            FontTransform::Rotate270 => 270.0,
        };
        if degrees != 0.0 {
            self.ctx.save();
            self.ctx.translate(x, y).map_err(error_cast)?;
            self.ctx.rotate(degrees.to_radians()).map_err(error_cast)?;
            (x, y) = (0.0, 0.0);
        }
        self.ctx.set_text_baseline(match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        });
        self.ctx.set_text_align(match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        });
        self.ctx.set_fill_style_str(&css_color(color));
        self.ctx.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str(),
        ));
        self.ctx.fill_text(text, x, y).map_err(error_cast)?;
        if degrees != 0.0 {
            self.ctx.restore();
        }
        Ok(())
    }
}
