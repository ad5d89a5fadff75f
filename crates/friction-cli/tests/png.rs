//! `--png FILE`: the figure as the page's PNG export draws it at 2× (for print and PDF builds),
//! and the link-card picture `www/preview.png`, which `scripts/preview.sh` draws with it.
#![allow(clippy::unwrap_used)]

use std::process::Command;

fn run(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_friction-lab"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Width, height and RGB bytes of a PNG file.
fn decode(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Pixels within `tol` of `rgb` in each channel.
fn count(px: &[u8], rgb: [u8; 3], tol: u8) -> usize {
    px.chunks(3)
        .filter(|p| (0..3).all(|i| p[i].abs_diff(rgb[i]) <= tol))
        .count()
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("fl-{}-{name}", std::process::id()))
}

#[test]
fn png_is_the_figure_at_twice_the_svg_size_with_every_loop_and_its_labels() {
    let file = temp("loops.png");
    let (code, err) = run(&["v=1", "--png", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (w, h, px) = decode(&file);
    let _ = std::fs::remove_file(&file);
    // the SVG's 900 × 560 at 2×
    assert_eq!((w, h), (1800, 1120));
    // the three loops in the palette's first colours (friction_plot::PALETTE), a line of
    // several px at 2× scale each, on a white ground, with dark text and axes
    let n = (w * h) as usize;
    for rgb in [[0x00, 0x72, 0xb2], [0xd5, 0x5e, 0x00], [0x00, 0x9e, 0x73]] {
        let c = count(&px, rgb, 24);
        assert!(c > 3000, "{rgb:?}: {c} px");
    }
    assert!(count(&px, [255, 255, 255], 0) > n / 2, "white ground");
    let dark = count(&px, [0x22, 0x22, 0x22], 0x30);
    assert!(dark > 2000, "labels and axes: {dark} dark px");
}

#[test]
fn a_multi_panel_view_draws_its_grid_and_a_bad_path_is_an_io_error() {
    let file = temp("stickslip.png");
    let (code, err) = run(&["view=stickslip&tend=10", "--png", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (w, h, _) = decode(&file);
    let _ = std::fs::remove_file(&file);
    // six panels of 500 × 380 in three columns, at 2×, with the shared legend's band
    assert_eq!((w, h), (3000, 2 * (2 * 380 + 32)));
    let (code, err) = run(&["v=1", "--png", "/nonexistent-dir/x.png"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot write /nonexistent-dir/x.png"), "{err}");
    let (code, err) = run(&["v=1", "--png"]);
    assert_eq!(code, 2);
    assert!(err.contains("--png needs a file name"), "{err}");
}

#[test]
fn the_link_card_picture_is_the_clis_default_figure() {
    let committed = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../www/preview.png"
    ));
    let file = temp("preview.png");
    let (code, err) = run(&["v=1", "--png", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (w, h, fresh) = decode(&file);
    let _ = std::fs::remove_file(&file);
    let (cw, ch, old) = decode(committed);
    assert_eq!(
        (cw, ch),
        (w, h),
        "www/preview.png is stale: run scripts/preview.sh"
    );
    // the same picture; a few pixels may differ where a font rasteriser rounds otherwise
    let differ = fresh
        .chunks(3)
        .zip(old.chunks(3))
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        differ * 1000 < (w * h) as usize,
        "www/preview.png differs from the CLI's figure in {differ} px: run scripts/preview.sh"
    );
}
