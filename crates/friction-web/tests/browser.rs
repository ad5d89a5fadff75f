//! wasm-bindgen-test suite, run in headless Chromium by scripts/test.sh: the wasm API the page
//! uses (scenario in, loop data out, errors as JS errors with messages) and real pixels.
#![cfg(target_arch = "wasm32")]

use friction_core::experiments::hysteresis;
use friction_core::scenario::Scenario;
use friction_web::{Lab, Painter};
use js_sys::{Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{
    CanvasRenderingContext2d, HtmlCanvasElement, OffscreenCanvas, OffscreenCanvasRenderingContext2d,
};

wasm_bindgen_test_configure!(run_in_browser);

fn canvas(w: u32, h: u32) -> HtmlCanvasElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let c: HtmlCanvasElement = doc.create_element("canvas").unwrap().dyn_into().unwrap();
    c.style().set_property("width", &format!("{w}px")).unwrap();
    c.style().set_property("height", &format!("{h}px")).unwrap();
    doc.body().unwrap().append_child(&c).unwrap();
    c
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap()
}

fn num(v: &JsValue, key: &str) -> f64 {
    get(v, key).as_f64().unwrap()
}

fn message(e: wasm_bindgen::JsError) -> String {
    let v: JsValue = e.into();
    v.dyn_into::<js_sys::Error>().unwrap().message().into()
}

/// Pixels close to `rgb` on a canvas.
fn count(c: &HtmlCanvasElement, rgb: [u8; 3]) -> usize {
    let ctx: CanvasRenderingContext2d = c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let data = ctx
        .get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64)
        .unwrap()
        .data();
    data.chunks(4)
        .filter(|p| p[3] > 0 && (0..3).all(|i| (p[i] as i32 - rgb[i] as i32).abs() <= 40))
        .count()
}

#[wasm_bindgen_test]
fn hysteresis_loops_returns_the_cores_loops() {
    let out = friction_web::hysteresis_loops("v=1&freqs=25,100").unwrap();
    assert_eq!(get(&out, "query").as_string().unwrap(), "v=1&freqs=25,100");
    let loops: Array = get(&out, "loops").dyn_into().unwrap();
    assert_eq!(loops.length(), 2);
    // the same numbers as the core computes natively for that scenario
    let cfg = Scenario::parse("v=1&freqs=25,100")
        .unwrap()
        .hysteresis_config()
        .unwrap();
    let native = hysteresis::run(&cfg);
    for (i, n) in native.iter().enumerate() {
        let l = loops.get(i as u32);
        assert_eq!(num(&l, "freq"), n.freq);
        assert_eq!(num(&l, "fmax"), n.metrics.fmax);
        assert_eq!(num(&l, "area"), n.metrics.area);
        assert_eq!(num(&l, "passivity_residual"), n.metrics.passivity_residual);
        let v: Array = get(&l, "v").dyn_into().unwrap();
        let f: Array = get(&l, "f").dyn_into().unwrap();
        assert_eq!(v.length() as usize, n.v.len());
        assert_eq!(f.length(), v.length());
        assert!(num(&l, "fmax") > num(&l, "fmin"));
        assert_eq!(get(&l, "converged").as_bool(), Some(true));
    }
}

#[wasm_bindgen_test]
fn bad_scenarios_are_js_errors_naming_key_value_and_range() {
    let e = friction_web::hysteresis_loops("v=1&k0=-5").unwrap_err();
    let m = message(e);
    assert!(
        m.contains("k0") && m.contains("-5") && m.contains("0.001 ≤ k0 ≤ 1000000000"),
        "{m}"
    );
    let e = friction_web::hysteresis_loops("v=1&vs=abc&zzz=1").unwrap_err();
    let m = message(e);
    assert!(m.contains("vs = \"abc\"") && m.contains("zzz"), "{m}");

    let checked = friction_web::check_query("k0=-5&vs=abc&n=999&zzz=1&mus=1.7");
    let errs: Array = get(&checked, "errors").dyn_into().unwrap();
    let keys: Vec<String> = errs
        .iter()
        .map(|e| get(&e, "key").as_string().unwrap())
        .collect();
    for k in ["k0", "vs", "n", "zzz"] {
        assert!(keys.iter().any(|x| x == k), "{k} missing from {keys:?}");
    }
    assert_eq!(get(&checked, "query").as_string().unwrap(), "v=1&mus=1.7");
}

