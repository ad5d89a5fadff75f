//! wasm-bindgen-test suite, run in headless Chromium by scripts/test.sh.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

wasm_bindgen_test_configure!(run_in_browser);

fn canvas(w: u32, h: u32) -> HtmlCanvasElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let c: HtmlCanvasElement = doc.create_element("canvas").unwrap().dyn_into().unwrap();
    c.style().set_property("width", &format!("{w}px")).unwrap();
    c.style().set_property("height", &format!("{h}px")).unwrap();
    doc.body().unwrap().append_child(&c).unwrap();
    c
}

#[wasm_bindgen_test]
fn stribeck_skeleton_draws_curve_colour() {
    let c = canvas(600, 400);
    friction_web::draw_stribeck(c.clone(), 1.0, 0.05).unwrap();
    assert!(c.width() >= 600, "backing store sized by devicePixelRatio");
    let ctx: CanvasRenderingContext2d = c.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let data = ctx
        .get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64)
        .unwrap()
        .data();
    let blue = data
        .chunks(4)
        .filter(|p| p[0] < 40 && (90..140).contains(&p[1]) && p[2] > 150)
        .count();
    assert!(blue > 200, "curve colour present: {blue} px");
}
