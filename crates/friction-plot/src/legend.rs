//! Legends: the box a chart draws in the corner its curves leave free (or makes room for), the
//! band a figure's panels share, and the labels they hold. Notes go in the free corner the legend
//! does not take.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::text::{
    cut_to_fit, draw_text_box, fit_label, head_before, measure_text_box, text_width, Place,
};
use crate::{ChartSpec, DrawError, Series, Style};

/// The legend box in a corner of the plotting `area`: one line per entry, its colour sample
/// to the left.
///
/// Drawn as plotters' series-label box draws it (same geometry: 10 px margin, 30 px for the
/// samples, lines 1.25 font sizes apart, 5 px from the corner), but its texts are measured
/// through the backend ([`crate::backend::EitherBackend`]'s cached measurer): plotters measures each
/// label twice per draw by a DOM `<span>`, a layout of the whole page each, which made the
/// first redraws after a slider move 4-15 ms.
pub(crate) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, ShapeStyle)],
    corner: Corner,
    font: &TextStyle<'_>,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    let labels: Vec<&str> = entries.iter().map(|(l, _)| l.as_str()).collect();
    let measured = measure_text_box(area, &labels, SAMPLE_W, font)?;
    let rows = draw_text_box(
        area,
        &labels,
        measured,
        SAMPLE_W,
        Place::Corner(corner),
        font,
    )?;
    for ((_, sample), (x, mid)) in entries.iter().zip(rows) {
        let x0 = x - SAMPLE_W;
        area.draw(&PathElement::new(vec![(x0, mid), (x0 + 20, mid)], *sample))?;
    }
    Ok(())
}

/// Room left of a legend label for its colour sample \[px\].
const SAMPLE_W: i32 = 30;

/// A corner of the plotting area for the legend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corner {
    /// Top right (preferred).
    UpperRight,
    /// Top left.
    UpperLeft,
    /// Bottom right.
    LowerRight,
    /// Bottom left.
    LowerLeft,
}

/// A legend entry of at most `max_chars` characters: the label, else the part before its
/// parenthetical gloss (`"q_d (reference)"` → `"q_d"`, `"LuGre (Canudas de Wit)"` →
/// `"LuGre"`), which still names the series where `"q_d (re…"` reads as a cut formula; else
/// the label cut with "…".
pub(crate) fn legend_label(label: &str, max_chars: usize) -> String {
    if label.chars().count() <= max_chars {
        return label.to_string();
    }
    match head_before(label, " (") {
        Some(head) if head.chars().count() <= max_chars => head.to_string(),
        _ => fit_label(label, max_chars),
    }
}

/// Entries of a chart's own legend: its series that have a label.
fn legend_len(spec: &ChartSpec) -> usize {
    spec.series.iter().filter(|s| !s.label.is_empty()).count()
}

/// Height of the legend box as a fraction of a typical plotting area (about 280 CSS px tall on
/// the page): one 15 px line per series plus padding, at most 35 %.
fn legend_height_fraction(n_series: usize) -> f64 {
    ((15.0 * n_series as f64 + 20.0) / 280.0).min(0.35)
}

/// Raises the top of the y range so that the legend fits above the data when every corner of
/// the plot holds curve points (time signals that oscillate over the whole chart).
///
/// Leaves the chart alone when a corner is already free, so charts with room keep their tight
/// range.
pub fn make_legend_room(spec: &mut ChartSpec) {
    if spec.series.is_empty() || corner_counts(spec).contains(&0) {
        return;
    }
    let (y0, y1) = spec.y_range;
    let h = legend_height_fraction(legend_len(spec)) + 0.03;
    let top = y0 + (y1 - y0) / (1.0 - h);
    if top.is_finite() {
        spec.y_range = (y0, top);
    }
}

