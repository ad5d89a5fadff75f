//! The rules [`Lab::frame`](super::Lab::frame) follows each frame, one small struct each and no
//! DOM, so that native tests pin them: how long a reader waits ([`WaitBudget`]), which frame
//! leaves its drawing to the next ([`DrawDeferral`]), which axes a panel shows ([`StableAxes`])
//! and where the legends go ([`LegendPlan`]).

use friction_plot::legend::shared_legend;
use friction_plot::{data_bounds, make_legend_room, stable_range, ChartSpec, Series};

/// How long a surface's first drawing may take in one frame \[ms\] before its remaining panels go
/// to the next frame: cold, each panel of it is 5-25 ms of main thread (the chart code's first
/// run, every font's first measuring), and six in one frame, with the page's first layout and
/// the canvas upload, made tasks over 50 ms at load (issue 39).
pub(crate) const FIRST_DRAWING_SLICE_MS: f64 = 8.0;

/// How long the page may keep a reader waiting for one computation \[ms\] before it stops and
/// explains what to change (the job's hint), with the picture of what was computed: a link
/// draws or explains within 5 s of opening, load included (issue 18). The reader can grant
/// more ([`WaitBudget::grant_more`]).
pub const WAIT_BUDGET_MS: f64 = 4_000.0;

/// What "Keep computing" grants each time \[ms\]: a reader who asked for it waits longer, and
/// the work still goes in slices between frames, so input stays live.
pub const MORE_BUDGET_MS: f64 = 30_000.0;

/// Longest gap between two frames counted as waiting \[ms\]: a hidden tab (no animation frames)
/// is not waiting.
const MAX_FRAME_GAP_MS: f64 = 100.0;

/// (x range, y range) of one panel.
pub(crate) type Axes = ((f64, f64), (f64, f64));

/// The time a reader has waited for the current job, against what it may take.
///
/// The reader waits from frame to frame, not only while a frame computes: each frame of an
/// unfinished job counts the gap since the previous one (at most [`MAX_FRAME_GAP_MS`]), the
/// first its own computing time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WaitBudget {
    /// Time waited \[ms\].
    spent_ms: f64,
    /// The start of the previous frame \[ms, `performance.now()`\].
    last_frame: Option<f64>,
    /// How long the job may keep the reader waiting \[ms\].
    budget_ms: f64,
}

impl Default for WaitBudget {
    fn default() -> Self {
        WaitBudget {
            spent_ms: 0.0,
            last_frame: None,
            budget_ms: WAIT_BUDGET_MS,
        }
    }
}

impl WaitBudget {
    /// Counts a frame of an unfinished job that started at `t0` \[ms\] (`now` reads the clock
    /// after its computing); returns whether the budget is spent.
    pub(crate) fn wait(&mut self, t0: f64, now: impl FnOnce() -> f64) -> bool {
        self.spent_ms += match self.last_frame {
            Some(prev) => (t0 - prev).clamp(0.0, MAX_FRAME_GAP_MS),
            None => now() - t0,
        };
        self.last_frame = Some(t0);
        self.spent_ms >= self.budget_ms
    }

    /// Counts `ms` waited before this budget's frames (another thread's), finite and positive only.
    pub(crate) fn waited(&mut self, ms: f64) {
        if ms.is_finite() && ms > 0.0 {
            self.spent_ms += ms;
        }
    }

    /// "Keep computing": [`MORE_BUDGET_MS`] more from now; the next frame counts as a first.
    pub(crate) fn grant_more(&mut self) {
        self.budget_ms = self.spent_ms + MORE_BUDGET_MS;
        self.last_frame = None;
    }

    /// Time waited \[s\].
    pub(crate) fn spent_s(&self) -> f64 {
        self.spent_ms / 1000.0
    }

    /// The budget \[s\].
    pub(crate) fn budget_s(&self) -> f64 {
        self.budget_ms / 1000.0
    }

    /// What the page says when it stops a job at its budget, with `finished` of `total` done and
    /// the job's `hint` of what to change.
    pub(crate) fn stop_message(&self, finished: usize, total: usize, hint: &str) -> String {
        format!(
            "Stopped after {:.0} s ({finished} of {total} done; the page's time budget): {hint}. \
             The plot shows what was computed.",
            self.spent_s()
        )
    }
}

