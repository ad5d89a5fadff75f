//! Text that fits: captions and axis descriptions shrunk, shortened to their symbol or cut with
//! "…", notes wrapped at spaces, and the white boxes legends and notes are drawn in.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::legend::Corner;
use crate::{DrawError, Style};

/// Where a text box goes in the plotting area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// 5 px from a corner.
    Corner(Corner),
    /// In the middle (a plot with nothing else in it).
    Centre,
}

/// A white, grey-bordered box of `lines` at `place` in `area` (10 px margin, lines 1.25 font
/// sizes apart, `lead` px left of the texts), as [`measure_text_box`] `measured` it; returns
/// each line's left edge and vertical middle, for the legend's samples.
pub(crate) fn draw_text_box<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    lines: &[&str],
    measured: BoxSize,
    lead: i32,
    place: Place,
    font: &TextStyle<'_>,
) -> Result<Vec<(i32, i32)>, DrawError>
where
    DB::ErrorType: 'static,
{
    let (w, h, sizes) = measured;
    let (aw, ah) = area.dim_in_pixel();
    let (aw, ah) = (aw as i32, ah as i32);
    let (x, y) = match place {
        Place::Corner(Corner::UpperRight) => (aw - w - 5, 5),
        Place::Corner(Corner::UpperLeft) => (5, 5),
        Place::Corner(Corner::LowerRight) => (aw - w - 5, ah - h - 5),
        Place::Corner(Corner::LowerLeft) => (5, ah - h - 5),
        Place::Centre => ((aw - w) / 2, (ah - h) / 2),
    };
    let bg = WHITE.mix(0.85).filled();
    area.draw(&Rectangle::new([(x, y), (x + w, y + h)], bg))?;
    let border = RGBColor(0xBB, 0xBB, 0xBB);
    area.draw(&Rectangle::new([(x, y), (x + w, y + h)], border))?;
    let (tx, ty) = (x + lead + BOX_MARGIN, y + BOX_MARGIN);
    let line_h = font.font.get_size() * 1.25;
    let row_y = |i: usize| (f64::from(ty) + i as f64 * line_h).round() as i32;
    // all texts first, then the caller's samples: the order plotters draws a legend in (the
    // same SVG)
    for (i, line) in lines.iter().enumerate() {
        area.draw(&Text::new(*line, (tx, row_y(i)), font.clone()))?;
    }
    Ok(sizes
        .iter()
        .enumerate()
        .map(|(i, (_, th))| (tx, (row_y(i) + row_y(i) + th) / 2))
        .collect())
}

/// Space between a text box's border and its texts \[px\].
const BOX_MARGIN: i32 = 10;

/// Width and height of a text box, and each line's text size \[px\].
pub(crate) type BoxSize = (i32, i32, Vec<(i32, i32)>);

/// Width and height of [`draw_text_box`]'s box for `lines`, and each line's text size \[px\].
pub(crate) fn measure_text_box<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    lines: &[&str],
    lead: i32,
    font: &TextStyle<'_>,
) -> Result<BoxSize, DrawError>
where
    DB::ErrorType: 'static,
{
    let line_h = font.font.get_size() * 1.25;
    let line_y = |i: usize| (i as f64 * line_h).round() as i32;
    let mut sizes = Vec::with_capacity(lines.len());
    for line in lines {
        let (w, h) = area.estimate_text_size(line, font)?;
        sizes.push((w as i32, h as i32));
    }
    let text_w = sizes.iter().map(|s| s.0).max().unwrap_or(0).max(0);
    let text_h = sizes
        .iter()
        .enumerate()
        .map(|(i, s)| line_y(i) + s.1)
        .max()
        .unwrap_or(0)
        .max(0);
    Ok((
        text_w + lead + 2 * BOX_MARGIN,
        text_h + 2 * BOX_MARGIN,
        sizes,
    ))
}

/// The caption and its font size \[CSS px\] for a chart `root` wide: `size` (17 px on a
/// full-size panel), smaller down to 12 px on a narrow panel, then the caption's head before
/// a definition or gloss (`"Lyapunov function W = ½ m s² + V(x̃)"` → `"Lyapunov function W"`)
/// if that fits, and only then cut with "…", so captions of neighbouring panels do not run
/// into each other (six stick-slip panels in an embedded frame are ~180 px wide each).
pub(crate) fn fit_caption<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    size: f64,
    style: &Style,
) -> (String, f64) {
    let room = root.dim_in_pixel().0 as f64 - style.scale * 8.0;
    let (text, fitted) = fit_text(root, title, room, size, style);
    if text == title {
        return (text, fitted);
    }
    for head in [" (", " = "]
        .iter()
        .filter_map(|sep| head_before(title, sep))
    {
        let (short, short_size) = fit_text(root, head, room, size, style);
        if short == head {
            return (short, short_size);
        }
    }
    (text, fitted)
}

