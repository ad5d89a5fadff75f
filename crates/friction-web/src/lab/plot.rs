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
    /// A plot drawn by the painter on canvases of `css` CSS px at `dpr`; a plot already drawn
    /// there only takes the new size.
    pub(crate) fn painter(plot: Option<Plot>, css: (i32, i32), dpr: f64) -> Plot {
        match plot {
            Some(Plot::Painter(mut m)) => {
                m.css = css;
                m.dpr = dpr;
                Plot::Painter(m)
            }
            _ => Plot::Painter(Mirror::new(css, dpr)),
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
            Plot::Painter(_) => false,
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
                m.seq = m.seq.wrapping_add(1);
                m.outbox = Some(encode_paint(m.seq, m.css, m.dpr, panels, band));
                Ok(Drawing {
                    background: true,
                    complete: true,
                })
            }
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

    /// Reads the painter's answer; returns whether it showed a job's output first. An answer
    /// to an older drawing than one answered already is ignored.
    pub(crate) fn painted(&mut self, nums: &[f64]) -> Result<bool, String> {
        let Plot::Painter(m) = self else {
            return Ok(false);
        };
        let (seq, dpr, transforms) = decode_painted(nums)?;
        // drawings are numbered from 1, wrapping: "newer" is a step forward of under half the
        // range
        let ahead = |a: u32, b: u32| a != b && a.wrapping_sub(b) < u32::MAX / 2;
        if seq != m.answered && !ahead(seq, m.answered) {
            return Ok(false);
        }
        m.answered = seq;
        m.shown_dpr = dpr;
        m.transforms = transforms;
        Ok(match m.first {
            Some(f) if f == seq || ahead(seq, f) => {
                m.first = None;
                true
            }
            _ => false,
        })
    }
}
