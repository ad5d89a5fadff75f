//! What a chart is: its description ([`ChartSpec`], [`Series`]), how it is drawn on a device
//! ([`Style`]) and the colours every chart uses.

use plotters::prelude::*;

/// Colour-blind-safe palette (Okabe & Ito 2008), in legend order.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
];

/// Grey used for reference curves (steady state).
pub const REFERENCE: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// One curve of a chart.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend text; empty: no legend entry of its own.
    pub label: String,
    /// Stroke colour.
    pub color: RGBColor,
    /// Data points (x, y) in axis units.
    pub points: Vec<(f64, f64)>,
    /// Dashed reference curve instead of a solid line.
    pub dashed: bool,
}

/// A whole chart: axes, labels and curves.
#[derive(Debug, Clone)]
pub struct ChartSpec {
    /// Caption above the plot.
    pub title: String,
    /// x-axis label with unit, e.g. `"relative velocity v [m/s]"`.
    pub x_label: String,
    /// y-axis label with unit.
    pub y_label: String,
    /// x-axis range (for a log axis both ends must be > 0).
    pub x_range: (f64, f64),
    /// y-axis range.
    pub y_range: (f64, f64),
    /// Logarithmic x axis.
    pub x_log: bool,
    /// Curves, drawn in order.
    pub series: Vec<Series>,
    /// Lines of text drawn in a box inside the plot, about what the chart cannot show (a model
    /// whose quantity does not exist, so that its curve is missing); empty for none.
    pub notes: Vec<String>,
    /// The size of a meaningful y value in axis units (a loop's bounding box for its area, a
    /// micrometre for a pre-sliding displacement), or 0 where the builder knows none: y data
    /// spread less than [`FLAT_SPAN`](crate::FLAT_SPAN) of it are round-off and drawn flat, and an all-zero
    /// series gets an axis of about ±`y_scale` ([`axis_range`](crate::axis_range)). The page fits its axes with
    /// it too, so canvas and SVG agree.
    pub y_scale: f64,
}

/// How a chart is drawn on a device.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Device-pixel ratio: every size is multiplied by it.
    pub scale: f64,
    /// Whether the chart draws its own legend (false in a figure whose panels share one legend
    /// band, [`shared_legend`](crate::legend::shared_legend)).
    pub legend: bool,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            scale: 1.0,
            legend: true,
        }
    }
}

impl Style {
    /// `css_px` in device pixels (at least 1).
    pub(crate) fn px(&self, css_px: f64) -> u32 {
        (css_px * self.scale).round().max(1.0) as u32
    }
}

/// Error from drawing (the backend's message).
pub type DrawError = Box<dyn std::error::Error>;
