//! Figures for slides and reports: SVG with sub-pixel coordinates and a bitmap of any size,
//! both with an optional caption line under the panels.
//!
//! Why a scale factor: plotters' SVG backend writes whole-pixel coordinates, which shows as
//! stair steps on a zoomed slide. The figure is drawn at [`SVG_OVERSAMPLE`] times its size and
//! every coordinate is divided back, so the file keeps a tenth of a pixel. A bitmap is drawn at
//! `scale` × the chosen size with every font and line scaled alike, so a 2× PNG looks like the
//! 1× one, only sharper.

use friction_core::params::parse_f64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::figure::grid_for;
use crate::legend::{draw_legend_band, legend_band_height, shared_legend};
use crate::text::cut_to_fit;
use crate::{draw_chart, ChartSpec, DrawError, Series, Style};

/// The SVG export is drawn at this multiple of its size, then scaled back.
pub const SVG_OVERSAMPLE: f64 = 10.0;

/// Height of the caption line \[CSS px\] and its font size.
const CAPTION_PX: f64 = 22.0;
const CAPTION_FONT_PX: f64 = 12.0;

/// Attributes whose numbers are lengths or positions (every number in them is scaled).
const LENGTHS: [&str; 12] = [
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "width",
    "height",
    "font-size",
    "stroke-width",
    "points",
    "viewBox",
];

/// A number divided by `s`, with at most two decimals and no trailing zeros.
fn scaled(num: &str, s: f64) -> String {
    match parse_f64(num) {
        Some(x) => {
            let t = format!("{:.2}", x / s);
            let t = t.trim_end_matches('0').trim_end_matches('.');
            if t == "-0" {
                "0".into()
            } else {
                t.to_string()
            }
        }
        None => num.to_string(),
    }
}

/// Every number inside `value` divided by `s` (numbers are runs of digits, '.', '-', 'e').
fn scale_numbers(value: &str, s: f64) -> String {
    let mut out = String::with_capacity(value.len());
    let mut num = String::new();
    for c in value.chars() {
        if c.is_ascii_digit() || c == '.' || (c == '-' && num.is_empty()) {
            num.push(c);
        } else {
            if !num.is_empty() {
                out.push_str(&scaled(&num, s));
                num.clear();
            }
            out.push(c);
        }
    }
    if !num.is_empty() {
        out.push_str(&scaled(&num, s));
    }
    out
}

/// `svg` with every coordinate and length divided by `s`; a `rotate(a, x, y)` keeps its angle.
pub fn rescale_svg(svg: &str, s: f64) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(i) = rest.find("=\"") {
        let (head, tail) = rest.split_at(i);
        let name = head
            .rsplit(|c: char| c.is_whitespace())
            .next()
            .unwrap_or("");
        let Some(end) = tail[2..].find('"') else {
            break;
        };
        let value = &tail[2..2 + end];
        out.push_str(head);
        out.push_str("=\"");
        // only inside tags: text content never holds `="`
        if LENGTHS.contains(&name) {
            out.push_str(&scale_numbers(value, s));
        } else if name == "transform" && value.starts_with("rotate(") {
            let inner = &value[7..value.len().saturating_sub(1)];
            let mut parts = inner.split(',');
            let angle = parts.next().unwrap_or("0");
            let xy: Vec<String> = parts.map(|p| scaled(p.trim(), s)).collect();
            out.push_str(&format!("rotate({angle}, {})", xy.join(", ")));
        } else {
            out.push_str(value);
        }
        out.push('"');
        rest = &tail[2 + end + 1..];
    }
    out.push_str(rest);
    out
}

