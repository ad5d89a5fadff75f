//! Exports of the current plot: SVG (sub-pixel), bitmaps drawn at a chosen size, and the CSV.
//!
//! A child of `lab`: the same charts, axes and panel grid the page shows.

use super::*;
use crate::ctx2d::Ctx2dBackend;

#[wasm_bindgen]
impl Lab {
    /// The current chart as SVG (the same plotters chart functions, the axes shown on the
    /// page): one chart at `width` × `height`, or every panel of a multi-panel view in the
    /// page's grid (with its shared legend band where the panels have one).
    pub fn svg(&self, width: u32, height: u32) -> Result<String, JsError> {
        let charts = self.export_charts()?;
        friction_plot::figure::figure_svg_as::<Ctx2dBackend>(
            &charts,
            (width.max(100), height.max(100)),
            (500, 380),
        )
        .map_err(|e| JsError::new(&e.to_string()))
    }

    /// The current figure as SVG for slides: sub-pixel coordinates, `width` × `height` CSS px
    /// for the whole figure (a multi-panel view's cells share it), the axes shown on the page,
    /// and `caption` (empty: none) on a line under the panels.
    #[wasm_bindgen(js_name = exportSvg)]
    pub fn export_svg(&self, width: u32, height: u32, caption: &str) -> Result<String, JsError> {
        let charts = self.export_charts()?;
        let (w, h) = (width.clamp(100, 8000), height.clamp(100, 8000));
        let (rows, cols) = friction_plot::figure::grid(charts.len());
        // a multi-panel view keeps readable cells: the figure grows past the chosen size
        let cell = ((w / cols as u32).max(400), (h / rows as u32).max(300));
        friction_plot::export::figure_svg_fine_as::<Ctx2dBackend>(
            &charts,
            (w, h),
            cell,
            Some(caption),
        )
        .map_err(|e| JsError::new(&e.to_string()))
    }

    /// Draws the current figure for a bitmap export on `canvas` (not on the page): its size
    /// becomes `width` × `height` × `scale` device pixels, every font and line scaled alike, and
    /// `caption` (empty: none) goes on a line under the panels.
    #[wasm_bindgen(js_name = drawExport)]
    pub fn draw_export(
        &self,
        canvas: HtmlCanvasElement,
        width: u32,
        height: u32,
        scale: f64,
        caption: &str,
    ) -> Result<(), JsError> {
        let charts = self.export_charts()?;
        let scale = scale.clamp(0.5, 4.0);
        let dim = |x: u32| (x.clamp(100, 4000) as f64 * scale).round() as u32;
        canvas.set_width(dim(width));
        canvas.set_height(dim(height));
        let backend = Ctx2dBackend::with_canvas_object(canvas)
            .map(crate::Canvas::Main)
            .ok_or_else(|| JsError::new("canvas has no 2d context"))?;
        let root = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
        friction_plot::export::draw_figure(&root, &charts, scale, Some(caption))
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// The data on the plot as the CLI prints it for the same link (`Job::csv`): a header of
    /// columns with units, then the rows. Throws when the job shown is the view worker's: the
    /// page then asks the worker (`ViewJob::csv` of [`Lab::worker_job`]); a long run's CSV is
    /// tens of MB, which no snapshot should carry to the main thread.
    pub fn csv(&self) -> Result<String, JsError> {
        match &self.here {
            Some(e) => Ok(e.csv()),
            None => Err(JsError::new("the data are in the view worker")),
        }
    }

    /// The worker's number of the job shown, when its data are in the view worker (`undefined`:
    /// [`Lab::csv`] has them).
    #[wasm_bindgen(js_name = workerJob)]
    pub fn worker_job(&self) -> Option<u32> {
        self.snap().map(|s| s.id)
    }

    /// The charts of the current output with the axes shown on the page.
    fn export_charts(&self) -> Result<Vec<ChartSpec>, JsError> {
        let charts: Vec<ChartSpec> = self
            .panels()
            .iter()
            .enumerate()
            .map(|(i, (spec, _))| {
                let axes = self.axes.shown(i);
                ChartSpec {
                    x_range: axes.map_or(spec.x_range, |a| a.0),
                    y_range: axes.map_or(spec.y_range, |a| a.1),
                    ..spec.clone()
                }
            })
            .collect();
        if charts.is_empty() {
            return Err(JsError::new("nothing to export yet"));
        }
        Ok(charts)
    }
}
