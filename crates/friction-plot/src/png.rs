//! The figure as a PNG (the CLI's `--png`, the link-card preview): plotters' bitmap backend with
//! text drawn from a bundled font.
//!
//! Why a wrapper and not plotters' own `ab_glyph`/`ttf` features: those replace plotters' text
//! measurement for every backend of the program, which would move every label of the CLI's SVG
//! (its corpus is compared byte for byte) and needs a font registered before any chart is drawn.
//! [`TextBackend`] measures and draws text itself, for this backend only, like the page's canvas:
//! a font of `size` CSS px, aligned by the same anchors (top, middle, bottom; start, centre, end)
//! and turned by the same quarter turns. The font is Noto Sans (the `notosans` crate), so the
//! picture is the same on every machine.
//!
//! The figure is drawn at [`SUPERSAMPLE`] times the asked size and averaged down, because the
//! bitmap backend strokes lines without anti-aliasing.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use plotters::prelude::*;
use plotters_backend::{
    text_anchor::{HPos, VPos},
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

use crate::{ChartSpec, DrawError};

/// Each PNG pixel is the mean of this many × this many drawn pixels.
pub const SUPERSAMPLE: u32 = 2;

/// The bundled font (Noto Sans Regular).
fn font() -> Result<FontRef<'static>, DrawError> {
    FontRef::try_from_slice(notosans::REGULAR_TTF).map_err(|e| DrawError::from(e.to_string()))
}

/// A drawing backend `B` whose text is measured and drawn with the bundled font.
pub struct TextBackend<B> {
    inner: B,
    font: FontRef<'static>,
}

impl<B> TextBackend<B> {
    /// Wraps `inner`; text goes through the bundled font.
    pub fn new(inner: B) -> Result<Self, DrawError> {
        Ok(TextBackend {
            inner,
            font: font()?,
        })
    }

    /// ab_glyph's scale for a font of `size` CSS px (the em, as the canvas sizes a font):
    /// ab_glyph scales by the line's height, ascent − descent, which is more than an em.
    fn scale(&self, size: f64) -> PxScale {
        let em = f64::from(self.font.units_per_em().unwrap_or(1000.0));
        PxScale::from((size * f64::from(self.font.height_unscaled()) / em) as f32)
    }

    /// The advance width of `text` and the font's line box (ascent − descent) at `size` px,
    /// with the ascent.
    fn metrics(&self, text: &str, size: f64) -> (f64, f64, f64) {
        let f = self.font.as_scaled(self.scale(size));
        let mut width = 0.0f32;
        let mut last = None;
        for c in text.chars() {
            let id = f.glyph_id(c);
            if let Some(prev) = last {
                width += f.kern(prev, id);
            }
            width += f.h_advance(id);
            last = Some(id);
        }
        let (ascent, descent) = (f.ascent() as f64, f.descent() as f64);
        (width as f64, ascent - descent, ascent)
    }
}

impl<B: DrawingBackend> DrawingBackend for TextBackend<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.present()
    }
    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    /// A wide path as segments with round joins: the bitmap backend's own wide path mitres
    /// every corner, and where a curve turns back (a stick-slip run's F–v panel) the mitre
    /// shoots off across the figure.
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        let width = style.stroke_width();
        if width <= 1 {
            return self.inner.draw_path(path, style);
        }
        let points: Vec<BackendCoord> = path.into_iter().collect();
        for pair in points.windows(2) {
            self.inner.draw_line(pair[0], pair[1], style)?;
        }
        let radius = width / 2;
        if radius >= 1 && points.len() > 2 {
            for p in &points[1..points.len() - 1] {
                self.inner.draw_circle(*p, radius, style, true)?;
            }
        }
        Ok(())
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.fill_polygon(vert, style)
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (iw, ih): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.blit_bitmap(pos, (iw, ih), src)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<B::ErrorType>> {
        let (w, h, _) = self.metrics(text, style.size());
        Ok((w.ceil() as u32, h.ceil() as u32))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let size = style.size();
        let (width, height, ascent) = self.metrics(text, size);
        // the baseline's start in the text's own (unturned) frame, relative to `pos`, as the
        // canvas places it for its textAlign and textBaseline
        let x0 = match style.anchor().h_pos {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        let base = match style.anchor().v_pos {
            VPos::Top => ascent,
            VPos::Center => ascent - height / 2.0,
            VPos::Bottom => ascent - height,
        };
        let turn = style.transform();
        let f = self.font.as_scaled(self.scale(size));
        let mut pen = x0 as f32;
        let mut last = None;
        let mut coverage: Vec<(i32, i32, f32)> = Vec::new();
        for c in text.chars() {
            let id = f.glyph_id(c);
            if let Some(prev) = last {
                pen += f.kern(prev, id);
            }
            let glyph = id.with_scale_and_position(f.scale(), ab_glyph::point(pen, base as f32));
            pen += f.h_advance(id);
            last = Some(id);
            if let Some(outline) = self.font.outline_glyph(glyph) {
                let b = outline.px_bounds();
                outline.draw(|gx, gy, v| {
                    if v > 0.0 {
                        coverage.push((b.min.x as i32 + gx as i32, b.min.y as i32 + gy as i32, v));
                    }
                });
            }
        }
        for (lx, ly, v) in coverage {
            let (dx, dy) = turn.transform(lx, ly);
            let c = BackendColor {
                alpha: color.alpha * f64::from(v.min(1.0)),
                rgb: color.rgb,
            };
            self.inner.draw_pixel((pos.0 + dx, pos.1 + dy), c)?;
        }
        Ok(())
    }
}