/// Escapes text for an SVG text node.
#[cfg(feature = "svg")]
fn xml_text(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The panels as SVG with sub-pixel coordinates (see the module docs), `caption` (if any) as a
/// line under them.
#[cfg(feature = "svg")]
pub fn figure_svg_fine(
    charts: &[ChartSpec],
    single: (u32, u32),
    panel: (u32, u32),
    caption: Option<&str>,
) -> Result<String, DrawError> {
    figure_svg_fine_as::<SVGBackend<'static>>(charts, single, panel, caption)
}

/// [`figure_svg_fine`] drawn through [`EitherBackend<B>`](crate::backend::EitherBackend), as
/// [`figure_svg_as`](crate::figure::figure_svg_as).
#[cfg(feature = "svg")]
pub fn figure_svg_fine_as<B: DrawingBackend>(
    charts: &[ChartSpec],
    single: (u32, u32),
    panel: (u32, u32),
    caption: Option<&str>,
) -> Result<String, DrawError>
where
    B::ErrorType: 'static,
{
    let k = SVG_OVERSAMPLE;
    let up = |(w, h): (u32, u32)| ((w as f64 * k) as u32, (h as f64 * k) as u32);
    let big = crate::figure::figure_svg_scaled::<B>(charts, up(single), up(panel), k)?;
    let svg = rescale_svg(&big, k);
    let Some(caption) = caption.filter(|c| !c.is_empty()) else {
        return Ok(svg);
    };
    // grow the outer document by the caption line and write it there
    let head_end = svg.find('>').unwrap_or(0);
    let head = &svg[..head_end];
    let num = |name: &str| -> f64 {
        head.split(&format!(" {name}=\""))
            .nth(1)
            .and_then(|r| r.split('"').next())
            .and_then(parse_f64)
            .unwrap_or(0.0)
    };
    let (w, h) = (num("width"), num("height"));
    let h2 = h + CAPTION_PX;
    let new_head = format!(
        "<svg width=\"{w}\" height=\"{h2}\" viewBox=\"0 0 {w} {h2}\" xmlns=\"http://www.w3.org/2000/svg\""
    );
    let body = &svg[head_end..];
    let body = body.trim_end().trim_end_matches("</svg>");
    Ok(format!(
        "{new_head}{body}<rect x=\"0\" y=\"{h}\" width=\"{w}\" height=\"{CAPTION_PX}\" fill=\"#FFFFFF\"/>\n\
         <text x=\"8\" y=\"{y}\" font-family=\"sans-serif\" font-size=\"{CAPTION_FONT_PX}\" fill=\"#333333\">{}</text>\n</svg>\n",
        xml_text(caption),
        y = h + 15.0
    ))
}

/// Draws the whole figure on `root` (a bitmap of the export size × `scale`): a shared legend
/// band when the panels have one, the panels in the page's grid, and `caption` on a line under
/// them.
pub fn draw_figure<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    charts: &[ChartSpec],
    scale: f64,
    caption: Option<&str>,
) -> Result<(), DrawError>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let lists: Vec<&[Series]> = charts.iter().map(|c| c.series.as_slice()).collect();
    let legend = shared_legend(&lists);
    let style = Style {
        scale,
        legend: legend.is_none(),
    };
    let caption = caption.filter(|c| !c.is_empty());
    let area = match caption {
        Some(text) => {
            let (_, h) = root.dim_in_pixel();
            let band = (CAPTION_PX * scale).round() as u32;
            let (rest, line) = root.split_vertically(h.saturating_sub(band));
            let font = (FontFamily::SansSerif, CAPTION_FONT_PX * scale)
                .into_font()
                .color(&RGBColor(0x33, 0x33, 0x33))
                .pos(Pos::new(HPos::Left, VPos::Center));
            let room = line.dim_in_pixel().0 as f64 - 16.0 * scale;
            let shown = cut_to_fit(&line, text, room, CAPTION_FONT_PX, &style);
            line.draw_text(&shown, &font, ((8.0 * scale) as i32, (band / 2) as i32))?;
            rest
        }
        None => root.clone(),
    };
    let area = match &legend {
        Some(entries) => {
            let h = legend_band_height(&area, entries, &style);
            let (band, rest) = area.split_vertically(h);
            draw_legend_band(&band, entries, &style)?;
            rest
        }
        None => area,
    };
    let (w, h) = area.dim_in_pixel();
    let (rows, cols) = grid_for(charts.len(), w as f64, h as f64);
    for (c, a) in charts.iter().zip(area.split_evenly((rows, cols)).iter()) {
        draw_chart(a, c, &style)?;
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rescaling_divides_lengths_and_keeps_angles_and_text() {
        let svg = "<svg width=\"9000\" height=\"5600\" viewBox=\"0 0 9000 5600\">\
                   <polyline stroke=\"#0072B2\" stroke-width=\"15\" points=\"1234,5678 1235,5679 \"/>\
                   <text x=\"200\" y=\"2505\" transform=\"rotate(270, 200, 2505)\" font-size=\"130\">a=1 [N]</text>";
        let out = rescale_svg(svg, 10.0);
        assert!(out.contains("width=\"900\" height=\"560\" viewBox=\"0 0 900 560\""));
        assert!(out.contains("points=\"123.4,567.8 123.5,567.9 \""), "{out}");
        assert!(out.contains("stroke-width=\"1.5\""));
        assert!(out.contains("rotate(270, 20, 250.5)"), "{out}");
        assert!(out.contains("font-size=\"13\""));
        assert!(out.contains(">a=1 [N]</text>"));
        assert!(out.contains("stroke=\"#0072B2\""));
    }

    #[cfg(feature = "svg")]
    #[test]
    fn fine_svg_has_sub_pixel_points_and_the_caption() {
        let spec = crate::fixture::stribeck_chart(
            &friction_core::stribeck::Stribeck::TABLE_I,
            1.0,
            0.05,
            400,
        );
        let svg =
            figure_svg_fine(&[spec], (800, 500), (500, 380), Some("vs=0.03 & more")).expect("svg");
        assert!(
            svg.starts_with("<svg width=\"800\" height=\"522\""),
            "{}",
            &svg[..80]
        );
        assert!(svg.contains("vs=0.03 &amp; more"));
        let pts = svg
            .split("points=\"")
            .nth(1)
            .and_then(|p| p.split('"').next())
            .expect("a polyline");
        assert!(pts.split([' ', ',']).any(|n| n.contains('.')), "{pts}");
    }
}
