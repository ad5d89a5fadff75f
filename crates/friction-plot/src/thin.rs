//! Thinning: fewer points, the same picture. Long runs are thinned once when their charts are
//! built (`thin` for time signals, `thin_path` for phase-plane paths), and every curve is
//! decimated to about one point per device pixel when the page strokes it
//! ([`PlotTransform::decimate`]).

use crate::axes::finite_bounds;
use crate::PlotTransform;

/// Points per curve above which a run is thinned (a 40 s run can hold ~50 000 steps; drawing
/// costs grow with points: three 2-px loops of 2000 points took ≈ 3 ms to paint, measured).
pub const MAX_POINTS: usize = 4000;

impl PlotTransform {
    /// Maps `points` to pixels and thins them to what a stroke can show, appending to `out`.
    ///
    /// Runs of points inside one pixel column (`min_px` wide) become at most four: the first,
    /// the lowest, the highest and the last, in their order. A dense oscillation (the
    /// stick-slip saw-tooth, a bristle snapping thousands of times) is therefore drawn as its
    /// envelope rather than as a zig-zag Skia must stroke segment by segment at the compositor
    /// commit (20 ms per path for four stick-slip models). Points closer than `min_px` to the
    /// last kept one are then dropped (the last point is always kept). Non-finite points break
    /// the path: they are passed through as `(NaN, NaN)` once.
    pub fn decimate(&self, points: &[(f64, f64)], min_px: f64, out: &mut Vec<(f64, f64)>) {
        let mut thin = Thinner {
            min2: min_px * min_px,
            last: None,
            out,
        };
        let mut col: Option<Column> = None;
        for (i, &(x, y)) in points.iter().enumerate() {
            let p = self.to_px(x, y);
            if !(p.0.is_finite() && p.1.is_finite()) {
                if let Some(c) = col.take() {
                    c.emit(&mut thin, false);
                }
                thin.pen_up();
                continue;
            }
            let k = (p.0 / min_px).floor();
            match col.as_mut() {
                Some(c) if c.index == k => c.add(i, p),
                _ => {
                    if let Some(c) = col.replace(Column::new(k, i, p)) {
                        c.emit(&mut thin, false);
                    }
                }
            }
        }
        if let Some(c) = col {
            c.emit(&mut thin, true);
        }
    }
}

/// The points of one pixel column that [`PlotTransform::decimate`] keeps: first, lowest,
/// highest and last, each with its index in the input so they are emitted in order.
struct Column {
    index: f64,
    first: (usize, (f64, f64)),
    low: (usize, (f64, f64)),
    high: (usize, (f64, f64)),
    last: (usize, (f64, f64)),
}

impl Column {
    fn new(index: f64, i: usize, p: (f64, f64)) -> Self {
        Column {
            index,
            first: (i, p),
            low: (i, p),
            high: (i, p),
            last: (i, p),
        }
    }

    fn add(&mut self, i: usize, p: (f64, f64)) {
        if p.1 < self.low.1 .1 {
            self.low = (i, p);
        }
        if p.1 > self.high.1 .1 {
            self.high = (i, p);
        }
        self.last = (i, p);
    }

    /// Hands the column's points to `thin` in input order; `end` keeps the very last point.
    fn emit(self, thin: &mut Thinner<'_>, end: bool) {
        let (a, b) = if self.low.0 <= self.high.0 {
            (self.low, self.high)
        } else {
            (self.high, self.low)
        };
        let mut prev = usize::MAX;
        for (i, p) in [self.first, a, b] {
            if i != prev {
                thin.keep(p, false);
                prev = i;
            }
        }
        if self.last.0 != prev || end {
            thin.keep(self.last.1, end);
        }
    }
}

/// The spacing rule of [`PlotTransform::decimate`]: a point is kept when it is at least
/// `min_px` from the last kept one, or when forced.
struct Thinner<'a> {
    min2: f64,
    last: Option<(f64, f64)>,
    out: &'a mut Vec<(f64, f64)>,
}