/// The part of `text` before `sep` (a gloss, a definition or a qualifier follows it), trimmed;
/// `None` without `sep` or with nothing before it.
pub(crate) fn head_before<'a>(text: &'a str, sep: &str) -> Option<&'a str> {
    let (head, _) = text.split_once(sep)?;
    let head = head.trim_end();
    (!head.trim_start().is_empty()).then_some(head)
}

/// An axis description to fit `room` device pixels at `size` CSS px: the whole label if it
/// fits, else its short form (`"friction force F [N]"` → `"F [N]"`, see
/// [`short_label`]), cut with "…" only if even that is too long.
///
/// The size is the panel's ([`FrameSizes`]), not shrunk per label, so that neighbouring panels
/// keep one font; a phone in landscape had cut the rotated "position x [m]" to "posi…", which
/// names neither the quantity nor the unit.
pub(crate) fn fit_axis_label<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    label: &str,
    room: f64,
    size: f64,
    style: &Style,
) -> String {
    if text_width(root, label, size, style) <= room {
        return label.to_string();
    }
    let short = short_label(label).unwrap_or_else(|| label.to_string());
    cut_to_fit(root, &short, room, size, style)
}

/// The short form of an axis label: its symbol and unit bracket, or its head before a
/// qualifying clause. `words symbol [unit]` → `symbol [unit]` (`"relative velocity v [m/s]"` →
/// `"v [m/s]"`); a definition `symbol = formula [unit]` → `symbol [unit]` (`"q̃ = q − q_d [rad]"`
/// → `"q̃ [rad]"`); a label without a unit bracket loses what follows its first comma
/// (`"log₁₀ (W / 1 J), floor 10⁻¹² W(0)"` → `"log₁₀ (W / 1 J)"`). `None` when none of these
/// applies, or when the words are not a name the symbol stands for: a phrase ending in a
/// preposition (`"displacement at F_b [m]"`, where F_b is not the displacement).
fn short_label(label: &str) -> Option<String> {
    const BINDING: [&str; 8] = ["at", "of", "to", "per", "in", "on", "for", "from"];
    let Some(open) = label.find('[') else {
        return head_before(label, ", ").map(str::to_string);
    };
    let head = label[..open].trim_end();
    if let Some((symbol, formula)) = head.split_once(" = ") {
        let symbol = symbol.trim();
        return (!symbol.is_empty() && !symbol.contains(' ') && !formula.trim().is_empty())
            .then(|| format!("{symbol} {}", &label[open..]));
    }
    let (words, symbol) = head.rsplit_once(' ')?;
    let words = words.trim();
    let is_name = words
        .chars()
        .all(|c| c.is_alphabetic() || c == ' ' || c == '\'' || c == '-');
    let last = words.rsplit(' ').next().unwrap_or("");
    if words.is_empty() || symbol.is_empty() || !is_name || BINDING.contains(&last) {
        return None;
    }
    Some(format!("{symbol} {}", &label[open..]))
}

/// `text` and its font size [CSS px] to fit `room` device pixels: `size`, smaller down to 10 px
/// (12 px for sizes above 14, i.e. captions), then cut with "…".
fn fit_text<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    text: &str,
    room: f64,
    size: f64,
    style: &Style,
) -> (String, f64) {
    let smallest = if size > 14.0 { 12.0 } else { 10.0 };
    let mut size = size;
    while size > smallest && text_width(root, text, size, style) > room {
        size -= 1.0;
    }
    (cut_to_fit(root, text, room, size, style), size)
}

/// Width in device pixels of `text` at `size` CSS px as the backend lays it out (about 0.55 em
/// per character if it cannot say).
pub(crate) fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    size: f64,
    style: &Style,
) -> f64 {
    let font: TextStyle<'_> = (FontFamily::SansSerif, style.px(size)).into_font().into();
    area.estimate_text_size(text, &font)
        .map(|(w, _)| w as f64)
        .unwrap_or(0.55 * size * style.scale * text.chars().count() as f64)
}

/// `text`, cut with "…" until it is at most `room` device pixels wide at `size` CSS px (at
/// least four characters stay).
pub(crate) fn cut_to_fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    room: f64,
    size: f64,
    style: &Style,
) -> String {
    let mut out = text.to_string();
    let mut n = text.chars().count();
    while n > 4 && text_width(area, &out, size, style) > room {
        n -= 1;
        out = fit_label(text, n);
    }
    out
}

