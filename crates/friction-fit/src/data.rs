//! Measured data in: a CSV or TSV file with a header naming the columns `t, x, v, F` (and
//! optionally `N`, the normal load, and `w`, per-sample weights), units in the header
//! (`F [N]`, `v (mm/s)`) or given by the caller, converted to SI.
//!
//! Why a hand-written parser and not the `csv` crate: the format is a header and numbers, and
//! every error must name the line and the column in words a student understands (a missing
//! column, time going backwards, a NaN, too few rows, units that look wrong); the same code runs
//! in the page's worker, so it stays small. Lines starting with `#` and blank lines are skipped.

use std::fmt;

use friction_core::experiments::sampled::Spline;
use friction_core::params::parse_f64;

/// Fewest data rows a fit accepts.
pub const MIN_ROWS: usize = 10;

/// One record in SI units: time \[s\], displacement \[m\], velocity \[m/s\], force \[N\].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Data {
    /// Time \[s\], strictly increasing.
    pub t: Vec<f64>,
    /// Displacement \[m\] (integrated from v by the trapezoid rule when the file has none).
    pub x: Vec<f64>,
    /// Velocity \[m/s\] (when the file has none: the derivative of the cubic spline through x).
    pub v: Vec<f64>,
    /// Whether the models are driven by x (a file without v): through a cubic spline of x
    /// between the samples ([`friction_core::experiments::sampled::Spline`]), not by v.
    pub x_drive: bool,
    /// Measured friction force \[N\].
    pub f: Vec<f64>,
    /// Normal load \[N\], if given: the model's F_N at each sample ([`crate::load`]).
    pub normal: Option<Vec<f64>>,
    /// Per-sample weights (≥ 0), if given.
    pub w: Option<Vec<f64>>,
    /// What the parser derived or assumed, for the report.
    pub notes: Vec<String>,
    /// The keys of the columns present whose header gives no unit (SI assumed unless the
    /// caller chose one), for the page's unit chooser.
    pub unitless: Vec<&'static str>,
}

/// The units a column without one in its header may be given (`parse`'s `units`), SI first,
/// per column key: what the page's unit chooser offers.
pub const UNIT_CHOICES: [(&str, &[&str]); 4] = [
    ("t", &["s", "ms", "µs"]),
    ("x", &["m", "cm", "mm", "µm", "nm"]),
    ("v", &["m/s", "cm/s", "mm/s", "µm/s"]),
    ("F", &["N", "mN", "kN", "µN"]),
];

impl Data {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    /// Whether there are no samples.
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// The record as CSV with an SI header (`t [s],x [m],v [m/s],F [N]`, and `N [N]` when
    /// the record has a normal load).
    pub fn to_csv(&self) -> String {
        let mut s = String::from("t [s],x [m],v [m/s],F [N]");
        s.push_str(if self.normal.is_some() {
            ",N [N]\n"
        } else {
            "\n"
        });
        for k in 0..self.len() {
            s.push_str(&format!(
                "{},{},{},{}",
                self.t[k], self.x[k], self.v[k], self.f[k]
            ));
            match &self.normal {
                Some(n) => s.push_str(&format!(",{}\n", n[k])),
                None => s.push('\n'),
            }
        }
        s
    }
}

/// Why a file was rejected; `line` is 1-based (0 when the whole file is concerned).
#[derive(Debug, Clone, PartialEq)]
pub struct DataError {
    /// Line of the file \[1-based\], 0 for the file as a whole.
    pub line: usize,
    /// What is wrong and what is expected.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for DataError {}

fn err(line: usize, message: impl Into<String>) -> DataError {
    DataError {
        line,
        message: message.into(),
    }
}

/// The columns the parser knows, with their accepted names and units (factor to SI).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    T,
    X,
    V,
    F,
    N,
    W,
}