/// The corner whose legend-sized box (40 % of the plot wide, one line per series tall) covers
/// the fewest data points, so the legend does not hide curves (relaxation curves end in the
/// top right, hysteresis loops sit low at high velocity). Ties go to the first of upper right,
/// upper left, lower right, lower left.
pub fn legend_corner(spec: &ChartSpec) -> Corner {
    let counts = corner_counts(spec);
    let best = (0..4).min_by_key(|&i| (counts[i], i)).unwrap_or(0);
    CORNERS[best]
}

/// The corners in [`corner_counts`]' order.
const CORNERS: [Corner; 4] = [
    Corner::UpperRight,
    Corner::UpperLeft,
    Corner::LowerRight,
    Corner::LowerLeft,
];

/// Data points under a legend box in each corner: upper right, upper left, lower right, lower
/// left.
fn corner_counts(spec: &ChartSpec) -> [usize; 4] {
    corner_counts_for(spec, 0.4, legend_height_fraction(legend_len(spec)), 1)
}

/// Data points under a box `w` × `h` (fractions of the plot's width and height) in each corner,
/// in [`corner_counts`]' order, with `sub` − 1 more points on each segment between two (a
/// curve of few points can cross a corner between them).
fn corner_counts_for(spec: &ChartSpec, w: f64, h: f64, sub: usize) -> [usize; 4] {
    let (x0, x1) = spec.x_range;
    let (y0, y1) = spec.y_range;
    let log = spec.x_log && x0 > 0.0 && x1 > x0;
    let fx = |x: f64| {
        if log {
            (x.log10() - x0.log10()) / (x1.log10() - x0.log10())
        } else {
            (x - x0) / (x1 - x0)
        }
    };
    let mut counts = [0usize; 4];
    let mut count = |u: f64, v: f64| {
        if !(u.is_finite() && v.is_finite()) {
            return;
        }
        let (right, left, top, bottom) = (u > 1.0 - w, u < w, v > 1.0 - h, v < h);
        for (i, hit) in [right && top, left && top, right && bottom, left && bottom]
            .into_iter()
            .enumerate()
        {
            if hit {
                counts[i] += 1;
            }
        }
    };
    for s in &spec.series {
        let mut last: Option<(f64, f64)> = None;
        for &(x, y) in &s.points {
            let (u, v) = (fx(x), (y - y0) / (y1 - y0));
            if let Some((u0, v0)) = last.filter(|_| sub > 1) {
                for k in 1..sub {
                    let f = k as f64 / sub as f64;
                    count(u0 + f * (u - u0), v0 + f * (v - v0));
                }
            }
            count(u, v);
            last = Some((u, v));
        }
    }
    counts
}

