//! Figures of several chart panels in a grid, with one legend band above the panels when they
//! all show the same curves (the stick-slip benchmark's six panels of up to four models).
//!
//! One band instead of six boxes: each small panel's legend covered data (time signals fill
//! every corner) or took headroom from it, and repeated the same four names six times.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

#[cfg(feature = "svg")]
use crate::{backend::EitherBackend, draw_chart, ChartSpec};
use crate::{cut_to_fit, text_width, DrawError, Series, Style};

/// Length of an entry's colour sample, CSS px.
const SAMPLE_PX: f64 = 22.0;
/// Space between a sample and its label, and around the band's rows, CSS px.
const PAD_PX: f64 = 6.0;
/// Space between entries on a row, CSS px.
const GAP_PX: f64 = 20.0;
/// Height of one row of entries, CSS px.
const ROW_PX: f64 = 20.0;
/// Font size of the labels, CSS px (the panels' tick labels are 12 px).
const FONT_PX: f64 = 13.0;

/// The legend every panel would draw, when there are at least two panels and each lists the
/// same entries (label, colour, dash) in the same order; `None` when the panels differ (the
/// robot view's panels each show their own quantities) and each keeps its own legend.
pub fn shared_legend(panels: &[&[Series]]) -> Option<Vec<Series>> {
    let (first, rest) = panels.split_first()?;
    let same = |a: &[Series]| {
        a.len() == first.len()
            && a.iter()
                .zip(first.iter())
                .all(|(s, f)| s.label == f.label && s.color == f.color && s.dashed == f.dashed)
    };
    if rest.is_empty() || first.is_empty() || !rest.iter().all(|p| same(p)) {
        return None;
    }
    Some(
        first
            .iter()
            .map(|s| Series {
                label: s.label.clone(),
                color: s.color,
                points: Vec::new(),
                dashed: s.dashed,
            })
            .collect(),
    )
}

/// Where each entry goes: (x, row) in device pixels from the band's left edge and in rows from
/// its top, with each row centred; and the number of rows. Entries flow left to right and wrap
/// when the next would cross the right edge; a label longer than a whole row is cut with "…".
fn layout<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Series],
    style: &Style,
) -> (Vec<(String, i32, usize)>, usize) {
    let width = area.dim_in_pixel().0 as f64;
    let px = |v: f64| v * style.scale;
    let usable = (width - 2.0 * px(PAD_PX)).max(1.0);
    // (label, width) per entry, labels cut to fit one row
    let sized: Vec<(String, f64)> = entries
        .iter()
        .map(|e| {
            let room = usable - px(SAMPLE_PX + PAD_PX);
            let label = cut_to_fit(area, &e.label, room, FONT_PX, style);
            let w = px(SAMPLE_PX + PAD_PX) + text_width(area, &label, FONT_PX, style);
            (label, w)
        })
        .collect();
    let mut rows: Vec<Vec<(String, f64)>> = vec![Vec::new()];
    let mut used = 0.0;
    for (label, w) in sized {
        let row = rows.last_mut().expect("one row");
        let need = if row.is_empty() {
            w
        } else {
            used + px(GAP_PX) + w
        };
        if !row.is_empty() && need > usable {
            rows.push(vec![(label, w)]);
            used = w;
        } else {
            row.push((label, w));
            used = need;
        }
    }
    let mut out = Vec::with_capacity(entries.len());
    for (r, row) in rows.iter().enumerate() {
        let total: f64 =
            row.iter().map(|(_, w)| w).sum::<f64>() + px(GAP_PX) * (row.len() as f64 - 1.0);
        let mut x = ((width - total) / 2.0).max(px(PAD_PX));
        for (label, w) in row {
            out.push((label.clone(), x.round() as i32, r));
            x += w + px(GAP_PX);
        }
    }
    (out, rows.len())
}

