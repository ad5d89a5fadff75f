//! The stick-slip view and the phenomena matrix through the `friction-lab` binary.

#![allow(clippy::unwrap_used)]

mod common;
use common::run;

fn rows(out: &str) -> Vec<Vec<f64>> {
    out.lines()
        .skip(1)
        .map(|l| l.split(',').map(|c| c.parse().unwrap()).collect())
        .collect()
}

#[test]
fn stickslip_csv_obeys_the_equation_of_motion_on_the_stick_phase() {
    let (code, out, err) = run(&["view=stickslip&model=karnopp&tend=5"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("t,x,xdot,F"));
    let r = rows(&out);
    assert!(r.len() > 10);
    assert_eq!(r.last().unwrap()[0], 5.0);
    // stuck to the belt (breakaway near 7.3 s): x = v_b t and F = F_e = −k x
    for row in &r {
        assert!((row[1] - 0.1 * row[0]).abs() < 1e-9, "{row:?}");
        assert!((row[3] + 2.0 * row[1]).abs() < 1e-9, "{row:?}");
    }
}

#[test]
fn stickslip_metrics_follow_the_view_keys() {
    let (code, out, err) = run(&["view=stickslip&model=karnopp", "--metrics"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("metric,value,unit"));
    let get = |out: &str, k: &str| -> f64 {
        let l = out
            .lines()
            .find(|l| l.starts_with(&format!("{k},")))
            .unwrap();
        l.split(',').nth(1).unwrap().parse().unwrap()
    };
    // Karnopp holds up to μ_s m g = 0.15 · 9.81 N
    assert!(
        (get(&out, "breakaway_force") - 1.4715).abs() < 1e-3,
        "{out}"
    );
    assert!(get(&out, "period") > 5.0 && get(&out, "steps") > 10.0);
    assert!(get(&out, "wall_time") > 0.0);
    // doubling the mass doubles F_N = m g (derived), so the breakaway force doubles
    let (_, out2, _) = run(&["view=stickslip&model=karnopp&m=2", "--metrics"]);
    assert!(
        (get(&out2, "breakaway_force") - 2.0 * 1.4715).abs() < 2e-3,
        "{out2}"
    );
    // and μ_s drives the model
    let (_, out3, _) = run(&["view=stickslip&model=karnopp&mus=0.2", "--metrics"]);
    assert!(
        (get(&out3, "breakaway_force") - 0.2 * 9.81).abs() < 2e-3,
        "{out3}"
    );
    let (code, _, err) = run(&["view=stickslip&model=hollars&tend=1"]);
    assert_eq!(code, 0);
    assert!(
        err.contains("hollars is provisional — formula not recoverable from the source"),
        "{err}"
    );
    let (code, _, err) = run(&["view=stickslip&fn=3"]);
    assert_eq!(code, 2);
    assert!(err.contains("fn"), "{err}");
}

#[test]
fn stickslip_overlay_and_svg_panels() {
    let svg = std::env::temp_dir().join(format!("fl-ss-{}.svg", std::process::id()));
    let (code, out, err) = run(&[
        "view=stickslip&model=lugre,coulomb&tend=10",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("model,t,x,xdot,F"));
    assert!(out.lines().any(|l| l.starts_with("lugre,")));
    assert!(out.lines().any(|l| l.starts_with("coulomb,")));
    let text = std::fs::read_to_string(&svg).unwrap();
    for label in [
        "position x [m]",
        "velocity ẋ [m/s]",
        "acceleration ẍ [m/s²]",
        "relative velocity v [m/s]",
        "LuGre",
    ] {
        assert!(text.contains(label), "{label} missing from the SVG");
    }
    let _ = std::fs::remove_file(svg);
}

#[test]
fn phenomena_matrix_for_selected_models_with_provisional_flag() {
    let (code, out, err) = run(&[
        "view=explorer&model=karnopp,coulomb-viscous,hollars",
        "--phenomena",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "model,stiction,stribeck,viscous,presliding,hysteresis,stickslip,provisional"
    );
    assert_eq!(lines.len(), 4);
    // Karnopp: stiction, no viscous term, stick-slip in the benchmark
    assert_eq!(lines[1], "karnopp,1,0,0,0,0,1,0");
    // a viscous law without stiction slides smoothly after breakaway
    assert!(lines[2].starts_with("coulomb-viscous,0,0,1,") && lines[2].ends_with(",0,0"));
    assert!(lines[3].starts_with("hollars,") && lines[3].ends_with(",1"));
}

/// Value of `metric` in a `metric,value,unit` CSV (NaN for an empty cell: undefined).
fn metric(out: &str, name: &str) -> f64 {
    let cell = out
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name},")))
        .and_then(|r| r.split(',').next())
        .unwrap();
    if cell.is_empty() {
        f64::NAN
    } else {
        cell.parse().unwrap()
    }
}

#[test]
fn robot_csv_obeys_the_control_law_and_metrics_show_the_observer_contrast() {
    let (code, out, err) = run(&["view=robot&tend=4"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("t,q,qd,qdot,U,F,Fhat,W"));
    let r = rows(&out);
    assert!(r.len() > 100);
    assert!(r
        .iter()
        .all(|row| row.len() == 8 && row.iter().all(|x| x.is_finite())));
    // W (last column) never rises with the observer on
    assert!(r
        .windows(2)
        .all(|p| p[1][7] <= p[0][7] * (1.0 + 1e-9) + 1e-18));
    let (_, on, _) = run(&["view=robot&tend=4", "--metrics"]);
    let (code, off, err) = run(&["view=robot&tend=4&observer=0", "--metrics"]);
    assert_eq!(code, 0, "{err}");
    assert!(metric(&on, "final_error") < 1e-6);
    assert!(metric(&off, "rms_error_second_half") > 1e-3);
    assert!(metric(&on, "settling_time").is_finite());
    // not settled: an empty cell, and a note that says why (never NaN)
    assert!(off.contains("\nsettling_time,,s\n"), "{off}");
    assert!(!off.to_ascii_lowercase().contains("nan"), "{off}");
    assert!(err.contains("note: robot: settling_time empty: "), "{err}");
}

#[test]
fn robot_bad_keys_exit_2_naming_the_key_and_svg_has_four_panels() {
    let (code, _, err) = run(&["view=robot&ks=0"]);
    assert_eq!(code, 2);
    assert!(err.contains("ks"), "{err}");
    let (code, _, err) = run(&["view=robot&model=frbd-kv"]);
    assert_eq!(code, 2);
    assert!(err.contains("model"), "{err}");
    let svg = std::env::temp_dir().join(format!("fl-robot-{}.svg", std::process::id()));
    let (code, _, err) = run(&[
        "view=robot&tend=2&model=frbd-gkv",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    for label in [
        "Joint angle and reference",
        "Tracking error",
        "F̂ (observer)",
        "log₁₀",
    ] {
        assert!(text.contains(label), "{label} missing from the SVG");
    }
    let _ = std::fs::remove_file(svg);
}

#[test]
fn a_velocity_range_error_names_the_key_the_user_gave() {
    // vmin alone above the default vmax: the user never set vmax, so the message is about
    // vmin and names vmax as the default it conflicts with
    let (code, _, err) = run(&["view=curve&model=lugre&vmin=5"]);
    assert_eq!(code, 2);
    assert!(err.contains("vmin = \"5\""), "{err}");
    assert!(
        err.contains("vmin < vmax") && err.contains("vmax = 0.01 (default)"),
        "{err}"
    );
    // both given: both quoted as given, in either order of the link
    for q in [
        "view=curve&model=lugre&vmin=0.5&vmax=0.2",
        "view=curve&model=lugre&vmax=0.2&vmin=0.5",
    ] {
        let (code, _, err) = run(&[q]);
        assert_eq!(code, 2);
        assert!(
            err.contains("vmin = \"0.5\"") && err.contains("vmax = \"0.2\""),
            "{err}"
        );
    }
}

#[test]
fn metrics_for_a_view_without_them_is_refused_before_any_computation() {
    // the query is also invalid (vmin above vmax): the --metrics refusal comes first, because
    // it is checked before the job is even built, let alone run (up to 45 s for some curves)
    let (code, _, err) = run(&["view=curve&model=lugre&vmin=5", "--metrics"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--metrics is not defined for view=curve"),
        "{err}"
    );
    assert!(!err.contains("vmin"), "{err}");
}

#[test]
fn breakaway_prints_csv_with_units_falling_with_rate_and_svg() {
    let svg = std::env::temp_dir().join(format!("fl-ba-{}.svg", std::process::id()));
    let (code, out, err) = run(&["view=breakaway&model=lugre", "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().next(),
        Some("rate_N_per_s,breakaway_force_N,time_s,applied_force_N,x_m,slid,no_peak")
    );
    let r = rows(&out);
    assert_eq!(r.len(), 12, "one row per rate");
    assert_eq!((r[0][0], r[11][0]), (0.1, 30.0));
    // LuGre (thesis values): near F_s = 1.4715 N when slow, falling with the rate
    assert!(r[0][1] > 1.44 && r[0][1] < 1.4715, "{:?}", r[0]);
    assert!(r.windows(2).all(|w| w[1][1] < w[0][1]), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    for label in [
        "Breakaway force against force rate",
        "force rate ρ [N/s]",
        "breakaway force F_b [N]",
        "LuGre",
    ] {
        assert!(text.contains(label), "{label} missing from the SVG");
    }
    let _ = std::fs::remove_file(svg);
    // no metrics table for this view: its CSV is one
    let (code, _, err) = run(&["view=breakaway&model=lugre", "--metrics"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--metrics"), "{err}");
}

#[test]
fn presliding_overlay_csv_metrics_and_svg() {
    let svg = std::env::temp_dir().join(format!("fl-ps-{}.svg", std::process::id()));
    let (code, out, err) = run(&[
        "view=presliding&model=lugre,karnopp&cycles=1",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("model,t_s,u_N,x_m,v_m_per_s,F_N"));
    // Karnopp holds 0.9 N < F_s = 1.4715 N exactly: x = 0 and F = u on every row
    let karnopp: Vec<&str> = out.lines().filter(|l| l.starts_with("karnopp,")).collect();
    assert!(karnopp.len() > 100);
    for l in karnopp {
        let c: Vec<f64> = l.split(',').skip(1).map(|c| c.parse().unwrap()).collect();
        assert_eq!(c[2], 0.0, "{l}");
        assert!((c[4] - c[1]).abs() < 1e-12, "{l}");
    }
    // LuGre moves by micrometres: pre-sliding, no gross sliding
    let xmax = out
        .lines()
        .filter(|l| l.starts_with("lugre,"))
        .map(|l| l.split(',').nth(3).unwrap().parse::<f64>().unwrap())
        .fold(0.0, f64::max);
    assert!(xmax > 5e-6 && xmax < 1e-4, "{xmax}");
    let text = std::fs::read_to_string(&svg).unwrap();
    for label in [
        "Displacement against applied force",
        "Displacement against time",
        "applied force u [N]",
        "Karnopp",
    ] {
        assert!(text.contains(label), "{label} missing from the SVG");
    }
    let _ = std::fs::remove_file(svg);
    let (code, out, err) = run(&["view=presliding&model=lugre,karnopp", "--metrics"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "model,stiffness_N_per_m,x_max_m,x_min_m,drift_m,v_max_m_per_s,steps"
    );
    // Karnopp sticks: no pre-sliding displacement, an infinite slope, an empty cell with a note
    assert!(lines[2].starts_with("karnopp,,0,0,0,0,"), "{out}");
    assert!(
        err.contains("Karnopp: stiffness_N_per_m empty: x did not move"),
        "{err}"
    );
}

#[test]
fn prescribed_view_prints_loops_metrics_and_panels() {
    let q = "view=prescribed&model=lugre,gms,frbd-gm";
    let (code, out, err) = run(&[q]);
    assert_eq!(code, 0, "{err}");
    let head = out.lines().next().unwrap();
    assert!(head.starts_with("model,t,x,v,F,s1,"), "{head}");
    for id in ["lugre", "gms", "frbd-gm"] {
        let n = out
            .lines()
            .filter(|l| l.starts_with(&format!("{id},")))
            .count();
        assert!(n > 400, "{id}: {n} rows");
    }
    let (code, out, err) = run(&[q, "--metrics"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "model,freq,fmax,fmin,area,energy,cycles,converged"
    );
    assert_eq!(lines.len(), 4);
    assert!(lines[3].starts_with("frbd-gm,25,"), "{}", lines[3]);
    assert!(lines[1..].iter().all(|l| l.ends_with(",1")), "{out}");
    let svg = std::env::temp_dir().join(format!("fl-pm-{}.svg", std::process::id()));
    let (code, _, err) = run(&[q, "--svg", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    for label in [
        "relative velocity v [m/s]",
        "Friction force against displacement",
        "Internal states over one cycle",
        "LuGre",
        "Generalized Maxwell-Slip",
        "FrBD-GM",
    ] {
        assert!(text.contains(label), "{label} missing from the SVG");
    }
    // one legend band above the three panels: each model named once
    assert_eq!(
        text.matches(">LuGre<").count() + text.matches("\nLuGre\n").count(),
        1
    );
    let _ = std::fs::remove_file(svg);
}

#[test]
fn sweep_view_prints_one_row_per_frequency() {
    let (code, out, err) = run(&["view=sweep&model=frbd-gm&vmean=0.015&fmin=25&fmax=100&nf=3"]);
    assert_eq!(code, 0, "{err}");
    let (_, hyst, _) = run(&["view=hysteresis&freqs=25,50,100", "--metrics"]);
    assert_eq!(
        out, hyst,
        "the sweep's points are the hysteresis view's metrics"
    );
    let (code, _, err) = run(&["view=sweep&model=frbd-gm", "--metrics"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--metrics is not defined for view=sweep"),
        "{err}"
    );
    let (code, _, err) = run(&["view=sweep&fmin=100&fmax=10"]);
    assert_eq!(code, 2);
    assert!(err.contains("fmax"), "{err}");
}
