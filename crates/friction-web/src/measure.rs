//! A drawing backend that remembers text sizes: plotters measures text in the browser by
//! inserting a `<span>` into the page and reading its `offsetWidth`/`offsetHeight`, which forces
//! a style and layout pass of the whole page for every tick label, title and legend entry. A
//! trace of a stick-slip link spent 390 ms of one frame there (`clientWidth`/`offsetHeight`
//! from wasm). Labels repeat from frame to frame, so each distinct text is measured once.

use std::cell::RefCell;
use std::collections::HashMap;

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// Distinct texts kept before the cache starts over (a long drag through many tick values).
const CAPACITY: usize = 4096;

/// (family, style, size bits, text): what a text's measured size depends on.
type Key = (String, String, u64, String);

thread_local! {
    /// Key → (width, height) \[px\], as plotters measured them.
    static SIZES: RefCell<HashMap<Key, (u32, u32)>> = RefCell::new(HashMap::new());
}

/// `B` with [`DrawingBackend::estimate_text_size`] answered from the cache; every drawing call
/// goes to `B` unchanged.
pub struct Measured<B>(pub B);

impl<B: DrawingBackend> DrawingBackend for Measured<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.present()
    }
    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.fill_polygon(vert, style)
    }
    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.draw_text(text, style, pos)
    }
    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        let key = (
            style.family().as_str().to_string(),
            style.style().as_str().to_string(),
            style.size().to_bits(),
            text.to_string(),
        );
        if let Some(size) = SIZES.with(|c| c.borrow().get(&key).copied()) {
            return Ok(size);
        }
        let size = self.0.estimate_text_size(text, style)?;
        SIZES.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= CAPACITY {
                c.clear();
            }
            c.insert(key, size);
        });
        Ok(size)
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.0.blit_bitmap(pos, size, src)
    }
}
