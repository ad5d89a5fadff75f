//! Every view's example shows the phenomenon the view exists for (issue 36: five views opened on
//! the Coulomb law, whose pre-sliding displacement, breakaway peak and loop area are all nil):
//! pre-sliding displacements of at least a micrometre, a breakaway peak at every rate, a loop
//! of non-zero area at every swept frequency, stiction, Stribeck and viscous effects in the
//! curve views, stick-slip beside steady sliding on the benchmark.

#![allow(clippy::unwrap_used)] // tests may panic on a broken invariant

use friction_core::job::{Job, Output};
use friction_core::scenario::Scenario;

fn finished(query: &str) -> Box<dyn Job> {
    let mut job = Scenario::parse(query).unwrap().job().unwrap();
    while !job.done() {
        job.advance(&|| 0.0);
    }
    assert_eq!(job.error(), None, "{query}");
    job
}

#[test]
fn presliding_moves_every_model_by_micrometres() {
    let job = finished("view=presliding");
    let Output::Presliding { labels, runs } = job.output() else {
        panic!("not pre-sliding")
    };
    assert_eq!(labels, ["LuGre", "Dahl"]);
    assert_eq!(runs.len(), 2);
    for (i, r) in runs {
        let lo = r.x.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = r.x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        println!("{}: x in [{lo:.3e}, {hi:.3e}] m", labels[i]);
        assert!(hi - lo >= 1e-6, "{}: range {} m", labels[i], hi - lo);
        // pre-sliding, not gross sliding: well below a millimetre
        assert!(hi - lo < 1e-3, "{}", labels[i]);
    }
}

#[test]
fn lugre_has_a_breakaway_peak_at_every_rate_and_it_falls_with_the_rate() {
    let job = finished("view=breakaway");
    let Output::Breakaway { labels, curves } = job.output() else {
        panic!("not breakaway")
    };
    assert_eq!(labels, ["LuGre", "Dahl"]);
    let lugre = &curves[0];
    assert_eq!(lugre.points.len(), 12);
    for b in &lugre.points {
        assert!(!b.no_peak, "no peak at {} N/s", b.rate);
        // between the 1995 paper's F_C = 1 N and F_s = 1.5 N
        assert!(
            b.force > 1.0 && b.force < 1.5,
            "{} N at {} N/s",
            b.force,
            b.rate
        );
    }
    // Canudas de Wit et al. 1995, Fig. 4: the faster the force rises, the lower the peak
    for w in lugre.points.windows(2) {
        assert!(w[1].force < w[0].force, "{w:?}");
    }
    // Dahl beside it has none, and the readout says so
    assert!(curves[1].points.iter().all(|b| b.no_peak));
    assert!(job.readout().notes.iter().any(|n| n.contains("Dahl")));
}

#[test]
fn every_swept_loop_has_an_area() {
    let job = finished("view=sweep");
    let Output::Sweep { labels, points, .. } = job.output() else {
        panic!("not a sweep")
    };
    assert_eq!(labels, ["LuGre", "FrBD-GM"]);
    assert_eq!(points.len(), 2);
    for (i, pts) in points {
        assert_eq!(pts.len(), 25, "{}", labels[i]);
        for p in pts {
            let res = p.metrics.area_resolution(p.v_amp);
            assert!(
                p.metrics.area.abs() > 100.0 * res,
                "{} at {} Hz: area {} against resolution {res}",
                labels[i],
                p.freq,
                p.metrics.area
            );
        }
    }
}

#[test]
fn the_prescribed_loops_are_open() {
    let job = finished("view=prescribed");
    let Output::Prescribed { cycles, .. } = job.output() else {
        panic!("not prescribed")
    };
    assert_eq!(cycles.len(), 3);
    for (_, c) in cycles {
        let res = c.metrics.area_resolution(0.01);
        assert!(c.metrics.area.abs() > 100.0 * res, "{} Hz", c.freq);
    }
}

#[test]
fn the_curve_views_show_stiction_stribeck_and_viscous_friction() {
    for view in ["curve", "explorer"] {
        let job = finished(&format!("view={view}"));
        let Output::Curve { result, .. } = job.output() else {
            panic!("not a curve")
        };
        let ids: Vec<&str> = result.blocks.iter().map(|b| b.model).collect();
        assert_eq!(ids, ["karnopp", "coulomb-viscous", "tustin", "hess-soom"]);
        let at = |b: usize, v: f64| {
            let p = &result.blocks[b].points;
            p.iter()
                .min_by(|a, c| (a.0 - v).abs().total_cmp(&(c.0 - v).abs()))
                .unwrap()
                .1
        };
        let (fc, fs) = (0.981, 1.4715);
        // stiction: a stick set reaching F_s above the sliding level F_C
        let stick_top = result
            .blocks
            .iter()
            .flat_map(|b| b.stick.iter().map(|s| s.2))
            .fold(0.0f64, f64::max);
        assert!((stick_top - fs).abs() < 1e-9, "{view}: {stick_top}");
        // Stribeck: Tustin falls from near F_s at 0.5 mm/s to F_C at 10 mm/s
        assert!(at(2, 5e-4) > fc + 0.5 * (fs - fc), "{view}");
        assert!((at(2, 0.01) - fc).abs() < 1e-3, "{view}");
        // viscous: Coulomb + viscous rises by c_v·10 mm/s = 0.2 N over the range
        let rise = at(1, 0.01) - at(1, 1e-3);
        assert!((rise - 20.0 * 0.009).abs() < 1e-6, "{view}: {rise}");
        // and Hess & Soom shows both: a Stribeck dip, then the viscous slope
        assert!(at(3, 0.01) > at(3, 0.004), "{view}");
        assert!(at(3, 5e-4) > at(3, 0.004), "{view}");
    }
}

#[test]
fn on_the_benchmark_lugre_sticks_and_slips_while_coulomb_slides() {
    let job = finished("view=stickslip");
    let Output::StickSlip { labels, runs } = job.output() else {
        panic!("not stick-slip")
    };
    assert_eq!(labels, ["LuGre", "Coulomb"]);
    let ptp = |i: usize| {
        let r = runs.iter().find(|(j, _)| *j == i).unwrap().1;
        let m = r.metrics();
        (m.x_max - m.x_min, m.breakaway_force)
    };
    let (lugre, lugre_fb) = ptp(0);
    let (coulomb, _) = ptp(1);
    // LuGre's static peak (F_s = 1.47 N) breaks away well above Coulomb's level and swings
    // about twice as wide (thesis §7.2: 0.51 m against 0.14 m of the Coulomb limit cycle)
    assert!(lugre_fb > 1.4, "{lugre_fb}");
    assert!(lugre > 2.5 * coulomb, "{lugre} against {coulomb}");
}
