//! Where the page's plot is drawn: on the page's canvases ([`Surface`]), or by the painter
//! worker, which holds them (`transferControlToOffscreen`) and draws what the page sends.
//!
//! Why a painter: a canvas drawn on the main thread is rasterised there, in the task of the
//! frame that drew it; at load those tasks were 35-105 ms (issue 39: no main-thread task over
//! 50 ms). On an `OffscreenCanvas` in a worker, the drawing and its raster leave the main
//! thread. A frame with an opaque origin has no worker and draws on the page.

use super::snapshot::{decode_painted, encode_paint, Wire};
use crate::draw::{panel_at, small_plot, Drawing, Surface};
use friction_plot::{ChartSpec, PlotTransform, Series};
use wasm_bindgen::JsError;

/// The page's plot: its own canvases, or the painter's.
pub(crate) enum Plot {
    Here(Surface),
    Painter(Mirror),
}

/// What the page knows of a plot its painter draws: the size it asked for, the drawings sent
/// and answered, and where the panels went at the last drawing answered (for the tools).
pub(crate) struct Mirror {
    css: (i32, i32),
    dpr: f64,
    /// The painter's pixel ratio and transforms at the last drawing it answered.
    shown_dpr: f64,
    transforms: Vec<PlotTransform>,
    /// The number of the last drawing sent, and of the last answered.
    seq: u32,
    answered: u32,
    /// The drawing to send (a newer one replaces it).
    outbox: Option<Wire>,
    /// The number of the drawing that shows a job's output first, until answered.
    first: Option<u32>,
}

impl Mirror {
    fn new(css: (i32, i32), dpr: f64) -> Mirror {
        Mirror {
            css,
            dpr,
            shown_dpr: dpr,
            transforms: Vec::new(),
            seq: 0,
            answered: 0,
            outbox: None,
            first: None,
        }
    }
}

impl Plot {
    /// Makes `plot` one drawn by the painter on canvases of `css` CSS px at `dpr`; a plot
    /// already drawn there only takes the new size.
    pub(crate) fn use_painter(plot: &mut Option<Plot>, css: (i32, i32), dpr: f64) {
        match plot {
            Some(Plot::Painter(m)) => {
                m.css = css;
                m.dpr = dpr;
            }
            _ => *plot = Some(Plot::Painter(Mirror::new(css, dpr))),
        }
    }

    /// Whether nothing was drawn here yet (its first drawing runs the chart code cold). The
    /// painter's cold costs are the worker's: never for the page.
    pub(crate) fn never_drawn(&self) -> bool {
        match self {
            Plot::Here(s) => s.never_drawn(),
            Plot::Painter(_) => false,
        }
    }

    /// Whether a first drawing is to come here (the page may rehearse it).
    pub(crate) fn first_drawing_due(&self) -> bool {
        match self {
            Plot::Here(s) => s.first_drawing_due(),
            Plot::Painter(m) => m.seq == 0,
        }
    }

    /// Whether the plot is too small for a legend inside a chart.
    pub(crate) fn small(&mut self) -> bool {
        match self {
            Plot::Here(s) => s.small(),
            Plot::Painter(m) => small_plot(m.css),
        }
    }

    /// Where each panel's curves went at the last drawing shown.
    pub(crate) fn transforms(&self) -> Vec<PlotTransform> {
        match self {
            Plot::Here(s) => s.transforms(),
            Plot::Painter(m) => m.transforms.clone(),
        }
    }

    /// Device pixels per CSS pixel at the last drawing shown.
    pub(crate) fn dpr(&self) -> f64 {
        match self {
            Plot::Here(s) => s.dpr(),
            Plot::Painter(m) => m.shown_dpr,
        }
    }

    /// The panel under (`x`, `y`) CSS px, its transform and the point in device pixels.
    pub(crate) fn panel_at(&self, x: f64, y: f64) -> Option<(usize, PlotTransform, (f64, f64))> {
        match self {
            Plot::Here(s) => s.panel_at(x, y),
            Plot::Painter(m) => panel_at(&m.transforms, m.shown_dpr, x, y),
        }
    }

    /// Draws the panels here, or sends them to the painter (whole: the slicing of a first
    /// drawing is for the page's frames). `first` says the drawing shows a job's output first.
    pub(crate) fn draw_panels(
        &mut self,
        panels: &[(&ChartSpec, &[Series])],
        band: Option<&[Series]>,
        slice_ms: Option<f64>,
    ) -> Result<Drawing, JsError> {
        match self {
            Plot::Here(s) => s.draw_panels(panels, band, slice_ms),
            Plot::Painter(m) => {
                // a page sends far fewer than 2^32 drawings
                m.seq += 1;
                m.outbox = Some(encode_paint(m.seq, m.css, m.dpr, panels, band));
                Ok(Drawing {
                    background: true,
                    complete: true,
                })
            }
        }
    }

