//! Friction Lab charts: one chart description, drawn by plotters on any `DrawingBackend`.
//!
//! The same [`draw_chart`] renders to the page's `<canvas>` (plotters-canvas) and to SVG (the CLI's
//! `--svg` and the native tests), so what the tests check is what users see. All sizes (fonts,
//! margins, line widths) are multiplied by [`Style::scale`], the device-pixel ratio, because
//! plotters-canvas draws in device pixels and knows nothing about HiDPI.
//!
//! Where things are: what a chart is and its colours ([`spec`]); drawing one ([`draw`]), with its
//! axis ranges ([`axes`]), tick labels ([`ticks`]), legends ([`legend`]) and text that fits
//! (`text`); fewer points, the same picture ([`thin`]). One builder per view turns the core's
//! results into charts (`curve`, `frbd`, `forced`, `prescribed`, `robot`, `stickslip`, `fit`),
//! [`panels`] picks the builder for a job's output, and [`figure`] and [`export`] lay several
//! panels out.

pub mod axes;
#[cfg(feature = "svg")]
pub mod backend;
pub mod curve;
pub mod draw;
pub mod export;
pub mod figure;
pub mod fit;
pub mod forced;
pub mod frbd;
pub mod legend;
pub mod panels;
#[cfg(feature = "png")]
pub mod png;
pub mod prescribed;
pub mod readout;
pub mod robot;
pub mod spec;
pub mod stickslip;
mod text;
pub mod thin;
pub mod ticks;

#[cfg(test)]
mod fixture;

pub use axes::{axis_range, data_bounds, fitted_axes, padded_range, stable_range, FLAT_SPAN};
pub use draw::{draw_chart, draw_frame, PlotTransform};
pub use legend::{legend_corner, make_legend_room, Corner};
pub use spec::{ChartSpec, DrawError, Series, Style, PALETTE, REFERENCE};