/// The figure of `charts` as PNG bytes, `size` CSS px at `scale` device pixels per CSS px: the
/// export's drawing ([`crate::export::draw_figure`], the page's "Export PNG"), with `caption` (if
/// any) on a line under the panels.
pub fn figure_png(
    charts: &[ChartSpec],
    size: (u32, u32),
    scale: f64,
    caption: Option<&str>,
) -> Result<Vec<u8>, DrawError> {
    let k = SUPERSAMPLE;
    let (w, h) = (
        (f64::from(size.0) * scale).round() as u32,
        (f64::from(size.1) * scale).round() as u32,
    );
    let (bw, bh) = (w * k, h * k);
    let mut big = vec![255u8; (bw * bh * 3) as usize];
    {
        let bitmap = BitMapBackend::with_buffer(&mut big, (bw, bh));
        let root = TextBackend::new(bitmap)?.into_drawing_area();
        crate::export::draw_figure(&root, charts, scale * f64::from(k), caption)?;
    }
    // each output pixel the mean of its k × k drawn pixels
    let mut rgb = vec![0u8; (w * h * 3) as usize];
    for y in 0..h {
        for x in 0..w {
            for ch in 0..3 {
                let mut sum = 0u32;
                for sy in 0..k {
                    for sx in 0..k {
                        sum += u32::from(big[(((y * k + sy) * bw + x * k + sx) * 3 + ch) as usize]);
                    }
                }
                rgb[((y * w + x) * 3 + ch) as usize] = ((sum + k * k / 2) / (k * k)) as u8;
            }
        }
    }
    let mut out = Vec::new();
    {
        let mut enc = ::png::Encoder::new(&mut out, w, h);
        enc.set_color(::png::ColorType::Rgb);
        enc.set_depth(::png::BitDepth::Eight);
        let mut writer = enc
            .write_header()
            .map_err(|e| DrawError::from(e.to_string()))?;
        writer
            .write_image_data(&rgb)
            .map_err(|e| DrawError::from(e.to_string()))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_path_that_turns_back_stays_within_its_points_and_width() {
        let (w, h) = (400u32, 100u32);
        let mut buf = vec![255u8; (w * h * 3) as usize];
        {
            let bitmap = BitMapBackend::with_buffer(&mut buf, (w, h));
            let mut b = TextBackend::new(bitmap).expect("the bundled font");
            let style = ShapeStyle::from(&BLACK).stroke_width(6);
            b.draw_path(vec![(20, 50), (200, 50), (22, 53)], &style)
                .expect("drawn");
            b.present().expect("presented");
        }
        let inked = |x: u32, y: u32| buf[((y * w + x) * 3) as usize] < 128;
        let right = (0..w)
            .filter(|&x| (0..h).any(|y| inked(x, y)))
            .max()
            .expect("something drawn");
        // the turn's mitre would reach far beyond x = 200; a round join ends at 200 + 3
        assert!(right <= 204, "ink up to x = {right}");
        assert!(inked(100, 50) && inked(200, 50));
    }

    #[test]
    fn text_is_drawn_where_the_canvas_would_put_it() {
        let (w, h) = (300u32, 60u32);
        let mut buf = vec![255u8; (w * h * 3) as usize];
        {
            let bitmap = BitMapBackend::with_buffer(&mut buf, (w, h));
            let root = TextBackend::new(bitmap).expect("font").into_drawing_area();
            let font = ("sans-serif", 20.0).into_font().color(&BLACK).pos(
                plotters::style::text_anchor::Pos::new(HPos::Center, VPos::Center),
            );
            root.draw_text("Friction", &font, (150, 30)).expect("drawn");
            root.present().expect("presented");
        }
        let inked: Vec<(u32, u32)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| buf[((y * w + x) * 3) as usize] < 128)
            .collect();
        assert!(inked.len() > 100, "{} px of text", inked.len());
        let (x0, x1) = (
            inked.iter().map(|p| p.0).min().unwrap_or(0),
            inked.iter().map(|p| p.0).max().unwrap_or(0),
        );
        let (y0, y1) = (
            inked.iter().map(|p| p.1).min().unwrap_or(0),
            inked.iter().map(|p| p.1).max().unwrap_or(0),
        );
        // centred on (150, 30) within a few px, about as wide as 8 letters of 20 px
        assert!(((x0 + x1) as i32 / 2 - 150).abs() <= 3, "{x0}..{x1}");
        assert!(((y0 + y1) as i32 / 2 - 30).abs() <= 4, "{y0}..{y1}");
        assert!((60..110).contains(&(x1 - x0)), "{x0}..{x1}");
    }
}