#[wasm_bindgen_test]
fn lab_set_rejects_bad_values_and_keeps_state() {
    let mut lab = Lab::new("v=1&vs=0.02");
    assert_eq!(Array::from(&lab.errors()).length(), 0);
    let m = message(lab.set("vs", "-1").unwrap_err());
    assert!(m.contains("vs") && m.contains("-1"), "{m}");
    assert_eq!(lab.query(), "v=1&vs=0.02");
    lab.set("vs", "0.0123456789012345").unwrap();
    assert_eq!(lab.query(), "v=1&vs=0.0123456789012345");
    assert_eq!(lab.get("vs").as_deref(), Some("0.0123456789012345"));
    let controls = Array::from(&lab.controls());
    let vs = controls
        .iter()
        .find(|c| get(c, "key").as_string().as_deref() == Some("vs"))
        .unwrap();
    assert_eq!(
        get(&vs, "label").as_string().unwrap(),
        "Stribeck velocity v_S [m/s]"
    );
    assert_eq!(get(&vs, "log").as_bool(), Some(true));
    assert_eq!(get(&vs, "kind").as_string().unwrap(), "number");
    // a link with bad keys still builds a lab with the good ones
    let lab = Lab::new("k0=-5&vs=abc&n=999&zzz=1&mus=1.7");
    assert_eq!(Array::from(&lab.errors()).length(), 4);
    assert_eq!(lab.query(), "v=1&mus=1.7");
}

#[wasm_bindgen_test]
fn lab_draws_loops_on_the_overlay_and_the_frame_once() {
    let (bg, fg) = (canvas(800, 500), canvas(800, 500));
    let mut lab = Lab::new("v=1");
    lab.attach(bg.clone(), fg.clone()).unwrap();
    // the first frame computes; a new surface's first drawing waits for the next frame (the
    // chart code's first run is compiled then: issue 18's long task at load)
    let st = lab.frame(1000.0).unwrap();
    assert_eq!(get(&st, "done").as_bool(), Some(false));
    assert_eq!(count(&fg, [0x00, 0x72, 0xb2]), 0, "nothing drawn yet");
    let st = lab.frame(1000.0).unwrap();
    assert_eq!(get(&st, "done").as_bool(), Some(true));
    assert_eq!(get(&st, "background").as_bool(), Some(true));
    for rgb in [[0x00, 0x72, 0xb2], [0xd5, 0x5e, 0x00], [0x00, 0x9e, 0x73]] {
        assert!(count(&fg, rgb) > 200, "loop colour {rgb:?} on the overlay");
        assert!(
            count(&bg, rgb) > 10,
            "legend colour {rgb:?} on the background"
        );
    }
    // a small change redraws the loops but keeps the axes (stable scale)
    lab.set("vs", "0.0105").unwrap();
    let st = lab.frame(1000.0).unwrap();
    assert_eq!(get(&st, "background").as_bool(), Some(false));
    let rows: Array = get(&lab.readout(), "rows").dyn_into().unwrap();
    assert_eq!(rows.length(), 3);
    let svg = lab.svg(800, 500).unwrap();
    assert!(svg.contains("<svg") && svg.contains("100 Hz") && svg.contains("#0072B2"));
}

#[wasm_bindgen_test]
fn heavy_parameter_sets_are_spread_over_frames() {
    let (bg, fg) = (canvas(400, 300), canvas(400, 300));
    // k0 = 1e8 needs 20000 steps per cycle: far more than one frame's budget
    let mut lab = Lab::new("v=1&k0=1e8");
    lab.attach(bg, fg).unwrap();
    let st = lab.frame(1.0).unwrap();
    assert_eq!(
        get(&st, "done").as_bool(),
        Some(false),
        "first frame only starts"
    );
    let mut frames = 1;
    while !get(&lab.frame(4.0).unwrap(), "done").as_bool().unwrap() {
        frames += 1;
        assert!(frames < 10_000);
    }
    assert!(frames > 2, "work was split over {frames} frames");
    let rows: Array = get(&lab.readout(), "rows").dyn_into().unwrap();
    assert_eq!(rows.length(), 3);
}