impl Thinner<'_> {
    fn keep(&mut self, p: (f64, f64), force: bool) {
        let far = self.last.is_none_or(|q| {
            let (dx, dy) = (p.0 - q.0, p.1 - q.1);
            dx * dx + dy * dy >= self.min2
        });
        if far || (force && self.last != Some(p)) {
            self.out.push(p);
            self.last = Some(p);
        }
    }

    /// A non-finite point: the path breaks once.
    fn pen_up(&mut self) {
        if self.last.take().is_some() {
            self.out.push((f64::NAN, f64::NAN));
        }
    }
}

/// Pairs (a\[i\], b\[i\]) thinned to at most [`MAX_POINTS`], keeping in each bucket the points with
/// the smallest and largest b so that peaks (breakaway, extrema) survive, and the first and
/// last points so that the curve spans the whole run.
pub(crate) fn thin(a: &[f64], b: &[f64]) -> Vec<(f64, f64)> {
    let n = a.len().min(b.len());
    if n <= MAX_POINTS {
        return (0..n).map(|i| (a[i], b[i])).collect();
    }
    let (a, b) = (&a[..n], &b[..n]);
    let buckets = MAX_POINTS / 2;
    let mut out = Vec::with_capacity(MAX_POINTS + 3);
    out.push((a[0], b[0]));
    // k·n overflows a 32-bit usize (wasm32) beyond ~4.3e9: a 1000 s run of 3.5 M steps wrapped
    // from bucket 1227 on and drew its last 40 % as chords back to the start
    let edge = |k: usize| (k as u64 * n as u64 / buckets as u64) as usize;
    for k in 0..buckets {
        let lo = edge(k);
        let hi = edge(k + 1).max(lo + 1).min(n);
        // Values rather than indices in the comparisons: no bounds checks in the hot loop
        // (runs of 10⁶ steps are thinned for six panels each time one finishes).
        let (mut imin, mut imax) = (lo, lo);
        let (mut vmin, mut vmax) = (b[lo], b[lo]);
        for (i, &v) in b[lo..hi].iter().enumerate() {
            if v < vmin {
                vmin = v;
                imin = lo + i;
            }
            if v > vmax {
                vmax = v;
                imax = lo + i;
            }
        }
        let (i1, i2) = if imin <= imax {
            (imin, imax)
        } else {
            (imax, imin)
        };
        out.push((a[i1], b[i1]));
        if i2 != i1 {
            out.push((a[i2], b[i2]));
        }
    }
    out.push((a[n - 1], b[n - 1]));
    out
}

/// Pairs (a\[i\], b\[i\]) of a phase-plane path (F against v or x) thinned without changing its
/// drawn shape: a point is kept when it is more than 1/1500 of the data range away, in either
/// coordinate, from the last kept one (below a pixel on any panel), coarser only when that
/// leaves more than [`MAX_PATH_POINTS`].
///
/// Bucketing by index, as [`thin`] does for time signals, joins points that are far apart in
/// the plane and draws straight chords across a long run's orbit.
pub(crate) fn thin_path(a: &[f64], b: &[f64]) -> Vec<(f64, f64)> {
    let n = a.len().min(b.len());
    if n <= MAX_POINTS {
        return (0..n).map(|i| (a[i], b[i])).collect();
    }
    let (a, b) = (&a[..n], &b[..n]);
    let span = |v: &[f64]| {
        let (lo, hi) = finite_bounds(v.iter());
        if hi > lo {
            hi - lo
        } else {
            0.0
        }
    };
    let (sa, sb) = (span(a), span(b));
    // A noisy orbit (the bristle model's re-bonding) moves by more than the tolerance at nearly
    // every step: the tolerance doubles until the path fits the drawing budget (a canvas
    // stroking 10⁵ self-crossing segments stalls the tab for seconds). A smooth orbit coarsens
    // by a few pixels at worst; a noisy one is a band either way. An orbit that still does not
    // fit at 1/8 of the range fills its region (a stiff spring ringing for minutes): distance
    // thinning would keep ever fewer points, down to one chord between the ends, so it is drawn
    // as the index-bucket band of [`thin`] instead.
    // Finest first, each tolerance alone: a tolerance too fine leaves the budget early, and the
    // first that fits wins, so no coarser one is ever computed. (One pass carrying every
    // tolerance at once read the run once but did the work of all that fit: on a stopped
    // 2.9 M-step run whose fifth tolerance fits, four times the work.)
    std::iter::successors(Some(1.0 / 1500.0), |t| Some(t * 2.0))
        .take_while(|&t| t <= 1.0 / 8.0)
        .find_map(|t| path_within(a, b, sa * t, sb * t))
        .unwrap_or_else(|| thin(a, b))
}