/// Where a chart's notes go: the middle of an empty plot, else the corner with the fewest data
/// points under a box of `size` (fractions of the plot's width and height) that the chart's own
/// legend (`legend`) does not take.
pub(crate) fn notes_place(spec: &ChartSpec, legend: Option<Corner>, size: (f64, f64)) -> Place {
    if spec.series.iter().all(|s| s.points.is_empty()) {
        return Place::Centre;
    }
    let counts = corner_counts_for(spec, size.0, size.1, 8);
    let best = (0..4)
        .filter(|&i| Some(CORNERS[i]) != legend)
        .min_by_key(|&i| (counts[i], i))
        .unwrap_or(0);
    Place::Corner(CORNERS[best])
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::stribeck_chart;
    use crate::{draw_frame, PALETTE};

    fn entry(label: &str, i: usize) -> Series {
        Series {
            label: label.into(),
            color: PALETTE[i],
            points: vec![(0.0, i as f64), (1.0, 2.0)],
            dashed: false,
        }
    }

    #[test]
    fn a_long_legend_label_on_a_small_chart_keeps_its_colour_sample_inside() {
        use plotters::prelude::*;
        let mut spec = stribeck_chart(&friction_core::stribeck::Stribeck::TABLE_I, 1.0, 0.05, 50);
        let long = "Modified Stribeck elasto-slip element from the friction library";
        spec.series[0].label = long.to_string();
        let mut svg = String::new();
        let t = {
            let root = SVGBackend::with_string(&mut svg, (260, 300)).into_drawing_area();
            draw_frame(&root, &spec, &Style::default()).expect("draw")
        };
        assert!(!svg.contains(long), "the full label does not fit");
        assert!(svg.contains("Modified"), "the label's start is shown");
        assert!(svg.contains('…'));
        // the 2-point legend sample of the curve's colour lies inside the plotting area
        let sample = svg
            .split("<polyline")
            .find(|p| p.contains("#0072B2"))
            .and_then(|p| p.split("points=\"").nth(1))
            .and_then(|p| p.split(',').next())
            .and_then(|x| x.trim().parse::<f64>().ok())
            .expect("legend sample");
        assert!(
            sample >= t.clip.0,
            "sample at x = {sample}, plot starts at {}",
            t.clip.0
        );
    }

    #[test]
    fn long_legend_labels_are_cut_to_fit() {
        assert_eq!(fit_label("LuGre", 10), "LuGre");
        assert_eq!(fit_label("Generalized Maxwell-Slip", 12), "Generalized…");
        assert_eq!(fit_label("Modified Stribeck", 9), "Modified…");
        assert_eq!(fit_label("αβγδεζηθ", 4).chars().count(), 4);
        assert_eq!(legend_label("q_d (reference)", 15), "q_d (reference)");
        assert_eq!(legend_label("q_d (reference)", 8), "q_d");
        assert_eq!(legend_label("F̂ (observer)", 8), "F̂");
        assert_eq!(legend_label("Generalized Maxwell-Slip", 12), "Generalized…");
        assert_eq!(
            legend_label("steady state p·sgn(v)·μ(v)", 12),
            "steady stat…"
        );
    }

    #[test]
    fn legend_room_is_made_only_when_every_corner_is_taken() {
        let sine = |label: &str| Series {
            label: label.into(),
            color: PALETTE[0],
            points: (0..=400)
                .map(|i| {
                    let t = 0.1 * i as f64;
                    (t, t.sin())
                })
                .collect(),
            dashed: false,
        };
        let mut spec = ChartSpec {
            title: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            x_range: (0.0, 40.0),
            y_range: (-1.1, 1.1),
            x_log: false,
            series: vec![sine("a"), sine("b"), sine("c"), sine("d")],
            notes: Vec::new(),
            y_scale: 0.0,
        };
        assert!(corner_counts(&spec).iter().all(|&c| c > 0));
        make_legend_room(&mut spec);
        assert_eq!(spec.y_range.0, -1.1);
        assert!(spec.y_range.1 > 1.5, "{:?}", spec.y_range);
        assert_eq!(corner_counts(&spec)[0], 0);
        assert_eq!(legend_corner(&spec), Corner::UpperRight);
        // a chart with a free corner keeps its range
        let before = spec.y_range;
        make_legend_room(&mut spec);
        assert_eq!(spec.y_range, before);
    }

    #[test]
    fn legend_goes_to_the_emptiest_corner() {
        let mut spec = stribeck_chart(&friction_core::stribeck::Stribeck::TABLE_I, 1.0, 0.05, 400);
        // odd Stribeck curve: it peaks just right of zero and falls, so a one-line legend box
        // is free in the upper right (and in the upper left, where the curve is negative)
        assert_eq!(corner_counts(&spec)[0], 0);
        assert_eq!(legend_corner(&spec), Corner::UpperRight);
        spec.series[0].points = (0..100).map(|i| (0.0005 * i as f64, 1.4)).collect();
        spec.x_range = (0.0, 0.05);
        spec.y_range = (0.0, 1.5);
        assert_eq!(legend_corner(&spec), Corner::LowerRight);
        spec.series[0].points.clear();
        assert_eq!(legend_corner(&spec), Corner::UpperRight);
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
}
