//! Case generator shared by the property suite (`fuzz_props.rs`) and the long fuzz run
//! (`cargo run --release -p friction-cli --example fuzz -- N`): legal query strings built from
//! the core's own schema (`views::ALL`, the registry's model ids, each scenario's
//! `controls()` with their ranges and choices), and hostile strings for the parsers.
//!
//! No dependencies: a xorshift generator seeded by the caller, so a failing case is replayed
//! from its seed.

#![allow(dead_code)]

use friction_core::job::Job;
use friction_core::registry;
use friction_core::scenario::{ControlKind, Scenario};
use friction_core::views;

/// A small deterministic generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// The next 64 random bits.
    pub fn u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.u64() % n as u64) as usize
    }
    /// Uniform in \[0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// A legal value of a number control: often an end of its range (where the slow corners are),
/// else uniform (log-uniform on log controls with a positive range).
pub fn value_in(r: &mut Rng, min: f64, max: f64, log: bool) -> f64 {
    match r.below(6) {
        0 => min,
        1 => max,
        _ if log && min > 0.0 => (min.ln() + (max.ln() - min.ln()) * r.unit()).exp(),
        _ => min + (max - min) * r.unit(),
    }
}

/// A random legal query: a view of [`views::ALL`], for registry views one to `max_models` model
/// ids, then a random subset of the scenario's controls set to legal values. Values the
/// scenario still refuses (a cross-key rule such as vmin < vmax) are left out.
pub fn legal_query(r: &mut Rng) -> String {
    let view = views::ALL[r.below(views::ALL.len())];
    let mut s = Scenario::parse(&format!("view={}", view.name)).expect("every view parses");
    if view.max_models > 1 || matches!(view.kind, friction_core::job::ViewKind::Models) {
        let ids: Vec<&str> = registry::registry().map(|e| e.info.id).collect();
        let k = 1 + r.below(view.max_models.max(1));
        let pick: Vec<&str> = (0..k).map(|_| ids[r.below(ids.len())]).collect();
        let _ = s.set("model", &pick.join(","));
    } else if let Some(Some(c)) = s
        .controls()
        .into_iter()
        .find(|c| c.key == "model")
        .map(|c| match c.kind {
            ControlKind::Choice { options } => Some((options, 1)),
            ControlKind::MultiChoice { options, max_len } => Some((options, max_len)),
            _ => None,
        })
    {
        let (options, most) = c;
        let ids: Vec<&str> = (0..1 + r.below(most.max(1)))
            .map(|_| options[r.below(options.len())].0)
            .collect();
        let _ = s.set("model", &ids.join(","));
    }
    let controls = s.controls();
    let p = 0.1 + 0.5 * r.unit();
    for c in controls {
        if c.key == "model" || !r.chance(p) {
            continue;
        }
        let text = match &c.kind {
            ControlKind::Number => fmt(value_in(r, c.min, c.max, c.log)),
            ControlKind::List { max_len, .. } => {
                let n = 1 + r.below((*max_len).clamp(1, 8));
                (0..n)
                    .map(|_| fmt(value_in(r, c.min, c.max, c.log)))
                    .collect::<Vec<_>>()
                    .join(",")
            }
            ControlKind::Choice { options } | ControlKind::MultiChoice { options, .. } => {
                options[r.below(options.len())].0.to_string()
            }
        };
        let _ = s.set(c.key, &text);
    }
    s.to_query()
}

/// A random link whose every value is legal on its own, with no regard to the rules between
/// values (μ_s ≥ μ_k, v_min < v_max, σ1 > σ0·γ1): a view, for registry views one to `max_models`
/// model ids, the keys that shape the controls (`n`, `funit`, …), then a random subset of the
/// other controls, each in its own range (lists as long as the scenario wants them). As
/// (key, value) pairs in the order generated; `v=1` sometimes among them. What a user may type
/// key by key, in any order, and what a shared link may carry.
pub fn legal_link(r: &mut Rng) -> Vec<(String, String)> {
    let view = views::ALL[r.below(views::ALL.len())];
    let mut s = Scenario::parse(&format!("view={}", view.name)).expect("every view parses");
    let mut out = vec![("view".to_string(), view.name.to_string())];
    if r.chance(0.3) {
        out.push(("v".into(), "1".into()));
    }
    let p = 0.1 + 0.5 * r.unit();
    // the structural controls first (model, n, funit, …): they decide the other controls
    let mut done: Vec<&'static str> = Vec::new();
    for round in 0..2 {
        let sigma = r.chance(0.2);
        for c in s.controls() {
            if c.key == "view" || done.contains(&c.key) || c.structural != (round == 0) {
                continue;
            }
            if c.key != "model" && !r.chance(p) {
                continue;
            }
            // one change gives the form (5) or the rheological inputs, not both
            let role = c.role.as_str();
            if (role == "sigma" && !sigma) || (role == "rheo" && sigma) {
                continue;
            }
            let text = match &c.kind {
                ControlKind::Number => number(r, &c),
                ControlKind::List { max_len, items, .. } => {
                    let n = if c.key == "freqs" {
                        1 + r.below((*max_len).max(1))
                    } else {
                        items.len()
                    };
                    (0..n).map(|_| number(r, &c)).collect::<Vec<_>>().join(",")
                }
                ControlKind::Choice { options } => options[r.below(options.len())].0.to_string(),
                ControlKind::MultiChoice { options, max_len } => (0..1 + r.below(*max_len))
                    .map(|_| options[r.below(options.len())].0)
                    .collect::<Vec<_>>()
                    .join(","),
            };
            if c.structural && s.set(c.key, &text).is_err() {
                continue;
            }
            done.push(c.key);
            out.push((c.key.to_string(), text));
        }
    }
    out
}

