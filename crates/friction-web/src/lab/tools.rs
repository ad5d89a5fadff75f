//! The plot's axis tools: Fit, Lock, wheel/pinch zoom, drag pan, and the hover read-out.
//!
//! A child of `lab` (it reads the `Lab`'s axes and charts); the page only forwards the events.

use super::*;

#[wasm_bindgen]
impl Lab {
    /// Fits the axes to the data now (the page's "Fit" button, a double-click on the plot),
    /// ending any zoom; a lock stays on.
    pub fn fit(&mut self) {
        self.axes.refit();
        self.invalidate();
    }

    /// Locks (or unlocks) the axes: while locked they stay put even when data leave them.
    #[wasm_bindgen(js_name = setLocked)]
    pub fn set_locked(&mut self, on: bool) {
        self.axes.set_locked(on);
        self.invalidate();
    }

    /// Whether the axes are locked.
    pub fn locked(&self) -> bool {
        self.axes.locked()
    }

    /// Whether the axes were zoomed or panned since the last fit (they then hold still).
    pub fn zoomed(&self) -> bool {
        self.axes.held()
    }

    /// Zooms the panel under the point (`x`, `y` in CSS px of the plot) by `factor` (< 1 in,
    /// > 1 out) about that point, on both axes (or only x / only y with `axis` "x" / "y").
    /// Returns whether a panel was there.
    pub fn zoom(&mut self, x: f64, y: f64, factor: f64, axis: &str) -> bool {
        let factor = factor.clamp(0.01, 100.0);
        self.transform_axes(x, y, |t, (px, py)| {
            let (ux, uy) = t.to_unit(px, py);
            let scale = |(a, b): (f64, f64), u: f64| {
                let c = a + u * (b - a);
                (c - (c - a) * factor, c + (b - c) * factor)
            };
            let xr = if axis == "y" {
                t.x_range
            } else {
                scale(t.x_range, ux)
            };
            let yr = if axis == "x" {
                t.y_range
            } else {
                scale(t.y_range, uy)
            };
            (xr, yr)
        })
    }

    /// Pans the panel under the point (`x`, `y` in CSS px) by (`dx`, `dy`) CSS px, the data
    /// moving with the pointer. Returns whether a panel was there.
    pub fn pan(&mut self, x: f64, y: f64, dx: f64, dy: f64) -> bool {
        self.transform_axes(x, y, |t, _| {
            let (w, h) = (t.px.1 - t.px.0, t.py.0 - t.py.1);
            let sx = (t.x_range.1 - t.x_range.0) * dx / w;
            let sy = (t.y_range.1 - t.y_range.0) * dy / h;
            (
                (t.x_range.0 - sx, t.x_range.1 - sx),
                (t.y_range.0 + sy, t.y_range.1 + sy),
            )
        })
    }

    /// Current axis ranges per panel: `[[xlo, xhi, ylo, yhi]]` (data units).
    pub fn axes(&self) -> Vec<f64> {
        self.axes
            .all()
            .flat_map(|((a, b), (c, d))| [*a, *b, *c, *d])
            .collect()
    }

    /// Bounds of the finite data per panel of the current output, `[xlo, xhi, ylo, yhi, …]`
    /// (for tests of the axis policy: the axes must hold unless these leave them).
    #[wasm_bindgen(js_name = dataBounds)]
    pub fn data_bounds_js(&self) -> Vec<f64> {
        self.panels()
            .iter()
            .flat_map(|(spec, _)| {
                let (a, b, c, d) = data_bounds(&spec.series);
                [a, b, c, d]
            })
            .collect()
    }

    /// The tick labels drawn per panel: `[{x: [..], y: [..], x_note, y_note}]` (the notes hold
    /// an offset or power of ten the labels leave out).
    pub fn ticks(&self) -> JsValue {
        let out: Vec<TicksOut> = self
            .plot
            .as_ref()
            .map(|s| s.transforms())
            .unwrap_or_default()
            .iter()
            .map(TicksOut::of)
            .collect();
        to_js(&out)
    }

    /// The data point nearest to (`x`, `y`, CSS px of the plot) within `radius` CSS px, as
    /// text with units (`"LuGre: v = 0.01 m/s, F = 1.23 N"`), or `undefined`.
    pub fn nearest(&self, x: f64, y: f64, radius: f64) -> Option<String> {
        let surface = self.plot.as_ref()?;
        let (i, t, p) = surface.panel_at(x, y)?;
        let charts = self.panels();
        let (spec, _) = charts.get(i)?;
        let r2 = (radius * surface.dpr()).powi(2);
        let mut best: Option<(f64, &Series, (f64, f64))> = None;
        for s in &spec.series {
            for &(dx, dy) in &s.points {
                let q = t.to_px(dx, dy);
                let d2 = (q.0 - p.0).powi(2) + (q.1 - p.1).powi(2);
                if d2.is_finite() && d2 <= r2 && best.is_none_or(|b| d2 < b.0) {
                    best = Some((d2, s, (dx, dy)));
                }
            }
        }
        let (_, s, (dx, dy)) = best?;
        Some(format!(
            "{}: {}, {}",
            s.label,
            friction_plot::readout::value_text(&spec.x_label, dx),
            friction_plot::readout::value_text(&spec.y_label, dy)
        ))
    }

    /// Sets the axes of the panel under (`x`, `y`) CSS px to `f(transform, device point)`
    /// (ranges in the transform's units, log10 on a log axis); they then hold still.
    fn transform_axes(
        &mut self,
        x: f64,
        y: f64,
        f: impl Fn(&PlotTransform, (f64, f64)) -> Axes,
    ) -> bool {
        let Some((i, t, p)) = self.plot.as_ref().and_then(|s| s.panel_at(x, y)) else {
            return false;
        };
        let (xr, yr) = f(&t, p);
        let ok = |r: (f64, f64)| r.0.is_finite() && r.1.is_finite() && r.1 > r.0;
        if !(ok(xr) && ok(yr)) {
            return false;
        }
        let xr = if t.x_log {
            (10f64.powf(xr.0), 10f64.powf(xr.1))
        } else {
            xr
        };
        if !self.axes.set_by_hand(i, (xr, yr)) {
            return false;
        }
        self.invalidate();
        true
    }
}