/// Which frames only draw.
///
/// Two drawings go to the next frame, each of which made one task of 130-250 ms with the
/// frame's compute (issue 18: a link may block input for 200 ms at most). A surface's first,
/// once the job has something to draw: it runs the chart code for the first time, which V8
/// compiles then (wasm functions are compiled lazily, on the main thread), so the next frame
/// only draws. The one after the stop at the time budget: the run held then is thinned afresh
/// (800 000 points: 30 ms natively, ~100 ms in wasm).
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct DrawDeferral {
    /// The next frame only draws.
    draw_only: bool,
}

impl DrawDeferral {
    /// Whether this frame only draws (the frame before deferred a first drawing to it); asked
    /// once per frame.
    pub(crate) fn draw_only_now(&mut self) -> bool {
        std::mem::take(&mut self.draw_only)
    }

    /// The next frame only draws: this one drew part of a first drawing
    /// ([`FIRST_DRAWING_SLICE_MS`]).
    pub(crate) fn draw_next(&mut self) {
        self.draw_only = true;
    }

    /// Whether this frame leaves its drawing to the next: `first_drawing` (a surface's first,
    /// after this frame computed; the next frame then only draws) or `just_stopped` (a job just
    /// stopped at its budget, with a surface to draw on).
    pub(crate) fn defer(&mut self, first_drawing: bool, just_stopped: bool) -> bool {
        if first_drawing || just_stopped {
            self.draw_only = first_drawing;
            true
        } else {
            false
        }
    }
}

/// The axis ranges of each panel, and why they stay put.
///
/// Axes are kept while the data stay inside them, so the plot does not jump while a slider
/// moves; the reader can lock them or zoom and pan (they then hold still even when data leave).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct StableAxes {
    /// Axis ranges per panel, kept while the data stay inside them.
    axes: Vec<Option<Axes>>,
    /// The user locked the axes: they stay put even when data leave them.
    locked: bool,
    /// The user zoomed or panned: the axes stay put until the next fit.
    held: bool,
    /// The axes shown when the user changed a value: the finished picture keeps them if its
    /// data fit inside, whatever an unfinished loop (a transient before the steady cycle) made
    /// the frames in between do, so the result does not depend on how the work was cut.
    job_axes: Option<Vec<Option<Axes>>>,
    /// The axes were cleared (a link loaded, a reset, a new view): the finished picture fits
    /// its own data, whatever ranges the partial frames before it kept, so that a link shows
    /// the same axes and legend corner however its computation was spread over frames.
    fit_final: bool,
}

impl StableAxes {
    /// Axes of a link just loaded: the finished picture fits its own data.
    pub(crate) fn new() -> Self {
        StableAxes {
            fit_final: true,
            ..StableAxes::default()
        }
    }

    /// Fresh axes (a new view, a reset, the Fit button): zoom and pan end, a lock stays on.
    pub(crate) fn refit(&mut self) {
        self.axes.clear();
        self.held = false;
        self.job_axes = None;
        self.fit_final = true;
    }

    /// The reader changed a value inside the view: the axes stay put, and the finished picture
    /// starts from the ones shown now.
    pub(crate) fn value_changed(&mut self) {
        self.fit_final = false;
        if self.job_axes.is_none() {
            self.job_axes = Some(self.axes.clone());
        }
    }

    /// Other panels are shown: each fits its data afresh once finished.
    pub(crate) fn panels_changed(&mut self) {
        self.axes.clear();
        self.fit_final = true;
    }

    /// Locks (or unlocks) the axes.
    pub(crate) fn set_locked(&mut self, on: bool) {
        self.locked = on;
    }

    /// Whether the axes are locked.
    pub(crate) fn locked(&self) -> bool {
        self.locked
    }

    /// Whether the axes were zoomed or panned since the last fit.
    pub(crate) fn held(&self) -> bool {
        self.held
    }

    /// The ranges panel `i` was last drawn with.
    pub(crate) fn shown(&self, i: usize) -> Option<Axes> {
        self.axes.get(i).copied().flatten()
    }

    /// The ranges of every panel drawn so far, in order.
    pub(crate) fn all(&self) -> impl Iterator<Item = &Axes> {
        self.axes.iter().flatten()
    }

