//! The painter worker's side of the plot: the page's two canvases, transferred, and the
//! drawings the page sends ([`super::snapshot::PaintRequest`]), drawn by the page's own
//! [`Surface`] code on `OffscreenCanvas`es.
//!
//! Why: issue 39, no main-thread task over 50 ms. A canvas drawn on the main thread is
//! rasterised there, in the frame's task; here both the drawing and the raster are the worker's.

use super::snapshot::{decode_paint, encode_painted};
use crate::draw::Surface;
use friction_plot::{ChartSpec, Series};
use wasm_bindgen::prelude::*;
use web_sys::OffscreenCanvas;

/// Draws the page's plot in a worker (`www/view-worker.js` started as the painter).
#[wasm_bindgen]
pub struct Painter {
    surface: Surface,
}

#[wasm_bindgen]
impl Painter {
    /// A painter on the page's background and overlay canvases (`transferControlToOffscreen`).
    #[wasm_bindgen(constructor)]
    pub fn new(bg: OffscreenCanvas, fg: OffscreenCanvas) -> Result<Painter, JsError> {
        Ok(Painter {
            surface: Surface::offscreen(bg, fg)?,
        })
    }

    /// Draws a drawing the page sent (`Lab.takePaint`), whole, and returns the answer for the
    /// page (`Lab.painted`: its number, the pixel ratio and where each panel went, a
    /// `Float64Array` to transfer). A drawing that does not read is an error and draws nothing.
    pub fn paint(&mut self, nums: Vec<f64>, texts: Vec<String>) -> Result<Vec<f64>, JsError> {
        let r = decode_paint(&nums, texts)
            .map_err(|e| JsError::new(&format!("a drawing from the page did not read: {e}")))?;
        self.surface.set_css(r.css, r.dpr);
        let list: Vec<(&ChartSpec, &[Series])> =
            r.panels.iter().map(|(f, c)| (f, c.as_slice())).collect();
        self.surface.draw_panels(&list, r.band.as_deref(), None)?;
        Ok(encode_painted(
            r.seq,
            self.surface.dpr(),
            &self.surface.transforms(),
        ))
    }
}
