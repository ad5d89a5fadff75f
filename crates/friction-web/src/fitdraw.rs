//! Draws the fit workspace's charts (`friction_plot::fit`) on the main thread, as the views'
//! charts are drawn: axes on a background canvas, curves stroked on an overlay, decimated to
//! the pixels ([`crate::draw::Surface`]). The fit itself runs in the fit worker
//! (`friction-fit-web`). No physics here.
//!
//! Why a class holding the record: a record of 40,000 samples crosses into wasm once, not at
//! every live curve a running fit sends (one a second), and a live curve redraws only the
//! overlays while the axes stay.

use friction_plot::fit::{fit_chart, shows, Model, Record, FIT_CHARTS};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use crate::draw::Surface;

/// What the model curve over the record is.
enum Curve {
    None,
    Live(Vec<f64>),
    Fitted(Vec<f64>, Option<f64>),
}

/// A record and the model's force over it, drawn as the workspace's charts (0 F–t, 1 F–x,
/// 2 F–v, 3 residuals–t, 4 residuals–v) on the canvases attached to each.
#[wasm_bindgen]
pub struct FitCharts {
    t: Vec<f64>,
    x: Vec<f64>,
    v: Vec<f64>,
    f: Vec<f64>,
    rotary: bool,
    curve: Curve,
    surfaces: Vec<Option<Surface>>,
}

#[wasm_bindgen]
impl FitCharts {
    /// A record: time \[s\], displacement \[m\] (rad when `rotary`), velocity \[m/s\] (rad/s)
    /// and force \[N\] (N·m), all of one length.
    #[wasm_bindgen(constructor)]
    pub fn new(
        t: Vec<f64>,
        x: Vec<f64>,
        v: Vec<f64>,
        f: Vec<f64>,
        rotary: bool,
    ) -> Result<FitCharts, JsError> {
        if [x.len(), v.len(), f.len()].iter().any(|&l| l != t.len()) {
            return Err(JsError::new("the record's columns differ in length"));
        }
        Ok(FitCharts {
            t,
            x,
            v,
            f,
            rotary,
            curve: Curve::None,
            surfaces: (0..FIT_CHARTS).map(|_| None).collect(),
        })
    }

    /// Number of charts.
    pub fn count() -> usize {
        FIT_CHARTS
    }

    /// Draws chart `which` on `bg` (axes) and `fg` (curves), two canvases of one size stacked
    /// by the page.
    pub fn attach(
        &mut self,
        which: usize,
        bg: HtmlCanvasElement,
        fg: HtmlCanvasElement,
    ) -> Result<(), JsError> {
        let slot = self
            .surfaces
            .get_mut(which)
            .ok_or_else(|| JsError::new("no such fit chart"))?;
        *slot = Some(Surface::new(bg, fg)?);
        Ok(())
    }

    /// The model's force at every sample for the best point of a running fit \[N\].
    #[wasm_bindgen(js_name = setLive)]
    pub fn set_live(&mut self, force: Vec<f64>) -> Result<(), JsError> {
        self.check(&force)?;
        self.curve = Curve::Live(force);
        Ok(())
    }

    /// The fitted model's force at every sample \[N\]; from `holdout_from` \[s\] on, the part
    /// kept out of the fit.
    #[wasm_bindgen(js_name = setFitted)]
    pub fn set_fitted(
        &mut self,
        force: Vec<f64>,
        holdout_from: Option<f64>,
    ) -> Result<(), JsError> {
        self.check(&force)?;
        self.curve = Curve::Fitted(force, holdout_from);
        Ok(())
    }

    /// Back to the record alone.
    #[wasm_bindgen(js_name = clearModel)]
    pub fn clear_model(&mut self) {
        self.curve = Curve::None;
    }

    /// Whether chart `which` has something to show now (the residual charts need a model
    /// curve).
    pub fn shows(&self, which: usize) -> bool {
        shows(which, &self.model())
    }

    /// The title of chart `which` (for its accessible name), empty when it shows nothing.
    pub fn title(&self, which: usize) -> String {
        fit_chart(which, &self.record(), &self.model()).map_or_else(String::new, |c| c.title)
    }

    /// The canvases may have changed size: the next drawing reads it again.
    pub fn resized(&mut self) {
        for s in self.surfaces.iter_mut().flatten() {
            s.resized();
        }
    }

    /// Draws every attached chart that has something to show.
    pub fn draw(&mut self) -> Result<(), JsError> {
        let specs: Vec<_> = (0..FIT_CHARTS)
            .map(|which| fit_chart(which, &self.record(), &self.model()))
            .collect();
        for (slot, spec) in self.surfaces.iter_mut().zip(specs) {
            if let (Some(surface), Some(spec)) = (slot.as_mut(), spec) {
                // the legend in a band above the chart: a record fills its chart (a
                // reciprocating test's F–v is a full rectangle), so a legend inside it had no
                // free corner, and the overlay's curves crossed its words
                let series = spec.series.as_slice();
                surface.draw_panels(&[(&spec, series)], Some(series), None)?;
            }
        }
        Ok(())
    }
}

impl FitCharts {
    fn check(&self, force: &[f64]) -> Result<(), JsError> {
        if force.len() == self.t.len() {
            Ok(())
        } else {
            Err(JsError::new(
                "the model's force and the record differ in length",
            ))
        }
    }

    fn record(&self) -> Record<'_> {
        Record {
            t: &self.t,
            x: &self.x,
            v: &self.v,
            f: &self.f,
            rotary: self.rotary,
        }
    }

    fn model(&self) -> Model<'_> {
        match &self.curve {
            Curve::None => Model::None,
            Curve::Live(f) => Model::Live(f),
            Curve::Fitted(f, h) => Model::Fitted {
                force: f,
                holdout_from: *h,
            },
        }
    }
}