    /// Sets panel `i`'s ranges by hand (zoom, pan): they then hold still. False when there is
    /// no such panel.
    pub(crate) fn set_by_hand(&mut self, i: usize, axes: Axes) -> bool {
        if i >= self.axes.len() {
            return false;
        }
        self.axes[i] = Some(axes);
        self.held = true;
        self.job_axes = None;
        true
    }

    /// Before drawing `n` panels: the finished (`done`) picture after fresh axes fits its own
    /// data; after a changed value it starts from the axes shown at the change.
    pub(crate) fn start_drawing(&mut self, done: bool, n: usize) {
        if self.fit_final && done {
            self.axes.clear();
            self.fit_final = false;
        }
        if done {
            if let Some(start) = self.job_axes.take() {
                if start.len() == n {
                    self.axes = start;
                }
            }
        }
        self.axes.resize(n, None);
    }

    /// The frame of panel `i` ([`StableAxes::start_drawing`] first): `spec` with the ranges to
    /// draw and `series` in place of its curves, which are remembered for the next frame.
    ///
    /// With `own_legend` (no band above the panels), room is made for the legend only while it
    /// would cover data, so a kept range (which already has the room) does not move.
    pub(crate) fn frame(
        &mut self,
        i: usize,
        spec: &ChartSpec,
        series: Vec<Series>,
        own_legend: bool,
    ) -> ChartSpec {
        let hold = self.locked || self.held;
        let axes = &mut self.axes[i];
        let (xlo, xhi, ylo, yhi) = data_bounds(&spec.series);
        let kept = axes.filter(|_| hold);
        let x = match kept {
            Some(a) => a.0,
            None if spec.x_log => spec.x_range,
            None => stable_range(axes.map(|a| a.0), xlo, xhi, 0.0, false),
        };
        let y = match kept {
            Some(a) => a.1,
            None => stable_range(axes.map(|a| a.1), ylo, yhi, spec.y_scale, false),
        };
        let mut frame = ChartSpec {
            x_range: x,
            y_range: y,
            series,
            ..spec.clone()
        };
        if own_legend && kept.is_none() {
            make_legend_room(&mut frame);
        }
        *axes = Some((x, frame.y_range));
        frame
    }
}

/// Where the panels' legends go: one band above them all, or each panel's own box.
#[derive(Debug, Clone)]
pub(crate) struct LegendPlan {
    /// The band's entries, when there is one.
    band: Option<Vec<Series>>,
}

impl LegendPlan {
    /// The plan for panels with these `legends`: a band when every panel lists the same
    /// entries ([`shared_legend`]), or when a single chart sits on a `small` plot (its legend
    /// goes above the chart, outside the curves it would otherwise cover).
    pub(crate) fn new(legends: &[&[Series]], small: bool) -> Self {
        let band = shared_legend(legends).or_else(|| {
            (legends.len() == 1 && !legends[0].is_empty() && small).then(|| {
                legends[0]
                    .iter()
                    .map(|s| Series {
                        points: Vec::new(),
                        ..s.clone()
                    })
                    .collect()
            })
        });
        LegendPlan { band }
    }

    /// The band's entries, if the legend goes above the panels.
    pub(crate) fn band(&self) -> Option<&[Series]> {
        self.band.as_deref()
    }

    /// Whether each panel draws its own legend.
    pub(crate) fn own_legends(&self) -> bool {
        self.band.is_none()
    }

