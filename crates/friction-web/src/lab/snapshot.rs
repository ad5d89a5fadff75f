//! What crosses between the page and its workers: from the view worker, a [`Snapshot`] of a
//! job (its status, tables and panels, as data); to the painter worker, a [`PaintRequest`] (the
//! frames and curves the page would draw on its own canvases), and back the panels' transforms
//! ([`encode_painted`]) for the plot's tools.
//!
//! On the way a snapshot is a list of numbers (a `Float64Array`, transferred, not copied: six
//! panels of thinned runs are ~10⁵ numbers) and a list of texts, written and read in one order
//! by [`encode`] and [`decode`]. Not serde: its deserialiser for JS values would cost the page's
//! first module ~18 KB of its 250 KB (gzip), and this format is read by nothing else.

use friction_plot::{ChartSpec, Series};
use plotters::style::RGBColor;
use std::rc::Rc;

use super::engine::{Engine, Panels};
use super::wire::{JobState, TableOut};
use friction_plot::PlotTransform;
use wasm_bindgen::JsValue;

/// A job's state as the page shows it, from one moment of the worker's run.
#[derive(Clone)]
pub(crate) struct Snapshot {
    /// The page's number of the job (requests and snapshots of older jobs are stale).
    pub(crate) id: u32,
    pub(crate) state: JobState,
    pub(crate) readout: TableOut,
    pub(crate) timings: TableOut,
    /// Every panel of the output.
    pub(crate) panels: Rc<Panels>,
}

/// Numbers and texts in the order [`Reader`] takes them back.
#[derive(Default)]
pub(crate) struct Wire {
    pub(crate) nums: Vec<f64>,
    pub(crate) texts: Vec<String>,
}

impl Wire {
    /// `{nums, texts}` for a message (`nums` a `Float64Array` to transfer).
    pub(crate) fn to_js(&self) -> JsValue {
        let out = js_sys::Object::new();
        let texts: js_sys::Array = self.texts.iter().map(|t| JsValue::from_str(t)).collect();
        let nums = js_sys::Float64Array::from(self.nums.as_slice());
        // setting a property of a fresh plain object cannot fail
        let _ = js_sys::Reflect::set(&out, &"nums".into(), &nums.into());
        let _ = js_sys::Reflect::set(&out, &"texts".into(), &texts.into());
        out.into()
    }
    fn num(&mut self, x: f64) {
        self.nums.push(x);
    }
    fn flag(&mut self, b: bool) {
        self.num(if b { 1.0 } else { 0.0 });
    }
    fn text(&mut self, s: &str) {
        self.texts.push(s.to_string());
    }
    fn maybe(&mut self, s: Option<&str>) {
        self.flag(s.is_some());
        if let Some(s) = s {
            self.text(s);
        }
    }
    fn texts(&mut self, v: &[String]) {
        self.num(v.len() as f64);
        v.iter().for_each(|s| self.text(s));
    }
    fn table(&mut self, t: &TableOut) {
        self.text(&t.caption);
        self.texts(&t.columns);
        self.num(t.rows.len() as f64);
        t.rows.iter().for_each(|r| self.texts(r));
        self.texts(&t.notes);
        self.texts(&t.definitions);
        self.text(&t.summary);
    }
    fn chart(&mut self, spec: &ChartSpec) {
        self.text(&spec.title);
        self.text(&spec.x_label);
        self.text(&spec.y_label);
        for x in [
            spec.x_range.0,
            spec.x_range.1,
            spec.y_range.0,
            spec.y_range.1,
        ] {
            self.num(x);
        }
        self.flag(spec.x_log);
        self.texts(&spec.notes);
        self.num(spec.y_scale);
        self.series(&spec.series);
    }
    fn series(&mut self, v: &[Series]) {
        self.num(v.len() as f64);
        for s in v {
            self.text(&s.label);
            for c in [s.color.0, s.color.1, s.color.2] {
                self.num(f64::from(c));
            }
            self.flag(s.dashed);
            self.num(s.points.len() as f64);
            self.nums.extend(s.points.iter().flat_map(|&(x, y)| [x, y]));
        }
    }
}

/// Takes back what [`Wire`] wrote; every count is checked against what is left, so a message
/// from elsewhere gives an error, never a panic or a huge allocation.
struct Reader<'a> {
    nums: &'a [f64],
    texts: std::vec::IntoIter<String>,
}