/// The path of (a, b) keeping a point when it is more than `ea` or `eb` from the last kept one
/// (a non-finite point is kept, so that it breaks the line), with both ends; `None` once it
/// would exceed [`MAX_PATH_POINTS`].
fn path_within(a: &[f64], b: &[f64], ea: f64, eb: f64) -> Option<Vec<(f64, f64)>> {
    let n = a.len();
    let mut out = vec![(a[0], b[0])];
    let mut last = (a[0], b[0]);
    let mut last_finite = last.0.is_finite() && last.1.is_finite();
    for (&x, &y) in a[1..n - 1].iter().zip(&b[1..n - 1]) {
        let finite = x.is_finite() && y.is_finite();
        if !(finite && last_finite) || (x - last.0).abs() > ea || (y - last.1).abs() > eb {
            last = (x, y);
            last_finite = finite;
            out.push(last);
            if out.len() > MAX_PATH_POINTS {
                return None;
            }
        }
    }
    out.push((a[n - 1], b[n - 1]));
    (out.len() <= MAX_PATH_POINTS).then_some(out)
}

/// Largest number of points of a thinned phase-plane path (the drawing budget of a panel).
const MAX_PATH_POINTS: usize = 2 * MAX_POINTS;

#[cfg(test)]
mod tests {
    use super::*;
    use friction_core::experiments::stickslip::{build_for_bench, run_bench, Bench, Workspace};

    #[test]
    fn decimation_keeps_ends_and_spacing() {
        let t = PlotTransform {
            px: (0.0, 1000.0),
            py: (500.0, 0.0),
            x_range: (0.0, 1.0),
            y_range: (0.0, 1.0),
            x_log: false,
            clip: (0.0, 0.0, 1000.0, 500.0),
            n_ticks: (5, 5),
        };
        let pts: Vec<(f64, f64)> = (0..=10_000).map(|i| (i as f64 / 10_000.0, 0.5)).collect();
        let mut out = Vec::new();
        t.decimate(&pts, 1.0, &mut out);
        assert!((990..=1002).contains(&out.len()), "{} points", out.len());
        assert_eq!(out[0], (0.0, 250.0));
        assert_eq!(*out.last().expect("non-empty"), (1000.0, 250.0));
        assert!(out
            .windows(2)
            .all(|w| w[1].0 - w[0].0 >= 1.0 - 1e-9 || w[1].0 == 1000.0));
        // a NaN breaks the path once
        let mut out = Vec::new();
        t.decimate(
            &[(0.0, 0.0), (f64::NAN, 0.0), (f64::NAN, 1.0), (1.0, 1.0)],
            1.0,
            &mut out,
        );
        assert_eq!(out.len(), 3);
        assert!(out[1].0.is_nan());
    }