impl Col {
    fn key(self) -> &'static str {
        match self {
            Col::T => "t",
            Col::X => "x",
            Col::V => "v",
            Col::F => "F",
            Col::N => "N",
            Col::W => "w",
        }
    }

    fn of(name: &str) -> Option<Col> {
        Some(match name.to_ascii_lowercase().as_str() {
            "t" | "time" => Col::T,
            "x" | "position" | "displacement" => Col::X,
            "v" | "velocity" => Col::V,
            "f" | "force" | "friction" => Col::F,
            "n" | "normal" | "fn" => Col::N,
            "w" | "weight" => Col::W,
            _ => return None,
        })
    }

    fn quantity(self) -> &'static str {
        match self {
            Col::T => "a time (s, ms, µs)",
            Col::X => "a displacement (m, mm, µm, nm)",
            Col::V => "a velocity (m/s, mm/s, µm/s)",
            Col::F | Col::N => "a force (N, mN, kN)",
            Col::W => "a weight (no unit)",
        }
    }

    /// Factor from `unit` to SI for this column, `None` if the unit is not one of its.
    fn factor(self, unit: &str) -> Option<f64> {
        let u = unit.trim().replace('μ', "µ").replace("um", "µm");
        let u = u.as_str();
        Some(match (self, u) {
            (_, "") => 1.0,
            (Col::T, "s") => 1.0,
            (Col::T, "ms") => 1e-3,
            (Col::T, "µs" | "us") => 1e-6,
            (Col::X, "m") => 1.0,
            (Col::X, "cm") => 1e-2,
            (Col::X, "mm") => 1e-3,
            (Col::X, "µm") => 1e-6,
            (Col::X, "nm") => 1e-9,
            (Col::V, "m/s") => 1.0,
            (Col::V, "cm/s") => 1e-2,
            (Col::V, "mm/s") => 1e-3,
            (Col::V, "µm/s") => 1e-6,
            (Col::F | Col::N, "N") => 1.0,
            (Col::F | Col::N, "mN") => 1e-3,
            (Col::F | Col::N, "kN") => 1e3,
            (Col::F | Col::N, "µN") => 1e-6,
            (Col::W, "1" | "-") => 1.0,
            _ => return None,
        })
    }
}

/// Splits `F [N]` / `F (N)` / `F` into name and unit.
fn name_and_unit(field: &str) -> (&str, &str) {
    let f = field.trim().trim_matches('"');
    for (open, close) in [('[', ']'), ('(', ')')] {
        if let (Some(a), Some(b)) = (f.find(open), f.rfind(close)) {
            if a < b {
                return (f[..a].trim(), f[a + 1..b].trim());
            }
        }
    }
    (f, "")
}

/// Parses a CSV/TSV text with SI units unless the header or `units` (pairs of column key and
/// unit, e.g. `("v", "mm/s")`, overriding the header) say otherwise.
pub fn parse(text: &str, units: &[(&str, &str)]) -> Result<Data, DataError> {
    parse_with(text, units, false)
}

/// As [`parse`], but `units` only give the units of columns whose header has none (the page's
/// unit chooser: a unit stated in the file wins).
pub fn parse_filling(text: &str, units: &[(&str, &str)]) -> Result<Data, DataError> {
    parse_with(text, units, true)
}