impl Reader<'_> {
    fn num(&mut self) -> Result<f64, String> {
        let (&x, rest) = self.nums.split_first().ok_or("the numbers end early")?;
        self.nums = rest;
        Ok(x)
    }
    /// A count no larger than `left`, what is left to read of what it counts.
    fn count(&mut self, left: usize) -> Result<usize, String> {
        let n = self.num()?;
        if n >= 0.0 && n.fract() == 0.0 && n <= left as f64 {
            Ok(n as usize)
        } else {
            Err(format!("a count of {n} with {left} items left"))
        }
    }
    fn flag(&mut self) -> Result<bool, String> {
        Ok(self.num()? != 0.0)
    }
    fn text(&mut self) -> Result<String, String> {
        self.texts
            .next()
            .ok_or_else(|| "the texts end early".into())
    }
    fn maybe(&mut self) -> Result<Option<String>, String> {
        if self.flag()? {
            self.text().map(Some)
        } else {
            Ok(None)
        }
    }
    fn texts(&mut self) -> Result<Vec<String>, String> {
        let n = self.count(self.texts.len())?;
        (0..n).map(|_| self.text()).collect()
    }
    fn table(&mut self) -> Result<TableOut, String> {
        let caption = self.text()?;
        let columns = self.texts()?;
        let n = self.count(self.nums.len())?;
        let rows = (0..n).map(|_| self.texts()).collect::<Result<_, _>>()?;
        Ok(TableOut {
            caption,
            columns,
            rows,
            notes: self.texts()?,
            definitions: self.texts()?,
            summary: self.text()?,
        })
    }
    fn chart(&mut self) -> Result<ChartSpec, String> {
        let (title, x_label, y_label) = (self.text()?, self.text()?, self.text()?);
        let x_range = (self.num()?, self.num()?);
        let y_range = (self.num()?, self.num()?);
        let x_log = self.flag()?;
        let notes = self.texts()?;
        let y_scale = self.num()?;
        let series = self.series()?;
        Ok(ChartSpec {
            title,
            x_label,
            y_label,
            x_range,
            y_range,
            x_log,
            series,
            notes,
            y_scale,
        })
    }
    /// Checks that nothing is left: a longer message is not one of ours.
    fn end(&self) -> Result<(), String> {
        if self.nums.is_empty() && self.texts.as_slice().is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} numbers and {} texts left over",
                self.nums.len(),
                self.texts.len()
            ))
        }
    }
    fn series(&mut self) -> Result<Vec<Series>, String> {
        let n = self.count(self.texts.len())?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let label = self.text()?;
            let mut c = [0u8; 3];
            for v in &mut c {
                *v = self.num()?.clamp(0.0, 255.0) as u8;
            }
            let dashed = self.flag()?;
            let len = self.count(self.nums.len() / 2)?;
            let (mine, rest) = self.nums.split_at(2 * len);
            self.nums = rest;
            out.push(Series {
                label,
                color: RGBColor(c[0], c[1], c[2]),
                points: mine.chunks_exact(2).map(|p| (p[0], p[1])).collect(),
                dashed,
            });
        }
        Ok(out)
    }
}

/// The engine's job now, as job `id` of the page.
pub(crate) fn encode(engine: &Engine, id: u32) -> Wire {
    let mut w = Wire::default();
    w.num(f64::from(id));
    let st = engine.state();
    w.flag(st.done);
    w.flag(st.stopped);
    w.maybe(st.error.as_deref());
    w.num(st.progress.0 as f64);
    w.num(st.progress.1 as f64);
    w.num(st.spent_s);
    w.num(st.budget_s);
    w.table(&engine.readout());
    w.table(&engine.timings());
    let panels = engine.panels();
    w.num(panels.len() as f64);
    for (spec, legend) in panels.iter() {
        w.chart(spec);
        w.series(legend);
    }
    w
}

/// The snapshot [`encode`] wrote; an error says what did not fit (a message from elsewhere).
pub(crate) fn decode(nums: &[f64], texts: Vec<String>) -> Result<Snapshot, String> {
    let mut r = Reader {
        nums,
        texts: texts.into_iter(),
    };
    let id = r.num()?;
    if !(0.0..=f64::from(u32::MAX)).contains(&id) || id.fract() != 0.0 {
        return Err(format!("no job number: {id}"));
    }
    let (done, stopped, error) = (r.flag()?, r.flag()?, r.maybe()?);
    let progress = (r.count(usize::MAX)?, r.count(usize::MAX)?);
    let (spent_s, budget_s) = (r.num()?, r.num()?);
    let state = JobState {
        done,
        progress,
        error,
        stopped,
        spent_s,
        budget_s,
    };
    let (readout, timings) = (r.table()?, r.table()?);
    let n = r.count(r.texts.len())?;
    let mut panels = Vec::with_capacity(n);
    for _ in 0..n {
        panels.push((r.chart()?, r.series()?));
    }
    r.end()?;
    Ok(Snapshot {
        id: id as u32,
        state,
        readout,
        timings,
        panels: Rc::new(panels),
    })
}

