//! The wasm boundary of Friction Lab: thin wrappers that call the core's experiments and draw
//! with plotters-canvas. No physics lives here; errors become JS `Error`s with the core's message.

use friction_plot::{draw_chart, Style};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Installs the panic hook so a Rust panic shows up as a readable console error.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Sizes the canvas backing store to its CSS size times `devicePixelRatio` and returns the ratio.
///
/// plotters-canvas draws in backing-store pixels, so without this lines are blurry on HiDPI.
pub fn fit_canvas_to_dpr(canvas: &HtmlCanvasElement) -> f64 {
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .unwrap_or(1.0)
        .max(1.0);
    let w = (canvas.client_width().max(1) as f64 * dpr).round() as u32;
    let h = (canvas.client_height().max(1) as f64 * dpr).round() as u32;
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    dpr
}

/// Draws the steady-state Stribeck curve of the FrBD letter's Table I on `canvas`.
#[wasm_bindgen(js_name = drawStribeck)]
pub fn draw_stribeck(canvas: HtmlCanvasElement, p: f64, v_max: f64) -> Result<(), JsError> {
    let scale = fit_canvas_to_dpr(&canvas);
    let spec =
        friction_plot::stribeck_chart(&friction_core::stribeck::Stribeck::TABLE_I, p, v_max, 600);
    let backend = CanvasBackend::with_canvas_object(canvas)
        .ok_or_else(|| JsError::new("canvas has no 2d context"))?;
    let root = backend.into_drawing_area();
    draw_chart(&root, &spec, &Style { scale }).map_err(|e| JsError::new(&e.to_string()))
}