#[wasm_bindgen_test]
fn a_surfaces_first_drawing_has_its_frame_to_itself() {
    // The first drawing runs the chart code cold (V8 compiles it then): the frame that does it
    // computes nothing, whatever its budget, or the two made one long task at load (issue 18).
    let (bg, fg) = (canvas(600, 400), canvas(600, 400));
    // 20 000 steps per cycle: a few milliseconds give part of the first loop, not the job
    let mut lab = Lab::new("v=1&k0=1e8");
    lab.attach(bg, fg).unwrap();
    let drew = |st: &JsValue| get(st, "background").as_bool() == Some(true);
    let progress = |st: &JsValue| Array::from(&get(st, "progress")).get(0).as_f64();
    let mut frames = 0;
    let (before, drawing) = loop {
        let st = lab.frame(2.0).unwrap();
        frames += 1;
        assert!(!drew(&st), "frame {frames} computed and drew");
        // a frame that computed something drawable hands the drawing on
        let next = lab.frame(10_000.0).unwrap();
        if drew(&next) {
            break (st, next);
        }
        assert!(frames < 1000);
    };
    assert_eq!(
        get(&drawing, "done").as_bool(),
        Some(false),
        "the drawing frame computed the job"
    );
    assert_eq!(progress(&drawing), progress(&before));
    // the frames after it compute again
    let after = lab.frame(10_000.0).unwrap();
    assert_eq!(get(&after, "done").as_bool(), Some(true));
}

#[wasm_bindgen_test]
fn a_link_draws_the_same_picture_however_its_frames_were_cut() {
    // In frames of ~0.2 ms the first pictures hold part of one loop and fix provisional axes;
    // the finished picture must still be the one a single long frame draws (same axes, same
    // legend corner), or a shared link looks different on a slower machine.
    let finished = |budget: f64| {
        let (bg, fg) = (canvas(600, 400), canvas(600, 400));
        let mut lab = Lab::new("v=1");
        lab.attach(bg, fg).unwrap();
        let mut frames = 0;
        while !get(&lab.frame(budget).unwrap(), "done").as_bool().unwrap() {
            frames += 1;
            assert!(frames < 100_000);
        }
        (lab.svg(600, 400).unwrap(), frames)
    };
    let (one, n1) = finished(10_000.0);
    assert_eq!(n1, 1, "one frame computes all, the next draws");
    for budget in [0.05, 0.2, 1.0, 3.0] {
        let (many, n2) = finished(budget);
        assert!(budget > 0.1 || n2 > 3, "{budget} ms: {n2} frames");
        assert!(
            one == many,
            "the finished SVGs differ with {budget} ms frames"
        );
    }
}

#[wasm_bindgen_test]
fn a_run_of_millions_of_steps_is_thinned_over_its_whole_length_on_wasm32() {
    // usize is 32 bits here: bucket edges computed as k·n overflowed beyond ~4.3e9 and the
    // last 40 % of a 3.5 M-step run was drawn as chords back to its start (native tests,
    // with 64-bit usize, could not see it)
    use friction_core::experiments::stickslip::StickSlipRun;
    use friction_plot::stickslip::{time_chart, Quantity};
    let n = 3_500_000;
    let run = StickSlipRun {
        t: (0..n).map(|i| i as f64).collect(),
        x: (0..n).map(|i| (i as f64 * 0.37).sin()).collect(),
        ..StickSlipRun::default()
    };
    let chart = time_chart(&[("a", &run)], Quantity::Position);
    let pts = &chart.series[0].points;
    assert!(pts.len() <= 4010, "{} points", pts.len());
    assert!(
        pts.windows(2).all(|w| w[1].0 >= w[0].0),
        "time runs forward"
    );
    let late = pts.iter().filter(|p| p.0 > 0.9 * n as f64).count();
    assert!(
        late > pts.len() / 20,
        "{late} of {} points in the last tenth",
        pts.len()
    );
}