    #[test]
    fn a_dense_oscillation_is_drawn_as_its_envelope() {
        let t = PlotTransform {
            px: (0.0, 100.0),
            py: (100.0, 0.0),
            x_range: (0.0, 1.0),
            y_range: (-1.0, 1.0),
            x_log: false,
            clip: (0.0, 0.0, 100.0, 100.0),
            n_ticks: (5, 5),
        };
        // a saw-tooth of 1,000 teeth over 100 px: 20,000 points
        let pts: Vec<(f64, f64)> = (0..20_000)
            .map(|i| (i as f64 / 19_999.0, if i % 20 < 10 { -0.9 } else { 0.9 }))
            .collect();
        let mut out = Vec::new();
        t.decimate(&pts, 1.0, &mut out);
        assert!(out.len() <= 4 * 101, "{} points", out.len());
        for col in 0..100 {
            let ys: Vec<f64> = out
                .iter()
                .filter(|p| p.0.floor() as usize == col)
                .map(|p| p.1)
                .collect();
            let (lo, hi) = ys
                .iter()
                .fold((f64::MAX, f64::MIN), |(a, b), &y| (a.min(y), b.max(y)));
            assert!(
                (lo - 5.0).abs() < 1e-9 && (hi - 95.0).abs() < 1e-9,
                "column {col}: {ys:?}"
            );
        }
        assert_eq!(*out.last().expect("non-empty"), t.to_px(1.0, 0.9));
    }

    #[test]
    fn an_orbit_that_fills_its_region_is_drawn_as_a_band_not_a_chord() {
        // 2 M points spread over the unit square (a stiff spring ringing for minutes): no
        // distance tolerance fits them in the budget; the path must still cover the region
        let n = 2_000_000;
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let (a, b): (Vec<f64>, Vec<f64>) = (0..n).map(|_| (next(), next())).unzip();
        let path = thin_path(&a, &b);
        assert!(
            path.len() > 1000 && path.len() <= MAX_PATH_POINTS,
            "{} points",
            path.len()
        );
        let spread = |f: fn(&(f64, f64)) -> f64| {
            let (lo, hi) = finite_bounds(path.iter().map(f).collect::<Vec<_>>().iter());
            hi - lo
        };
        assert!(spread(|p| p.0) > 0.9 && spread(|p| p.1) > 0.9);
    }

    #[test]
    fn a_long_orbit_is_thinned_without_chords() {
        // Many turns of a unit circle: index buckets (as for time signals) join points from
        // different turns; the path thinning keeps every kept step short.
        let circle = |turns: f64, n: usize| -> (Vec<f64>, Vec<f64>) {
            (0..n)
                .map(|i| {
                    let t = i as f64 * turns * std::f64::consts::TAU / n as f64;
                    (t.cos(), t.sin())
                })
                .unzip()
        };
        let longest = |p: &[(f64, f64)]| {
            p.windows(2)
                .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
                .fold(0.0f64, f64::max)
        };
        // finely sampled: most points go, kept steps stay short
        let n = 1_000_000;
        let (a, b) = circle(20.0, n);
        let path = thin_path(&a, &b);
        assert!(path.len() <= MAX_PATH_POINTS, "{} points", path.len());
        assert!(longest(&path) < 0.05, "step {}", longest(&path));
        assert_eq!(path[0], (a[0], b[0]));
        assert_eq!(*path.last().unwrap(), (a[n - 1], b[n - 1]));
        // stick-slip-like sampling: 95 % of each turn's samples sit at one point (stick),
        // the turn itself takes 5 % (slip); an index bucket then spans a whole slip and its
        // kept extremes are joined by chords across the circle, the path has none
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _turn in 0..100 {
            for i in 0..10_000 {
                let t = if i < 9_500 {
                    0.0
                } else {
                    (i - 9_500) as f64 / 500.0 * std::f64::consts::TAU
                };
                a.push(t.cos());
                b.push(t.sin());
            }
        }
        assert!(longest(&thin(&a, &b)) > 1.0, "{}", longest(&thin(&a, &b)));
        let path = thin_path(&a, &b);
        assert!(path.len() <= MAX_PATH_POINTS);
        assert!(longest(&path) < 0.2, "{}", longest(&path));
    }