/// Height in device pixels of the band that [`draw_legend_band`] draws for `entries` across
/// the width of `area`.
pub fn legend_band_height<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Series],
    style: &Style,
) -> u32 {
    if entries.is_empty() {
        return 0;
    }
    let (_, rows) = layout(area, entries, style);
    ((rows as f64 * ROW_PX + 2.0 * PAD_PX) * style.scale).round() as u32
}

/// Draws the entries (colour sample, label) in centred rows across `area` (white background);
/// size the area with [`legend_band_height`].
pub fn draw_legend_band<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Series],
    style: &Style,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    area.fill(&WHITE)?;
    let px = |v: f64| v * style.scale;
    let font = (FontFamily::SansSerif, px(FONT_PX))
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let (placed, _) = layout(area, entries, style);
    for ((label, x, row), e) in placed.into_iter().zip(entries) {
        let y = (px(PAD_PX) + px(ROW_PX) * (row as f64 + 0.5)).round() as i32;
        let (x1, width) = (
            x + px(SAMPLE_PX).round() as i32,
            px(2.5).round().max(1.0) as u32,
        );
        let stroke = e.color.stroke_width(width);
        if e.dashed {
            let dash = px(6.0).round() as i32;
            let mut a = x;
            while a < x1 {
                area.draw(&PathElement::new(
                    vec![(a, y), ((a + dash).min(x1), y)],
                    stroke,
                ))?;
                a += dash + px(4.0).round() as i32;
            }
        } else {
            area.draw(&PathElement::new(vec![(x, y), (x1, y)], stroke))?;
        }
        area.draw(&Text::new(
            label,
            (x1 + px(PAD_PX).round() as i32, y),
            font.clone(),
        ))?;
    }
    Ok(())
}

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
    use crate::PALETTE;

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

    #[test]
    fn a_legend_is_shared_only_by_panels_listing_the_same_curves() {
        let a = vec![entry("LuGre", 0), entry("Dahl", 1)];
        let b = vec![entry("LuGre", 0), entry("Dahl", 1)];
        let shared = shared_legend(&[&a, &b]).expect("same entries");
        assert_eq!(shared.len(), 2);
        assert!(shared.iter().all(|s| s.points.is_empty()));
        assert_eq!(shared[1].label, "Dahl");
        // one panel, a different colour, a different label, or nothing: no shared legend
        assert!(shared_legend(&[&a]).is_none());
        assert!(shared_legend(&[&a, &[entry("LuGre", 0), entry("Dahl", 2)][..]]).is_none());
        assert!(shared_legend(&[&a, &[entry("q", 0), entry("Dahl", 1)][..]]).is_none());
        assert!(shared_legend(&[&[][..], &[][..]]).is_none());
    }

    #[test]
    fn the_band_wraps_long_entries_onto_more_rows_and_cuts_what_cannot_fit() {
        let mut s = String::new();
        let wide = SVGBackend::with_string(&mut s, (1800, 100)).into_drawing_area();
        let entries: Vec<Series> = [
            "GMS (Al-Bender 2005)",
            "modified Stribeck",
            "bristle",
            "Leuven",
        ]
        .iter()
        .enumerate()
        .map(|(i, l)| entry(l, i))
        .collect();
        let style = Style::default();
        let one = legend_band_height(&wide, &entries, &style);
        drop(wide);
        let mut s = String::new();
        let narrow = SVGBackend::with_string(&mut s, (300, 100)).into_drawing_area();
        let more = legend_band_height(&narrow, &entries, &style);
        assert!(more > one, "narrow band {more} px, wide band {one} px");
        let (placed, rows) = layout(&narrow, &entries, &style);
        assert!(rows >= 2);
        for (label, x, _) in &placed {
            assert!(*x >= 0 && *x < 300, "{label} starts at {x}");
        }
        drop(narrow);
        let mut s = String::new();
        let tiny = SVGBackend::with_string(&mut s, (120, 100)).into_drawing_area();
        let (placed, _) = layout(&tiny, &entries[..1], &style);
        assert!(placed[0].0.ends_with('…'), "{}", placed[0].0);
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