/// This suite builds the page's first module (no `full` feature): it runs the FrBD letter's two
/// views, offers all ten, and says which links need the second module.
#[wasm_bindgen_test]
fn the_first_module_runs_the_letter_views_and_names_the_rest() {
    use friction_web::{link_needs_full, view_needs_full};
    assert!(!view_needs_full("hysteresis") && !view_needs_full("relaxation"));
    assert!(view_needs_full("stickslip") && view_needs_full("curve") && view_needs_full("sweep"));
    assert!(
        !view_needs_full("nonsense"),
        "no module has it: the scenario explains"
    );
    assert!(link_needs_full("v=1&view=robot&tend=3"));
    assert!(
        link_needs_full("view=%20stickslip"),
        "decoded and trimmed as the scenario reads it"
    );
    assert!(
        !link_needs_full("view=stickslip&view=relaxation"),
        "the last value counts"
    );
    assert!(!link_needs_full("v=1&vs=0.02"));
    let lab = Lab::new("v=1");
    let controls = Array::from(&lab.controls());
    let view = controls
        .iter()
        .find(|c| get(c, "key").as_string().as_deref() == Some("view"))
        .unwrap();
    // the ten views, and the fit workspace, which runs outside them
    assert_eq!(Array::from(&get(&view, "options")).length(), 11);
    // reached only if the page did not load the second module first: a message, no panic
    let lab = Lab::new("view=stickslip");
    let errs = Array::from(&lab.errors());
    assert_eq!(errs.length(), 1);
    let reason = get(&errs.get(0), "reason").as_string().unwrap();
    assert!(reason.contains("not in this build"), "{reason}");
    assert_eq!(lab.view(), "hysteresis");
}

/// Runs a Lab's frames of `budget_ms` until its job is done.
fn finish(lab: &mut Lab, budget_ms: f64) {
    let mut frames = 0;
    while !get(&lab.frame(budget_ms).unwrap(), "done")
        .as_bool()
        .unwrap()
    {
        frames += 1;
        assert!(frames < 100_000);
    }
}

/// Pixels with any ink on a canvas.
fn inked(c: &HtmlCanvasElement) -> usize {
    let ctx: CanvasRenderingContext2d = c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let d = ctx.get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64);
    d.unwrap().data().chunks(4).filter(|p| p[3] > 0).count()
}

/// Hands a `ViewJob` snapshot to the Lab as the page's wiring does.
fn receive(lab: &mut Lab, snap: &JsValue) -> Option<bool> {
    let nums: js_sys::Float64Array = get(snap, "nums").dyn_into().unwrap();
    let texts: Vec<String> = Array::from(&get(snap, "texts"))
        .iter()
        .map(|t| t.as_string().unwrap())
        .collect();
    lab.receive(nums.to_vec(), texts).ok()
}

/// The page's view-worker wiring in one thread: the Lab's request, if a job, computed to its end
/// by a `ViewJob` (as www/view-worker.js does), and its snapshot handed back. Returns the request.
fn serve(lab: &mut Lab) -> JsValue {
    let req = lab.take_request();
    if get(&req, "op").as_string().as_deref() == Some("job") {
        let query = get(&req, "query").as_string().unwrap();
        let id = num(&req, "id") as u32;
        let mut job = friction_web::ViewJob::new(&query, id, num(&req, "waited_ms"));
        while !job.done() {
            job.run(1e9);
        }
        let snap = job.snapshot();
        assert_eq!(receive(lab, &snap), Some(true));
    }
    req
}

