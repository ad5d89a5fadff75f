//! Tick labels that are always pairwise distinct, however narrow the range.
//!
//! Why: a fixed four-digit label format shows "1.5" at every tick of a y axis from 1.49985 to
//! 1.50005 N (the FrBD loops at v_S = 8.11 m/s), which makes a spread of 10⁻⁴ N look like a
//! large one. The labels here get as many decimals as the tick spacing needs, and when the span
//! is tiny next to the values (or the values are very small or large) an offset and a power of
//! ten move into a note beside the axis description ("×10⁻⁴ + 1.499"), so the labels stay short.
//! The ticks are plotters' own key points, so the labels belong to the ticks it draws.

use crate::readout::superscript;
use crate::Style;
use friction_core::params::parse_f64;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;

/// How the tick values of one linear axis are written.
#[derive(Debug, Clone, PartialEq)]
pub struct TickFormat {
    /// Subtracted from each value before scaling (0: none).
    pub offset: f64,
    /// Decimals that write the offset exactly (it is a multiple of a power of ten).
    pub offset_decimals: usize,
    /// Values are shown divided by 10^`exp` (0: as they are).
    pub exp: i32,
    /// Decimals after the point (trailing zeros are dropped).
    pub decimals: usize,
}

/// The key points plotters draws for `n` labels over `lo..hi` (the mesh's bold lines).
pub fn key_points(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return Vec::new();
    }
    let r: RangedCoordf64 = (lo..hi).into();
    r.key_points(n)
}

impl TickFormat {
    /// The format for the ticks plotters draws with `n` labels over `lo..hi`.
    pub fn new(lo: f64, hi: f64, n: usize) -> TickFormat {
        let plain = TickFormat {
            offset: 0.0,
            offset_decimals: 0,
            exp: 0,
            decimals: 0,
        };
        let ticks = key_points(lo, hi, n);
        let span = hi - lo;
        if ticks.is_empty() || span.is_nan() || span <= 0.0 {
            return plain;
        }
        let step = if ticks.len() > 1 {
            ticks[1] - ticks[0]
        } else {
            span
        };
        let mag = lo.abs().max(hi.abs());
        let mut f = plain;
        if mag / span > 1e3 {
            // the span is tiny next to the values: an offset, rounded a decade above the span,
            // and labels in units of the span's decade
            let e = span.log10().floor() as i32 + 1;
            let unit = 10f64.powi(e);
            f.offset = (lo / unit).floor() * unit;
            f.offset_decimals = (-e).max(0) as usize;
            f.exp = span.log10().floor() as i32;
        } else if !(1e-3..1e5).contains(&mag) {
            f.exp = mag.log10().floor() as i32;
        }
        let scaled_step = step / 10f64.powi(f.exp);
        // enough decimals to show the spacing itself (steps are 1, 2 or 5 × 10^k); then more
        // until every label differs and reads back its tick (guards the rounding corners)
        let mut d = (-scaled_step.log10().floor()).max(0.0) as usize;
        while d < 15 {
            f.decimals = d;
            let labels: Vec<String> = ticks.iter().map(|&t| f.label(t)).collect();
            let distinct = (1..labels.len()).all(|i| !labels[..i].contains(&labels[i]));
            let faithful = ticks.iter().zip(&labels).all(|(&t, l)| {
                parse_f64(&l.replace('−', "-")).is_some_and(|x| {
                    (x * 10f64.powi(f.exp) + f.offset - t).abs() <= 1e-3 * step.abs()
                })
            });
            if distinct && faithful {
                break;
            }
            d += 1;
        }
        f
    }

    /// The label of tick value `v` (the offset and power of ten are in [`TickFormat::note`]).
    pub fn label(&self, v: f64) -> String {
        let x = (v - self.offset) / 10f64.powi(self.exp);
        // zero up to rounding (6.9e-18 on a symmetric axis) is "0"
        let unit = 10f64.powi(-(self.decimals as i32));
        let x = if x.abs() < 1e-6 * unit { 0.0 } else { x };
        let d = self.decimals;
        let s = format!("{x:.d$}");
        let s = if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        };
        if s == "-0" {
            "0".into()
        } else {
            s
        }
    }

    /// What the labels leave out, e.g. `"×10⁻⁴ + 1.499"`, or `None` when they show values as
    /// they are.
    pub fn note(&self) -> Option<String> {
        let scale = (self.exp != 0).then(|| format!("×10{}", superscript(&self.exp.to_string())));
        let offset = (self.offset != 0.0).then(|| {
            let sign = if self.offset < 0.0 { "−" } else { "+" };
            // a multiple of a power of ten: written to that power, without float noise
            let d = self.offset_decimals;
            format!("{sign} {:.d$}", self.offset.abs())
        });
        match (scale, offset) {
            (None, None) => None,
            (Some(s), None) => Some(s),
            (None, Some(o)) => Some(o),
            (Some(s), Some(o)) => Some(format!("{s} {o}")),
        }
    }

    /// `label` of an axis with the note added before its unit bracket: `"friction force F
    /// [×10⁻⁴ + 1.499 N]"`, so the reader meets it where the unit is read.
    pub fn describe(&self, label: &str) -> String {
        let Some(note) = self.note() else {
            return label.to_string();
        };
        match (label.rfind('['), label.ends_with(']')) {
            (Some(i), true) => format!("{}[{note} {}", &label[..i], &label[i + 1..]),
            _ => format!("{label} ({note})"),
        }
    }
}