    /// What a panel's frame draws: its `legend` entries only, each carrying the data of the
    /// curve of `spec` it names, which only steer the legend's corner.
    pub(crate) fn entries(legend: &[Series], spec: &ChartSpec) -> Vec<Series> {
        legend
            .iter()
            .map(|l| {
                let mut l = l.clone();
                if let Some(d) = spec.series.iter().find(|s| s.label == l.label) {
                    l.points.clone_from(&d.points);
                }
                l
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_plot::{padded_range, PALETTE};

    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    fn series(label: &str, slot: usize, points: Vec<(f64, f64)>) -> Series {
        Series {
            label: label.into(),
            color: PALETTE[slot],
            points,
            dashed: false,
        }
    }

    /// A chart of one line from (0, lo) to (1, hi), its legend box in a free corner.
    fn chart(lo: f64, hi: f64) -> ChartSpec {
        ChartSpec {
            title: "t".into(),
            x_label: "x [m]".into(),
            y_label: "y [N]".into(),
            x_range: (0.0, 1.0),
            y_range: (lo, hi),
            x_log: false,
            series: vec![series("a", 0, vec![(0.0, lo), (1.0, hi)])],
            notes: Vec::new(),
            y_scale: 0.0,
        }
    }

    /// One frame of one panel, as `Lab::frame` draws it with the panel's own legend.
    fn draw(a: &mut StableAxes, spec: &ChartSpec, done: bool) -> Axes {
        a.start_drawing(done, 1);
        let f = a.frame(0, spec, LegendPlan::entries(&spec.series, spec), true);
        (f.x_range, f.y_range)
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn the_wait_counts_frame_gaps_capped_and_stops_at_the_budget() {
        let mut w = WaitBudget::default();
        // the first frame counts its own computing, later ones the gap since the previous
        assert!(!w.wait(1000.0, || 1012.0));
        assert_eq!(w.spent_ms, 12.0);
        assert!(!w.wait(1016.0, || unreachable!("a later frame counts its gap")));
        assert_eq!(w.spent_ms, 28.0);
        // a hidden tab's gap of 10 s counts as 100 ms
        assert!(!w.wait(11_016.0, || 0.0));
        assert_eq!(w.spent_ms, 128.0);
        // then 16 ms frames until the budget is spent
        let (mut t, mut frames) = (11_016.0, 0);
        loop {
            t += 16.0;
            frames += 1;
            if w.wait(t, || 0.0) {
                break;
            }
        }
        assert!(w.spent_ms >= WAIT_BUDGET_MS && w.spent_ms < WAIT_BUDGET_MS + 16.0);
        assert_eq!(frames, ((WAIT_BUDGET_MS - 128.0) / 16.0).ceil() as usize);
        let m = w.stop_message(3, 7, "fewer steps");
        assert!(
            m.starts_with("Stopped after 4 s (3 of 7 done; the page's time budget): fewer steps.")
                && m.ends_with("The plot shows what was computed."),
            "{m}"
        );
        // "Keep computing": 30 s more from here, the next frame counted as a first
        let spent = w.spent_ms;
        w.grant_more();
        assert_eq!(w.budget_s(), (spent + MORE_BUDGET_MS) / 1000.0);
        assert!(!w.wait(99_000.0, || 99_005.0));
        assert_eq!(w.spent_ms, spent + 5.0);
        assert_eq!(w.spent_s(), w.spent_ms / 1000.0);
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn a_first_drawing_goes_to_a_frame_that_only_draws() {
        let mut d = DrawDeferral::default();
        assert!(!d.draw_only_now());
        assert!(!d.defer(false, false), "nothing to defer: this frame draws");
        assert!(
            d.defer(true, false),
            "a first drawing waits for the next frame"
        );
        assert!(d.draw_only_now(), "which only draws");
        assert!(!d.draw_only_now(), "once");
        // the drawing after a stop waits too, but the next frame may compute
        assert!(d.defer(false, true));
        assert!(!d.draw_only_now());
        // the rest of a first drawing split over frames goes to a frame that only draws
        d.draw_next();
        assert!(d.draw_only_now());
        assert!(!d.draw_only_now());
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn axes_hold_while_the_data_stay_inside_and_follow_when_they_leave() {
        let mut a = StableAxes::new();
        let first = draw(&mut a, &chart(0.0, 10.0), true);
        assert_eq!(first.1 .0, padded_range(0.0, 10.0).0);
        // the data shrink: the axes stay
        assert_eq!(draw(&mut a, &chart(2.0, 8.0), true), first);
        assert_eq!(a.shown(0), Some(first));
        // the data leave: the axes follow
        let wider = draw(&mut a, &chart(0.0, 20.0), true);
        assert!(wider.1 .1 > first.1 .1);
        // locked: they stay even when the data leave
        a.set_locked(true);
        assert!(a.locked());
        assert_eq!(draw(&mut a, &chart(0.0, 40.0), true), wider);
        a.set_locked(false);
        // zoomed by hand: held until a fit
        let zoom = ((0.2, 0.4), (1.0, 2.0));
        assert!(a.set_by_hand(0, zoom));
        assert!(!a.set_by_hand(1, zoom), "no second panel");
        assert!(a.held());
        assert_eq!(draw(&mut a, &chart(0.0, 40.0), true), zoom);
        a.refit();
        assert!(!a.held());
        assert_eq!(
            draw(&mut a, &chart(2.0, 8.0), true).1,
            padded_range(2.0, 8.0)
        );
        assert_eq!(a.all().count(), 1);
        // a log x axis keeps the chart's range
        let mut log = chart(1.0, 2.0);
        log.x_log = true;
        log.x_range = (1e-3, 1e3);
        assert_eq!(draw(&mut a, &log, true).0, (1e-3, 1e3));
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn the_finished_picture_does_not_depend_on_the_frames_before_it() {
        // a link: partial frames widen the axes, the finished picture fits its own data
        let mut a = StableAxes::new();
        draw(&mut a, &chart(0.0, 10.0), false);
        draw(&mut a, &chart(-50.0, 10.0), false);
        let fresh = draw(&mut a, &chart(0.0, 10.0), true);
        assert_eq!(fresh.1, padded_range(0.0, 10.0));
        // a changed value: a transient leaves the axes, the finished picture inside the axes
        // shown at the change gets them back
        a.value_changed();
        draw(&mut a, &chart(-50.0, 10.0), false);
        a.value_changed();
        assert_eq!(draw(&mut a, &chart(1.0, 9.0), true), fresh);
        // other panels: fit afresh once finished
        a.panels_changed();
        draw(&mut a, &chart(-50.0, 10.0), false);
        assert_eq!(
            draw(&mut a, &chart(2.0, 8.0), true).1,
            padded_range(2.0, 8.0)
        );
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn room_is_made_for_an_own_legend_that_would_cover_data() {
        // four curves through every corner
        let wave = |k: usize| {
            series(
                &format!("s{k}"),
                k,
                (0..=200)
                    .map(|i| (i as f64 / 200.0, (i as f64 * 0.3 + k as f64).sin()))
                    .collect(),
            )
        };
        let mut spec = chart(-1.0, 1.0);
        spec.series = (0..4).map(wave).collect();
        let mut a = StableAxes::new();
        a.start_drawing(true, 1);
        let own = a.frame(0, &spec, spec.series.clone(), true);
        let (_, _, lo, hi) = data_bounds(&spec.series);
        let fitted = padded_range(lo, hi);
        assert_eq!(own.y_range.0, fitted.0);
        assert!(own.y_range.1 > fitted.1 + 0.2, "{:?}", own.y_range);
        // the kept range already has the room: it does not grow again
        a.set_locked(true);
        assert_eq!(
            a.frame(0, &spec, spec.series.clone(), true).y_range,
            own.y_range
        );
        // a legend in the band above takes no room from the plot
        let mut a = StableAxes::new();
        a.start_drawing(true, 1);
        assert_eq!(
            a.frame(0, &spec, spec.series.clone(), false).y_range,
            fitted
        );
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn legends_share_a_band_when_the_panels_list_the_same_curves_or_one_plot_is_small() {
        let key = |l: &str, k: usize| series(l, k, Vec::new());
        let same = [key("LuGre", 0), key("Dahl", 1)];
        let plan = LegendPlan::new(&[&same, &same], false);
        assert_eq!(plan.band().map(<[Series]>::len), Some(2));
        assert!(!plan.own_legends());
        // panels of different curves keep their own
        let other = [key("q", 0)];
        assert!(LegendPlan::new(&[&same, &other], true).own_legends());
        // one chart: its own box, in a band only on a small plot
        assert!(LegendPlan::new(&[&same], false).own_legends());
        let small = LegendPlan::new(&[&[series("F", 2, vec![(0.0, 1.0)])][..]], true);
        let band = small.band().expect("band on a small plot");
        assert_eq!(band[0].label, "F");
        assert!(band[0].points.is_empty(), "the band draws no data");
        assert!(LegendPlan::new(&[&[][..]], true).own_legends());
        // a frame's entries carry the data of the curve they name, and only those
        let spec = ChartSpec {
            series: vec![
                series("Dahl", 1, vec![(0.0, 2.0)]),
                series("", 3, vec![(0.5, 0.5)]),
            ],
            ..chart(0.0, 1.0)
        };
        let e = LegendPlan::entries(&same, &spec);
        assert_eq!(e.len(), 2);
        assert!(e[0].points.is_empty(), "LuGre has no curve here");
        assert_eq!(e[1].points, [(0.0, 2.0)]);
    }
}
