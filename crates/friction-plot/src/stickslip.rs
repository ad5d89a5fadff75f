//! Charts of the Rabinowicz stick-slip benchmark: x, ẋ, ẍ and F against time, F against the
//! relative velocity, and F against the displacement, with one curve per model run.

use crate::axes::range_of;
use crate::thin::{thin, thin_path};
use crate::{ChartSpec, Series, PALETTE};
use friction_core::experiments::stickslip::StickSlipRun;
use std::rc::Rc;

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
    use super::*;
    use crate::thin::MAX_POINTS;
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
}
