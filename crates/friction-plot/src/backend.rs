//! One backend type for a screen backend and the SVG export, so the chart code is compiled once.
//!
//! Why: every chart function is generic over plotters' `DrawingBackend`, so a program that draws
//! on a canvas and also exports SVG carries two compiled copies of all of it (in the page's
//! wasm about 40 KB raw). [`EitherBackend`] is either the program's own backend or an SVG one and
//! forwards every call unchanged, so the page draws its canvas through `EitherBackend<Canvas>`
//! and exports through the same type: one copy, the same pixels and the same SVG text.

use plotters::prelude::SVGBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// (family, style, size bits, text): what a measured text size depends on.
type TextKey = (String, String, u64, String);

/// Distinct texts kept before the cache starts over (a long drag through many tick values).
const TEXT_SIZES_CAPACITY: usize = 4096;

/// Measures a text's box \[px\] (width, height) for a CSS font family, style and size \[px\], in
/// place of plotters' own measurement; `None` falls back to it.
pub type TextMeasurer = fn(family: &str, style: &str, size: f64, text: &str) -> Option<(u32, u32)>;

/// Installs the program's text measurer (the page's: canvas `measureText`, no page layout).
pub fn set_text_measurer(m: TextMeasurer) {
    MEASURER.with(|c| c.set(Some(m)));
}

/// Runs `f` with every text's size estimated from its font size alone, neither measured nor
/// cached: a run of the chart code that only has it compiled (the page's rehearsal of a first
/// drawing) then costs no font lookup and leaves no wrong size behind.
pub fn estimating_text<R>(f: impl FnOnce() -> R) -> R {
    ESTIMATING.with(|e| e.set(true));
    let r = f();
    ESTIMATING.with(|e| e.set(false));
    r
}

thread_local! {
    /// Inside [`estimating_text`].
    static ESTIMATING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The program's text measurer, if any ([`set_text_measurer`]).
    static MEASURER: std::cell::Cell<Option<TextMeasurer>> = const { std::cell::Cell::new(None) };
    /// Text sizes \[px\] as the backend measured them ([`EitherBackend`]'s
    /// `estimate_text_size`).
    static TEXT_SIZES: std::cell::RefCell<std::collections::HashMap<TextKey, (u32, u32)>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// The program's backend `B`, or an SVG backend writing into a string.
pub enum EitherBackend<'a, B> {
    /// The program's own backend (the page: a canvas).
    Main(B),
    /// An SVG document being written.
    Svg(SVGBackend<'a>),
}

impl<'a, B> EitherBackend<'a, B> {
    /// An SVG document of `size` pixels written into `buf`.
    pub fn svg(buf: &'a mut String, size: (u32, u32)) -> Self {
        EitherBackend::Svg(SVGBackend::with_string(buf, size))
    }
}

/// The error of either backend.
pub enum EitherError<E> {
    /// From the program's backend.
    Main(E),
    /// From the SVG backend.
    Svg(std::io::Error),
}

impl<E: std::fmt::Display> std::fmt::Display for EitherError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EitherError::Main(e) => e.fmt(f),
            EitherError::Svg(e) => e.fmt(f),
        }
    }
}

// Debug prints the Display text: a derived Debug would format `std::io::Error` with its own Debug,
// which pulls the Unicode escape tables of `str`'s Debug into the page's wasm (~10 KB gzip).
impl<E: std::fmt::Display> std::fmt::Debug for EitherError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl<E: std::error::Error> std::error::Error for EitherError<E> {}

/// A backend error wrapped into [`EitherError`] by `wrap`.
fn wrap<E, F>(e: DrawingErrorKind<E>, wrap: impl FnOnce(E) -> F) -> DrawingErrorKind<F>
where
    E: std::error::Error + Send + Sync,
    F: std::error::Error + Send + Sync,
{
    match e {
        DrawingErrorKind::DrawingError(e) => DrawingErrorKind::DrawingError(wrap(e)),
        DrawingErrorKind::FontError(f) => DrawingErrorKind::FontError(f),
    }
}