/// A drawing the page asks of its painter worker: what [`crate::draw::Surface::draw_panels`]
/// would draw on the page's own canvases, and their size.
pub(crate) struct PaintRequest {
    /// The page's number of the drawing (the painter's answer names it).
    pub(crate) seq: u32,
    /// The canvases' CSS size \[px\] and device pixels per CSS pixel.
    pub(crate) css: (i32, i32),
    pub(crate) dpr: f64,
    /// Each panel's frame (its series: the legend's entries) and its curves.
    pub(crate) panels: Vec<(ChartSpec, Vec<Series>)>,
    /// The legend band's entries, when the legend goes above the panels.
    pub(crate) band: Option<Vec<Series>>,
}

/// The drawing `seq` of these frames and curves on canvases of `css` CSS px at `dpr`.
pub(crate) fn encode_paint(
    seq: u32,
    css: (i32, i32),
    dpr: f64,
    panels: &[(&ChartSpec, &[Series])],
    band: Option<&[Series]>,
) -> Wire {
    let mut w = Wire::default();
    w.num(f64::from(seq));
    w.num(f64::from(css.0));
    w.num(f64::from(css.1));
    w.num(dpr);
    w.num(panels.len() as f64);
    for (frame, curves) in panels {
        w.chart(frame);
        w.series(curves);
    }
    w.flag(band.is_some());
    if let Some(b) = band {
        w.series(b);
    }
    w
}

/// The drawing [`encode_paint`] wrote; an error says what did not fit.
pub(crate) fn decode_paint(nums: &[f64], texts: Vec<String>) -> Result<PaintRequest, String> {
    let mut r = Reader {
        nums,
        texts: texts.into_iter(),
    };
    let seq = r.count(u32::MAX as usize)? as u32;
    // a canvas of up to 2^16 CSS px a side, 1 to 16 device px per CSS px
    let css = (r.count(1 << 16)? as i32, r.count(1 << 16)? as i32);
    let dpr = r.num()?;
    if !(1.0..=16.0).contains(&dpr) {
        return Err(format!("a pixel ratio of {dpr}"));
    }
    let n = r.count(r.texts.len())?;
    let mut panels = Vec::with_capacity(n);
    for _ in 0..n {
        panels.push((r.chart()?, r.series()?));
    }
    let band = if r.flag()? { Some(r.series()?) } else { None };
    r.end()?;
    Ok(PaintRequest {
        seq,
        css,
        dpr,
        panels,
        band,
    })
}

/// Numbers of one [`PlotTransform`] on the wire.
const TRANSFORM_NUMS: usize = 15;

/// The painter's answer to drawing `seq`: the pixel ratio and where each panel went.
pub(crate) fn encode_painted(seq: u32, dpr: f64, transforms: &[PlotTransform]) -> Vec<f64> {
    let mut out = vec![f64::from(seq), dpr];
    for t in transforms {
        out.extend_from_slice(&[
            t.px.0,
            t.px.1,
            t.py.0,
            t.py.1,
            t.x_range.0,
            t.x_range.1,
            t.y_range.0,
            t.y_range.1,
            f64::from(u8::from(t.x_log)),
            t.clip.0,
            t.clip.1,
            t.clip.2,
            t.clip.3,
            t.n_ticks.0 as f64,
            t.n_ticks.1 as f64,
        ]);
    }
    out
}