    /// Every tolerance carried through one pass over the data, the finest that fits winning:
    /// an independent way to the same path (the implementation until 2026-12-04).
    fn thin_path_single_pass(a: &[f64], b: &[f64]) -> Vec<(f64, f64)> {
        struct Level {
            ea: f64,
            eb: f64,
            last: (f64, f64),
            out: Vec<(f64, f64)>,
            alive: bool,
        }
        let n = a.len().min(b.len());
        if n <= MAX_POINTS {
            return (0..n).map(|i| (a[i], b[i])).collect();
        }
        let (a, b) = (&a[..n], &b[..n]);
        let span = |v: &[f64]| {
            let (lo, hi) = finite_bounds(v.iter());
            if hi > lo {
                hi - lo
            } else {
                0.0
            }
        };
        let (sa, sb) = (span(a), span(b));
        let mut levels: Vec<Level> = std::iter::successors(Some(1.0 / 1500.0), |t| Some(t * 2.0))
            .take_while(|&t| t <= 1.0 / 8.0)
            .map(|t| Level {
                ea: sa * t,
                eb: sb * t,
                last: (a[0], b[0]),
                out: vec![(a[0], b[0])],
                alive: true,
            })
            .collect();
        for i in 1..n - 1 {
            let (x, y) = (a[i], b[i]);
            for l in levels.iter_mut().filter(|l| l.alive) {
                let last = l.last;
                let breaks =
                    !(x.is_finite() && y.is_finite() && last.0.is_finite() && last.1.is_finite());
                if breaks || (x - last.0).abs() > l.ea || (y - last.1).abs() > l.eb {
                    l.last = (x, y);
                    l.out.push(l.last);
                    l.alive = l.out.len() <= MAX_PATH_POINTS;
                }
            }
        }
        for l in levels.into_iter().filter(|l| l.alive) {
            let mut out = l.out;
            out.push((a[n - 1], b[n - 1]));
            if out.len() <= MAX_PATH_POINTS {
                return out;
            }
        }
        thin(a, b)
    }

    #[test]
    fn the_path_equals_one_pass_carrying_every_tolerance() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let n = 300_000;
        // smooth (first tolerance fits), noisy at several amplitudes (coarser ones win, or the
        // bucket band), with non-finite breaks
        for noise in [0.0, 1e-3, 1e-2, 0.05, 1.0] {
            let (mut a, mut b): (Vec<f64>, Vec<f64>) = (0..n)
                .map(|i| {
                    let t = i as f64 / n as f64 * 20.0;
                    (t.sin() + noise * next(), (1.3 * t).cos() + noise * next())
                })
                .unzip();
            let want = thin_path_single_pass(&a, &b);
            let got = thin_path(&a, &b);
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "noise {noise}");
            a[n / 3] = f64::NAN;
            b[n / 2] = f64::INFINITY;
            let want = thin_path_single_pass(&a, &b);
            assert_eq!(
                format!("{:?}", thin_path(&a, &b)),
                format!("{want:?}"),
                "noise {noise}, breaks"
            );
        }
        // a real run's orbits
        let bench = Bench {
            tend: 400.0,
            ..Bench::TABLE_6_1
        };
        let e = friction_core::registry::find("bristle").expect("registered");
        let m = build_for_bench(e, &bench).expect("defaults build");
        let r = run_bench(&mut Workspace::default(), &bench, m.as_ref()).expect("run finishes");
        assert!(r.t.len() > MAX_POINTS);
        for (a, b) in [(&r.v, &r.force), (&r.x, &r.force)] {
            assert_eq!(
                format!("{:?}", thin_path(a, b)),
                format!("{:?}", thin_path_single_pass(a, b))
            );
        }
    }
}
