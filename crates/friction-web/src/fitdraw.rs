//! Draws the Fit panel's charts (`friction_plot::fit`) on the main thread, like the views'
//! charts; the fit itself runs in the fit worker (`friction-fit-web`). No physics here.

use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Draws fit chart `which` (0 F–t, 1 F–v, 2 F–x, 3 residuals–t, 4 residuals–v) of the record
/// (t \[s\], x \[m\], v \[m/s\], F \[N\]) and the fitted force `fit` \[N\] on `canvas`.
#[wasm_bindgen(js_name = drawFitChart)]
pub fn draw_fit_chart(
    canvas: HtmlCanvasElement,
    which: usize,
    t: Vec<f64>,
    x: Vec<f64>,
    v: Vec<f64>,
    f: Vec<f64>,
    fit: Vec<f64>,
) -> Result<(), JsError> {
    let spec = friction_plot::fit::fit_chart(which, &t, &x, &v, &f, &fit)
        .ok_or_else(|| JsError::new("no such fit chart, or arrays of unequal length"))?;
    crate::draw_on_canvas(canvas, &spec)
}