fn parse_with(text: &str, units: &[(&str, &str)], fill_only: bool) -> Result<Data, DataError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let (hline, header) = lines.next().ok_or_else(|| {
        err(
            0,
            "the file is empty: expected a header line such as t,x,v,F",
        )
    })?;
    let sep = if header.contains('\t') {
        '\t'
    } else if header.contains(';') && !header.contains(',') {
        ';'
    } else {
        ','
    };
    let mut cols: Vec<Option<(Col, f64)>> = Vec::new();
    let mut seen: Vec<Col> = Vec::new();
    let mut unitless = Vec::new();
    for field in header.split(sep) {
        let (name, unit) = name_and_unit(field);
        let Some(col) = Col::of(name) else {
            cols.push(None); // unknown columns are ignored (listed in the notes)
            continue;
        };
        if seen.contains(&col) {
            return Err(err(hline, format!("column {} appears twice", col.key())));
        }
        seen.push(col);
        if unit.is_empty() {
            unitless.push(col.key());
        }
        let unit = units
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(col.key()) && (!fill_only || unit.is_empty()))
            .map_or(unit, |(_, u)| *u);
        let factor = col.factor(unit).ok_or_else(|| {
            err(
                hline,
                format!(
                    "column {} has unit \"{unit}\", which is not {}",
                    col.key(),
                    col.quantity()
                ),
            )
        })?;
        cols.push(Some((col, factor)));
    }
    let has = |c: Col| seen.contains(&c);
    let names: Vec<&str> = header.split(sep).map(|f| name_and_unit(f).0).collect();
    for need in [Col::T, Col::F] {
        if !has(need) {
            return Err(err(
                hline,
                format!(
                    "missing column {} (the header has {}); need t, v (or x) and F; x, N and w \
                     are optional",
                    need.key(),
                    names.join(", ")
                ),
            ));
        }
    }
    if !has(Col::V) && !has(Col::X) {
        return Err(err(
            hline,
            format!(
                "missing column v (the header has {}); need t, v (or x) and F",
                names.join(", ")
            ),
        ));
    }
    let mut d = Data {
        unitless,
        ..Data::default()
    };
    let mut x = Vec::new();
    let mut v = Vec::new();
    let mut normal = Vec::new();
    let mut w = Vec::new();
    let mut last_line = hline;
    for (ln, line) in lines {
        let fields: Vec<&str> = line.split(sep).collect();
        if fields.len() != cols.len() {
            return Err(err(
                ln,
                format!(
                    "{} fields, but the header has {} columns",
                    fields.len(),
                    cols.len()
                ),
            ));
        }
        for (field, col) in fields.iter().zip(&cols) {
            let Some((col, factor)) = *col else { continue };
            let s = field.trim().trim_matches('"');
            let value: f64 = parse_f64(s)
                .ok_or_else(|| err(ln, format!("column {}: \"{s}\" is not a number", col.key())))?;
            if !value.is_finite() {
                return Err(err(
                    ln,
                    format!("column {}: {s} is not a finite number", col.key()),
                ));
            }
            let value = value * factor;
            match col {
                Col::T => {
                    if let Some(&prev) = d.t.last() {
                        if value <= prev {
                            return Err(err(
                                ln,
                                format!(
                                    "time {s} is not after the previous row's (time must \
                                     increase from row to row)"
                                ),
                            ));
                        }
                    }
                    d.t.push(value);
                }
                Col::X => x.push(value),
                Col::V => v.push(value),
                Col::F => d.f.push(value),
                Col::N => normal.push(value),
                Col::W => {
                    if value < 0.0 {
                        return Err(err(ln, format!("column w: weight {s} is negative")));
                    }
                    w.push(value)
                }
            }
        }
        last_line = ln;
    }
    let n = d.t.len();
    if n < MIN_ROWS {
        return Err(err(
            0,
            format!("only {n} data rows (up to line {last_line}); a fit needs at least {MIN_ROWS}"),
        ));
    }
    let span = d.t[n - 1] - d.t[0];
    match (has(Col::V), has(Col::X)) {
        (true, true) => {
            check_units(&d.t, &x, &v, hline)?;
            d.x = x;
            d.v = v;
        }
        (true, false) => {
            d.x = integrate(&d.t, &v);
            d.v = v;
            d.notes
                .push("x integrated from v (trapezoid rule, x = 0 at the first row)".into());
        }
        _ => {
            d.v = Spline::new(&d.t, &x).velocities();
            d.x = x;
            d.x_drive = true;
            d.notes.push(
                "no v: the models are driven by x through a cubic spline between the samples \
                 (v is its derivative)"
                    .into(),
            );
        }
    }
    if has(Col::N) {
        let (lo, hi) = normal
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        let span = if lo == hi {
            sig3(lo)
        } else {
            format!("{} to {}", sig3(lo), sig3(hi))
        };
        d.notes.push(format!(
            "column N: normal load {span} N, the model's F_N unless the query sets it"
        ));
        d.normal = Some(normal);
    }
    if has(Col::W) {
        if w.iter().all(|&a| a == 0.0) {
            return Err(err(hline, "column w: every weight is zero"));
        }
        d.w = Some(w);
    }
    if span.is_nan() || span <= 0.0 {
        return Err(err(0, "the time span is zero"));
    }
    Ok(d)
}

/// Rejects v and x whose units disagree: v should be dx/dt. A least-squares factor far from 1
/// (a column in mm, a time in ms) means one of the stated units is wrong.
fn check_units(t: &[f64], x: &[f64], v: &[f64], hline: usize) -> Result<(), DataError> {
    let d = differentiate(t, x);
    let (num, den) = d
        .iter()
        .zip(v)
        .fold((0.0, 0.0), |(a, b), (dx, v)| (a + dx * v, b + v * v));
    let scale = d.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
    if den == 0.0 || scale == 0.0 {
        return Ok(());
    }
    let ratio = num / den; // dx/dt ≈ ratio · v
    if !(0.2..=5.0).contains(&ratio) {
        return Err(err(
            hline,
            format!(
                "units look wrong: dx/dt is about {} × v; check the units of t, x and v \
                 (e.g. x in mm but v in m/s, or t in ms)",
                sig3(ratio)
            ),
        ));
    }
    Ok(())
}

/// `x` to three significant digits.
fn sig3(x: f64) -> String {
    parse_f64(&format!("{x:.2e}")).map_or_else(|| x.to_string(), |r| r.to_string())
}

/// Trapezoid integral of `v` from 0 at the first sample.
pub fn integrate(t: &[f64], v: &[f64]) -> Vec<f64> {
    let mut x = vec![0.0; t.len()];
    for k in 1..t.len() {
        x[k] = x[k - 1] + 0.5 * (v[k] + v[k - 1]) * (t[k] - t[k - 1]);
    }
    x
}

/// Central differences (one-sided at the ends) of `x` over `t`.
pub fn differentiate(t: &[f64], x: &[f64]) -> Vec<f64> {
    let n = t.len();
    (0..n)
        .map(|k| {
            let (a, b) = (k.saturating_sub(1), (k + 1).min(n - 1));
            if b > a {
                (x[b] - x[a]) / (t[b] - t[a])
            } else {
                0.0
            }
        })
        .collect()
}