/// `text` broken at spaces into lines of at most `max_chars` characters (a longer word cut with
/// "…"), so that a note stays whole in a narrow panel rather than losing its end.
pub(crate) fn wrap_words(text: &str, max_chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let (n, w) = (line.chars().count(), word.chars().count());
        if n > 0 && n + 1 + w > max_chars {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&fit_label(word, max_chars));
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `label` cut to at most `max_chars` characters, the last being "…" when it was cut.
pub(crate) fn fit_label(label: &str, max_chars: usize) -> String {
    if label.chars().count() <= max_chars {
        return label.to_string();
    }
    let mut s: String = label.chars().take(max_chars.saturating_sub(1)).collect();
    s.truncate(s.trim_end().len());
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ticks::tick_count;

    #[test]
    fn notes_wrap_at_spaces_and_keep_every_word() {
        let text = "Dahl: F has no peak, so no x_b";
        assert_eq!(wrap_words(text, 40), [text]);
        let lines = wrap_words(text, 14);
        assert_eq!(lines, ["Dahl: F has no", "peak, so no", "x_b"]);
        assert!(lines.iter().all(|l| l.chars().count() <= 14));
        assert_eq!(lines.join(" "), text);
        assert_eq!(
            wrap_words("Bliman-Sorine-2: no peak", 8),
            ["Bliman-…", "no peak"]
        );
        assert!(wrap_words("", 8).is_empty());
    }

    #[test]
    fn short_labels_keep_symbol_and_unit() {
        assert_eq!(
            short_label("friction force F [×10⁻⁴ + 1.499 N]").as_deref(),
            Some("F [×10⁻⁴ + 1.499 N]")
        );
        assert_eq!(
            short_label("relative velocity v [m/s]").as_deref(),
            Some("v [m/s]")
        );
        assert_eq!(
            short_label("displacement since the cycle's start x [m]").as_deref(),
            Some("x [m]")
        );
        assert_eq!(short_label("x [m]"), None);
        assert_eq!(short_label("displacement at F_b [m]"), None);
        assert_eq!(
            short_label("displacement at the peak x_b [×10⁻⁵ m]").as_deref(),
            Some("x_b [×10⁻⁵ m]")
        );
        assert_eq!(short_label("q̃ = q − q_d [rad]").as_deref(), Some("q̃ [rad]"));
        assert_eq!(
            short_label("log₁₀ (W / 1 J), floor 10⁻¹² W(0)").as_deref(),
            Some("log₁₀ (W / 1 J)")
        );
        assert_eq!(short_label("a b = c [m]"), None);
        assert_eq!(short_label("ratio"), None);
        assert_eq!(short_label("[m]"), None);
    }

    #[test]
    fn captions_and_tick_counts_fit_narrow_panels() {
        let title = "Friction force against relative velocity";
        let mut s = String::new();
        let wide = SVGBackend::with_string(&mut s, (600, 400)).into_drawing_area();
        assert_eq!(
            fit_caption(&wide, title, 17.0, &Style::default()),
            (title.to_string(), 17.0)
        );
        drop(wide);
        let mut s = String::new();
        let narrow = SVGBackend::with_string(&mut s, (180, 300)).into_drawing_area();
        let (text, size) = fit_caption(&narrow, title, 17.0, &Style::default());
        assert_eq!(size, 12.0);
        assert!(
            text.ends_with('…') && text.chars().count() < title.chars().count(),
            "{text}"
        );
        // a definition or gloss goes before anything is cut
        let lyapunov = "Lyapunov function W = ½ m s² + V(x̃) + ½ k₂⁻¹ e²";
        assert_eq!(
            fit_caption(&narrow, lyapunov, 17.0, &Style::default()).0,
            "Lyapunov function W"
        );
        // twice the device pixels at DPR 2: the same fit
        drop(narrow);
        let mut s = String::new();
        let hidpi = SVGBackend::with_string(&mut s, (360, 600)).into_drawing_area();
        let two = Style {
            scale: 2.0,
            ..Style::default()
        };
        assert_eq!(fit_caption(&hidpi, title, 17.0, &two).1, 12.0);
        // an axis description longer than its side shrinks to 10 px, then is cut
        let mut s = String::new();
        let area = SVGBackend::with_string(&mut s, (300, 200)).into_drawing_area();
        let label = "acceleration ẍ [m/s²]";
        assert_eq!(
            fit_text(&area, label, 400.0, 13.0, &Style::default()),
            (label.into(), 13.0)
        );
        let (short, size) = fit_text(&area, label, 90.0, 13.0, &Style::default());
        assert_eq!(size, 10.0);
        assert!(short.ends_with('…'), "{short}");
        // as an axis description it keeps its symbol and unit instead
        assert_eq!(
            fit_axis_label(&area, label, 90.0, 13.0, &Style::default()),
            "ẍ [m/s²]"
        );
        assert_eq!(
            fit_axis_label(&area, label, 400.0, 13.0, &Style::default()),
            label
        );
        let cut = fit_axis_label(&area, label, 30.0, 13.0, &Style::default());
        assert!(cut.ends_with('…'), "{cut}");
        drop(area);
        assert_eq!(tick_count(180, &Style::default(), 70.0), 3);
        assert_eq!(tick_count(360, &two, 70.0), 3);
        assert_eq!(tick_count(900, &Style::default(), 70.0), 8);
    }
}