/// A legal value of a number control (whole for a count).
fn number(r: &mut Rng, c: &friction_core::scenario::Control) -> String {
    let x = value_in(r, c.min, c.max, c.log);
    if c.integer {
        format!("{}", x.round())
    } else {
        fmt(x)
    }
}

/// `pairs` as a query string (keys and values percent-encoded where needed).
pub fn link_text(pairs: &[(String, String)]) -> String {
    use friction_core::scenario::query::encode;
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// `pairs` in a random order (Fisher–Yates).
pub fn shuffled(r: &mut Rng, pairs: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = pairs.to_vec();
    for i in (1..out.len()).rev() {
        out.swap(i, r.below(i + 1));
    }
    out
}

fn fmt(x: f64) -> String {
    format!("{x:e}")
}

/// A hostile query string: random bytes, huge or tiny numbers, very long keys, repeated keys,
/// percent-escapes, mixed into pieces of legal queries.
pub fn hostile_query(r: &mut Rng) -> String {
    const PIECES: &[&str] = &[
        "view=",
        "curve",
        "explorer",
        "stickslip",
        "robot",
        "hysteresis",
        "relaxation",
        "model=",
        "lugre",
        "bristle",
        "&",
        "=",
        ",",
        "%",
        "%2",
        "%zz",
        "%00",
        "%26",
        "%3D",
        "+",
        "1e-99999",
        "1e99999",
        "-0",
        "NaN",
        "inf",
        "-inf",
        "1e308",
        "4.9e-324",
        "0x10",
        "1_0",
        " ",
        "\u{0}",
        "é",
        "\u{fffd}",
        "v=1",
        "n=",
        "npts=",
        "freqs=",
        "k=",
        "tau=",
        "tend=",
        "..",
        ";",
        "#",
        "?",
    ];
    let mut s = String::new();
    let parts = r.below(24);
    for _ in 0..parts {
        match r.below(10) {
            0 => {
                let n = r.below(16);
                let bytes: Vec<u8> = (0..n).map(|_| r.u64() as u8).collect();
                s.push_str(&String::from_utf8_lossy(&bytes));
            }
            1 if r.chance(0.05) => s.push_str(&"k".repeat(50_000)),
            2 => s.push_str(&format!("{}", r.u64())),
            3 => s.push_str(&format!("{:e}", f64::from_bits(r.u64()))),
            _ => s.push_str(PIECES[r.below(PIECES.len())]),
        }
    }
    if r.chance(0.1) {
        s.push_str(&"&npts=3".repeat(1 + r.below(100)));
    }
    s
}

/// What a case did.
#[derive(Debug, Default, Clone)]
pub struct Outcome {
    /// `advance` calls made.
    pub units: usize,
    /// Whether the job finished (else it was stopped at the unit cap).
    pub done: bool,
    /// The job's error, if any.
    pub error: Option<String>,
    /// A non-finite number in the CSV (line of the first).
    pub non_finite: Option<String>,
}

/// Runs `q`'s job for at most `max_units` units (calling `each` after every unit, e.g. to time
/// it); `None` when the query is refused (a legal refusal with a message).
pub fn run_query(q: &str, max_units: usize, mut each: impl FnMut(&dyn Job)) -> Option<Outcome> {
    let s = Scenario::parse(q).ok()?;
    let mut job = s.job().ok()?;
    let clock = || 0.0;
    let mut o = Outcome::default();
    while !job.done() && o.units < max_units {
        job.advance(&clock);
        o.units += 1;
        each(job.as_ref());
    }
    o.done = job.done();
    o.error = job.error();
    o.non_finite = non_finite(&job.csv(false));
    Some(o)
}

/// The first CSV line with a NaN or infinite number.
pub fn non_finite(csv: &str) -> Option<String> {
    csv.lines()
        .skip(1)
        .find(|l| {
            l.split(',')
                .any(|c| c.parse::<f64>().is_ok_and(|x| !x.is_finite()))
        })
        .map(str::to_string)
}