/// Calls `$call` on whichever backend `$self` holds and wraps its error.
macro_rules! either {
    ($self:ident, $b:ident => $call:expr) => {
        match $self {
            EitherBackend::Main($b) => $call.map_err(|e| wrap(e, EitherError::Main)),
            EitherBackend::Svg($b) => $call.map_err(|e| wrap(e, EitherError::Svg)),
        }
    };
}

impl<B: DrawingBackend> DrawingBackend for EitherBackend<'_, B> {
    type ErrorType = EitherError<B::ErrorType>;

    fn get_size(&self) -> (u32, u32) {
        match self {
            EitherBackend::Main(b) => b.get_size(),
            EitherBackend::Svg(b) => b.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        either!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        either!(self, b => b.present())
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        either!(self, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        either!(self, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        either!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        either!(self, b => b.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        either!(self, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        either!(self, b => b.fill_polygon(vert, style))
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        either!(self, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        // In the browser plotters measures text by inserting a `<span>` and reading its
        // `offsetWidth`, a layout of the whole page per tick label (most of a 470 ms frame in a
        // trace of a fuzzed stick-slip link). The page installs a measurer without layout
        // ([`set_text_measurer`]); labels repeat from frame to frame, so each distinct text is
        // also measured once. Neither backend overrides the measurement, so one cache serves
        // both.
        if ESTIMATING.with(std::cell::Cell::get) {
            let size = style.size();
            let w = text.chars().count() as f64 * 0.6 * size;
            return Ok((w.ceil() as u32, (1.2 * size).ceil() as u32));
        }
        let key = (
            style.family().as_str().to_string(),
            style.style().as_str().to_string(),
            style.size().to_bits(),
            text.to_string(),
        );
        if let Some(size) = TEXT_SIZES.with(|c| c.borrow().get(&key).copied()) {
            return Ok(size);
        }
        let own = MEASURER
            .with(std::cell::Cell::get)
            .and_then(|m| m(&key.0, &key.1, style.size(), text));
        let size = match own {
            Some(size) => size,
            None => either!(self, b => b.estimate_text_size(text, style))?,
        };
        TEXT_SIZES.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= TEXT_SIZES_CAPACITY {
                c.clear();
            }
            c.insert(key, size);
        });
        Ok(size)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (iw, ih): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        either!(self, b => b.blit_bitmap(pos, (iw, ih), src))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::style::{IntoFont, TextStyle};

    /// A measurer with sizes no estimate gives: a size seen from it was measured.
    fn measured(_: &str, _: &str, _: f64, text: &str) -> Option<(u32, u32)> {
        Some((1000 + text.len() as u32, 77))
    }

    #[test]
    fn estimated_sizes_are_neither_measured_nor_kept() {
        set_text_measurer(measured);
        let mut buf = String::new();
        let b: EitherBackend<'_, SVGBackend<'_>> = EitherBackend::svg(&mut buf, (200, 100));
        let style: TextStyle<'_> = ("sans-serif", 13.0).into_font().into();
        // a text this test alone uses, so no other test has put its size in the cache
        let text = "estimated 0.5 μ";
        let est = estimating_text(|| b.estimate_text_size(text, &style));
        let est = est.expect("an estimate");
        assert!(
            est.0 < 1000 && est.1 > 0 && est.1 < 77,
            "estimated: {est:?}"
        );
        let after = b.estimate_text_size(text, &style).expect("a size");
        assert_eq!(
            after,
            (1000 + text.len() as u32, 77),
            "measured, not the estimate kept"
        );
        // estimating asks neither the measurer nor the cache, whatever they hold
        let again = estimating_text(|| b.estimate_text_size(text, &style));
        assert_eq!(again.expect("an estimate"), est);
    }
}