/// The labels of the ticks plotters draws with `n` labels over `lo..hi`, in order.
pub fn labels(lo: f64, hi: f64, n: usize) -> Vec<String> {
    let f = TickFormat::new(lo, hi, n);
    key_points(lo, hi, n).iter().map(|&t| f.label(t)).collect()
}

/// Number of tick labels along an axis `len_px` device pixels long: one per `spacing` CSS px,
/// 3 to 8, so that labels of a narrow panel do not overlap.
pub(crate) fn tick_count(len_px: u32, style: &Style, spacing: f64) -> usize {
    ((len_px as f64 / style.scale / spacing) as usize).clamp(3, 8)
}

/// `v` rounded to `digits` significant digits.
pub(crate) fn round_sig(v: f64, digits: i32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(digits - 1 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

/// Tick label: short, no float noise (`0.015`, `1e-4`).
pub fn tick(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        let s = format!("{v:.1e}");
        return s.replace(".0e", "e");
    }
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distinct(l: &[String]) -> bool {
        (1..l.len()).all(|i| !l[..i].contains(&l[i]))
    }

    #[test]
    fn labels_are_distinct_for_any_span_and_position() {
        // spans from 1e-9 to 100 times the values, anywhere from 1e-9 to 1e9, and sign changes
        let mut cases = 0;
        for centre_exp in -9..=9 {
            for rel_exp in -9..=2 {
                for &sign in &[1.0, -1.0] {
                    for n in [3, 5, 8] {
                        let c = sign * 1.37 * 10f64.powi(centre_exp);
                        let half = 0.5 * c.abs() * 10f64.powi(rel_exp);
                        let (lo, hi) = (c - half, c + half);
                        // plotters draws a single tick for spans under f64::EPSILON
                        if hi - lo < 1e-15 {
                            continue;
                        }
                        let l = labels(lo, hi, n);
                        assert!(l.len() >= 2, "{lo}..{hi}: {l:?}");
                        assert!(distinct(&l), "{lo}..{hi} n={n}: {l:?}");
                        assert!(l.iter().all(|s| s.len() <= 9), "{lo}..{hi}: {l:?}");
                        cases += 1;
                    }
                }
            }
        }
        assert!(cases > 1000);
    }

    #[test]
    fn a_tiny_spread_gets_an_offset_note_and_reads_back() {
        let f = TickFormat::new(1.49985, 1.50005, 5);
        assert_eq!(f.note().as_deref(), Some("×10⁻⁴ + 1.499"));
        for t in key_points(1.49985, 1.50005, 5) {
            let x: f64 = f.label(t).parse().unwrap();
            assert!((x * 1e-4 + 1.499 - t).abs() < 1e-12, "{t}");
        }
        assert_eq!(
            f.describe("friction force F [N]"),
            "friction force F [×10⁻⁴ + 1.499 N]"
        );
        // the offset carries no float noise
        let n = TickFormat::new(1.4999932, 1.5000001, 5).note().unwrap();
        assert_eq!(n, "×10⁻⁶ + 1.49999");
        // plain values: no note, short labels
        let p = TickFormat::new(-1.6, 1.6, 5);
        assert_eq!(p.note(), None);
        assert_eq!(labels(-1.6, 1.6, 5), ["-1", "0", "1"]);
        assert_eq!(
            labels(-1.6, 1.6, 8),
            ["-1.5", "-1", "-0.5", "0", "0.5", "1", "1.5"]
        );
        assert_eq!(labels(0.0, 2e-4, 4), ["0", "1", "2"]);
        assert_eq!(
            TickFormat::new(0.0, 2e-4, 4).note().as_deref(),
            Some("×10⁻⁴")
        );
    }

    #[test]
    fn log_ticks_are_rounded_to_two_digits() {
        assert_eq!(tick(round_sig(10f64.powf(0.5), 2)), "3.2");
        assert_eq!(tick(round_sig(10f64.powf(2.5), 2)), "320");
        assert_eq!(tick(round_sig(1e-6, 2)), "1e-6");
        assert_eq!(round_sig(0.0, 2), 0.0);
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick(0.015), "0.015");
        assert_eq!(tick(2.0), "2");
        assert_eq!(tick(1e-4), "1e-4");
        assert_eq!(tick(-0.5), "-0.5");
        // log-axis ticks between decades
        assert_eq!(tick(round_sig(10f64.powf(0.5), 3)), "3.16");
        assert_eq!(tick(round_sig(10f64.powf(1.5), 3)), "31.6");
        assert_eq!(tick(round_sig(10f64.powf(-4.0), 3)), "1e-4");
    }
}
