//! Axis ranges: padded around the data, flat where the spread is round-off, and kept still while a
//! slider moves ([`stable_range`]).

use crate::{ChartSpec, Series};

/// [`axis_range`] of data whose natural scale is unknown.
pub fn padded_range(lo: f64, hi: f64) -> (f64, f64) {
    axis_range(lo, hi, 0.0)
}

/// The axis range for data spanning `lo..hi`, padded by 5 % each side, for a quantity whose
/// meaningful values are about `scale` (0: unknown).
///
/// Degenerate data never get an axis that magnifies round-off: a range narrower than
/// [`FLAT_SPAN`] of the larger of its magnitude and `scale` is drawn as a constant, on an axis
/// of ±50 % around it with ordinary ticks (zooming into such a spread drew Coulomb's constant
/// breakaway force as a rising curve on an axis reading "×10⁻¹⁴ + 0.98099…", and the sweep's
/// loop area of a static law as a zigzag of 10⁻¹⁷ N·m/s); a constant zero (to that resolution)
/// gets a symmetric axis of `scale` rounded up to 1, 2 or 5 × 10ⁿ, or ±1 in the axis unit
/// where the scale is unknown (an exact zero drew "displacement x [×10⁻¹³ m]"). Every
/// computation here runs at a relative tolerance of 1e-8 or looser, so 1e-9 of a value is
/// noise.
pub fn axis_range(lo: f64, hi: f64, scale: f64) -> (f64, f64) {
    let scale = if scale.is_finite() { scale.abs() } else { 0.0 };
    if !(lo.is_finite() && hi.is_finite()) {
        let half = nice_half(scale);
        return (-half, half);
    }
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    let span = hi - lo;
    let size = lo.abs().max(hi.abs());
    if span > FLAT_SPAN * size.max(scale) {
        let pad = 0.05 * span;
        return (lo - pad, hi + pad);
    }
    let mid = 0.5 * (lo + hi);
    if mid == 0.0 || mid.abs() <= FLAT_SPAN * scale {
        let half = nice_half(scale);
        return (-half, half);
    }
    let pad = 0.5 * mid.abs();
    (mid - pad, mid + pad)
}

/// Half-width of the axis of an all-zero series: `scale` rounded up to 1, 2 or 5 × 10ⁿ, or 1
/// (the axis unit) for an unknown scale.
fn nice_half(scale: f64) -> f64 {
    if !(scale > 0.0 && scale.is_finite()) {
        return 1.0;
    }
    let p = 10f64.powi(scale.log10().floor() as i32);
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&h| h >= scale * (1.0 - 1e-12))
        .unwrap_or(10.0 * p)
}

/// Relative spread of a data range below which [`padded_range`] treats it as constant.
pub const FLAT_SPAN: f64 = 1e-9;

/// Bounds of all finite points of `series`: (x_lo, x_hi, y_lo, y_hi) (x ≤ 0 kept: log axes do
/// not use the x bounds). The page fits its axes to these ([`fitted_axes`]).
pub fn data_bounds(series: &[Series]) -> (f64, f64, f64, f64) {
    let (mut xlo, mut xhi, mut ylo, mut yhi) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for s in series {
        for &(x, y) in &s.points {
            if x.is_finite() && y.is_finite() {
                xlo = xlo.min(x);
                xhi = xhi.max(x);
                ylo = ylo.min(y);
                yhi = yhi.max(y);
            }
        }
    }
    (xlo, xhi, ylo, yhi)
}

/// The (x, y) ranges the page gives a chart when it first fits its axes to the data (a new
/// link, a reset; [`stable_range`] with no current range): a log x axis keeps the spec's.
pub fn fitted_axes(spec: &ChartSpec) -> ((f64, f64), (f64, f64)) {
    let (xlo, xhi, ylo, yhi) = data_bounds(&spec.series);
    let x = if spec.x_log {
        spec.x_range
    } else {
        stable_range(None, xlo, xhi, 0.0, false)
    };
    (x, stable_range(None, ylo, yhi, spec.y_scale, false))
}

