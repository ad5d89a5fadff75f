//! Figures of several chart panels in a grid, with one legend band above the panels when they
//! all show the same curves (the stick-slip benchmark's six panels of up to four models).
//!
//! One band instead of six boxes: each small panel's legend covered data (time signals fill
//! every corner) or took headroom from it, and repeated the same four names six times.

#[cfg(feature = "svg")]
use plotters::prelude::*;

#[cfg(feature = "svg")]
use crate::legend::{draw_legend_band, legend_band_height, shared_legend};
#[cfg(feature = "svg")]
use crate::{backend::EitherBackend, draw_chart, ChartSpec, DrawError, Series, Style};

/// Rows × columns for `n` panels: at most three columns, as square as possible.
pub fn grid(n: usize) -> (usize, usize) {
    let cols = match n {
        0 | 1 => 1,
        2 | 4 => 2,
        _ => 3,
    };
    (n.max(1).div_ceil(cols), cols)
}

/// Rows × columns for `n` panels on a `width` × `height` canvas (any unit): at most three
/// columns, chosen so that each cell is closest to 1.2 : 1 (wide enough for a time axis, tall
/// enough for its ticks). Six panels go 3 × 2 on a landscape canvas and 2 × 3 on a tall one,
/// where three columns would leave ~180 px per panel.
pub fn grid_for(n: usize, width: f64, height: f64) -> (usize, usize) {
    let n = n.max(1);
    let mut best = grid(n);
    if !(width > 0.0 && height > 0.0) {
        return best;
    }
    let misfit = |(rows, cols): (usize, usize)| {
        let aspect = (width / cols as f64) / (height / rows as f64);
        (aspect / 1.2).ln().abs()
    };
    for cols in 1..=n.min(3) {
        let g = (n.div_ceil(cols), cols);
        if misfit(g) < misfit(best) {
            best = g;
        }
    }
    best
}

#[cfg(feature = "svg")]
/// The panels as one SVG document: a single chart at `single` size, several in a [`grid`] of
/// `panel`-sized cells under a [`shared_legend`] band when they have one.
///
/// Each chart presents its drawing area, which ends an SVG document, so every panel (and the
/// band) is its own SVG nested in the grid document at its offset.
pub fn figure_svg(
    charts: &[ChartSpec],
    single: (u32, u32),
    panel: (u32, u32),
) -> Result<String, DrawError> {
    figure_svg_as::<SVGBackend<'static>>(charts, single, panel)
}

/// [`figure_svg`] drawn through [`EitherBackend<B>`](crate::backend::EitherBackend): a program
/// that draws its screen through that type (the page: `B` = its canvas backend) then carries
/// one compiled copy of the chart code, not a second one for SVG.
#[cfg(feature = "svg")]
pub fn figure_svg_as<B: DrawingBackend>(
    charts: &[ChartSpec],
    single: (u32, u32),
    panel: (u32, u32),
) -> Result<String, DrawError>
where
    B::ErrorType: 'static,
{
    figure_svg_scaled::<B>(charts, single, panel, 1.0)
}

