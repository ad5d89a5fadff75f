//! Issue 18, point 1: every `Job::advance` is a bounded unit of work, whatever the model count,
//! the element count n and the parameter values. Measured without a clock by the integrators'
//! work meter (`friction_core::integrate::meter`, state-steps: a Rodas4 step of n states counts
//! 16 + n, a Rodas5P step 4/3 of that), on the queries whose units took hundreds of
//! milliseconds before; and the pieces a stepper is cut into give the state of the uncut step,
//! bit for bit.

#![allow(clippy::unwrap_used)] // tests may panic on a broken invariant

use friction_core::experiments::driven::UNIT_WORK;
use friction_core::integrate::implicit_euler::StateStepper;
use friction_core::integrate::meter;
use friction_core::model::FrictionModel;
use friction_core::registry::find;
use friction_core::scenario::Scenario;

/// Most work one unit may do: a unit stops once it has done [`UNIT_WORK`], and the piece that
/// overruns it is itself capped (an eighth of a unit's steps, whose rejected attempts and event
/// landings also count, or one implicit-Euler step of at most 64 Newton solves: 200k
/// state-steps for Leuven's 50 dense elements). The worst of these took 14 ms natively.
const MAX_UNIT_WORK: u64 = 7 * UNIT_WORK as u64;

/// Runs the first `units` units of `q` (or all, if fewer); the most work of one unit and the
/// total.
fn unit_work(q: &str, units: usize) -> (u64, u64) {
    let mut job = Scenario::parse(q)
        .unwrap_or_else(|e| panic!("{q}: {e:?}"))
        .job()
        .unwrap_or_else(|e| panic!("{q}: {e}"));
    let (mut most, mut total) = (0, 0);
    for _ in 0..units {
        if job.done() {
            break;
        }
        let w = meter::work();
        job.advance(&|| 0.0);
        let used = meter::work() - w;
        most = most.max(used);
        total += used;
    }
    (most, total)
}

/// Queries whose single units took 0.3–1.2 s natively (the fuzz run of issue 18), with how many
/// units to run: enough to pass the expensive start of each.
const SLOW: &[(&str, usize)] = &[
    // GMS with 1000 elements first: 1000 solver steps per unit took 1.2 s
    (
        "v=1&view=presliding&model=gms,lugre-rational,hess-soom,threlfall&n=1000\
         &lugre-rational.muk=0.000001&lugre-rational.sigma0=1278.8948282639683",
        12,
    ),
    // stick-slip's fixed 1000 steps per unit: 0.5 s with 1002 states
    ("v=1&view=stickslip&model=gms&n=1000", 12),
    ("v=1&view=breakaway&model=gms&n=50&nrates=2", 12),
    // the displacement sweep's sub-steps were never cut: 1.2 s units with 50 snapping bristles
    (
        "v=1&view=explorer&model=bristle&n=50&sweep=1&sigma0=1000000000",
        40,
    ),
    // a dense Jacobian of 50 elements: a velocity point's piece of 1000 steps took 40 ms
    (
        "v=1&view=explorer&model=leuven&fn=29590.57750687229&n=50",
        40,
    ),
    // a Filippov slide of two static laws: many event landings per accepted step (210k
    // state-steps, 35-70 ms per unit on a loaded machine)
    (
        "v=1&view=presliding&model=av,rooney-deravi&wave=1&amp=1000000&muv=323883.5549818993\
         &v0=0.000000004078102987893179&gt=0.01",
        12,
    ),
    // 50 dense Leuven elements under a prescribed velocity
    (
        "v=1&view=prescribed&model=leuven&vmean=5.217766856161475&vamp=5.805687949062199\
         &xamp=0.003078043347616207&sigma0=10000000000&sigma1=700682.0882862104\
         &sigma2=8163.476624950587&vs=0.00000037357403076658884&n=50&hmax=10",
        300,
    ),
    // relaxation of order 10: 20,000 SDIRK2 steps per unit did 330k state-steps
    ("v=1&view=relaxation&model=frbd-gm&n=10", 20),
    // Liang at 10 kHz: every interval falls back to implicit Euler after thousands of steps
    (
        "v=1&view=prescribed&model=liang&vmean=4.195013305553584&vamp=3.856414187473999\
         &xamp=0.5683933347871092&rad=1&f1=10000&f4=2900.059663371195&mus=10\
         &muk=0.14234534810603455&fn=0.000001&sigma1=752155.9615989957",
        20,
    ),
];

#[test]
fn no_unit_of_the_slow_links_exceeds_its_work() {
    for &(q, units) in SLOW {
        let (most, total) = unit_work(q, units);
        assert!(
            most <= MAX_UNIT_WORK,
            "{q}: a unit did {most} state-steps (at most {MAX_UNIT_WORK})"
        );
        // the test measures something: the query does work in these units
        assert!(total > UNIT_WORK as u64, "{q}: only {total} state-steps");
    }
}

fn model(id: &str, set: &[(&str, f64)]) -> Box<dyn FrictionModel> {
    let e = find(id).unwrap();
    e.build_with(set).unwrap()
}

/// The explorer's displacement sweep: sub-steps of growing velocity, each through
/// `StateStepper::advance` whole, or begun and resumed `cap` solver steps at a time.
fn sweep(m: &dyn FrictionModel, cap: Option<usize>) -> (Vec<u64>, usize) {
    let n = m.n_states();
    let (mut st, mut x) = (StateStepper::new(n), vec![0.0; n]);
    m.initial_state(&mut x);
    let mut pieces = 0;
    let dt = 2e-3;
    for k in 0..40 {
        let tm = (k as f64 + 0.5) * dt;
        let v = tm * (tm + 1.0);
        match cap {
            None => st.advance(m, v, 0.0, &mut x, dt),
            Some(cap) => {
                pieces += 1;
                if !st.advance_begin(m, v, 0.0, &mut x, dt) {
                    loop {
                        let mut left = cap;
                        if st.advance_resume(m, &mut x, &mut left) {
                            break;
                        }
                        assert_eq!(left, 0, "a cut piece uses its whole cap");
                        pieces += 1;
                    }
                }
            }
        }
    }
    (x.iter().map(|a| a.to_bits()).collect(), pieces)
}

#[test]
fn an_advance_cut_into_pieces_equals_the_whole_one() {
    // snapping bristles (thousands of solver steps an interval), GMS's slips, and a law implicit
    // Euler takes whole (no switches)
    for (id, set) in [
        ("bristle", &[("n", 20.0), ("sigma0", 1e9)][..]),
        ("gms", &[("n", 20.0)][..]),
        ("lugre", &[][..]),
    ] {
        let m = model(id, set);
        let (whole, _) = sweep(m.as_ref(), None);
        let (cut, pieces) = sweep(m.as_ref(), Some(3));
        assert_eq!(
            whole, cut,
            "{id}: the pieces must give the same state bit for bit"
        );
        // some sub-steps were cut (and resumed) for the switching models
        if id != "lugre" {
            assert!(pieces > 45, "{id}: only {pieces} pieces for 40 sub-steps");
        }
    }
}