#[wasm_bindgen_test]
fn a_lab_with_a_view_worker_draws_the_workers_job_as_it_would_its_own() {
    // 20 000 steps per cycle: more than the main thread's share of a job
    let query = "v=1&k0=1e8";
    let finish = |lab: &mut Lab| finish(lab, 4.0);
    let alone_fg = canvas(600, 400);
    let mut alone = Lab::new(query);
    alone.attach(canvas(600, 400), alone_fg.clone()).unwrap();
    finish(&mut alone);

    let fg = canvas(600, 400);
    let mut lab = Lab::new(query);
    lab.attach(canvas(600, 400), fg.clone()).unwrap();
    lab.use_worker();
    // until the worker answers, the page computes the job itself, a little each frame
    for _ in 0..3 {
        let st = lab.frame(1.0).unwrap();
        assert_eq!(get(&st, "done").as_bool(), Some(false));
    }
    let req = serve(&mut lab);
    assert_eq!(get(&req, "query").as_string(), Some(lab.query()));
    finish(&mut lab);
    assert!(
        lab.take_request().is_null(),
        "the worker's answer was shown (a job finished on the page would cancel it)"
    );
    assert!(inked(&fg) > 100, "the worker's loops are drawn");
    assert_eq!(inked(&fg), inked(&alone_fg), "as the page draws its own");
    assert!(
        lab.svg(600, 400).unwrap() == alone.svg(600, 400).unwrap(),
        "the worker's picture is the page's own"
    );
    // the data of a job shown from the worker are the worker's to give
    assert!(lab.csv().is_err());
    let id = lab.worker_job().expect("the worker's job is shown");
    let mut job = friction_web::ViewJob::new(&lab.query(), id, 0.0);
    while !job.done() {
        job.run(1e9);
    }
    assert_eq!(job.csv().ok(), alone.csv().ok());
    let rows = |l: &Lab| js_sys::JSON::stringify(&get(&l.readout(), "rows")).unwrap();
    assert_eq!(rows(&lab), rows(&alone));

    // a snapshot of an older job is dropped; one that does not read is refused, changing nothing
    let old = friction_web::ViewJob::new(query, num(&req, "id") as u32 - 1, 0.0).snapshot();
    assert_eq!(receive(&mut lab, &old), Some(false));
    let e = lab.receive(vec![1.0], vec!["x".into()]).unwrap_err();
    assert!(!message(e).is_empty());
    assert!(lab.svg(600, 400).unwrap() == alone.svg(600, 400).unwrap());
}

#[wasm_bindgen_test]
fn a_slider_step_the_page_finishes_itself_is_not_sent_to_the_worker() {
    let mut lab = Lab::new("v=1&freqs=25");
    lab.attach(canvas(400, 300), canvas(400, 300)).unwrap();
    lab.use_worker();
    assert_eq!(
        get(&serve(&mut lab), "op").as_string().as_deref(),
        Some("job")
    );
    lab.frame(100.0).unwrap();
    // a light job: the main thread's share finishes it in the frame of the input
    lab.set("vs", "0.02").unwrap();
    let mut frames = 0;
    while !get(&lab.frame(1000.0).unwrap(), "done").as_bool().unwrap() {
        frames += 1;
        assert!(frames < 3, "a frame to compute, one to draw");
    }
    assert!(lab.take_request().is_null(), "nothing to send");
    // a heavy one is sent; finished on the page after all, the worker is told to stop it
    lab.set("k0", "1e8").unwrap();
    lab.frame(1.0).unwrap();
    let req = lab.take_request();
    assert_eq!(get(&req, "op").as_string().as_deref(), Some("job"));
    lab.worker_gone();
    let mut frames = 0;
    while !get(&lab.frame(50.0).unwrap(), "done").as_bool().unwrap() {
        frames += 1;
        assert!(frames < 100_000);
    }
    assert!(lab.take_request().is_null(), "no worker, no requests");
    let rows: Array = get(&lab.readout(), "rows").dyn_into().unwrap();
    assert_eq!(rows.length(), 1, "the page computed the job itself");
}

/// The robot view is in the page's second module: `scripts/test.sh` runs this test with
/// `--features full`.
#[cfg(feature = "full")]
#[wasm_bindgen_test]
fn an_input_on_a_job_of_whole_runs_shows_its_run_in_progress_in_its_own_frame() {
    // A robot run draws nothing until it ends: the frame of an input draws the new run as far
    // as it got (issue 39: input -> shown was 40-70 ms, waiting for the worker), and the job
    // goes on to the same finished picture.
    let query = "v=1&view=robot";
    let finish = |lab: &mut Lab| finish(lab, 50.0);
    let fg = canvas(600, 400);
    let mut lab = Lab::new(query);
    lab.attach(canvas(600, 400), fg.clone()).unwrap();
    finish(&mut lab);
    lab.set("qamp", "0.6").unwrap();
    let st = lab.frame(1.0).unwrap();
    assert_eq!(get(&st, "done").as_bool(), Some(false), "a part of the run");
    assert_eq!(
        get(&st, "first_drawing").as_bool(),
        Some(true),
        "drawn in the input's frame"
    );
    assert!(inked(&fg) > 20, "the run in progress is on the overlay");
    finish(&mut lab);
    // the same run as a link of it computes (the picture's axes keep the earlier run's range)
    let mut plain = Lab::new(&lab.query());
    plain.attach(canvas(600, 400), canvas(600, 400)).unwrap();
    finish(&mut plain);
    assert!(lab.csv().unwrap() == plain.csv().unwrap(), "the same data");
    let rows = |l: &Lab| js_sys::JSON::stringify(&get(&l.readout(), "rows")).unwrap();
    assert_eq!(rows(&lab), rows(&plain), "the same numbers");
}

