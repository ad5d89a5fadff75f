//! The parser's messages for bad files: each names the line (or the file) and what is wrong.

use friction_fit::data::{parse, parse_filling, MIN_ROWS};

/// A valid record of `n` rows with header `header` (columns t, x, v, F in SI).
fn rows(n: usize) -> String {
    (0..n)
        .map(|k| {
            let t = k as f64 * 0.01;
            let v = (t * 6.0).sin() * 0.01;
            let x = (1.0 - (t * 6.0).cos()) * 0.01 / 6.0;
            format!("{t},{x},{v},{}\n", 0.5 * v.signum())
        })
        .collect()
}

fn error_of(text: &str) -> String {
    parse(text, &[])
        .expect_err("should be rejected")
        .to_string()
}

#[test]
fn good_file_parses_with_units_and_comments() {
    let text = format!("# a comment\nt [s],x [m],v [m/s],F [N]\n{}", rows(20));
    let d = parse(&text, &[]).expect("valid");
    assert_eq!(d.len(), 20);
    // F in mN is scaled to N
    let milli = text.replace("F [N]", "F [mN]");
    let dm = parse(&milli, &[]).expect("valid");
    assert!((dm.f[3] - d.f[3] * 1e-3).abs() < 1e-15);
    // TSV and the units chosen by the caller
    let tsv = format!(
        "t\tv\tF\n{}",
        rows(20)
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                format!("{}\t{}\t{}\n", f[0], f[2], f[3])
            })
            .collect::<String>()
    );
    let d2 = parse(&tsv, &[("v", "mm/s")]).expect("valid");
    assert!((d2.v[5] - d.v[5] * 1e-3).abs() < 1e-15);
    assert!(d2.notes.iter().any(|n| n.contains("x integrated")));
}

#[test]
fn missing_column_names_it_and_the_line() {
    let text = format!(
        "t,x,F\n{}",
        rows(20)
            .lines()
            .map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                format!("{},{},{}\n", f[0], f[1], f[3])
            })
            .collect::<String>()
    );
    // x without v: v is differenced, so this one is fine
    assert!(parse(&text, &[]).is_ok());
    let e = error_of(&format!("t,v\n{}", "0,1\n".repeat(3)));
    assert_eq!(e, "line 1: missing column F (the header has t, v); need t, v (or x) and F; x, N and w are optional; name a column with cols=F:NAME");
    let e = error_of("time,F\n0,1\n");
    assert!(e.starts_with("line 1: missing column v"), "{e}");
}

#[test]
fn time_going_backwards_names_the_line() {
    let mut text = format!("t,x,v,F\n{}", rows(20));
    text = text.replacen("\n0.05,", "\n0.01,", 1);
    let e = error_of(&text);
    assert!(
        e.starts_with("line 7: time 0.01 is not after the previous row's"),
        "{e}"
    );
}

#[test]
fn nan_and_words_name_the_line_and_column() {
    let text = format!("t,x,v,F\n{}", rows(20)).replacen(",0.5\n", ",NaN\n", 1);
    let e = error_of(&text);
    assert!(e.contains("column F: NaN is not a finite number"), "{e}");
    assert!(e.starts_with("line "), "{e}");
    let text = format!("t,x,v,F\n{}", rows(20)).replacen("\n0.03,", "\nabc,", 1);
    assert_eq!(error_of(&text), "line 5: column t: \"abc\" is not a number");
    let text = format!("t,x,v,F\n{}0.5,1\n", rows(20));
    assert_eq!(
        error_of(&text),
        "line 22: 2 fields, but column v is number 3 of the header"
    );
}

#[test]
fn too_few_rows() {
    let e = error_of(&format!("t,x,v,F\n{}", rows(MIN_ROWS - 1)));
    assert_eq!(
        e,
        format!(
            "only {} data rows (up to line {}); a fit needs at least {MIN_ROWS}",
            MIN_ROWS - 1,
            MIN_ROWS
        )
    );
    assert_eq!(
        error_of(""),
        "the file is empty: expected a header line such as t,x,F"
    );
}

#[test]
fn units_that_look_wrong() {
    // a force unit on the velocity column
    let e = error_of(&format!("t,x,v [N],F\n{}", rows(20)));
    assert_eq!(
        e,
        "line 1: column v (v [N]) has unit \"N\", which is not a velocity (m/s, cm/s, mm/s, µm/s) or an angular velocity (rad/s, deg/s, rpm)"
    );
    // x stated in m but written in mm: dx/dt is 1000 × v
    let text = format!(
        "t,x [m],v [m/s],F\n{}",
        rows(20)
            .lines()
            .map(|l| {
                let f: Vec<f64> = l.split(',').map(|a| a.parse().unwrap_or(0.0)).collect();
                format!("{},{},{},{}\n", f[0], f[1] * 1e3, f[2], f[3])
            })
            .collect::<String>()
    );
    let e = error_of(&text);
    assert!(
        e.starts_with("line 1: units look wrong: dx/dt is about 99"),
        "{e}"
    );
}

/// A header without units: the columns are listed as unitless and a chosen unit applies to
/// them; a unitless x in mm next to v in m/s is caught until x is said to be in mm.
#[test]
fn unitless_columns_take_the_chosen_units() {
    let text = format!("t,x,v,F [N]\n{}", rows(20));
    let d = parse(&text, &[]).expect("valid");
    assert_eq!(d.unitless, ["t", "x", "v"]);
    let milli: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                return format!("{l}\n");
            }
            let mut f: Vec<String> = l.split(',').map(str::to_string).collect();
            f[1] = format!("{}", f[1].parse::<f64>().expect("x") * 1e3);
            format!("{}\n", f.join(","))
        })
        .collect();
    let e = parse(&milli, &[]).expect_err("x in mm read as m");
    assert!(e.to_string().contains("units look wrong"), "{e}");
    let dm = parse(&milli, &[("x", "mm")]).expect("x in mm");
    // the chooser fills in only: a unit in the header wins
    let stated = parse_filling(&text.replace("F [N]", "F [mN]"), &[("F", "N")]).expect("valid");
    assert!((stated.f[3] - d.f[3] * 1e-3).abs() <= 1e-15);
    for k in 0..d.len() {
        assert!((dm.x[k] - d.x[k]).abs() <= 1e-15, "row {k}");
    }
    assert_eq!(dm.unitless, ["t", "x", "v"]);
}
