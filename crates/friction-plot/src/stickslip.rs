//! Charts of the Rabinowicz stick-slip benchmark: x, ẋ, ẍ and F against time, F against the
//! relative velocity, and F against the displacement, with one curve per model run.

use crate::{padded_range, ChartSpec, Series, PALETTE};
use friction_core::experiments::stickslip::StickSlipRun;
use std::rc::Rc;

/// Points per curve above which a run is thinned (a 40 s run can hold ~50 000 steps; drawing
/// costs grow with points, RENDERING.md).
pub const MAX_POINTS: usize = 4000;

/// A time-series quantity of the benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// Position x \[m\].
    Position,
    /// Velocity ẋ \[m/s\].
    Velocity,
    /// Acceleration ẍ \[m/s²\].
    Acceleration,
    /// Model output F \[N\].
    Force,
}

impl Quantity {
    fn label(self) -> &'static str {
        match self {
            Quantity::Position => "position x [m]",
            Quantity::Velocity => "velocity ẋ [m/s]",
            Quantity::Acceleration => "acceleration ẍ [m/s²]",
            Quantity::Force => "friction force F [N]",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Quantity::Position => "Position against time",
            Quantity::Velocity => "Velocity against time",
            Quantity::Acceleration => "Acceleration against time",
            Quantity::Force => "Friction force against time",
        }
    }

    fn values(self, r: &StickSlipRun) -> &[f64] {
        match self {
            Quantity::Position => &r.x,
            Quantity::Velocity => &r.xdot,
            Quantity::Acceleration => &r.xddot,
            Quantity::Force => &r.force,
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

pub(crate) fn range_of<'a>(vals: impl Iterator<Item = &'a f64>) -> (f64, f64) {
    let (lo, hi) = finite_bounds(vals);
    padded_range(lo, hi)
}

/// A run as drawn: (palette slot, legend label, run). The slot is the model's place among the
/// selected models, so its colour matches the legend even when a model before it has nothing
/// to draw.
pub type Slotted<'a> = (usize, &'a str, &'a StickSlipRun);

/// Slots 0, 1, 2, … in list order.
fn in_order<'a>(runs: &[(&'a str, &'a StickSlipRun)]) -> Vec<Slotted<'a>> {
    runs.iter()
        .enumerate()
        .map(|(i, &(l, r))| (i, l, r))
        .collect()
}

fn chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    runs: &[Slotted<'_>],
    points: impl Fn(usize) -> Vec<(f64, f64)>,
) -> ChartSpec {
    let series: Vec<Series> = runs
        .iter()
        .enumerate()
        .map(|(k, &(slot, label, _))| Series {
            label: label.to_string(),
            color: PALETTE[slot % PALETTE.len()],
            points: points(k),
            dashed: false,
        })
        .collect();
    // Axes fit what is drawn: the thinned points keep every bucket's extremes of the plotted
    // quantity and both ends, and a second pass over 10⁶-step runs would double the cost.
    let x_range = range_of(series.iter().flat_map(|s| s.points.iter().map(|p| &p.0)));
    let y_range = range_of(series.iter().flat_map(|s| s.points.iter().map(|p| &p.1)));
    // No legend headroom: the six panels list the same runs and share one legend band above
    // them (`figure::shared_legend`).
    ChartSpec {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        x_range,
        y_range,
        x_log: false,
        series,
        notes: Vec::new(),
        y_scale: 0.0,
    }
}

/// The time-series quantities in panel order.
const QUANTITIES: [Quantity; 4] = [
    Quantity::Position,
    Quantity::Velocity,
    Quantity::Acceleration,
    Quantity::Force,
];

/// One run's points for the six panels, thinned: x, ẋ, ẍ, F against t; F against v and x.
type Thinned = [Vec<(f64, f64)>; 6];

fn thin_run(r: &StickSlipRun) -> Thinned {
    let q = |q: Quantity| thin(&r.t, q.values(r));
    [
        q(QUANTITIES[0]),
        q(QUANTITIES[1]),
        q(QUANTITIES[2]),
        q(QUANTITIES[3]),
        thin_path(&r.v, &r.force),
        thin_path(&r.x, &r.force),
    ]
}

/// Thinned points of stick-slip runs kept between builds of a growing output.
///
/// A finished run never changes, yet the page rebuilds the six panels whenever another run
/// finishes or the job stops; thinning a 10⁶-step run for six panels takes tens of ms, so each
/// run is thinned once. Entries are keyed by the run's time series (address and length): the
/// owner must [`ThinMemo::clear`] it whenever runs it has seen may be dropped (a new job, a
/// held run released).
#[derive(Debug, Default)]
pub struct ThinMemo {
    runs: Vec<((usize, usize), Rc<Thinned>)>,
}

impl ThinMemo {
    /// Forgets every run.
    pub fn clear(&mut self) {
        self.runs.clear();
    }

    fn get(&mut self, r: &StickSlipRun) -> Rc<Thinned> {
        let key = (r.t.as_ptr() as usize, r.t.len());
        if let Some((_, t)) = self.runs.iter().find(|(k, _)| *k == key) {
            return Rc::clone(t);
        }
        let t = Rc::new(thin_run(r));
        self.runs.push((key, Rc::clone(&t)));
        t
    }
}

/// `q` against time, one curve per (legend label, run).
pub fn time_chart(runs: &[(&str, &StickSlipRun)], q: Quantity) -> ChartSpec {
    let runs = in_order(runs);
    chart(q.title(), "time t [s]", q.label(), &runs, |k| {
        thin(&runs[k].2.t, q.values(runs[k].2))
    })
}

/// All six charts of the view, in display order: x, ẋ, ẍ, F against t; F against v; F against x.
pub fn all_charts(runs: &[(&str, &StickSlipRun)]) -> Vec<ChartSpec> {
    all_charts_slotted(&in_order(runs))
}

/// [`all_charts`] with each run's palette slot given (see [`Slotted`]).
pub fn all_charts_slotted(runs: &[Slotted<'_>]) -> Vec<ChartSpec> {
    all_charts_memo(runs, &mut ThinMemo::default())
}

/// [`all_charts_slotted`], thinning only the runs `memo` has not seen.
pub fn all_charts_memo(runs: &[Slotted<'_>], memo: &mut ThinMemo) -> Vec<ChartSpec> {
    let thinned: Vec<Rc<Thinned>> = runs.iter().map(|&(_, _, r)| memo.get(r)).collect();
    let mut charts: Vec<ChartSpec> = QUANTITIES
        .iter()
        .enumerate()
        .map(|(p, &q)| {
            chart(q.title(), "time t [s]", q.label(), runs, |k| {
                thinned[k][p].clone()
            })
        })
        .collect();
    charts.push(chart(
        "Friction force against relative velocity",
        "relative velocity v [m/s]",
        "friction force F [N]",
        runs,
        |k| thinned[k][4].clone(),
    ));
    charts.push(chart(
        "Friction force against displacement",
        "position x [m]",
        "friction force F [N]",
        runs,
        |k| thinned[k][5].clone(),
    ));
    charts
}

#[cfg(test)]
mod tests {

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
    use super::*;
    use crate::{draw_chart, Style};
    use friction_core::experiments::stickslip::{build_for_bench, run_bench, Bench, Workspace};
    use plotters::prelude::*;

    #[test]
    fn benchmark_charts_render_with_labels_and_keep_the_breakaway_peak() {
        let b = Bench {
            tend: 10.0,
            ..Bench::TABLE_6_1
        };
        let e = friction_core::registry::find("lugre").expect("lugre registered");
        let m = build_for_bench(e, &b).expect("defaults build");
        let r = run_bench(&mut Workspace::default(), &b, m.as_ref()).expect("run finishes");
        let runs = [("LuGre", &r)];
        let charts = all_charts(&runs);
        assert_eq!(charts.len(), 6);
        let peak = r.force.iter().copied().fold(f64::INFINITY, f64::min);
        let drawn_peak = charts[3].series[0]
            .points
            .iter()
            .map(|p| p.1)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(peak, drawn_peak, "thinning lost the breakaway peak");
        for c in &charts {
            assert!(c.series[0].points.len() <= MAX_POINTS + 1);
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
                draw_chart(&root, c, &Style::default()).expect("draws");
            }
            assert!(
                svg.contains(&c.y_label) && svg.contains("LuGre"),
                "{}",
                c.title
            );
        }
    }

    #[test]
    fn a_run_keeps_its_models_colour_when_one_before_it_is_missing() {
        let b = Bench {
            tend: 2.0,
            ..Bench::TABLE_6_1
        };
        let e = friction_core::registry::find("dahl").expect("dahl registered");
        let m = build_for_bench(e, &b).expect("defaults build");
        let r = run_bench(&mut Workspace::default(), &b, m.as_ref()).expect("run finishes");
        // Models 0 and 2 of a selection drew; model 1 had nothing to show.
        for c in all_charts_slotted(&[(0, "first", &r), (2, "third", &r)]) {
            let colours: Vec<_> = c.series.iter().map(|s| s.color).collect();
            assert_eq!(colours, [PALETTE[0], PALETTE[2]], "{}", c.title);
        }
        for c in all_charts(&[("first", &r), ("second", &r)]) {
            let colours: Vec<_> = c.series.iter().map(|s| s.color).collect();
            assert_eq!(colours, [PALETTE[0], PALETTE[1]], "{}", c.title);
        }
    }

    #[test]
    fn a_memo_thins_each_run_once_and_changes_no_point() {
        let b = Bench {
            tend: 200.0,
            ..Bench::TABLE_6_1
        };
        let run = |id: &str| {
            let e = friction_core::registry::find(id).expect("registered");
            let m = build_for_bench(e, &b).expect("defaults build");
            run_bench(&mut Workspace::default(), &b, m.as_ref()).expect("run finishes")
        };
        let (lugre, dahl) = (run("lugre"), run("dahl"));
        assert!(lugre.t.len() > MAX_POINTS, "long enough to be thinned");
        let mut memo = ThinMemo::default();
        let one = all_charts_memo(&[(0, "LuGre", &lugre)], &mut memo);
        // (ChartSpec has no PartialEq; its Debug text holds every point)
        let text = |c: &[ChartSpec]| format!("{c:?}");
        assert_eq!(
            text(&one),
            text(&all_charts_slotted(&[(0, "LuGre", &lugre)]))
        );
        let both: [Slotted<'_>; 2] = [(0, "LuGre", &lugre), (1, "Dahl", &dahl)];
        let memoised = all_charts_memo(&both, &mut memo);
        assert_eq!(memo.runs.len(), 2, "LuGre reused, Dahl added");
        assert_eq!(
            text(&memoised),
            text(&all_charts_slotted(&both)),
            "the same charts as without a memo"
        );
        memo.clear();
        assert!(memo.runs.is_empty());
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