/// Keeps the current axis range while the data stay inside it, so the plot does not jump while
/// a slider moves; otherwise returns the padded range of the data.
///
/// With `tighten`, a range more than about three times wider than the data is also refitted
/// (used when a slider is released, so the scale follows big changes once the hand stops).
///
/// `scale` is the quantity's natural scale ([`ChartSpec::y_scale`] on a y axis; 0: unknown),
/// as in [`axis_range`].
pub fn stable_range(
    current: Option<(f64, f64)>,
    lo: f64,
    hi: f64,
    scale: f64,
    tighten: bool,
) -> (f64, f64) {
    let fresh = axis_range(lo, hi, scale);
    let Some((c0, c1)) = current else {
        return fresh;
    };
    if !(lo.is_finite() && hi.is_finite()) {
        return (c0, c1);
    }
    let inside = lo >= c0 && hi <= c1;
    let loose = (c1 - c0) > 3.0 * (fresh.1 - fresh.0);
    if inside && !(tighten && loose) {
        (c0, c1)
    } else {
        fresh
    }
}

/// Smallest and largest finite value (±∞ reversed when there is none).
pub(crate) fn finite_bounds<'a>(vals: impl Iterator<Item = &'a f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &v in vals {
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    (lo, hi)
}

/// [`padded_range`] of the finite values.
pub(crate) fn range_of<'a>(vals: impl Iterator<Item = &'a f64>) -> (f64, f64) {
    let (lo, hi) = finite_bounds(vals);
    padded_range(lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_off_spreads_are_drawn_flat() {
        // Coulomb's breakaway force over twelve rates: 0.981 with a 6e-14 N spread
        let (lo, hi) = padded_range(0.981_000_000_000_000_4, 0.981_000_000_000_061);
        assert!(
            (lo - 0.4905).abs() < 1e-9 && (hi - 1.4715).abs() < 1e-9,
            "{lo} {hi}"
        );
        assert_eq!(padded_range(2.0, 2.0), (1.0, 3.0));
        // an exact zero: a symmetric axis in the quantity's unit, or of its natural scale
        assert_eq!(padded_range(0.0, 0.0), (-1.0, 1.0));
        assert_eq!(axis_range(0.0, 0.0, 1e-6), (-1e-6, 1e-6));
        assert_eq!(axis_range(0.0, 0.0, 0.03), (-0.05, 0.05));
        // round-off about zero of a quantity whose values are about 0.04 (a loop area)
        assert_eq!(axis_range(-3.7e-18, 1.9e-17, 0.04), (-0.05, 0.05));
        // a tiny constant that is not round-off of its scale keeps its ±50 %
        let (lo, hi) = axis_range(3e-7, 3e-7, 1e-6);
        assert!((lo - 1.5e-7).abs() < 1e-20 && (hi - 4.5e-7).abs() < 1e-20);
        // a real spread, however small beside the values, keeps its 5 % pads
        let (lo, hi) = padded_range(1.4990, 1.4991);
        assert!((lo - 1.498995).abs() < 1e-12 && (hi - 1.499105).abs() < 1e-12);
        let (lo, hi) = padded_range(-1e-14, 3e-14);
        assert!((lo + 1.2e-14).abs() < 1e-27 && (hi - 3.2e-14).abs() < 1e-27);
    }

    #[test]
    fn stable_range_holds_until_data_leave_it() {
        let cur = Some((0.0, 10.0));
        assert_eq!(stable_range(cur, 1.0, 9.0, 0.0, false), (0.0, 10.0));
        assert_eq!(stable_range(cur, 4.0, 5.0, 0.0, false), (0.0, 10.0));
        assert_eq!(
            stable_range(cur, 4.0, 5.0, 0.0, true),
            padded_range(4.0, 5.0)
        );
        assert_eq!(
            stable_range(cur, -1.0, 5.0, 0.0, false),
            padded_range(-1.0, 5.0)
        );
        assert_eq!(
            stable_range(None, 1.0, 2.0, 0.0, false),
            padded_range(1.0, 2.0)
        );
        assert_eq!(stable_range(cur, f64::NAN, 2.0, 0.0, false), (0.0, 10.0));
    }
}