/// Every pixel (RGBA) of a page's canvas and of an `OffscreenCanvas`.
fn page_pixels(c: &HtmlCanvasElement) -> Vec<u8> {
    let ctx: CanvasRenderingContext2d = c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let d = ctx.get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64);
    d.unwrap().data().0
}

fn offscreen_pixels(c: &OffscreenCanvas) -> Vec<u8> {
    let ctx: OffscreenCanvasRenderingContext2d =
        c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let d = ctx.get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64);
    d.unwrap().data().0
}

#[wasm_bindgen_test]
fn a_lab_with_a_painter_shows_the_picture_it_would_draw_itself() {
    let dpr = web_sys::window().unwrap().device_pixel_ratio();
    for query in ["v=1&freqs=25,100", "v=1&view=relaxation"] {
        let (bg, fg) = (canvas(600, 400), canvas(600, 400));
        let mut alone = Lab::new(query);
        alone.attach(bg.clone(), fg.clone()).unwrap();
        finish(&mut alone, 50.0);

        // the page's painter wiring in one thread: each drawing taken, painted and answered
        let (obg, ofg) = (
            OffscreenCanvas::new(1, 1).unwrap(),
            OffscreenCanvas::new(1, 1).unwrap(),
        );
        let mut painter = Painter::new(obg.clone(), ofg.clone()).unwrap();
        let mut lab = Lab::new(query);
        lab.use_painter(600, 400, dpr);
        let (mut drawings, mut waited, mut firsts) = (0, false, 0);
        for frames in 0.. {
            assert!(frames < 100_000);
            let st = lab.frame(50.0).unwrap();
            let (done, painting) = (get(&st, "done"), get(&st, "painting"));
            if done.as_bool() == Some(true) && painting.as_bool() == Some(false) {
                break;
            }
            let paint = lab.take_paint();
            if paint.is_null() {
                continue;
            }
            // until the painter answers, the picture on screen is not the state's
            let st = lab.frame(50.0).unwrap();
            assert_eq!(get(&st, "painting").as_bool(), Some(true), "{query}");
            waited |= get(&st, "done").as_bool() == Some(true);
            let (nums, texts) = (get(&paint, "nums"), get(&paint, "texts"));
            let texts: Vec<String> = Array::from(&texts)
                .iter()
                .map(|t| t.as_string().unwrap())
                .collect();
            let nums: js_sys::Float64Array = nums.dyn_into().unwrap();
            let answer = painter.paint(nums.to_vec(), texts).unwrap();
            firsts += usize::from(lab.painted(answer).unwrap());
            drawings += 1;
        }
        assert!(drawings >= 1 && waited, "{query}: {drawings} drawings");
        assert_eq!(firsts, 1, "{query}: the job's first drawing is told once");
        assert_eq!((obg.width(), obg.height()), (bg.width(), bg.height()));
        assert!(inked(&fg) > 100, "{query}");
        assert!(
            offscreen_pixels(&obg) == page_pixels(&bg),
            "{query}: the frames"
        );
        assert!(
            offscreen_pixels(&ofg) == page_pixels(&fg),
            "{query}: the curves"
        );
        // the plot's tools read where the painter's panels went
        let ticks = |l: &Lab| js_sys::JSON::stringify(&l.ticks()).unwrap();
        assert_eq!(ticks(&lab), ticks(&alone));
        assert!(ticks(&lab).length() > 10);
        assert_eq!(
            lab.nearest(300.0, 200.0, 400.0),
            alone.nearest(300.0, 200.0, 400.0)
        );
        // an answer or a drawing that does not read is refused and changes nothing
        assert!(lab.painted(vec![1.0]).is_err());
        assert!(painter.paint(vec![1.0, 2.0], vec!["x".into()]).is_err());
        assert!(offscreen_pixels(&ofg) == page_pixels(&fg));
        assert_eq!(ticks(&lab), ticks(&alone));
    }
}