/// What [`encode_painted`] wrote: the drawing's number, the pixel ratio and the transforms.
pub(crate) fn decode_painted(nums: &[f64]) -> Result<(u32, f64, Vec<PlotTransform>), String> {
    let mut r = Reader {
        nums,
        texts: Vec::new().into_iter(),
    };
    let seq = r.count(u32::MAX as usize)? as u32;
    let dpr = r.num()?;
    if !(1.0..=16.0).contains(&dpr) || r.nums.len() % TRANSFORM_NUMS != 0 {
        return Err(format!(
            "a pixel ratio of {dpr} and {} numbers",
            r.nums.len()
        ));
    }
    let mut transforms = Vec::with_capacity(r.nums.len() / TRANSFORM_NUMS);
    for t in r.nums.chunks_exact(TRANSFORM_NUMS) {
        // tick counts are small whole numbers (`as` takes NaN and negatives to 0); a count
        // from elsewhere must not make the read-out list millions of labels
        transforms.push(PlotTransform {
            px: (t[0], t[1]),
            py: (t[2], t[3]),
            x_range: (t[4], t[5]),
            y_range: (t[6], t[7]),
            x_log: t[8] != 0.0,
            clip: (t[9], t[10], t[11], t[12]),
            n_ticks: (t[13].min(1000.0) as usize, t[14].min(1000.0) as usize),
        });
    }
    Ok((seq, dpr, transforms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use friction_core::scenario::Scenario;

    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

    fn finished(query: &str) -> Engine {
        let (s, errors) = Scenario::parse_lenient(query);
        assert!(errors.is_empty(), "{query}: {errors:?}");
        let mut e = Engine::new(&s);
        let clock = || 0.0;
        while !e.done() {
            e.compute(f64::INFINITY, true, &clock);
        }
        e
    }

    fn same_panels(a: &Panels, b: &Panels) {
        assert_eq!(a.len(), b.len());
        for ((sa, la), (sb, lb)) in a.iter().zip(b) {
            assert_eq!(format!("{sa:?}"), format!("{sb:?}"));
            assert_eq!(format!("{la:?}"), format!("{lb:?}"));
        }
    }

    // run by wasm-bindgen-test in Chromium (scripts/test.sh) and by a native `cargo test`
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn a_snapshot_carries_every_panel_point_and_table_of_the_job() {
        for q in ["v=1", "v=1&view=relaxation"] {
            let e = finished(q);
            let w = encode(&e, 7);
            let s = decode(&w.nums, w.texts).unwrap();
            assert_eq!((s.id, &s.state), (7, &e.state()));
            assert!(
                !s.panels.is_empty() && s.panels[0].0.series.iter().any(|c| c.points.len() > 10)
            );
            same_panels(&s.panels, &e.panels());
            assert_eq!(s.readout.rows, e.readout().rows);
        }
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn a_snapshot_cut_short_or_padded_is_refused_not_read() {
        let e = finished("v=1");
        let w = encode(&e, 1);
        for cut in [0, 5, w.nums.len() / 2, w.nums.len() - 1, w.nums.len() + 2] {
            let mut nums = w.nums.clone();
            nums.resize(cut, 1e300);
            let err = decode(&nums, w.texts.clone()).map(|_| ()).unwrap_err();
            assert!(!err.is_empty());
        }
        for cut in [0, 3, w.texts.len() - 1] {
            let err = decode(&w.nums, w.texts[..cut].to_vec())
                .map(|_| ())
                .unwrap_err();
            assert!(!err.is_empty());
        }
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn a_drawing_crosses_to_the_painter_whole_and_a_cut_one_is_refused() {
        let e = finished("v=1&view=relaxation");
        let panels = e.panels();
        let list: Vec<(&ChartSpec, &[Series])> = panels
            .iter()
            .map(|(spec, legend)| (spec, legend.as_slice()))
            .collect();
        for band in [None, Some(panels[0].1.as_slice())] {
            let w = encode_paint(9, (640, 480), 2.0, &list, band);
            let r = decode_paint(&w.nums, w.texts.clone()).unwrap();
            assert_eq!((r.seq, r.css, r.dpr), (9, (640, 480), 2.0));
            assert_eq!(format!("{:?}", r.band.as_deref()), format!("{band:?}"));
            assert_eq!(r.panels.len(), list.len());
            for ((spec, curves), (s0, c0)) in r.panels.iter().zip(&list) {
                assert_eq!(format!("{spec:?}"), format!("{s0:?}"));
                assert_eq!(format!("{curves:?}"), format!("{c0:?}"));
            }
            for cut in [0, 3, w.nums.len() - 1, w.nums.len() + 1] {
                let mut nums = w.nums.clone();
                nums.resize(cut, 0.0);
                assert!(
                    decode_paint(&nums, w.texts.clone()).is_err(),
                    "cut at {cut}"
                );
            }
            assert!(decode_paint(&w.nums, w.texts[1..].to_vec()).is_err());
        }
        // sizes and ratios from elsewhere are refused, not drawn
        for (css, dpr) in [((-1, 10), 1.0), ((10, 10), 0.0), ((10, 10), f64::NAN)] {
            let mut w = encode_paint(1, (10, 10), 1.0, &list, None);
            (w.nums[1], w.nums[3]) = (f64::from(css.0), dpr);
            assert!(decode_paint(&w.nums, w.texts).is_err(), "{css:?} {dpr}");
        }
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn the_painters_answer_carries_every_transform() {
        let t = |k: f64| PlotTransform {
            px: (k, k + 1.0),
            py: (k + 2.0, k + 3.0),
            x_range: (-k, k),
            y_range: (k * 0.5, k * 7.0),
            x_log: k > 1.0,
            clip: (k, k + 4.0, k + 5.0, k + 6.0),
            n_ticks: (k as usize, 2 * k as usize),
        };
        let ts = [t(1.0), t(3.0)];
        let (seq, dpr, back) = decode_painted(&encode_painted(5, 1.5, &ts)).unwrap();
        assert_eq!((seq, dpr), (5, 1.5));
        assert_eq!(format!("{back:?}"), format!("{ts:?}"));
        let a = encode_painted(5, 1.5, &ts);
        assert!(decode_painted(&a[..a.len() - 1]).is_err());
        assert!(decode_painted(&[1.0]).is_err());
        assert!(decode_painted(&[-1.0, 1.0]).is_err());
    }
}