    /// Builds the message of a drawing and drops it (`Lab::rehearse`).
    pub(crate) fn rehearse_paint(
        &self,
        panels: &[(&ChartSpec, &[Series])],
        band: Option<&[Series]>,
    ) {
        if let Plot::Painter(m) = self {
            let _ = encode_paint(m.seq + 1, m.css, m.dpr, panels, band).to_js();
        }
    }

    /// The drawing just sent shows a job's output first: the page hears when it is shown.
    pub(crate) fn mark_first(&mut self) -> bool {
        match self {
            Plot::Here(_) => false,
            Plot::Painter(m) => {
                m.first = Some(m.seq);
                true
            }
        }
    }

    /// Whether the painter has not yet answered the last drawing sent.
    pub(crate) fn painting(&self) -> bool {
        matches!(self, Plot::Painter(m) if m.answered != m.seq)
    }

    /// The drawing to send to the painter, if any.
    pub(crate) fn take_paint(&mut self) -> Option<Wire> {
        match self {
            Plot::Painter(m) => m.outbox.take(),
            Plot::Here(_) => None,
        }
    }

    /// Reads the painter's answer; returns whether it showed a job's output first. The
    /// painter answers in order, skipping drawings it had no time for; an answer to an older
    /// drawing than one answered already changes nothing.
    pub(crate) fn painted(&mut self, nums: &[f64]) -> Result<bool, String> {
        let Plot::Painter(m) = self else {
            return Ok(false);
        };
        let (seq, dpr, transforms) = decode_painted(nums)?;
        if seq < m.answered {
            return Ok(false);
        }
        m.answered = seq;
        m.shown_dpr = dpr;
        m.transforms = transforms;
        let first = m.first.is_some_and(|f| seq >= f);
        if first {
            m.first = None;
        }
        Ok(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    fn answer(seq: u32, dpr: f64) -> Vec<f64> {
        super::super::snapshot::encode_painted(seq, dpr, &[])
    }

    // in Chromium only: the rehearsal builds the message's JS arrays
    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen_test::wasm_bindgen_test]
    fn a_painters_rehearsal_sends_nothing_and_is_due_only_before_the_first_drawing() {
        let mut p = None;
        Plot::use_painter(&mut p, (600, 400), 2.0);
        let mut p = p.unwrap();
        assert!(p.first_drawing_due());
        p.rehearse_paint(&[], None);
        assert!(p.take_paint().is_none() && !p.painting());
        p.draw_panels(&[], None, None).unwrap();
        assert!(!p.first_drawing_due());
        p.rehearse_paint(&[], None);
        assert!(p.take_paint().is_some() && p.take_paint().is_none());
        // the drawing sent is the first, not one the rehearsal numbered
        let Plot::Painter(m) = &p else { unreachable!() };
        assert_eq!(m.seq, 1);
    }

    // run by wasm-bindgen-test in Chromium (scripts/test.sh) and by a native `cargo test`
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn the_page_waits_for_the_painters_answer_to_its_last_drawing_only() {
        let mut p = None;
        Plot::use_painter(&mut p, (600, 400), 2.0);
        let mut p = p.unwrap();
        assert!(!p.painting() && p.take_paint().is_none());
        for _ in 0..3 {
            p.draw_panels(&[], None, None).unwrap();
        }
        assert!(p.mark_first());
        assert!(p.painting());
        assert!(p.take_paint().is_some() && p.take_paint().is_none());
        // an answer to an older drawing: still painting; the first drawing is not shown yet
        assert_eq!(p.painted(&answer(2, 2.0)), Ok(false));
        assert!(p.painting());
        // the painter skipped to the newest: shown, and it showed the job first
        assert_eq!(p.painted(&answer(3, 3.0)), Ok(true));
        assert!(!p.painting());
        assert_eq!(p.dpr(), 3.0);
        // a late answer to an older drawing changes nothing
        assert_eq!(p.painted(&answer(1, 1.0)), Ok(false));
        assert_eq!(p.dpr(), 3.0);
        assert!(p.painted(&[f64::NAN]).is_err());
        // a new size keeps what is shown
        let mut p = Some(p);
        Plot::use_painter(&mut p, (300, 200), 1.0);
        let mut p = p.unwrap();
        assert!(p.small() && !p.painting() && p.dpr() == 3.0);
        p.draw_panels(&[], None, None).unwrap();
        assert!(p.painting());
    }
}