/// [`figure_svg`] with every size multiplied by `scale` (sizes in device pixels, fonts and line
/// widths scaled): the export draws at a multiple and divides the coordinates back
/// (`export.rs`), which keeps the sub-pixel positions plotters' SVG backend would round away.
#[cfg(feature = "svg")]
pub(crate) fn figure_svg_scaled<B: DrawingBackend>(
    charts: &[ChartSpec],
    single: (u32, u32),
    panel: (u32, u32),
    scale: f64,
) -> Result<String, DrawError>
where
    B::ErrorType: 'static,
{
    let (w, h) = if charts.len() <= 1 { single } else { panel };
    let (rows, cols) = grid(charts.len());
    let width = w * cols as u32;
    let lists: Vec<&[Series]> = charts.iter().map(|c| c.series.as_slice()).collect();
    let legend = shared_legend(&lists);
    let style = Style {
        legend: legend.is_none(),
        scale,
    };
    let mut band = String::new();
    let band_h = match &legend {
        Some(entries) => {
            let probe = EitherBackend::<B>::svg(&mut band, (width, 100)).into_drawing_area();
            legend_band_height(&probe, entries, &style)
        }
        None => 0,
    };
    band.clear();
    let mut doc = format!(
        "<svg width=\"{width}\" height=\"{H}\" viewBox=\"0 0 {width} {H}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
        H = band_h + h * rows as u32
    );
    if let Some(entries) = &legend {
        {
            let area = EitherBackend::<B>::svg(&mut band, (width, band_h)).into_drawing_area();
            draw_legend_band(&area, entries, &style)?;
            area.present()?;
        }
        doc.push_str(&band);
        doc.push('\n');
    }
    for (i, c) in charts.iter().enumerate() {
        let mut one = String::new();
        {
            let root = EitherBackend::<B>::svg(&mut one, (w, h)).into_drawing_area();
            draw_chart(&root, c, &style)?;
        }
        let (x, y) = ((i % cols) as u32 * w, band_h + (i / cols) as u32 * h);
        doc.push_str(&one.replacen("<svg ", &format!("<svg x=\"{x}\" y=\"{y}\" "), 1));
        doc.push('\n');
    }
    doc.push_str("</svg>\n");
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "svg")]
    use crate::PALETTE;

    #[cfg(feature = "svg")]
    fn entry(label: &str, i: usize) -> Series {
        Series {
            label: label.into(),
            color: PALETTE[i],
            points: vec![(0.0, i as f64), (1.0, 2.0)],
            dashed: false,
        }
    }

    #[cfg(feature = "svg")]
    fn chart(series: Vec<Series>) -> ChartSpec {
        ChartSpec {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_range: (0.0, 1.0),
            y_range: (0.0, 3.0),
            x_log: false,
            series,
            notes: Vec::new(),
            y_scale: 0.0,
        }
    }

    #[test]
    fn grids_have_at_most_three_columns() {
        assert_eq!(grid(1), (1, 1));
        assert_eq!(grid(2), (1, 2));
        assert_eq!(grid(4), (2, 2));
        assert_eq!(grid(5), (2, 3));
        assert_eq!(grid(6), (2, 3));
        // landscape canvases keep three columns, tall ones get two, a strip one row
        assert_eq!(grid_for(6, 1200.0, 700.0), (2, 3));
        assert_eq!(grid_for(6, 560.0, 400.0), (2, 3));
        assert_eq!(grid_for(6, 560.0, 900.0), (3, 2));
        assert_eq!(grid_for(4, 800.0, 560.0), (2, 2));
        assert_eq!(grid_for(2, 1200.0, 400.0), (1, 2));
        assert_eq!(grid_for(1, 0.0, 0.0), (1, 1));
    }

    #[cfg(feature = "svg")]
    #[test]
    fn a_figure_of_panels_with_the_same_curves_has_one_legend_above_them() {
        let panels: Vec<ChartSpec> = (0..6)
            .map(|_| chart(vec![entry("LuGre", 0), entry("Dahl", 1)]))
            .collect();
        let svg = figure_svg(&panels, (900, 560), (500, 380)).unwrap();
        // one label per model in the whole document, six panels, two rows of three
        let texts = |svg: &str, t: &str| svg.lines().filter(|l| l.trim() == t).count();
        assert_eq!(texts(&svg, "LuGre"), 1, "{svg}");
        assert_eq!(texts(&svg, "Dahl"), 1);
        assert_eq!(svg.matches("<svg x=").count(), 6);
        assert!(svg.starts_with("<svg width=\"1500\""));
        // panels that show different curves keep their own legends
        let panels = vec![
            chart(vec![entry("q", 0)]),
            chart(vec![entry("F", 0), entry("F̂", 1)]),
        ];
        let svg = figure_svg(&panels, (900, 560), (500, 380)).unwrap();
        for l in ["q", "F", "F̂"] {
            assert_eq!(texts(&svg, l), 1, "{l}");
        }
        assert!(svg.starts_with("<svg width=\"1000\" height=\"380\""));
    }
}
